import PaylinksAppcharge
import PaylinksDelivery
package import PaylinksFixtures
import PaylinksHTTP
import PaylinksJSON
package import PaylinksKit

/// Runs scenarios: one simulated SDK per scenario lives through all of its steps, each
/// callback is written tagged with its scenario and step, and every expectation is
/// checked and reported.
@MainActor
package struct ScenarioRunner {
    /// What the command line sets for a run; a scenario's own configuration wins over it.
    package struct Settings: Sendable {
        /// The output format.
        package var format: OutputFormat
        /// Whether to print the timeline to standard error.
        package var trace: Bool
        /// Seeds scenarios that have no seed of their own.
        package var seed: UInt64
        /// The clock for scenarios that set none.
        package var now: Int
        /// The fault rate for scenarios that set none.
        package var faultRate: Double
        /// Appcharge's fee and exchange cost, which the orders' money is figured with.
        var rates = OrderMoney.Rates.standard
        /// The platform and SDK version for scenarios that set none; iOS 1.9 when nil.
        package var target: SDKTarget?
        /// The device for scenarios that name none (`--device`); from the seed when nil.
        package var device: OrderDevice?
        /// Whether the run stops after the first scenario with a failed expectation.
        package var failFast = false
        /// The language of the iOS delegate, for the scenarios on iOS.
        package var language = DelegateLanguage.swift
        /// A monotonic clock in milliseconds that times each scenario on the wall.
        package var monotonicMilliseconds: @Sendable () -> Int = { 0 }
        /// How awards are signed and sent, with the endpoint for scenarios that name none.
        var awards: DeliveryDestination?
        /// Where the awards of each scenario go, by its index; checked before the run.
        var awardURLs: [Int: HTTPURL] = [:]
        /// How events are signed and shaped, when any scenario sends them.
        var events: EventSettings?
        /// Where the events of each scenario go, by its index; checked before the run.
        var eventURLs: [Int: HTTPURL] = [:]
        /// The game's ledger, read after the steps that expect what it shows, or after every
        /// step when it reconciles with Appcharge's books; nil reads none.
        var ledger: ScenarioLedger?

        /// Creates settings.
        package init(format: OutputFormat, trace: Bool, seed: UInt64, now: Int, faultRate: Double) {
            self.format = format
            self.trace = trace
            self.seed = seed
            self.now = now
            self.faultRate = faultRate
        }
    }

    let catalog: Catalog
    let settings: Settings
    let output: any OutputSink
    let diagnostics: any OutputSink

    /// Creates a runner writing callbacks to `output` and reports to `diagnostics`.
    package init(catalog: Catalog, settings: Settings, output: any OutputSink, diagnostics: any OutputSink) {
        self.catalog = catalog
        self.settings = settings
        self.output = output
        self.diagnostics = diagnostics
    }

    /// Runs the scenarios in order.
    ///
    /// - Throws: the first write to `output` that failed.
    package func run(_ scenarios: [Scenario]) throws(OutputError) -> Summary {
        var summary = Summary()
        for (index, scenario) in scenarios.enumerated() {
            if settings.failFast, summary.results.contains(where: { !$0.passed }) { break }
            if summary.cannotRun != nil { break }
            if let reason = scenario.doesNotApply {
                try? diagnostics.write(MessageText.oneLine("skip  \(scenario.name)  \(reason)") + "\n")
                continue
            }
            // Each scenario's SDK version decides its status table, names and arguments.
            let target = scenario.configuration.target ?? settings.target ?? .standard
            let runner = ScenarioRunner(
                catalog: catalog.forGeneration(target.generation), settings: settings, output: output,
                diagnostics: diagnostics)
            let renderer = settings.format.renderer(
                catalog: runner.catalog, target: target, language: settings.language)
            try runner.run(scenario, index: index, target: target, renderer: renderer, summary: &summary)
            if let result = summary.results.last { try? diagnostics.write(result.line + "\n") }
        }
        return summary
    }

    /// The seed of the `index`th scenario when the run's seed is `seed`.
    static func scenarioSeed(_ seed: UInt64, index: Int) -> UInt64 {
        var generator = SeededGenerator(seed: seed &+ UInt64(index))
        return generator.next()
    }

    private func run(
        _ scenario: Scenario, index: Int, target: SDKTarget, renderer: any CallbackRenderer, summary: inout Summary
    )
        throws(OutputError)
    {
        // The scenario's place in the whole run, whichever process runs it.
        let seed = scenario.configuration.seed ?? Self.scenarioSeed(settings.seed, index: scenario.ordinal ?? index)
        // A step that does not wait leaves its result held while the next step runs.
        let holds = scenario.steps.contains { !$0.waits } ? HeldDeliveries() : nil
        // A game without the SDK receives none of its callbacks: only each checkout's return.
        let linksOut = scenario.configuration.flow == .linkOut
        let renderer = linksOut ? LinkOutRenderer(base: renderer) : renderer
        let collector = RenderingDelegate(renderer: renderer, output: output)
        let sdk = PaymentLinksSimulator(
            catalog: catalog, country: scenario.configuration.country,
            now: scenario.configuration.now ?? settings.now, seed: seed,
            delivery: holds.map { .held(in: $0) } ?? .synchronous, target: target)
        sdk.delegate = collector
        if settings.trace {
            let diagnostics = self.diagnostics
            let name = scenario.name
            // A trace quotes the scenario's names and values: one escaped line each, as the log.
            sdk.trace = { event in
                try? diagnostics.write(
                    MessageText.oneLine(
                        "trace \(name) +\(PaymentLinksSimulator.seconds(event.milliseconds))  \(event.message)") + "\n")
            }
        }
        let faultRate = scenario.configuration.faultRate ?? settings.faultRate
        // Every scenario follows its orders' states; one with an events URL sends their events.
        var eventSettings = settings.events ?? EventSettings.unsent
        eventSettings.url = settings.eventURLs[index]
        let events = EventOutlet(
            settings: eventSettings, renderer: renderer, delegate: collector, seed: seed,
            trace: settings.trace
                ? { [diagnostics] line in try? diagnostics.write(MessageText.oneLine("trace \(line)") + "\n") } : nil,
            showsUnsent: false)
        defer { events.close() }
        // Appcharge's side of the scenario's checkouts: its orders' awards and events.
        let appcharge = AppchargeBackend(catalog: sdk.catalog, seed: seed, rates: settings.rates)
        appcharge.device = scenario.configuration.device ?? settings.device
        sdk.backend = appcharge
        appcharge.onHappening = { events.send($0) }
        var sender: AwardSender?
        var late: LateAwards?
        if var awards = settings.awards, let url = settings.awardURLs[index] {
            awards.url = url
            let awardSender = AwardSender(awards, for: .award)
            late = appcharge.grantAwards(
                with: awardSender, display: RenderedDeliveries(renderer: renderer, delegate: collector))
            sender = awardSender
        }
        defer { sender?.close() }
        if scenario.configuration.seed == nil {
            let checksOut = scenario.steps.contains { step in
                if case .checkout = step.action { return true }
                return false
            }
            if checksOut || faultRate > 0 { summary.usedRunSeed = true }
        }
        var faults = SeededGenerator(seed: seed ^ 0x0FA0_17FA_017F_A017)
        var result = ScenarioResult(name: scenario.name, file: scenario.file)
        result.combination = scenario.combination
        // Under a matrix, the file's every combination reports on it: each line names its own.
        let place = scenario.file + (scenario.combination.map { " [\($0)]" } ?? "")
        let started = settings.monotonicMilliseconds()
        defer {
            result.wallMilliseconds = max(0, settings.monotonicMilliseconds() - started)
            summary.results.append(result)
        }
        // A G3 app's customer id, from its last initialize step, which openCheckout takes.
        var checkoutCustomerId: String?
        // What the player held in the game's ledger at the start, when the run reads it.
        var books = LedgerCheck(scenario: scenario, ledger: settings.ledger)
        do {
            try books.begin()
        } catch {
            summary.cannotRun = error.withAdvice
            return
        }
        // Whether the books waited at the last step reconciled, for events that went out at its end.
        var waited = false
        if linksOut { checkoutCustomerId = Self.initializeUnseen(sdk, scenario.configuration, delegate: collector) }
        for step in scenario.steps {
            collector.begin(CallbackTag(scenario: scenario.name, step: step.number, attempt: step.attempt))
            if let country = step.country { sdk.country = country }
            _ = events.takeDelivered()
            _ = events.takeRefusals()
            var refusal: String?
            // The status a Link Out checkout's browser went back with.
            var redirected: LinkOutStatus?
            // Events an earlier step held back go out once this step's have.
            let releasesHeld = events.holdsEvents
            let releasesLate = late?.holdsAwards ?? false
            appcharge.awardFault = step.awardFault
            if let fault = step.eventFault.flatMap({ DeliveryFault(rawValue: $0.rawValue) }) { events.arm(fault) }
            defer {
                events.disarm()
                if releasesHeld { events.releaseHeld() }
            }
            let injected =
                step.error
                ?? (step.callsTheSDK && !linksOut ? randomFault(for: step, rate: faultRate, using: &faults) : nil)
            if let injected { sdk.injectFailure(code: injected, at: step.failureStep) }
            switch step.action {
            case .initialize(let configuration, let customerId):
                // G3 initializes without a customer id; the app hands it to openCheckout.
                if sdk.target.generation == .g3 {
                    sdk.initialize(configModel: configuration, delegate: collector)
                    checkoutCustomerId = customerId
                } else {
                    sdk.initialize(configModel: configuration, customerId: customerId, delegate: collector)
                }
            case .pricePoints:
                sdk.getPricePoints()
            case .checkout(let checkout):
                do {
                    try sdk.runCheckout(
                        offerSku: checkout.sku,
                        customerId: checkout.orderCustomerId ?? sdk.customerId ?? checkoutCustomerId
                            ?? scenario.configuration.customerId,
                        environment: checkout.sessionEnvironment ?? sdk.configuration?.environment
                            ?? scenario.configuration.environment,
                        player: checkout.player.paying(
                            for: injected.flatMap(catalog.statusCode), with: scenario.configuration.paymentMethod),
                        deliverTwice: step.deliverTwice, purchaseId: checkout.purchaseId, parsedUrl: checkout.parsedUrl,
                        sdkCustomerId: checkoutCustomerId)
                } catch {
                    // The loader checked every SKU against this catalog, and every offer has a
                    // price in the fallback country; report rather than trap if that changes.
                    try? diagnostics.write(
                        "error: \(scenario.file): step \(step.label): no checkout session: \(error)\n")
                }
                appcharge.settle(at: sdk.virtualMilliseconds)
                if linksOut, let url = scenario.configuration.redirectUrl {
                    redirected = LinkOutFlow.status(after: checkout.player, state: appcharge.lastState)
                    if let status = redirected {
                        collector.write(
                            renderer.render(
                                redirect: status.redirect(to: url), status: status, tag: collector.currentTag))
                    }
                }
            case .refund(let amount, let outcome):
                refusal = Self.act(
                    OrderLife.refund(amount: amount, succeeds: outcome == .refunded), on: appcharge, after: sdk)
            case .dispute(let outcome):
                let goal = OrderLife.DisputeGoal(rawValue: outcome.rawValue) ?? .lost
                refusal = Self.act(
                    appcharge.lastPaidLife?.dispute(to: goal) ?? [.openDispute], on: appcharge, after: sdk)
            case .resolve(let succeeded, let after):
                refusal = Self.resolve(succeeded: succeeded, after: after, on: appcharge, sdk: sdk)
            case .advance(let milliseconds):
                Self.advance(by: milliseconds, on: appcharge, sdk: sdk)
            case .retryAward:
                do {
                    try appcharge.retryAward(after: sdk)
                } catch {
                    refusal = error.message
                }
            }
            appcharge.awardFault = nil
            // An award held back reaches the game once this step's events have.
            if releasesLate { late?.release() }
            if step.waits { holds?.flush() }
            if let failure = collector.failure { throw failure }
            summary.attempts += 1
            result.attempts += 1
            if step.attempt == nil || step.attempt == 1 {
                summary.steps += 1
                result.steps += 1
            }
            if let last = collector.delivered.last {
                result.finalExit = ExitCode(finishingWith: last, catalog: catalog)
            }
            if let redirected { result.finalExit = ExitCode(linkOut: redirected) }
            // Refused as Initiate Refund's 422 refuses it, the step did not happen; an event
            // the game's server refused on every attempt fails the step that sent it.
            let refusals = events.takeRefusals()
            let failures = (refusal.map { ["\(step.kind) refused: \($0)"] } ?? []) + refusals
            // Reconciling with the books, a game that refuses what Appcharge sends breaks its
            // contract, and the books cannot be read past it; a step Appcharge's rules refuse
            // (a history shrunk past the order it acted on) ends the history there.
            if settings.ledger?.checksBooks == true, !failures.isEmpty {
                if let first = refusals.first {
                    summary.cannotRun =
                        "step \(step.label) (\(step.kind)) of player \(scenario.configuration.customerId), order "
                        + "\(appcharge.lastPaid ?? appcharge.lastPending ?? "none"): \(first); check that --events-url "
                        + "names the game's events endpoint (paylinks check-events URL audits it)"
                }
                break
            }
            for failure in failures {
                summary.failed += 1
                result.mismatches.append(
                    .init(
                        step: step.label, kind: step.kind.rawValue, message: failure,
                        position: step.expectation?.positions["expect"]))
                try? diagnostics.write(
                    "mismatch: \(MessageText.oneLine(place)): step \(step.label) (\(step.kind)): "
                        + "\(MessageText.oneLine(failure))\n")
            }
            do {
                // Events or an award held back have not reached the game yet: the books wait.
                let holding = events.holdsEvents || late?.holdsAwards == true
                let reconciled = try books.reconcile(after: step, appcharge: appcharge, holding: holding)
                waited = holding && settings.ledger?.checksBooks == true
                for message in reconciled.mismatches {
                    summary.failed += 1
                    result.mismatches.append(
                        .init(
                            step: step.label, kind: step.kind.rawValue, message: message,
                            position: step.expectation?.positions["ledger"] ?? step.expectation?.positions["expect"]))
                    try? diagnostics.write(
                        MessageText.oneLine("mismatch: \(place): step \(step.label) (\(step.kind)): \(message)") + "\n")
                }
                summary.met += reconciled.met
                result.met += reconciled.met
                if settings.ledger != nil { result.books = books.books }
                if let finding = reconciled.finding {
                    result.finding = finding
                    break
                }
            } catch {
                summary.cannotRun = error.withAdvice
                break
            }
            if let expectation = step.expectation {
                var checks = Self.check(
                    expectation, against: collector.delivered, catalog: catalog,
                    order: (state: appcharge.lastState, events: events.takeDelivered().map(\.v2Name)))
                if let expected = expectation.redirect {
                    checks.append(Self.redirectMismatches(expected: expected, got: redirected, linksOut: linksOut))
                }
                summary.met += checks.filter(\.isEmpty).count
                result.met += checks.filter(\.isEmpty).count
                summary.failed += checks.filter { !$0.isEmpty }.count
                for mismatch in checks.joined() {
                    // A mismatch names what it checked first: `order.price: ...` stands at "price"
                    // inside "order"; a key the callback lacked, at its nearest expected parent.
                    let path = String(
                        mismatch.firstOccurrence(of: ": ").map { mismatch[..<$0.lowerBound] } ?? Substring(mismatch))
                    let key = String(path.prefix { $0 != "." && $0 != "[" })
                    let position =
                        expectation.positions[path] ?? expectation.positions[key] ?? expectation.positions["expect"]
                    result.mismatches.append(
                        .init(step: step.label, kind: step.kind.rawValue, message: mismatch, position: position))
                    try? diagnostics.write(
                        MessageText.oneLine("mismatch: \(place): step \(step.label) (\(step.kind)): \(mismatch)") + "\n"
                    )
                }
            }
        }
        // A last step that did not wait still gets its result, and events held back go out.
        holds?.flush()
        let heldBack = events.holdsEvents || late?.holdsAwards == true || waited
        events.releaseHeld()
        late?.release()
        // What went out last is reconciled too, unless a difference was found already.
        if heldBack, result.finding == nil, summary.cannotRun == nil, let last = scenario.steps.last {
            do {
                result.finding = try books.reconcile(after: last, appcharge: appcharge, holding: false).finding
            } catch {
                summary.cannotRun = error.withAdvice
            }
        }
        result.milliseconds = sdk.elapsedMilliseconds
        if let failure = collector.failure { throw failure }
    }

    /// Takes `actions` on the last paid order in turn; the rule the first refused one
    /// breaks, or nil when all were taken.
    private static func act(
        _ actions: [OrderLife.Action], on appcharge: AppchargeBackend, after sdk: PaymentLinksSimulator
    ) -> String? {
        for action in actions {
            do {
                try appcharge.act(action, after: sdk)
            } catch {
                return error.message
            }
        }
        return nil
    }

    /// A fitting status code for `step`, with probability `rate`.
    private func randomFault(for step: ScenarioStep, rate: Double, using generator: inout SeededGenerator) -> Int? {
        guard rate > 0 else { return nil }
        let draw = Double(generator.next() >> 11) / Double(1 << 53)
        let fitting = catalog.statusCodes.filter { $0.steps.contains(step.failureStep) }
        guard draw < rate, !fitting.isEmpty else { return nil }
        return fitting[Int(generator.next() % UInt64(fitting.count))].code
    }

}
