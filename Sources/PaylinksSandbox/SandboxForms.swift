import PaylinksAppcharge
import PaylinksFixtures
public import PaylinksHTTP
import PaylinksJSON
import PaylinksKit

/// What the routes read requests with (forms, query strings, JSON bodies) and write their
/// problems and deferred bodies with.
extension Sandbox {
    /// The answer to what the server refused on its own (a request it cannot take, one too
    /// slow to arrive, a connection past its limit): a JSON problem, as the sandbox's own
    /// refusals are, so that a client reads every error one way.
    public static func answer(to refusal: HTTPServer.Refusal) -> HTTPServerResponse {
        problem(refusal.status, refusal.message)
    }

    /// The log's line for what the server refused on its own, which has no request line
    /// of its own: `warning: POST /path refused (413): the body is larger than 1024 KiB`,
    /// `a request` for one whose request line was not read, or a connection's. One line
    /// whatever the client sent, its path and words cut short.
    public static func logLine(for refusal: HTTPServer.Refusal) -> String {
        let what =
            switch refusal {
            case .cannotTake(_, let line?):
                "\(SandboxPage.shortened(line.method, to: 20)) \(SandboxPage.shortened(line.path, to: 120))"
            case .tooManyConnections: "a connection"
            default: "a request"
            }
        return MessageText.oneLine(
            "warning: \(what) refused (\(refusal.status)): \(SandboxPage.shortened(refusal.message, to: 400))")
    }

    /// A JSON problem answer: `{"errorCode": status, "errorMessage": message}`, and with
    /// several `problems`, each of them in a list.
    public static func problem(_ status: Int, _ message: String, each problems: [String] = []) -> HTTPServerResponse {
        var writer = JSONWriter()
        writer.openObject()
        writer.field("errorCode", status)
        writer.field("errorMessage", message)
        if problems.count > 1 {
            writer.key("problems")
            writer.openArray()
            for problem in problems { writer.string(problem) }
            writer.closeArray()
        }
        writer.closeObject()
        return HTTPServerResponse(status: status, body: writer.bytes)
    }

    /// 401 in the shape Appcharge's reporting API uses.
    static func unauthorized(_ path: String, _ reason: String) -> HTTPServerResponse {
        reportingError(401, "Unauthorized", [reason], path: path)
    }

    /// An error in the reporting API's shape: `{statusCode, error, message: [{validationErrorNumber, error}], requestUrl}`.
    static func reportingError(_ status: Int, _ error: String, _ reasons: [String], path: String)
        -> HTTPServerResponse
    {
        var writer = JSONWriter()
        writer.openObject()
        writer.field("statusCode", status)
        writer.field("error", error)
        writer.key("message")
        writer.openArray()
        for (index, reason) in reasons.enumerated() {
            writer.openObject()
            writer.field("validationErrorNumber", index + 1)
            writer.field("error", reason)
            writer.closeObject()
        }
        writer.closeArray()
        writer.field("requestUrl", path)
        writer.closeObject()
        return HTTPServerResponse(status: status, body: writer.bytes)
    }

    /// 404 for a purchase id the sandbox holds no session of, saying why one may be gone.
    func noSession(_ purchaseId: String) -> HTTPServerResponse {
        let none = "no checkout session has the purchase id '\(purchaseId)'"
        guard let (meant, named) = sessions.purchaseId(otherwiseNamed: purchaseId) else {
            return Sandbox.problem(
                404,
                "\(none); the sandbox forgets unpaid sessions two hours old, and the oldest past 10,000 or "
                    + "past its --session-budget")
        }
        let what = named == .token ? "checkout session token" : "order id"
        return Sandbox.problem(404, "\(none); that is the \(what) of the session '\(meant)': send its purchase id")
    }

    /// The `errorMessage` of a problem answer.
    static func problemText(_ response: HTTPServerResponse) -> String {
        words(of: response) ?? "refused (\(response.status))"
    }

    /// The words a JSON answer gives its client: its `errorMessage` (the sandbox's
    /// problems), its `message` (Appcharge's Price Localization API and refunds), or the
    /// `error` of each of its `message`'s entries (Appcharge's reporting and Cancel Session,
    /// `{"message": [{"error": "..."}]}`); nil when it has none.
    static func words(of response: HTTPServerResponse) -> String? {
        guard response.body.first == UInt8(ascii: "{"), let value = try? JSONParser.parse(response.body) else {
            return nil
        }
        for words in [value.member("errorMessage"), value.member("message")] {
            switch words?.kind {
            case .string(let text)?: return text
            case .array(let entries)?:
                let errors = entries.compactMap { $0.member("error")?.stringValue }
                if !errors.isEmpty { return errors.joined(separator: "; ") }
            default: continue
            }
        }
        return nil
    }

    /// 200 with a body `body` makes later, outside the server's lock, from what it captured
    /// now: a report or a page that may take a while and megabytes to write.
    static func later(contentType: String = "application/json", _ body: @escaping @Sendable () -> [UInt8])
        -> HTTPAnswer
    {
        .later(HTTPServerResponse(status: 200, contentType: contentType, body: []), body: body)
    }

    /// The content type of the sandbox's pages.
    static let html = "text/html; charset=utf-8"

    /// A form of a page refused with `status`: a short page, `title` and `message`, as a
    /// browser shows it.
    static func refusedPage(_ status: Int, title: String, _ message: String) -> HTTPServerResponse {
        HTTPServerResponse(
            status: status, contentType: html,
            body: Array(SandboxPage.refused(title: title, SandboxPage.escaped(message)).utf8))
    }

    /// Whether the request's body is sent as `application/json`.
    static func isJSON(_ request: HTTPRequest) -> Bool {
        request.hasContentType("application/json")
    }

    /// Why a request whose body is not sent as `application/json` is refused (415):
    /// `instruction`, how to send it with curl, then the type the request named, or that it
    /// named none.
    static func notJSON(_ request: HTTPRequest, _ instruction: String) -> String {
        let sent = request.header("content-type").map { "its Content-Type is '\(MessageText.sanitized($0))'" }
        return "\(instruction) (with curl, -H 'Content-Type: application/json'); \(sent ?? "it sends no Content-Type")"
    }

    /// `response`, which refuses what `request` sent, with a log line that says why in
    /// `reason`, the words the client has in the answer.
    func refused(_ request: HTTPRequest, _ response: HTTPServerResponse, saying reason: String) -> HTTPAnswer {
        sayRefused(request, reason)
        return .ready(response)
    }

    /// Logs that `request` was refused, and why: `warning: POST /path refused: why`.
    /// The path and the reason are cut short (the request's line has the whole path): an
    /// id the answer quotes from a path of 16 KiB would double the line.
    func sayRefused(_ request: HTTPRequest, _ reason: String) {
        refusalSaid = true
        onLog(
            "warning: \(request.method) \(SandboxPage.shortened(request.path, to: 120)) refused: "
                + SandboxPage.shortened(reason, to: 400))
    }

    /// The words of a JSON answer that refuses a request (4xx), as ``words(of:)``; nil for
    /// any other answer.
    static func refusalWords(_ response: HTTPServerResponse) -> String? {
        (400..<500).contains(response.status) ? words(of: response) : nil
    }

    /// Why a body is not the JSON object an API takes, in a phrase that what to send
    /// follows.
    struct NotAnObject: Error {
        /// "the body is not JSON: ... (line 1)", "the body is an array, not a JSON object".
        var words: String
    }

    /// The members of the JSON object `request`'s body holds, or why it holds none: empty,
    /// not JSON (what the parser found wrong, and where), or JSON of another type.
    static func jsonObject(_ request: HTTPRequest) -> Result<[(key: String, value: JSONValue)], NotAnObject> {
        // The guard refuses any other type first (415); this holds without it too.
        guard isJSON(request) else { return .failure(NotAnObject(words: notJSON(request, "the body is not JSON"))) }
        let value: JSONValue
        do {
            value = try JSONParser.parse(request.body)
        } catch {
            return .failure(NotAnObject(words: error.bodyProblem))
        }
        guard case .object(let members) = value.kind else {
            return .failure(NotAnObject(words: "the body is \(value.typeDescription), not a JSON object"))
        }
        return .success(members)
    }

    /// "; did you mean X?" for the one of `names` that `text` was likely meant to be (the
    /// same but for case and blanks, or a typo away), or nothing.
    static func meant(_ text: String, among names: [String]) -> String {
        let plain = trimmed(text).lowercased()
        if let same = names.first(where: { $0 == plain }) { return Suggestion.didYouMean(same, quoted: .bare) }
        return Suggestion.hint(for: text, among: names, quoted: .bare) ?? ""
    }

    /// `text` without the white space around it.
    static func trimmed(_ text: String) -> String {
        let start = text.firstIndex { !$0.isWhitespace } ?? text.endIndex
        let end = text.lastIndex { !$0.isWhitespace }.map { text.index(after: $0) } ?? start
        return String(text[start..<end])
    }

    /// What a peer typed, short enough to quote in a message: its first 24 characters.
    static func quoted(_ text: String) -> String {
        text.count > 24 ? text.prefix(24) + "…" : text
    }

    /// The fields of an `application/x-www-form-urlencoded` body, the last of a name winning.
    static func form(_ body: [UInt8]) -> [String: String] {
        var fields: [String: String] = [:]
        for (name, value) in pairs(body) { fields[name] = value }
        return fields
    }

    /// The fields of a form or a query string, in order.
    static func pairs(_ body: [UInt8]) -> [(name: String, value: String)] {
        String(decoding: body, as: UTF8.self).split(separator: "&").compactMap { pair in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let name = parts.first.map({ percentDecoded($0) }) else { return nil }
            return (name, parts.count > 1 ? percentDecoded(parts[1]) : "")
        }
    }

    /// `text` with `+` as a space and each `%XX` as its byte; a broken escape is left out.
    private static func percentDecoded(_ text: Substring) -> String {
        String(decoding: PercentCoding.decoded(text, plusAsSpace: true, strict: false) ?? [], as: UTF8.self)
    }

    /// `text` for a URL: letters, digits and `-._~` as they are, the rest `%XX`.
    static func percentEncoded(_ text: String) -> String {
        PercentCoding.encoded(text)
    }

    /// A secret as the sandbox shows it: its first 4 characters and `…`, enough to tell
    /// the demo token from the studio's; `…` alone for one shorter than 16, of which 4
    /// would be too much.
    static func masked(_ secret: String) -> String {
        secret.count < 16 ? "…" : secret.prefix(4) + "…"
    }
}

extension Result where Failure == Sandbox.NotAnObject {
    /// The 400 that refuses a body that is not a JSON object: why, then what to send,
    /// `shape`.
    func refusal(_ shape: String) -> HTTPServerResponse {
        guard case .failure(let problem) = self else { return Sandbox.problem(400, shape) }
        return Sandbox.problem(400, "\(problem.words); \(shape)")
    }
}
