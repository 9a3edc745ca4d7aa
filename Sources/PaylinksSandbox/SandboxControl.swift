import PaylinksAppcharge
import PaylinksHTTP
import PaylinksJSON
import PaylinksKit

/// The control API's changes to an order after its payment: a refund, a dispute and
/// Retry Award.
extension Sandbox {
    /// `{"outcome": "refunded" | "failed", "amount": N}`: a refund of the session's order.
    func controlRefund(purchaseId: String, _ request: HTTPRequest) -> HTTPAnswer {
        let shape = #"send {"outcome": "refunded" or "failed", "amount": N (minor units, optional)}"#
        let read = Self.jsonObject(request)
        guard case .success(let members) = read else { return .ready(read.refusal(shape)) }
        var succeeds = true
        var amount: Int?
        for (key, value) in members {
            switch (key, value.kind) {
            case ("outcome", .string("refunded")): succeeds = true
            case ("outcome", .string("failed")): succeeds = false
            case ("amount", .number(let text)):
                guard let session = live(purchaseId: purchaseId) else { return .ready(noSession(purchaseId)) }
                guard let number = value.wholeNumber, (1...max(1, session.price)).contains(number) else {
                    return .ready(
                        Sandbox.problem(
                            400, "amount \(Self.quoted(text)) is not \(Self.amountRule(session)); \(shape)"))
                }
                amount = number
            default: return .ready(Sandbox.problem(400, shape))
            }
        }
        return control(purchaseId: purchaseId, OrderLife.refund(amount: amount, succeeds: succeeds))
    }

    /// `{"outcome": "open" | "won" | "lost"}`: a dispute of the session's order.
    func controlDispute(purchaseId: String, _ request: HTTPRequest) -> HTTPAnswer {
        let shape = #"send {"outcome": "open", "won" or "lost"}"#
        let read = Self.jsonObject(request)
        guard case .success(let members) = read else { return .ready(read.refusal(shape)) }
        // What is wrong first, quoted as sent, then the shape.
        let names = OrderLife.DisputeGoal.allCases.map(\.rawValue)
        var goal: OrderLife.DisputeGoal?
        var wrong = "outcome is missing"
        if let unknown = members.first(where: { $0.key != "outcome" }) {
            wrong = "unknown key '\(Reports.quoted(unknown.key))'" + Self.meant(unknown.key, among: ["outcome"])
        } else if let outcome = members.first?.value {
            if case .string(let text) = outcome.kind {
                goal = OrderLife.DisputeGoal(rawValue: text)
                wrong =
                    "outcome '\(Reports.quoted(text))' is not one of \(names.joined(separator: ", "))"
                    + Self.meant(text, among: names)
            } else {
                wrong = "outcome must be a string, not \(outcome.typeDescription)"
            }
        }
        guard let goal else { return .ready(Sandbox.problem(400, "\(wrong); \(shape)")) }
        guard let session = live(purchaseId: purchaseId) else {
            return .ready(noSession(purchaseId))
        }
        let life = session.life ?? OrderLife(state: session.state, price: session.price)
        return control(purchaseId: purchaseId, life.dispute(to: goal))
    }

    /// What a refund's amount must be, for `session`'s order: "a whole number of minor
    /// units from 1 to 549, the order's price".
    static func amountRule(_ session: CheckoutSessions.Session) -> String {
        "a whole number of minor units from 1 to \(max(1, session.price)), the order's price"
    }

    /// Takes `actions` on the session's order; 200 with its state, or the rule refused.
    func control(purchaseId: String, _ actions: [OrderLife.Action]) -> HTTPAnswer {
        do throws(CheckoutSessions.LifeProblem) {
            try act(actions, on: purchaseId, byOrderId: false)
        } catch {
            switch error {
            case .noOrder: return .ready(noSession(purchaseId))
            case .refused(let refusal): return .ready(Sandbox.problem(422, refusal.message))
            }
        }
        guard let session = live(purchaseId: purchaseId) else {
            return .ready(noSession(purchaseId))
        }
        return Self.stateAnswer(session)
    }

    /// Takes `actions` in turn on the order, reporting each; stops at the first refused.
    /// The session as the last action left it.
    @discardableResult
    func act(_ actions: [OrderLife.Action], on id: String, byOrderId: Bool)
        throws(CheckoutSessions.LifeProblem) -> CheckoutSessions.Session?
    {
        var last: CheckoutSessions.Session?
        for action in actions {
            let (session, events) = try sessions.act(action, on: id, byOrderId: byOrderId, now: now)
            say("order \(session.orderId) \(session.state.rawValue)")
            report(events)
            last = session
        }
        return last
    }

    /// Retry Award, as the dashboard's: the award of a Failed (Charged) order sent again,
    /// `"awardFlow": "manual_retry"`, newly signed; granted, the order is Succeeded.
    func retryAward(purchaseId: String) -> HTTPAnswer {
        guard live(purchaseId: purchaseId) != nil else {
            return .ready(noSession(purchaseId))
        }
        guard onPaid != nil else {
            return .ready(Sandbox.problem(409, Self.noAwardEndpoint))
        }
        let award: GrantAward
        do throws(CheckoutSessions.RetryProblem) {
            award = try sessions.retryAward(purchaseId: purchaseId)
        } catch {
            return .ready(Sandbox.problem(409, error.message))
        }
        say("session \(purchaseId): Retry Award")
        send(award, purchaseId: purchaseId)
        guard let session = live(purchaseId: purchaseId) else {
            return .ready(noSession(purchaseId))
        }
        return Self.stateAnswer(session, status: 202)
    }

    /// Why Retry Award is refused without an award endpoint.
    static let noAwardEndpoint = "the sandbox has no award endpoint: start serve with --award-url"

    /// Why Retry Award refuses the order of `session` now, in the words
    /// ``retryAward(purchaseId:)`` refuses it with; nil when it is allowed.
    func retryRefusal(_ session: CheckoutSessions.Session) -> String? {
        guard onPaid != nil else { return Self.noAwardEndpoint }
        return CheckoutSessions.retryProblem(session)?.message
    }
}
