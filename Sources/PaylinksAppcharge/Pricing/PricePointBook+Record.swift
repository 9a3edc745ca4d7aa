package import PaylinksJSON
import PaylinksKit

/// A price point's change as a journal keeps it: `{"priceInUsdCents":999,"lastUpdate":MS,
/// "fromCatalog":false,"priceOverrides":[{"countryCode2":"BR","price":29.99}]}`, or
/// `{"priceInUsdCents":999,"deleted":true}`.
extension PricePointBook.Record {
    /// The record's bytes.
    public var json: [UInt8] {
        var writer = JSONWriter()
        writer.openObject()
        writer.field("priceInUsdCents", cents)
        if let point {
            writer.field("lastUpdate", point.lastUpdate)
            writer.field("fromCatalog", point.fromCatalog)
            writer.key("priceOverrides")
            writer.openArray()
            for override in point.overrides {
                writer.openObject()
                writer.field("countryCode2", override.country)
                writer.key("price")
                writer.rawNumber(override.price.description)
                writer.closeObject()
            }
            writer.closeArray()
        } else {
            writer.field("deleted", true)
        }
        writer.closeObject()
        return writer.bytes
    }

    /// The record ``json`` wrote.
    package init(json value: JSONValue) throws(CheckoutSessions.Session.RecordProblem) {
        guard case .object = value.kind else { throw .init(description: "not an object") }
        let fields = RecordFields(value)
        // The API's own range: a journal holds no point the API would refuse.
        cents = try fields.integer("priceInUsdCents", in: PricePointBook.centsRange)
        if fields["deleted"] != nil {
            guard try fields.bool("deleted") else { throw .init(description: "deleted is true or missing") }
            point = nil
            return
        }
        let lastUpdate = try fields.integer("lastUpdate", in: RecordRange.milliseconds)
        let fromCatalog = try fields.bool("fromCatalog")
        var overrides: [PricePointBook.Override] = []
        for item in try fields.array("priceOverrides") {
            let override = RecordFields(item)
            let country = try override.string("countryCode2")
            guard case .number(let text)? = override["price"]?.kind, let price = ExactDecimal(text), !price.isZero
            else {
                throw .init(
                    description: "priceOverrides: price is missing or not a decimal above 0", offset: item.offset)
            }
            guard !overrides.contains(where: { $0.country == country }) else {
                throw .init(description: "priceOverrides: \(country.prefix(40)) is given twice", offset: item.offset)
            }
            overrides.append(PricePointBook.Override(country: country, price: price))
        }
        point = PricePointBook.Point(
            cents: cents, lastUpdate: lastUpdate, fromCatalog: fromCatalog, overrides: overrides)
    }
}
