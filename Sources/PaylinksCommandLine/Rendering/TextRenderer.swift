package import PaylinksAppcharge
import PaylinksFixtures
package import PaylinksKit

/// Renders each callback as a block a developer reads at a glance: the callback's name,
/// then every field of its arguments, labelled and aligned, then a blank line.
///
/// Prices show both the minor units the SDK sends and the amount they stand for
/// (`499 (4.99 USD)`), timestamps their UTC date, status codes their name. Empty
/// strings show as `(empty)`, and control characters (bidirectional ones among them) are
/// escaped so that every field stays on its line and reads in its own order.
package struct TextRenderer: CallbackRenderer {
    private let catalog: Catalog
    private let style: TextStyle
    /// The platform and SDK version whose names and arguments the blocks use.
    package let target: SDKTarget
    private var platform: Platform { target.platform }

    /// The language of the iOS delegate, whose names the blocks use.
    package let language: DelegateLanguage

    /// Creates a renderer; `catalog` supplies status code names, `style` the colours,
    /// `target` and `language` the names of callbacks, types and fields.
    package init(
        catalog: Catalog, style: TextStyle = .plain, target: SDKTarget = .standard, language: DelegateLanguage = .swift
    ) {
        self.catalog = catalog
        self.style = style
        self.target = target
        self.language = language
    }

    /// The callback's name as the game's code has it: the platform's, or the selector.
    private func title(of name: CallbackName) -> String {
        language == .objc ? name.objectiveCSelector(in: target.generation) : platform.name(of: name)
    }

    /// The block for one callback, blank line included; a tag follows the name in brackets.
    package func render(_ callback: Callback, tag: CallbackTag?) -> String {
        var block = Block()
        let source = self.source(tag)
        let title = self.title(of: callback.name)
        let name = callback.error == nil ? style.success(title) : style.failure(title)
        block.line(name + source, indent: 0)
        switch callback {
        case .onInitialized:
            break
        case .onInitializeFailed(let error), .onPricePointsFailed(let error):
            add(error, to: &block)
        case .onPricePointsSuccess(let pricePoints):
            add(pricePoints, to: &block)
        case .onPurchaseSuccess(let order):
            add(order, to: &block)
        case .onPurchaseFailed(let error, let order), .onPurchaseCanceled(let error, let order):
            add(error, to: &block)
            if let order {
                add(order, to: &block)
            } else if target.generation > .g1 || callback.name == .onPurchaseCanceled {
                // G1's onPurchaseFailed(error) has no order argument to show.
                block.line("order  (none: checkout never opened)", indent: 2)
            }
        }
        return block.text + "\n"
    }

    /// The block for one award attempt: where it went, when, and what the server said.
    package func render(award attempt: DeliveryAttempt, url: String, tag: CallbackTag?) -> String {
        var block = Block()
        let source = self.source(tag)
        let title = "award attempt \(attempt.number)"
        block.line((attempt.succeeded ? style.success(title) : style.failure(title)) + source, indent: 0)
        var fields: [(String, String)] = [
            ("url", Self.display(url)), ("sent", "+\(attempt.sentAfter / 1000) s"),
            ("status", attempt.status.map(String.init) ?? "(no response)"), ("time", "\(attempt.milliseconds) ms"),
        ]
        if let id = attempt.publisherPurchaseId { fields.append(("publisherPurchaseId", Self.quoted(id))) }
        if let message = attempt.publisherErrorMessage {
            fields.append(("publisherErrorMessage", Self.quoted(message)))
        }
        if let failure = attempt.failure { fields.append(("failed", Self.display(failure))) }
        block.fields(fields, indent: 2)
        return block.text + "\n"
    }

    /// The block for one event: an attempt at delivering it, or, unsent, its headers and body.
    package func render(event: OrderEvent, attempt: DeliveryAttempt, url: String?, tag: CallbackTag?) -> String {
        var block = Block()
        let title = "event \(event.label)" + (url == nil ? "" : ", attempt \(attempt.number)")
        block.line(
            (url == nil || attempt.succeeded ? style.success(title) : style.failure(title)) + source(tag), indent: 0)
        var fields: [(String, String)] = event.version == .v2 ? [("eventId", event.eventId)] : []
        if let url {
            fields += [
                ("url", Self.display(url)), ("sent", "+\(attempt.sentAfter / 1000) s"),
                ("status", attempt.status.map(String.init) ?? "(no response)"), ("time", "\(attempt.milliseconds) ms"),
            ]
            if let failure = attempt.failure { fields.append(("failed", Self.display(failure))) }
        } else {
            fields.append(("sent", "no (no --events-url): shown as it would be sent"))
            fields += attempt.headers.map { ($0.name, Self.display($0.value)) }
            fields.append(("body", Self.display(String(decoding: event.body, as: UTF8.self))))
        }
        block.fields(fields, indent: 2)
        return block.text + "\n"
    }

    /// The block for a Link Out return: `redirect` and the URL, then the status in words.
    package func render(redirect url: String, status: LinkOutStatus, tag: CallbackTag?) -> String {
        var block = Block()
        let title = "redirect"
        block.line(
            (status == .success ? style.success(title) : style.failure(title)) + "  " + Self.display(url)
                + source(tag), indent: 0)
        block.fields([("status", "\(status.rawValue): \(Self.words(for: status))")], indent: 2)
        return block.text + "\n"
    }

    /// What a Link Out status means, in Appcharge's words.
    static func words(for status: LinkOutStatus) -> String {
        switch status {
        case .success: "the order is paid and its award granted"
        case .fail: "an error, or the player closed the checkout's window"
        case .cancel: "the player canceled the purchase"
        }
    }

    /// `  [retries, step 3, attempt 2]` after a block's name, or nothing untagged.
    private func source(_ tag: CallbackTag?) -> String {
        guard let tag else { return "" }
        let attempt = tag.attempt.map { ", attempt \($0)" } ?? ""
        return "  " + style.secondary("[\(Self.display(tag.scenario)), step \(tag.step)\(attempt)]")
    }

    private func add(_ error: ACErrorMessage, to block: inout Block) {
        block.line("error  " + style.secondary(platform.errorTypeName), indent: 2)
        var fields: [(String, String)] = [
            (
                "code",
                style.code(catalog.statusCode(error.code).map { "\(error.code) (\($0.name))" } ?? String(error.code))
            ),
            ("message", Self.display(error.message)),
        ]
        if let data = error.data { fields.append(("data", Self.display(data))) }
        block.fields(fields, indent: 4)
    }

    private func add(_ order: OrderResponseModel, to block: inout Block) {
        // The iOS binary's order type is GameOrderResponse, which Objective-C sees by that name.
        block.line(
            "order  " + style.secondary(language == .objc ? "GameOrderResponse" : "OrderResponseModel"), indent: 2)
        let itemCount = order.items.count == 1 ? "1 item" : "\(order.items.count) items"
        let fields: [(String, String)] = [
            ("date", "\(order.date) (\(UTCDate.format(unixSeconds: order.date)))"),
            ("sessionToken", Self.display(order.sessionToken)),
            ("offerName", Self.display(order.offerName)),
            ("offerSku", Self.display(order.offerSku)),
            ("items", itemCount),
        ]
        block.fields(fields, indent: 4, labelWidth: Self.orderLabelWidth)
        for item in order.items {
            block.line(
                "- name: \(Self.display(item.name))  sku: \(Self.display(item.sku))  \(platform.itemCountKey): \(Self.display(item.quantity))",
                indent: 6)
        }
        block.fields(
            [
                ("price", Self.display(catalog.priceText(minorUnits: order.price, currency: order.currency))),
                ("currency", Self.display(order.currency)),
                ("customerId", Self.display(order.customerId)),
                ("customerCountry", Self.display(order.customerCountry)),
                ("paymentMethodName", Self.display(order.paymentMethodName)),
                ("orderId", Self.display(order.orderId)),
                ("purchaseId", Self.display(order.purchaseId)),
            ], indent: 4, labelWidth: Self.orderLabelWidth)
    }

    private static let orderLabelWidth = "paymentMethodName".count

    private func add(_ pricePoints: PricePoints, to block: inout Block) {
        block.line("pricePoints  " + style.secondary("PricePoints"), indent: 2)
        let count = pricePoints.pricingPoints.count
        block.line("pricingPoints  \(count == 1 ? "1 tier" : "\(count) tiers")", indent: 4)
        let header = ["basePriceInUSD", "localizedPrice", "formattedPrice"]
        let rows = pricePoints.pricingPoints.map {
            [Self.display($0.basePriceInUSD), Self.display($0.localizedPrice), Self.display($0.formattedPrice)]
        }
        block.table(header: header, rows: rows, indent: 6)
        let data = pricePoints.pricingPointData
        block.line("pricingPointData", indent: 4)
        block.fields(
            [
                ("currencyCode", Self.display(data.currencyCode)),
                ("currencySymbol", Self.display(data.currencySymbol)),
                ("fractionalSeparator", Self.quoted(data.fractionalSeparator)),
                ("milSeparator", Self.quoted(data.milSeparator)),
                ("symbolPosition", Self.display(data.symbolPosition)),
                ("spacing", String(data.spacing)),
                ("multiplier", String(data.multiplier)),
            ], indent: 6)
    }

    /// A string as shown in a field: `(empty)` when empty, control characters escaped.
    static func display(_ text: String) -> String {
        text.isEmpty ? "(empty)" : MessageText.oneLine(text)
    }

    /// A string in double quotes, for values such as separators whose white space matters.
    static func quoted(_ text: String) -> String {
        "\"" + MessageText.oneLine(text) + "\""
    }
}

/// Lines of text with indentation and aligned columns, gathered as UTF-8 and made a
/// string once: appending bytes costs a fraction of appending to a string.
private struct Block {
    private var bytes: [UInt8] = {
        var bytes: [UInt8] = []
        // Room for a whole block from the start: an order's is about 700 bytes.
        bytes.reserveCapacity(1024)
        return bytes
    }()

    /// The block's lines.
    var text: String { String(decoding: bytes, as: UTF8.self) }

    mutating func line(_ content: String, indent: Int) {
        pad(indent)
        bytes.append(contentsOf: content.utf8)
        bytes.append(UInt8(ascii: "\n"))
    }

    /// Label-value pairs with the values aligned two spaces after the longest label. The
    /// labels are the models' field names, ASCII, so their widths are their byte counts.
    mutating func fields(_ pairs: [(String, String)], indent: Int, labelWidth: Int? = nil) {
        let width = labelWidth ?? pairs.map(\.0.utf8.count).max() ?? 0
        for (label, value) in pairs {
            pad(indent)
            bytes.append(contentsOf: label.utf8)
            pad(width - label.utf8.count + 2)
            bytes.append(contentsOf: value.utf8)
            bytes.append(UInt8(ascii: "\n"))
        }
    }

    /// Appends `count` spaces.
    private mutating func pad(_ count: Int) {
        guard count > 0 else { return }
        if count <= Self.spaces.count {
            bytes.append(contentsOf: Self.spaces[..<count])
        } else {
            bytes.append(contentsOf: repeatElement(UInt8(ascii: " "), count: count))
        }
    }

    private static let spaces = [UInt8](repeating: UInt8(ascii: " "), count: 64)

    /// Rows under a header, each column as wide as its widest cell.
    mutating func table(header: [String], rows: [[String]], indent: Int) {
        bytes.append(contentsOf: TextTable.render(header: header, rows: rows, indent: indent).utf8)
    }
}
