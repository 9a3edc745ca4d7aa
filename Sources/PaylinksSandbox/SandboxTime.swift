public import PaylinksAppcharge
import PaylinksFixtures
import PaylinksHTTP
import PaylinksJSON

/// What happens on the sandbox's clock: sessions that expire, pending payments that
/// resolve when scheduled, and, on a virtual clock, the retries of awards and events; the
/// control API's clock, which a test moves, and its resolution of a pending payment.
extension Sandbox {
    /// Something due on the clock.
    enum Timer {
        /// A session's expiry, or a pending payment's resolution.
        case due(CheckoutSessions.Due)
        /// The next attempt of a delivery a virtual clock holds.
        case retry(DeliveryHistory.Delivery)

        /// When it is due, Unix milliseconds.
        var at: Int {
            switch self {
            case .due(let due): due.at
            case .retry(let delivery): delivery.nextAttemptAt ?? 0
            }
        }
    }

    /// A timer that fired during a move of the clock, as the move's answer lists it.
    struct Fired {
        var at: Int
        var timer: String
        var purchaseId: String
        var outcome: String?
        var delivery: DeliveryHistory.Delivery?
        var attempt: Int?
        var result: String?
    }

    /// A move of a virtual clock under way: where it goes, what fired on the way, and the
    /// answer the control API gives once it is there.
    struct Advance {
        /// Where the clock stood when the move began.
        let from: Int
        let target: Int
        let promise: HTTPPromise
        /// Who asked, which decides the answer's shape.
        let reply: Reply
        var fired: [Fired] = []

        /// Who asked for a move, and so how its answer reads.
        enum Reply {
            /// A script, through the control API: the clock and what fired, as JSON.
            case json
            /// The dashboard's form: 303 back to the dashboard, which shows the move.
            case dashboard
        }
    }

    /// The first timer due by `limit`: the earliest, and of two at once a session's before
    /// a retry, and the older first.
    func nextTimer(through limit: Int) -> Timer? {
        let due = sessions.nextDue(through: limit).map(Timer.due)
        let retry = history.nextRetry(through: limit, skipping: retriesInFlight).map(Timer.retry)
        switch (due, retry) {
        case (let due?, let retry?): return retry.at < due.at ? retry : due
        case (let due?, nil): return due
        case (nil, let retry): return retry
        }
    }

    /// Makes `timer` happen now: a session expires, a payment resolves, a delivery's next
    /// attempt goes to its queue. Its effects follow once the change is kept.
    func fire(_ timer: Timer) {
        var fired: Fired
        switch timer {
        case .due(.expiry(let purchaseId, let at)):
            fired = Fired(at: at, timer: "expiry", purchaseId: purchaseId)
            _ = live(purchaseId: purchaseId)
        case .due(.resolution(let purchaseId, let resolution)):
            fired = Fired(at: resolution.at, timer: "resolution", purchaseId: purchaseId, outcome: resolution.outcome)
            resolveNow(purchaseId: purchaseId, succeeded: resolution.succeeded)
        case .retry(let delivery):
            fired = Fired(
                at: delivery.nextAttemptAt ?? now, timer: "retry", purchaseId: delivery.purchaseId,
                delivery: delivery, attempt: delivery.attempts.count + 1)
            retriesInFlight.insert(delivery.number)
            say(
                "\(delivery.id) (\(delivery.name) of \(delivery.purchaseId)): attempt \(delivery.attempts.count + 1) due"
            )
            retry(delivery)
        }
        advance?.fired.append(fired)
        isFiring = true
        defer { isFiring = false }
        if let failure = keep(undoing: false) {
            onLog(
                "warning: what the clock brought about is not on the disk yet, it is kept with the next change: "
                    + failure)
        }
    }

    /// Fires every timer due by the wall clock: expiries and scheduled resolutions happen
    /// at their time, not when next asked about. For a sandbox on the wall clock.
    public func fireDue() {
        guard clock.mode == .wall else { return }
        let end = Deadline.nowMilliseconds() + Self.turnMilliseconds
        while Deadline.nowMilliseconds() < end, let timer = nextTimer(through: now) { fire(timer) }
    }

    /// How long one turn fires timers at most, in milliseconds, so that however many fall
    /// due, the server answers everyone else between turns.
    static let turnMilliseconds = 20

    /// Whether a move of the clock is under way.
    public var isAdvancing: Bool { advance != nil }

    /// Goes on with the move of the clock under way while `isIdle` says nothing sent is
    /// out (each timer's deliveries end before the next fires, so they happen in time
    /// order): fires the next timer the move passes, at its time; past the last, stands
    /// the clock at the move's end and gives its answer. Returns whether the turn ended
    /// with timers left to fire now.
    @discardableResult
    public func stepAdvance(isIdle: () -> Bool) -> Bool {
        let end = Deadline.nowMilliseconds() + Self.turnMilliseconds
        // Only the move's end is read while timers fire: a copy of the move held meanwhile
        // would share the list of what fired, and each timer's entry would copy it whole.
        while let target = advance?.target, isIdle() {
            guard Deadline.nowMilliseconds() < end else { return true }
            guard let timer = nextTimer(through: target) else {
                guard let advance else { return false }
                clock.move(to: advance.target)
                if let failure = keep(undoing: false) {
                    onLog(
                        "warning: the clock's time is not on the disk yet, it is kept with the next change: \(failure)")
                }
                self.advance = nil
                lastMove = Move(advance, to: now)
                onLog(
                    "clock: at \(ClockText.iso8601(milliseconds: now)), \(advance.fired.count) timer"
                        + "\(advance.fired.count == 1 ? "" : "s") fired")
                switch advance.reply {
                case .json: give(advance.promise, Self.clockJSON(mode: clock.mode, now: now, fired: advance.fired))
                case .dashboard: give(advance.promise, backHome(Self.movedText(advance, to: now)))
                }
                return false
            }
            clock.move(to: timer.at)
            fire(timer)
        }
        return false
    }

    /// Ends a move of the clock cut short by a stop: its answer says where the clock stands.
    public func stopAdvance() {
        guard let advance else { return }
        self.advance = nil
        let message =
            "the sandbox stopped at \(ClockText.iso8601(milliseconds: now)), before the clock reached "
            + "\(ClockText.iso8601(milliseconds: advance.target)); attempts under way end first, each within "
            + "10 s; "
            + (persist == nil
                ? "what waited on the clock is gone (serve --data keeps it)"
                : "start it again with the same --data and move the clock on")
        switch advance.reply {
        case .json: give(advance.promise, Self.problem(503, message))
        case .dashboard: give(advance.promise, Self.stoppedPage(message))
        }
    }

    /// Gives `promise` the answer `status` with `body`, finished as every answer is.
    private func give(_ promise: HTTPPromise, _ body: [UInt8], status: Int = 200) {
        give(promise, HTTPServerResponse(status: status, body: body))
    }

    func give(_ promise: HTTPPromise, _ response: HTTPServerResponse) {
        var response = response
        guardian.finish(&response)
        promise.give(response)
        onLog("clock: the move is answered \(response.status)")
    }

    /// Resolves the pending payment of `purchaseId` now; a session no longer pending is
    /// left as it is.
    private func resolveNow(purchaseId: String, succeeded: Bool) {
        guard let (_, events) = try? sessions.resolve(purchaseId: purchaseId, succeeded: succeeded, now: now) else {
            return
        }
        say("session \(purchaseId): the pending payment \(succeeded ? "succeeded" : "failed")")
        report(events)
    }

    /// Takes in the attempt a queue made of a delivery on a virtual clock: the first of a
    /// new delivery, or the next of `continuing`; `nextAttemptAt` says when the one after is
    /// due (nil: the delivery has ended). The delivery as it now stands.
    @discardableResult
    public func attempted(
        _ kind: DeliveryHistory.Kind, purchaseId: String, name: String, url: String, body: [UInt8],
        attempt: DeliveryAttempt, continuing: Int?, nextAttemptAt: Int?
    ) -> DeliveryHistory.Delivery {
        let result = attempt.succeeded ? "accepted" : "refused: \(attempt.failure ?? "")"
        guard let number = continuing, var delivery = history.delivery(id: "dl_\(number)") else {
            return delivered(
                kind, purchaseId: purchaseId, name: name, url: url, body: body, attempts: [attempt],
                nextAttemptAt: nextAttemptAt)
        }
        retriesInFlight.remove(number)
        delivery.attempts.append(attempt)
        delivery.nextAttemptAt = nextAttemptAt
        if let index = advance?.fired.lastIndex(where: { $0.delivery?.number == number && $0.result == nil }) {
            advance?.fired[index].result = result
        }
        history.update(delivery)
        keepDelivered(delivery)
        return delivery
    }

    /// The clock as the control API shows it, with what a move fired.
    static func clockJSON(mode: SandboxClock.Mode, now: Int, fired: [Fired]? = nil) -> [UInt8] {
        var writer = JSONWriter()
        writer.openObject()
        writer.field("mode", mode.rawValue)
        writer.field("now", ClockText.iso8601(milliseconds: now))
        if let fired {
            writer.key("fired")
            writer.openArray()
            for entry in fired {
                writer.openObject()
                writer.field("at", ClockText.iso8601(milliseconds: entry.at))
                writer.field("timer", entry.timer)
                writer.field("purchaseId", entry.purchaseId)
                if let outcome = entry.outcome { writer.field("outcome", outcome) }
                if let delivery = entry.delivery {
                    writer.field("delivery", delivery.id)
                    writer.field("kind", delivery.kind.rawValue)
                    writer.field("name", delivery.name)
                }
                if let attempt = entry.attempt { writer.field("attempt", attempt) }
                if let result = entry.result { writer.field("result", result) }
                writer.closeObject()
            }
            writer.closeArray()
        }
        writer.closeObject()
        return writer.bytes
    }

    // MARK: The control API

    /// `GET /control/v1/health`: 200 once the sandbox answers, with its version, the
    /// sessions it holds, whether `--data` keeps them, and its clock.
    func health() -> HTTPAnswer {
        var writer = JSONWriter()
        writer.openObject()
        writer.field("status", "ok")
        writer.field("version", settings.version)
        writer.field("sessions", sessionCount)
        writer.field("data", persist != nil)
        writer.key("clock")
        writer.json(Self.clockJSON(mode: clock.mode, now: now))
        writer.closeObject()
        return .ready(HTTPServerResponse(status: 200, body: writer.bytes))
    }

    /// `GET /control/v1/clock`: the clock's mode and time.
    func clockState() -> HTTPAnswer {
        .ready(HTTPServerResponse(status: 200, body: Self.clockJSON(mode: clock.mode, now: now)))
    }

    /// `POST /control/v1/clock` with `{"advance": "PT15M"}` or `{"to": "2026-12-01T11:00:00Z"}`:
    /// moves a virtual clock forward, every timer it passes firing in time order; the
    /// answer comes once they all have, and lists them.
    func moveClock(_ request: HTTPRequest) -> HTTPAnswer {
        let shape = #"send {"advance": "PT15M"} (an ISO 8601 duration) or {"to": "2026-12-01T11:00:00Z"}"#
        let read = Self.jsonObject(request)
        guard case .success(let members) = read else { return .ready(read.refusal(shape)) }
        guard members.count == 1, let (key, value) = members.first, key == "advance" || key == "to" else {
            let keys = members.map { "\"\(Reports.quoted(String($0.key.prefix(40))))\"" }.joined(separator: ", ")
            return .ready(
                Self.problem(
                    400, "the clock takes exactly one of advance and to, not \(keys.isEmpty ? "none" : keys); \(shape)")
            )
        }
        guard case .string(let text) = value.kind else {
            return .ready(Self.problem(400, "\(key) must be a string, not \(value.typeDescription); \(shape)"))
        }
        return startMove(key, text, reply: .json)
    }

    /// Starts a move of a virtual clock by `key`: `advance`, an ISO 8601 duration, or `to`,
    /// a time, given as `text`; the move's answer, awaited, goes to whoever `reply` names.
    /// A wall clock, a move under way, a text that is no forward move: the problem, at once.
    func startMove(_ key: String, _ text: String, reply: Advance.Reply) -> HTTPAnswer {
        guard clock.mode == .virtual else {
            return .ready(
                Self.problem(
                    409,
                    "the sandbox runs on the wall clock, which moves by itself; start serve with --clock virtual "
                        + "to move it"))
        }
        guard advance == nil else {
            return .ready(
                Self.problem(409, "the clock is moving already; send the next move once that one's answer came"))
        }
        let target: Int
        do throws(ClockText.Problem) {
            if key == "advance" {
                let (sum, overflow) = now.addingReportingOverflow(try ClockText.durationMilliseconds(text))
                target = overflow ? .max : sum
            } else {
                target = try ClockText.unixMilliseconds(text)
            }
        } catch {
            return .ready(Self.problem(400, error.message(for: key)))
        }
        guard target <= SandboxClock.latest else {
            return .ready(
                Self.problem(400, "\(key) '\(Reports.quoted(text))' goes past the end of 9999, where the clock stops"))
        }
        guard target > now else {
            return .ready(
                Self.problem(
                    409,
                    "the clock is at \(ClockText.iso8601(milliseconds: now)) and moves only forward; give a later "
                        + "to, or an advance"))
        }
        // A move cannot be undone once its timers fire: after the disk refused a write, the
        // clock's time is written first, and a move the disk still refuses is answered 503
        // before anything moves, so that the 503 means nothing happened.
        if lastFailure != nil, let persist {
            if let failure = persist(SandboxJournalChange(clock: now)) {
                lastFailure = now
                return .ready(Self.notKept(failure))
            }
            lastFailure = nil
            clockKept = now
        }
        let promise = HTTPPromise(awaited: "once the clock is there")
        advance = Advance(from: now, target: target, promise: promise, reply: reply)
        movesStarted += 1
        say("clock: moving from \(ClockText.iso8601(milliseconds: now)) to \(ClockText.iso8601(milliseconds: target))")
        return .awaited(promise)
    }

    /// `POST /control/v1/sessions/ID/resolve` with `{"outcome": "succeeded" | "failed"}` and
    /// optionally `"after": "PT5M"`: a pending payment resolves now, or is scheduled to on
    /// the clock. The session as it then stands.
    func resolve(purchaseId: String, _ request: HTTPRequest) -> HTTPAnswer {
        let shape = #"send {"outcome": "succeeded"} or {"outcome": "failed"}, and "after": "PT5M" to resolve later"#
        let read = Self.jsonObject(request)
        guard case .success(let members) = read else { return .ready(read.refusal(shape)) }
        var succeeded: Bool?
        var after: Int?
        for (key, value) in members {
            switch (key, value.kind) {
            case ("outcome", .string(let text)) where text == "succeeded" || text == "failed":
                succeeded = text == "succeeded"
            case ("outcome", _):
                return .ready(Self.problem(400, "outcome is succeeded or failed, not \(Self.shown(value)); \(shape)"))
            case ("after", .string(let text)):
                do throws(ClockText.Problem) {
                    after = try ClockText.durationMilliseconds(text)
                } catch {
                    return .ready(Self.problem(400, error.message(for: "after")))
                }
            case ("after", _):
                return .ready(Self.problem(400, "after must be a string, not \(value.typeDescription); \(shape)"))
            default:
                return .ready(
                    Self.problem(
                        400,
                        "resolve takes outcome and after, not \"\(Reports.quoted(String(key.prefix(40))))\"; \(shape)"))
            }
        }
        guard let succeeded else { return .ready(Self.problem(400, "outcome is missing; \(shape)")) }
        return resolvePending(purchaseId: purchaseId, succeeded: succeeded, after: after)
    }

    /// Resolves the pending payment of `purchaseId` now, or, `after` milliseconds from now,
    /// schedules it to on the clock (202). The session as it then stands; 404 without a
    /// live session, 409 for one not pending.
    func resolvePending(purchaseId: String, succeeded: Bool, after: Int?) -> HTTPAnswer {
        guard live(purchaseId: purchaseId) != nil else { return .ready(noSession(purchaseId)) }
        do throws(CheckoutSessions.ResolveProblem) {
            if let after {
                let (at, overflow) = now.addingReportingOverflow(after)
                guard !overflow, at <= SandboxClock.latest else {
                    return .ready(Self.problem(400, "after goes past the end of 9999, where the clock stops"))
                }
                let session = try sessions.schedule(.init(succeeded: succeeded, at: at), purchaseId: purchaseId)
                say(
                    "session \(purchaseId): the pending payment is to \(succeeded ? "succeed" : "fail") at "
                        + ClockText.iso8601(milliseconds: at))
                return Self.stateAnswer(session, status: 202)
            }
            let (_, events) = try sessions.resolve(purchaseId: purchaseId, succeeded: succeeded, now: now)
            say("session \(purchaseId): the pending payment \(succeeded ? "succeeded" : "failed")")
            report(events)
            guard let session = live(purchaseId: purchaseId) else { return .ready(noSession(purchaseId)) }
            return Self.stateAnswer(session)
        } catch {
            return .ready(Self.problem(error.noSession ? 404 : 409, error.message))
        }
    }

    /// A JSON value as a message quotes it: a string in quotes, else its type.
    private static func shown(_ value: JSONValue) -> String {
        if case .string(let text) = value.kind { return "'\(Reports.quoted(String(text.prefix(40))))'" }
        return value.typeDescription
    }
}
