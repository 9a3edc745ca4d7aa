import PaylinksFixtures
import PaylinksJSON
package import PaylinksKit

/// The listings of `paylinks errors` and `paylinks offers`: a table for people, or one
/// JSON object per line for scripts.
package enum CatalogListing {
    // MARK: errors

    /// Every status code: a table, or NDJSON.
    /// Callbacks are named as `target`'s platform names them; the commands that reproduce
    /// each code select `target`.
    package static func statusCodes(
        _ catalog: Catalog, format: OutputFormat, color: Bool = false, target: SDKTarget = .standard,
        fixtures: String? = nil
    ) -> String {
        let platform = target.platform
        switch format {
        case .json:
            return catalog.statusCodes.map {
                statusCodeJSON($0, target: target, catalog: catalog, fixtures: fixtures) + "\n"
            }.joined()
        case .text, .wire:
            let rows = catalog.statusCodes.map { code in
                [
                    String(code.code), code.name, code.callbacks.map(platform.name(of:)).joined(separator: ", "),
                    exitCodes(of: code).map { String($0.rawValue) }.joined(separator: ", "), code.message,
                ]
            }
            return table(header: ["CODE", "NAME", "CALLBACK", "EXIT", "MESSAGE"], rows: rows, color: color)
        }
    }

    /// One status code explained: what causes it, how to reproduce it, what to do.
    /// The commands that reproduce it name `fixtures` and a SKU of `catalog` when given.
    package static func explain(
        _ code: StatusCode, format: OutputFormat, target: SDKTarget = .standard, catalog: Catalog? = nil,
        fixtures: String? = nil
    ) -> String {
        if format == .json { return statusCodeJSON(code, target: target, catalog: catalog, fixtures: fixtures) + "\n" }
        let platform = target.platform
        let steps = code.steps.map(\.rawValue).joined(separator: " or ")
        let reproduce = Reproduction.commands(for: code, target: target, catalog: catalog, fixtures: fixtures)
        var fields: [(String, String)] = [
            ("meaning", code.meaning),
            ("arrives", "\(code.callbacks.map(platform.name(of:)).joined(separator: ", ")), at the \(steps) step"),
            ("exit code", exitCodes(of: code).map { String($0.rawValue) }.joined(separator: ", ")),
            ("message", code.message),
            ("order", orderDescription(code.orderAtFailure)),
            ("data", code.dataTemplate.map(describedData) ?? "(none)"),
            ("reproduce", reproduce.first ?? "(\(Reproduction.noCommand))"),
        ]
        fields += reproduce.dropFirst().map { ("", $0) }
        if let advice = code.advice { fields.append(("advice", advice)) }
        // A fixture's names and words, escaped as a table's cells are.
        var text = "\(code.code) \(MessageText.oneLine(code.name))\n"
        for (label, value) in fields {
            text += "  " + label + String(repeating: " ", count: 11 - label.count) + MessageText.oneLine(value) + "\n"
        }
        return text
    }

    /// What each placeholder of a data template stands for, as `errors CODE` shows it.
    static let placeholderMeanings: [String: String] = [
        "sdkCustomerId": "the customer id given to initialize", "orderCustomerId": "the order's customer id",
        "sdkEnvironment": "the SDK's environment", "sessionEnvironment": "the checkout session's environment",
        "redirectUrl": "the redirect URL given to initialize", "offerSku": "the offer's SKU",
        "purchaseId": "the checkout's purchase id", "orderId": "the order id",
        "request": "the call that failed: initialize, getPricePoints or openCheckout",
        "lastState": "the order's state when the SDK stopped polling",
    ]

    /// A data template with each `${name}` replaced by what it stands for:
    /// `{"request":"<the call that failed: ...>"}`.
    static func describedData(_ template: String) -> String {
        var text = template
        for placeholder in StatusCode.placeholders(in: template) {
            text = text.replacingEvery(
                "${\(placeholder)}", with: "<\(placeholderMeanings[placeholder] ?? placeholder)>")
        }
        return text
    }

    /// The exit codes a flow ends with when it ends in `code`, one per callback.
    static func exitCodes(of code: StatusCode) -> [ExitCode] {
        code.callbacks.map { ExitCode(finishingWith: $0, isCancel: code.isCancel) }
    }

    private static func orderDescription(_ rule: StatusCode.OrderAtFailure) -> String {
        switch rule {
        case .none: "none (null): the failure comes before the checkout opens"
        case .checkout: "as the open checkout knows it: no paymentMethodName or orderId yet"
        case .payment: "all of it: a payment was attempted"
        }
    }

    private static func statusCodeJSON(_ code: StatusCode, target: SDKTarget, catalog: Catalog?, fixtures: String?)
        -> String
    {
        let platform = target.platform
        var writer = JSONWriter()
        writer.openObject()
        writer.field("code", code.code)
        writer.field("name", code.name)
        writer.field("meaning", code.meaning)
        writer.field("message", code.message)
        writer.key("callbacks")
        writer.openArray()
        for callback in code.callbacks { writer.string(platform.name(of: callback)) }
        writer.closeArray()
        writer.key("exitCodes")
        writer.openArray()
        for exit in exitCodes(of: code) { writer.int(Int(exit.rawValue)) }
        writer.closeArray()
        writer.field("orderAtFailure", code.orderAtFailure.rawValue)
        writer.key("reproduce")
        writer.openArray()
        for command in Reproduction.commands(for: code, target: target, catalog: catalog, fixtures: fixtures) {
            writer.string(command)
        }
        writer.closeArray()
        if let advice = code.advice {
            writer.field("advice", advice)
        }
        writer.closeObject()
        return writer.output
    }

    // MARK: offers

    /// Every offer with its items and its price in `country`: a table, or NDJSON.
    /// Items count under `platform`'s key.
    package static func offers(
        _ catalog: Catalog, country: String, format: OutputFormat, color: Bool = false, platform: Platform = .ios
    ) -> String {
        let localization = catalog.localization(for: country)
        let priced = catalog.offers.map { offer in
            (offer, localization.flatMap { local in local.localizedPrices[offer.basePriceInUSD].map { (local, $0) } })
        }
        switch format {
        case .json:
            return priced.map { offer, price in
                var writer = JSONWriter()
                writer.openObject()
                writer.field("sku", offer.sku)
                writer.field("name", offer.name)
                writer.field("basePriceInUSD", offer.basePriceInUSD)
                writer.field("country", country)
                if let (local, localized) = price,
                    let minor = local.minorUnits(ofTier: offer.basePriceInUSD)
                {
                    writer.field("price", minor)
                    writer.field("currency", local.data.currencyCode)
                    writer.field("formattedPrice", PriceFormatter.format(localized, as: local.data))
                }
                writer.key("items")
                JSONLinesRenderer.write(offer.items, to: &writer, platform: platform)
                writer.closeObject()
                return writer.line
            }.joined()
        case .text, .wire:
            let rows = priced.map { offer, price -> [String] in
                let shown = price.flatMap { local, _ in
                    local.minorUnits(ofTier: offer.basePriceInUSD).map {
                        catalog.priceText(minorUnits: $0, currency: local.data.currencyCode)
                    }
                }
                let items = offer.items.map { "\($0.name) ×\($0.quantity)" }.joined(separator: ", ")
                return [offer.sku, offer.name, shown ?? "-", items]
            }
            return table(header: ["SKU", "NAME", "PRICE (\(country))", "ITEMS"], rows: rows, color: color)
        }
    }

    /// The countries with a localization of their own: currency and the price of an
    /// example tier (4.99 US dollars, or the cheapest), then where every other country
    /// gets its prices.
    package static func countries(_ catalog: Catalog, format: OutputFormat, color: Bool = false) -> String {
        let tier = catalog.tiers.contains("4.99") ? "4.99" : catalog.tiers.first ?? ""
        let localized = catalog.localizedCountries.compactMap { catalog.ownLocalization(of: $0) }
        switch format {
        case .json:
            return localized.map { local in
                var writer = JSONWriter()
                writer.openObject()
                writer.field("country", local.country)
                writer.field("currencyCode", local.data.currencyCode)
                writer.field("currencySymbol", local.data.currencySymbol)
                writer.field("basePriceInUSD", tier)
                if let localizedPrice = local.localizedPrices[tier], let minor = local.minorUnits(ofTier: tier) {
                    writer.field("price", minor)
                    writer.field("formattedPrice", PriceFormatter.format(localizedPrice, as: local.data))
                }
                writer.closeObject()
                return writer.line
            }.joined()
        case .text, .wire:
            let rows = localized.map { local -> [String] in
                let example = local.minorUnits(ofTier: tier).map {
                    catalog.priceText(minorUnits: $0, currency: local.data.currencyCode)
                }
                return [local.country, local.data.currencyCode, example ?? "-"]
            }
            return table(header: ["COUNTRY", "CURRENCY", "EXAMPLE (\(tier) USD TIER)"], rows: rows, color: color)
                + "\nAny other country gets the \(Catalog.fallbackCountry) prices.\n"
        }
    }

    /// A table whose header is bold when coloured.
    private static func table(header: [String], rows: [[String]], color: Bool) -> String {
        let text = TextTable.render(header: header, rows: rows, indent: 0)
        guard color, let newline = text.firstIndex(of: "\n") else { return text }
        return TextStyle.ansi.heading(String(text[..<newline])) + text[newline...]
    }
}
