import Foundation
import Testing

@testable import PaylinksCommandLine
@testable import PaylinksFixtures
@testable import PaylinksKit

/// Every status code on demand and from its real cause, through the CLI.
@Suite("Status codes")
@MainActor
struct StatusCodeTests {
    /// The built-in status codes; the catalog tests check there are seventeen.
    nonisolated static let codes: [StatusCode] = Catalog.builtIn.statusCodes

    /// The last callback of a run, decoded from its JSON line.
    struct LastCallback {
        var name: String
        var error: [String: Any]
        var order: [String: Any]?
        var exitCode: ExitCode
        var stderr: String
    }

    static func last(_ arguments: [String]) throws -> LastCallback {
        let result = runCLI(arguments + ["--json", "--seed", "1", "--now", "1718182312"])
        let line = try #require(result.stdout.split(separator: "\n").last, "no output; stderr: \(result.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        return LastCallback(
            name: object["callback"] as? String ?? "", error: object["error"] as? [String: Any] ?? [:],
            order: object["order"] as? [String: Any], exitCode: result.exitCode, stderr: result.stderr)
    }

    /// The arguments of a `paylinks ...` command line, without the program's name.
    static func arguments(of command: String) -> [String] {
        Array(command.split(separator: " ").dropFirst().map(String.init))
    }

    /// Every code of every generation's table, with an SDK of that generation.
    nonisolated static let everyGeneration: [(SDKTarget, StatusCode)] = [
        ("1.7", Platform.ios), ("1.9", .ios), ("3.0", .unity),
    ].flatMap { version, platform -> [(SDKTarget, StatusCode)] in
        guard let target = try? SDKTarget(platform: platform, version: version) else { return [] }
        return Catalog.builtIn.forGeneration(target.generation).statusCodes.map { (target, $0) }
    }

    @Test(
        "errors CODE --fixtures DIR prints commands that name the directory and one of its SKUs, and work as printed",
        arguments: [3002, 3003, 2003])
    func reproduceWithFixtures(code: Int) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("repro-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try Data(
            #"{"offers": [{"sku": "gold_pack", "name": "Gold", "basePriceInUSD": "0.99", "items": [{"name": "Coins", "sku": "coin_01", "quantity": "7"}]}]}"#
                .utf8
        ).write(to: directory.appendingPathComponent("offers.json"))
        let result = runCLI("errors", String(code), "--fixtures", directory.path, "--json")
        #expect(result.exitCode == .success, "\(result.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let commands = try #require(object["reproduce"] as? [String])
        #expect(!commands.isEmpty)
        for command in commands {
            #expect(command.hasSuffix(" --fixtures \(directory.path)"), "\(command)")
            #expect(!command.contains("starter_pack_001"), "\(command)")
            let outcome = try Self.last(Self.arguments(of: command))
            #expect(outcome.error["code"] as? Int == code, "\(command): \(outcome.stderr)")
        }
    }

    @Test("a path a shell would split is quoted in the commands; a plain one is not")
    func shellWords() {
        #expect(Reproduction.shellWord("/tmp/fixtures") == "/tmp/fixtures")
        #expect(Reproduction.shellWord("/tmp/my fixtures") == "'/tmp/my fixtures'")
        #expect(Reproduction.shellWord("it's") == #"'it'\''s'"#)
        #expect(Reproduction.shellWord("$HOME") == "'$HOME'")
    }

    @Test("errors CODE shows what each placeholder of the data stands for, never a raw ${name}")
    func describedData() {
        let result = runCLI("errors", "2000")
        #expect(result.stdout.contains(#"data       {"request":"<the call that failed: "#), "\(result.stdout)")
        for code in Catalog.builtIn.statusCodes where code.dataTemplate != nil {
            #expect(!runCLI("errors", String(code.code)).stdout.contains("${"), "\(code.code)")
        }
        for placeholder in StatusCode.dataPlaceholders {
            #expect(CatalogListing.placeholderMeanings[placeholder] != nil, "\(placeholder)")
        }
    }

    @Test(
        "every code of every generation reproduces through the CLI with its callback, message, order and exit code",
        arguments: everyGeneration)
    func reproduce(target: SDKTarget, code: StatusCode) throws {
        let commands = Reproduction.commands(for: code, target: target)
        // G3's price-points code comes from the library alone: the command refuses G3.
        #expect(commands.isEmpty == (target.generation == .g3 && code.steps == [.pricePoints]), "\(commands)")
        for command in commands {
            let outcome = try Self.last(Self.arguments(of: command))
            // Named as the target's platform names it; compared by the canonical name.
            #expect(
                target.platform.name(of: CallbackName(platformName: outcome.name) ?? .onInitialized) == outcome.name)
            let name = CallbackName(platformName: outcome.name)?.rawValue ?? outcome.name
            #expect(code.callbacks.map(\.rawValue).contains(name), "\(command)")
            #expect(outcome.error["code"] as? Int == code.code, "\(command)")
            #expect(outcome.error["message"] as? String == code.message, "\(command)")
            #expect((outcome.error["data"] != nil) == (code.dataTemplate != nil), "\(command)")
            let expectedExit = CatalogListing.exitCodes(of: code)[
                code.callbacks.map(\.rawValue).firstIndex(of: name) ?? 0]
            #expect(outcome.exitCode == expectedExit, "\(command)")
            guard name == "onPurchaseFailed" || name == "onPurchaseCanceled" else { continue }
            switch code.orderAtFailure {
            case .none:
                #expect(outcome.order == nil, "\(command)")
            case .checkout:
                #expect(outcome.order?["sessionToken"] as? String != "", "\(command)")
                #expect(outcome.order?["paymentMethodName"] as? String == "", "\(command)")
                #expect(outcome.order?["orderId"] as? String == "", "\(command)")
            case .payment:
                #expect((outcome.order?["orderId"] as? String)?.count == 10, "\(command)")
            }
        }
    }

    // MARK: Real causes

    @Test("an environment other than sandbox or production fails initialize with 2001")
    func environmentCause() throws {
        for environment in ["staging", ""] {
            let outcome = try Self.last(["init", "--environment", environment])
            #expect(outcome.name == "onInitializeFailed")
            #expect(outcome.error["code"] as? Int == 2001)
            #expect(outcome.exitCode == .initializeFailed)
        }
    }

    @Test("an empty checkout public key fails initialize with 2002")
    func publicKeyCause() throws {
        #expect(try Self.last(["price-points", "--checkout-public-key="]).error["code"] as? Int == 2002)
    }

    @Test("an empty customer id fails initialize with 2003")
    func customerCause() throws {
        #expect(
            try Self.last(["purchase", "--sku", "starter_pack_001", "--customer-id", ""]).error["code"] as? Int == 2003)
    }

    @Test(
        "a redirect URL that is not an https URL fails initialize with 2004",
        arguments: [
            "not a url", "http://example.com/return", "myapp://return", "https://", "https:// spaced.example.com",
            // A user part makes the host another than it reads: the link would go to evil.example.
            "https://user@evil.example/return", "https://game.example.com@evil.example/return",
        ])
    func redirectCause(url: String) throws {
        #expect(try Self.last(["init", "--redirect-url", url]).error["code"] as? Int == 2004)
    }

    @Test("an https redirect URL initializes")
    func validRedirect() throws {
        #expect(
            try Self.last(["init", "--redirect-url", "https://game.example.com/paylinks/return"]).name
                == "onInitialized")
    }

    @Test("an order for another customer fails with 3007 and both ids in data")
    func customerMismatch() throws {
        let outcome = try Self.last(["purchase", "--sku", "starter_pack_001", "--order-customer-id", "cust_other"])
        #expect(outcome.error["code"] as? Int == 3007)
        #expect(outcome.error["data"] as? String == #"{"sdkCustomerId":"cust_98765","orderCustomerId":"cust_other"}"#)
        #expect(outcome.order?["customerId"] as? String == "cust_other")
        #expect(outcome.exitCode == .purchaseFailed)
    }

    @Test("a session from another environment fails with 3006")
    func environmentMismatch() throws {
        let outcome = try Self.last(["purchase", "--sku", "starter_pack_001", "--session-environment", "production"])
        #expect(outcome.error["code"] as? Int == 3006)
        #expect(outcome.error["data"] as? String == #"{"sdkEnvironment":"sandbox","sessionEnvironment":"production"}"#)
    }

    @Test("closing the browser with the OS controls fails with 3000, a cancel")
    func browserClosed() throws {
        let outcome = try Self.last(["cancel", "--sku", "starter_pack_001", "--via", "browser"])
        #expect(outcome.error["code"] as? Int == 3000)
        #expect(outcome.exitCode == .purchaseCanceled)
    }

    @Test("closing the checkout before the order existed fails with 3005, a cancel")
    func beforeOrder() throws {
        let outcome = try Self.last(["cancel", "--sku", "starter_pack_001", "--before-order"])
        #expect(outcome.error["code"] as? Int == 3005)
        #expect(outcome.exitCode == .purchaseCanceled)
    }

    @Test("plain cancel fails with 3002")
    func plainCancel() throws {
        #expect(try Self.last(["cancel", "--sku", "starter_pack_001"]).error["code"] as? Int == 3002)
    }

    @Test("a declined charge fails with 3003, a decline reason, and the paid order")
    func declined() throws {
        let outcome = try Self.last(["purchase", "--sku", "starter_pack_001", "--outcome", "declined"])
        #expect(outcome.error["code"] as? Int == 3003)
        #expect((outcome.error["data"] as? String)?.contains(#""declineReason":"card_declined""#) == true)
        #expect(outcome.order?["paymentMethodName"] as? String == "Visa")
    }

    @Test("a charge still pending at the timeout fails with 3004")
    func pending() throws {
        let outcome = try Self.last(["purchase", "--sku", "starter_pack_001", "--outcome", "pending"])
        #expect(outcome.error["code"] as? Int == 3004)
    }

    // MARK: --error and --fail-at

    @Test("--error takes a name in any case")
    func errorByName() throws {
        #expect(
            try Self.last(["purchase", "--sku", "starter_pack_001", "--error", "charge_failed"]).error["code"] as? Int
                == 3003)
    }

    @Test("codes of several steps fail the command's last step unless --fail-at names another")
    func failAt() throws {
        #expect(try Self.last(["purchase", "--sku", "starter_pack_001", "--error", "1000"]).name == "onPurchaseFailed")
        #expect(try Self.last(["price-points", "--error", "1000"]).name == "onPricePointsFailed")
        let atInit = try Self.last(["price-points", "--error", "1001", "--fail-at", "init"])
        #expect(atInit.name == "onInitializeFailed")
        #expect(atInit.exitCode == .initializeFailed)
        #expect(try Self.last(["price-points", "--error", "1007"]).name == "onInitializeFailed")
    }

    @Test("a code no step of the command reaches is a usage error naming the step and the command that reaches it")
    func unreachableCode() {
        let result = runCLI("init", "--error", "3002")
        #expect(result.exitCode == .usage)
        #expect(result.stdout == "")
        #expect(result.stderr.contains("at the purchase step, which init does not reach"))
        #expect(result.stderr.contains("paylinks purchase --sku starter_pack_001 --error 3002"))
        #expect(runCLI("price-points", "--error", "2003").exitCode == .initializeFailed)
        let wrongStep = runCLI("purchase", "--sku", "starter_pack_001", "--error", "3002", "--fail-at", "init")
        #expect(wrongStep.stderr.contains("arrives at the purchase step, not at init"))
        let unreached = runCLI("init", "--error", "1000", "--fail-at", "purchase")
        #expect(unreached.stderr.contains("init does not reach that step"))
    }

    @Test("on G3 a price-points code names no command to run, as errors CODE says, since price-points refuses G3")
    func unreachableCodeOnG3() {
        let result = runCLI("purchase", "--sku", "starter_pack_001", "--sdk-version", "2.0", "--error", "9999")
        #expect(result.exitCode == .usage)
        #expect(!result.stderr.contains("use 'paylinks price-points"))
        #expect(result.stderr.contains("no command: PaymentLinksSimulator.getPricePoints() in a test"))
        let explained = runCLI("errors", "9999", "--sdk-version", "2.0")
        #expect(explained.stdout.contains("no command: PaymentLinksSimulator.getPricePoints() in a test"))
        let old = runCLI("init", "--sdk-version", "1.7", "--error", "3002")
        #expect(old.stderr.contains("use 'paylinks purchase --sku starter_pack_001 --error 3002 --sdk-version 1.7'"))
    }

    @Test("2003 is no code of G3, whose initialize takes no customer id, and 8002 is named a code of G3")
    func customerIdCodesByGeneration() {
        let explained = runCLI("errors", "2003", "--sdk-version", "2.0")
        #expect(explained.exitCode == .usage)
        #expect(!explained.stdout.contains("paylinks init --error 2003"))
        #expect(explained.stderr.contains("2003 is not a code of G3"), "\(explained.stderr)")
        #expect(explained.stderr.contains("8002"))
        let injected = runCLI("init", "--error", "2003", "--sdk-version", "2.0")
        #expect(injected.exitCode == .usage)
        #expect(injected.stdout == "")
        let g3Only = runCLI("errors", "8002")
        #expect(g3Only.exitCode == .usage)
        #expect(g3Only.stderr.contains("8002 is a code of G3"), "\(g3Only.stderr)")
        #expect(g3Only.stderr.contains("--sdk-version 2.0"))
        #expect(runCLI("errors", "8002", "--sdk-version", "2.0").exitCode == .success)
    }

    @Test("a code not in the catalog is a usage error naming the nearest codes")
    func unknownCode() {
        let result = runCLI("purchase", "--sku", "starter_pack_001", "--error", "3008")
        #expect(result.exitCode == .usage)
        #expect(
            result.stderr.contains("the nearest are 3007 CUSTOMER_VALIDATION_FAILED, 3006 VALIDATE_ORDER_ENV_FAILED"))
        #expect(runCLI("init", "--error", "BOOT_TOKEN_EROR").stderr.contains("did you mean BOOT_TOKEN_ERROR?"))
    }

    @Test("--error cannot be combined with another way to end the flow")
    func conflicts() {
        #expect(runCLI("purchase", "--sku", "a", "--error", "3003", "--outcome", "declined").exitCode == .usage)
        #expect(runCLI("cancel", "--sku", "a", "--before-order", "--via", "browser").exitCode == .usage)
        #expect(runCLI("init", "--fail-at", "init").stderr.contains("give --error CODE too"))
    }

    // MARK: --trace

    @Test(
        "--trace shows the timeline on stderr, with polls at the SDK's rate and the 90 s timeout, and leaves stdout alone"
    )
    func trace() {
        let arguments = ["purchase", "--sku", "starter_pack_001", "--outcome", "pending", "--json", "--seed", "1"]
        let traced = runCLI(arguments + ["--trace"])
        let plain = runCLI(arguments)
        #expect(traced.stdout == plain.stdout)
        #expect(plain.stderr == "")
        let lines = traced.stderr.split(separator: "\n")
        #expect(lines.allSatisfy { $0.hasPrefix("trace +") })
        #expect(lines.first?.contains("boot request to the sandbox server") == true)
        // A payment left pending stays payment_pending on Appcharge's side: every poll reads it.
        #expect(traced.stderr.contains("polls #1-#150: payment_pending, every 600 ms until +108.590s"))
        #expect(traced.stderr.contains("validation timed out after 90 s"))
        #expect(lines.last?.contains("result: 3004 VALIDATE_ORDER_TIMEOUT") == true)
    }
}

extension StatusCode: CustomTestStringConvertible {
    /// `3002 CHARGE_CANCELED`, as a test case is named.
    public var testDescription: String { "\(code) \(name)" }
}
