// swift-format-ignore-file
// Generated from Fixtures/*.json by `make catalog` (Sources/generate-catalog); do not edit.
// A test keeps it equal to the fixtures.

/// The catalog of `Fixtures/*.json`, as Swift values.
enum BuiltInCatalog {
    /// The built-in catalog.
    static let catalog = Catalog(
        builtInOffers: [
            Offer(
                sku: "starter_pack_001", name: "Starter Pack", basePriceInUSD: "4.99",
                items: [
                    .init(name: "Gems", sku: "gem_01", quantity: "100"),
                ]),
            Offer(
                sku: "handful_of_gems", name: "Handful of Gems", basePriceInUSD: "0.99",
                items: [
                    .init(name: "Gems", sku: "gem_01", quantity: "15"),
                ]),
            Offer(
                sku: "daily_deal_energy", name: "Daily Deal: Energy Refill", basePriceInUSD: "1.99",
                items: [
                    .init(name: "Energy", sku: "energy_01", quantity: "50"),
                    .init(name: "Coins", sku: "coin_01", quantity: "2500"),
                ]),
            Offer(
                sku: "builders_bundle", name: "Builder's Bundle", basePriceInUSD: "9.99",
                items: [
                    .init(name: "Gems", sku: "gem_01", quantity: "500"),
                    .init(name: "Coins", sku: "coin_01", quantity: "20000"),
                    .init(name: "Builder Hammer", sku: "hammer_01", quantity: "3"),
                ]),
            Offer(
                sku: "season_pass_s12", name: "Season Pass — Season 12", basePriceInUSD: "19.99",
                items: [
                    .init(name: "Season 12 Pass", sku: "pass_s12", quantity: "1"),
                    .init(name: "Gems", sku: "gem_01", quantity: "1200"),
                    .init(name: "Legendary Chest", sku: "chest_legendary", quantity: "1"),
                ]),
            Offer(
                sku: "dragon_hoard_mega", name: "Dragon's Hoard Mega Pack", basePriceInUSD: "99.99",
                items: [
                    .init(name: "Gems", sku: "gem_01", quantity: "14000"),
                    .init(name: "Coins", sku: "coin_01", quantity: "1000000"),
                    .init(name: "Legendary Chest", sku: "chest_legendary", quantity: "10"),
                    .init(name: "Dragon Egg", sku: "dragon_egg_gold", quantity: "1"),
                ]),
            Offer(
                sku: "no_ads_forever", name: "Remove Ads", basePriceInUSD: "2.99",
                items: [
                    .init(name: "Ad-Free Play", sku: "no_ads", quantity: "1"),
                ]),
        ],
        statusCodes: [
            StatusCode(
                code: 1000, name: "SERVER_ERROR",
                meaning: "server not responding or down",
                message: "The Appcharge server did not respond. Check the network and try again later.",
                callbacks: [.onInitializeFailed, .onPricePointsFailed, .onPurchaseFailed],
                orderAtFailure: .checkout,
                dataTemplate: "{\"httpStatus\":503}",
                advice: "Retry with backoff; for a purchase, verify the order on your server before granting or refunding anything."),
            StatusCode(
                code: 1001, name: "GENERAL_SERVER_ERROR",
                meaning: "general server error",
                message: "The Appcharge server returned an error.",
                callbacks: [.onInitializeFailed, .onPricePointsFailed, .onPurchaseFailed],
                orderAtFailure: .checkout,
                dataTemplate: "{\"httpStatus\":500}",
                advice: "Retry later; for a purchase, verify the order on your server before telling the player it failed."),
            StatusCode(
                code: 1007, name: "TOKEN_VALIDATION_ERROR",
                meaning: "checkout token mismatch",
                message: "The checkout token could not be validated.",
                callbacks: [.onInitializeFailed, .onPurchaseFailed],
                orderAtFailure: .checkout,
                dataTemplate: nil,
                advice: "Create a new checkout session on your server and open it again; do not reuse the old token."),
            StatusCode(
                code: 2000, name: "BOOT_INITIALIZATION_ERROR",
                meaning: "init failed, configuration issue not covered below; paylinks also sends it for a request made before initialize succeeded",
                message: "The SDK is not initialized: its configuration has a problem, or initialize has not succeeded yet.",
                callbacks: [.onInitializeFailed, .onPricePointsFailed, .onPurchaseFailed],
                orderAtFailure: .none,
                dataTemplate: "{\"request\":\"${request}\"}",
                advice: "Check the whole configuration, then call initialize again; request price points and checkout only after onInitialized."),
            StatusCode(
                code: 2001, name: "BOOT_ENVIRONMENT_ERROR",
                meaning: "environment invalid, missing or empty",
                message: "SDK initialization failed: the environment must be \"sandbox\" or \"production\".",
                callbacks: [.onInitializeFailed],
                orderAtFailure: .none,
                dataTemplate: "{\"environment\":\"${sdkEnvironment}\"}",
                advice: "Pass \"sandbox\" or \"production\" as the environment."),
            StatusCode(
                code: 2002, name: "BOOT_TOKEN_ERROR",
                meaning: "checkout token (public key) invalid, missing or empty",
                message: "SDK initialization failed: the checkout public key is missing or invalid.",
                callbacks: [.onInitializeFailed],
                orderAtFailure: .none,
                dataTemplate: nil,
                advice: "Pass the checkout public key from the publisher dashboard for this environment."),
            StatusCode(
                code: 2003, name: "BOOT_CUSTOMER_ID_ERROR",
                meaning: "customer ID missing or empty",
                message: "SDK initialization failed: the customer ID is missing or empty.",
                callbacks: [.onInitializeFailed],
                orderAtFailure: .none,
                dataTemplate: nil,
                advice: "Pass the player's customer ID to initialize; log the player in first if you have none yet."),
            StatusCode(
                code: 2004, name: "REDIRECT_URL_CONFIG_ERROR",
                meaning: "invalid redirect URL configuration (iOS only)",
                message: "SDK initialization failed: the redirect URL is not a valid universal link.",
                callbacks: [.onInitializeFailed],
                orderAtFailure: .none,
                dataTemplate: "{\"redirectUrl\":\"${redirectUrl}\"}",
                advice: "Set the redirect URL to an https universal link that your app handles."),
            StatusCode(
                code: 3000, name: "BROWSER_CLOSED",
                meaning: "player closed the browser with OS controls",
                message: "Purchase canceled because the user closed the browser.",
                callbacks: [.onPurchaseFailed],
                orderAtFailure: .checkout,
                dataTemplate: nil,
                advice: "Treat it as a cancel: keep the player in the store and grant nothing.",
                isCancel: true),
            StatusCode(
                code: 3002, name: "CHARGE_CANCELED",
                meaning: "player closed the checkout interface",
                message: "Purchase canceled because the user closed the checkout interface.",
                callbacks: [.onPurchaseFailed],
                orderAtFailure: .checkout,
                dataTemplate: nil,
                advice: "Treat it as a cancel: keep the player in the store and grant nothing.",
                isCancel: true),
            StatusCode(
                code: 3003, name: "CHARGE_FAILED",
                meaning: "purchase failed on the server side",
                message: "The charge failed on the server side.",
                callbacks: [.onPurchaseFailed],
                orderAtFailure: .payment,
                dataTemplate: "{\"declineReason\":\"card_declined\",\"orderId\":\"${orderId}\"}",
                advice: "Tell the player the payment failed and offer to try another payment method; grant nothing."),
            StatusCode(
                code: 3004, name: "VALIDATE_ORDER_TIMEOUT",
                meaning: "timeout during order validation",
                message: "The order could not be validated before the timeout.",
                callbacks: [.onPurchaseFailed],
                orderAtFailure: .payment,
                dataTemplate: "{\"timeoutSeconds\":90,\"lastState\":\"${lastState}\",\"orderId\":\"${orderId}\"}",
                advice: "Do not grant yet: the charge may still succeed. Verify the order on your server, or grant when your server's webhook confirms it."),
            StatusCode(
                code: 3005, name: "PURCHASE_NOT_FOUND",
                meaning: "order could not be found and validated",
                message: "The order could not be found: the checkout closed before the order existed.",
                callbacks: [.onPurchaseFailed],
                orderAtFailure: .checkout,
                dataTemplate: "{\"purchaseId\":\"${purchaseId}\"}",
                advice: "Treat it as a cancel unless your server has the order; grant nothing from the client.",
                isCancel: true),
            StatusCode(
                code: 3006, name: "VALIDATE_ORDER_ENV_FAILED",
                meaning: "SDK configuration or tokens do not match the session's environment",
                message: "The order's session belongs to another environment than the SDK's configuration.",
                callbacks: [.onPurchaseFailed],
                orderAtFailure: .checkout,
                dataTemplate: "{\"sdkEnvironment\":\"${sdkEnvironment}\",\"sessionEnvironment\":\"${sessionEnvironment}\"}",
                advice: "Create the checkout session in the same environment the SDK was initialized with (sandbox keys with sandbox sessions)."),
            StatusCode(
                code: 3007, name: "CUSTOMER_VALIDATION_FAILED",
                meaning: "the order's customer ID differs from the one the SDK was initialized with",
                message: "The order belongs to another customer than the one the SDK was initialized with.",
                callbacks: [.onPurchaseFailed],
                orderAtFailure: .payment,
                dataTemplate: "{\"sdkCustomerId\":\"${sdkCustomerId}\",\"orderCustomerId\":\"${orderCustomerId}\"}",
                advice: "Create checkout sessions for the customer the SDK was initialized with; re-initialize after the player switches account."),
            StatusCode(
                code: 4000, name: "BROWSER_DISABLED_OR_NOT_AVAILABLE",
                meaning: "no browser available on the device",
                message: "No browser is available on the device to open the checkout.",
                callbacks: [.onPurchaseFailed],
                orderAtFailure: .none,
                dataTemplate: nil,
                advice: "Ask the player to enable or install a browser, or offer another way to buy."),
            StatusCode(
                code: 4002, name: "BROWSER_COULD_NOT_BE_OPENED",
                meaning: "the browser could not be opened (malformed checkout URL)",
                message: "The browser could not open the checkout URL.",
                callbacks: [.onPurchaseFailed],
                orderAtFailure: .none,
                dataTemplate: nil,
                advice: "Check the checkout URL your server returned; it must be a valid https URL."),
        ],
        tiers: ["0.99", "1.99", "2.99", "4.99", "9.99", "19.99", "49.99", "99.99"])

    /// The countries with a localization of their own, in the order of their codes.
    static var countries: [String] { ["BR", "CH", "DE", "FR", "GB", "IN", "JP", "KR", "MX", "US"] }

    /// Every localization, keyed by country.
    static let localizations: [String: PriceLocalization] = [
        "BR": localization0,
        "CH": localization1,
        "DE": localization2,
        "FR": localization3,
        "GB": localization4,
        "IN": localization5,
        "JP": localization6,
        "KR": localization7,
        "MX": localization8,
        "US": localization9,
    ]

    /// The localization of `country`, made the first time it is asked for; nil for
    /// a country without one.
    static func localization(_ country: String) -> PriceLocalization? {
        switch country {
        case "BR": localization0
        case "CH": localization1
        case "DE": localization2
        case "FR": localization3
        case "GB": localization4
        case "IN": localization5
        case "JP": localization6
        case "KR": localization7
        case "MX": localization8
        case "US": localization9
        default: nil
        }
    }

    /// G1's status codes, made the first time they are asked for.
    static let g1StatusCodes: [StatusCode] = [
        StatusCode(
            code: 1000, name: "HTTP_REQUEST",
            meaning: "a request to the Appcharge server failed",
            message: "A request to the Appcharge server failed.",
            callbacks: [.onInitializeFailed, .onPricePointsFailed, .onPurchaseFailed],
            orderAtFailure: .none,
            dataTemplate: "{\"httpStatus\":503}",
            advice: "Retry with backoff; for a purchase, verify the order on your server before granting anything."),
        StatusCode(
            code: 1001, name: "HTTP_BOOT_REQUEST",
            meaning: "the boot request of initialize failed",
            message: "The boot request failed.",
            callbacks: [.onInitializeFailed],
            orderAtFailure: .none,
            dataTemplate: "{\"httpStatus\":500}",
            advice: "Call initialize again later."),
        StatusCode(
            code: 1002, name: "HTTP_SESSION_REQUEST",
            meaning: "the checkout session could not be read or its token did not match",
            message: "The checkout session request failed.",
            callbacks: [.onPurchaseFailed],
            orderAtFailure: .none,
            dataTemplate: nil,
            advice: "Create a new checkout session on your server and open it again.",
            reports: [1007]),
        StatusCode(
            code: 1003, name: "HTTP_PRODUCTS_REQUEST",
            meaning: "the products request failed",
            message: "The products request failed.",
            callbacks: [.onPurchaseFailed],
            orderAtFailure: .none,
            dataTemplate: nil,
            advice: "Retry later."),
        StatusCode(
            code: 1004, name: "HTTP_CONSUME_REQUEST",
            meaning: "the request consuming a purchase failed",
            message: "The consume request failed.",
            callbacks: [.onPurchaseFailed],
            orderAtFailure: .none,
            dataTemplate: nil,
            advice: "Verify the order on your server before granting or refunding anything."),
        StatusCode(
            code: 1005, name: "HTTP_NON_CONSUME_REQUEST",
            meaning: "the request for a non-consumable purchase failed",
            message: "The non-consumable request failed.",
            callbacks: [.onPurchaseFailed],
            orderAtFailure: .none,
            dataTemplate: nil,
            advice: "Verify the order on your server before granting or refunding anything."),
        StatusCode(
            code: 1006, name: "HTTP_PRICE_POINTS_REQUEST",
            meaning: "the price points request failed (the current docs print 1009; shipped SDKs send 1006)",
            message: "The price points request failed.",
            callbacks: [.onPricePointsFailed],
            orderAtFailure: .none,
            dataTemplate: nil,
            advice: "Show the prices your game ships with, and request price points again later.",
            reports: [1001]),
        StatusCode(
            code: 2000, name: "BOOT_INITIALIZATION",
            meaning: "initialize failed: any configuration problem, or a request before initialize succeeded",
            message: "The SDK could not be initialized.",
            callbacks: [.onInitializeFailed, .onPricePointsFailed, .onPurchaseFailed],
            orderAtFailure: .none,
            dataTemplate: "{\"request\":\"${request}\",\"sdkEnvironment\":\"${sdkEnvironment}\",\"sdkCustomerId\":\"${sdkCustomerId}\"}",
            advice: "Check the environment, the public key, the customer id and the redirect URL, then initialize again.",
            reports: [2001, 2002, 2003, 2004]),
        StatusCode(
            code: 3000, name: "PURCHASE_CANCELED",
            meaning: "the player closed the browser",
            message: "The purchase was canceled.",
            callbacks: [.onPurchaseFailed],
            orderAtFailure: .none,
            dataTemplate: nil,
            advice: "Treat it as a cancel: keep the player in the store and grant nothing.",
            isCancel: true),
        StatusCode(
            code: 3001, name: "PURCHASE_ALREADY_CANCELED",
            meaning: "the purchase had been canceled already",
            message: "The purchase was already canceled.",
            callbacks: [.onPurchaseFailed],
            orderAtFailure: .none,
            dataTemplate: nil,
            advice: "Treat it as a cancel; do not open the same checkout again.",
            isCancel: true),
        StatusCode(
            code: 3002, name: "PURCHASE_CLOSED_AND_CANCELED",
            meaning: "the player closed the checkout",
            message: "The purchase was canceled: the checkout was closed.",
            callbacks: [.onPurchaseFailed],
            orderAtFailure: .none,
            dataTemplate: nil,
            advice: "Treat it as a cancel: keep the player in the store and grant nothing.",
            isCancel: true),
        StatusCode(
            code: 3003, name: "PURCHASE_FAILED",
            meaning: "the purchase failed on the server",
            message: "The purchase failed.",
            callbacks: [.onPurchaseFailed],
            orderAtFailure: .none,
            dataTemplate: "{\"orderId\":\"${orderId}\"}",
            advice: "Tell the player the payment did not go through; grant nothing."),
        StatusCode(
            code: 3004, name: "PURCHASE_TIMEOUT",
            meaning: "the order was not confirmed in time",
            message: "The purchase timed out.",
            callbacks: [.onPurchaseFailed],
            orderAtFailure: .none,
            dataTemplate: "{\"orderId\":\"${orderId}\"}",
            advice: "Check the order on your server later: it may still be charged and granted."),
        StatusCode(
            code: 3005, name: "PURCHASE_CONFIRMATION_FAILED",
            meaning: "the order could not be confirmed: not found, or not this player's or environment's",
            message: "The purchase could not be confirmed.",
            callbacks: [.onPurchaseFailed],
            orderAtFailure: .none,
            dataTemplate: "{\"purchaseId\":\"${purchaseId}\"}",
            advice: "Check the order on your server; make sure the session was created for this player and environment.",
            reports: [3006, 3007]),
        StatusCode(
            code: 4000, name: "BROWSER_DISABLED_OR_NOT_AVAILABLE",
            meaning: "no browser is available on the device",
            message: "No browser is available.",
            callbacks: [.onPurchaseFailed],
            orderAtFailure: .none,
            dataTemplate: nil,
            advice: "Tell the player a browser is needed to pay."),
        StatusCode(
            code: 4001, name: "BROWSER_CONNECTION_LOST",
            meaning: "the browser lost its connection during the checkout",
            message: "The browser lost its connection.",
            callbacks: [.onPurchaseFailed],
            orderAtFailure: .none,
            dataTemplate: nil,
            advice: "Check the order on your server, then let the player try again."),
        StatusCode(
            code: 4002, name: "BROWSER_COULD_NOT_BE_OPENED",
            meaning: "the browser could not be opened",
            message: "The browser could not be opened.",
            callbacks: [.onPurchaseFailed],
            orderAtFailure: .none,
            dataTemplate: nil,
            advice: "Check the checkout URL your server returned."),
        StatusCode(
            code: 8000, name: "INVALID_ARGUMENT_PURCHASE_ID",
            meaning: "the purchase id given to openCheckout is invalid",
            message: "The purchase id is invalid.",
            callbacks: [.onPurchaseFailed],
            orderAtFailure: .none,
            dataTemplate: nil,
            advice: "Pass the purchaseId your server received from Create Checkout Session."),
        StatusCode(
            code: 9999, name: "UNKNOWN_ERROR",
            meaning: "an error the SDK does not know",
            message: "An unknown error occurred.",
            callbacks: [.onInitializeFailed, .onPricePointsFailed, .onPurchaseFailed],
            orderAtFailure: .none,
            dataTemplate: nil,
            advice: "Log it with the SDK version and retry later."),
    ]

    /// What G3 changes in the current status codes, made the first time it is asked for.
    static let g3StatusCodes: [StatusCode] = [
        StatusCode(
            code: 2005, name: "BOOT_INIT_ALREADY_IN_PROGRESS",
            meaning: "initialize was called again while the first call was still running",
            message: "SDK initialization is already in progress.",
            callbacks: [.onInitializeFailed],
            orderAtFailure: .none,
            dataTemplate: nil,
            advice: "Call initialize once and wait for its result; initializing again after it ended is allowed."),
        StatusCode(
            code: 2003, name: "BOOT_CUSTOMER_ID_ERROR",
            meaning: "customer ID missing or empty",
            message: "SDK initialization failed: the customer ID is missing or empty.",
            callbacks: [],
            orderAtFailure: .none,
            dataTemplate: nil,
            advice: "Pass the player's customer ID to initialize; log the player in first if you have none yet."),
        StatusCode(
            code: 3000, name: "BROWSER_CLOSED",
            meaning: "player closed the browser with OS controls",
            message: "Purchase canceled because the user closed the browser.",
            callbacks: [.onPurchaseCanceled],
            orderAtFailure: .checkout,
            dataTemplate: nil,
            advice: "Treat it as a cancel: keep the player in the store and grant nothing.",
            isCancel: true),
        StatusCode(
            code: 3002, name: "CHARGE_CANCELED",
            meaning: "player closed the checkout interface",
            message: "Purchase canceled because the user closed the checkout interface.",
            callbacks: [.onPurchaseCanceled],
            orderAtFailure: .checkout,
            dataTemplate: nil,
            advice: "Treat it as a cancel: keep the player in the store and grant nothing.",
            isCancel: true),
        StatusCode(
            code: 8000, name: "INVALID_ARGUMENT_PURCHASE_ID",
            meaning: "openCheckout was given an empty purchase id",
            message: "The purchase id is empty.",
            callbacks: [.onPurchaseFailed],
            orderAtFailure: .none,
            dataTemplate: nil,
            advice: "Pass the purchaseId your server received from Create Checkout Session."),
        StatusCode(
            code: 8001, name: "INVALID_ARGUMENT_PARSED_URL",
            meaning: "openCheckout was given a parsed URL without a session token",
            message: "The parsed URL has no checkout session token.",
            callbacks: [.onPurchaseFailed],
            orderAtFailure: .none,
            dataTemplate: nil,
            advice: "Pass the parsedUrl your server received from Create Checkout Session, unchanged."),
        StatusCode(
            code: 8002, name: "EMPTY_CUSTOMER_ID",
            meaning: "openCheckout was given an empty customer id",
            message: "The customer id is empty.",
            callbacks: [.onPurchaseFailed],
            orderAtFailure: .none,
            dataTemplate: nil,
            advice: "Pass the player's customer id to openCheckout; in G3 it no longer goes to initialize."),
        StatusCode(
            code: 9999, name: "UNKNOWN_ERROR",
            meaning: "paylinks sends it for getPricePoints on a G3 SDK, whose interface has no price points",
            message: "This SDK has no price points: G3 removed getPricePoints and its callbacks.",
            callbacks: [.onPricePointsFailed],
            orderAtFailure: .none,
            dataTemplate: "{\"request\":\"${request}\"}",
            advice: "Show your own prices, or target an SDK before G3 (iOS 1.9, Android 1.x, Unity 2.x) for price points."),
    ]

    /// The localization of BR.
    static let localization0 = PriceLocalization(
        country: "BR",
        data: .init(
            currencyCode: "BRL", currencySymbol: "R$",
            fractionalSeparator: ",", milSeparator: ".",
            symbolPosition: "Left", spacing: true, multiplier: 100),
        localizedPrices: [
            "0.99": 590,
            "1.99": 1090,
            "2.99": 1690,
            "4.99": 2790,
            "9.99": 5490,
            "19.99": 10990,
            "49.99": 27990,
            "99.99": 54990,
        ],
        taxModel: .included, taxRate: ExactDecimal(significand: 17, scale: 0),
        usdExchangeRate: ExactDecimal(significand: 505, scale: 2))

    /// The localization of CH.
    static let localization1 = PriceLocalization(
        country: "CH",
        data: .init(
            currencyCode: "CHF", currencySymbol: "CHF",
            fractionalSeparator: ".", milSeparator: "'",
            symbolPosition: "Left", spacing: true, multiplier: 100),
        localizedPrices: [
            "0.99": 100,
            "1.99": 200,
            "2.99": 300,
            "4.99": 500,
            "9.99": 1000,
            "19.99": 2000,
            "49.99": 5000,
            "99.99": 10000,
        ],
        taxModel: .included, taxRate: ExactDecimal(significand: 81, scale: 1),
        usdExchangeRate: ExactDecimal(significand: 88, scale: 2))

    /// The localization of DE.
    static let localization2 = PriceLocalization(
        country: "DE",
        data: .init(
            currencyCode: "EUR", currencySymbol: "€",
            fractionalSeparator: ",", milSeparator: ".",
            symbolPosition: "Right", spacing: true, multiplier: 100),
        localizedPrices: [
            "0.99": 109,
            "1.99": 229,
            "2.99": 349,
            "4.99": 549,
            "9.99": 1099,
            "19.99": 2199,
            "49.99": 5499,
            "99.99": 10999,
        ],
        taxModel: .included, taxRate: ExactDecimal(significand: 19, scale: 0),
        usdExchangeRate: ExactDecimal(significand: 95, scale: 2))

    /// The localization of FR.
    static let localization3 = PriceLocalization(
        country: "FR",
        data: .init(
            currencyCode: "EUR", currencySymbol: "€",
            fractionalSeparator: ",", milSeparator: " ",
            symbolPosition: "Right", spacing: true, multiplier: 100),
        localizedPrices: [
            "0.99": 109,
            "1.99": 229,
            "2.99": 349,
            "4.99": 549,
            "9.99": 1099,
            "19.99": 2199,
            "49.99": 5499,
            "99.99": 10999,
        ],
        taxModel: .included, taxRate: ExactDecimal(significand: 20, scale: 0),
        usdExchangeRate: ExactDecimal(significand: 95, scale: 2))

    /// The localization of GB.
    static let localization4 = PriceLocalization(
        country: "GB",
        data: .init(
            currencyCode: "GBP", currencySymbol: "£",
            fractionalSeparator: ".", milSeparator: ",",
            symbolPosition: "Left", spacing: false, multiplier: 100),
        localizedPrices: [
            "0.99": 99,
            "1.99": 199,
            "2.99": 299,
            "4.99": 499,
            "9.99": 999,
            "19.99": 1999,
            "49.99": 4999,
            "99.99": 9999,
        ],
        taxModel: .included, taxRate: ExactDecimal(significand: 20, scale: 0),
        usdExchangeRate: ExactDecimal(significand: 79, scale: 2))

    /// The localization of IN.
    static let localization5 = PriceLocalization(
        country: "IN",
        data: .init(
            currencyCode: "INR", currencySymbol: "₹",
            fractionalSeparator: ".", milSeparator: ",",
            symbolPosition: "Left", spacing: false, multiplier: 100),
        localizedPrices: [
            "0.99": 8900,
            "1.99": 17900,
            "2.99": 24900,
            "4.99": 44900,
            "9.99": 89900,
            "19.99": 179900,
            "49.99": 449900,
            "99.99": 899900,
        ],
        taxModel: .included, taxRate: ExactDecimal(significand: 18, scale: 0),
        usdExchangeRate: ExactDecimal(significand: 8312, scale: 2))

    /// The localization of JP.
    static let localization6 = PriceLocalization(
        country: "JP",
        data: .init(
            currencyCode: "JPY", currencySymbol: "¥",
            fractionalSeparator: ".", milSeparator: ",",
            symbolPosition: "Left", spacing: false, multiplier: 1),
        localizedPrices: [
            "0.99": 160,
            "1.99": 300,
            "2.99": 480,
            "4.99": 800,
            "9.99": 1500,
            "19.99": 3000,
            "49.99": 7800,
            "99.99": 15800,
        ],
        taxModel: .included, taxRate: ExactDecimal(significand: 10, scale: 0),
        usdExchangeRate: ExactDecimal(significand: 150, scale: 0))

    /// The localization of KR.
    static let localization7 = PriceLocalization(
        country: "KR",
        data: .init(
            currencyCode: "KRW", currencySymbol: "₩",
            fractionalSeparator: ".", milSeparator: ",",
            symbolPosition: "Left", spacing: false, multiplier: 1),
        localizedPrices: [
            "0.99": 1400,
            "1.99": 2900,
            "2.99": 4400,
            "4.99": 7500,
            "9.99": 14000,
            "19.99": 29000,
            "49.99": 73000,
            "99.99": 149000,
        ],
        taxModel: .included, taxRate: ExactDecimal(significand: 10, scale: 0),
        usdExchangeRate: ExactDecimal(significand: 1380, scale: 0))

    /// The localization of MX.
    static let localization8 = PriceLocalization(
        country: "MX",
        data: .init(
            currencyCode: "MXN", currencySymbol: "$",
            fractionalSeparator: ".", milSeparator: ",",
            symbolPosition: "Left", spacing: false, multiplier: 100),
        localizedPrices: [
            "0.99": 1900,
            "1.99": 3900,
            "2.99": 5900,
            "4.99": 9900,
            "9.99": 19900,
            "19.99": 39900,
            "49.99": 99900,
            "99.99": 199900,
        ],
        taxModel: .included, taxRate: ExactDecimal(significand: 16, scale: 0),
        usdExchangeRate: ExactDecimal(significand: 172, scale: 1))

    /// The localization of US.
    static let localization9 = PriceLocalization(
        country: "US",
        data: .init(
            currencyCode: "USD", currencySymbol: "$",
            fractionalSeparator: ".", milSeparator: ",",
            symbolPosition: "Left", spacing: false, multiplier: 100),
        localizedPrices: [
            "0.99": 99,
            "1.99": 199,
            "2.99": 299,
            "4.99": 499,
            "9.99": 999,
            "19.99": 1999,
            "49.99": 4999,
            "99.99": 9999,
        ],
        taxModel: .excluded, taxRate: ExactDecimal(significand: 8875, scale: 3),
        usdExchangeRate: ExactDecimal(significand: 1, scale: 0))
}
