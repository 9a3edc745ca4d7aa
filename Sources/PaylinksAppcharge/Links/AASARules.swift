import PaylinksJSON

/// The rules of an `apple-app-site-association`: `applinks.details`, each with the apps
/// (`appIDs`) and the URLs (`components`) it opens them for.
enum AASARules {
    /// What the document `root` breaks; with `redirectUrl`, whether the checkout's return
    /// to it opens the app, and with `host` whether it is on the domain.
    static func check(_ root: JSONValue, redirectUrl: String?, host: String?) -> [LinkFinding] {
        var findings: [LinkFinding] = []
        guard case .object = root.kind else {
            return [
                LinkFinding(
                    .problem, "$", "aasa-object", "the file is \(root.typeDescription)",
                    fix: "make it a JSON object: {\"applinks\": {\"details\": [...]}}")
            ]
        }
        guard let applinks = root.member("applinks"), case .object = applinks.kind else {
            return [
                LinkFinding(
                    .problem, "$.applinks", "applinks",
                    root.member("applinks").map { "applinks is \($0.typeDescription)" } ?? "there is no applinks",
                    fix: "add \"applinks\": {\"details\": [{\"appIDs\": [...], \"components\": [...]}]}")
            ]
        }
        guard let details = applinks.member("details")?.elements, !details.isEmpty else {
            return [
                LinkFinding(
                    .problem, "$.applinks.details", "details",
                    applinks.member("details").map {
                        "details is \($0.typeDescription == "an array" ? "empty" : $0.typeDescription)"
                    }
                        ?? "there is no details",
                    fix: "give details as an array of objects, each with appIDs and components")
            ]
        }
        var routes: [Route] = []
        for (index, detail) in details.enumerated() {
            let path = "$.applinks.details[\(index)]"
            guard case .object = detail.kind else {
                findings.append(
                    LinkFinding(
                        .problem, path, "detail-object", "the detail is \(detail.typeDescription)",
                        fix: "make it an object with appIDs and components"))
                continue
            }
            findings += appIDs(of: detail, at: path)
            findings += components(of: detail, at: path, into: &routes)
        }
        if let redirectUrl {
            findings += redirect(redirectUrl, routes: routes, host: host)
        }
        return findings
    }

    /// A component or a legacy path, in the order the system tries them: the first that
    /// matches decides.
    struct Route {
        /// The path pattern.
        var path: String
        /// The query pattern, whole or by item; nil matches any query.
        var query: Query?
        /// The fragment pattern; nil matches any.
        var fragment: String?
        /// Whether a URL it matches stays in the browser.
        var exclude: Bool
        /// Where it is in the file: `$.applinks.details[0].components[1]`.
        var place = "$"

        /// The query pattern as the file writes it: `"?": {"status": "*"}`; nil when there is none.
        var queryText: String? {
            let quoted = { (text: String) in
                "\"" + text.flatMap { $0 == "\"" || $0 == "\\" ? ["\\", $0] : [$0] } + "\""
            }
            switch query {
            case nil: return nil
            case .whole(let pattern): return "\"?\": \(quoted(pattern))"
            case .items(let items):
                return "\"?\": {" + items.map { "\(quoted($0.0)): \(quoted($0.1))" }.joined(separator: ", ") + "}"
            }
        }

        /// Whether the route matches `url`'s path and fragment, whatever its query.
        func matchesAllButQuery(_ url: LinkURL) -> Bool {
            var route = self
            route.query = nil
            return route.matches(url)
        }

        /// A component's `?`: a pattern for the whole query, or one per item.
        enum Query {
            case whole(String)
            case items([(String, String)])
        }

        /// Whether the route matches `url`.
        func matches(_ url: LinkURL) -> Bool {
            guard LinkFileRules.matches(path, url.path) else { return false }
            if let fragment, !LinkFileRules.matches(fragment, url.fragment ?? "") { return false }
            switch query {
            case nil: return true
            case .whole(let pattern): return LinkFileRules.matches(pattern, url.query ?? "")
            case .items(let items):
                let given = url.queryItems
                return items.allSatisfy { key, pattern in
                    given.contains { $0.0 == key && LinkFileRules.matches(pattern, $0.1) }
                }
            }
        }
    }

    private static func appIDs(of detail: JSONValue, at path: String) -> [LinkFinding] {
        if let ids = detail.member("appIDs") {
            guard let elements = ids.elements, !elements.isEmpty else {
                return [
                    LinkFinding(
                        .problem, "\(path).appIDs", "app-ids",
                        "appIDs is \(ids.elements == nil ? ids.typeDescription : "empty")",
                        fix:
                            "give appIDs as an array of TEAMID.bundle.id strings, such as [\"ABCDE12345.com.example.game\"]"
                    )
                ]
            }
            return elements.enumerated().compactMap { index, id in appIDForm(id, at: "\(path).appIDs[\(index)]") }
        }
        if let id = detail.member("appID") {
            let form = appIDForm(id, at: "\(path).appID")
            let value = form == nil ? id.string ?? "TEAMID.bundle.id" : "TEAMID.bundle.id"
            return [
                LinkFinding(
                    .note, "\(path).appID", "app-id-legacy", "appID is the older single-app form",
                    fix: "write \"appIDs\": [\"\(value)\"]"
                        + (form == nil ? "" : " with the app's team ID and bundle ID"))
            ] + [form].compactMap { $0 }
        }
        return [
            LinkFinding(
                .problem, "\(path).appIDs", "app-ids", "there is no appIDs",
                fix: "add \"appIDs\": [\"TEAMID.bundle.id\"], such as [\"ABCDE12345.com.example.game\"]")
        ]
    }

    /// The finding of an app ID not of the form `TEAMID.bundle.id`; nil for one that is.
    static func appIDForm(_ value: JSONValue, at path: String) -> LinkFinding? {
        let finding = { (what: String) in
            LinkFinding(
                .problem, path, "app-id-form", what,
                fix: "write TEAMID.bundle.id: the 10-character team ID of upper-case letters and digits, a dot, and "
                    + "the bundle ID, such as ABCDE12345.com.example.game")
        }
        guard let id = value.string else { return finding("the app ID is \(value.typeDescription)") }
        let parts = id.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        let team = parts[0]
        guard team.count == 10, team.unicodeScalars.allSatisfy({ ("A"..."Z").contains($0) || ("0"..."9").contains($0) })
        else { return finding("\"\(id)\" does not start with a team ID of 10 upper-case letters and digits") }
        let bundle = parts.count == 2 ? parts[1] : ""
        let segments = bundle.split(separator: ".", omittingEmptySubsequences: false)
        guard segments.count >= 2,
            segments.allSatisfy({ segment in
                !segment.isEmpty
                    && segment.unicodeScalars.allSatisfy {
                        $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "-")
                    }
            })
        else { return finding("\"\(id)\" has no reverse-DNS bundle ID after its team ID") }
        return nil
    }

    private static func components(of detail: JSONValue, at path: String, into routes: inout [Route])
        -> [LinkFinding]
    {
        if let components = detail.member("components") {
            guard let elements = components.elements, !elements.isEmpty else {
                return [
                    LinkFinding(
                        .problem, "\(path).components", "components",
                        "components is \(components.elements == nil ? components.typeDescription : "empty")",
                        fix: "give components as an array of objects, such as [{\"/\": \"/return*\"}]")
                ]
            }
            var findings: [LinkFinding] = []
            for (index, component) in elements.enumerated() {
                let at = "\(path).components[\(index)]"
                if let route = route(component, at: at, findings: &findings) { routes.append(route) }
            }
            return findings
        }
        if let paths = detail.member("paths") {
            guard let elements = paths.elements, elements.allSatisfy({ $0.string != nil }) else {
                return [
                    LinkFinding(
                        .problem, "\(path).paths", "components", "paths is not an array of strings",
                        fix: "give components as an array of objects, such as [{\"/\": \"/return*\"}]")
                ]
            }
            for (index, element) in elements.enumerated() {
                let text = element.string ?? ""
                let exclude = text.hasPrefix("NOT ")
                let pattern = exclude ? String(text.dropFirst(4)) : text
                let parts = pattern.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
                routes.append(
                    Route(
                        path: String(parts[0]), query: parts.count == 2 ? .whole(String(parts[1])) : nil,
                        fragment: nil, exclude: exclude, place: "\(path).paths[\(index)]"))
            }
            return [
                LinkFinding(
                    .note, "\(path).paths", "paths-legacy", "paths is the older form iOS 12 reads",
                    fix: "write components, such as [{\"/\": \"/return*\"}]; keep paths beside them for iOS 12")
            ]
        }
        return [
            LinkFinding(
                .problem, "\(path).components", "components", "there is no components",
                fix: "add \"components\": [{\"/\": \"/return*\"}] for the paths that open the game")
        ]
    }

    /// The route a component is, with what it breaks added to `findings`; nil when it has
    /// no path pattern.
    private static func route(_ component: JSONValue, at path: String, findings: inout [LinkFinding]) -> Route? {
        func broken(_ key: String, _ what: String, _ fix: String) {
            findings.append(LinkFinding(.problem, "\(path)[\"\(key)\"]", "component-fields", what, fix: fix))
        }
        guard case .object(let members) = component.kind else {
            findings.append(
                LinkFinding(
                    .problem, path, "component-fields", "the component is \(component.typeDescription)",
                    fix: "make it an object, such as {\"/\": \"/return*\"}"))
            return nil
        }
        var route = Route(path: "", query: nil, fragment: nil, exclude: false, place: path)
        for (key, value) in members {
            switch key {
            case "/", "#", "comment":
                guard let text = value.string else {
                    broken(key, "\(key) is \(value.typeDescription)", "make it a string")
                    continue
                }
                if key == "/" { route.path = text }
                if key == "#" { route.fragment = text }
            case "?":
                if let text = value.string {
                    route.query = .whole(text)
                } else if case .object(let items) = value.kind, items.allSatisfy({ $0.value.string != nil }) {
                    route.query = .items(items.map { ($0.key, $0.value.string ?? "") })
                } else {
                    broken(key, "? is \(value.typeDescription)", "make it a string, or an object of strings per item")
                }
            case "exclude":
                guard case .bool(let exclude) = value.kind else {
                    broken(key, "exclude is \(value.typeDescription)", "make it true or false")
                    continue
                }
                route.exclude = exclude
            default:
                continue
            }
        }
        guard component.member("/") != nil else {
            findings.append(
                LinkFinding(
                    .problem, path, "component-fields", "the component has no \"/\"",
                    fix: "give its path pattern, such as \"/\": \"/return*\""))
            return nil
        }
        return route
    }

    /// Whether the checkout's return to `redirectUrl`, with each status, opens the app.
    ///
    /// A return URL that is not https is no universal link, and no AASA opens the app for
    /// it: one note that says so, in place of the rules that follow.
    private static func redirect(_ redirectUrl: String, routes: [Route], host: String?) -> [LinkFinding] {
        let scheme = redirectUrl.prefix { $0 != ":" }.lowercased()
        if scheme != "https" {
            let what =
                "the redirect URL has the scheme \(scheme):, and an AASA cannot open the app for it: it opens the "
                + "app for https universal links only"
            let fix =
                scheme == "http"
                ? "give an https redirect URL on this file's domain: universal links are https"
                : "nothing to add here: \(scheme): is the app's own URL scheme, registered in the app, not in this "
                    + "file; universal links are https"
            return [LinkFinding(.note, "$", "redirect-covered", what, fix: fix)]
        }
        var findings: [LinkFinding] = []
        let url = LinkURL(redirectUrl)
        if let host, url.host.lowercased() != host.lowercased() {
            findings.append(
                LinkFinding(
                    .problem, "$", "redirect-host",
                    "the redirect URL's host is \(url.host.isEmpty ? "missing" : url.host), the file is served by \(host)",
                    fix: "serve this file on \(url.host.isEmpty ? "the redirect URL's host" : url.host), or give a "
                        + "redirect URL on \(host)"))
        }
        let missed = LinkOutStatus.allCases.filter { status in
            let sent = LinkURL(status.redirect(to: redirectUrl))
            guard let route = routes.first(where: { $0.matches(sent) }) else { return true }
            return route.exclude
        }
        if let first = missed.first {
            let statuses = missed.map { "status=\($0.rawValue)" }.joined(separator: ", ")
            // A component that takes the path but not the query is the one to widen.
            let sent = LinkURL(first.redirect(to: redirectUrl))
            let narrow = routes.first { !$0.exclude && $0.matchesAllButQuery(sent) && !$0.matches(sent) }
            let fix =
                narrow.flatMap { route in
                    route.queryText.map {
                        "widen the query pattern of \(route.place), \($0), to take each status, such as "
                            + "\"?\": {\"status\": \"*\"}, or leave its \"?\" out"
                    }
                } ?? "add a component such as {\"/\": \"\(url.path)\"} before any that excludes it"
            findings.append(
                LinkFinding(
                    .problem, "$.applinks.details", "redirect-covered",
                    "no component opens the app for \(url.path)\(url.query.map { "?\($0)" } ?? "") with \(statuses)",
                    fix: fix))
        }
        return findings
    }
}

/// A URL's parts as an AASA matches them: the host, the path, the query, the fragment.
struct LinkURL {
    /// The host, without port or credentials; empty when there is none.
    var host = ""
    /// The path: `/` when there is none.
    var path = "/"
    /// The query without `?`; nil when there is none.
    var query: String?
    /// The fragment without `#`; nil when there is none.
    var fragment: String?

    /// The parts of `text`, `https://game.example/return?x=1#top`.
    init(_ text: String) {
        var rest = Substring(text)
        if let hash = rest.firstIndex(of: "#") {
            fragment = String(rest[rest.index(after: hash)...])
            rest = rest[..<hash]
        }
        if let mark = rest.firstIndex(of: "?") {
            query = String(rest[rest.index(after: mark)...])
            rest = rest[..<mark]
        }
        if let colon = rest.firstIndex(of: ":"), rest[colon...].hasPrefix("://") {
            rest = rest[rest.index(colon, offsetBy: 3)...]
            let slash = rest.firstIndex(of: "/") ?? rest.endIndex
            var authority = rest[..<slash]
            if let at = authority.lastIndex(of: "@") { authority = authority[authority.index(after: at)...] }
            if authority.hasPrefix("["), let close = authority.firstIndex(of: "]") {
                host = String(authority[authority.index(after: authority.startIndex)..<close])
            } else {
                host = String(authority.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)[0])
            }
            rest = rest[slash...]
        }
        path = rest.isEmpty ? "/" : String(rest)
    }

    /// The query's items, `key=value`, in order.
    var queryItems: [(String, String)] {
        (query ?? "").split(separator: "&").map { item in
            let parts = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            return (String(parts[0]), parts.count == 2 ? String(parts[1]) : "")
        }
    }
}
