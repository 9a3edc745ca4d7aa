import Foundation
import Testing

@testable import PaylinksCommandLine
@testable import PaylinksFixtures
@testable import PaylinksJSON
@testable import PaylinksKit

/// `--count` and `--index`: many checkouts, streamed, each equal to a single run.
@Suite("Bulk checkouts")
@MainActor
struct BulkTests {
    /// The wire shape of a purchase result, decoded with Foundation's own decoder.
    struct Line: Decodable, Equatable {
        struct Order: Decodable, Equatable {
            struct Item: Decodable, Equatable {
                var name: String
                var sku: String
                var quantity: String
            }
            var date: Int
            var sessionToken: String
            var offerName: String
            var offerSku: String
            var items: [Item]
            var price: Int
            var currency: String
            var customerId: String
            var customerCountry: String
            var paymentMethodName: String
            var orderId: String
            var purchaseId: String
        }
        struct Failure: Decodable, Equatable {
            var code: Int
            var message: String
        }
        var callback: String
        var order: Order?
        var error: Failure?
    }

    static func lines(_ arguments: [String]) throws -> [Line] {
        let result = runCLI(arguments)
        #expect(result.stderr == "")
        let decoder = JSONDecoder()
        return try result.stdout.split(separator: "\n").map { try decoder.decode(Line.self, from: Data($0.utf8)) }
    }

    @Test("every line of a bulk run decodes, and every field matches the catalog and the options")
    func decodesToModels() throws {
        let lines = try Self.lines(
            ["purchase", "--sku", "builders_bundle", "--count", "5000", "--country", "DE", "--seed", "5", "--json"])
        #expect(lines.count == 5001)
        #expect(lines[0].callback == "onInitialized")
        let offer = try #require(Catalog.builtIn.offer(sku: "builders_bundle"))
        for line in lines.dropFirst() {
            let order = try #require(line.order)
            #expect(line.callback == "onPurchaseSuccess")
            #expect(order.date == 1_718_182_312)
            #expect(order.offerName == offer.name)
            #expect(order.offerSku == offer.sku)
            #expect(
                order.items.map { OrderResponseModel.Item(name: $0.name, sku: $0.sku, quantity: $0.quantity) }
                    == offer.items)
            #expect(order.price == 1099)
            #expect(order.currency == "EUR")
            #expect(order.customerId == "cust_98765")
            #expect(order.customerCountry == "DE")
            #expect(order.paymentMethodName == "Visa")
            #expect(order.sessionToken.count == 32 && order.sessionToken.allSatisfy { $0.isLetter || $0.isNumber })
            #expect(order.purchaseId.hasPrefix("pr_") && order.purchaseId.count == 27)
            #expect(order.orderId.count == 10 && order.orderId.first != "0" && order.orderId.allSatisfy(\.isNumber))
        }
    }

    @Test("identifiers are unique across a run")
    func uniqueIdentifiers() throws {
        let orders = try Self.lines([
            "purchase", "--sku", "starter_pack_001", "--count", "20000", "--seed", "1", "--json",
        ])
        .compactMap(\.order)
        #expect(orders.count == 20000)
        #expect(Set(orders.map(\.orderId)).count == 20000)
        #expect(Set(orders.map(\.sessionToken)).count == 20000)
        #expect(Set(orders.map(\.purchaseId)).count == 20000)
    }

    @Test(
        "line i of a bulk run is byte-identical to a single run with --index i", arguments: [OutputFormat.json, .text])
    func matchesSingleRuns(format: OutputFormat) throws {
        let common = ["--sku", "season_pass_s12", "--seed", "77", "--format", format.rawValue]
        let bulk = runCLI(["purchase", "--count", "300"] + common)
        #expect(bulk.exitCode == .success)
        let separator = format == .json ? "\n" : "\n\n"
        let results = bulk.stdout.components(separatedBy: separator).filter { !$0.isEmpty }.dropFirst()
        #expect(results.count == 300)
        for index in [0, 1, 2, 150, 299] {
            let single = runCLI(["purchase", "--index", String(index)] + common)
            let singleResult = single.stdout.components(separatedBy: separator).filter { !$0.isEmpty }.last
            #expect(Array(results)[index] == singleResult, "index \(index)")
        }
    }

    @Test("cancel --count streams failures and exits as a cancel")
    func bulkCancel() throws {
        let result = runCLI("cancel", "--sku", "starter_pack_001", "--count", "100", "--seed", "2", "--json")
        #expect(result.exitCode == .purchaseCanceled)
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.count == 101)
        #expect(lines.dropFirst().allSatisfy { $0.contains(#""error":{"code":3002"#) && $0.contains(#""orderId":"""#) })
        #expect(Set(lines).count == 101)
    }

    @Test(
        "every platform and generation: a bulk cancel's lines are the single runs', and the fast path's the simulated ones",
        arguments: [
            ["--platform", "unity", "--format", "wire"], ["--sdk-version", "2.0", "--json"],
            ["--sdk-version", "1.7", "--platform", "android", "--json"],
            ["--sdk-version", "3.0", "--platform", "unity"],
        ])
    func bulkOnEveryTarget(options: [String]) throws {
        let common = ["cancel", "--sku", "starter_pack_001", "--seed", "4"] + options
        let bulk = runCLI(common + ["--count", "50"])
        #expect(bulk.exitCode == .purchaseCanceled)
        #expect(bulk.stdout == runCLI(common + ["--count", "50", "--trace"]).stdout)
        let last = runCLI(common + ["--index", "49"])
        let separator = options.contains("--json") || options.contains("wire") ? "\n" : "\n\n"
        #expect(
            bulk.stdout.components(separatedBy: separator).filter { !$0.isEmpty }.last
                == last.stdout.components(separatedBy: separator).filter { !$0.isEmpty }.last)
    }

    @Test("a bulk run with --trace (simulated one by one) prints the same callbacks as the fast path")
    func fastPathMatchesSimulation() throws {
        let arguments = ["purchase", "--sku", "no_ads_forever", "--count", "40", "--seed", "8", "--json"]
        let fast = runCLI(arguments)
        let simulated = runCLI(arguments + ["--trace"])
        #expect(fast.stdout == simulated.stdout)
        #expect(simulated.stderr.contains("poll #1: charge_succeed"))
        let failing = [
            "purchase", "--sku", "no_ads_forever", "--count", "40", "--seed", "8", "--json", "--outcome", "declined",
        ]
        #expect(runCLI(failing).stdout == runCLI(failing + ["--trace"]).stdout)
    }

    @Test("strings with quotes, backslashes, control characters and non-ASCII survive the bulk writer")
    func escaping() throws {
        let name = "Quote \" back\\slash \u{01}\u{1F} tab\t newline\n é ü ₩ 😀 日本"
        var escapedName = ""
        JSONWriter.appendQuoted(name, to: &escapedName)
        let offers = """
            {"offers": [{"sku": "odd_offer", "name": \(escapedName), "basePriceInUSD": "0.99",
              "items": [{"name": \(escapedName), "sku": "odd.item-1", "quantity": "1"}]}]}
            """
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "paylinks-bulk-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data(offers.utf8).write(to: directory.appendingPathComponent("offers.json"))
        let lines = try Self.lines(
            ["purchase", "--sku", "odd_offer", "--count", "50", "--seed", "3", "--json", "--fixtures", directory.path])
        #expect(lines.count == 51)
        for line in lines.dropFirst() {
            #expect(line.order?.offerName == name)
            #expect(line.order?.items.first?.name == name)
        }
    }

    @Test("--count and --index are checked")
    func limits() {
        #expect(runCLI("purchase", "--sku", "starter_pack_001", "--count", "0").exitCode == .usage)
        #expect(runCLI("purchase", "--sku", "starter_pack_001", "--count", "99999999999999999999").exitCode == .usage)
        #expect(runCLI("purchase", "--sku", "starter_pack_001", "--index", "9000000000").exitCode == .usage)
        #expect(runCLI("init", "--count", "5").stderr.contains("belongs to purchase and cancel"))
    }

    @Test("output reaches the system only in whole lines, on the fast path and the simulated one")
    func wholeLines() {
        final class RecordingSink: OutputSink {
            var chunks: [String] = []
            func write(_ text: String) throws(OutputError) { chunks.append(text) }
        }
        for extra in [[], ["--trace"]] {
            let sink = RecordingSink()
            let context = RunContext(
                environment: { _ in nil }, standardOutput: sink, standardError: CapturedOutput(), clock: { 0 },
                entropy: { 0 })
            let code = PaylinksCLI.run(
                ["paylinks", "purchase", "--sku", "starter_pack_001", "--count", "3000", "--json"] + extra,
                context: context)
            #expect(code == .success)
            #expect(sink.chunks.count > 1, "a bulk run writes in several blocks")
            #expect(sink.chunks.allSatisfy { $0.hasSuffix("\n") })
            #expect(sink.chunks.joined().split(separator: "\n").count == 3001)
        }
    }

    @Test(
        "a template is proven for results that quote their ids in error.data, and refused for ones that differ otherwise",
        arguments: [
            PlayerAction.pay(paymentMethodName: "Visa"), .pay(paymentMethodName: "Visa", outcome: .declined),
            .pay(paymentMethodName: "Visa", outcome: .pending), .closeCheckout(),
        ])
    func templates(player: PlayerAction) throws {
        let delegate = RecordingDelegate()
        let sdk = PaymentLinksSimulator(now: 0, seed: 4)
        sdk.initialize(
            configModel: ACConfigModel(checkoutPublicKey: "pk", environment: "sandbox"), customerId: "c",
            delegate: delegate)
        for _ in 0..<3 {
            try sdk.runCheckout(
                offerSku: "starter_pack_001", customerId: "c", environment: "sandbox", player: player,
                deliverTwice: false)
        }
        let results = Array(delegate.callbacks.dropFirst())
        let renderer = JSONLinesRenderer()
        let template = try #require(
            CheckoutLineTemplate(renderer: renderer, result: results[0], next: results[1], index: 0, seed: 4))
        var third: [UInt8] = []
        template.append(seed: 4, index: 2, to: &third)
        #expect(third == Array(renderer.render(results[2]).utf8))
        #expect(
            CheckoutLineTemplate(renderer: renderer, result: results[0], next: results[2], index: 0, seed: 4) == nil)
    }
}
