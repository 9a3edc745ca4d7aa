import PaylinksAppcharge
import PaylinksFixtures
import PaylinksHTTP
import PaylinksJSON
import PaylinksKit

/// `paylinks check-links FILE|URL...`: the rules of the files that send Link Out's return
/// into the game, an `apple-app-site-association` and an `assetlinks.json`, read from
/// files or fetched from a server on this machine; one line per finding on stdout, then a
/// summary, and exit 1 when a rule is broken.
///
/// Every operand is read before any is checked, so that a URL paylinks will not fetch is
/// a usage error before anything is printed. Each input is then checked in turn: one that
/// cannot be read says so on stderr and the others are checked all the same; the run ends
/// with the first such input's code (66 missing, 65 not JSON, 69 not answering).
enum CheckLinksCommand: Subcommand {
    /// The largest file read or answer taken: far past Apple's 128 KB, so that a file too
    /// large is a finding, not a refusal.
    static let maximumSize = 1 << 20

    /// One operand: a file, or a URL on this machine.
    enum Input {
        /// A file, by its path.
        case file(String)
        /// A URL on this machine: a base (its path `/`), whose two well-known paths are
        /// fetched, or a file's own URL.
        case url(HTTPURL)
    }

    /// The findings of one file, and where it was read from.
    struct Checked {
        /// The file's path or URL.
        var source: String
        /// What it breaks.
        var findings: [LinkFinding]
    }

    static func run(_ options: RunOptions, catalog: Catalog, context: RunContext) throws(CLIError) -> ExitCode {
        if options.redirectUrl?.isEmpty == true {
            throw .usage(
                "--redirect-url needs the return URL the checkout sends to, such as https://game.example/return",
                command: .checkLinks)
        }
        if let url = options.redirectUrl, let problem = RedirectURL.problem(url) {
            throw .usage("--redirect-url '\(MessageText.sanitized(url))' \(problem)", command: .checkLinks)
        }
        var inputs: [Input] = []
        for operand in options.operands { inputs.append(try input(operand)) }
        var checked: [Checked] = []
        var failure: CLIError?
        for input in inputs {
            do {
                checked += try check(input, options)
            } catch {
                if let message = error.message { try? context.standardError.write(message + "\n") }
                failure = failure ?? error
            }
        }
        try PaylinksCLI.write(
            LinkReport.render(checked, format: options.format, color: PaylinksCLI.usesColor(options, context: context)),
            to: context.standardOutput)
        if let failure { return failure.exitCode }
        return checked.contains { $0.findings.contains { $0.severity == .problem } } ? .expectationsFailed : .success
    }

    /// What an operand is; a usage error for a URL paylinks does not fetch: https, or
    /// another machine's, which the user downloads and checks as a file.
    static func input(_ operand: String) throws(CLIError) -> Input {
        let lowered = operand.lowercased()
        guard lowered.hasPrefix("http://") || lowered.hasPrefix("https://") else { return .file(operand) }
        let shown = MessageText.sanitized(operand)
        let trimmed = String(shown.reversed().drop { $0 == "/" }.reversed())
        let named = LinkFileKind.allCases.first { trimmed.hasSuffix("/" + $0.fileName) }
        let file =
            named.map { "\($0.fileName) \(trimmed)" }
            ?? "apple-app-site-association \(trimmed)/.well-known/apple-app-site-association"
        // No -L: a redirect is itself a finding, which following it would hide.
        let download =
            "check-links fetches only http:// URLs on this machine (127.0.0.1, localhost, [::1]); download the file "
            + "first, such as with 'curl -fso \(file)', and check the file"
        guard lowered.hasPrefix("http://") else {
            throw .usage("cannot fetch '\(shown)': \(download)", command: .checkLinks)
        }
        let url: HTTPURL
        do {
            url = try HTTPURL(operand)
        } catch {
            throw .usage("cannot use '\(shown)': \(error)", command: .checkLinks)
        }
        guard isLoopback(url.host) else { throw .usage("cannot fetch '\(shown)': \(download)", command: .checkLinks) }
        return .url(url)
    }

    /// Whether `host` names this machine.
    static func isLoopback(_ host: String) -> Bool {
        let lowered = host.lowercased()
        if lowered == "localhost" || lowered == "::1" { return true }
        let parts = lowered.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts[0] == "127" && parts.allSatisfy { UInt8($0) != nil }
    }

    /// The files an input holds, each checked.
    private static func check(_ input: Input, _ options: RunOptions) throws(CLIError) -> [Checked] {
        switch input {
        case .file(let path):
            let bytes: [UInt8]
            do {
                bytes = try System.readFile(path, limit: maximumSize)
            } catch {
                throw .noInput("\(MessageText.sanitized(path)): \(describe(error)); give the path of the file to check")
            }
            let name = path.split(separator: "/").last ?? ""
            let root: JSONValue
            do {
                root = try JSONParser.parse(bytes)
            } catch {
                throw .invalidData(
                    "\(MessageText.sanitized(path)):\(error.position): not JSON: \(error.reason); fix the file, which the "
                        + "system reads as JSON")
            }
            let kind = options.linkKind ?? LinkFileKind(fileName: name) ?? LinkFileKind(shape: root) ?? .aasa
            return [
                Checked(
                    source: path,
                    findings: LinkFileRules.checkName(kind, name: name) + findings(bytes, kind, options, host: nil))
            ]
        case .url(let url):
            let bare = url.target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)[0]
            guard bare == "/" else { return [try fetch(url, kind: options.linkKind, options)] }
            var checked: [Checked] = []
            for kind in options.linkKind.map({ [$0] }) ?? LinkFileKind.allCases {
                var file = url
                file.target = kind.wellKnownPath
                checked.append(try fetch(file, kind: kind, options))
            }
            return checked
        }
    }

    /// The findings of the file at `url`: how it is served, and what it holds.
    private static func fetch(_ url: HTTPURL, kind given: LinkFileKind?, _ options: RunOptions)
        throws(CLIError) -> Checked
    {
        let response: HTTPResponse
        do {
            response = try get(url)
        } catch {
            // The URL was checked when it was read: its host and port hold no control characters.
            throw .unavailable("nothing answers at \(url): \(error); start the server that serves it, or check the URL")
        }
        let name = url.target.split(separator: "?").first?.split(separator: "/").last ?? ""
        let root = try? JSONParser.parse(response.body)
        let kind =
            given ?? LinkFileKind(fileName: name) ?? root.flatMap { LinkFileKind(shape: $0) }
            ?? (url.target.firstOccurrence(of: "assetlinks") != nil ? .assetlinks : .aasa)
        var found = LinkFileRules.checkServing(
            kind, path: url.target, status: response.status, contentType: response.header("content-type"),
            location: response.header("location"))
        // A 404 for an AASA served with the extension: the one extra GET says where it is.
        if response.status == 404, url.target == LinkFileKind.aasa.wellKnownPath {
            var json = url
            json.target += ".json"
            if (try? get(json))?.status == 200, let index = found.firstIndex(where: { $0.rule == "status-200" }) {
                found[index].fix = "it is served at \(json.target): serve it without the extension"
            }
        }
        if response.status == 200 {
            if root == nil {
                found.append(
                    LinkFinding(
                        .problem, "$", "json", "the answer is not JSON",
                        fix: "serve the \(kind.fileName) file itself, as JSON"))
            } else {
                found += findings(response.body, kind, options, host: url.host)
            }
        }
        return Checked(source: url.description, findings: found)
    }

    /// The answer to a GET of `url`, within the time and size check-links allows.
    private static func get(_ url: HTTPURL) throws -> HTTPResponse {
        let client = HTTPClient(url: url, connectTimeout: 5, responseTimeout: 10, maximumResponseSize: maximumSize)
        defer { client.close() }
        return try client.send(method: .get, headers: [], body: [])
    }

    /// What the JSON `bytes` of a `kind` file break.
    private static func findings(_ bytes: [UInt8], _ kind: LinkFileKind, _ options: RunOptions, host: String?)
        -> [LinkFinding]
    {
        // The bytes parsed once already: this cannot throw.
        (try? LinkFileRules.check(bytes, as: kind, redirectUrl: options.redirectUrl, host: host)) ?? []
    }

    /// A file that cannot be read, in words.
    private static func describe(_ error: FileSystemError) -> String {
        switch error {
        case .missing: "no such file"
        case .wrongKind: "a directory, not a file"
        case .notAFile: "not a regular file"
        case .unreadable(let reason): "cannot be read (\(reason))"
        case .tooLarge(let limit): "larger than \(limit >> 20) MiB, far past what the system reads"
        case .unwritable(let reason): "cannot be read (\(reason))"
        }
    }
}
