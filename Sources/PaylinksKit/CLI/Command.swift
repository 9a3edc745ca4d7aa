/// The subcommands that run a simulated flow.
public enum Command: String, CaseIterable, Sendable {
    /// `paylinks init`: initialize.
    case initialize = "init"
    /// `paylinks price-points`: initialize, then fetch price points.
    case pricePoints = "price-points"
    /// `paylinks purchase`: initialize, open checkout, the player pays.
    case purchase
    /// `paylinks cancel`: initialize, open checkout, the player closes it.
    case cancel

    /// What the subcommand does, in one line.
    public var summary: String {
        switch self {
        case .initialize: "Initialize the SDK: onInitialized or onInitializeFailed."
        case .pricePoints: "Initialize, then fetch the price points for the player's country."
        case .purchase: "Initialize, open checkout for an offer; the player pays."
        case .cancel: "Initialize, open checkout for an offer; the player closes it (3002)."
        }
    }
}

/// The settings of a run, with their defaults; each is set by the option named beside it.
public struct RunOptions: Equatable, Sendable {
    /// `--sku`: the offer to check out (purchase and cancel).
    public var sku: String?
    /// `--customer-id`: the player's customer id.
    public var customerId = "cust_98765"
    /// `--country`: the player's country, ISO 3166-1 alpha-2, upper case.
    public var country = "US"
    /// `--environment`: the SDK environment.
    public var environment = "sandbox"
    /// `--checkout-public-key`: the publisher's checkout public key.
    public var checkoutPublicKey = "pk_sandbox_paylinks_demo"
    /// `--payment-method`: how the player pays.
    public var paymentMethod = "Visa"
    /// `--fixtures`: a directory whose fixture files replace the built-in ones.
    public var fixtures: String?
    /// `--seed`: seeds the session token, purchase id and order id; random when nil.
    public var seed: UInt64?
    /// `--now`: the clock in Unix seconds; the real clock when nil.
    public var now: Int?
    /// `--format` / `--json`: the output format.
    public var format = OutputFormat.text

    /// The defaults.
    public init() {}
}

/// What a command line asks for.
public enum Invocation: Equatable, Sendable {
    /// Show help: for one subcommand, or the overview when nil.
    case help(Command?)
    /// Show the version.
    case version
    /// Run a subcommand's flow.
    case run(Command, RunOptions)
}
