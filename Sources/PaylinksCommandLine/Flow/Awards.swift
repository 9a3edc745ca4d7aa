import PaylinksAppcharge
import PaylinksDelivery
import PaylinksFixtures
import PaylinksHTTP
import PaylinksJSON
import PaylinksKit

/// The main key and the publisher token that sign award callbacks and events: the key
/// from `--main-key-file` or `PAYLINKS_MAIN_KEY`, the token from `--publisher-token` or
/// `PAYLINKS_PUBLISHER_TOKEN`, else the documented demo ones, said once on stderr. The key
/// is never shown.
struct Signing {
    var key: [UInt8]
    var publisherToken: String

    /// Whether both are the demo ones.
    var isDemo: Bool

    /// The credentials as the options and the environment give them.
    init(options: RunOptions, context: RunContext) throws(CLIError) {
        let keyFile = try options.mainKeyFile.map { (path) throws(CLIError) in try Self.key(in: path, kind: "main") }
        let credentials = Credentials(
            keyFromFile: keyFile, keyFromEnvironment: context.value(of: .mainKey),
            tokenFromOption: options.publisherToken, tokenFromEnvironment: try context.headerValue(of: .publisherToken))
        key = credentials.key
        publisherToken = credentials.publisherToken
        isDemo = credentials.isDemo
    }

    /// The credentials, and the note about the demo ones; `uses` names what they sign.
    init(options: RunOptions, context: RunContext, uses: String) throws(CLIError) {
        try self.init(options: options, context: context)
        note(uses: uses, context: context)
    }

    /// Says on stderr that the demo credentials sign `uses`, when they do: worth a note,
    /// where a studio that set its key or token has chosen its own. Said once every input
    /// is read, so that an error is the only line of a run that fails.
    func note(uses: String, context: RunContext) {
        guard isDemo else { return }
        try? context.standardError.write(
            "note: \(uses) use the demo main key and publisher token (see the README); set "
                + "PAYLINKS_MAIN_KEY or --main-key-file, and PAYLINKS_PUBLISHER_TOKEN or --publisher-token, "
                + "to your studio's own\n")
    }

    /// The key a key file holds, without the line end an editor adds.
    static func key(in path: String, kind: String) throws(CLIError) -> [UInt8] {
        var bytes = try Inputs.readInput(path, kind: "\(kind) key file", limit: 4096).bytes
        while let last = bytes.last, last == 10 || last == 13 || last == 32 || last == 9 { bytes.removeLast() }
        guard !bytes.isEmpty else {
            throw .noInput(
                "the \(kind) key file '\(MessageText.sanitized(path))' is empty; put the studio's \(kind) key in it")
        }
        return bytes
    }
}

/// What signs and addresses award callbacks: the endpoint, the main key and the token.
struct AwardSettings {
    var url: HTTPURL
    var key: [UInt8]
    var publisherToken: String
    var waitsInRealTime: Bool

    /// Where awards go, signed as `signing` says.
    init(url: HTTPURL, signing: Signing, options: RunOptions) {
        self.url = url
        key = signing.key
        publisherToken = signing.publisherToken
        waitsInRealTime = options.awardWait == .real
    }

    /// Where awards go, signed with the credentials the options and the environment give.
    init(url: HTTPURL, options: RunOptions, context: RunContext) throws(CLIError) {
        self.init(
            url: url, signing: try Signing(options: options, context: context, uses: "award callbacks"),
            options: options)
    }
}

extension EventSettings {
    /// Settings for events that go nowhere: a run that follows its orders' states without
    /// an events URL.
    static let unsent = EventSettings(
        url: nil, version: .v2, key: Array(DemoCredentials.mainKey.utf8),
        publisherToken: DemoCredentials.publisherToken,
        projectId: DemoCredentials.projectId, waitsInRealTime: false)

    /// Where events go and how they are signed: `--events-key-file`'s key, else `signing`'s.
    init(options: RunOptions, signing: Signing) throws(CLIError) {
        url = options.eventsUrl
        version = options.eventsVersion
        key =
            try options.eventsKeyFile.map { (path) throws(CLIError) in try Signing.key(in: path, kind: "events") }
            ?? signing.key
        publisherToken = signing.publisherToken
        projectId = options.projectId
        waitsInRealTime = options.eventsWait == .real
    }
}

extension PaymentLinksSimulator {
    /// Has every validated payment's award delivered by `sender`: each attempt is written
    /// through `delegate` as the renderer shows it, and traced with its headers (the
    /// signature, never the key); an award whose every attempt failed fails the purchase.
    /// `events`, when given, hears of each order paid before its award goes out, and of
    /// an award that failed.
    func grantAwards(
        with sender: AwardSender, renderer: any CallbackRenderer, delegate: RenderingDelegate,
        events: EventOutlet? = nil
    ) {
        let catalog = self.catalog
        let url = sender.url.description
        awardGranter = { [unowned self] order in
            events?.paid(order, at: virtualMilliseconds)
            let attempts = sender.deliver(GrantAward(order: order, catalog: catalog)) { attempt in
                delegate.write(renderer.render(award: attempt, url: url, tag: delegate.currentTag))
            }
            let verdict = AwardDelivery.verdict(attempts, url: url)
            if case .failed = verdict.outcome { events?.awardFailed() }
            return verdict
        }
    }

    /// The virtual clock now, in Unix milliseconds: the start, and the time simulated since.
    var virtualMilliseconds: Int {
        let (start, overflow) = now.multipliedReportingOverflow(by: 1000)
        guard !overflow, start <= Int.max - elapsedMilliseconds else { return Int.max }
        return start + elapsedMilliseconds
    }
}
