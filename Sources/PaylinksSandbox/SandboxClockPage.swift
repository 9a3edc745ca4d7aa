import PaylinksAppcharge
import PaylinksFixtures
import PaylinksKit

/// The clock as the pages show it: the dashboard's clock, its form and its last move, and
/// the forms that resolve a pending payment later.
extension SandboxPage {
    /// What the dashboard shows of the clock, as the sandbox held it when asked.
    struct ClockView: Sendable {
        /// How the clock moves.
        var mode: SandboxClock.Mode
        /// Its time, Unix milliseconds.
        var now: Int
        /// The forms' token.
        var formToken: String
        /// The last move that ended.
        var lastMove: Sandbox.Move?
        /// What the last form of the dashboard came to, and whether it was refused.
        var said: String?
        var problem: Bool
    }

    /// The moves the dashboard's quick buttons make: the duration and what the button says.
    static let quickMoves = [("PT15S", "+15 s"), ("PT15M", "+15 min"), ("PT1H", "+1 h"), ("P1D", "+1 d")]

    /// The dashboard's clock: its mode and time; on a virtual clock, the forms that move
    /// it and what the last move fired; on the wall clock, that it moves by itself.
    static func clockSection(_ clock: ClockView) -> String {
        let banner = clock.said.map { "<p class=\"said\(clock.problem ? " problem" : "")\">\(escaped($0))</p>" } ?? ""
        let time = "<span class=\"mono\">\(ClockText.iso8601(milliseconds: clock.now))</span>"
        guard clock.mode == .virtual else {
            return """
                \(banner)
                <p class="note">Clock: <span class="state">wall</span> · \(time) · it moves by itself; start serve \
                with --clock virtual to move it from here.</p>
                """
        }
        let token = tokenField(clock.formToken)
        let quick = quickMoves.map { duration, label in
            "<button type=\"submit\" name=\"advance\" value=\"\(duration)\">\(label)</button>"
        }.joined(separator: "\n")
        return """
            \(banner)
            <p class="note">Clock: <span class="state">virtual</span> · \(time) · it moves only when told.</p>
            <div class="actions">
            <form method="post" action="/clock">
            \(token)
            <label>Advance by an ISO 8601 duration <input name="advance" placeholder="PT15M" size="10"></label>
            <button type="submit">Advance</button>
            </form>
            <form method="post" action="/clock">
            \(token)
            <strong>Advance by</strong><br>
            \(quick)
            </form>
            </div>
            \(clock.lastMove.map(moveHTML) ?? "")
            """
    }

    /// The last move of the clock: from where to where, and each timer it fired.
    private static func moveHTML(_ move: Sandbox.Move) -> String {
        let rows = move.fired.map { fired in
            var what =
                "\(escaped(fired.timer)) of <a href=\"/orders/\(escaped(fired.purchaseId))\">"
                + "\(escaped(shortened(fired.purchaseId)))</a>"
            if let outcome = fired.outcome { what += ": \(escaped(outcome))" }
            if let delivery = fired.delivery {
                what += ": \(escaped(delivery.name)) <span class=\"mono\">\(delivery.id)</span>"
            }
            if let attempt = fired.attempt { what += ", attempt \(attempt)" }
            if let result = fired.result { what += ", \(escaped(result))" }
            return "<li><span class=\"mono\">\(ClockText.iso8601(milliseconds: fired.at))</span> \(what)</li>"
        }.joined(separator: "\n")
        let more =
            move.firedCount > move.fired.count
            ? "<p class=\"note\">and \(move.firedCount - move.fired.count) more timers</p>" : ""
        return """
            <p class="note">Last move: from <span class="mono">\(ClockText.iso8601(milliseconds: move.from))</span> \
            to <span class="mono">\(ClockText.iso8601(milliseconds: move.to))</span>, \(move.firedCount) \
            timer\(move.firedCount == 1 ? "" : "s") fired</p>
            \(rows.isEmpty ? "" : "<ol class=\"timeline\">\n\(rows)\n</ol>")
            \(more)
            """
    }

    /// The checkout page's choices that leave the payment pending and resolve it later on
    /// the sandbox's clock, approved or declined, after the minutes the tester gives.
    static let pendingThen = """
        <fieldset>
        <legend>Pending, then resolved on the sandbox's clock</legend>
        <label>N, in minutes <input type="number" name="minutes" value="5" size="6"></label>
        <button type="submit" name="resolve" value="succeeded">Pending, then approved after N minutes</button>
        <button type="submit" name="resolve" value="failed">Pending, then declined after N minutes</button>
        </fieldset>
        """

    /// What a pending payment's scheduled resolution says: its outcome and its time.
    static func scheduled(_ resolution: CheckoutSessions.Resolution) -> String {
        "The payment is to be \(resolution.succeeded ? "approved" : "declined") at "
            + "\(ClockText.iso8601(milliseconds: resolution.at)) on the sandbox's clock."
    }

    /// A pending order's forms that resolve its payment now or after some minutes, and
    /// its scheduled resolution, each form with `token`, the form token's field.
    static func resolveForms(_ session: CheckoutSessions.Session, token: String) -> String {
        guard session.state == .paymentPending else { return "" }
        let id = escaped(session.purchaseId)
        let planned = session.resolution.map { "<p class=\"note\">\(escaped(scheduled($0)))</p>" } ?? ""
        return """
            <form method="post" action="/orders/\(id)/resolve">
            \(token)
            <strong>Resolve the pending payment now</strong><br>
            <button type="submit" name="outcome" value="succeeded">Succeeded</button>
            <button type="submit" name="outcome" value="failed">Failed</button>
            </form>
            <form method="post" action="/orders/\(id)/resolve">
            \(token)
            <strong>Resolve it later</strong>
            \(planned)
            <label>After minutes on the sandbox's clock <input type="number" name="minutes" value="5" size="6"></label>
            <button type="submit" name="outcome" value="succeeded">Succeeded</button>
            <button type="submit" name="outcome" value="failed">Failed</button>
            </form>
            """
    }
}
