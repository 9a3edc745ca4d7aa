import PaylinksAppcharge
import PaylinksFixtures
import PaylinksHTTP
import PaylinksJSON
import PaylinksKit

/// What signs and addresses award callbacks: the endpoint, the main key and the token.
struct AwardSettings {
    var url: HTTPURL
    var key: [UInt8]
    var publisherToken: String
    var waitsInRealTime: Bool

    /// Where awards go and how they are signed: the main key from `--main-key-file` or
    /// `PAYLINKS_MAIN_KEY`, the token from `--publisher-token` or `PAYLINKS_PUBLISHER_TOKEN`,
    /// else the documented demo ones, said once on stderr. The key is never shown.
    init(url: HTTPURL, options: RunOptions, context: RunContext) throws(CLIError) {
        var keyFromFile: [UInt8]?
        if let path = options.mainKeyFile {
            var bytes = try Inputs.readInput(path, kind: "main key file", limit: 4096).bytes
            while let last = bytes.last, last == 10 || last == 13 || last == 32 || last == 9 { bytes.removeLast() }
            guard !bytes.isEmpty else {
                throw .noInput(
                    "the main key file '\(MessageText.sanitized(path))' is empty; put the studio's main key in it")
            }
            keyFromFile = bytes
        }
        let credentials = Credentials(
            keyFromFile: keyFromFile, keyFromEnvironment: context.value(of: .mainKey),
            tokenFromOption: options.publisherToken, tokenFromEnvironment: try context.headerValue(of: .publisherToken))
        // The demo setup is worth a note; a studio that set its key or token has chosen its own.
        if credentials.isDemo {
            try? context.standardError.write(
                "note: award callbacks use the demo main key and publisher token (see the README); set "
                    + "PAYLINKS_MAIN_KEY or --main-key-file, and PAYLINKS_PUBLISHER_TOKEN or --publisher-token, "
                    + "to your studio's\n")
        }
        self.url = url
        key = credentials.key
        publisherToken = credentials.publisherToken
        waitsInRealTime = options.awardWait == .real
    }
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
}
