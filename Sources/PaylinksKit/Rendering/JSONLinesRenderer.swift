/// Renders each callback as one compact JSON object on one line (NDJSON).
///
/// The wire shape: `{"callback":NAME, ARGUMENT:VALUE...}` (scenario runs put
/// `"scenario":NAME,"step":N` and, for a repeated step, `"attempt":N` first), where the argument keys are
/// the SDK's (`error`, `pricePoints`, `order`) and every model's keys are the SDK's
/// property names in documented order. `onPurchaseFailed` always carries `order`,
/// `null` when there is none; `error.data` is present only when it has a value.
public struct JSONLinesRenderer: CallbackRenderer {
    /// Creates a renderer.
    public init() {}

    /// One line of JSON, newline included; a tag comes first, as `scenario` and `step`.
    public func render(_ callback: Callback, tag: CallbackTag?) -> String {
        var writer = JSONWriter()
        writer.openObject()
        if let tag {
            writer.key("scenario")
            writer.string(tag.scenario)
            writer.key("step")
            writer.int(tag.step)
            if let attempt = tag.attempt {
                writer.key("attempt")
                writer.int(attempt)
            }
        }
        writer.key("callback")
        writer.string(callback.name.rawValue)
        switch callback {
        case .onInitialized:
            break
        case .onInitializeFailed(let error), .onPricePointsFailed(let error):
            writer.key("error")
            Self.write(error, to: &writer)
        case .onPricePointsSuccess(let pricePoints):
            writer.key("pricePoints")
            Self.write(pricePoints, to: &writer)
        case .onPurchaseSuccess(let order):
            writer.key("order")
            Self.write(order, to: &writer)
        case .onPurchaseFailed(let error, let order):
            writer.key("error")
            Self.write(error, to: &writer)
            writer.key("order")
            if let order { Self.write(order, to: &writer) } else { writer.null() }
        }
        writer.closeObject()
        return writer.output + "\n"
    }

    /// Writes an `ACErrorMessage`.
    public static func write(_ error: ACErrorMessage, to writer: inout JSONWriter) {
        writer.openObject()
        writer.key("code")
        writer.int(error.code)
        writer.key("message")
        writer.string(error.message)
        if let data = error.data {
            writer.key("data")
            writer.string(data)
        }
        writer.closeObject()
    }

    /// Writes an `OrderResponseModel`.
    public static func write(_ order: OrderResponseModel, to writer: inout JSONWriter) {
        writer.openObject()
        writer.key("date")
        writer.int(order.date)
        writer.key("sessionToken")
        writer.string(order.sessionToken)
        writer.key("offerName")
        writer.string(order.offerName)
        writer.key("offerSku")
        writer.string(order.offerSku)
        writer.key("items")
        write(order.items, to: &writer)
        writer.key("price")
        writer.int(order.price)
        writer.key("currency")
        writer.string(order.currency)
        writer.key("customerId")
        writer.string(order.customerId)
        writer.key("customerCountry")
        writer.string(order.customerCountry)
        writer.key("paymentMethodName")
        writer.string(order.paymentMethodName)
        writer.key("orderId")
        writer.string(order.orderId)
        writer.key("purchaseId")
        writer.string(order.purchaseId)
        writer.closeObject()
    }

    /// Writes a list of `Item`s.
    public static func write(_ items: [OrderResponseModel.Item], to writer: inout JSONWriter) {
        writer.openArray()
        for item in items {
            writer.openObject()
            writer.key("name")
            writer.string(item.name)
            writer.key("sku")
            writer.string(item.sku)
            writer.key("quantity")
            writer.string(item.quantity)
            writer.closeObject()
        }
        writer.closeArray()
    }

    /// Writes `PricePoints`.
    public static func write(_ pricePoints: PricePoints, to writer: inout JSONWriter) {
        writer.openObject()
        writer.key("pricingPoints")
        writer.openArray()
        for point in pricePoints.pricingPoints {
            writer.openObject()
            writer.key("basePriceInUSD")
            writer.string(point.basePriceInUSD)
            writer.key("localizedPrice")
            writer.string(point.localizedPrice)
            writer.key("formattedPrice")
            writer.string(point.formattedPrice)
            writer.closeObject()
        }
        writer.closeArray()
        let data = pricePoints.pricingPointData
        writer.key("pricingPointData")
        writer.openObject()
        writer.key("currencyCode")
        writer.string(data.currencyCode)
        writer.key("currencySymbol")
        writer.string(data.currencySymbol)
        writer.key("fractionalSeparator")
        writer.string(data.fractionalSeparator)
        writer.key("milSeparator")
        writer.string(data.milSeparator)
        writer.key("symbolPosition")
        writer.string(data.symbolPosition)
        writer.key("spacing")
        writer.bool(data.spacing)
        writer.key("multiplier")
        writer.int(data.multiplier)
        writer.closeObject()
        writer.closeObject()
    }
}
