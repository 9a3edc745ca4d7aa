package import PaylinksAppcharge
import PaylinksFixtures
package import PaylinksJSON
package import PaylinksKit

/// Renders each callback as one compact JSON object on one line (NDJSON).
///
/// The wire shape: `{"callback":NAME, ARGUMENT:VALUE...}` (scenario runs put
/// `"scenario":NAME,"step":N` and, for a repeated step, `"attempt":N` first), where the argument keys are
/// the SDK's (`error`, `pricePoints`, `order`) and every model's keys are the SDK's
/// property names in documented order. `onPurchaseFailed` always carries `order`,
/// `null` when there is none; `error.data` is present only when it has a value.
/// Callback names and the item count's key are the platform's: `OnPricePointsFail` and
/// `amount` for Unity. A G1 `onPurchaseFailed` has no `order` at all.
package struct JSONLinesRenderer: CallbackRenderer {
    /// The platform and SDK version whose names and arguments the lines use.
    package let target: SDKTarget
    private var platform: Platform { target.platform }

    /// Creates a renderer for `target`.
    package init(target: SDKTarget = .standard) {
        self.target = target
    }

    /// One line of JSON for an award attempt: `{"award":{...}}`, after the tag as a
    /// callback line has it.
    package func render(award attempt: DeliveryAttempt, url: String, tag: CallbackTag?) -> String {
        var writer = JSONWriter(capacity: 256)
        writer.openObject()
        Self.write(tag, to: &writer)
        writer.key("award")
        writer.openObject()
        Self.write(attempt, to: url, verdict: "granted", in: &writer)
        if let id = attempt.publisherPurchaseId { writer.field("publisherPurchaseId", id) }
        if let message = attempt.publisherErrorMessage { writer.field("publisherErrorMessage", message) }
        if let failure = attempt.failure { writer.field("reason", failure) }
        writer.closeObject()
        writer.closeObject()
        return writer.line
    }

    /// One line of JSON for an event: `{"event":{...}}`, after the tag as a callback line
    /// has it. An attempt says how it went; an event not sent carries its headers and its
    /// body, the exact bytes a receiver verifies the signature over, as a string.
    package func render(event: OrderEvent, attempt: DeliveryAttempt, url: String?, tag: CallbackTag?) -> String {
        var writer = JSONWriter(capacity: 256)
        writer.openObject()
        Self.write(tag, to: &writer)
        writer.key("event")
        writer.openObject()
        writer.field("name", event.version == .v2 ? event.name.v2Name : event.name.v1Name)
        if event.version == .v2 {
            writer.key("result")
            if let result = event.name.result { writer.string(result) } else { writer.null() }
            writer.field("eventId", event.eventId)
        }
        writer.field("version", event.version.rawValue)
        if let url {
            Self.write(attempt, to: url, verdict: "accepted", in: &writer)
            if let failure = attempt.failure { writer.field("reason", failure) }
        } else {
            writer.key("headers")
            writer.openObject()
            for header in attempt.headers {
                writer.key(data: header.name)
                writer.string(header.value)
            }
            writer.closeObject()
            writer.field("body", String(decoding: event.body, as: UTF8.self))
        }
        writer.closeObject()
        writer.closeObject()
        return writer.line
    }

    /// One line of JSON for a Link Out return: `{"event":"redirect","status":...,"url":...}`,
    /// after the tag as a callback line has it.
    package func render(redirect url: String, status: LinkOutStatus, tag: CallbackTag?) -> String {
        var writer = JSONWriter()
        writer.openObject()
        Self.write(tag, to: &writer)
        writer.field("event", "redirect")
        writer.field("status", status.rawValue)
        writer.field("url", url)
        writer.closeObject()
        return writer.line
    }

    /// What every delivery attempt's line says: its number, where it went, when, the
    /// status, how long it took, and under `verdict` whether it was taken.
    private static func write(
        _ attempt: DeliveryAttempt, to url: String, verdict: StaticString, in writer: inout JSONWriter
    ) {
        writer.field("attempt", attempt.number)
        writer.field("url", url)
        writer.field("sentAfterMilliseconds", attempt.sentAfter)
        writer.key("status")
        if let status = attempt.status { writer.int(status) } else { writer.null() }
        writer.field("milliseconds", attempt.milliseconds)
        writer.field(verdict, attempt.succeeded)
    }

    /// A scenario's tag, the first keys of its lines: `scenario`, `step` and `attempt`.
    private static func write(_ tag: CallbackTag?, to writer: inout some JSONSink) {
        guard let tag else { return }
        writer.field("scenario", tag.scenario)
        writer.field("step", tag.step)
        if let attempt = tag.attempt { writer.field("attempt", attempt) }
    }

    /// One line of JSON, newline included; a tag comes first, as `scenario` and `step`.
    package func render(_ callback: Callback, tag: CallbackTag?) -> String {
        var writer = JSONWriter()
        write(callback, tag: tag, to: &writer)
        return writer.line
    }

    /// The value of the line ``render(_:tag:)`` writes, untagged, without the text.
    package func value(of callback: Callback) -> JSONValue {
        var builder = JSONValueBuilder()
        write(callback, tag: nil, to: &builder)
        return builder.value ?? JSONValue(.object([]), at: 0)
    }

    private func write(_ callback: Callback, tag: CallbackTag?, to writer: inout some JSONSink) {
        writer.openObject()
        Self.write(tag, to: &writer)
        writer.field("callback", platform.name(of: callback.name))
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
            Self.write(order, to: &writer, platform: platform)
        case .onPurchaseFailed(let error, let order), .onPurchaseCanceled(let error, let order):
            writer.key("error")
            Self.write(error, to: &writer)
            // G1's onPurchaseFailed(error) has no order argument.
            if target.generation > .g1 || callback.name == .onPurchaseCanceled {
                writer.key("order")
                if let order { Self.write(order, to: &writer, platform: platform) } else { writer.null() }
            }
        }
        writer.closeObject()
    }

    /// Writes an `ACErrorMessage`.
    package static func write(_ error: ACErrorMessage, to writer: inout some JSONSink) {
        writer.openObject()
        writer.field("code", error.code)
        writer.field("message", error.message)
        if let data = error.data {
            writer.field("data", data)
        }
        writer.closeObject()
    }

    /// Writes an `OrderResponseModel`, its items' count under `platform`'s key.
    package static func write(_ order: OrderResponseModel, to writer: inout some JSONSink, platform: Platform = .ios) {
        writer.openObject()
        writer.field("date", order.date)
        writer.field("sessionToken", order.sessionToken)
        writer.field("offerName", order.offerName)
        writer.field("offerSku", order.offerSku)
        writer.key("items")
        write(order.items, to: &writer, platform: platform)
        writer.field("price", order.price)
        writer.field("currency", order.currency)
        writer.field("customerId", order.customerId)
        writer.field("customerCountry", order.customerCountry)
        writer.field("paymentMethodName", order.paymentMethodName)
        writer.field("orderId", order.orderId)
        writer.field("purchaseId", order.purchaseId)
        writer.closeObject()
    }

    /// Writes a list of `Item`s, each count under `platform`'s key.
    package static func write(
        _ items: [OrderResponseModel.Item], to writer: inout some JSONSink, platform: Platform = .ios
    ) {
        writer.openArray()
        for item in items {
            writer.openObject()
            writer.field("name", item.name)
            writer.field("sku", item.sku)
            if platform == .unity {
                writer.field("amount", item.quantity)
            } else {
                writer.field("quantity", item.quantity)
            }
            writer.closeObject()
        }
        writer.closeArray()
    }

    /// Writes `PricePoints`.
    package static func write(_ pricePoints: PricePoints, to writer: inout some JSONSink) {
        writer.openObject()
        writer.key("pricingPoints")
        writer.openArray()
        for point in pricePoints.pricingPoints {
            writer.openObject()
            writer.field("basePriceInUSD", point.basePriceInUSD)
            writer.field("localizedPrice", point.localizedPrice)
            writer.field("formattedPrice", point.formattedPrice)
            writer.closeObject()
        }
        writer.closeArray()
        let data = pricePoints.pricingPointData
        writer.key("pricingPointData")
        writer.openObject()
        writer.field("currencyCode", data.currencyCode)
        writer.field("currencySymbol", data.currencySymbol)
        writer.field("fractionalSeparator", data.fractionalSeparator)
        writer.field("milSeparator", data.milSeparator)
        writer.field("symbolPosition", data.symbolPosition)
        writer.field("spacing", data.spacing)
        writer.field("multiplier", data.multiplier)
        writer.closeObject()
        writer.closeObject()
    }
}
