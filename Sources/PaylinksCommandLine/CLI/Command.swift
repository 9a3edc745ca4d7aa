package import PaylinksAppcharge
package import PaylinksFixtures
package import PaylinksHTTP
package import PaylinksKit
import PaylinksSandbox

/// The subcommands.
package enum Command: String, CaseIterable, Sendable {
    /// `paylinks init`: initialize.
    case initialize = "init"
    /// `paylinks price-points`: initialize, then fetch price points.
    case pricePoints = "price-points"
    /// `paylinks purchase`: initialize, open checkout, the player pays.
    case purchase
    /// `paylinks cancel`: initialize, open checkout, the player closes it.
    case cancel
    /// `paylinks errors`: list or explain the status codes.
    case errors
    /// `paylinks offers`: list the offers.
    case offers
    /// `paylinks countries`: list the countries with their own prices.
    case countries
    /// `paylinks run`: run scenario files.
    case run
    /// `paylinks check-award`: audit the game's award endpoint.
    case checkAward = "check-award"
    /// `paylinks check-events`: audit the game's events handler.
    case checkEvents = "check-events"
    /// `paylinks check-books`: play a history of orders against the game and reconcile its
    /// ledger with Appcharge's books.
    case checkBooks = "check-books"
    /// `paylinks check-links`: check the files that send Link Out's return to the game.
    case checkLinks = "check-links"
    /// `paylinks serve`: a local sandbox of Appcharge's session API and checkout page.
    case serve
    /// `paylinks health`: whether a sandbox answers at a URL.
    case health
    /// `paylinks trigger`: play the story of an order event and send its events.
    case trigger
    /// `paylinks completions`: print a shell completion script.
    case completions
    /// `paylinks man`: print the manual page.
    case man

    /// The subcommands that run a simulated flow and print its callbacks.
    package static let flows: [Command] = [.initialize, .pricePoints, .purchase, .cancel]

    /// The subcommands that open a checkout for an offer.
    package static let checkouts: [Command] = [.purchase, .cancel]

    /// The subcommands that simulate the SDK and print its callbacks: the flows and `trigger`.
    package static let simulations: [Command] = flows + [.trigger]

    /// What the subcommand does, in one line.
    package var summary: String {
        switch self {
        case .initialize: "Initialize the SDK: onInitialized or onInitializeFailed."
        case .pricePoints: "Initialize, then fetch the price points for the player's country."
        case .purchase: "Initialize, open checkout for an offer; the player pays."
        case .cancel: "Initialize, open checkout for an offer; the player closes it (3002)."
        case .errors: "List the status codes, or explain one: paylinks errors 3002."
        case .offers: "List the offers, with their items and price for --country."
        case .countries: "List the countries with their own prices: currency and an example price."
        case .run: "Run scenario files: whole sessions, scripted and checked."
        case .checkAward: "Audit the game's award endpoint: signatures, replays, retries, races, payloads."
        case .checkEvents:
            "Audit the game's events handler: signatures, tolerance, and revoking once after a refund or dispute."
        case .checkBooks:
            "Play a seeded history of orders against the game's endpoints; reconcile its ledger with Appcharge's books."
        case .checkLinks:
            "Check the apple-app-site-association and assetlinks.json that send Link Out's return into the game."
        case .serve: "Run a local Appcharge sandbox: the session API, a checkout page, a control API for CI."
        case .health: "Check that a sandbox answers at URL, in one line: for a container's HEALTHCHECK."
        case .trigger:
            "Play the story that leads to an order event and send its signed events: paylinks trigger order.refunded."
        case .completions: "Print the completion script for bash, zsh or fish."
        case .man: "Print the manual page (roff), as installed by make install."
        }
    }

    /// How the subcommand is called, as the help and the manual page show it:
    /// `paylinks purchase --sku SKU [options]`.
    package var usage: String {
        switch self {
        case .purchase, .cancel: "paylinks \(rawValue) --sku SKU [options]"
        case .errors: "paylinks errors [CODE|NAME] [options]"
        case .run: "paylinks run FILE... [options]"
        case .checkAward: "paylinks check-award URL [options]"
        case .serve: "paylinks serve [options] [-- CMD [ARG...]]"
        case .health: "paylinks health URL [options]"
        case .checkEvents: "paylinks check-events URL [--award-url URL --ledger-url URL] [options]"
        case .checkBooks: "paylinks check-books --award-url URL --events-url URL --ledger-url URL [options]"
        case .checkLinks: "paylinks check-links FILE|URL... [--redirect-url URL] [options]"
        case .trigger: "paylinks trigger EVENT [options]"
        case .completions: "paylinks completions bash|zsh|fish"
        case .man: "paylinks man"
        case .initialize, .pricePoints, .offers, .countries: "paylinks \(rawValue) [options]"
        }
    }

    /// The steps of the SDK's lifecycle the subcommand goes through, in order.
    package var steps: [Step] {
        switch self {
        case .initialize: [.initialize]
        case .pricePoints: [.initialize, .pricePoints]
        case .purchase, .cancel, .trigger: [.initialize, .purchase]
        case .errors, .offers, .countries, .run, .checkAward, .checkEvents, .checkBooks, .checkLinks, .serve, .health,
            .completions, .man:
            []
        }
    }

    /// The arguments the subcommand takes besides options: their placeholder and how many.
    package var operands: (placeholder: String, count: ClosedRange<Int>)? {
        switch self {
        case .errors: ("CODE|NAME", 0...1)
        case .run: ("FILE", 1...Int.max)
        case .checkLinks: ("FILE|URL", 1...Int.max)
        case .checkAward, .checkEvents, .health: ("URL", 1...1)
        case .trigger: ("EVENT", 1...1)
        case .completions: ("SHELL", 1...1)
        case .initialize, .pricePoints, .purchase, .cancel, .offers, .countries, .checkBooks, .serve, .man: nil
        }
    }
}

/// The settings of a run, with their defaults; each is set by the option named beside it.
package struct RunOptions: Equatable, Sendable {
    /// `--sku`: the offer to check out (purchase and cancel).
    package var sku: String?
    /// `--customer-id`: the player's customer id.
    package var customerId = Scenario.Configuration.defaults.customerId
    /// `--country`: the player's country, ISO 3166-1 alpha-2, upper case.
    package var country = Scenario.Configuration.defaults.country
    /// `--jobs N`: how many processes run the scenarios; the number of processors when nil.
    package var jobs: Int?
    /// The options as given, `--name=value`, but those a copy of `run --jobs` gets decided
    /// for it (`--seed`, `--now`, `--color`, `--jobs`) or leaves to the run (`--report`).
    package var passedOn: [String] = []
    /// `--report FORMAT=FILE`: the reports to write, in the order given.
    package var reports: [ReportRequest] = []
    /// `--matrix KEY=V1,V2`: what every scenario runs across, each combination once.
    package var matrix: [MatrixAxis] = []
    /// `--filter`: a glob the names of the scenarios to run match.
    package var filter: String?
    /// `--fail-fast`: stop after the first scenario with a failed expectation.
    package var failFast = false
    /// `--platform`: the platform the game is built for; iOS when nil.
    package var platform: Platform?
    /// `--sdk-version`: the SDK version the game ships; the platform's default when nil.
    package var sdkVersion: String?
    /// What `--platform` and `--sdk-version` say together, checked once both are read.
    package var target = SDKTarget.standard
    /// `--environment`: the SDK environment.
    package var environment = Scenario.Configuration.defaults.environment
    /// `--checkout-public-key`: the publisher's checkout public key.
    package var checkoutPublicKey = Scenario.Configuration.defaults.checkoutPublicKey
    /// `--redirect-url`: the universal link for the external-browser mode, Link Out's return
    /// URL, or for check-links the return URL an AASA must open the app for.
    package var redirectUrl: String?
    /// `--browser-mode`: where the checkout opens; the platform's default, unnamed, when nil.
    package var browserMode: BrowserMode?
    /// `--lose-session`: the external browser loses the checkout session (purchase).
    package var losesSession = false
    /// `--flow`: through the SDK, or by Link Out without it (purchase and cancel).
    package var flow = PaymentFlow.sdk
    /// `check-links --kind`: what every file given is; by its name or shape when nil.
    package var linkKind: LinkFileKind?
    /// `--payment-method`: how the player pays.
    package var paymentMethod = Scenario.Configuration.defaults.paymentMethod
    /// `--order-customer-id`: the customer the game's server creates the session for.
    package var orderCustomerId: String?
    /// `--session-environment`: the environment the game's server creates the session in.
    package var sessionEnvironment: String?
    /// `--outcome`: how the charge ends (purchase).
    package var outcome: ChargeOutcome?
    /// `--via`: how the player closes the checkout (cancel).
    package var closeMethod: CloseMethod?
    /// `--before-order`: the player closes the checkout before the order exists (cancel).
    package var beforeOrder = false
    /// `--count`: how many independent checkouts to run (purchase and cancel).
    package var count = 1
    /// `--index`: the index of the first checkout, which fixes its identifiers.
    package var index = 0
    /// `--error`: a status code, or its name, to deliver.
    package var error: String?
    /// `--fail-at`: the step `--error` fails.
    package var failAt: Step?
    /// `--trace`: print the simulated timeline to standard error.
    package var trace = false
    /// `--color`: when text output is coloured.
    package var color = ColorChoice.auto
    /// `--fixtures`: a directory whose fixture files replace the built-in ones.
    package var fixtures: String?
    /// `--seed`: seeds the session token, purchase id and order id; random when nil.
    package var seed: UInt64?
    /// `--now`: the clock in Unix seconds; the real clock when nil.
    package var now: Int?
    /// `--format` / `--json`: the output format.
    package var format = OutputFormat.text
    /// `--fault-rate`: the probability that a scenario step fails with a fitting code.
    package var faultRate: Double?
    /// `--award-url`: the game server's endpoint for Grant Award Callbacks.
    package var awardUrl: HTTPURL?
    /// `--host`: the address `serve` listens on.
    package var host = "127.0.0.1"
    /// `--port`: the port `serve` listens on; 0 picks a free one.
    package var port = 4010
    /// `--public-url`: the base URL of the URLs `serve` hands out; the request's `Host` when nil.
    package var publicUrl: String?
    /// `--allowed-host`: the names besides `localhost` and the `--public-url` host that
    /// `serve` answers to.
    package var allowedHosts: [String] = []
    /// `--device`: the device the player checks out on, for the V2 events; from the seed when nil.
    package var device: OrderDevice?
    /// `serve --block-player`: the players whose sessions Create Checkout Session answers 403.
    package var blockedPlayers: [String] = []
    /// `serve --port-file`: where the base URL is written once the sandbox listens.
    package var portFile: String?
    /// `--language`: the language of the game's iOS delegate.
    package var language = DelegateLanguage.swift
    /// `--main-key-file`: the file holding the studio's main key.
    package var mainKeyFile: String?
    /// `--publisher-token`: the `x-publisher-token` of award callbacks.
    package var publisherToken: String?
    /// `--case`: the cases of check-award or check-events to run, as given; every case when empty.
    package var auditCases: [String] = []
    /// `--concurrency`: how many connections a bulk purchase sends its awards over.
    package var concurrency = 1
    /// `--award-wait`: whether the pauses between award retries really pass.
    package var awardWait = AwardWait.virtual
    /// `trigger EVENT` (with `--result`): the event the story leads to.
    package var triggerEvent: OrderEvent.Name?
    /// `--result`: the result of the event `trigger` leads to.
    package var result: String?
    /// `--amount`: the minor units a refund gives back; all of the order when nil.
    package var refundAmount: Int?
    /// `--fault`: what goes wrong on the way of the event `trigger` leads to.
    package var eventFault: DeliveryFault?
    /// `--events-url`: the game server's endpoint for order events.
    package var eventsUrl: HTTPURL?
    /// `--data DIR`: where `serve` keeps its sessions across restarts; in memory when nil.
    package var dataDirectory: String?
    /// `serve --import FILE`: a journal or an export the sandbox starts from.
    package var importFile: String?
    /// `serve --clock`: the wall's time, or a virtual clock the control API moves.
    package var clockMode = ClockMode.wall
    /// `--session-budget MIB`: how much of what sessions' requests sent `serve` keeps, in MiB.
    package var sessionBudget = Sandbox.Settings.defaultSessionByteBudget >> 20
    /// `--rate-limit N/min`: requests a minute each publisher token may make of serve's
    /// Appcharge APIs; nil for no limit.
    package var rateLimit: Int?
    /// `--ledger-url`: the game's ledger, which check-events, check-books and run read the
    /// players' balances from.
    package var ledgerUrl: HTTPURL?
    /// `check-books --orders N`: how many orders the history holds.
    package var orders = 1000
    /// `check-books --players N`: how many players the orders are drawn among.
    package var players = 50
    /// `check-books --faults LIST`: the faults the history's steps may carry; all of them
    /// unless given, a default made only when read, as the sets of faults take building.
    var booksFaults: BooksFaults {
        get { givenBooksFaults ?? .all }
        set { givenBooksFaults = newValue == .all ? nil : newValue }
    }
    /// `--faults` as given, unless it names all of them.
    private var givenBooksFaults: BooksFaults?
    /// `check-books --partial-refund`: what the game does with a partial refund's products.
    package var partialRefund = PlayerBooks.PartialRefundRule.keep
    /// `check-books --write-scenario FILE`: where the shrunk history of a finding is written.
    package var writeScenario: String?
    /// `--ledger-wait`: how many seconds check-events watches the ledger after an answer.
    package var ledgerWait = 5
    /// `--events-version`: the envelope events are sent in.
    package var eventsVersion = OrderEvent.Version.v2
    /// `--fee-rate` and `--exchange-cost-rate`: what Appcharge takes of each order, which
    /// the awards', events' and reports' money is figured with.
    package var rates = OrderMoney.Rates.standard
    /// `--events-key-file`: the file holding the key events are signed with; the main key when nil.
    package var eventsKeyFile: String?
    /// `--project-id`: the `x-project-id` events carry.
    package var projectId = DemoCredentials.projectId
    /// `--events-wait`: whether the pauses between event retries really pass.
    package var eventsWait = AwardWait.virtual
    /// `serve -- CMD [ARG...]`: the command run once the sandbox listens, whose end stops it.
    package var command: [String] = []
    /// `health --timeout`: how many seconds the check waits for the sandbox.
    package var healthTimeout = 5
    /// The arguments besides options: the code `errors` explains, the files `run` runs.
    package var operands: [String] = []

    /// The defaults.
    package init() {}
}

/// What a command line asks for.
package enum Invocation: Equatable, Sendable {
    /// Show help: for one subcommand, or the overview when nil.
    case help(Command?)
    /// Show the version.
    case version
    /// Run a subcommand.
    case run(Command, RunOptions)
}

/// How the pauses between award retries pass.
package enum AwardWait: String, CaseIterable, Sendable {
    /// At once, as all of paylinks' time.
    case virtual
    /// For real: 10 s, then 10 s more.
    case real
}

/// How the sandbox's clock moves: `serve --clock`.
package enum ClockMode: String, CaseIterable, Sendable {
    /// With the wall's time.
    case wall
    /// Only when the control API moves it.
    case virtual
}

/// When text output is coloured.
package enum ColorChoice: String, CaseIterable, Sendable {
    /// On a terminal, unless `NO_COLOR` is set or `TERM` is `dumb`.
    case auto
    /// Always, even into a pipe or a file.
    case always
    /// Never.
    case never
}

/// One `--report FORMAT=FILE`.
package struct ReportRequest: Equatable, Sendable {
    /// The format.
    package var format: RunReport.Format
    /// Where to write it.
    package var path: String
}

extension Command {
    /// The command a word names, found by comparing it with each name in turn: the
    /// synthesized `init(rawValue:)` builds a table of every name the first time it runs,
    /// which the command line's one look-up would pay at every start.
    static func named(_ word: String) -> Command? {
        allCases.first { $0.rawValue == word }
    }
}
