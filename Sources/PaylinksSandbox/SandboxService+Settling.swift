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
        for (purchaseId, scheduled, attempts) in finished {
            takeIn(scheduled) { settleAward(purchaseId, scheduled, attempts) }
        }
    }

    /// Records an award that ended, as ``settleAwards(_:)`` says.
    private func settleAward(_ purchaseId: String, _ scheduled: Scheduled<GrantAward>, _ attempts: [DeliveryAttempt]) {
        let award = scheduled.item
        for attempt in attempts { log.write(line: Self.awardLine(purchaseId, attempt)) }
        if scheduled.only != nil {
            settleStep(.award, purchaseId: purchaseId, name: "award", scheduled, attempts)
            return
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
            return
        }
        sandbox.awardDelivered(purchaseId: purchaseId, failureData: AwardDelivery.failureData(attempts))
    }

    /// Records the events that ended and says how each attempt went.
    func settleEvents(_ finished: [EventQueue.Ended]) {
        for (purchaseId, scheduled, attempts) in finished {
            let event = scheduled.item
            for attempt in attempts { log.write(line: Self.eventLine(event.label, of: purchaseId, attempt)) }
            takeIn(scheduled) {
                if scheduled.only != nil {
                    settleStep(.event, purchaseId: purchaseId, name: event.label, scheduled, attempts)
                } else if let url = events?.destination {
                    sandbox.delivered(
                        .event, purchaseId: purchaseId, name: event.label, url: url.description, body: event.body,
                        attempts: attempts)
                }
            }
        }
    }

    /// How the log says an award's attempt went.
    static func awardLine(_ purchaseId: String, _ attempt: DeliveryAttempt) -> String {
        // The game's server's own words say why it refused: a stale signature, say.
        let said = attempt.publisherErrorMessage.map { ", saying \"\($0)\"" } ?? ""
        let result = attempt.publisherPurchaseId.map { "granted as \($0)" } ?? "failed: \(attempt.failure ?? "")\(said)"
        return MessageText.oneLine(
            "award \(purchaseId) attempt \(attempt.number): \(result) (\(attempt.milliseconds) ms)")
    }

    /// How the log says an event's attempt went.
    static func eventLine(_ label: String, of purchaseId: String, _ attempt: DeliveryAttempt) -> String {
        let status = attempt.status.map { "\($0), " } ?? ""
        let result = attempt.succeeded ? "accepted" : "refused: \(attempt.failure ?? "")"
        return MessageText.oneLine(
            "event \(label) of \(purchaseId) attempt \(attempt.number): \(result) (\(status)\(attempt.milliseconds) ms)"
        )
    }

    /// Takes in the one attempt a queue made of an award or an event on a virtual clock:
    /// the delivery gains it, and the clock holds the next when its schedule has one; an
    /// award that has ended decides its order.
    func settleStep<Item: Deliverable>(
        _ kind: DeliveryHistory.Kind, purchaseId: String, name: String, _ scheduled: Scheduled<Item>,
        _ attempts: [DeliveryAttempt]
    ) {
        guard let attempt = attempts.first,
            let url = kind == .award ? awards?.destination : events?.destination
        else { return }
        let item = scheduled.item
        let before = scheduled.continuing.flatMap { sandbox.history.delivery(id: "dl_\($0)") }?.attempts ?? []
        let all = before + [attempt]
        let next = item.isDone(all) ? nil : attempt.sentAt + item.retryDelays[all.count]
        let delivery = sandbox.attempted(
            kind, purchaseId: purchaseId, name: name, url: url.description, body: item.body, attempt: attempt,
            continuing: scheduled.continuing, nextAttemptAt: next)
        if let next {
            log.write(
                line: "\(delivery.id) (\(name) of \(purchaseId)): attempt \(all.count + 1) at "
                    + "\(ClockText.iso8601(milliseconds: next)) on the clock")
            return
        }
        if !attempt.succeeded {
            log.write(
                line: "\(delivery.id) (\(name) of \(purchaseId)): given up after \(all.count) attempt"
                    + "\(all.count == 1 ? "" : "s"); POST /control/v1/deliveries/\(delivery.id)/replay sends it again")
        }
        if kind == .award {
            sandbox.awardDelivered(purchaseId: purchaseId, failureData: AwardDelivery.failureData(all))
        }
    }

    /// Hands the next attempt of `delivery`, which a virtual clock reached, to its queue.
    func retry(_ delivery: DeliveryHistory.Delivery) {
        let number = delivery.attempts.count + 1
        switch delivery.kind {
        case .award:
            if let awards, let award = GrantAward(delivered: delivery) {
                let sentAfter = award.retryDelays.prefix(number).reduce(0, +)
                awards.submit(
                    scheduled(award, only: (number, sentAfter), continuing: delivery.number), id: delivery.purchaseId)
                return
            }
        case .event:
            if let events, let event = OrderEvent(delivered: delivery) {
                let sentAfter = event.retryDelays.prefix(number).reduce(0, +)
                events.submit(
                    scheduled(event, only: (number, sentAfter), continuing: delivery.number), id: delivery.purchaseId)
                return
            }
        }
        // Started again without the endpoint it went to: the delivery ends here.
        var attempt = DeliveryAttempt(number: number, sentAfter: 0, headers: [])
        attempt.sentAt = sandbox.now
        attempt.failure = "not sent: serve has no --\(delivery.kind == .award ? "award" : "events")-url now"
        log.write(
            line:
                "\(delivery.id) (\(delivery.name) of \(delivery.purchaseId)): attempt \(number) \(attempt.failure ?? "")"
        )
        sandbox.attempted(
            delivery.kind, purchaseId: delivery.purchaseId, name: delivery.name, url: delivery.url,
            body: delivery.body, attempt: attempt, continuing: delivery.number, nextAttemptAt: nil)
        if delivery.kind == .award {
            sandbox.awardDelivered(
                purchaseId: delivery.purchaseId, failureData: AwardDelivery.failureData(delivery.attempts + [attempt]))
        }
    }

    /// Records the replays that ended, each as a delivery of its own that names the one it
    /// sent again.
    func settleReplays(_ finished: [DeliveryQueue<Replay>.Ended]) {
        for (id, replay, attempts) in finished {
            ended(epoch: replay.epoch)
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
        ledger?.finish()
        let (lastAwards, unsentAwards) = awards?.finishAll() ?? ([], [])
        // Those a tick had no time for first: they ended before.
        settleAwards(endedAwards + lastAwards)
        endedAwards = []
        for (purchaseId, _) in unsentAwards {
            log.write(line: "award \(purchaseId): not sent, the sandbox stopped before its turn\(resumed)")
        }
        let (lastEvents, unsentEvents) = events?.finishAll() ?? ([], [])
        settleEvents(endedEvents + lastEvents)
        endedEvents = []
        for (purchaseId, scheduled) in unsentEvents {
            let event = scheduled.item
            log.write(
                line: MessageText.oneLine(
                    "\(Self.named(event, of: purchaseId)): not sent, the sandbox stopped before its turn"))
        }
        // What a virtual clock holds goes on at the next start with the same --data, or never.
        for delivery in sandbox.history.retrying {
            log.write(
                line: MessageText.oneLine(
                    "\(delivery.id) (\(delivery.name) of \(delivery.purchaseId)): attempt "
                        + "\(delivery.attempts.count + 1), due at "
                        + "\(ClockText.iso8601(milliseconds: delivery.nextAttemptAt ?? 0)) on the clock, "
                        + (journal == nil
                            ? "is not sent: the sandbox kept nothing (start it with --data to keep what waits)"
                            : "is sent once the clock passes it after the next start with this --data")))
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
