import PaylinksAppcharge
import PaylinksDelivery
import PaylinksKit

/// `purchase --count N --events-url URL` without `--award-url`: a load of events. The
/// checkouts run on this thread while the last batch's events are on their way over
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
        // Callbacks and events are written once the batch's events have gone, in order.
        let recorder = RecordingDelegate()
        let output = sdk.delegate
        sdk.delegate = recorder
        defer { sdk.delegate = output }
        events.collects = true
        defer { events.collects = false }
        // The lines of predicted checkouts.
        var lines: PredictedLines?
        /// Writes a batch: each checkout's events and result in the order they happened.
        func write(_ results: [Result], _ attempts: [[DeliveryAttempt]]) {
            var attempts = attempts.makeIterator()
            func writeAttempts(_ sent: [(event: OrderEvent, milliseconds: Int)]) {
                for (event, _) in sent {
                    let tries = attempts.next() ?? []
                    for attempt in tries { events.write(attempt, of: event) }
                    if let last = tries.last, !last.succeeded { events.countRefused(event, last: last) }
                }
            }
            for result in results {
                delegate.begin(nil)
                writeAttempts(result.before)
                if let index = result.predictedIndex, lines != nil {
                    lines?.deliver(result.callback, index: index, to: delegate)
                } else {
                    delegate.receive(result.callback)
                }
                writeAttempts(result.after)
            }
        }
        let count = flow.options.count
        let batchSize = EventLoad.batchSize(connections: flow.options.concurrency)
        var done = 0
        var sent: [Result] = []
        // Once a checkout has come out exactly as predicted from the one before, and as
        // long after it on the virtual clock, the rest are that checkout under their own
        // identifiers, each as long after the one before: not simulated again. `--trace`
        // simulates every one.
        var previous: (order: OrderResponseModel, milliseconds: Int, step: Int?)?
        var proven: (order: OrderResponseModel, step: Int, paidBefore: Int)?
        var clock = sdk.virtualMilliseconds
        while done < count, delegate.failure == nil {
            var results: [Result] = []
            let size = min(batchSize, count - done)
            for _ in 0..<size {
                let index = sdk.nextCheckoutIndex
                if let (order, step, paidBefore) = proven {
                    let next = sdk.predictedOrder(like: order)
                    sdk.skipCheckout()
                    clock += step
                    try flow.replay(player, index: index, paidAt: clock - paidBefore)
                    let before = events.takeCollected()
                    flow.appcharge.settle(at: clock)
                    results.append(
                        Result(
                            callback: .onPurchaseSuccess(order: next), before: before, after: events.takeCollected(),
                            predictedIndex: index))
                    continue
                }
                let prediction = previous.map { sdk.predictedOrder(like: $0.order) }
                recorder.removeAll()
                try flow.checkout(player, settles: false)
                clock = sdk.virtualMilliseconds
                let before = events.takeCollected()
                flow.appcharge.settle(at: clock)
                let after = events.takeCollected()
                guard let result = recorder.callbacks.last else { continue }
                results.append(Result(callback: result, before: before, after: after, predictedIndex: nil))
                if case .onPurchaseSuccess(let order) = result, recorder.callbacks.count == 1, !flow.options.trace,
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
            // Signed while the last batch is on its way; its results shown while this one is.
            let sending = results.flatMap { $0.before + $0.after }
            let prepared = load.prepare(sending.map(\.event), happenedAt: sending.map(\.milliseconds))
            let attempts = load.collect()
            load.start(prepared)
            write(sent, attempts)
            sent = results
            done += size
        }
        write(sent, load.collect())
        return load.summary
    }

    /// A checkout's result and the events it sent, before the result and after it; for a
    /// checkout predicted rather than run, its index.
    private struct Result {
        var callback: Callback
        var before: [(event: OrderEvent, milliseconds: Int)]
        var after: [(event: OrderEvent, milliseconds: Int)]
        var predictedIndex: Int?
    }
}
