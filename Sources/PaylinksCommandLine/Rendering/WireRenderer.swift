package import PaylinksAppcharge
import PaylinksFixtures
import PaylinksJSON
package import PaylinksKit

/// Renders each callback exactly as the platform hands it to the game, to paste into a
/// unit test of the game's own handling:
///
/// - iOS: the Swift call on the delegate, one line, built with the library's initializers
///   (it compiles against PaylinksKit); with `--language objc`, the message the
///   Objective-C delegate receives, then what an Objective-C test would compare of its
///   arguments, one `XCTAssert...` a line, `NSString`s as `@"..."`, `NSInteger`s as numbers.
/// - Android: the Java method's signature, then each field of its arguments with its Java
///   type and value, one per line.
/// - Unity (on iOS): the method name and the one string the native bridge sends: an
///   order's JSON, an error's JSON, or for a failed purchase the envelope
///   `{"errorJson": ..., "orderJson": ...}` whose members are JSON text themselves,
///   `orderJson` being `"null"` unless the order has an `orderId`.
///
/// A scenario's tag, and each award attempt, come as `//` comments, which Swift, Java
/// and C# all skip.
package struct WireRenderer: CallbackRenderer {
    /// The platform and SDK version whose calls the output shows.
    package let target: SDKTarget
    private var platform: Platform { target.platform }
    /// Whether `onPurchaseFailed` carries no order (G1).
    private var failureHasNoOrder: Bool { target.generation == .g1 }

    /// The language of the iOS delegate.
    package let language: DelegateLanguage

    /// Creates a renderer for `target`, an iOS delegate written in `language`.
    package init(target: SDKTarget, language: DelegateLanguage = .swift) {
        self.target = target
        self.language = language
    }

    /// The callback as the platform delivers it, newline included.
    package func render(_ callback: Callback, tag: CallbackTag?) -> String {
        let comment = tag.map { Self.comment(Self.label($0)) } ?? ""
        switch platform {
        case .ios where language == .objc: return comment + objectiveCMessage(callback)
        case .ios: return comment + swiftCall(callback) + "\n"
        case .android: return comment + javaCall(callback)
        case .unity: return comment + bridgeMessage(callback) + "\n"
        }
    }

    /// An award attempt, as a comment: it is not something the SDK delivers.
    package func render(award attempt: DeliveryAttempt, url: String, tag: CallbackTag?) -> String {
        let result =
            attempt.publisherPurchaseId.map { "granted as \($0)" } ?? "failed: \(attempt.failure ?? "")"
        let source = tag.map { " [\(Self.label($0))]" } ?? ""
        let status = attempt.status.map(String.init) ?? "no response"
        return Self.comment("award attempt \(attempt.number) to \(url)\(source): \(status), \(result)")
    }

    /// An event, as comments: the game's server receives it, not the app. One not sent is
    /// shown as it would be, a header a line, then the body, for a test of the server.
    package func render(event: OrderEvent, attempt: DeliveryAttempt, url: String?, tag: CallbackTag?) -> String {
        let source = tag.map { " [\(Self.label($0))]" } ?? ""
        guard let url else {
            return Self.comment("event \(event.label)\(source): not sent (no --events-url); as it would be sent:")
                + attempt.headers.map { Self.comment("\($0.name): \($0.value)") }.joined()
                + Self.comment(String(decoding: event.body, as: UTF8.self))
        }
        let status = attempt.status.map(String.init) ?? "no response"
        let result = attempt.succeeded ? "accepted" : "refused: \(attempt.failure ?? "")"
        return Self.comment("event \(event.label) attempt \(attempt.number) to \(url)\(source): \(status), \(result)")
    }

    /// A Link Out return, as a comment: the game's own link handler receives the URL, not
    /// a delegate.
    package func render(redirect url: String, status: LinkOutStatus, tag: CallbackTag?) -> String {
        let source = tag.map { " [\(Self.label($0))]" } ?? ""
        return Self.comment("redirect to \(url)\(source): status \(status.rawValue)")
    }

    private static func label(_ tag: CallbackTag) -> String {
        "\(tag.scenario), step \(tag.step)" + (tag.attempt.map { ", attempt \($0)" } ?? "")
    }

    /// `text` as a `//` comment line. It quotes scenario names and what endpoints
    /// answered, escaped as text output is, so that nothing in it ends the comment and
    /// becomes code in a test it is pasted into.
    private static func comment(_ text: String) -> String {
        MessageText.oneLine("// " + text) + "\n"
    }

    // MARK: iOS

    private func swiftCall(_ callback: Callback) -> String {
        let name = platform.name(of: callback.name)
        let arguments: String =
            switch callback {
            case .onInitialized: ""
            case .onInitializeFailed(let error), .onPricePointsFailed(let error): "error: \(Self.swift(error))"
            case .onPricePointsSuccess(let pricePoints): "pricePoints: \(Self.swift(pricePoints))"
            case .onPurchaseSuccess(let order): "order: \(Self.swift(order))"
            case .onPurchaseFailed(let error, _) where failureHasNoOrder: "error: \(Self.swift(error))"
            case .onPurchaseFailed(let error, let order), .onPurchaseCanceled(let error, let order):
                "error: \(Self.swift(error)), order: \(order.map(Self.swift) ?? "nil")"
            }
        return "delegate.\(name)(\(arguments))"
    }

    private static func swift(_ error: ACErrorMessage) -> String {
        let data = error.data.map { ", data: \(literal($0, .swift))" } ?? ""
        return "ACErrorMessage(code: \(error.code), message: \(literal(error.message, .swift))\(data))"
    }

    private static func swift(_ order: OrderResponseModel) -> String {
        let items = order.items.map {
            "OrderResponseModel.Item(name: \(literal($0.name, .swift)), sku: \(literal($0.sku, .swift)), "
                + "quantity: \(literal($0.quantity, .swift)))"
        }
        return "OrderResponseModel(date: \(order.date), sessionToken: \(literal(order.sessionToken, .swift)), "
            + "offerName: \(literal(order.offerName, .swift)), offerSku: \(literal(order.offerSku, .swift)), "
            + "items: [\(items.joined(separator: ", "))], price: \(order.price), "
            + "currency: \(literal(order.currency, .swift)), customerId: \(literal(order.customerId, .swift)), "
            + "customerCountry: \(literal(order.customerCountry, .swift)), "
            + "paymentMethodName: \(literal(order.paymentMethodName, .swift)), "
            + "orderId: \(literal(order.orderId, .swift)), purchaseId: \(literal(order.purchaseId, .swift)))"
    }

    private static func swift(_ pricePoints: PricePoints) -> String {
        let points = pricePoints.pricingPoints.map {
            "PricePoints.PricingPoint(basePriceInUSD: \(literal($0.basePriceInUSD, .swift)), "
                + "localizedPrice: \(literal($0.localizedPrice, .swift)), "
                + "formattedPrice: \(literal($0.formattedPrice, .swift)))"
        }
        let data = pricePoints.pricingPointData
        return "PricePoints(pricingPoints: [\(points.joined(separator: ", "))], "
            + "pricingPointData: PricePoints.PricingPointData(currencyCode: \(literal(data.currencyCode, .swift)), "
            + "currencySymbol: \(literal(data.currencySymbol, .swift)), "
            + "fractionalSeparator: \(literal(data.fractionalSeparator, .swift)), "
            + "milSeparator: \(literal(data.milSeparator, .swift)), "
            + "symbolPosition: \(literal(data.symbolPosition, .swift)), spacing: \(data.spacing), "
            + "multiplier: \(data.multiplier)))"
    }

    // MARK: iOS, Objective-C

    /// `[delegate onPurchaseFailedWithError:error order:order];`, then the arguments'
    /// values as assertions, two spaces in.
    private func objectiveCMessage(_ callback: Callback) -> String {
        let selector = callback.name.objectiveCSelector(in: target.generation)
        var checks = ObjectiveCChecks()
        var arguments: [String] = []
        switch callback {
        case .onInitialized:
            break
        case .onInitializeFailed(let error), .onPricePointsFailed(let error):
            arguments = ["error"]
            checks.add(error)
        case .onPricePointsSuccess(let pricePoints):
            arguments = ["pricePoints"]
            checks.add(pricePoints)
        case .onPurchaseSuccess(let order):
            arguments = ["order"]
            checks.add(order)
        case .onPurchaseFailed(let error, _) where failureHasNoOrder:
            arguments = ["error"]
            checks.add(error)
        case .onPurchaseFailed(let error, let order), .onPurchaseCanceled(let error, let order):
            arguments = ["error", "order"]
            checks.add(error)
            if let order { checks.add(order) } else { checks.lines.append("XCTAssertNil(order);") }
        }
        // Each argument after the keyword of its part of the selector.
        let parts = selector.split(separator: ":").map(String.init)
        let message =
            arguments.isEmpty
            ? selector : zip(parts, arguments).map { "\($0):\($1)" }.joined(separator: " ")
        return "[delegate \(message)];\n" + checks.lines.map { "  \($0)\n" }.joined()
    }

    // MARK: Android

    /// `onPurchaseFailed(ErrorMessage error, OrderResponseModel order)`, then a line per field.
    private func javaCall(_ callback: Callback) -> String {
        var parameters: [String] = []
        var fields = JavaFields()
        switch callback {
        case .onInitialized:
            break
        case .onInitializeFailed(let error), .onPricePointsFailed(let error):
            parameters.append("\(platform.errorTypeName) error")
            fields.add(error, as: "error")
        case .onPricePointsSuccess(let pricePoints):
            parameters.append("PricePoints pricePoints")
            fields.add(pricePoints)
        case .onPurchaseSuccess(let order):
            parameters.append("OrderResponseModel order")
            fields.add(order)
        case .onPurchaseFailed(let error, _) where failureHasNoOrder:
            parameters.append("\(platform.errorTypeName) error")
            fields.add(error, as: "error")
        case .onPurchaseFailed(let error, let order), .onPurchaseCanceled(let error, let order):
            parameters += ["\(platform.errorTypeName) error", "OrderResponseModel order"]
            fields.add(error, as: "error")
            if let order { fields.add(order) } else { fields.add("order", "OrderResponseModel", "null") }
        }
        return "\(platform.name(of: callback.name))(\(parameters.joined(separator: ", ")))\n" + fields.text + "\n"
    }

    // MARK: Unity

    /// `OnPurchaseSuccess {"date":...}`: the method, then the string the bridge sends.
    private func bridgeMessage(_ callback: Callback) -> String {
        let name = platform.name(of: callback.name)
        var writer = JSONWriter()
        switch callback {
        case .onInitialized:
            return name
        case .onInitializeFailed(let error), .onPricePointsFailed(let error):
            JSONLinesRenderer.write(error, to: &writer)
        case .onPurchaseFailed(let error, _) where failureHasNoOrder:
            JSONLinesRenderer.write(error, to: &writer)
        case .onPricePointsSuccess(let pricePoints):
            JSONLinesRenderer.write(pricePoints, to: &writer)
        case .onPurchaseSuccess(let order):
            JSONLinesRenderer.write(order, to: &writer, platform: .unity)
        case .onPurchaseFailed(let error, let order), .onPurchaseCanceled(let error, let order):
            var errorJSON = JSONWriter()
            JSONLinesRenderer.write(error, to: &errorJSON)
            var orderJSON = JSONWriter()
            if let order, !order.orderId.isEmpty {
                JSONLinesRenderer.write(order, to: &orderJSON, platform: .unity)
            } else {
                orderJSON.null()
            }
            writer.openObject()
            writer.field("errorJson", errorJSON.output)
            writer.field("orderJson", orderJSON.output)
            writer.closeObject()
        }
        return name + " " + writer.output
    }

    // MARK: Literals

    fileprivate static func literal(_ text: String, _ language: SourceLiteral.Language) -> String {
        SourceLiteral.quoted(text, language)
    }
}

/// The fields of a Java callback's arguments: `  order.price  int  499`, aligned.
private struct JavaFields {
    private var rows: [(path: String, type: String, value: String)] = []

    mutating func add(_ path: String, _ type: String, _ value: String) {
        rows.append((path, type, value))
    }

    private mutating func add(_ path: String, string value: String?) {
        add(path, "String", value.map { WireRenderer.literal($0, .java) } ?? "null")
    }

    mutating func add(_ error: ACErrorMessage, as name: String) {
        add("\(name).code", "int", String(error.code))
        add("\(name).message", string: error.message)
        add("\(name).data", string: error.data)
    }

    mutating func add(_ order: OrderResponseModel) {
        add("order.date", "long", String(order.date))
        add("order.sessionToken", string: order.sessionToken)
        add("order.offerName", string: order.offerName)
        add("order.offerSku", string: order.offerSku)
        add("order.items", "List<Item>", "\(order.items.count) item\(order.items.count == 1 ? "" : "s")")
        for (index, item) in order.items.enumerated() {
            add("order.items[\(index)].name", string: item.name)
            add("order.items[\(index)].sku", string: item.sku)
            add("order.items[\(index)].quantity", string: item.quantity)
        }
        add("order.price", "int", String(order.price))
        add("order.currency", string: order.currency)
        add("order.customerId", string: order.customerId)
        add("order.customerCountry", string: order.customerCountry)
        add("order.paymentMethodName", string: order.paymentMethodName)
        add("order.orderId", string: order.orderId)
        add("order.purchaseId", string: order.purchaseId)
    }

    mutating func add(_ pricePoints: PricePoints) {
        let points = pricePoints.pricingPoints
        add("pricePoints.pricingPoints", "List<PricingPoint>", "\(points.count) tier\(points.count == 1 ? "" : "s")")
        for (index, point) in points.enumerated() {
            add("pricePoints.pricingPoints[\(index)].basePriceInUSD", string: point.basePriceInUSD)
            add("pricePoints.pricingPoints[\(index)].localizedPrice", string: point.localizedPrice)
            add("pricePoints.pricingPoints[\(index)].formattedPrice", string: point.formattedPrice)
        }
        let data = pricePoints.pricingPointData
        add("pricePoints.pricingPointData.currencyCode", string: data.currencyCode)
        add("pricePoints.pricingPointData.currencySymbol", string: data.currencySymbol)
        add("pricePoints.pricingPointData.fractionalSeparator", string: data.fractionalSeparator)
        add("pricePoints.pricingPointData.milSeparator", string: data.milSeparator)
        add("pricePoints.pricingPointData.symbolPosition", string: data.symbolPosition)
        add("pricePoints.pricingPointData.spacing", "boolean", String(data.spacing))
        add("pricePoints.pricingPointData.multiplier", "int", String(data.multiplier))
    }

    /// The rows, two spaces in and aligned in columns.
    var text: String {
        let pathWidth = rows.map(\.path.count).max() ?? 0
        let typeWidth = rows.map(\.type.count).max() ?? 0
        return rows.map { row in
            "  " + row.path + String(repeating: " ", count: pathWidth - row.path.count + 2) + row.type
                + String(repeating: " ", count: typeWidth - row.type.count + 2) + row.value + "\n"
        }.joined()
    }
}

/// What an Objective-C test compares of a callback's arguments: `XCTAssertEqual` for
/// numbers and booleans, `XCTAssertEqualObjects` for strings, `XCTAssertNil` for nil.
private struct ObjectiveCChecks {
    var lines: [String] = []

    private mutating func number(_ path: String, _ value: Int) {
        lines.append("XCTAssertEqual(\(path), \(value));")
    }

    private mutating func string(_ path: String, _ value: String?) {
        guard let value else { return lines.append("XCTAssertNil(\(path));") }
        lines.append("XCTAssertEqualObjects(\(path), \(WireRenderer.literal(value, .objc)));")
    }

    mutating func add(_ error: ACErrorMessage) {
        number("error.code", error.code)
        string("error.message", error.message)
        string("error.data", error.data)
    }

    mutating func add(_ order: OrderResponseModel) {
        number("order.date", order.date)
        string("order.sessionToken", order.sessionToken)
        string("order.offerName", order.offerName)
        string("order.offerSku", order.offerSku)
        number("order.items.count", order.items.count)
        for (index, item) in order.items.enumerated() {
            string("order.items[\(index)].name", item.name)
            string("order.items[\(index)].sku", item.sku)
            string("order.items[\(index)].quantity", item.quantity)
        }
        number("order.price", order.price)
        string("order.currency", order.currency)
        string("order.customerId", order.customerId)
        string("order.customerCountry", order.customerCountry)
        string("order.paymentMethodName", order.paymentMethodName)
        string("order.orderId", order.orderId)
        string("order.purchaseId", order.purchaseId)
    }

    mutating func add(_ pricePoints: PricePoints) {
        number("pricePoints.pricingPoints.count", pricePoints.pricingPoints.count)
        for (index, point) in pricePoints.pricingPoints.enumerated() {
            string("pricePoints.pricingPoints[\(index)].basePriceInUSD", point.basePriceInUSD)
            string("pricePoints.pricingPoints[\(index)].localizedPrice", point.localizedPrice)
            string("pricePoints.pricingPoints[\(index)].formattedPrice", point.formattedPrice)
        }
        let data = pricePoints.pricingPointData
        string("pricePoints.pricingPointData.currencyCode", data.currencyCode)
        string("pricePoints.pricingPointData.currencySymbol", data.currencySymbol)
        string("pricePoints.pricingPointData.fractionalSeparator", data.fractionalSeparator)
        string("pricePoints.pricingPointData.milSeparator", data.milSeparator)
        string("pricePoints.pricingPointData.symbolPosition", data.symbolPosition)
        lines.append("XCTAssertEqual(pricePoints.pricingPointData.spacing, \(data.spacing ? "YES" : "NO"));")
        number("pricePoints.pricingPointData.multiplier", data.multiplier)
    }
}
