import Foundation
import Testing

@testable import PaylinksCommandLine
@testable import PaylinksFixtures
@testable import PaylinksJSON
@testable import PaylinksKit

/// `--format wire`: each callback as the platform hands it to the game, checked by what
/// reads it there: the Swift compiler for iOS, a JSON parser for Unity's bridge.
@Suite("Wire format")
@MainActor
struct WireTests {
    static let order = OrderResponseModel(
        date: 1_718_182_312, sessionToken: "7Se7ElySHLB4YMaETT9WpPZpip8DjBqQ", offerName: #"Season "Pass" — 12 🐉\ "#,
        offerSku: "season_pass_s12", items: [.init(name: "Tab\there", sku: "gem_01", quantity: "100")], price: 1999,
        currency: "USD", customerId: "cust_98765", customerCountry: "US", paymentMethodName: "Visa",
        orderId: "6892374487", purchaseId: "pr_asvduvhtnn2i4wp4s6sccct5")
    static let error = ACErrorMessage(code: 3003, message: "The charge failed.", data: #"{"orderId":"6892374487"}"#)

    /// One of each callback, with text that needs escaping in every language.
    static let callbacks: [Callback] = [
        .onInitialized,
        .onInitializeFailed(error: ACErrorMessage(code: 2003, message: "Line\u{1}\nbreak")),
        .onPricePointsSuccess(pricePoints: Catalog.builtIn.pricePoints(for: "DE")!),
        .onPricePointsFailed(error: ACErrorMessage(code: 1001, message: "m", data: #"{"httpStatus":500}"#)),
        .onPurchaseSuccess(order: order),
        .onPurchaseFailed(error: error, order: order),
        .onPurchaseFailed(error: ACErrorMessage(code: 3002, message: "closed"), order: nil),
    ]

    nonisolated static let modules = DocumentedCommands.root.appendingPathComponent(".build/debug/Modules")

    @Test(
        "iOS wire lines are Swift calls that compile against the library",
        .enabled(
            if: FileManager.default.fileExists(
                atPath: modules.appendingPathComponent("PaylinksKit.swiftmodule").path),
            "the library's module is not in .build/debug/Modules"))
    func swiftCalls() throws {
        let renderer = WireRenderer(target: .standard)
        let calls = Self.callbacks.map { renderer.render($0) }.joined()
        let source = """
            import PaylinksKit

            final class Store: ACPaymentLinksDelegate {
                func onInitialized() {}
                func onInitializeFailed(error: ACErrorMessage) {}
                func onPricePointsSuccess(pricePoints: PricePoints) {}
                func onPricePointsFailed(error: ACErrorMessage) {}
                func onPurchaseSuccess(order: OrderResponseModel) {}
                func onPurchaseFailed(error: ACErrorMessage, order: OrderResponseModel?) {}
            }

            @MainActor func replay(to delegate: Store) {
            \(calls)}

            """
        let (status, text) = try typecheckSwift(source)
        #expect(status == 0, "\(text)\n\(calls)")
        #expect(calls.split(separator: "\n").count == Self.callbacks.count)
    }

    @Test("Unity's bridge sends an order as its JSON, a failure as an envelope of JSON strings")
    func unityMessages() throws {
        let renderer = WireRenderer(target: .defaultTarget(of: .unity))
        let lines = Self.callbacks.map { renderer.render($0) }
        #expect(lines[0] == "OnInitialized\n")
        // Each message is the method's name, a space, and one JSON text.
        var messages: [String: [JSONValue]] = [:]
        for line in lines.dropFirst() {
            let parts = line.dropLast().split(separator: " ", maxSplits: 1)
            messages[String(parts[0]), default: []].append(try JSONParser.parse(Array(parts[1].utf8)))
        }
        #expect(
            messages.keys.sorted() == [
                "OnInitializeFailed", "OnPricePointsFail", "OnPricePointsSuccess", "OnPurchaseFailed",
                "OnPurchaseSuccess",
            ])
        let success = try #require(messages["OnPurchaseSuccess"]?.first)
        #expect(success.member("orderId")?.stringValue == "6892374487")
        #expect(success.member("offerName")?.stringValue == Self.order.offerName)
        #expect(success.member("items")?.element(0)?.member("amount")?.stringValue == "100")
        #expect(success.member("items")?.element(0)?.member("quantity")?.compact == nil)
        let failures = try #require(messages["OnPurchaseFailed"])
        // With an order id, orderJson is the order's JSON text; errorJson the error's.
        let inner = try JSONParser.parse(Array((failures[0].member("orderJson")?.stringValue ?? "").utf8))
        #expect(inner.compact == success.compact)
        let errorJSON = try JSONParser.parse(Array((failures[0].member("errorJson")?.stringValue ?? "").utf8))
        #expect(errorJSON.member("code")?.intValue == 3003)
        #expect(errorJSON.member("data")?.stringValue == Self.error.data)
        // Without one, orderJson is the string "null", and an error without data leaves it out.
        #expect(failures[1].member("orderJson")?.stringValue == "null")
        let closed = try JSONParser.parse(Array((failures[1].member("errorJson")?.stringValue ?? "").utf8))
        #expect(closed.member("code")?.intValue == 3002 && closed.member("data")?.compact == nil)
    }

    @Test("Android shows the Java method, then each field with its Java type and value")
    func javaFields() {
        let text = WireRenderer(target: .defaultTarget(of: .android)).render(Self.callbacks[5])
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map {
            $0.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
        }
        #expect(lines.first == "onPurchaseFailed(ErrorMessage error, OrderResponseModel order)")
        #expect(lines.contains("error.code int 3003"))
        #expect(lines.contains(#"error.data String "{\"orderId\":\"6892374487\"}""#))
        #expect(lines.contains("order.date long 1718182312"))
        #expect(lines.contains(#"order.offerName String "Season \"Pass\" — 12 🐉\\ ""#))
        #expect(lines.contains(#"order.items[0].name String "Tab\there""#))
        #expect(lines.contains("order.price int 1999"))
        #expect(text.hasSuffix("\n\n"))
        let none = WireRenderer(target: .defaultTarget(of: .android)).render(Self.callbacks[6])
        #expect(none.split(separator: "\n").last?.split(separator: " ") == ["order", "OrderResponseModel", "null"])
        let control = WireRenderer(target: .defaultTarget(of: .android)).render(Self.callbacks[1])
        #expect(control.contains(#""Line\u0001\nbreak""#))
        #expect(WireRenderer(target: .standard).render(Self.callbacks[1]).contains(#""Line\u{1}\nbreak""#))
    }
}

extension JSONValue {
    /// The value of `key`, when this is an object that has it.
    fileprivate func member(_ key: String) -> JSONValue? {
        guard case .object(let members) = kind else { return nil }
        return members.first { $0.key == key }?.value
    }

    /// The element at `index`, when this is an array that long.
    fileprivate func element(_ index: Int) -> JSONValue? {
        guard case .array(let elements) = kind, elements.indices.contains(index) else { return nil }
        return elements[index]
    }

    fileprivate var stringValue: String? {
        if case .string(let text) = kind { return text }
        return nil
    }

    fileprivate var intValue: Int? {
        if case .number(let text) = kind { return Int(text) }
        return nil
    }

    /// The value written back as compact JSON, to compare two values.
    fileprivate var compact: String {
        var writer = JSONWriter()
        write(to: &writer)
        return writer.output
    }
}
