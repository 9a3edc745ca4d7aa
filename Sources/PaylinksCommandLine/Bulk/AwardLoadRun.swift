import PaylinksAppcharge
import PaylinksDelivery
import PaylinksHTTP
import PaylinksKit

/// `purchase --count N --award-url URL`: a load of awards. The checkouts run on this
/// thread while the last batch's awards are on their way over `--concurrency`
/// connections; each checkout's attempts and result are written in order, and the load's
/// summary (rate, latency, failures) goes to stderr.
///
/// Once a checkout comes out exactly as predicted from the one before, the rest are
/// predicted, not simulated again: their awards, and the lines of those granted, come
/// from templates proven on two.
@MainActor
struct AwardLoadRun {
    let flow: CheckoutFlow
    /// Where the awards go.
    let destination: DeliveryDestination
    /// What the player does in every checkout.
    let player: PlayerAction

    /// Runs `count` checkouts whose awards go out `connections` at a time, writing each
    /// checkout's attempts and result in order, and returns the load's summary.
    func run() throws(CLIError) -> String {
        let (sdk, renderer, delegate, catalog) = (flow.sdk, flow.renderer, flow.delegate, flow.catalog)
        let (count, connections) = (flow.options.count, flow.options.concurrency)
        let load = AwardLoad(destination, connections: connections)
        defer { load.close() }
        let recorder = RecordingDelegate()
        let output = sdk.delegate
        sdk.delegate = recorder
        defer { sdk.delegate = output }
        // Appcharge's side grants each award at once; the load sends them, and a failed one
        // fails its purchase when its answer comes.
        let awardsFirst = flow.appcharge.awards
        flow.appcharge.awards = nil
        defer { flow.appcharge.awards = awardsFirst }
        let url = destination.url.description
        // The lines of predicted checkouts whose award was granted.
        var lines: PredictedLines?
        /// Writes a batch's results, each with its award's attempts.
        func write(_ results: [Result], _ attempts: [[DeliveryAttempt]]) {
            var attempts = attempts.makeIterator()
            for result in results {
                delegate.begin(nil)
                var final = result.callback
                var granted = true
                if let order = result.order, let tries = attempts.next() {
                    for attempt in tries { delegate.write(renderer.render(award: attempt, url: url, tag: nil)) }
                    if let data = AwardDelivery.failureData(tries) {
                        final = sdk.awardFailure(of: order, data: data)
                        granted = false
                    }
                }
                if granted, let index = result.predictedIndex, lines != nil {
                    lines?.deliver(final, index: index, to: delegate)
                } else {
                    delegate.receive(final)
                }
            }
        }
        let batchSize = AwardLoad.batchSize(connections: connections)
        var done = 0
        // While one batch's awards are on their way, the next batch's checkouts run.
        var sent: [Result] = []
        var previous: OrderResponseModel?
        var proven: OrderResponseModel?
        // The awards of proven orders come from a template, itself proven on two orders.
        var awards: GrantAward.Template?
        while done < count, delegate.failure == nil {
            var results: [Result] = []
            let size = min(batchSize, count - done)
            for _ in 0..<size {
                let index = sdk.nextCheckoutIndex
                // Once a checkout has come out exactly as predicted from the one before,
                // the rest are that checkout under their own identifiers: not run again.
                if let proven {
                    let order = sdk.predictedOrder(like: proven)
                    sdk.skipCheckout()
                    results.append(
                        Result(callback: .onPurchaseSuccess(order: order), order: order, predictedIndex: index))
                    continue
                }
                let prediction = previous.map { sdk.predictedOrder(like: $0) }
                recorder.removeAll()
                try flow.checkout(player)
                guard let result = recorder.callbacks.last else { continue }
                let paid: OrderResponseModel? =
                    if case .onPurchaseSuccess(let order) = result { order } else { nil }
                results.append(Result(callback: result, order: paid, predictedIndex: nil))
                if let paid, result == .onPurchaseSuccess(order: paid), recorder.callbacks.count == 1 {
                    if paid == prediction, let previous {
                        proven = paid
                        awards = GrantAward.Template(
                            first: previous, second: paid,
                            money: OrderMoney(order: paid, catalog: catalog, rates: flow.options.rates))
                        lines = PredictedLines(
                            after: paid, index: index, simulator: sdk, seed: flow.seed, renderer: renderer)
                    }
                    previous = paid
                } else {
                    previous = nil
                }
            }
            let batch = results.compactMap { result in
                result.order.map {
                    awards?.award(for: $0) ?? GrantAward(order: $0, catalog: catalog, rates: flow.options.rates)
                }
            }
            // Signed while the last batch is on its way; its results shown while this one is.
            let prepared = load.prepare(batch)
            let attempts = load.collect()
            load.start(prepared)
            write(sent, attempts)
            sent = results
            done += size
        }
        write(sent, load.collect())
        return load.summary
    }

    /// A checkout's result and its order, paid and awarded; for a checkout predicted
    /// rather than run, its index.
    private struct Result {
        var callback: Callback
        var order: OrderResponseModel?
        var predictedIndex: Int?
    }
}
