import PaylinksAppcharge
import PaylinksDelivery
import PaylinksKit

/// `purchase --count N --events-url URL` without `--award-url`: a load of events. The
/// checkouts run on this thread while the events of those before are on their way over
/// `--concurrency` connections; each checkout's result and its events' attempts are
/// written in order, and the load's summary goes to stderr, as an award load's does.
@MainActor
struct EventLoadRun {
    let flow: CheckoutFlow
    let events: EventOutlet
    /// What the player does in every checkout.
    let player: PlayerAction

    /// Runs the checkouts, sends their events, and returns the load's summary.
    func run() throws(CLIError) -> String {
        let (sdk, delegate, settings) = (flow.sdk, flow.delegate, events.settings)
        guard let url = settings.url else { throw .internal("an event load without --events-url") }
        let load = EventLoad(settings.destination(to: url), connections: flow.options.concurrency)
        defer { load.close() }
        // Callbacks and events are written once the checkout's events have gone, in order.
        let recorder = RecordingDelegate()
        let output = sdk.delegate
        sdk.delegate = recorder
        defer { sdk.delegate = output }
        events.collects = true
        defer { events.collects = false }
        // The lines of predicted checkouts.
        var lines: PredictedLines?
        /// Writes a checkout: its events and its result in the order they happened, each
        /// event with its attempts.
        func write(_ result: Result, _ attempts: ArraySlice<[DeliveryAttempt]>) {
            var attempts = attempts.makeIterator()
            func writeAttempts(_ sent: [(event: OrderEvent, milliseconds: Int)]) {
                for (event, _) in sent {
                    let tries = attempts.next() ?? []
                    for attempt in tries { events.write(attempt, of: event) }
                    if let last = tries.last, !last.succeeded { events.countRefused(event, last: last) }
                }
            }
            delegate.begin(nil)
            writeAttempts(result.before)
            if let index = result.predictedIndex, lines != nil {
                lines?.deliver(result.callback, index: index, to: delegate)
            } else {
                delegate.receive(result.callback)
            }
            writeAttempts(result.after)
        }
        // Checkouts run while the events before them are on their way; each is written
        // once its events are answered, in order.
        var unwritten = InOrder<Result>()
        func writeAnswered(atLeast minimum: Int = 0) {
            for (result, attempts) in unwritten.take(load.takeAnswered(atLeast: minimum)) { write(result, attempts) }
        }
        let count = flow.options.count
        var done = 0
        // Once a checkout has come out exactly as predicted from the one before, and as
        // long after it on the virtual clock, the rest are that checkout under their own
        // identifiers, each as long after the one before: not simulated again. `--trace`
        // simulates every one.
        var previous: (order: OrderResponseModel, milliseconds: Int, step: Int?)?
        var proven: (order: OrderResponseModel, step: Int, paidBefore: Int)?
        var clock = sdk.virtualMilliseconds
        var predicted = PredictedEvents(flow: flow, events: events)
        while done < count, delegate.failure == nil {
            done += 1
            let index = sdk.nextCheckoutIndex
            let result: Result
            if let (order, step, paidBefore) = proven {
                let next = sdk.predictedOrder(like: order)
                sdk.skipCheckout()
                clock += step
                let (before, after) = try predicted.events(
                    index: index, paidAt: clock - paidBefore, settledAt: clock, player: player)
                result = Result(
                    callback: .onPurchaseSuccess(order: next), before: before, after: after, predictedIndex: index)
            } else {
                let prediction = previous.map { sdk.predictedOrder(like: $0.order) }
                recorder.removeAll()
                try flow.checkout(player, settles: false)
                clock = sdk.virtualMilliseconds
                let before = events.takeCollected()
                flow.appcharge.settle(at: clock)
                let after = events.takeCollected()
                guard let callback = recorder.callbacks.last else { continue }
                result = Result(callback: callback, before: before, after: after, predictedIndex: nil)
                if case .onPurchaseSuccess(let order) = callback, recorder.callbacks.count == 1, !flow.options.trace,
                    let paidAt = before.first?.milliseconds
                {
                    let step = previous.map { clock - $0.milliseconds }
                    if order == prediction, let step, step == previous?.step {
                        proven = (order, step, clock - paidAt)
                        lines = PredictedLines(
                            after: order, index: index, simulator: sdk, seed: flow.seed, renderer: flow.renderer)
                    }
                    previous = (order, clock, step)
                } else {
                    previous = nil
                }
            }
            for (event, milliseconds) in result.before + result.after {
                // With no room, what was answered is written first: a quarter of the load at least.
                if load.room == 0 { writeAnswered(atLeast: load.window / 4) }
                load.submit(event, happenedAt: milliseconds)
            }
            unwritten.append(result, needs: result.before.count + result.after.count)
            if done % 64 == 0 { writeAnswered() }
        }
        for (result, attempts) in unwritten.take(load.finish()) { write(result, attempts) }
        return load.summary
    }

    /// A checkout's result and the events it sent, before the result and after it; for a
    /// checkout predicted rather than run, its index. A class, as an award load's result is:
    /// it is handed along until written as one reference.
    private final class Result {
        let callback: Callback
        let before: [(event: OrderEvent, milliseconds: Int)]
        let after: [(event: OrderEvent, milliseconds: Int)]
        let predictedIndex: Int?

        init(
            callback: Callback, before: [(event: OrderEvent, milliseconds: Int)],
            after: [(event: OrderEvent, milliseconds: Int)], predictedIndex: Int?
        ) {
            self.callback = callback
            self.before = before
            self.after = after
            self.predictedIndex = predictedIndex
        }
    }
}
