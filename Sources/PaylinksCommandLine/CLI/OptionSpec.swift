import PaylinksAppcharge
import PaylinksFixtures
import PaylinksHTTP
import PaylinksKit
import PaylinksSandbox

/// One command-line option: its spelling, its help, the subcommands that take it, and
/// how its value lands in ``RunOptions``.
///
/// The parser and the help both read ``OptionSpec/all``, so what the help shows is
/// exactly what the parser accepts.
package struct OptionSpec: Sendable {
    /// The option as typed: `--sku`.
    package let name: String
    /// The value's placeholder in help (`SKU`); nil for a flag that takes no value.
    package let placeholder: String?
    /// What the option does, in one line.
    package var summary: String { summaryText() }
    /// The default or accepted values, as help shows them.
    package var defaultText: String? { defaultTextWords() }
    /// The help's words, put together only when help, the manual or the completions ask:
    /// a command line's options are looked up in this table at every start.
    private let summaryText: @Sendable () -> String
    private let defaultTextWords: @Sendable () -> String?
    /// The subcommands that accept it.
    package var commands: [Command] { commandList() }
    /// The list of those subcommands, made only when asked for: a start looks at the
    /// commands of the options it is given alone.
    private let commandList: @Sendable () -> [Command]
    /// Options that set the same thing, of which a command line gives one at most.
    package enum Group: String, Sendable {
        /// `--format` and its shorthand `--json`.
        case format
    }

    /// What an option is to the parser's rules beyond its own value.
    package struct Traits: OptionSet, Sendable {
        package let rawValue: Int
        package init(rawValue: Int) { self.rawValue = rawValue }

        /// Decides how a flow ends, as `--error` does: the two cannot go together.
        package static let endsFlow = Traits(rawValue: 1 << 0)
        /// Signs or sends awards: meaningful only with `--award-url`.
        package static let awardSending = Traits(rawValue: 1 << 1)
        /// Signs or shapes events: meaningful only with `--events-url`, or for `trigger`.
        package static let eventsSending = Traits(rawValue: 1 << 3)
        /// Belongs to the run that starts `run --jobs` copies, which do not get it: the
        /// seed and clock they are given instead, the jobs, the reports, the colour.
        package static let stopsAtCopies = Traits(rawValue: 1 << 2)
    }

    /// Options that set the same thing share a group; giving a group twice is an error.
    /// An option of no group is a group of its own.
    package let group: String
    /// What the parser's rules make of the option.
    package let traits: Traits
    /// Whether the option may be given more than once, each adding a value.
    package let repeatable: Bool
    fileprivate let apply: @Sendable (inout RunOptions, String) throws(UsageProblem) -> Void

    fileprivate init(
        _ name: String, _ placeholder: String?, _ summary: @autoclosure @escaping @Sendable () -> String,
        default defaultText: @autoclosure @escaping @Sendable () -> String? = nil,
        commands: @autoclosure @escaping @Sendable () -> [Command] = Command.allCases, group: Group? = nil,
        traits: Traits = [], repeatable: Bool = false,
        apply: @escaping @Sendable (inout RunOptions, String) throws(UsageProblem) -> Void
    ) {
        self.traits = traits
        self.repeatable = repeatable
        self.name = name
        self.placeholder = placeholder
        self.summaryText = summary
        self.defaultTextWords = defaultText
        self.commandList = commands
        self.group = group?.rawValue ?? name
        self.apply = apply
    }

    /// Sets the option's value in `options`.
    func apply(_ value: String, to options: inout RunOptions) throws(UsageProblem) {
        try apply(&options, value)
    }

    /// The names of the options with `trait`, in the order help lists them.
    package static func named(_ trait: Traits) -> [String] {
        all.filter { $0.traits.contains(trait) }.map(\.name)
    }

    /// The name of the first option with `trait`, in the order help lists them, that
    /// `test` accepts: what `named(trait).first(where: test)` finds, without the list.
    static func firstNamed(_ trait: Traits, where test: (String) -> Bool) -> String? {
        for spec in all where spec.traits.contains(trait) && test(spec.name) { return spec.name }
        return nil
    }

    /// Every option, in the order help lists them.
    package static let all: [OptionSpec] = [
        OptionSpec(
            "--sku", "SKU",
            "The offer to check out (purchase and cancel need it; trigger takes the first offer), such as "
                + "starter_pack_001; see 'paylinks offers'.",
            commands: Command.checkouts + [.trigger]
        ) { options, value throws(UsageProblem) in
            options.sku = try text(value, option: "--sku", allowEmpty: false)
        },
        OptionSpec(
            "--customer-id", "ID", "The player's customer id; empty fails with 2003.", default: defaults.customerId,
            commands: Command.simulations
        ) { options, value throws(UsageProblem) in
            options.customerId = try text(value, option: "--customer-id", allowEmpty: true)
        },
        OptionSpec(
            "--country", "CODE",
            "The player's country (ISO 3166-1 alpha-2); picks the price, currency and price points.",
            default: defaults.country,
            commands: Command.simulations + [.offers]
        ) { options, value throws(UsageProblem) in
            options.country = try country(value)
        },
        OptionSpec(
            "--environment", "ENV", "The SDK environment; anything else fails with 2001.",
            default: "\(defaults.environment); give production to initialize as a live game does",
            commands: Command.simulations
        ) { options, value throws(UsageProblem) in
            options.environment = try text(value, option: "--environment", allowEmpty: true)
        },
        OptionSpec(
            "--filter", "PATTERN",
            "Run only the scenarios whose names match this glob (* any text, ? one character, [abc] one of them).",
            commands: [.run]
        ) { options, value throws(UsageProblem) in
            options.filter = try text(value, option: "--filter", allowEmpty: false)
        },
        OptionSpec(
            "--report", "FORMAT=FILE",
            "Write the run's results to FILE as junit (JUnit XML, for a CI's test tab) or json; repeatable.",
            commands: [.run], traits: .stopsAtCopies, repeatable: true
        ) { options, value throws(UsageProblem) in
            let parts = value.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let formats = RunReport.Format.allCases.map(\.rawValue)
            guard parts.count == 2, let format = RunReport.Format.named(String(parts[0])), !parts[1].isEmpty else {
                throw UsageProblem(
                    "--report takes FORMAT=FILE with a format of \(formats.joined(separator: ", ")), "
                        + "not '\(MessageText.sanitized(value))'; as in '--report junit=report.xml'",
                    suggestion: parts.count == 2 ? Suggestion.closest(to: String(parts[0]), among: formats) : nil)
            }
            let path = String(parts[1])
            guard !options.reports.contains(where: { $0.path == path }) else {
                throw UsageProblem(
                    "--report names '\(MessageText.sanitized(path))' twice; give each report its own file")
            }
            options.reports.append(ReportRequest(format: format, path: path))
        },
        OptionSpec(
            "--matrix", "KEY=V1,V2",
            "Run every scenario once per combination of values, named as in retries[country=DE]; keys: "
                // Not `joined(separator:)`: its first call looks up generic metadata by name, a
                // cost every start would pay for this one line of help.
                + MatrixKey.allCases.reduce(into: "") { list, key in list += (list.isEmpty ? "" : ", ") + key.rawValue }
                + "; repeatable.",
            commands: [.run], repeatable: true
        ) { options, value throws(UsageProblem) in
            options.matrix.append(try matrixAxis(value, given: options.matrix))
        },
        OptionSpec(
            "--jobs", "N", "Run the scenarios on N processes at once; the output is the same as on one.",
            default: "the number of processors", commands: [.run], traits: .stopsAtCopies
        ) { options, value throws(UsageProblem) in
            options.jobs = try number(value, option: "--jobs", as: Int.self, in: 1...256)
        },
        OptionSpec("--fail-fast", nil, "Stop after the first scenario with a failed expectation.", commands: [.run]) {
            options, _ in
            options.failFast = true
        },
        OptionSpec(
            "--platform", "PLATFORM",
            "The platform the game is built for: its callback names, payloads and wire format.",
            default: "\(Platform.ios.rawValue); give android or unity for a game built for them",
            commands: platformCommands
        ) { options, value throws(UsageProblem) in
            options.platform = try choice(value, option: "--platform", among: Platform.self)
        },
        OptionSpec(
            "--sdk-version", "VERSION",
            "The SDK version the game ships, such as 1.9 or 2.0.0; its generation (G1, G2, G3) decides "
                + "the callbacks and status codes.",
            default: "the newest G2 version: iOS 1.9, Android 1.7, Unity 2.6", commands: platformCommands
        ) { options, value throws(UsageProblem) in
            options.sdkVersion = try text(value, option: "--sdk-version", allowEmpty: false)
        },
        OptionSpec(
            "--checkout-public-key", "KEY",
            "The publisher's checkout public key; empty fails with 2002; serve's legacy link must carry it as cot.",
            default: defaults.checkoutPublicKey, commands: Command.simulations + [.serve]
        ) { options, value throws(UsageProblem) in
            options.checkoutPublicKey = try text(value, option: "--checkout-public-key", allowEmpty: true)
        },
        OptionSpec(
            "--redirect-url", "URL",
            "The universal link for the external browser; not an https URL fails with 2004. With --flow link-out: "
                + "the game's return URL, an app link allowed. check-links: the return URL the AASA must open the app "
                + "for (https).",
            default: "none", commands: Command.simulations + [.checkLinks]
        ) { options, value throws(UsageProblem) in
            options.redirectUrl = try text(value, option: "--redirect-url", allowEmpty: true)
        },
        OptionSpec(
            "--browser-mode", "MODE",
            "Where the checkout opens: iOS and Unity internal or external (Safari; needs --redirect-url); Android "
                + "custom-tab, trusted-web-activity or external.",
            default: "internal on iOS and Unity, custom-tab on Android", commands: Command.checkouts + [.trigger]
        ) { options, value throws(UsageProblem) in
            options.browserMode = try choice(value, option: "--browser-mode", among: BrowserMode.self)
        },
        OptionSpec(
            "--lose-session", nil,
            "The external browser loses the checkout session: the purchase ends in 3000 BROWSER_CLOSED.",
            commands: [.purchase], traits: .endsFlow
        ) { options, _ in
            options.losesSession = true
        },
        OptionSpec(
            "--flow", "FLOW",
            "sdk: the SDK opens the checkout and calls the delegate; link-out: no SDK, the browser goes back to "
                + "--redirect-url?status=success|fail|cancel.",
            default: PaymentFlow.sdk.rawValue, commands: Command.checkouts
        ) { options, value throws(UsageProblem) in
            options.flow = try choice(value, option: "--flow", among: PaymentFlow.self)
        },
        OptionSpec(
            "--payment-method", "NAME", "How the player pays: the order's paymentMethodName.",
            default: defaults.paymentMethod,
            commands: Command.checkouts + [.trigger]
        ) { options, value throws(UsageProblem) in
            options.paymentMethod = try text(value, option: "--payment-method", allowEmpty: false)
        },
        OptionSpec(
            "--outcome", "OUTCOME",
            "How the charge ends: succeeded; declined (3003); pending past the 90 s validation timeout (3004).",
            default: ChargeOutcome.succeeded.rawValue, commands: [.purchase], traits: .endsFlow
        ) { options, value throws(UsageProblem) in
            options.outcome = try choice(value, option: "--outcome", among: ChargeOutcome.self)
        },
        OptionSpec(
            "--via", "HOW",
            "How the player closes the checkout: checkout (3002) or browser, with the OS controls (3000).",
            default: CloseMethod.checkoutInterface.rawValue, commands: [.cancel], traits: .endsFlow
        ) { options, value throws(UsageProblem) in
            options.closeMethod = try choice(value, option: "--via", among: CloseMethod.self)
        },
        OptionSpec(
            "--before-order", nil, "The player closes the checkout before the order exists (3005).",
            commands: [.cancel], traits: .endsFlow
        ) { options, _ in
            options.beforeOrder = true
        },
        OptionSpec(
            "--order-customer-id", "ID",
            "The customer the game's server creates the session for; another than --customer-id fails with 3007.",
            default: "--customer-id", commands: Command.checkouts + [.trigger]
        ) { options, value throws(UsageProblem) in
            options.orderCustomerId = try text(value, option: "--order-customer-id", allowEmpty: false)
        },
        OptionSpec(
            "--session-environment", "ENV",
            "The environment the session is created in; another than --environment fails with 3006.",
            default: "--environment", commands: Command.checkouts + [.trigger]
        ) { options, value throws(UsageProblem) in
            options.sessionEnvironment = try text(value, option: "--session-environment", allowEmpty: false)
        },
        OptionSpec(
            "--award-url", "URL",
            "Send each paid order's Grant Award Callback to this http:// endpoint of the game's server; "
                + "its answer decides the purchase.",
            commands: [.purchase, .trigger, .run, .serve]
        ) { options, value throws(UsageProblem) in
            options.awardUrl = try endpoint(value, option: "--award-url")
        },
        OptionSpec(
            "--award-url", "URL",
            "The game's award endpoint: the audit grants an order there before it refunds or disputes it.",
            default: "none (the money cases are not checked)", commands: [.checkEvents]
        ) { options, value throws(UsageProblem) in
            options.awardUrl = try endpoint(value, option: "--award-url")
        },
        OptionSpec(
            "--ledger-url", "URL",
            "The game's read-only ledger: GET URL?playerId=ID answers 200 {\"balances\": {\"SKU\": n, ...}}, what "
                + "the player holds now.",
            default: "none (the money cases are not checked)", commands: [.checkEvents]
        ) { options, value throws(UsageProblem) in
            options.ledgerUrl = try endpoint(value, option: "--ledger-url")
        },
        OptionSpec(
            "--award-url", "URL",
            "The game's award endpoint: each paid order's Grant Award Callback goes there, retried as Appcharge "
                + "retries it.",
            commands: [.checkBooks]
        ) { options, value throws(UsageProblem) in
            options.awardUrl = try endpoint(value, option: "--award-url")
        },
        OptionSpec(
            "--events-url", "URL", "The game's events endpoint: each order's events go there, signed and retried.",
            commands: [.checkBooks]
        ) { options, value throws(UsageProblem) in
            options.eventsUrl = try endpoint(value, option: "--events-url")
        },
        OptionSpec(
            "--ledger-url", "URL",
            "The game's read-only ledger, GET URL?playerId=ID answering 200 {\"balances\": {\"SKU\": n, ...}}: "
                + "check-books reconciles it with Appcharge's books after every step, run checks a step's "
                + "\"ledger\" expectation against it.",
            default: "none (run refuses a scenario that expects the ledger)", commands: [.run, .checkBooks]
        ) { options, value throws(UsageProblem) in
            options.ledgerUrl = try endpoint(value, option: "--ledger-url")
        },
        OptionSpec(
            "--ledger-url", "URL",
            "The game's read-only ledger, GET URL?playerId=ID answering 200 {\"balances\": {\"SKU\": n, ...}}: "
                + "each player's page shows what it holds beside what Appcharge's books say they should hold.",
            default: "none (the player pages show the books alone)", commands: [.serve]
        ) { options, value throws(UsageProblem) in
            options.ledgerUrl = try endpoint(value, option: "--ledger-url")
        },
        OptionSpec(
            "--orders", "N", "How many orders the history holds, 1 to 100,000: purchases, declines and cancels.",
            default: String(RunOptions().orders), commands: [.checkBooks]
        ) { options, value throws(UsageProblem) in
            options.orders = try number(value, option: "--orders", as: Int.self, in: 1...100_000)
        },
        OptionSpec(
            "--players", "N", "How many players the orders are drawn among, 1 to 100,000.",
            default: String(RunOptions().players), commands: [.checkBooks]
        ) { options, value throws(UsageProblem) in
            options.players = try number(value, option: "--players", as: Int.self, in: 1...100_000)
        },
        OptionSpec(
            "--faults", "LIST",
            "The faults the history's steps may carry, comma-separated: duplicate, reorder, drop-first, delay (on "
                + "events), award-drop-first, award-drop, award-answer-lost-first, award-answer-lost, award-late; all, "
                + "or none.",
            default: "all", commands: [.checkBooks]
        ) { options, value throws(UsageProblem) in
            options.booksFaults = try BooksFaults.parse(value)
        },
        OptionSpec(
            "--partial-refund", "RULE",
            "What the game does with the products of an order refunded in part: keep them with the player, or revoke "
                + "them as for a full refund.",
            default: "keep", commands: [.checkBooks, .serve]
        ) { options, value throws(UsageProblem) in
            options.partialRefund = try choice(
                value, option: "--partial-refund", among: PlayerBooks.PartialRefundRule.self)
        },
        OptionSpec(
            "--write-scenario", "FILE",
            "Write the shrunk history of the first finding to FILE, a scenario that paylinks run FILE --award-url ... "
                + "--events-url ... --ledger-url ... replays; the next findings' beside it (FILE.2.json).",
            default: "none (the shrunk steps are shown only)", commands: [.checkBooks]
        ) { options, value throws(UsageProblem) in
            options.writeScenario = try text(value, option: "--write-scenario", allowEmpty: false)
        },
        OptionSpec(
            "--ledger-wait", "SECONDS",
            "How long the ledger is watched after an answer for what it should show (check-events' money cases, "
                + "check-books' and run's readings), in whole seconds, 0 to 60, as a handler may settle from a queue; "
                + "0 reads it once.",
            default: String(RunOptions().ledgerWait), commands: [.checkEvents, .checkBooks, .run]
        ) { options, value throws(UsageProblem) in
            do {
                options.ledgerWait = try number(value, option: "--ledger-wait", as: Int.self, in: 0...60)
            } catch {
                throw UsageProblem("--ledger-wait takes whole seconds, 0 to 60, not '\(MessageText.sanitized(value))'")
            }
        },
        OptionSpec(
            "--main-key-file", "FILE", "A file holding the studio's main key, which signs award callbacks.",
            default: "$PAYLINKS_MAIN_KEY, else the demo key",
            commands: [.purchase, .trigger, .run, .checkAward, .checkEvents, .checkBooks, .serve],
            traits: .awardSending
        ) { options, value throws(UsageProblem) in
            options.mainKeyFile = try text(value, option: "--main-key-file", allowEmpty: false)
        },
        OptionSpec(
            "--publisher-token", "TOKEN",
            "The x-publisher-token award callbacks carry, and the one serve asks of the game's server.",
            default: "$PAYLINKS_PUBLISHER_TOKEN, else the demo token",
            commands: [.purchase, .trigger, .run, .checkAward, .checkEvents, .checkBooks, .serve], traits: .awardSending
        ) { options, value throws(UsageProblem) in
            options.publisherToken = try text(value, option: "--publisher-token", allowEmpty: false)
        },
        OptionSpec(
            "--award-wait", "WAIT", "How the 10 s pauses between award retries pass: virtual (at once) or real.",
            default: "virtual, the retries follow at once; give real for a server that must see the 10 s pauses",
            commands: [.purchase, .trigger, .run, .serve], traits: .awardSending
        ) { options, value throws(UsageProblem) in
            options.awardWait = try choice(value, option: "--award-wait", among: AwardWait.self)
        },
        OptionSpec(
            "--events-url", "URL",
            "Send each order's events (order.created, order.completed, ...) to this http:// endpoint of the game's "
                + "server, signed as Appcharge signs them.",
            default: "none (trigger shows them, headers and body; purchase and cancel send none)",
            commands: eventCommands.filter { $0 != .serve }
        ) { options, value throws(UsageProblem) in
            options.eventsUrl = try endpoint(value, option: "--events-url")
        },
        OptionSpec(
            "--events-url", "URL",
            "Send each order's events to this http:// endpoint of the game's server as the sandbox's sessions move "
                + "(created, paid, granted, refunded, disputed, closed or expired), signed as Appcharge signs them.",
            default: "none (the sandbox sends no events)", commands: [.serve]
        ) { options, value throws(UsageProblem) in
            options.eventsUrl = try endpoint(value, option: "--events-url")
        },
        OptionSpec(
            "--events-version", "VERSION",
            "The events' envelope: v2 (eventName, eventId, timestamp in ms) or v1 (the older flat payload).",
            default: "v2; give v1 for a game server that reads the older payload",
            commands: eventCommands + [.checkEvents, .checkBooks], traits: .eventsSending
        ) { options, value throws(UsageProblem) in
            options.eventsVersion = try choice(value, option: "--events-version", among: OrderEvent.Version.self)
        },
        OptionSpec(
            "--fee-rate", "RATE",
            "Appcharge's fee, in percent of each order's price before tax in US dollars, as awards, events and "
                + "reports give it.",
            default: "15%", commands: eventCommands
        ) { options, value throws(UsageProblem) in
            options.rates.fee = try percent(value, option: "--fee-rate", example: "15%")
        },
        OptionSpec(
            "--exchange-cost-rate", "RATE",
            "The cost of converting an order not paid in US dollars, in percent of its dollar total.",
            default: "1.5%", commands: eventCommands
        ) { options, value throws(UsageProblem) in
            options.rates.exchangeCost = try percent(value, option: "--exchange-cost-rate", example: "1.5%")
        },
        OptionSpec(
            "--events-key-file", "FILE", "A file holding the separate key events are signed with.",
            default: "the main key", commands: eventCommands + [.checkEvents, .checkBooks], traits: .eventsSending
        ) { options, value throws(UsageProblem) in
            options.eventsKeyFile = try text(value, option: "--events-key-file", allowEmpty: false)
        },
        OptionSpec(
            "--project-id", "ID", "The x-project-id events carry.", default: DemoCredentials.projectId,
            commands: eventCommands + [.checkEvents, .checkBooks], traits: .eventsSending
        ) { options, value throws(UsageProblem) in
            options.projectId = try headerText(value, option: "--project-id")
        },
        OptionSpec(
            "--events-wait", "WAIT",
            "How the pauses between event retries (15 s, 15 s, 15 min; v1: 5 min) pass: virtual (at once) or real.",
            default: "virtual, the retries follow at once; give real for a server that must see the pauses",
            commands: eventCommands, traits: .eventsSending
        ) { options, value throws(UsageProblem) in
            options.eventsWait = try choice(value, option: "--events-wait", among: AwardWait.self)
        },
        OptionSpec(
            "--fault", "FAULT",
            "Put a fault on the event's way: duplicate (sent twice), reorder (it arrives before the event it follows), "
                + "drop-first (its first attempt lost), delay (sent 5 min late).",
            default: "none", commands: [.trigger]
        ) { options, value throws(UsageProblem) in
            options.eventFault = try choice(value, option: "--fault", among: DeliveryFault.self)
        },
        OptionSpec(
            "--result", "RESULT",
            "The event's result: success or failed (order.payment.resolved), won or lost (order.dispute.resolved).",
            default: "success (order.payment.resolved), lost (order.dispute.resolved)", commands: [.trigger]
        ) { options, value throws(UsageProblem) in
            options.result = try text(value, option: "--result", allowEmpty: false)
        },
        OptionSpec(
            "--amount", "N",
            "Refund N minor units of the order (a partial refund) instead of all of it (order.refunded).",
            default: "the order's price", commands: [.trigger]
        ) { options, value throws(UsageProblem) in
            options.refundAmount = try number(
                value, option: "--amount", as: Int.self, in: 1...SessionRequest.maximumAmount)
        },
        OptionSpec(
            "--device", "DEVICE",
            "The device the player checks out on, as the V2 events' device object says it: ios, android, web, or "
                + "KEY=VALUE,... of platform, deviceModel, osType, osVersion, browserType, browserVersion.",
            default: "the one the seed picks for each order", commands: Command.checkouts + [.trigger, .run]
        ) { options, value throws(UsageProblem) in
            let text = try text(value, option: "--device", allowEmpty: false)
            do throws(OrderDevice.Problem) {
                options.device = try OrderDevice.parse(text)
            } catch {
                throw UsageProblem(
                    "--device \(error.reason)",
                    suggestion: error.misspelled.flatMap { Suggestion.closest(to: $0, among: error.candidates) })
            }
        },
        OptionSpec(
            "--block-player", "ID",
            "Block the player of this customer.id from the start: Create Checkout Session answers their sessions 403, "
                + "as Appcharge answers a player on its blocked list; the control API unblocks them; repeatable.",
            default: "none", commands: [.serve], repeatable: true
        ) { options, value throws(UsageProblem) in
            let id = try text(value, option: "--block-player", allowEmpty: false)
            if let problem = BlockedPlayers.problem(id) {
                throw UsageProblem("--block-player '\(MessageText.sanitized(id))' \(problem)")
            }
            // The list the control API and the journal keep is bounded; the start's is too.
            guard options.blockedPlayers.count < BlockedPlayers.limit else {
                throw UsageProblem(
                    "--block-player is given more than \(BlockedPlayers.limit) times; the list holds at most "
                        + "\(BlockedPlayers.limit) players, so block fewer")
            }
            options.blockedPlayers.append(id)
        },
        OptionSpec(
            "--host", "HOST", "The address serve listens on; anything but loopback is reachable from other machines.",
            default: RunOptions().host, commands: [.serve]
        ) { options, value throws(UsageProblem) in
            options.host = try text(value, option: "--host", allowEmpty: false)
        },
        OptionSpec(
            "--public-url", "URL",
            "The base URL players reach the sandbox at, for the checkout URLs it hands out (behind a proxy, say).",
            default: "the address each request came to", commands: [.serve]
        ) { options, value throws(UsageProblem) in
            options.publicUrl = try publicURL(value)
        },
        OptionSpec(
            "--allowed-host", "NAME",
            "A host name serve also answers to, besides IP addresses, localhost (and names under it) and the "
                + "--public-url host; .example.com names a domain and every name under it; any other name gets 421, "
                + "since a DNS rebinding needs one; repeatable.",
            default: "none", commands: [.serve], repeatable: true
        ) { options, value throws(UsageProblem) in
            options.allowedHosts.append(try hostName(value))
        },
        OptionSpec(
            "--port", "PORT", "The port serve listens on; 0 picks a free one.", default: String(RunOptions().port),
            commands: [.serve]
        ) { options, value throws(UsageProblem) in
            options.port = try number(value, option: "--port", as: Int.self, in: 0...65535)
        },
        OptionSpec(
            "--port-file", "FILE",
            "Once the sandbox listens, write its base URL (http://127.0.0.1:PORT and a line feed) to FILE, whole "
                + "or not at all: for --port 0, so a script waits for the file instead of reading the log.",
            default: "none", commands: [.serve]
        ) { options, value throws(UsageProblem) in
            options.portFile = try text(value, option: "--port-file", allowEmpty: false)
        },
        OptionSpec(
            "--data", "DIR",
            "Keep the sandbox's sessions in DIR (JSON lines, on disk before each answer), so that they survive a stop "
                + "or a crash; created when missing.",
            default: "in memory only", commands: [.serve]
        ) { options, value throws(UsageProblem) in
            options.dataDirectory = try text(value, option: "--data", allowEmpty: false)
        },
        OptionSpec(
            "--import", "FILE",
            "Start from the sessions, deliveries and clock in FILE, what GET /control/v1/export gave (or a --data "
                + "journal), and with its seed; a bad line refuses it whole. With --data, the directory must hold no "
                + "records yet, and keeps what FILE held from the start.",
            default: "none", commands: [.serve]
        ) { options, value throws(UsageProblem) in
            options.importFile = try text(value, option: "--import", allowEmpty: false)
        },
        OptionSpec(
            "--clock", "MODE",
            "wall: the sandbox's time is the wall's; virtual: it stands still until POST /control/v1/clock moves it, "
                + "and every expiry, retry and scheduled payment it passes then happens, in time order, at its time.",
            default: ClockMode.wall.rawValue, commands: [.serve]
        ) { options, value throws(UsageProblem) in
            options.clockMode = try choice(value, option: "--clock", among: ClockMode.self)
        },
        OptionSpec(
            "--now", "TIME",
            "Where a virtual clock starts: Unix seconds, or an ISO 8601 time such as 2026-12-01T10:00:00Z; a date "
                + "alone is its midnight, UTC. A --data directory's clock resumes where it stood instead.",
            default: "the current time", commands: [.serve]
        ) { options, value throws(UsageProblem) in
            options.now = try clock(value)
        },
        OptionSpec(
            "--session-budget", "MIB",
            "Keep at most MIB mebibytes of what the sessions' requests sent (names, metadata, items); past it the "
                + "oldest unpaid sessions are forgotten and answer 404; paid orders are kept, and once they fill it a "
                + "new session gets 503.",
            default: String(RunOptions().sessionBudget), commands: [.serve]
        ) { options, value throws(UsageProblem) in
            options.sessionBudget = try number(value, option: "--session-budget", as: Int.self, in: 1...65_536)
        },
        OptionSpec(
            "--rate-limit", "N/min",
            "Answer 429 {\"message\":\"Rate limit exceeded.\"} past N requests in any 60 seconds of one publisher "
                + "token, refused ones counted, on the APIs that take the token (sessions, price points, reports, "
                + "refunds); awards and events are never limited.",
            default: "no limit", commands: [.serve]
        ) { options, value throws(UsageProblem) in
            options.rateLimit = try rateLimit(value)
        },
        OptionSpec(
            "--concurrency", "C",
            "Send the awards (without --award-url, the events) of a --count run over C connections at once, and end "
                + "with a load summary on stderr.",
            default: "1", commands: [.purchase], traits: .awardSending
        ) { options, value throws(UsageProblem) in
            options.concurrency = try number(value, option: "--concurrency", as: Int.self, in: 1...256)
        },
        OptionSpec(
            "--timeout", "SECONDS",
            "How long health waits for the sandbox to connect and answer, in all, in whole seconds from 1 to 300; "
                + "past it, exit 69.",
            default: String(RunOptions().healthTimeout), commands: [.health]
        ) { options, value throws(UsageProblem) in
            options.healthTimeout = try number(value, option: "--timeout", as: Int.self, in: 1...300)
        },
        auditCase(AwardAuditCase.self, of: .checkAward),
        auditCase(EventAuditCase.self, of: .checkEvents),
        OptionSpec(
            "--kind", "KIND", "What every FILE is: aasa (apple-app-site-association) or assetlinks (assetlinks.json).",
            default: "by the file's name, else its shape", commands: [.checkLinks]
        ) { options, value throws(UsageProblem) in
            options.linkKind = try choice(value, option: "--kind", among: LinkFileKind.self)
        },
        OptionSpec(
            "--count", "N",
            "Run N independent checkouts after one initialize, each with its own ids; output streams.",
            default: String(RunOptions().count), commands: Command.checkouts
        ) { options, value throws(UsageProblem) in
            options.count = try number(value, option: "--count", as: Int.self, in: 1...maximumCount)
        },
        OptionSpec(
            "--index", "I",
            "The index of the (first) checkout: line I of a --count run equals a run with --index I.",
            default: String(RunOptions().index), commands: Command.checkouts
        ) { options, value throws(UsageProblem) in
            options.index = try number(value, option: "--index", as: Int.self, in: 0...maximumIndex)
        },
        OptionSpec(
            "--error", "CODE", "Deliver this status code (or name, such as CHARGE_FAILED) where the SDK would.",
            commands: Command.flows
        ) { options, value throws(UsageProblem) in
            options.error = try text(value, option: "--error", allowEmpty: false)
        },
        OptionSpec(
            "--fail-at", "STEP",
            "The step --error fails, for codes that arrive at several: init, price-points, purchase.",
            default: "the command's last step", commands: Command.flows
        ) { options, value throws(UsageProblem) in
            options.failAt = try choice(value, option: "--fail-at", among: Step.self)
        },
        OptionSpec(
            "--trace", nil, "Print the simulated timeline (requests, order-state polls, timeouts) to stderr.",
            commands: Command.simulations + [.run]
        ) { options, _ in
            options.trace = true
        },
        OptionSpec(
            "--fault-rate", "P",
            "The probability (0 to 1) that a scenario step fails with a status code that fits it.",
            default: "the scenario's faultRate, else 0", commands: [.run]
        ) { options, value throws(UsageProblem) in
            options.faultRate = try probability(value, option: "--fault-rate")
        },
        OptionSpec(
            "--fixtures", "DIR", "A directory whose fixture files replace the built-in ones.",
            default: "$PAYLINKS_FIXTURES, else built in",
            commands: Command.allCases.filter { ![.man, .checkAward, .checkEvents, .checkLinks, .health].contains($0) }
        ) { options, value throws(UsageProblem) in
            options.fixtures = try text(value, option: "--fixtures", allowEmpty: false)
        },
        OptionSpec(
            "--seed", "N", "Seeds the ids: the same seed gives the same output.", default: "random",
            commands: Command.simulations + [.run, .checkBooks, .serve], traits: .stopsAtCopies
        ) { options, value throws(UsageProblem) in
            options.seed = try number(value, option: "--seed", as: UInt64.self, in: 0...UInt64.max)
        },
        OptionSpec(
            "--now", "TIME",
            "The clock, for the order's date: Unix seconds, or an ISO 8601 time such as 2024-06-12T08:51:52Z; "
                + "a date alone is its midnight, UTC.",
            default: "the current time", commands: Command.simulations + [.run], traits: .stopsAtCopies
        ) { options, value throws(UsageProblem) in
            options.now = try clock(value)
        },
        format(
            "text: readable blocks; json: one JSON object per line; wire: each callback as the platform hands it "
                + "to the game.",
            default: "\(RunOptions().format.rawValue); give json for scripts, wire to paste into a unit test",
            commands: callbackCommands),
        OptionSpec(
            "--language", "LANGUAGE",
            "iOS: the delegate's language, swift or objc; objc names each callback by its Objective-C selector, "
                + "and --format wire shows it as the message an Objective-C delegate receives.",
            default: RunOptions().language.rawValue, commands: callbackCommands
        ) { options, value throws(UsageProblem) in
            options.language = try choice(value, option: "--language", among: DelegateLanguage.self)
        },
        // The listings print no callbacks, so they have no wire format to offer.
        format(
            "text: a readable table or report; json: one JSON object per line.",
            default: "\(RunOptions().format.rawValue); give json for scripts",
            commands: listingCommands.filter { !callbackCommands.contains($0) }),
        OptionSpec("--json", nil, "Shorthand for --format json.", commands: listingCommands, group: .format) {
            options, _ in
            options.format = .json
        },
        OptionSpec(
            "--color", "WHEN",
            "Colour text output: auto (on a terminal, unless NO_COLOR is set or TERM=dumb), always, never.",
            default: RunOptions().color.rawValue, commands: listingCommands, traits: .stopsAtCopies
        ) { options, value throws(UsageProblem) in
            options.color = try choice(value, option: "--color", among: ColorChoice.self)
        },
    ]

    /// `--format` for `commands`, whose help says which formats they print.
    private static func format(
        _ summary: @autoclosure @escaping @Sendable () -> String,
        default defaultText: @autoclosure @escaping @Sendable () -> String,
        commands: @autoclosure @escaping @Sendable () -> [Command]
    ) -> OptionSpec {
        OptionSpec("--format", "FORMAT", summary(), default: defaultText(), commands: commands(), group: .format) {
            options, value throws(UsageProblem) in
            options.format = try choice(value, option: "--format", among: OutputFormat.self)
        }
    }

    /// `--case` for `command`, whose audit's cases are `Case`.
    private static func auditCase<Case: AuditCase>(_: Case.Type, of command: Command) -> OptionSpec {
        OptionSpec(
            "--case", "NAME", "Run only this case of the audit, as a finding names it; repeatable.",
            default: "every case", commands: [command], repeatable: true
        ) { options, value throws(UsageProblem) in
            let name = try text(value, option: "--case", allowEmpty: false)
            guard Case(name: name) != nil else {
                throw UsageProblem(
                    "--case takes one of \(Case.names.joined(separator: ", ")), not '\(MessageText.sanitized(name))'",
                    suggestion: Suggestion.closest(to: name, among: Case.names))
            }
            options.auditCases.append(name)
        }
    }

    /// The defaults of a session the options start from.
    private static var defaults: Scenario.Configuration { .defaults }

    /// The commands that send order events.
    static let eventCommands: [Command] = [.purchase, .cancel, .run, .trigger, .serve]

    /// The commands that print callbacks or listings, in text or JSON.
    /// The subcommands whose output depends on the platform and SDK version.
    static let platformCommands = Command.simulations + [.errors, .offers, .run, .serve]

    static let listingCommands =
        Command.simulations + [
            .errors, .offers, .countries, .run, .checkAward, .checkEvents, .checkBooks, .checkLinks, .serve,
        ]

    /// The commands that print callbacks, and so take `--format wire`.
    static let callbackCommands = Command.simulations + [.run, .serve]

    /// The most checkouts one run makes.
    static let maximumCount = 1_000_000_000
    /// The last checkout index whose order id is still unique.
    static let maximumIndex = 8_999_999_999

    /// The last second of the year 9999, the latest `--now` paylinks can show as a date.
    static let maximumTimestamp = 253_402_300_799

    /// The options a subcommand accepts.
    package static func options(for command: Command) -> [OptionSpec] {
        all.filter { $0.commands.contains(command) }
    }

    // MARK: Value checks

    private static func text(_ value: String, option: String, allowEmpty: Bool) throws(UsageProblem) -> String {
        if value.isEmpty && !allowEmpty {
            throw UsageProblem("\(option) needs a value that is not empty")
        }
        if let bad = value.unicodeScalars.first(where: { $0.value < 0x20 || $0.value == 0x7F }) {
            throw UsageProblem(
                "\(option) contains the control character U+\(hex(bad.value)); remove it from the value")
        }
        if value.unicodeScalars.contains("\u{FFFD}") {
            throw UsageProblem("\(option) is not valid UTF-8; pass the value as UTF-8 text")
        }
        return value
    }

    /// An `http://` endpoint of the game's server.
    private static func endpoint(_ value: String, option: String) throws(UsageProblem) -> HTTPURL {
        let text = try text(value, option: option, allowEmpty: false)
        do {
            return try HTTPURL(text)
        } catch {
            throw UsageProblem("\(option): \(error)")
        }
    }

    /// A value sent in a header: printable ASCII.
    private static func headerText(_ value: String, option: String) throws(UsageProblem) -> String {
        let text = try text(value, option: option, allowEmpty: false)
        guard text.utf8.allSatisfy({ (0x20..<0x7F).contains($0) }) else {
            throw UsageProblem("\(option) goes in a header: use printable ASCII, not '\(MessageText.sanitized(value))'")
        }
        return text
    }

    private static func number<Value: FixedWidthInteger>(
        _ value: String, option: String, as: Value.Type, in range: ClosedRange<Value>
    ) throws(UsageProblem) -> Value {
        let isDigits = !value.isEmpty && value.utf8.allSatisfy { (0x30...0x39).contains($0) }
        guard isDigits, let number = Value(value), range.contains(number) else {
            throw UsageProblem(
                "\(option) takes a whole number from \(range.lowerBound) to \(range.upperBound), not '\(MessageText.sanitized(value))'"
            )
        }
        return number
    }

    /// `--rate-limit N/min`: a whole number of requests a minute, from 1 to 1,000,000.
    static func rateLimit(_ value: String) throws(UsageProblem) -> Int {
        // The unit in any case, as choices are read: 600/MIN is 600/min.
        let count = value.lowercased().hasSuffix("/min") ? String(value.dropLast(4)) : ""
        guard !count.isEmpty, count.utf8.allSatisfy({ (0x30...0x39).contains($0) }), count.utf8.count <= 7,
            let limit = Int(count), (1...1_000_000).contains(limit)
        else {
            throw UsageProblem(
                "--rate-limit takes N/min, a whole number of requests a minute from 1 to 1000000, such as 600/min, "
                    + "not '\(MessageText.sanitized(value))'")
        }
        return limit
    }

    /// `--now`: what ``ClockText`` reads, as a scenario's `configuration.now` takes it.
    static func clock(_ value: String) throws(UsageProblem) -> Int {
        do { return try ClockText.unixSeconds(value) } catch { throw UsageProblem(error.message(for: "--now")) }
    }

    private static func choice<Value: RawRepresentable & CaseIterable>(
        _ value: String, option: String, among: Value.Type
    ) throws(UsageProblem) -> Value where Value.RawValue == String {
        if let match = Value.named(value) { return match }
        let names = Value.allCases.map(\.rawValue)
        throw UsageProblem(
            "\(option) takes \(names.joined(separator: ", ")), not '\(MessageText.sanitized(value))'",
            suggestion: Suggestion.closest(to: value, among: names))
    }

    /// `http://host[:port][/path]` or `https://...`, without a query or fragment; kept
    /// without a trailing `/`.
    static func publicURL(_ value: String) throws(UsageProblem) -> String {
        let lowered = value.lowercased()
        let scheme = ["http://", "https://"].first { lowered.hasPrefix($0) }
        let rest = scheme.map { value.dropFirst($0.count) } ?? ""
        let host = rest.prefix { $0 != "/" }
        guard scheme != nil, !host.isEmpty,
            value.unicodeScalars.allSatisfy({
                $0.value > 0x20 && $0.value < 0x7F && !"?#\"<>\\".unicodeScalars.contains($0)
            })
        else {
            throw UsageProblem(
                "--public-url takes the base URL players reach the sandbox at, such as http://192.168.1.20:4010, "
                    + "not '\(MessageText.sanitized(value))'")
        }
        var url = value
        while url.hasSuffix("/") { url.removeLast() }
        return url
    }

    /// A host name of `--allowed-host`: ASCII letters, digits, `-`, `_` (a container's
    /// name) and `.`, as a `Host` header names it, without a scheme or a port; a leading
    /// dot names a domain and every name under it.
    static func hostName(_ value: String) throws(UsageProblem) -> String {
        guard (1...253).contains(value.utf8.count), value != ".",
            value.unicodeScalars.allSatisfy({
                ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || $0 == "-"
                    || $0 == "." || $0 == "_"
            })
        else {
            throw UsageProblem(
                "--allowed-host takes a host name as the browser's address bar has it, without a scheme or a port, "
                    + "such as sandbox.local, not '\(MessageText.sanitized(value))'")
        }
        return value
    }

    /// `KEY=V1,V2,...` of `--matrix`: a known key not given before, and values that key takes.
    static func matrixAxis(_ value: String, given: [MatrixAxis]) throws(UsageProblem) -> MatrixAxis {
        let keys = MatrixKey.allCases.map(\.rawValue)
        let parts = value.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2 else {
            throw UsageProblem(
                "--matrix takes KEY=V1,V2,... with a key of \(keys.joined(separator: ", ")), "
                    + "not '\(MessageText.sanitized(value))'; as in '--matrix country=US,DE'")
        }
        guard let key = MatrixKey(rawValue: String(parts[0])) else {
            throw UsageProblem(
                "--matrix has no key '\(MessageText.sanitized(String(parts[0])))'; keys: \(keys.joined(separator: ", "))",
                suggestion: Suggestion.closest(to: String(parts[0]), among: keys))
        }
        guard !given.contains(where: { $0.key == key }) else {
            throw UsageProblem(
                "--matrix gives \(key.rawValue) twice; list all its values in one, as in '\(key.rawValue)=A,B'")
        }
        // A version and a generation would each decide the same thing.
        let versionKeys: [MatrixKey] = [.sdkVersion, .generation]
        if versionKeys.contains(key), let other = given.first(where: { versionKeys.contains($0.key) }) {
            throw UsageProblem(
                "--matrix gives both \(other.key.rawValue) and \(key.rawValue), which each choose the SDK version; "
                    + "vary one of them")
        }
        var spelled: [String] = []
        for item in parts[1].split(separator: ",", omittingEmptySubsequences: false).map(String.init) {
            guard !item.isEmpty else {
                throw UsageProblem("--matrix \(key.rawValue) has an empty value; as in '--matrix \(key.rawValue)=A,B'")
            }
            let value = try matrixValue(item, of: key)
            guard !spelled.contains(value) else {
                throw UsageProblem(
                    "--matrix \(key.rawValue) lists '\(MessageText.sanitized(value))' twice; give it once")
            }
            spelled.append(value)
        }
        let counts = (given.map(\.values.count) + [spelled.count])
        let combinations = counts.reduce(1) { $0.multipliedReportingOverflow(by: $1).partialValue }
        guard combinations <= matrixCombinationLimit else {
            let product = counts.map(String.init).joined(separator: " × ")
            throw UsageProblem(
                "--matrix makes \(combinations) combinations (\(product)); one run takes at most "
                    + "\(matrixCombinationLimit): split the matrix across runs")
        }
        return MatrixAxis(key: key, values: spelled)
    }

    /// The most combinations one `run --matrix` takes: each runs every scenario.
    static let matrixCombinationLimit = 10_000

    /// One value of a `--matrix` axis, checked as the option that sets the same thing
    /// checks it, and spelled as that option keeps it: a country upper case, a platform
    /// lower case. A version is checked on its platforms once every option is read
    /// (``matrixVersionProblem(in:)``).
    private static func matrixValue(_ item: String, of key: MatrixKey) throws(UsageProblem) -> String {
        let label = "--matrix \(key.rawValue)"
        switch key {
        case .country:
            return try country(item, option: label)
        case .platform:
            return try choice(item, option: label, among: Platform.self).rawValue
        case .sdkVersion:
            let version = try text(item, option: label, allowEmpty: false)
            guard SDKVersion(version) != nil else {
                throw UsageProblem("\(label) takes versions such as 1.9 or 2.0.0, not '\(MessageText.sanitized(item))'")
            }
            return version
        case .generation:
            guard let generation = Generation(name: item) else {
                throw UsageProblem(
                    "\(label) takes G1, G2, G3, not '\(MessageText.sanitized(item))'",
                    suggestion: Suggestion.closest(to: item.uppercased(), among: Generation.allCases.map(\.name)))
            }
            return generation.name
        case .paymentMethod, .environment:
            return try text(item, option: label, allowEmpty: false)
        }
    }

    /// The first version of `--matrix sdkVersion` that is not one on a platform the run
    /// gives it: each of `--matrix platform`'s, else `--platform`'s, else iOS's, as
    /// `--sdk-version` is checked on `--platform`.
    static func matrixVersionProblem(in options: RunOptions) -> String? {
        guard let versions = options.matrix.first(where: { $0.key == .sdkVersion })?.values else { return nil }
        let platforms =
            options.matrix.first { $0.key == .platform }?.values.compactMap(Platform.named)
            ?? [options.platform ?? .ios]
        for platform in platforms {
            for version in versions {
                do {
                    _ = try SDKTarget(platform: platform, version: version)
                } catch {
                    return "--matrix sdkVersion: \(error)"
                }
            }
        }
        return nil
    }

    /// A probability written as a decimal from 0 to 1: "0", "0.25", "1".
    static func probability(_ value: String, option: String) throws(UsageProblem) -> Double {
        let parts = value.split(separator: ".", omittingEmptySubsequences: false)
        let isDecimal =
            (1...2).contains(parts.count) && !parts[0].isEmpty
            && parts.allSatisfy { $0.utf8.allSatisfy { (0x30...0x39).contains($0) } }
            && (parts.count == 1 || !parts[1].isEmpty)
        guard isDecimal, let number = Double(value), (0...1).contains(number) else {
            throw UsageProblem(
                "\(option) takes a probability from 0 to 1, such as 0.25, not '\(MessageText.sanitized(value))'")
        }
        return number
    }

    /// A percent from 0 to 100, written plainly with or without `%`: "15%", "1.5", "0".
    static func percent(_ value: String, option: String, example: String) throws(UsageProblem) -> ExactDecimal {
        // The sign is required: a bare 0.2 could mean 20% as well as 0.2%.
        guard value.hasSuffix("%"), let rate = ExactDecimal(String(value.dropLast())),
            rate.significand <= 100 * rate.denominator
        else {
            throw UsageProblem(
                "\(option) takes a percent from 0% to 100% with its sign, such as \(example), not '\(MessageText.sanitized(value))'"
            )
        }
        return rate
    }

    /// A country code, upper case; `option` names where it was given when that is not `--country`.
    private static func country(_ value: String, option: String? = nil) throws(UsageProblem) -> String {
        let code = value.uppercased()
        let place = option.map { "\($0): " } ?? ""
        if let meant = CountryCodes.commonMistakes[code] {
            throw UsageProblem(
                "\(place)'\(MessageText.sanitized(value))' is not an ISO 3166-1 alpha-2 country code"
                    + Suggestion.didYouMean(meant, quoted: .bare))
        }
        guard CountryCodes.contains(code) else {
            throw UsageProblem(
                "\(place)'\(MessageText.sanitized(value))' is not an ISO 3166-1 alpha-2 country code; use two letters "
                    + "such as US, GB, DE or JP")
        }
        return code
    }

    /// A code point as `U+` writes it: four hex digits at least.
    static func hex(_ value: UInt32) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }
}

/// A problem with one option's value, before it is tied to a subcommand.
struct UsageProblem: Error {
    var message: String

    init(_ message: String, suggestion: String? = nil) {
        self.message = message + (suggestion.map { Suggestion.didYouMean($0, quoted: .single) } ?? "")
    }
}
