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
            guard let last = attempts.last, !last.granted else {
                return AwardVerdict(outcome: .granted, events: events)
            }
            var data = JSONWriter()
            data.openObject()
            data.field("awardAttempts", attempts.count)
            data.key("lastStatus")
            if let status = last.status { data.int(status) } else { data.null() }
            data.key("publisherErrorMessage")
            if let message = last.publisherErrorMessage { data.string(message) } else { data.null() }
            data.field("reason", last.failure ?? "")
            data.closeObject()
            return AwardVerdict(outcome: .failed(data: data.output), events: events)
        }
    }
}
