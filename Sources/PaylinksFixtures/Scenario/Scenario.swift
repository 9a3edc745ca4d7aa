public import PaylinksJSON
public import PaylinksKit

/// A whole player session, scripted: a configuration and the steps one simulated SDK
/// goes through, each with what must happen.
///
/// Scenarios are read from JSON files by ``ScenarioLoader`` and run by ``ScenarioRunner``.
public struct Scenario: Sendable {
    /// The scenario's name: its `name`, or its file's name.
    public var name: String
    /// The file it came from.
    public var file: String
    /// The starting configuration.
    public var configuration: Configuration
    /// The steps, in order, with repeated steps already expanded into their attempts.
    public var steps: [ScenarioStep]
    /// The combination of `--matrix` the scenario runs in, as its name carries it
    /// (`country=DE,platform=unity`); nil without a matrix.
    public var combination: String?
    /// The scenario's place among all a run loaded, which its seed derives from; its
    /// place among those that run when nil.
    public var ordinal: Int?
    /// Why the scenario does not run in its combination of a `--matrix`, although its file
    /// is sound: a step the generation does not have, a code its table lacks. Nil for a
    /// scenario that runs.
    public var doesNotApply: String?
    /// What the run should say of how the scenario's SDK was chosen: a version carried to
    /// another platform as another number. Nil when there is nothing to say.
    public var note: String?

    /// What a scenario starts with; unset values come from the command line or defaults.
    public struct Configuration: Sendable {
        /// The defaults of a session, for scenarios and for the command line's options alike.
        public static var defaults: Configuration { Configuration() }

        /// The player's customer id.
        public var customerId = "cust_98765"
        /// The publisher's checkout public key.
        public var checkoutPublicKey = "pk_sandbox_paylinks_demo"
        /// The SDK environment.
        public var environment = "sandbox"
        /// The redirect URL, if any.
        public var redirectUrl: String?
        /// The player's country.
        public var country = "US"
        /// How the player pays.
        public var paymentMethod = PlayerAction.defaultPaymentMethod
        /// The device the player checks out on; the command line's `--device`, or one from
        /// the seed, when nil.
        package var device: OrderDevice?
        /// The seed of the ids and faults; the command line's `--seed`, or random, when nil.
        public var seed: UInt64?
        /// The clock; `--now`, or the real clock, when nil.
        public var now: Int?
        /// The probability of a random fault per step; `--fault-rate`, or 0, when nil.
        public var faultRate: Double?
        /// The game server's endpoint for Grant Award Callbacks; `--award-url`, or none, when nil.
        public var awardUrl: String?
        /// The game server's endpoint for order events; `--events-url`, or none, when nil.
        public var eventsUrl: String?
        /// The platform and SDK version the scenario runs as, from its file, the command
        /// line and the matrix; `--platform` and `--sdk-version`, or iOS 1.9, when nil.
        public var target: SDKTarget?
        /// What the file itself names of the platform and version.
        public var choice = TargetChoice()
        /// Through the SDK, or by Link Out without it, back to `redirectUrl`.
        package var flow = PaymentFlow.sdk
    }
}

/// One step of a scenario: a request to the SDK and what must come of it.
public struct ScenarioStep: Sendable {
    /// The step's number in the file, from 1.
    public var number: Int
    /// The attempt's number when the step repeats, from 1; nil for a step that does not.
    public var attempt: Int?
    /// What the step does.
    public var action: Action
    /// A status code to deliver at this step, as `--error` does.
    public var error: Int?
    /// Whether the result arrives twice (purchase and cancel).
    public var deliverTwice = false
    /// What goes wrong on the way of every event the step sends.
    public var eventFault: EventFault?
    /// What goes wrong on the way of the award the step sends (a purchase paid, a payment
    /// resolved, a Retry Award), or of its answer.
    public var awardFault: AwardFault?
    /// Whether the next step waits for this one's result; an `initialize` that does not
    /// wait is still running when the next step starts.
    public var waits = true
    /// What must happen; nil when the step checks nothing.
    public var expectation: StepExpectation?

    /// The request a step makes.
    public enum Action: Sendable {
        /// `initialize`, with the configuration and player as they stand after this
        /// step's overrides.
        case initialize(ACConfigModel, customerId: String)
        /// `getPricePoints`.
        case pricePoints
        /// Create a checkout session and open it; the player acts.
        case checkout(Checkout)
        /// Refund the scenario's last paid order: `amount` minor units (all of it when
        /// nil), and the refund goes through or fails.
        case refund(amount: Int?, outcome: RefundOutcome)
        /// The player disputes the last paid order's charge: the dispute opens, or is
        /// resolved (opened first when it is not open yet).
        case dispute(DisputeOutcome)
        /// The scenario's last pending payment resolves: now, or `after` milliseconds on the
        /// scenario's clock (when an `advance` passes that moment).
        case resolve(succeeded: Bool, after: Int?)
        /// The scenario's clock moves on by `milliseconds`; what falls due on the way happens.
        case advance(milliseconds: Int)
        /// Retry Award, as Appcharge's dashboard offers it for an order whose award failed
        /// (Failed (Charged)): the scenario's last paid order's award again, `manual_retry`.
        case retryAward
    }

    /// A fault on the way of an award to the game's server, or of its answer back.
    public typealias AwardFault = PaylinksKit.AwardFault

    /// A fault on the way of an event to the game's server.
    public enum EventFault: String, CaseIterable, Sendable {
        /// Delivered twice, the same `eventId` both times.
        case duplicate
        /// Held back, and sent after the next step's events.
        case reorder
        /// The first attempt lost on the way.
        case dropFirst = "drop-first"
        /// Sent 5 minutes late.
        case delay
    }

    /// How a refund ends.
    public enum RefundOutcome: String, CaseIterable, Sendable {
        /// `payment_refunded`: the money goes back; `order.refunded` is sent.
        case refunded
        /// `payment_refund_failed`: it did not go through.
        case failed
    }

    /// How far a dispute goes.
    public enum DisputeOutcome: String, CaseIterable, Sendable {
        /// `payment_dispute_open`.
        case open
        /// `payment_dispute_won`: the money stays.
        case won
        /// `payment_dispute_lost`: the money is taken back.
        case lost
    }

    /// How a pending payment resolves.
    public enum ResolveOutcome: String, CaseIterable, Sendable {
        /// The payment goes through: the order is paid and its award sent, though the
        /// client, which had its 3004, hears nothing more.
        case succeeded
        /// The payment is declined: `payment_failed`.
        case failed
    }

    /// A purchase or a cancel.
    public struct Checkout: Sendable {
        /// The offer.
        public var sku: String
        /// What the player does.
        public var player: PlayerAction
        /// The customer the session is created for; the SDK's customer when nil.
        public var orderCustomerId: String?
        /// The environment the session is created in; the SDK's when nil.
        public var sessionEnvironment: String?
        /// The purchase id the app passes to `openCheckout`; the session's when nil.
        public var purchaseId: String?
        /// The parsed URL the app passes to `openCheckout`; the session's when nil.
        public var parsedUrl: String?
    }

    /// The step's kind, as the file names it.
    public var kind: StepKind
    /// The player's country from this step on, when the step changes it.
    public var country: String?

    /// `3` or `3.2` (step 3, attempt 2), as reports name the step.
    public var label: String {
        attempt.map { "\(number).\($0)" } ?? String(number)
    }
}

/// What a step must produce: its result callback and, optionally, values in it.
public struct StepExpectation: Sendable {
    /// The result callback.
    public var callback: CallbackName?
    /// The status code of a failure.
    public var code: Int?
    /// Values the callback's arguments must hold, keyed by argument (`error`, `order`,
    /// `pricePoints`), as JSON in the output's wire shape; a null `order` expects none.
    public var arguments: [(name: String, value: JSONValue)]
    /// How many result callbacks the step delivers (2 with a duplicate delivery).
    public var deliveries: Int?
    /// The state of the order the step acted on, after it: `payment_refunded`.
    public var state: OrderState?
    /// The V2 names of the events the step sent, in order: `["order.refunded"]`.
    public var events: [String]?
    /// What the scenario's player holds in the game's ledger after the step, by product SKU,
    /// counted from what they held when the scenario began (`run --ledger-url`).
    public var ledger: [String: Int]?
    /// The status a Link Out checkout's browser goes back with: `success`, `fail` or `cancel`.
    package var redirect: String?
    /// Where each check stands in the file, by its key (`callback`, `order`, ...); `expect`
    /// for the expectation as a whole.
    public var positions: [String: TextPosition] = [:]
    /// The byte offsets of the same, until the loader turns them into positions.
    var offsets: [String: Int] = [:]

    /// How many separate checks the expectation makes.
    public var checkCount: Int {
        (callback == nil ? 0 : 1) + (code == nil ? 0 : 1) + arguments.count + (deliveries == nil ? 0 : 1)
            + (state == nil ? 0 : 1) + (events == nil ? 0 : 1) + (ledger == nil ? 0 : 1) + (redirect == nil ? 0 : 1)
    }
}

extension Scenario {
    /// A scenario paylinks makes itself rather than reads from a file: `steps` from
    /// `configuration`, under `name`.
    package init(name: String, file: String, configuration: Configuration = .defaults, steps: [ScenarioStep] = []) {
        self.name = name
        self.file = file
        self.configuration = configuration
        self.steps = steps
    }
}

extension ScenarioStep {
    /// A step paylinks makes itself: number `number`, of `kind`, taking `action`, with no
    /// fault and no expectation.
    package init(number: Int, kind: StepKind, action: Action) {
        self.number = number
        self.kind = kind
        self.action = action
    }
}

extension ScenarioStep.Checkout {
    /// A checkout of `sku` in which the player does `player`, for the SDK's customer and
    /// environment, with the session's purchase id and URL.
    package init(sku: String, player: PlayerAction) {
        self.sku = sku
        self.player = player
    }
}

extension StepExpectation {
    /// An expectation that checks what the ledger shows, and nothing else until more is set.
    public init(ledger: [String: Int]) {
        self.init(callback: nil, code: nil, arguments: [], deliveries: nil)
        self.ledger = ledger
    }
}

extension ScenarioStep {
    /// The lifecycle step the request belongs to.
    public var failureStep: Step {
        switch action {
        case .initialize: .initialize
        case .pricePoints: .pricePoints
        case .checkout, .refund, .dispute, .resolve, .advance, .retryAward: .purchase
        }
    }

    /// Whether the step asks the SDK for something; a refund, a dispute, a resolution and
    /// the clock's moving on happen on Appcharge's side alone, and no fault is drawn for them.
    public var callsTheSDK: Bool {
        switch action {
        case .initialize, .pricePoints, .checkout: true
        case .refund, .dispute, .resolve, .advance, .retryAward: false
        }
    }
}

/// The kinds of step a scenario takes, as its files name them.
public enum StepKind: String, CaseIterable, Sendable, CustomStringConvertible {
    /// `initialize`.
    case initialize
    /// `price-points`.
    case pricePoints = "price-points"
    /// `purchase`: the player opens a checkout and pays.
    case purchase
    /// `cancel`: the player opens a checkout and leaves it.
    case cancel
    /// `refund`: the scenario's last paid order is refunded.
    case refund
    /// `dispute`: the player disputes the last paid order's charge.
    case dispute
    /// `resolve`: the scenario's last pending payment succeeds or fails, now or later.
    case resolve
    /// `advance`: the scenario's clock moves on, and what falls due happens.
    case advance
    /// `retry-award`: Retry Award on the scenario's last paid order, whose award failed.
    case retryAward = "retry-award"

    /// The name, as the file has it: `price-points`.
    public var description: String { rawValue }
}
