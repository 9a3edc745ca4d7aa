import PaylinksAppcharge
import PaylinksFixtures
import PaylinksHTTP
import PaylinksJSON
import PaylinksKit

/// The forms that work the clock from the pages: the dashboard's move of a virtual clock,
/// and a pending payment resolved now or later, from the checkout page or an order's page.
extension Sandbox {
    /// A move of the clock that ended: from where to where, and the first of what it fired.
    struct Move {
        /// Where the clock stood before, Unix milliseconds.
        let from: Int
        /// Where it stands after.
        let to: Int
        /// The first ``firedShown`` timers it fired, in the order they fired.
        let fired: [Fired]
        /// How many it fired in all.
        let firedCount: Int

        /// The move `advance` made, ended at `to`.
        init(_ advance: Advance, to: Int) {
            from = advance.from
            self.to = to
            fired = Array(advance.fired.prefix(Self.firedShown))
            firedCount = advance.fired.count
        }

        /// The most fired timers the dashboard lists.
        static let firedShown = 100
    }

    /// What the dashboard says of a move that ended at `to`.
    static func movedText(_ advance: Advance, to: Int) -> String {
        let count = advance.fired.count
        return "the clock moved to \(ClockText.iso8601(milliseconds: to)); \(count) timer\(count == 1 ? "" : "s") fired"
    }

    /// 503 to the dashboard's form whose move a stop cut short: a page that says `message`.
    static func stoppedPage(_ message: String) -> HTTPServerResponse {
        HTTPServerResponse(
            status: 503, contentType: html,
            body: Array(SandboxPage.refused(title: "Stopped", SandboxPage.escaped(message)).utf8))
    }

    /// The dashboard's form, `advance=PT15M`: moves a virtual clock as the control API does,
    /// and, once every timer it passed has fired, goes back to the dashboard, which shows
    /// the move; a move refused goes back at once, saying why.
    func clockForm(_ request: HTTPRequest) -> HTTPAnswer {
        let text = Self.trimmed(Self.form(request.body)["advance"] ?? "")
        let answer = startMove("advance", text, reply: .dashboard)
        if case .ready(let refusal) = answer {
            return .ready(backHome(Self.problemText(refusal), problem: true))
        }
        return answer
    }

    /// An order's form `resolve`: `outcome=succeeded` or `failed`, now, or with `minutes`
    /// after that many minutes on the clock; then back to the page with what it came to.
    func resolveForm(purchaseId: String, _ form: [String: String]) -> HTTPServerResponse {
        guard let outcome = form["outcome"], outcome == "succeeded" || outcome == "failed" else {
            return back(to: purchaseId, "choose succeeded or failed", problem: true)
        }
        var after: Int?
        if let typed = form["minutes"] {
            switch Self.minutes(typed) {
            case .success(let milliseconds): after = milliseconds
            case .failure(let problem): return back(to: purchaseId, problem.message, problem: true)
            }
        }
        let answer = resolvePending(purchaseId: purchaseId, succeeded: outcome == "succeeded", after: after)
        guard (200..<300).contains(answer.status) else {
            return back(to: purchaseId, Self.problemText(answer.response), problem: true)
        }
        guard let session = live(purchaseId: purchaseId) else { return back(to: purchaseId, "done") }
        if let resolution = session.resolution {
            return back(
                to: purchaseId,
                "scheduled: the pending payment \(resolution.succeeded ? "succeeds" : "fails") at "
                    + ClockText.iso8601(milliseconds: resolution.at))
        }
        return back(to: purchaseId, "done: the order is \(session.state.rawValue)")
    }

    /// Why a later resolution or a number of minutes a form or a script sent is refused.
    struct LaterProblem: Error {
        /// What the page says.
        let message: String
    }

    /// The most minutes a form takes: a year.
    static let minutesLimit = 525_600

    /// The milliseconds of the minutes `typed` in a form: a whole number from 1 to
    /// ``minutesLimit``, spaces around it allowed.
    static func minutes(_ typed: String) -> Result<Int, LaterProblem> {
        let text = trimmed(typed)
        guard let number = Int(text), (1...minutesLimit).contains(number) else {
            return .failure(
                LaterProblem(
                    message: "minutes must be a whole number from 1 to \(minutesLimit) (a year), not "
                        + "'\(quoted(text))'"))
        }
        return .success(number * 60_000)
    }

    /// What the checkout page's pending choice asks for: the payment resolved
    /// (`resolve=succeeded` or `failed`) `minutes` after it was left pending; nil when the
    /// form asks for no resolution; the 400 when it asks for one wrongly.
    static func laterResolution(_ form: [String: String]) -> Result<(succeeded: Bool, after: Int)?, LaterProblem> {
        guard let outcome = form["resolve"] else { return .success(nil) }
        guard outcome == "succeeded" || outcome == "failed" else {
            return .failure(LaterProblem(message: "resolve is succeeded or failed, not '\(quoted(outcome))'"))
        }
        return minutes(form["minutes"] ?? "").map { (outcome == "succeeded", $0) }
    }

    /// Schedules the pending payment of `purchaseId` to resolve `after` milliseconds from
    /// now, on the clock; the session as it then stands, or nil when it is not pending or
    /// the time is past the end of 9999.
    func schedule(purchaseId: String, succeeded: Bool, after: Int) -> CheckoutSessions.Session? {
        let (at, overflow) = now.addingReportingOverflow(after)
        guard !overflow, at <= SandboxClock.latest,
            let session = try? sessions.schedule(.init(succeeded: succeeded, at: at), purchaseId: purchaseId)
        else { return nil }
        say(
            "session \(purchaseId): the pending payment is to \(succeeded ? "succeed" : "fail") at "
                + ClockText.iso8601(milliseconds: at))
        return session
    }
}

extension Sandbox {
    /// The `resolve` member of a script's `complete`, `{"outcome": "succeeded" | "failed",
    /// "after": "PT5M"}`, which goes with the choice `pending` only: whether the payment
    /// succeeds and after how many milliseconds; the 400's words when it is wrong.
    static func laterResolution(_ value: JSONValue, choice: CheckoutSessions.Choice)
        -> Result<(succeeded: Bool, after: Int), LaterProblem>
    {
        let shape = #"with "choice": "pending", send "resolve": {"outcome": "succeeded" | "failed", "after": "PT5M"}"#
        guard choice == .pending else {
            return .failure(LaterProblem(message: "resolve goes with the choice pending only; \(shape)"))
        }
        guard case .object(let members) = value.kind else {
            return .failure(LaterProblem(message: "resolve must be an object, not \(value.typeDescription); \(shape)"))
        }
        var succeeded: Bool?
        var after: Int?
        for (key, member) in members {
            switch (key, member.kind) {
            case ("outcome", .string(let text)) where text == "succeeded" || text == "failed":
                succeeded = text == "succeeded"
            case ("after", .string(let text)):
                do throws(ClockText.Problem) {
                    after = try ClockText.durationMilliseconds(text)
                } catch {
                    return .failure(LaterProblem(message: error.message(for: "resolve.after")))
                }
            case ("outcome", _):
                return .failure(LaterProblem(message: "resolve.outcome is succeeded or failed; \(shape)"))
            case ("after", _):
                return .failure(
                    LaterProblem(message: "resolve.after must be a string, not \(member.typeDescription); \(shape)"))
            default:
                return .failure(
                    LaterProblem(
                        message: "resolve takes outcome and after, not \"\(Reports.quoted(String(key.prefix(40))))\"; "
                            + shape))
            }
        }
        guard let succeeded, let after else {
            return .failure(LaterProblem(message: "resolve needs outcome and after; \(shape)"))
        }
        return .success((succeeded, after))
    }
}
