import Foundation
import Testing

@testable import PaylinksCommandLine
@testable import PaylinksFixtures
@testable import PaylinksKit

/// `--language objc`: each callback as the message the iOS SDK's Objective-C delegate
/// receives, with the selectors of `ios-callbacks.md`, checked by an Objective-C compiler.
@Suite("Objective-C delegate")
@MainActor
struct ObjectiveCTests {
    /// The toolchain's clang, which parses Objective-C without Foundation when the types
    /// it needs are declared.
    nonisolated static let clang: String? = {
        let candidates = ["/opt/swift/usr/bin/clang", "/usr/bin/clang", "/usr/local/bin/clang"]
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) }
    }()

    /// The delegate protocol and the models as the Objective-C page declares them, and
    /// XCTest's assertions, over a root class of their own.
    static let declarations = """
        typedef signed char BOOL;
        #define YES ((BOOL)1)
        #define NO ((BOOL)0)
        typedef long NSInteger;
        typedef unsigned long NSUInteger;
        #define nil ((id)0)
        @interface NSObject { Class isa; } @end
        @interface NSString : NSObject @end
        @interface NSConstantString : NSString @end
        @interface NSArray<ObjectType> : NSObject
        @property (readonly) NSUInteger count;
        - (ObjectType)objectAtIndexedSubscript:(NSUInteger)index;
        @end
        @interface ACErrorMessage : NSObject
        @property (readonly) NSInteger code;
        @property (readonly) NSString *message;
        @property (readonly) NSString *data;
        @end
        @interface Item : NSObject
        @property (readonly) NSString *name;
        @property (readonly) NSString *sku;
        @property (readonly) NSString *quantity;
        @end
        @interface OrderResponseModel : NSObject
        @property (readonly) NSInteger date;
        @property (readonly) NSString *sessionToken;
        @property (readonly) NSString *offerName;
        @property (readonly) NSString *offerSku;
        @property (readonly) NSArray<Item *> *items;
        @property (readonly) NSInteger price;
        @property (readonly) NSString *currency;
        @property (readonly) NSString *customerId;
        @property (readonly) NSString *customerCountry;
        @property (readonly) NSString *paymentMethodName;
        @property (readonly) NSString *orderId;
        @property (readonly) NSString *purchaseId;
        @end
        @interface GameOrderResponse : OrderResponseModel @end
        @interface PricingPoint : NSObject
        @property (readonly) NSString *basePriceInUSD;
        @property (readonly) NSString *localizedPrice;
        @property (readonly) NSString *formattedPrice;
        @end
        @interface PricingPointData : NSObject
        @property (readonly) NSString *currencyCode;
        @property (readonly) NSString *currencySymbol;
        @property (readonly) NSString *fractionalSeparator;
        @property (readonly) NSString *milSeparator;
        @property (readonly) NSString *symbolPosition;
        @property (readonly) BOOL spacing;
        @property (readonly) NSInteger multiplier;
        @end
        @interface PricePoints : NSObject
        @property (readonly) NSArray<PricingPoint *> *pricingPoints;
        @property (readonly) PricingPointData *pricingPointData;
        @end
        @protocol ACPaymentLinksDelegate
        - (void)onInitialized;
        - (void)onInitializeFailedWithError:(ACErrorMessage *)error;
        - (void)onPricePointsSuccessWithPricePoints:(PricePoints *)pricePoints;
        - (void)onPricePointsFailedWithError:(ACErrorMessage *)error;
        - (void)onPurchaseSuccessWithOrder:(OrderResponseModel *)order;
        - (void)onPurchaseFailedWithError:(ACErrorMessage *)error order:(GameOrderResponse *)order;
        @end
        @protocol ACPaymentLinksDelegateG1
        - (void)onPurchaseFailedWithError:(ACErrorMessage *)error;
        @end
        @protocol ACPaymentLinksDelegateG3
        - (void)onPurchaseCanceledWithError:(ACErrorMessage *)error order:(GameOrderResponse *)order;
        @end
        void XCTAssertEqualNumbers(long expression, long expected);
        void XCTAssertEqualStrings(NSString *expression, NSString *expected);
        #define XCTAssertEqual(expression, expected) XCTAssertEqualNumbers((long)(expression), (long)(expected))
        #define XCTAssertEqualObjects(expression, expected) XCTAssertEqualStrings((expression), (expected))
        #define XCTAssertNil(expression) XCTAssertEqualStrings((NSString *)(expression), nil)

        """

    /// The commands whose output holds every kind of callback, G1's and G3's included.
    static let commands: [[String]] = [
        ["init"], ["init", "--error", "2003"], ["price-points", "--country", "DE"],
        ["price-points", "--error", "1001"],
        ["purchase", "--sku", "starter_pack_001"], ["purchase", "--sku", "starter_pack_001", "--error", "3003"],
        ["cancel", "--sku", "starter_pack_001"],
        [
            "purchase", "--sku", "starter_pack_001", "--sdk-version", "1.7",
            "--error", "3003",
        ], ["cancel", "--sku", "starter_pack_001", "--sdk-version", "2.0"],
        ["purchase", "--sku", "dragon_hoard_mega", "--error", "3002"],
    ]

    @Test(
        "each message compiles against the Objective-C delegate, its values typed NSString, NSInteger, BOOL or nil",
        .enabled(if: clang != nil || runningInCI, "no clang (the Swift toolchain ships one)"))
    func messagesCompile() throws {
        var functions = ""
        var messages = 0
        for (index, command) in Self.commands.enumerated() {
            let result = runCLI(
                command + ["--language", "objc", "--format", "wire", "--seed", "1", "--now", "1718182312"])
            #expect(!result.stdout.isEmpty, "\(command): \(result.stderr)")
            // Each message, with its checks, is one function's body.
            let blocks = result.stdout.components(separatedBy: "[delegate ").dropFirst()
            for (part, block) in blocks.enumerated() {
                messages += 1
                functions += """
                    void check\(index)_\(part)(id<ACPaymentLinksDelegate, ACPaymentLinksDelegateG1, \
                    ACPaymentLinksDelegateG3> delegate, ACErrorMessage *error, GameOrderResponse *order, \
                    PricePoints *pricePoints) {
                    [delegate \(block)}

                    """
            }
        }
        #expect(messages == 18)
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("objc-\(UUID().uuidString).m")
        try Data((Self.declarations + functions).utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let (status, output) = try runProgram(
            try #require(Self.clang),
            ["-fsyntax-only", "-x", "objective-c", "-fobjc-runtime=gnustep-2.0", "-Wall", "-Werror", file.path])
        #expect(status == 0, "\(output)\n\(functions)")
    }

    @Test("the messages use the page's selectors; strings are Objective-C literals with every escape")
    func exactText() throws {
        let renderer = WireRenderer(target: .standard, language: .objc)
        #expect(renderer.render(.onInitialized) == "[delegate onInitialized];\n")
        let failed = renderer.render(.onPurchaseFailed(error: WireTests.error, order: nil))
        #expect(
            failed == """
                [delegate onPurchaseFailedWithError:error order:order];
                  XCTAssertEqual(error.code, 3003);
                  XCTAssertEqualObjects(error.message, @"The charge failed.");
                  XCTAssertEqualObjects(error.data, @"{\\"orderId\\":\\"6892374487\\"}");
                  XCTAssertNil(order);

                """)
        let success = renderer.render(.onPurchaseSuccess(order: WireTests.order))
        #expect(
            success.hasPrefix(
                "[delegate onPurchaseSuccessWithOrder:order];\n  XCTAssertEqual(order.date, 1718182312);\n"))
        #expect(success.contains(#"XCTAssertEqualObjects(order.offerName, @"Season \"Pass\" — 12 🐉\\ ");"#))
        #expect(success.contains(#"XCTAssertEqualObjects(order.items[0].name, @"Tab\there");"#))
        let control = renderer.render(
            .onInitializeFailed(error: ACErrorMessage(code: 2003, message: "Line\u{1}\nbreak")))
        #expect(control.contains(#"@"Line\001\nbreak""#))
        let g1 = WireRenderer(target: try SDKTarget(platform: .ios, version: "1.7"), language: .objc)
        #expect(
            g1.render(.onPurchaseFailed(error: WireTests.error, order: nil)).hasPrefix(
                "[delegate onPurchaseFailedWithError:error];\n"))
    }

    @Test("text output names each callback by its selector, and the order by the iOS binary's type")
    func textNames() {
        let result = runCLI("cancel", "--sku", "starter_pack_001", "--language", "objc", "--seed", "1")
        #expect(result.stdout.hasPrefix("onInitialized\n\nonPurchaseFailedWithError:order:\n  error  ACErrorMessage\n"))
        #expect(result.stdout.contains("  order  GameOrderResponse\n"))
        let swift = runCLI("cancel", "--sku", "starter_pack_001", "--seed", "1")
        #expect(swift.stdout.contains("\nonPurchaseFailed\n") && swift.stdout.contains("  order  OrderResponseModel\n"))
        #expect(
            runCLI("cancel", "--sku", "starter_pack_001", "--json", "--language", "objc", "--seed", "1").stdout
                == runCLI("cancel", "--sku", "starter_pack_001", "--json", "--seed", "1").stdout, "JSON keeps its names"
        )
    }

    @Test("--language objc is iOS's; another platform refuses it, a scenario run applies it to its iOS scenarios")
    func otherPlatforms() {
        let refused = runCLI("init", "--language", "objc", "--platform", "android")
        #expect(refused.exitCode == .usage)
        #expect(
            refused.stderr.hasPrefix("error: --language objc is the iOS delegate's Objective-C face; Android has none"))
        let typo = runCLI("init", "--language", "objective-c")
        #expect(typo.exitCode == .usage)
        let run = runCLI(
            "run", ScenarioTests.examples.appendingPathComponent("happy-path.json").path, "--matrix",
            "platform=ios,unity", "--language", "objc", "--format", "wire")
        #expect(run.exitCode == .success, "\(run.stderr)")
        #expect(run.stdout.contains("[delegate onPricePointsSuccessWithPricePoints:pricePoints];"))
        #expect(run.stdout.contains("OnPricePointsSuccess {"), "Unity's scenarios keep Unity's wire")
    }
}
