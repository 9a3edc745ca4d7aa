import PaylinksAppcharge
import PaylinksDelivery
import PaylinksFixtures
import PaylinksHTTP

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

    /// Where award callbacks to `url` go: signed as ``awards(options:)`` says.
    func awards(to url: HTTPURL, options: RunOptions) -> DeliveryDestination {
        DeliveryDestination(url: url, signing: awards(options: options))
    }

    /// How award callbacks are signed: with the main key, with the token, waiting between
    /// attempts as `--award-wait` says.
    func awards(options: RunOptions) -> DeliverySigning {
        DeliverySigning(key: key, publisherToken: publisherToken, waitsInRealTime: options.awardWait == .real)
    }

    /// Where events to `url` go: signed as ``events(options:)`` says.
    func events(to url: HTTPURL, options: RunOptions) throws(CLIError) -> DeliveryDestination {
        DeliveryDestination(url: url, signing: try events(options: options))
    }

    /// How events are signed: with the events key, with the token and the project id, in
    /// `--events-version`'s shape, waiting between attempts as `--events-wait` says.
    func events(options: RunOptions) throws(CLIError) -> DeliverySigning {
        DeliverySigning(
            key: try eventsKey(options: options), publisherToken: publisherToken, projectId: options.projectId,
            version: options.eventsVersion, waitsInRealTime: options.eventsWait == .real)
    }

    /// The key events are signed with: `--events-key-file`'s, else the main key.
    func eventsKey(options: RunOptions) throws(CLIError) -> [UInt8] {
        try options.eventsKeyFile.map { (path) throws(CLIError) in try Self.key(in: path, kind: "events") } ?? key
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

extension EventSettings {
    /// Settings for events that go nowhere: a run that follows its orders' states without
    /// an events URL.
    static let unsent = EventSettings(
        url: nil,
        signing: DeliverySigning(
            key: Array(DemoCredentials.mainKey.utf8), publisherToken: DemoCredentials.publisherToken,
            projectId: DemoCredentials.projectId, version: .v2, waitsInRealTime: false))

    /// Where events go and how they are signed: `--events-key-file`'s key, else `signing`'s.
    init(options: RunOptions, signing: Signing) throws(CLIError) {
        self.init(url: options.eventsUrl, signing: try signing.events(options: options))
    }
}
