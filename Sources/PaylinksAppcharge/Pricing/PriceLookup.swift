package import PaylinksJSON

/// Get Price Points for a Country (`POST /v1/price-points/localized/lookup`): the
/// request read and checked in the order the sandbox gives its errors (body shape, count,
/// values, country format, support), and the answer written.
public enum PriceLookup {
    /// The most prices one lookup takes (`maxItems: 50`).
    public static let maximumCount = 50

    /// A lookup refused: its 400's `message`, in Appcharge's words (PL/error-messages).
    public struct Problem: Error, Equatable {
        /// The message, exactly as Appcharge words it.
        public let message: String
        /// What was wrong and what to send, for the log, where the message says too little
        /// for a developer to mend ("Invalid request body").
        public var detail: String? = nil
    }

    /// A lookup read and checked: the requested cents in the order first sent, each once,
    /// and the country.
    public struct Request: Equatable, Sendable {
        /// The US cents, duplicates collapsed.
        public let cents: [Int]
        /// The country, ISO 3166-1 alpha-2, supported.
        public let country: String
    }

    /// The request `body` holds, checked in everything but whether its country is
    /// supported, which ``checked(_:book:)`` adds: read without a book, so that a server
    /// can read it before it holds the book.
    public static func read(_ body: [UInt8]) throws(Problem) -> Request {
        if let tape = JSONTape(body) { return try read(root: tape.root) }
        let value: JSONValue
        do {
            value = try JSONParser.parse(body)
        } catch {
            throw Problem(
                message: "Invalid request body",
                detail: error.isEmptyText ? "\(error.bodyProblem); \(shape)" : error.bodyProblem)
        }
        return try read(root: value)
    }

    /// What a lookup's body is, as the log says it.
    private static let shape = #"send {"pricesInUsdCents": [US cents, such as 499], "countryCode2": "DE"}"#

    /// The request a body's value `root` holds, as ``read(_:)`` reads it.
    package static func read<Value: JSONReadable>(root: Value) throws(Problem) -> Request {
        guard let country = root.member("countryCode2"), let elements = root.member("pricesInUsdCents")?.elements
        else {
            let missing =
                !root.isObject
                ? "the body is not a JSON object"
                : root.member("pricesInUsdCents")?.elements == nil
                    ? "pricesInUsdCents is missing or not an array" : "countryCode2 is missing"
            throw Problem(message: "Invalid request body", detail: "\(missing); \(shape)")
        }
        // Counted before any is read, up to one past the most.
        var count = 0
        for _ in elements {
            count += 1
            guard count <= maximumCount else {
                // The error page's wording, without the period OAS adds.
                throw Problem(message: "Too many price points used, maximum is \(maximumCount)")
            }
        }
        var cents: [Int] = []
        cents.reserveCapacity(count)
        var bad: [String] = []
        for item in elements {
            // Whole numbers only, as priceDetails.price takes them: 699.0 is one, 699.5 is not.
            if let number = item.wholeNumber, number > 0 {
                if !cents.contains(number) { cents.append(number) }
            } else {
                var writer = JSONWriter()
                item.write(to: &writer)
                bad.append(String(decoding: writer.bytes, as: UTF8.self))
            }
        }
        guard bad.isEmpty else {
            // `priceInUsdCents`, though the field is `pricesInUsdCents`: Appcharge's words.
            throw Problem(
                message: "Invalid priceInUsdCents value: must be a positive integer [\(bad.joined(separator: ", "))].")
        }
        guard let code = country.stringValue, code.utf8.count == 2,
            code.utf8.allSatisfy({ (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) })
        else { throw Problem(message: "Invalid countryCode2: must be ISO 3166-1 alpha-2.") }
        return Request(cents: cents, country: code)
    }

    /// `request`, read by ``read(_:)``, once `book` supports its country: the last check,
    /// so that a lookup wrong in several ways gets the error Appcharge gives first.
    public static func checked(_ request: Request, book: PricePointBook) throws(Problem) -> Request {
        guard book.supports(request.country) else {
            throw Problem(message: "countryCode2 \(request.country) is not supported.")
        }
        return request
    }

    /// The answer to `request`: `{"currencyCode", "pricePoints": {"699": {"price",
    /// "displayPrice"}}}`, keyed by the cents in the order asked, a point without a local
    /// price `null`, and `currencyCode` `""` when none has one.
    public static func answer(_ request: Request, book: PricePointBook) -> [UInt8] {
        let prices = zip(request.cents, book.prices(request.cents, in: request.country))
        // Room for a price point's member, about 60 bytes, at once.
        var writer = JSONWriter(capacity: 48 + 64 * request.cents.count)
        writer.openObject()
        writer.field("currencyCode", prices.lazy.compactMap(\.1).first?.currency ?? "")
        writer.key("pricePoints")
        writer.openObject()
        for (cents, price) in prices {
            writer.key(number: cents)
            guard let price else {
                writer.null()
                continue
            }
            writer.openObject()
            writer.field("price", price.minorUnits)
            writer.field("displayPrice", price.displayPrice)
            writer.closeObject()
        }
        writer.closeObject()
        writer.closeObject()
        return writer.bytes
    }
}
