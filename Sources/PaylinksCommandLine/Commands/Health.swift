import PaylinksFixtures
import PaylinksHTTP
import PaylinksJSON
import PaylinksKit

/// `paylinks health URL`: asks the sandbox at URL (its base URL) for
/// `GET /control/v1/health`, within `--timeout`; one line on stdout and 0 when a paylinks
/// sandbox answers, else one line on stderr and 69. It reads no fixture and no default
/// from the environment, so that what it says depends on the sandbox alone.
enum HealthCommand: Subcommand {
    static func run(_ options: RunOptions, catalog: Catalog, context: RunContext) throws(CLIError) -> ExitCode {
        var url = try baseURL(options.operands.first ?? "")
        url.target = trimmed(url.target) + "/control/v1/health"
        // As the sandbox's --port-file writes it: without a trailing slash.
        let base = trimmed(try baseURL(options.operands.first ?? "").description)
        let seconds = Double(options.healthTimeout)
        let client = HTTPClient(
            url: url, connectTimeout: seconds, responseTimeout: seconds, maximumResponseSize: 1 << 16)
        defer { client.close() }
        let response: HTTPResponse
        do {
            response = try client.send(method: .get, headers: [], body: [])
        } catch {
            throw .unavailable(problem(error, at: base, timeout: options.healthTimeout))
        }
        guard response.status == 200 else {
            throw .unavailable(problem(status: response.status, at: base, host: url.host))
        }
        guard let health = Health(response.body) else {
            throw .unavailable(
                "what answers at \(base) is not a paylinks sandbox: GET \(url.target) answered 200 without its "
                    + "status, version and sessions; check the URL and its port")
        }
        let sessions = health.sessions == 1 ? "1 session" : "\(health.sessions) sessions"
        try PaylinksCLI.write(
            MessageText.oneLine("ok: paylinks sandbox \(health.version) at \(base), \(sessions)") + "\n",
            to: context.standardOutput)
        return .success
    }

    /// The sandbox's base URL as given, such as `http://127.0.0.1:4010` or one with a path
    /// a proxy serves it under, without a query; the health endpoint's own URL is taken for
    /// its base. A usage error for one paylinks cannot use.
    static func baseURL(_ text: String) throws(CLIError) -> HTTPURL {
        let shown = MessageText.sanitized(text)
        var url: HTTPURL
        do {
            url = try HTTPURL(text)
        } catch {
            let lowered = text.lowercased()
            guard lowered.hasPrefix("http://") || lowered.hasPrefix("https://"), case .invalidURL(_, let reason) = error
            else {
                throw .usage(
                    "give the sandbox's base URL, such as http://127.0.0.1:4010, not '\(shown)'", command: .health)
            }
            throw .usage(
                "cannot use '\(shown)': \(reason); give the sandbox's base URL, such as http://127.0.0.1:4010",
                command: .health)
        }
        guard !url.target.contains("?") else {
            throw .usage(
                "give the sandbox's base URL, such as http://127.0.0.1:4010, without a query, not '\(shown)'",
                command: .health)
        }
        let endpoint = "/control/v1/health"
        let target = trimmed(url.target)
        if target.hasSuffix(endpoint) { url.target = String(target.dropLast(endpoint.count)) + "/" }
        return url
    }

    /// `text` without its trailing slashes.
    private static func trimmed(_ text: String) -> String {
        String(text.reversed().drop { $0 == "/" }.reversed())
    }

    /// What a failed request to the sandbox at `base` means, and what to do.
    static func problem(_ error: HTTPError, at base: String, timeout: Int) -> String {
        switch error {
        case .timedOut(let phase, _) where phase != "connecting":
            return "the sandbox at \(base) did not answer within \(timeout) s (\(error)); it may be stalled: read its "
                + "log, or give a longer --timeout"
        case _ where error.meansNothingListens:
            return "no sandbox answers at \(base): \(error); start one with 'paylinks serve', or check the URL and "
                + "its port"
        case .malformedResponse, .connectionClosed, .responseTooLarge:
            return "what answers at \(base) is not a paylinks sandbox: \(error); check the URL and its port"
        default:
            return "cannot ask the sandbox at \(base): \(error); check the URL and its port"
        }
    }

    /// What an answer other than 200 means, and what to do.
    static func problem(status: Int, at base: String, host: String) -> String {
        switch status {
        case 421:
            return "the sandbox at \(base) answered 421: it does not answer to the name '\(host)'; start serve "
                + "with --allowed-host \(host), or use its IP address"
        case 404, 405:
            return "what answers at \(base) is not a paylinks sandbox: GET /control/v1/health answered \(status); "
                + "check the URL and its port"
        default:
            return "the sandbox at \(base) answered \(status) to GET /control/v1/health; read its log"
        }
    }

    /// What a sandbox's health says of itself.
    struct Health {
        /// The version of paylinks that serves.
        var version: String
        /// The sessions it holds.
        var sessions: Int

        /// Reads `body`; nil when it is not a sandbox's health: `"status": "ok"`, a version
        /// and a count of sessions.
        init?(_ body: [UInt8]) {
            guard let value = try? JSONParser.parse(body), case .object(let members) = value.kind else { return nil }
            let field = { (name: String) in members.first { $0.key == name }?.value.kind }
            guard case .string("ok")? = field("status"), case .string(let version)? = field("version"),
                case .number(let count)? = field("sessions"), let sessions = Int(count)
            else { return nil }
            self.version = version
            self.sessions = sessions
        }
    }
}
