import PaylinksAppcharge
import PaylinksDelivery
import PaylinksFixtures
import PaylinksKit

/// What `init`, `price-points`, `purchase` and `cancel` share: a simulator set up as the
/// options say, initialized, with a delegate that renders each callback; the award
/// sender when `--award-url` is given; and the exit code the last callback decides.
///
/// A command makes the flow, runs its checkouts through one of the runs
/// (``CheckoutLoop``, ``AwardLoadRun``), and ends with ``finish()``, deferring ``close()``.
@MainActor
final class CheckoutFlow {
    let command: Command
    let options: RunOptions
    let catalog: Catalog
    let context: RunContext
    /// The simulated SDK.
    let sdk: PaymentLinksSimulator
    /// Appcharge's side of every checkout: sessions, orders, awards and events.
    let appcharge: AppchargeBackend
    /// Standard output, buffered in whole lines.
    let output: BufferedOutput
    let renderer: any CallbackRenderer
    /// Writes each callback through the renderer, and keeps the current step's.
    let delegate: RenderingDelegate
    /// The seed of every checkout's identifiers.
    let seed: UInt64
    /// The failure `--error` injects, re-armed for every checkout.
    let failure: FailurePlan?
    /// Where awards go, with `--award-url`.
    let awards: DeliveryDestination?
    /// The status the browser went back with at the end of the last checkout, by Link Out.
    private(set) var linkOutStatus: LinkOutStatus?
    private let sender: AwardSender?
    /// The orders' events, with `--events-url` (and always for `trigger`, which shows them
    /// without one).
    let events: EventOutlet?

    /// Checks the options against the catalog, sets up the simulator and initializes it.
    init(_ command: Command, options: RunOptions, catalog: Catalog, context: RunContext) throws(CLIError) {
        if let sku = options.sku, catalog.offer(sku: sku) == nil {
            let hint =
                Suggestion.hint(for: sku, among: catalog.offers.map(\.sku), quoted: .single)
                ?? "; offers: " + catalog.offers.map(\.sku).joined(separator: ", ")
            throw .usage("unknown SKU '\(MessageText.sanitized(sku))'\(hint)", command: command)
        }
        failure = try options.error.map { (code) throws(CLIError) in
            try FailurePlan.resolve(
                code, failAt: options.failAt, command: command, catalog: catalog, target: options.target)
        }
        if command != .initialize { PaylinksCLI.noteFallback(for: options.country, catalog: catalog, context: context) }
        self.command = command
        self.options = options
        self.catalog = catalog
        self.context = context
        output = BufferedOutput(context.standardOutput)
        let renderer = options.format.renderer(
            catalog: catalog, color: PaylinksCLI.usesColor(options, context: context), target: options.target,
            language: options.language)
        self.renderer = options.flow == .linkOut ? LinkOutRenderer(base: renderer) : renderer
        delegate = RenderingDelegate(renderer: self.renderer, output: output)
        seed = options.seed ?? context.entropy()
        sdk = PaymentLinksSimulator(
            catalog: catalog, country: options.country, now: options.now ?? context.clock(), seed: seed,
            firstCheckoutIndex: options.index, target: options.target)
        if options.trace {
            let standardError = context.standardError
            // A trace quotes what fixtures and answers hold: one escaped line each, as the log.
            sdk.trace = { event in
                try? standardError.write(
                    MessageText.oneLine("trace +\(PaymentLinksSimulator.seconds(event.milliseconds))  \(event.message)")
                        + "\n")
            }
        }
        sdk.browserMode = options.browserMode
        sdk.losesBrowserSession = options.losesSession
        if let failure { sdk.injectFailure(code: failure.statusCode.code, at: failure.step) }
        appcharge = AppchargeBackend(catalog: sdk.catalog, seed: seed, rates: options.rates)
        appcharge.device = options.device
        sdk.backend = appcharge
        let sendsEvents = options.eventsUrl != nil || command == .trigger
        // Appended one by one: a run that signs nothing makes no array at all.
        var uses: [String] = []
        if options.awardUrl != nil { uses.append("award callbacks") }
        if sendsEvents { uses.append("events") }
        let signing = uses.isEmpty ? nil : try Signing(options: options, context: context)
        if sendsEvents, let signing {
            let standardError = context.standardError
            events = EventOutlet(
                settings: try EventSettings(options: options, signing: signing), renderer: self.renderer,
                delegate: delegate, seed: seed,
                trace: options.trace
                    ? { line in try? standardError.write(MessageText.oneLine("trace \(line)") + "\n") } : nil,
                showsUnsent: true)
        } else {
            events = nil
        }
        if let events { appcharge.onHappening = { events.send($0) } }
        signing?.note(uses: uses.joined(separator: " and "), context: context)
        if let url = options.awardUrl, let signing {
            let destination = signing.awards(to: url, options: options)
            let sender = AwardSender(destination, for: .award)
            appcharge.grantAwards(
                with: sender, display: RenderedDeliveries(renderer: self.renderer, delegate: delegate))
            awards = destination
            self.sender = sender
        } else {
            awards = nil
            sender = nil
        }
        // By Link Out the return URL is the game's server's, never the SDK's to check.
        let configModel = ACConfigModel(
            checkoutPublicKey: options.checkoutPublicKey, environment: options.environment,
            redirectUrl: options.flow == .linkOut ? nil : options.redirectUrl)
        // G3 initializes without a customer id: each checkout hands it to openCheckout.
        if options.target.generation == .g3 {
            sdk.initialize(configModel: configModel, delegate: delegate)
        } else {
            sdk.initialize(configModel: configModel, customerId: options.customerId, delegate: delegate)
        }
        if options.flow == .linkOut, !initialized, let error = delegate.delivered.last?.error {
            let name = catalog.statusCode(error.code).map { " (\($0.name))" } ?? ""
            throw .usage(
                "--flow link-out has no SDK, yet these options make its initialize fail with \(error.code)\(name): "
                    + "fix what 'paylinks errors \(error.code)' names, or use --flow sdk",
                command: command)
        }
    }

    /// Whether the SDK initialized, so that the command's calls can follow.
    /// (Matched, not compared with nil: comparing two optional configurations would make
    /// the run-time types of a pair of them.)
    var initialized: Bool {
        guard case .some = sdk.configuration else { return false }
        return true
    }

    /// One checkout, the player doing as `player` says, the injected failure armed again;
    /// its order's events go out as Appcharge's side lives them, up to `target` when given.
    /// Without `settles`, what waits for the client's result (`order.completed`) waits for
    /// the caller's ``AppchargeBackend/settle(at:)``.
    func checkout(_ player: PlayerAction, through target: OrderEvent.Name? = nil, settles: Bool = true)
        throws(CLIError)
    {
        events?.through = target
        // The delegate keeps this checkout's callbacks only.
        delegate.begin(delegate.currentTag)
        if let failure, failure.step == .purchase {
            sdk.injectFailure(code: failure.statusCode.code, at: .purchase)
        }
        do {
            try sdk.runCheckout(
                offerSku: options.sku ?? "", customerId: options.orderCustomerId ?? options.customerId,
                environment: options.sessionEnvironment ?? options.environment,
                player: player.paying(
                    for: failure?.step == .purchase ? failure?.statusCode : nil, with: options.paymentMethod),
                deliverTwice: false, sdkCustomerId: options.customerId)
        } catch {
            throw .internal("no checkout session for \(options.sku ?? "no SKU"): \(error)")
        }
        if settles { appcharge.settle(at: sdk.virtualMilliseconds) }
        if options.flow == .linkOut, settles, let url = options.redirectUrl {
            guard let status = LinkOutFlow.status(after: player, state: appcharge.lastState) else {
                throw .internal("the checkout of \(options.sku ?? "no SKU") did not end")
            }
            linkOutStatus = status
            delegate.write(
                renderer.render(redirect: status.redirect(to: url), status: status, tag: delegate.currentTag))
        }
    }

    /// Checkout `index` as Appcharge's side lives it, without the SDK: the player does as
    /// `player` says at `paidAt` (Unix milliseconds); what waits for the client's result
    /// waits for the caller's ``AppchargeBackend/settle(at:)``. A load whose checkouts are
    /// predicted rather than simulated sends the events of each order's own life this way.
    func replay(_ player: PlayerAction, index: Int, paidAt: Int) throws(CLIError) {
        let sale: CheckoutSale
        do {
            sale = try sdk.sale(
                offerSku: options.sku ?? "", customerId: options.orderCustomerId ?? options.customerId,
                environment: options.sessionEnvironment ?? options.environment, index: index)
        } catch {
            throw .internal("no checkout session for \(options.sku ?? "no SKU"): \(error)")
        }
        let session = appcharge.createSession(sale, at: paidAt)
        _ = appcharge.openSession(purchaseId: session.purchaseId, at: paidAt)
        _ = appcharge.player(player, in: session, at: paidAt)
    }

    /// Takes `action` on the last order paid, a minute after the run's clock last moved
    /// (refunds and disputes come after the checkout), and sends its event.
    func act(_ action: OrderLife.Action) throws(CheckoutSessions.LifeProblem) {
        try appcharge.act(action, after: sdk)
    }

    /// Closes the award connection, if any: a command defers it once the flow is made.
    func close() {
        sender?.close()
        events?.close()
    }

    /// Writes what is buffered; a write that failed is the command's error.
    func flush() throws(CLIError) {
        if let failure = delegate.failure { throw .output(failure) }
        do {
            try output.flush()
        } catch {
            throw .output(error)
        }
    }

    /// Writes the rest and returns the exit code of the last callback delivered; an event
    /// the game's server refused on every attempt is said on stderr, as `run` says it, and
    /// ends a flow that ended well in exit 14.
    func finish() throws(CLIError) -> ExitCode {
        try flush()
        guard let last = delegate.delivered.last else { throw .internal("the flow ended without a callback") }
        let code = linkOutStatus.map(ExitCode.init(linkOut:)) ?? ExitCode(finishingWith: last, catalog: catalog)
        guard let events, let refusal = events.firstRefusal else { return code }
        let others = events.refusedCount - 1
        let more = others == 0 ? "" : " (and \(others) more event\(others == 1 ? "" : "s"))"
        let audit = options.eventsUrl.map { " 'paylinks check-events \($0)' audits it" } ?? ""
        try? context.standardError.write(
            "error: \(MessageText.oneLine(refusal))\(more); the game's events handler must accept each event with "
                + "a 2xx\(audit.isEmpty ? "" : ";\(audit)")\n")
        return code == .success ? .eventRefused : code
    }
}

extension CheckoutSessions.LifeProblem {
    /// Why a refund or a dispute of a command's last order paid could not be taken, in a sentence.
    var message: String {
        switch self {
        case .noOrder: "no order was paid yet; a purchase that is paid comes first"
        case .refused(let refusal): refusal.message
        }
    }
}
