// swift-format-ignore-file
// Generated from Fixtures/*.json by `make catalog` (Sources/generate-catalog); do not edit.
// A test keeps it equal to the fixtures.

/// The catalog of `Fixtures/*.json`, as Swift values.
enum BuiltInCatalog {
    /// The built-in catalog.
    static let catalog = Catalog(
        offers: [
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
                dataTemplate: "{\"timeoutSeconds\":90,\"lastState\":\"charge_pending\",\"orderId\":\"${orderId}\"}",
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
        tiers: ["0.99", "1.99", "2.99", "4.99", "9.99", "19.99", "49.99", "99.99"],
        localizations: [
            "BR": PriceLocalization(
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
                ]),
            "CH": PriceLocalization(
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
                ]),
            "DE": PriceLocalization(
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
                ]),
            "FR": PriceLocalization(
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
                ]),
            "GB": PriceLocalization(
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
                ]),
            "IN": PriceLocalization(
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
                ]),
            "JP": PriceLocalization(
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
                ]),
            "KR": PriceLocalization(
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
                ]),
            "MX": PriceLocalization(
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
                ]),
            "US": PriceLocalization(
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
                ]),
        ])
}
