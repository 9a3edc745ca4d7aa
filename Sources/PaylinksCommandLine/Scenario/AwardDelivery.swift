import PaylinksAppcharge
import PaylinksHTTP
import PaylinksJSON
import PaylinksKit

/// What signs and addresses award callbacks: the endpoint, the main key and the token.
struct AwardSettings {
    var url: HTTPURL
    var key: [UInt8]
    var publisherToken: String
    var waitsInRealTime: Bool
}

extension PaymentLinksSimulator {
    /// Has every validated payment's award delivered by `sender`: each attempt is written
    /// through `delegate` as the renderer shows it, and traced with its headers (the
    /// signature, never the key); an award whose every attempt failed fails the purchase.
    func grantAwards(with sender: AwardSender, renderer: any CallbackRenderer, delegate: RenderingDelegate) {
        let catalog = self.catalog
        let url = sender.url.description
        awardGranter = { order in
            let attempts = sender.deliver(GrantAward(order: order, catalog: catalog)) { attempt in
                delegate.write(renderer.render(award: attempt, url: url, tag: delegate.currentTag))
            }
            return AwardDelivery.verdict(attempts, url: url)
        }
    }

    /// Runs `count` checkouts whose awards go out `connections` at a time, writing each
    /// checkout's attempts and result in order, and returns the load's summary.
    func runAwardLoad(
        count: Int, connections: Int, settings: AwardSettings, renderer: any CallbackRenderer,
        delegate: RenderingDelegate, checkout: () throws(CheckoutSessionError) -> Void
    ) throws(CheckoutSessionError) -> String {
        let load = AwardLoad(
            url: settings.url, key: settings.key, publisherToken: settings.publisherToken, connections: connections)
        defer { load.close() }
        let recorder = RecordingDelegate()
        let output = self.delegate
        self.delegate = recorder
        defer { self.delegate = output }
        var paid: OrderResponseModel?
        awardGranter = { order in
            paid = order
            return AwardVerdict(outcome: .granted, events: [])
        }
        defer { awardGranter = nil }
        let url = settings.url.description
        /// Writes a batch's results, each with its award's attempts.
        func write(_ results: [(callback: Callback, order: OrderResponseModel?)], _ attempts: [[AwardAttempt]]) {
            var attempts = attempts.makeIterator()
            for (result, order) in results {
                delegate.begin(nil)
                var final = result
                if let order, let tries = attempts.next() {
                    for attempt in tries { delegate.write(renderer.render(award: attempt, url: url, tag: nil)) }
                    if let data = AwardDelivery.failureData(tries) { final = awardFailure(of: order, data: data) }
                }
                delegate.receive(final)
            }
        }
        let batchSize = max(256, connections * 8)
        var done = 0
        // While one batch's awards are on their way, the next batch's checkouts run.
        var sent: [(callback: Callback, order: OrderResponseModel?)] = []
        var previous: OrderResponseModel?
        var proven: OrderResponseModel?
        // The awards of proven orders come from a template, itself proven on two orders.
        var awards: GrantAward.Template?
        while done < count, delegate.failure == nil {
            var results: [(callback: Callback, order: OrderResponseModel?)] = []
            let size = min(batchSize, count - done)
            for _ in 0..<size {
                // Once a checkout has come out exactly as predicted from the one before,
                // the rest are that checkout under their own identifiers: not run again.
                if let proven {
                    let order = predictedOrder(like: proven)
                    skipCheckout()
                    results.append((.onPurchaseSuccess(order: order), order))
                    continue
                }
                let prediction = previous.map { predictedOrder(like: $0) }
                recorder.removeAll()
                paid = nil
                try checkout()
                guard let result = recorder.callbacks.last else { continue }
                results.append((result, paid))
                if let paid, result == .onPurchaseSuccess(order: paid), recorder.callbacks.count == 1 {
                    if paid == prediction, let previous {
                        proven = paid
                        awards = GrantAward.Template(
                            first: previous, second: paid,
                            basePriceInUSD: catalog.offer(sku: paid.offerSku)?.basePriceInUSD ?? "0")
                    }
                    previous = paid
                } else {
                    previous = nil
                }
            }
            let batch = results.compactMap { result in
                result.order.map { awards?.award(for: $0) ?? GrantAward(order: $0, catalog: catalog) }
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
}
