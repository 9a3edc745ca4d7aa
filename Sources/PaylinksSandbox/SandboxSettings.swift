public import PaylinksAppcharge
import PaylinksFixtures
import PaylinksKit

extension Sandbox {
    /// How a sandbox answers.
    public struct Settings: Sendable {
        /// The address the sandbox listens at, `http://127.0.0.1:4010`: the base of the URLs
        /// it hands out to a request that names no `Host` it can use.
        public var baseURL: String
        /// The base URL players reach the sandbox at (`--public-url`), for the URLs it hands
        /// out; when nil, each answer's URLs are built from its request's `Host`, so that a
        /// sandbox on 0.0.0.0 hands a phone an address it can reach.
        public var publicURL: String?
        /// Names besides `localhost` and the `--public-url` host that the sandbox answers
        /// to (`--allowed-host`); a request to any other name is refused with 421, since a
        /// page that rebinds a name of its own to this machine would otherwise read it.
        /// IP addresses are always answered.
        public var allowedHosts: [String] = []
        /// The publisher token the game's server must send.
        public var publisherToken: String
        /// The game's checkout public key (`--checkout-public-key`), which Appcharge's legacy
        /// link, `/{checkoutSessionToken}?cot={CheckoutPublicKey}`, must carry.
        public var checkoutPublicKey = Scenario.Configuration.defaults.checkoutPublicKey
        /// Seeds the sessions' identifiers.
        public var seed: UInt64
        /// How long a session takes payments, in milliseconds: an hour.
        public var sessionLifetime = PaymentLinksSimulator.sessionLifetime
        /// Sessions kept at most; past it, the oldest are forgotten.
        public var sessionLimit = 10_000
        /// Bytes of sessions kept at most; past it, the oldest are forgotten.
        public var sessionByteBudget = Self.defaultSessionByteBudget
        /// 128 MiB: 10,000 sessions of a MiB each cannot take 10 GB.
        public static let defaultSessionByteBudget = 128 << 20
        /// The project's id (`--project-id`): the `x-project-id` of the orders' events, and
        /// each order's `publisherId` in the orders report.
        public var projectId = DemoCredentials.projectId
        /// The envelope of the orders' events.
        public var eventsVersion = OrderEvent.Version.v2
        /// Appcharge's fee and exchange cost, which the orders' money is figured with.
        public var rates = OrderMoney.Rates.standard
        /// The token the forms of the sandbox's pages carry, which a form sent without is
        /// refused: no other page can read it. A new one for each sandbox, from the
        /// system's random source.
        public var formToken = Sandbox.newFormToken()
        /// Requests a minute each publisher token may make of the APIs the game's server
        /// calls (`--rate-limit N/min`), past which they are answered 429; nil for no limit.
        public var rateLimit: Int?
        /// The players blocked from the start (`--block-player`), by `customer.id`: Create
        /// Checkout Session answers them 403 at every start, and a reset blocks them again.
        public var blockedPlayers: [String] = []
        /// What the game does with the products of an order refunded in part
        /// (`--partial-refund`): what a player's page says the books hold.
        package var partialRefund = PlayerBooks.PartialRefundRule.keep
        /// The version of paylinks that serves, as its health says it.
        public var version = ""

        /// Settings for a sandbox at `baseURL`.
        public init(baseURL: String, publisherToken: String, seed: UInt64) {
            self.baseURL = baseURL
            self.publisherToken = publisherToken
            self.seed = seed
        }
    }
}
