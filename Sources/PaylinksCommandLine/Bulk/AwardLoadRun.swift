import PaylinksAppcharge
import PaylinksDelivery
import PaylinksHTTP
import PaylinksKit

/// `purchase --count N --award-url URL`: a load of awards. The checkouts run on this
/// thread while the awards of those before are on their way over `--concurrency`
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
        /// Writes a checkout's result, with its award's attempts when it has an award.
        /// A checkout without an award has no attempts. Its callback is read where it is
        /// kept, not copied, unless the award failed and a failure takes its place.
        func write(_ result: Result, _ tries: [DeliveryAttempt]?) {
            delegate.begin(nil)
            var failure: Callback?
            if let tries {
                for attempt in tries { delegate.write(renderer.render(award: attempt, url: url, tag: nil)) }
                if let data = AwardDelivery.failureData(tries), let order = result.order {
                    failure = sdk.awardFailure(of: order, data: data)
                }
            }
            if let failure {
                delegate.receive(failure)
            } else if let index = result.predictedIndex, lines != nil {
                lines?.deliver(result.callback, index: index, to: delegate)
            } else {
                delegate.receive(result.callback)
            }
        }
        // Checkouts run while the awards before them are on their way; each is written
        // once its award is answered, in order.
        var unwritten = InOrder<Result>()
        func writeAnswered(atLeast minimum: Int = 0) {
            for (result, tries) in unwritten.take(load.takeAnswered(atLeast: minimum)) { write(result, tries.first) }
        }
        var done = 0
        var previous: OrderResponseModel?
        var proven: OrderResponseModel?
        // The awards of proven orders come from a template, itself proven on two orders.
        var awards: GrantAward.Template?
        while done < count, delegate.failure == nil {
            done += 1
            let index = sdk.nextCheckoutIndex
            let result: Result
            // Once a checkout has come out exactly as predicted from the one before,
            // the rest are that checkout under their own identifiers: not run again.
            if let proven {
                let order = sdk.predictedOrder(like: proven)
                sdk.skipCheckout()
                result = Result(callback: .onPurchaseSuccess(order: order), predictedIndex: index)
            } else {
                let prediction = previous.map { sdk.predictedOrder(like: $0) }
                recorder.removeAll()
                try flow.checkout(player)
                guard let callback = recorder.callbacks.last else { continue }
                let paid: OrderResponseModel? =
                    if case .onPurchaseSuccess(let order) = callback { order } else { nil }
                result = Result(callback: callback, predictedIndex: nil)
                if let paid, callback == .onPurchaseSuccess(order: paid), recorder.callbacks.count == 1 {
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
            if let order = result.order {
                // With no room, what was answered is written first: a quarter of the load at least.
                if load.room == 0 { writeAnswered(atLeast: load.window / 4) }
                load.submit(
                    awards?.award(for: order) ?? GrantAward(order: order, catalog: catalog, rates: flow.options.rates))
            }
            unwritten.append(result, needs: result.order == nil ? 0 : 1)
            if done % 64 == 0 { writeAnswered() }
        }
        for (result, tries) in unwritten.take(load.finish()) { write(result, tries.first) }
        return load.summary
    }

    /// A checkout's result; for a checkout predicted rather than run, its index. A class:
    /// a result waits to be written, and is handed along until then, as one reference
    /// rather than as copies of every string of its order.
    private final class Result {
        let callback: Callback
        let predictedIndex: Int?

        init(callback: Callback, predictedIndex: Int?) {
            self.callback = callback
            self.predictedIndex = predictedIndex
        }

        /// The order paid and awarded: a success's. Kept once, in the callback, so that a
        /// result waiting to be written copies one order, not two.
        var order: OrderResponseModel? {
            if case .onPurchaseSuccess(let order) = callback { order } else { nil }
        }
    }
}
