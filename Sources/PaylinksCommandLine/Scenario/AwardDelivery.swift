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
        awardGranter = { order in
            let award = GrantAward(
                order: order, basePriceInUSD: catalog.offer(sku: order.offerSku)?.basePriceInUSD ?? "0")
            var events: [(after: Int, message: String)] = []
            var previous = 0
            let url = sender.url.description
            let attempts = sender.deliver(award) { attempt in
                delegate.write(renderer.render(award: attempt, url: url, tag: delegate.currentTag))
                let headers = attempt.headers.map { "\($0.name): \($0.value)" }.joined(separator: ", ")
                events.append(
                    (attempt.sentAfter - previous, "award attempt \(attempt.number): POST \(url) (\(headers))"))
                let result =
                    attempt.publisherPurchaseId.map { "granted as \($0)" } ?? "failed: \(attempt.failure ?? "")"
                events.append((0, "award attempt \(attempt.number): \(result) after \(attempt.milliseconds) ms"))
                previous = attempt.sentAfter
            }
            guard let data = failureData(attempts) else { return AwardVerdict(outcome: .granted, events: events) }
            return AwardVerdict(outcome: .failed(data: data), events: events)
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
                    if let data = failureData(tries) { final = awardFailure(of: order, data: data) }
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
        func price(_ order: OrderResponseModel) -> String {
            catalog.offer(sku: order.offerSku)?.basePriceInUSD ?? "0"
        }
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
                        awards = GrantAward.Template(first: previous, second: paid, basePriceInUSD: price(paid))
                    }
                    previous = paid
                } else {
                    previous = nil
                }
            }
            let batch = results.compactMap { result in
                result.order.map { awards?.award(for: $0) ?? GrantAward(order: $0, basePriceInUSD: price($0)) }
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

/// The `error.data` of a purchase whose award failed on every attempt, or nil when the
/// last attempt granted it: how many attempts, the last status and the server's message.
func failureData(_ attempts: [AwardAttempt]) -> String? {
    guard let last = attempts.last, !last.granted else { return nil }
    var data = JSONWriter()
    data.openObject()
    data.field("awardAttempts", attempts.count)
    data.key("lastStatus")
    if let status = last.status { data.int(status) } else { data.null() }
    data.key("publisherErrorMessage")
    if let message = last.publisherErrorMessage { data.string(message) } else { data.null() }
    data.field("reason", last.failure ?? "")
    data.closeObject()
    return data.output
}
