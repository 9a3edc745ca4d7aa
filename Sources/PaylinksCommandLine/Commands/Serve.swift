import PaylinksAppcharge
import PaylinksDelivery
import PaylinksFixtures
import PaylinksHTTP
import PaylinksKit
import PaylinksSandbox

/// `paylinks serve`: the sandbox on an HTTP server until SIGINT or SIGTERM; requests,
/// warnings and award attempts on stderr, a line each; the callbacks the game's client
/// receives on stdout.
enum ServeCommand: Subcommand {
    static func run(_ options: RunOptions, catalog: Catalog, context: RunContext) throws(CLIError) -> ExitCode {
        // Room for every connection, the award pool and the files, past the usual 1,024.
        context.raiseDescriptorLimit(HTTPServer.Limits().connections + 1024)
        // What the sessions are made with; the rest of the settings follow once the server listens.
        var settings = Sandbox.Settings(baseURL: "", publisherToken: "", seed: options.seed ?? context.entropy())
        settings.sessionByteBudget = options.sessionBudget << 20
        let clock = { context.clock() * 1000 }
        // The data directory first: a bad one is refused before anything listens. Its records
        // go into a sandbox of its seed, which the journal's first line names, one at a time.
        var restored: Sandbox?
        let kept = try options.dataDirectory.map { (directory) throws(CLIError) in
            return try SandboxStore.open(directory, seed: options.seed, newSeed: { settings.seed }) { journalSeed in
                settings.seed = journalSeed
                let sandbox = Sandbox(catalog: catalog, settings: settings, clock: clock)
                restored = sandbox
                return sandbox.restore
            }
        }
        let server: HTTPServer
        do {
            // What the server refuses on its own is answered as the sandbox answers its errors.
            server = try HTTPServer(host: options.host, port: options.port, refusal: Sandbox.answer(to:))
        } catch {
            switch error {
            case .addressInUse(let address):
                throw .unavailable(
                    "\(address) is in use by another program; stop it, or pick another port with --port (0 picks a free one)"
                )
            case .cannotResolve(let host):
                throw .usage(
                    "--host '\(MessageText.sanitized(host))' is not an address to listen on; use 127.0.0.1, ::1 or 0.0.0.0",
                    command: .serve)
            default:
                throw .unavailable("\(error); pick another --host or --port")
            }
        }
        let uses = [options.awardUrl != nil ? "award callbacks" : nil, options.eventsUrl != nil ? "events" : nil]
            .compactMap { $0 }
        let signing = uses.isEmpty ? nil : try Signing(options: options, context: context)
        let events = try signing.flatMap { (signing) throws(CLIError) in
            options.eventsUrl == nil ? nil : try EventSettings(options: options, signing: signing)
        }
        signing?.note(uses: uses.joined(separator: " and "), context: context)
        let awards = signing.flatMap { signing in
            options.awardUrl.map { AwardSettings(url: $0, signing: signing, options: options) }
        }
        let credentials = Credentials(
            tokenFromOption: options.publisherToken, tokenFromEnvironment: try context.headerValue(of: .publisherToken))
        let token = signing?.publisherToken ?? credentials.publisherToken
        if signing == nil && credentials.usesDemoToken {
            try? context.standardError.write(
                "note: the sandbox takes the demo publisher token '\(token)' (see the README); set "
                    + "PAYLINKS_PUBLISHER_TOKEN or --publisher-token to your studio's own\n")
        }
        let loopback = ["127.0.0.1", "::1", "localhost"].contains(options.host) || options.host.hasPrefix("127.")
        if !loopback {
            try? context.standardError.write(
                "warning: serving on \(options.host), which other machines can reach; its dashboard and control "
                    + "API ask no credentials\n")
        }
        let host = options.host.contains(":") ? "[\(options.host)]" : options.host
        let base = "http://\(host):\(server.port)"
        let sandbox = restored ?? Sandbox(catalog: catalog, settings: settings, clock: clock)
        var answering = sandbox.settings
        answering.baseURL = base
        answering.publisherToken = token
        answering.publicURL = options.publicUrl
        answering.allowedHosts = options.allowedHosts
        answering.eventsVersion = options.eventsVersion
        sandbox.settings = answering
        // The log is written a turn of the server's loop at a time, not a system call a line:
        // at thousands of requests a second that is a tenth of the server's time. A thread of
        // its own writes it, so that a stderr nobody reads (a pipe read only at the end) stalls
        // that thread and not the server; while it is stuck, lines are dropped and counted.
        let log = LogBuffer(context.standardError)
        defer { log.finish(within: LogBuffer.closingMilliseconds) }
        let standardError: any OutputSink = log
        // Every log line quotes what clients and the award endpoint sent: one line each, always.
        sandbox.onLog = { line in try? standardError.write(MessageText.oneLine(line) + "\n") }
        if let (store, warnings) = kept {
            for warning in warnings { try? standardError.write(warning + "\n") }
            store.onWarning = sandbox.onLog
            sandbox.persist = { [unowned sandbox] sessions, deliveries in
                store.keep((sessions, deliveries), live: { (sandbox.snapshot, sandbox.heldDeliveries) })
            }
            try? standardError.write(
                "sandbox data in \(MessageText.sanitized(store.directory)): \(sandbox.sessionCount) "
                    + "session\(sandbox.sessionCount == 1 ? "" : "s") and \(sandbox.heldDeliveries.count) "
                    + "deliver\(sandbox.heldDeliveries.count == 1 ? "y" : "ies") kept\n")
            if sandbox.paidOrderBytes >= sandbox.settings.sessionByteBudget {
                try? standardError.write(
                    "warning: the paid orders kept take \((sandbox.paidOrderBytes + (1 << 20) - 1) >> 20) MiB, all of "
                        + "--session-budget \(options.sessionBudget) MiB: a new session gets 503 until serve starts "
                        + "with a larger --session-budget\n")
            }
            // Rewritten while the sandbox answers when it held more than is kept: the
            // forgotten and the superseded go.
            if store.recordsRead > sandbox.sessionCount + sandbox.heldDeliveries.count {
                store.startRewrite((sandbox.snapshot, sandbox.heldDeliveries))
            }
        }
        server.onProblem = { line in try? standardError.write("warning: \(MessageText.oneLine(line))\n") }
        let renderer = options.format.renderer(
            catalog: catalog, color: PaylinksCLI.usesColor(options, context: context), target: options.target,
            language: options.language)
        var outputFailure: OutputError?
        sandbox.onCallback = { callback in
            guard outputFailure == nil else { return }
            do throws(OutputError) {
                try context.standardOutput.write(renderer.render(callback))
            } catch {
                outputFailure = error
            }
        }
        let queue = awards.map {
            AwardQueue(url: $0.url, key: $0.key, publisherToken: $0.publisherToken, waitsInRealTime: $0.waitsInRealTime)
        }
        // Each queue hands back what was submitted with its attempts, so the history records
        // every delivery with its own request, however the pool's threads finish.
        if let queue {
            sandbox.onPaid = { purchaseId, award in
                try? standardError.write("award \(purchaseId): POST \(queue.destination)\n")
                queue.submit(award, id: purchaseId)
            }
        }
        let eventQueue = events.flatMap { settings in
            settings.url.map {
                // One at a time, so that each order's events arrive in the order they happened.
                EventQueue(
                    url: $0, key: settings.key, publisherToken: settings.publisherToken, projectId: settings.projectId,
                    waitsInRealTime: settings.waitsInRealTime, workers: 1)
            }
        }
        /// How the log names an order's event.
        func named(_ event: OrderEvent, of purchaseId: String) -> String { "event \(event.label) of \(purchaseId)" }
        if let eventQueue {
            sandbox.onOrderEvent = { purchaseId, event in
                try? standardError.write("\(named(event, of: purchaseId)): POST \(eventQueue.destination)\n")
                eventQueue.submit(event, id: purchaseId)
            }
        }
        // Replays from the control API, one attempt each, on two threads of their own.
        let replays = (awards?.url ?? events?.url).map { url in
            DeliveryQueue<Replay>(url: url, workers: 2) {
                DeliveryQueue<Replay>.Sender(deliver: { replay, _ in [replay.send()] }, close: {})
            }
        }
        if let replays {
            sandbox.onReplay = { delivery, resign in
                let key = resign ? (delivery.kind == .award ? awards?.key : events?.key) ?? [] : nil
                let id = "replay of \(delivery.id)"
                try? standardError.write(
                    MessageText.oneLine("\(id) (\(delivery.name) of \(delivery.purchaseId)): POST \(delivery.url)")
                        + "\n")
                replays.submit(Replay(delivery, resigningWith: key), id: id)
            }
        }
        func settleReplays(_ finished: [DeliveryQueue<Replay>.Ended]) {
            for (id, replay, attempts) in finished {
                let original = replay.delivery
                let outcome = attempts.last.map { $0.succeeded ? "accepted" : "refused: \($0.failure ?? "")" } ?? ""
                try? standardError.write(MessageText.oneLine("\(id): \(outcome)") + "\n")
                sandbox.delivered(
                    original.kind, purchaseId: original.purchaseId, name: original.name, url: original.url,
                    body: original.body, attempts: attempts, replayOf: original.number, resigned: replay.key != nil)
            }
        }
        func settleEvents(_ finished: [EventQueue.Ended]) {
            for (purchaseId, event, attempts) in finished {
                if let url = eventQueue?.destination {
                    sandbox.delivered(
                        .event, purchaseId: purchaseId, name: event.label, url: url.description, body: event.body,
                        attempts: attempts)
                }
                for attempt in attempts {
                    let status = attempt.status.map { "\($0), " } ?? ""
                    let result = attempt.succeeded ? "accepted" : "refused: \(attempt.failure ?? "")"
                    try? standardError.write(
                        MessageText.oneLine(
                            "\(named(event, of: purchaseId)) attempt \(attempt.number): \(result) "
                                + "(\(status)\(attempt.milliseconds) ms)") + "\n")
                }
            }
        }
        // With --data, an award a stop left unsent stays charge_pending on the disk, and goes at the next start.
        let resumed = kept == nil ? "" : "; it is sent when the sandbox next starts with this --data"
        func settle(_ finished: [AwardQueue.Ended]) {
            for (purchaseId, award, attempts) in finished {
                for attempt in attempts {
                    let result =
                        attempt.publisherPurchaseId.map { "granted as \($0)" } ?? "failed: \(attempt.failure ?? "")"
                    try? standardError.write(
                        MessageText.oneLine(
                            "award \(purchaseId) attempt \(attempt.number): \(result) (\(attempt.milliseconds) ms)")
                            + "\n")
                }
                if let url = queue?.destination {
                    sandbox.delivered(
                        .award, purchaseId: purchaseId, name: "award", url: url.description, body: award.body,
                        attempts: attempts)
                }
                // A stop ends an award between its attempts: it did not fail, it was not done.
                // Its order stays charge_pending, and a start on the same --data sends it again.
                guard award.isDone(attempts) else {
                    try? standardError.write(
                        "award \(purchaseId): cut short by the stop after \(attempts.count) of "
                            + "\(award.retryDelays.count) attempts; the order stays charge_pending\(resumed)\n")
                    continue
                }
                sandbox.awardDelivered(purchaseId: purchaseId, failureData: AwardDelivery.failureData(attempts))
            }
        }
        let handedOut =
            options.publicUrl.map { "; checkout URLs at \($0)" }
            ?? (loopback ? "" : "; checkout URLs at the address each request came to (its Host)")
        try? standardError.write("paylinks sandbox at \(base)\(handedOut); SIGINT or SIGTERM stops it\n")
        // Awards a stop or a crash left unsent go now: their orders are paid and wait for them.
        sandbox.resumeAwards()
        log.flush()
        let stopRequested = context.watchForStop()
        server.run(
            until: { stopRequested() || outputFailure != nil },
            tick: {
                settle(queue?.takeFinished() ?? [])
                settleEvents(eventQueue?.takeFinished() ?? [])
                settleReplays(replays?.takeFinished() ?? [])
                kept?.store.finishRewrite(waiting: false)
                log.flush()
            },
            prepare: sandbox.prepare, answer: sandbox.answer)
        // Every queue is told before any is waited for: one waited for while another went on
        // would start that one's retries and replays after the stop.
        queue?.stop()
        eventQueue?.stop()
        replays?.stop()
        let (last, unsent) = queue?.finishAll() ?? ([], [])
        settle(last)
        for (purchaseId, _) in unsent {
            try? standardError.write(
                "award \(purchaseId): not sent, the sandbox stopped before its turn\(resumed)\n")
        }
        let (lastEvents, unsentEvents) = eventQueue?.finishAll() ?? ([], [])
        settleEvents(lastEvents)
        for (purchaseId, event) in unsentEvents {
            try? standardError.write(
                MessageText.oneLine("\(named(event, of: purchaseId)): not sent, the sandbox stopped before its turn")
                    + "\n")
        }
        let (lastReplays, unsentReplays) = replays?.finishAll() ?? ([], [])
        settleReplays(lastReplays)
        for (id, _) in unsentReplays {
            try? standardError.write("\(id): not sent, the sandbox stopped before its turn\n")
        }
        // What waited for room on the disk goes now, or an award's outcome would be sent again at the next start.
        if kept != nil, let failure = sandbox.keepWaiting() {
            try? standardError.write(
                "warning: what the sandbox learned last is not on the disk (\(MessageText.oneLine(failure))); the "
                    + "awards of orders it leaves charge_pending are sent again at the next start\n")
        }
        kept?.store.finishRewrite(waiting: true)
        if let outputFailure { throw .output(outputFailure) }
        try? standardError.write("paylinks sandbox stopped\n")
        return .success
    }
}
