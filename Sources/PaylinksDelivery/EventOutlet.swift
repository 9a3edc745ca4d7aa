package import PaylinksAppcharge
import PaylinksHTTP
package import PaylinksKit

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

/// The events of a flow's orders, delivered as Appcharge delivers them (or shown, without
/// an endpoint), each attempt shown through the display in its place among the
/// callbacks and award attempts. It follows one order at a time, the latest, so memory
/// stays flat however many checkouts run.
@MainActor
package final class EventOutlet {
    /// One order: what its events are about, which were sent, its life after the award.
    package struct Order {
        package var subject: OrderEvent.Subject
        /// The events sent so far, oldest first.
        package var sent: [OrderEvent.Name] = []
        /// Whether every award attempt failed.
        package var awardFailed = false
        /// Its life after the award, once the checkout ended paid.
        package var life: OrderLife?
        /// When its latest event happened, Unix milliseconds on the virtual clock.
        package var milliseconds: Int
        /// Its money movements so far, each at the time of the event that told of it.
        package var transactions: [OrderTransaction] = []
    }

    /// The code of a checkout the player closed before the order existed.
    package static let closedBeforeOrder = 3005

    /// The gap between two events of an order's life after the award, on the virtual clock.
    package static let lifeStep = 60_000

    /// Where the events go and how they are signed.
    package let settings: EventSettings
    private let sender: EventSender?
    private let signingKey: HMACSHA256.Key
    private let display: any DeliveryDisplay
    private let catalog: Catalog
    private let seed: UInt64
    private let trace: ((String) -> Void)?
    /// Whether an event that has no endpoint to go to is shown as it would be sent.
    private let showsUnsent: Bool
    /// The order whose checkout runs or ran last.
    package private(set) var current: Order?
    /// The last order paid, which refunds and disputes act on.
    package private(set) var lastPaid: Order?
    /// The state of the order acted on last: after its checkout, or after its latest action.
    package private(set) var lastState: OrderState?
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
    /// The events kept while ``collects``.
    private var collected: [OrderEvent] = []
    /// Events held back by ``DeliveryFault/reorder``, with when each happened, until ``releaseHeld()``.
    private var held: [(event: OrderEvent, milliseconds: Int)] = []

    /// An outlet sending to `settings.url`, each attempt shown on `display`; without one,
    /// events are shown with `showsUnsent`, and only counted without.
    package init(
        settings: EventSettings, display: any DeliveryDisplay, catalog: Catalog, seed: UInt64,
        trace: ((String) -> Void)?, showsUnsent: Bool
    ) {
        self.settings = settings
        sender = settings.url.map { EventSender(settings.destination(to: $0), for: .event) }
        signingKey = HMACSHA256.Key(settings.signing.key)
        self.display = display
        self.catalog = catalog
        self.seed = seed
        self.trace = trace
        self.showsUnsent = showsUnsent
    }

    /// An order was paid and its award is about to go out: its creation and payment come first.
    package func paid(_ order: OrderResponseModel, at milliseconds: Int) {
        var followed = Order(subject: OrderEvent.Subject(order: order, catalog: catalog), milliseconds: milliseconds)
        send(OrderStory.beforeAward, of: &followed)
        current = followed
    }

    /// The award of the order followed failed on every attempt.
    package func awardFailed() {
        current?.awardFailed = true
    }

    /// A checkout ended in `callback` at `milliseconds`: the events of its ending not sent
    /// yet, up to `target` when given.
    package func checkoutEnded(_ callback: Callback, at milliseconds: Int, through target: OrderEvent.Name? = nil) {
        guard let order = callback.order else { return }
        var followed =
            current.flatMap { $0.subject.order.purchaseId == order.purchaseId ? $0 : nil }
            ?? Order(subject: OrderEvent.Subject(order: order, catalog: catalog), milliseconds: milliseconds)
        guard let ending = ending(of: callback, awardFailed: followed.awardFailed) else { return }
        let (names, state) = OrderStory.events(of: ending)
        followed.milliseconds = milliseconds
        if state == .chargeSucceed || state == .chargeFailed {
            followed.life = OrderLife(state: state, price: order.price)
        }
        let story = target.map { OrderStory.prefix(names, through: $0) } ?? names
        send(Array(story.dropFirst(followed.sent.count)), of: &followed)
        current = followed
        lastState = state
        if followed.life != nil { lastPaid = followed }
    }

    /// Applies `action` to the last paid order and sends its event, if Appcharge sends one.
    @discardableResult
    package func apply(_ action: OrderLife.Action) throws(LifeProblem) -> OrderLife.Transition {
        guard var followed = lastPaid, var life = followed.life else { throw .noPaidOrder }
        let transition: OrderLife.Transition
        do {
            transition = try life.apply(action)
        } catch {
            throw .refused(error)
        }
        followed.life = life
        followed.milliseconds += Self.lifeStep
        if let event = transition.event { send([event], of: &followed) }
        lastPaid = followed
        lastState = transition.to
        return transition
    }

    /// Why an action on the order's life could not be taken.
    package enum LifeProblem: Error {
        /// No checkout was paid yet.
        case noPaidOrder
        /// Appcharge's rules refuse it.
        case refused(OrderLife.Refusal)

        /// The problem, in a sentence.
        package var message: String {
            switch self {
            case .noPaidOrder: "no order was paid yet; a purchase that is paid comes first"
            case .refused(let refusal): refusal.message
            }
        }
    }

    /// Puts `fault` on the way of each event named `event` from now on (every event when
    /// nil), until ``disarm()``.
    package func arm(_ fault: DeliveryFault, on event: OrderEvent.Name? = nil) {
        armed = (fault, event)
    }

    /// Takes the fault off the way.
    package func disarm() {
        armed = nil
    }

    /// The events kept since the last call, in the order they happened.
    package func takeCollected() -> [OrderEvent] {
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
        display.show(event: event, attempt: attempt, url: settings.url?.description)
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

    /// How Appcharge's side saw the checkout that ended in `callback`; nil when it made
    /// no order (3005: the player left before the order existed).
    private func ending(of callback: Callback, awardFailed: Bool) -> OrderStory.Ending? {
        if callback.error?.code == Self.closedBeforeOrder { return nil }
        switch callback {
        case .onPurchaseSuccess: return .granted
        case .onPurchaseCanceled: return .canceled
        case .onPurchaseFailed(let error, _):
            if awardFailed { return .awardFailed }
            if catalog.statusCode(error.code)?.isCancel ?? false { return .canceled }
            return error.code == 3003 ? .declined : .unresolved
        default: return .unresolved
        }
    }

    /// Sends (or shows) the events `names` of `order`, each the next of its story.
    private func send(_ names: [OrderEvent.Name], of order: inout Order) {
        // With nowhere to go and nothing to show, an event is only named: a run of
        // scenarios without an events URL follows its orders at no cost beyond that.
        let goesSomewhere = sender != nil || showsUnsent || collects
        for name in names {
            let sequence = order.sent.count
            order.sent.append(name)
            delivered.append(name)
            let price = order.subject.order.price
            let moved: (OrderTransaction.Kind, Int)? =
                switch name {
                case .paymentSucceeded: (.paid, price)
                case .refunded: (.refund, order.life?.refundAmount ?? price)
                case .disputeOpened: (.disputeFundsWithdrawn, price)
                case .disputeWon: (.disputeFundsReinstated, price)
                default: nil
                }
            if let (kind, amount) = moved {
                order.transactions.append(
                    OrderTransaction(kind, amount: amount, milliseconds: order.milliseconds, number: sequence))
            }
            guard goesSomewhere else { continue }
            var subject = order.subject
            subject.transactions = order.transactions
            let event = OrderEvent(
                name, version: settings.signing.version, subject: subject, milliseconds: order.milliseconds,
                seed: seed, sequence: sequence)
            let fault = armed.flatMap { $0.event == nil || $0.event == name ? $0.fault : nil }
            switch fault {
            case .reorder?: held.append((event, order.milliseconds))
            case .duplicate?:
                deliver(event, at: order.milliseconds, fault: nil)
                deliver(event, at: order.milliseconds, fault: nil)
            default: deliver(event, at: order.milliseconds, fault: fault)
            }
        }
    }

    private func deliver(_ event: OrderEvent, at milliseconds: Int, fault: DeliveryFault?) {
        if collects {
            collected.append(event)
            return
        }
        guard let sender else {
            guard showsUnsent else { return }
            // Shown as it would be sent: signed at the event's own time, so a seeded run
            // prints the same bytes every time.
            let headers = event.headers(
                publisherToken: settings.signing.publisherToken, projectId: settings.signing.projectId,
                milliseconds: milliseconds, key: signingKey)
            display.show(event: event, attempt: DeliveryAttempt(number: 1, sentAfter: 0, headers: headers), url: nil)
            return
        }
        let url = sender.url.description
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
