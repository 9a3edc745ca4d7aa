import PaylinksAppcharge
import PaylinksFixtures
import PaylinksHTTP
import PaylinksJSON
import PaylinksKit

/// Appcharge's Price Localization API, as the game's server calls it with its publisher
/// token: Get Price Points for a Country and the price points' Create, Get All, Get,
/// Update and Delete. Every answer and error is `{"message": ...}` in Appcharge's words
/// (PL/error-messages; OAS).
extension Sandbox {
    /// `POST /v1/price-points/localized/lookup`: 200 with the localized prices, or 400.
    /// The body was read on the request's loop; the prices are written there too, after
    /// the server's lock, from the book as it stood when the lookup was answered.
    func lookUpPrices(_ arrival: Arrival) -> HTTPAnswer {
        let read =
            arrival.lookup ?? Result { () throws(PriceLookup.Problem) in try PriceLookup.read(arrival.request.body) }
        do throws(PriceLookup.Problem) {
            let lookup = try PriceLookup.checked(read.get(), book: pricePoints)
            let book = pricePoints
            return Self.later { PriceLookup.answer(lookup, book: book) }
        } catch {
            return refused(
                arrival.request, Self.message(400, error.message),
                saying: error.detail.map { "\(error.message) (\($0))" } ?? error.message)
        }
    }

    /// `POST /v1/price-points`: 201 with the point created.
    func createPricePoint(_ request: HTTPRequest) -> HTTPServerResponse {
        pricePointAnswer(201) { () throws(PricePointBook.Problem) in
            let point = try pricePoints.create(request.body, now: now)
            say("price point \(point.cents) created")
            return point
        }
    }

    /// `GET /v1/price-points`: every point, cheapest first, with its last update.
    func allPricePoints() -> HTTPServerResponse {
        var writer = JSONWriter()
        writer.openObject()
        writer.key("pricePoints")
        writer.openArray()
        for point in pricePoints.all {
            writer.openObject()
            writer.field("priceInUsdCents", point.cents)
            writer.field("lastUpdate", ClockText.iso8601(milliseconds: point.lastUpdate))
            writer.closeObject()
        }
        writer.closeArray()
        writer.closeObject()
        return HTTPServerResponse(status: 200, body: writer.bytes)
    }

    /// `GET /v1/price-points/{priceInUsdCents}`: the point, or 404.
    func pricePoint(_ cents: String) -> HTTPServerResponse {
        pricePointAnswer(200) { () throws(PricePointBook.Problem) in try pricePoints.point(path: cents) }
    }

    /// `PUT /v1/price-points/{priceInUsdCents}`: the point as updated.
    func updatePricePoint(_ cents: String, _ request: HTTPRequest) -> HTTPServerResponse {
        pricePointAnswer(200) { () throws(PricePointBook.Problem) in
            let point = try pricePoints.update(path: cents, request.body, now: now)
            say("price point \(cents) updated")
            return point
        }
    }

    /// `DELETE /v1/price-points/{priceInUsdCents}`: the point as it was.
    func deletePricePoint(_ cents: String) -> HTTPServerResponse {
        pricePointAnswer(200) { () throws(PricePointBook.Problem) in
            let point = try pricePoints.delete(path: cents)
            say("price point \(point.cents) deleted")
            return point
        }
    }

    /// The point `change` gives, with `status`; its refusal in Appcharge's status and words.
    private func pricePointAnswer(
        _ status: Int, _ change: () throws(PricePointBook.Problem) -> PricePointBook.Point
    ) -> HTTPServerResponse {
        do throws(PricePointBook.Problem) {
            let point = try change()
            return HTTPServerResponse(status: status, body: pricePointJSON(point))
        } catch {
            let status =
                switch error {
                case .invalidBody, .unknownCountry: 400
                case .exists: 409
                case .notFound: 404
                }
            return Self.message(status, error.message)
        }
    }

    /// A price point as the API shows it: `{priceInUsdCents, lastUpdate, priceByCountry}`,
    /// a row for each localization, by country code, its price in major units.
    func pricePointJSON(_ point: PricePointBook.Point) -> [UInt8] {
        var writer = JSONWriter()
        writer.openObject()
        writer.field("priceInUsdCents", point.cents)
        writer.field("lastUpdate", ClockText.iso8601(milliseconds: point.lastUpdate))
        writer.key("priceByCountry")
        writer.openArray()
        for (localization, price) in pricePoints.rows(of: point) {
            writer.openObject()
            writer.key("price")
            let digits = CurrencyCodes.minorUnitDigits(of: price.currency)
            writer.rawNumber(ExactDecimal(significand: price.minorUnits, scale: digits).description)
            writer.field("currencyCode", price.currency)
            writer.field("isOverridden", price.isOverridden)
            writer.field("taxModel", localization.taxModel.rawValue)
            writer.key("taxRate")
            writer.rawNumber(localization.taxRate.description)
            writer.field("country", Self.countryNames[localization.country] ?? localization.country)
            writer.field("countryCode2", localization.country)
            if let rate = localization.usdExchangeRate {
                writer.key("usdExchangeRateOnCalc")
                writer.rawNumber(rate.description)
            }
            // Sandbox rates do not move.
            writer.field("exchangeRateDrift", "0%")
            writer.closeObject()
        }
        writer.closeArray()
        writer.closeObject()
        return writer.bytes
    }

    /// The English names of the countries the built-in fixtures localize; another country
    /// is named by its code.
    static let countryNames = [
        "BR": "Brazil", "CH": "Switzerland", "DE": "Germany", "FR": "France", "GB": "United Kingdom", "IN": "India",
        "JP": "Japan", "KR": "South Korea", "MX": "Mexico", "US": "United States",
    ]

    /// Appcharge's error of the Price Localization API: `{"message": ...}` with `status`.
    static func message(_ status: Int, _ message: String) -> HTTPServerResponse {
        var writer = JSONWriter()
        writer.openObject()
        writer.field("message", message)
        writer.closeObject()
        return HTTPServerResponse(status: status, body: writer.bytes)
    }

    /// What Create Session's price says against the lookup for its country and price
    /// point: a warning for each of currency and price that differs, which say what the
    /// lookup gives and how to send it; none without `offer.pricePointMetadata`.
    func priceWarnings(_ request: SessionRequest) -> [String] {
        // A free order (price 0) is priced so on purpose: it is a bonus, not a mistake; and a
        // price point of 0 is one the lookup itself refuses, so it has nothing to compare.
        guard request.price > 0, let cents = request.pricePointMetadata, cents > 0,
            let amount = pricePoints.amount(cents, in: request.country),
            amount.currency != request.currency || amount.minorUnits != request.price,
            let local = pricePoints.price(cents, in: request.country)
        else { return [] }
        let sent = "{\"price\": \(request.price), \"currency\": \"\(request.currency)\"}"
        return [
            "priceDetails \(sent) is not what POST /v1/price-points/localized/lookup gives the price point \(cents) "
                + "(offer.pricePointMetadata) in \(request.country): {\"price\": \(local.minorUnits), \"currencyCode\": "
                + "\"\(local.currency)\"}, shown \(local.displayPrice); send the lookup's currencyCode as "
                + "priceDetails.currency and its price as priceDetails.price"
        ]
    }
}
