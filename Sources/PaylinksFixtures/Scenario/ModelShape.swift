/// The keys of the SDK's models as paylinks' JSON output writes them: what a scenario's
/// `expect.order`, `expect.error` and `expect.pricePoints` may name, so that a misspelt key
/// is refused when the file loads instead of failing as a mismatch when it runs.
///
/// The JSON renderer's tests hold it to the output, key for key.
public indirect enum ModelShape: Sendable {
    /// An object with these keys, in the order the output writes them.
    case object([(key: String, shape: ModelShape)])
    /// An array whose elements have one shape.
    case array(ModelShape)
    /// A string, number, boolean or null.
    case value
    /// Anything: the free-form `error.data`.
    case any

    /// `OrderResponseModel`; an item's count is `quantity`, or `amount` in Unity's model.
    public static let order = ModelShape.object([
        ("date", .value), ("sessionToken", .value), ("offerName", .value), ("offerSku", .value),
        ("items", .array(.object([("name", .value), ("sku", .value), ("quantity", .value), ("amount", .value)]))),
        ("price", .value), ("currency", .value), ("customerId", .value), ("customerCountry", .value),
        ("paymentMethodName", .value), ("orderId", .value), ("purchaseId", .value),
    ])

    /// `ACErrorMessage`.
    public static let error = ModelShape.object([("code", .value), ("message", .value), ("data", .any)])

    /// `PricePoints`.
    public static let pricePoints = ModelShape.object([
        (
            "pricingPoints",
            .array(.object([("basePriceInUSD", .value), ("localizedPrice", .value), ("formattedPrice", .value)]))
        ),
        (
            "pricingPointData",
            .object([
                ("currencyCode", .value), ("currencySymbol", .value), ("fractionalSeparator", .value),
                ("milSeparator", .value), ("symbolPosition", .value), ("spacing", .value), ("multiplier", .value),
            ])
        ),
    ])

    /// Checks that every key of `reader`'s value is one this shape has, at every depth,
    /// suggesting the closest; a reader that records problems records each. A value of
    /// another type is left to the matcher, which reports what was expected and what came.
    public func checkKeys(of reader: JSONReader) throws(JSONShapeError) {
        switch (self, reader.value.kind) {
        case (.object(let fields), .object):
            let object = try reader.object(keys: fields.map(\.key))
            for field in fields {
                guard let child = object.optional(field.key) else { continue }
                _ = try child.collecting { () throws(JSONShapeError) in try field.shape.checkKeys(of: child) }
            }
        case (.array(let element), .array):
            for child in try reader.array() {
                _ = try child.collecting { () throws(JSONShapeError) in try element.checkKeys(of: child) }
            }
        default:
            break
        }
    }
}
