import PaylinksHTTP
import PaylinksKit

/// The checks every request to the sandbox passes before it is routed, written once, as a
/// server's middleware is. Any web page the developer opens can send requests to a sandbox
/// on their machine, so, as Vite's and webpack-dev-server's development servers had to
/// (CVE-2025-24010):
/// - it answers only to the names it serves: a DNS rebinding points a name of the
///   attacker's at 127.0.0.1 and reads the sandbox as that site (Vite's
///   `server.allowedHosts`);
/// - it takes a state change (every method but GET, HEAD and OPTIONS) only from its own
///   pages or from a client that is no page: a foreign `Origin` (or, without one,
///   `Referer`) is refused; its forms carry a token of the process, which no other page
///   can read; the control API takes JSON only, which a page can send another site only
///   after a preflight the sandbox never grants;
/// - its pages cannot be framed, so that no page can make the developer click their buttons.
///
/// It reads only the settings, which never change, so that any loop may ask it at once.
struct SandboxGuard: Sendable {
    /// The names the sandbox answers to besides IP literals, lowercased: `localhost`, the
    /// `--public-url` host and each `--allowed-host`.
    let names: Set<String>
    /// The origin of `--public-url`, whose pages are the sandbox's own however a proxy
    /// names the sandbox to it.
    let publicOrigin: Origin?
    /// The address the sandbox listens at: what a request without a `Host` reached.
    let listening: Authority?
    /// The token every form of the sandbox's pages carries.
    let formToken: [UInt8]
    /// The `Host` a client of the listening address sends (`127.0.0.1:4010`), taken as it
    /// is without being read again, when the sandbox answers to it.
    private(set) var listeningHost: String?

    /// The name of the form field that carries the token.
    static let formTokenField = "formToken"

    /// A guard for a sandbox with `settings`.
    init(settings: Sandbox.Settings) {
        var names: Set<String> = ["localhost"]
        publicOrigin = settings.publicURL.flatMap { Origin($0) }
        if let publicOrigin { names.insert(publicOrigin.authority.host) }
        for name in settings.allowedHosts { names.insert(name.lowercased()) }
        self.names = names
        listening = Origin(settings.baseURL)?.authority
        formToken = Array(settings.formToken.utf8)
        let base = settings.baseURL.drop { $0 != "/" }.drop { $0 == "/" }
        let host = base.prefix { $0 != "/" }
        if let named = Authority(host), named == listening, answers(to: named) { listeningHost = String(host) }
    }

    /// The answer that refuses `request`, or nil when it may be routed. A request that no
    /// route takes (`routed` false) is answered 404 or 405, which change nothing: only its
    /// Host is checked, so that it learns which methods the path takes, whoever sent it.
    /// `segments` are the path's, after its leading `/`.
    func refusal(_ request: HTTPRequest, segments: [Substring], routed: Bool) -> HTTPServerResponse? {
        let audience = Audience(segments: segments)
        var reached: Authority?
        // Every Host a request names is checked: a second one must not slip past the first.
        for header in request.headers where header.isNamed("host") && !header.value.isEmpty {
            if header.value == listeningHost {
                reached = reached ?? listening
                continue
            }
            guard let authority = Authority(Substring(header.value)), answers(to: authority) else {
                return misdirected(header.value, audience: audience)
            }
            reached = reached ?? authority
        }
        switch request.method {
        case .get, .head, .options: return nil
        default: guard routed else { return nil }
        }
        // A page names itself in Origin, or in Referer when an older browser sends no Origin;
        // a server's client, curl or a script sends neither, and is no page.
        if let source = request.header("origin") ?? request.header("referer") {
            guard let origin = Origin(source), isOwn(origin, reached: reached ?? listening) else {
                return forbidden(
                    audience: audience,
                    "a page of \(Self.shown(source)) cannot change the sandbox; it takes changes from its own pages "
                        + "and from clients that are no page (they send no Origin)",
                    page: "A page of another site, \(Self.shown(source)), sent this. The sandbox takes changes from "
                        + "its own pages only; open the order's page here and use its forms.")
            }
        }
        // The other pages of this origin cannot read the forms' token, so a form that was
        // not the sandbox's own (or one of a sandbox started before this one) is refused.
        guard request.method == .post else { return nil }
        switch audience {
        case .browser?:
            let sent = Array((Sandbox.form(request.body)[Self.formTokenField] ?? "").utf8)
            guard !formToken.isEmpty, Self.sameBytes(sent, formToken) else {
                return forbidden(
                    audience: audience,
                    "the form's token is missing or of another run of the sandbox; reload the page and send it again",
                    page: "This form is from another run of the sandbox, or from another page. Reload the page and "
                        + "send it again.")
            }
        case .scripts?:
            // No page can send another site JSON without a preflight, which the sandbox
            // never grants: an empty body too, or a page's fetch would reach the route.
            guard Sandbox.isJSON(request) else {
                return Sandbox.problem(
                    415,
                    Sandbox.notJSON(
                        request, "send the control API's body as Content-Type: application/json, an empty body too"
                    ))
            }
        case .gameServer?, .link?, nil:
            // The legacy link takes no form: any method reaches its route, which answers 404
            // for a path that is no session's token. Appcharge's API asks the game's server for its token or the session's in a
            // header, which no page can send another site without a preflight either.
            break
        }
        return nil
    }

    /// Whether the sandbox answers to `authority`'s host: an IP literal (no rebinding
    /// reaches it), or a name it serves.
    func answers(to authority: Authority) -> Bool {
        authority.isIPLiteral || serves(authority.host)
    }

    /// Whether `host` is a name the sandbox serves: `localhost` and every name under it
    /// (which browsers resolve to loopback themselves, never through DNS: RFC 6761), the
    /// `--public-url` host, and each `--allowed-host`, one that starts with a dot naming
    /// that domain and every name under it, as Vite's `server.allowedHosts` does. A name
    /// with its root's dot (`localhost.`) is the same name.
    func serves(_ host: String) -> Bool {
        let name = host.hasSuffix(".") ? String(host.dropLast()) : host
        if name == "localhost" || name.hasSuffix(".localhost") || names.contains(name) { return true }
        return names.contains { domain in
            domain.hasPrefix(".") && (name.hasSuffix(domain) || name == domain.dropFirst())
        }
    }

    /// Whether a page of `origin` is the sandbox's own, when the request reached it at
    /// `reached`: the `--public-url` origin, or `http` (what the sandbox speaks; https
    /// comes through a proxy, which `--public-url` names) with the host it was reached by
    /// (or a name it serves) and the port it was reached at. An address other than the one
    /// reached is another machine's page, even though the sandbox answers to every address.
    func isOwn(_ origin: Origin, reached: Authority?) -> Bool {
        if origin == publicOrigin { return true }
        guard let reached, origin.scheme == "http" else { return false }
        let host = origin.authority.host
        return (host == reached.host || serves(host)) && origin.authority.port == reached.port
    }

    /// Adds what every answer of the sandbox's needs: its pages may not be framed, by
    /// the header older browsers read and by the policy newer ones do, which also keeps
    /// them to what the sandbox serves (``SandboxPage/contentSecurityPolicy``), unless the
    /// page set a policy of its own (a Link Out checkout's, whose form may end at the game).
    func finish(_ response: inout HTTPServerResponse) {
        let type = response.headers.value(named: "content-type") ?? ""
        guard type.hasPrefix("text/html") else { return }
        response.headers.append(HTTPHeader("X-Frame-Options", "DENY"))
        guard !response.headers.contains(where: { $0.isNamed("content-security-policy") }) else { return }
        response.headers.append(HTTPHeader("Content-Security-Policy", SandboxPage.contentSecurityPolicy))
    }

    /// Whether `sent` is `expected`, in a time that does not depend on where they differ.
    static func sameBytes(_ sent: [UInt8], _ expected: [UInt8]) -> Bool {
        // The length is no secret: every token has the same.
        guard sent.count == expected.count else { return false }
        var difference: UInt8 = 0
        for index in expected.indices { difference |= sent[index] ^ expected[index] }
        return difference == 0
    }

    /// A header's value for a message: at most 100 characters.
    private static func shown(_ value: String) -> String { String(value.prefix(100)) }

    /// 403, a short page or a JSON problem as the path's audience reads it.
    private func forbidden(audience: Audience?, _ message: String, page: String) -> HTTPServerResponse {
        guard audience?.readsPages == true else { return Sandbox.problem(403, message) }
        return HTTPServerResponse(
            status: 403, contentType: "text/html; charset=utf-8",
            body: Array(SandboxPage.refused(title: "Refused", SandboxPage.escaped(page)).utf8))
    }

    /// 421 to a `Host` the sandbox does not serve, a short page or a JSON problem as the
    /// path's audience reads it.
    private func misdirected(_ host: String, audience: Audience?) -> HTTPServerResponse {
        let shown = String(host.prefix(100))
        let name = Authority(Substring(host))?.host ?? "NAME"
        let advice = "start serve with --allowed-host \(name) to reach it by that name, or use its address"
        guard audience?.readsPages == true else {
            return Sandbox.problem(421, "the sandbox does not answer to the host '\(shown)'; \(advice)")
        }
        return HTTPServerResponse(
            status: 421, contentType: "text/html; charset=utf-8",
            body: Array(
                SandboxPage.refused(
                    title: "Misdirected request",
                    "This sandbox does not answer to the host <span class=\"state\">\(SandboxPage.escaped(shown))</span>; "
                        + "\(SandboxPage.escaped(advice))."
                ).utf8))
    }
}

extension SandboxGuard {
    /// Who a path is for, which decides how a refusal is worded.
    enum Audience: Equatable {
        /// The dashboard, the order and player pages and the checkout page: HTML and forms.
        case browser
        /// Appcharge's legacy checkout link, `/TOKEN`: a page, which takes no form.
        case link
        /// The control API, for scripts: JSON.
        case scripts
        /// Appcharge's API, which the game's server calls with its credentials in a header.
        case gameServer

        /// The audience of a path of `segments` (after its leading `/`); nil for a path the
        /// sandbox does not serve, and for `/openapi.json`, which scripts and tools read and
        /// which is refused to them in JSON, as the control API is, but takes no body of
        /// theirs to check.
        init?(segments parts: [Substring]) {
            switch parts.first {
            case "": self = .browser
            case "orders", "players", "deliveries", "clock": self = .browser
            // `/checkout/TOKEN` is the checkout page; deeper paths are Appcharge's API.
            case "checkout": self = parts.count == 2 ? .browser : .gameServer
            case "control": self = .scripts
            case "reporting", "v1": self = .gameServer
            case "openapi.json" where parts.count == 1: return nil
            // Any other single segment is the legacy link's `/TOKEN`.
            case _ where parts.count == 1: self = .link
            default: return nil
            }
        }

        /// Whether a refusal is a short page, as a browser shows it, rather than JSON.
        var readsPages: Bool { self == .browser || self == .link }
    }

    /// A host and an optional port, as `Host` and an origin name them: `127.0.0.1:4010`,
    /// `[::1]:4010`, `sandbox.local`. The host is lowercased, an IPv6 literal without its
    /// brackets.
    struct Authority: Equatable {
        /// The host, lowercased.
        var host: String
        /// The port, when one is named.
        var port: Int?
        /// Whether the host was an IPv6 literal in brackets.
        var bracketed: Bool

        /// The authority `text` names, or nil when it is not a plain host and port: ASCII
        /// letters, digits, `-` and `.` for a name, hex digits, `:` and `.` in brackets for
        /// an IPv6 address, and a port up to 65535.
        init?(_ text: Substring) {
            let bytes = Array(text.utf8)
            guard (1...255).contains(bytes.count) else { return nil }
            func isDigit(_ byte: UInt8) -> Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }
            func isLetter(_ byte: UInt8) -> Bool { (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20) }
            func isHex(_ byte: UInt8) -> Bool {
                isDigit(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte | 0x20)
            }
            var rest = bytes[...]
            if rest.first == UInt8(ascii: "[") {
                guard let close = rest.firstIndex(of: UInt8(ascii: "]")) else { return nil }
                let address = rest[(rest.startIndex + 1)..<close]
                guard address.contains(UInt8(ascii: ":")),
                    address.allSatisfy({ isHex($0) || $0 == UInt8(ascii: ":") || $0 == UInt8(ascii: ".") })
                else { return nil }
                host = String(decoding: address, as: UTF8.self).lowercased()
                bracketed = true
                rest = rest[(close + 1)...]
            } else {
                let name = rest.prefix { $0 != UInt8(ascii: ":") }
                guard !name.isEmpty,
                    name.allSatisfy({
                        isLetter($0) || isDigit($0) || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: ".")
                            || $0 == UInt8(ascii: "_")
                    })
                else { return nil }
                host = String(decoding: name, as: UTF8.self).lowercased()
                bracketed = false
                rest = rest.dropFirst(name.count)
            }
            guard let colon = rest.first else {
                port = nil
                return
            }
            let digits = rest.dropFirst()
            guard colon == UInt8(ascii: ":"), (1...5).contains(digits.count), digits.allSatisfy(isDigit),
                let number = Int(String(decoding: digits, as: UTF8.self)), number <= 65535
            else { return nil }
            port = number
        }

        /// Whether the host is an IP address rather than a name: an IPv6 literal, or four
        /// decimal numbers up to 255 (`127.0.0.1`; browsers write every IPv4 address so).
        var isIPLiteral: Bool {
            if bracketed { return true }
            let parts = host.utf8.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
            return parts.count == 4
                && parts.allSatisfy { part in
                    (1...3).contains(part.count)
                        && part.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
                        && (Int(String(decoding: part, as: UTF8.self)) ?? 256) <= 255
                }
        }
    }

    /// The scheme and authority at the start of a URL: `https://pay.example.com` of
    /// `https://pay.example.com/sandbox`.
    struct Origin: Equatable {
        /// `http` or `https`.
        var scheme: String
        /// The host and port.
        var authority: Authority

        /// The origin of `url`, or nil when it is not an `http` or `https` URL with a plain
        /// host and port.
        init?(_ url: String) {
            let lowered = url.prefix(8).lowercased()
            guard let scheme = ["http", "https"].first(where: { lowered.hasPrefix($0 + "://") }) else { return nil }
            let rest = url.dropFirst(scheme.count + 3)
            let end = rest.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? rest.endIndex
            guard let authority = Authority(rest[..<end]) else { return nil }
            self.scheme = scheme
            self.authority = authority
        }
    }
}
