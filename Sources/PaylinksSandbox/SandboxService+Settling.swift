import PaylinksAppcharge
import PaylinksDelivery
import PaylinksFixtures
import PaylinksHTTP

extension SandboxService {
    /// What the log adds to an award or a replay left unsent by a stop: with a journal,
    /// an award a stop left unsent stays charge_pending on the disk, and goes at the next start.
    private var resumed: String {
        journal == nil ? "" : "; it is sent when the sandbox next starts with this --data"
    }

    /// Records the awards that ended and their attempts, and turns their orders paid,
    /// unless a stop cut them short.
    func settleAwards(_ finished: [AwardQueue.Ended]) {
        for (purchaseId, award, attempts) in finished {
            for attempt in attempts {
                let result =
                    attempt.publisherPurchaseId.map { "granted as \($0)" } ?? "failed: \(attempt.failure ?? "")"
                log.write(
                    line: MessageText.oneLine(
                        "award \(purchaseId) attempt \(attempt.number): \(result) (\(attempt.milliseconds) ms)"))
            }
            if let url = awards?.destination {
                sandbox.delivered(
                    .award, purchaseId: purchaseId, name: "award", url: url.description, body: award.body,
                    attempts: attempts)
            }
            // A stop ends an award between its attempts: it did not fail, it was not done.
            // Its order stays charge_pending, and a start on the same journal sends it again.
            guard award.isDone(attempts) else {
                log.write(
                    line: "award \(purchaseId): cut short by the stop after \(attempts.count) of "
                        + "\(award.retryDelays.count) attempts; the order stays charge_pending\(resumed)")
                continue
            }
            sandbox.awardDelivered(purchaseId: purchaseId, failureData: AwardDelivery.failureData(attempts))
        }
    }

    /// Records the events that ended and says how each attempt went.
    func settleEvents(_ finished: [EventQueue.Ended]) {
        for (purchaseId, event, attempts) in finished {
            if let url = events?.destination {
                sandbox.delivered(
                    .event, purchaseId: purchaseId, name: event.label, url: url.description, body: event.body,
                    attempts: attempts)
            }
            for attempt in attempts {
                let status = attempt.status.map { "\($0), " } ?? ""
                let result = attempt.succeeded ? "accepted" : "refused: \(attempt.failure ?? "")"
                log.write(
                    line: MessageText.oneLine(
                        "\(Self.named(event, of: purchaseId)) attempt \(attempt.number): \(result) "
                            + "(\(status)\(attempt.milliseconds) ms)"))
            }
        }
    }

    /// Records the replays that ended, each as a delivery of its own that names the one it
    /// sent again.
    func settleReplays(_ finished: [DeliveryQueue<Replay>.Ended]) {
        for (id, replay, attempts) in finished {
            let original = replay.delivery
            let outcome = attempts.last.map { $0.succeeded ? "accepted" : "refused: \($0.failure ?? "")" } ?? ""
            log.write(line: MessageText.oneLine("\(id): \(outcome)"))
            sandbox.delivered(
                original.kind, purchaseId: original.purchaseId, name: original.name, url: original.url,
                body: original.body, attempts: attempts, replayOf: original.number, resigned: replay.key != nil)
        }
    }

    /// Tells every queue to stop, each before any is waited for: one waited for while
    /// another went on would start that one's retries and replays after the stop.
    func stopQueues() {
        awards?.stop()
        events?.stop()
        replays?.stop()
    }

    /// Stops the deliveries and takes in how they ended once the server has returned,
    /// then writes what waits for room in the journal, and ends its rewrite.
    public func finish() {
        stopQueues()
        let (lastAwards, unsentAwards) = awards?.finishAll() ?? ([], [])
        settleAwards(lastAwards)
        for (purchaseId, _) in unsentAwards {
            log.write(line: "award \(purchaseId): not sent, the sandbox stopped before its turn\(resumed)")
        }
        let (lastEvents, unsentEvents) = events?.finishAll() ?? ([], [])
        settleEvents(lastEvents)
        for (purchaseId, event) in unsentEvents {
            log.write(
                line: MessageText.oneLine(
                    "\(Self.named(event, of: purchaseId)): not sent, the sandbox stopped before its turn"))
        }
        let (lastReplays, unsentReplays) = replays?.finishAll() ?? ([], [])
        settleReplays(lastReplays)
        for (id, _) in unsentReplays {
            log.write(line: "\(id): not sent, the sandbox stopped before its turn")
        }
        // What waited for room on the disk goes now, or an award's outcome would be sent
        // again at the next start.
        if journal != nil, let failure = sandbox.keepWaiting() {
            log.write(
                line: "warning: what the sandbox learned last is not on the disk (\(MessageText.oneLine(failure))); "
                    + "the awards of orders it leaves charge_pending are sent again at the next start")
        }
        journal?.finishRewrite(waiting: true)
    }
}
