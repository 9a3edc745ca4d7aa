import PaylinksJSON

/// The keys of the SDK's models as paylinks' JSON output writes them: what a scenario's
/// `expect.order`, `expect.error` and `expect.pricePoints` may name, so that a misspelt key
/// is refused when the file loads instead of failing as a mismatch when it runs.
///
/// The JSON renderer's tests hold it to the output, key for key.
///
/// A struct of arrays rather than an indirect enum: the boxes of an indirect enum's
/// statics carry tag bits in their pointers, which LeakSanitizer (`make fuzz`) cannot
/// follow and reports as leaked.
public struct ModelShape: Sendable {
    /// What a value of the shape is.
    public enum Kind: Sendable {
        /// An object with the keys of ``ModelShape/fields``, in the order the output writes them.
        case object
        /// An array whose elements have the shape ``ModelShape/element``.
        case array
        /// A string, number, boolean or null.
        case value
        /// Anything: the free-form `error.data`.
        case any
    }

    /// What a value of the shape is.
    public let kind: Kind
    /// An object's keys and their shapes.
    public let fields: [(key: String, shape: ModelShape)]
    /// An array's element shape, alone in the list.
    private let elements: [ModelShape]

    /// An array's element shape.
    public var element: ModelShape? { elements.first }

    private init(_ kind: Kind, fields: [(key: String, shape: ModelShape)] = [], elements: [ModelShape] = []) {
        self.kind = kind
        self.fields = fields
        self.elements = elements
    }

    /// An object with these keys, in the order the output writes them.
    public static func object(_ fields: [(key: String, shape: ModelShape)]) -> ModelShape {
        ModelShape(.object, fields: fields)
    }

    /// An array whose elements have one shape.
    public static func array(_ element: ModelShape) -> ModelShape {
        ModelShape(.array, elements: [element])
    }

    /// A string, number, boolean or null.
    public static let value = ModelShape(.value)
    /// Anything.
    public static let any = ModelShape(.any)

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
        switch (kind, reader.value.kind) {
        case (.object, .object):
            let object = try reader.object(keys: fields.map(\.key))
            for field in fields {
                guard let child = object.optional(field.key) else { continue }
                _ = try child.collecting { () throws(JSONShapeError) in try field.shape.checkKeys(of: child) }
            }
        case (.array, .array):
            guard let element else { return }
            for child in try reader.array() {
                _ = try child.collecting { () throws(JSONShapeError) in try element.checkKeys(of: child) }
            }
        default:
            break
        }
    }
}
