import Testing

@testable import PaylinksCommandLine
@testable import PaylinksKit

/// The commands on a G3 target, which initializes without a customer id and has no price
/// points.
@Suite("Commands by SDK generation")
@MainActor
struct GenerationCommandTests {
    @Test(
        "init on a G3 target refuses --customer-id, which G3 takes at openCheckout: one error line and 64",
        arguments: [["--customer-id", "cust_7"], ["--customer-id="], ["--platform", "unity", "--customer-id", "c"]])
    func g3InitRefusesCustomerId(extra: [String]) {
        let version = extra.contains("unity") ? "3.0" : "2.0"
        let result = runCLI(["init", "--sdk-version", version] + extra)
        #expect(result.exitCode == .usage)
        #expect(result.stdout.isEmpty)
        let sdk = extra.contains("unity") ? "Unity SDK 3.0 (G3)" : "iOS SDK 2.0 (G3)"
        #expect(
            result.stderr
                == "error: --customer-id: \(sdk) initializes without a customer id, which it takes at openCheckout "
                + "instead: leave --customer-id out of init, or give it to purchase or cancel "
                + "(see 'paylinks init --help')\n",
            "\(result.stderr)")
    }

    @Test("init on a G3 target initializes without a customer id; purchase hands the customer id to openCheckout")
    func g3InitAndPurchase() {
        let initialized = runCLI("init", "--sdk-version", "2.0")
        #expect(initialized.exitCode == .success, "\(initialized.stderr)")
        #expect(initialized.stdout.hasPrefix("onInitialized\n"), "\(initialized.stdout)")
        let paid = runCLI(
            "purchase", "--sku", "starter_pack_001", "--sdk-version", "2.0", "--customer-id", "cust_7", "--json")
        #expect(paid.exitCode == .success, "\(paid.stderr)")
        #expect(paid.stdout.contains(#""customerId":"cust_7""#), "\(paid.stdout)")
        let empty = runCLI("purchase", "--sku", "starter_pack_001", "--sdk-version", "2.0", "--customer-id=", "--json")
        #expect(empty.stdout.contains(#""code":8002"#), "\(empty.stdout)")
    }

    @Test("price-points on a G3 target is one error line and 64: G3 has no price points")
    func g3PricePoints() {
        let result = runCLI("price-points", "--sdk-version", "2.0")
        #expect(result.exitCode == .usage)
        #expect(result.stdout.isEmpty)
        #expect(
            result.stderr
                == "error: iOS SDK 2.0 (G3) has no price points: G3 removed getPricePoints and its callbacks; show "
                + "your own prices, or simulate an earlier SDK version (see 'paylinks price-points --help')\n")
    }
}
