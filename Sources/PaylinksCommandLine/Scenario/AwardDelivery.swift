import PaylinksHTTP
import PaylinksKit

/// The demo credentials award callbacks are signed with when the studio gives none.
enum DemoCredentials {
    /// The demo main key: documented, so that a test receiver can check signatures.
    static let mainKey = "paylinks-demo-main-key"
    /// The demo publisher token.
    static let publisherToken = "paylinks-demo-publisher-token"
}

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
        let batchSize = max(64, connections * 8)
        var done = 0
        while done < count, delegate.failure == nil {
            // A batch of checkouts as far as their awards, then the awards all at once.
            var results: [(callback: Callback, order: OrderResponseModel?)] = []
            let size = min(batchSize, count - done)
            for _ in 0..<size {
                recorder.removeAll()
                paid = nil
                try checkout()
                guard let result = recorder.callbacks.last else { continue }
                results.append((result, paid))
            }
            let awards = results.compactMap { result in
                result.order.map {
                    GrantAward(order: $0, basePriceInUSD: catalog.offer(sku: $0.offerSku)?.basePriceInUSD ?? "0")
                }
            }
            var attempts = load.deliver(awards).makeIterator()
            for (result, order) in results {
                delegate.begin(nil)
                var final = result
                if let order, let tries = attempts.next() {
                    for attempt in tries { delegate.write(renderer.render(award: attempt, url: url, tag: nil)) }
                    if let data = failureData(tries) { final = awardFailure(of: order, data: data) }
                }
                delegate.receive(final)
            }
            done += size
        }
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
