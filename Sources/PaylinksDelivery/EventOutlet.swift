package import PaylinksAppcharge
import PaylinksHTTP
import PaylinksKit

/// Where the deliveries that follow a payment are shown, in their place among the
/// checkout's callbacks: the command line renders each attempt as it ends.
///
/// Called on the main actor, once for each attempt as it ends, in the order the attempts
/// were made, and never for an attempt not made.
@MainActor
package protocol DeliveryDisplay {
    /// Shows an attempt at delivering an award to `url`.
    func show(award attempt: DeliveryAttempt, url: String)
    /// Shows an attempt at delivering `event` to `url`; nil when the event goes nowhere
    /// and is shown as it would be sent.
    func show(event: OrderEvent, attempt: DeliveryAttempt, url: String?)
}

/// The events of a flow's orders as Appcharge's side lived them (``AppchargeBackend``),
/// delivered as Appcharge delivers them (or shown, without an endpoint), each attempt
/// shown through the display in its place among the callbacks and award attempts. It
/// keeps nothing of an order once its events are out, so memory stays flat however many
/// checkouts run.
@MainActor
package final class EventOutlet {
    /// Where the events go and how they are signed.
    package let settings: EventSettings
    private let sender: EventSender?
    private let signingKey: HMACSHA256.Key
    /// The endpoint, as each attempt shown names it.
    private let urlText: String?
    private let display: any DeliveryDisplay
    private let seed: UInt64
    private let trace: ((String) -> Void)?
    /// Whether an event that has no endpoint to go to is shown as it would be sent.
    private let showsUnsent: Bool
    /// The last event that goes out, when only a story's beginning is wanted (`trigger`):
    /// once it has, the rest are not sent.
    package var through: OrderEvent.Name?
    /// Whether ``through`` was sent, so that nothing more is.
    package private(set) var reachedTarget = false
    /// How many events were refused on every attempt.
    package private(set) var refusedCount = 0
    /// What was said of the first event refused on every attempt, as ``takeRefusals()`` says it.
    package private(set) var firstRefusal: String?
    /// The events refused on every attempt since the last ``takeRefusals()``.
    private var refusals: [String] = []
    /// The names of the events delivered since the last ``takeDelivered()``.
    private var delivered: [OrderEvent.Name] = []
    /// The fault armed, and the event it is for (every event when nil).
    private var armed: (fault: DeliveryFault, event: OrderEvent.Name?)?
    /// Whether events are kept for ``takeCollected()`` instead of delivered: a load sends them.
    package var collects = false
    /// The events kept while ``collects``, with when each happened.
    private var collected: [(event: OrderEvent, milliseconds: Int)] = []
    /// When the event delivered last was due, on the run's clock: one held back goes out
    /// no earlier.
    private var latest = Int.min
    /// Events held back by ``DeliveryFault/reorder``, with when each happened, until ``releaseHeld()``.
    private var held: [(event: OrderEvent, milliseconds: Int)] = []

    /// An outlet sending to `settings.url`, each attempt shown on `display`; without one,
    /// events are shown with `showsUnsent`, and only counted without.
    package init(
        settings: EventSettings, display: any DeliveryDisplay, seed: UInt64, trace: ((String) -> Void)?,
        showsUnsent: Bool
    ) {
        self.settings = settings
        sender = settings.url.map { EventSender(settings.destination(to: $0), for: .event) }
        signingKey = HMACSHA256.Key(settings.signing.key)
        urlText = settings.url?.description
        self.display = display
        self.seed = seed
        self.trace = trace
        self.showsUnsent = showsUnsent
    }

    /// Sends (or shows) what happened to an order, as Appcharge's side says it happened.
    package func send(_ happening: AppchargeBackend.Happening) {
        guard !reachedTarget else { return }
        if happening.name == through { reachedTarget = true }
        delivered.append(happening.name)
        // With nowhere to go and nothing to show, an event is only named: a run of
        // scenarios without an events URL follows its orders at no cost beyond that.
        guard sender != nil || showsUnsent || collects else { return }
        let event = OrderEvent(
            happening.name, of: happening.session, version: settings.signing.version,
            milliseconds: happening.milliseconds, seed: seed, sequence: happening.sequence)
        let milliseconds = happening.milliseconds
        // Reordering one event makes it overtake the one before: each other event waits
        // for the next, in case that is the one.
        if let armed, armed.fault == .reorder, let target = armed.event {
            let overtaken = held
            held = []
            if happening.name == target {
                deliver(event, at: milliseconds, fault: nil)
                for (waiting, at) in overtaken { deliver(waiting, at: at, fault: nil) }
            } else {
                for (waiting, at) in overtaken { deliver(waiting, at: at, fault: nil) }
                held = [(event, milliseconds)]
            }
            return
        }
        let fault = armed.flatMap { $0.event == nil || $0.event == happening.name ? $0.fault : nil }
        switch fault {
        case .reorder?: held.append((event, milliseconds))
        case .duplicate?:
            deliver(event, at: milliseconds, fault: nil)
            deliver(event, at: milliseconds, fault: nil)
        default: deliver(event, at: milliseconds, fault: fault)
        }
    }

    /// Puts `fault` on the way of each event named `event` from now on (every event when
    /// nil), until ``disarm()``. Reordering a named event makes it overtake the event
    /// before it; reordering every event holds each back until ``releaseHeld()``.
    package func arm(_ fault: DeliveryFault, on event: OrderEvent.Name? = nil) {
        armed = (fault, event)
    }

    /// Takes the fault off the way.
    package func disarm() {
        armed = nil
    }

    /// The events kept since the last call, with when each happened, in the order they happened.
    package func takeCollected() -> [(event: OrderEvent, milliseconds: Int)] {
        defer { collected = [] }
        return collected
    }

    /// Counts `event`, which a load delivered, refused on every attempt, the last being `last`.
    package func countRefused(_ event: OrderEvent, last: DeliveryAttempt) {
        _ = refusal(of: event, last: last)
    }

    /// Counts `event` refused on every attempt, the last being `last`, and says so:
    /// "order.refunded was refused on every attempt: the server answered 401".
    private func refusal(of event: OrderEvent, last: DeliveryAttempt) -> String {
        refusedCount += 1
        let said = "\(event.label) was refused on every attempt: \(last.failure ?? "")"
        if firstRefusal == nil { firstRefusal = said }
        return said
    }

    /// Writes an attempt at delivering `event` to the outlet's endpoint, in its place.
    package func write(_ attempt: DeliveryAttempt, of event: OrderEvent) {
        display.show(event: event, attempt: attempt, url: urlText)
    }

    /// Whether events are held back, to be sent after the ones that follow them.
    package var holdsEvents: Bool { !held.isEmpty }

    /// Delivers the events held back, in the order they happened.
    package func releaseHeld() {
        let released = held
        held = []
        for (event, milliseconds) in released { deliver(event, at: milliseconds, fault: nil) }
    }

    /// The names of the events delivered since the last call, oldest first.
    package func takeDelivered() -> [OrderEvent.Name] {
        defer { delivered = [] }
        return delivered
    }

    /// Delivers `event`, which happened at `milliseconds`: at once, or, held back, when
    /// the events that overtook it have gone, on the run's clock.
    private func deliver(_ event: OrderEvent, at milliseconds: Int, fault: DeliveryFault?) {
        if collects {
            collected.append((event, milliseconds))
            return
        }
        let due = max(milliseconds, latest)
        latest = due
        guard let sender else {
            guard showsUnsent else { return }
            // Shown as it would be sent: signed on the run's clock, when the event happened
            // and the time its fault holds it back, so a seeded run prints the same bytes
            // every time.
            let sentAfter = fault == .delay ? DeliveryFault.delayMilliseconds : 0
            let headers = event.headers(
                publisherToken: settings.signing.publisherToken, projectId: settings.signing.projectId,
                milliseconds: due + sentAfter, key: signingKey)
            display.show(
                event: event, attempt: DeliveryAttempt(number: 1, sentAfter: sentAfter, headers: headers), url: nil)
            return
        }
        let url = sender.url.description
        // Never signed before the event was due on the run's clock, and the time since.
        sender.happenedAt = due
        let attempts = sender.deliver(event, fault: fault) { [trace, display] attempt in
            if let trace {
                let headers = attempt.headers.map { "\($0.name): \($0.value)" }.joined(separator: ", ")
                trace("event \(event.label) attempt \(attempt.number): POST \(url) (\(headers))")
            }
            display.show(event: event, attempt: attempt, url: url)
        }
        if let last = attempts.last, !last.succeeded { refusals.append(refusal(of: event, last: last)) }
    }

    /// What was refused since the last call, one phrase per event: "order.refunded was
    /// refused on every attempt: the server answered 401".
    package func takeRefusals() -> [String] {
        defer { refusals = [] }
        return refusals
    }

    /// Closes the connection, if any.
    package func close() {
        sender?.close()
    }
}
