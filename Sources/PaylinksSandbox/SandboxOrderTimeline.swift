import PaylinksAppcharge
import PaylinksJSON
import PaylinksKit

/// An order's timeline: the states it passed, the player's choice, the award's outcome,
/// and every delivery with its attempts, oldest first.
extension SandboxPage {
    /// A moment of an order's timeline: when (Unix milliseconds, nil when the sandbox does
    /// not know), what, in HTML, and its place in the order's story, which orders moments
    /// of the same millisecond: on a virtual clock that stands still, all of them.
    private struct Moment {
        var at: Int?
        var html: String
        var place = Place.checkout
    }

    /// Where a moment stands in an order's story: what happens in the checkout comes
    /// before its award and the award's events, which come before the order's life after
    /// it (a refund needs an order paid and awarded), each step of which comes before its
    /// own event; the tester's retries and replays come after what they repeat.
    private enum Place: Comparable {
        case checkout
        case award
        /// Step `n` of the order's life is `2n`; its event `2n + 1`.
        case life(Int)
        case tester
    }

    /// The timeline of `page`'s order as list items, each delivery as `shown` shows it with
    /// its replay forms carrying `token`, the form token's field.
    static func timeline(
        _ page: OrderPage, shown: (DeliveryHistory.Delivery) -> DeliveryHistory.Delivery, token: String
    ) -> String {
        let session = page.session
        var moments = [Moment(at: session.created, html: "session created " + statePill(.created))]
        moments += choice(session)
        let awards = page.deliveries.filter { $0.kind == .award && $0.replayOf == nil && $0.nextAttemptAt == nil }
        if awards.isEmpty, let outcome = awardOutcome(session) {
            moments.append(Moment(at: session.date > 0 ? session.date * 1000 : nil, html: outcome, place: .award))
        }
        let transitions = session.life?.transitions ?? []
        for (index, transition) in transitions.enumerated() {
            let at = index < session.lifeTimes.count ? session.lifeTimes[index] : session.date * 1000
            let refund = refundAmount(transition.action, session)
            moments.append(
                Moment(
                    at: at,
                    html: "\(escaped(transition.action.phrase(session.currency))): "
                        + statePill(transition.to, partialRefund: refund), place: .life(2 * index)))
        }
        // The events of the order's life, matched to its steps in order: the first
        // `order.refunded` is the first refund's.
        var eventSteps = transitions.indices.filter { transitions[$0].event != nil }[...]
        for delivery in page.deliveries {
            let sent = delivery.attempts.first?.sentAt ?? 0
            let manual = delivery.kind == .award && isManualRetry(delivery)
            var place = Place.award
            if delivery.replayOf != nil || manual {
                place = .tester
            } else if let step = eventSteps.first, let event = transitions[step].event,
                OrderEvent.Version.allCases.contains(where: { OrderEvent.label(event, $0) == delivery.name })
            {
                place = .life(2 * step + 1)
                eventSteps.removeFirst()
            }
            moments.append(Moment(at: sent, html: deliveryHTML(shown(delivery), token: token), place: place))
            guard delivery.kind == .award, delivery.replayOf == nil, delivery.nextAttemptAt == nil,
                let last = delivery.attempts.last
            else { continue }
            // The outcome is known when the last attempt's answer came, on the clock its
            // attempts were sent by.
            moments.append(
                Moment(
                    at: last.sentAt,
                    html: delivery.succeeded
                        ? (manual ? "award granted on a manual retry: " : "award granted: ")
                            + statePill(.chargeSucceed)
                        : (manual ? "the manual retry failed on every attempt: " : "every award attempt failed: ")
                            + statePill(.chargeFailed), place: place))
        }
        // By the second, as the timeline shows them: the sandbox's wall clock counts whole
        // seconds where a delivery's attempts count milliseconds, so that within a second the
        // story's order decides. A moment whose time is not known keeps its place after the
        // session's creation.
        func second(_ moment: Moment) -> Int { (moment.at ?? session.created) / 1000 }
        return moments.enumerated().sorted {
            let (left, right) = ($0.element, $1.element)
            if second(left) != second(right) { return second(left) < second(right) }
            return left.place != right.place ? left.place < right.place : $0.offset < $1.offset
        }
        .map { moment in
            let time = moment.element.at.flatMap { $0 > 0 ? UTCDate.format(unixSeconds: $0 / 1000) : nil }
            return "<li><span class=\"mono when\">\(time ?? "")</span> \(moment.element.html)</li>"
        }.joined(separator: "\n")
    }

    /// The amount of a refund `action` asked for, when it is a part of the order's price,
    /// worded as the price is; nil otherwise.
    private static func refundAmount(_ action: OrderLife.Action, _ session: CheckoutSessions.Session) -> String? {
        guard case .requestRefund(let amount?) = action, amount < session.price else { return nil }
        return PriceFormatter.formatMinorUnits(amount, currency: session.currency)
    }

    /// What the player chose, in words, with the state it led to; a payment left pending
    /// and resolved later is two moments. Nothing while the checkout is open.
    private static func choice(_ session: CheckoutSessions.Session) -> [Moment] {
        let at = session.date > 0 ? session.date * 1000 : nil
        let method = session.shownPaymentMethod.map { " with \(escaped($0))" } ?? ""
        if session.resolvedLate {
            let left = Moment(at: nil, html: "the payment was left pending\(method) " + statePill(.paymentPending))
            let resolved =
                session.state == .paymentFailed
                ? "the pending payment was declined: " + statePill(.paymentFailed)
                : "the pending payment was approved: " + statePill(.chargePending)
            return [left, Moment(at: at, html: resolved)]
        }
        switch session.state {
        case .created: return []
        case .paymentCanceled:
            return [
                Moment(
                    at: at,
                    html: (at == nil
                        ? "the checkout was canceled or expired before the player chose: "
                        : session.canceledByPlayer
                            ? "the player canceled the purchase: " : "the player closed the checkout: ")
                        + statePill(.paymentCanceled))
            ]
        case .paymentFailed:
            let words = "the player declined: the payment\(method) failed "
            return [Moment(at: at, html: words + statePill(.paymentFailed))]
        case .paymentPending:
            let planned = session.resolution.map { " " + escaped(scheduled($0)) } ?? ""
            return [
                Moment(at: at, html: "the payment was left pending\(method) " + statePill(.paymentPending) + planned)
            ]
        default:
            let words =
                session.isFree ? "the player collected the free order" : "the player paid\(method)"
            return [Moment(at: at, html: "\(words): the award is sent " + statePill(.chargePending))]
        }
    }

    /// The award's outcome as the order holds it, for a timeline without its delivery:
    /// granted or failed on every attempt; nil while the award is under way.
    private static func awardOutcome(_ session: CheckoutSessions.Session) -> String? {
        guard let life = session.life else { return nil }
        switch life.transitions.first?.from ?? life.state {
        case .chargeSucceed: return "award granted: " + statePill(.chargeSucceed)
        case .chargeFailed: return "every award attempt failed: " + statePill(.chargeFailed)
        default: return nil
        }
    }

    /// Whether `delivery` is an award sent by Retry Award: its body's `awardFlow` is
    /// `manual_retry`.
    private static func isManualRetry(_ delivery: DeliveryHistory.Delivery) -> Bool {
        guard delivery.kind == .award, case .object(let members)? = try? JSONParser.parse(delivery.body).kind,
            case .string(let flow)? = members.first(where: { $0.key == "awardFlow" })?.value.kind
        else { return false }
        return flow == "manual_retry"
    }

    /// A body as a timeline shows it: JSON indented by two spaces, its members in their
    /// order and its numbers as written, anything else as it came; its first ``bodyLimit``
    /// bytes, and where the rest is.
    private static func shownBody(_ body: [UInt8], of delivery: DeliveryHistory.Delivery) -> String {
        let text = body.count <= bodyLimit ? pretty(body).map { Array($0.utf8) } ?? body : body
        guard text.count > bodyLimit else { return String(decoding: text, as: UTF8.self) }
        // Cut at a character's edge: no continuation byte starts what is left out.
        var end = bodyLimit
        while end > 0 && text[end] & 0xC0 == 0x80 { end -= 1 }
        return String(decoding: text[..<end], as: UTF8.self)
            + "\n… \(text.count - end) bytes more: GET /control/v1/deliveries/\(delivery.id) has them all"
    }

    /// `body` indented by two spaces a level, when it is JSON: its members in their order,
    /// its numbers as written; nil when it is not JSON.
    static func pretty(_ body: [UInt8]) -> String? {
        guard let value = try? JSONParser.parse(body) else { return nil }
        var writer = JSONWriter(indent: 2)
        value.write(to: &writer)
        return writer.output
    }

    /// A delivery in a timeline: what and where, how each attempt went, the request and
    /// the answer, and the forms that replay it, each with `token`, the form token's field.
    private static func deliveryHTML(_ delivery: DeliveryHistory.Delivery, token: String) -> String {
        let replay =
            (delivery.replayOf.map {
                " (replay of dl_\($0)\(delivery.resigned == true ? ", newly signed" : ", exactly"))"
            } ?? "") + (isManualRetry(delivery) ? " (manual retry)" : "")
        let attempts = delivery.attempts.map { attempt in
            let outcome =
                attempt.succeeded
                ? "<span>\(attempt.status.map { String($0) } ?? "") in \(attempt.milliseconds) ms</span>"
                : "<span class=\"failed\">\(escaped(attempt.failure ?? ""))</span>"
            let request =
                attempt.headers.map { "\($0.name): \($0.value)" }.joined(separator: "\n") + "\n\n"
                + shownBody(delivery.body, of: delivery)
            let response =
                attempt.status.map { status in
                    "\(status)\n" + attempt.responseHeaders.map { "\($0.name): \($0.value)" }.joined(separator: "\n")
                        + "\n\n" + shownBody(attempt.responseBody, of: delivery)
                } ?? "no answer"
            return """
                <details><summary>attempt \(attempt.number): \(outcome)</summary>
                <pre>POST \(escaped(delivery.url))\n\(escaped(request))</pre><pre>\(escaped(response))</pre></details>
                """
        }.joined(separator: "\n")
        return """
            <strong>\(escaped(delivery.name))</strong> <span class="mono">\(delivery.id)</span>\(replay) \
            \(delivery.succeeded ? "delivered" : "<span class=\"failed\">not delivered</span>")
            <form method="post" action="/deliveries/\(delivery.id)/replay">
            \(token)
            <button type="submit" name="resign" value="true">Replay, newly signed</button>
            <button type="submit" name="resign" value="false">Replay exactly</button>
            </form>
            \(attempts)
            """
    }
}

extension OrderLife.Action {
    /// The action as a timeline says it, an amount in `currency`'s minor units worded as
    /// a price.
    func phrase(_ currency: String) -> String {
        switch self {
        case .requestRefund(let amount?):
            "refund of \(PriceFormatter.formatMinorUnits(amount, currency: currency)) asked for"
        case .requestRefund(nil): "refund asked for"
        case .processRefund(let succeeded): succeeded ? "refund processed" : "refund failed: declined by the bank"
        case .openDispute: "dispute opened"
        case .submitEvidence: "evidence submitted"
        case .resolveDispute(let won): won ? "dispute won" : "dispute lost"
        }
    }
}
