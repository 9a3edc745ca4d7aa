package import PaylinksJSON

/// The rules an `apple-app-site-association` or an `assetlinks.json` must follow for the
/// return from Link Out's checkout to open the game, from values alone; what each
/// finding is named by (`app-id-form`) is the rule's name.
package enum LinkFileRules {
    /// Every rule, by the name its findings carry, with what it asks, in the order the
    /// help lists them: how a file is served, then an AASA's, then an assetlinks.json's.
    package static let rules: [(name: String, summary: String)] = [
        ("well-known-path", "served at /.well-known/ and its name, an AASA without .json"),
        ("status-200", "answered 200"),
        ("no-redirect", "answered without a redirect, which the system does not follow"),
        ("content-type", "served as application/json"),
        ("json", "what a URL answers is JSON (a file that is not: exit 65)"),
        ("size-limit", "an AASA under 128 KB"),
        ("aasa-object", "an AASA is a JSON object"),
        ("applinks", "with an applinks object"),
        ("details", "whose details is an array"),
        ("detail-object", "of objects"),
        ("app-ids", "each with appIDs, an array (the older appID: a note, app-id-legacy)"),
        ("app-id-form", "of TEAMID.bundle.id: 10 upper-case letters and digits, a dot, a reverse-DNS bundle ID"),
        ("components", "and components, an array of objects (the older paths: a note, paths-legacy)"),
        ("component-fields", "each with a \"/\" string; ? a string or object, # and comment strings, exclude a bool"),
        (
            "redirect-covered",
            "--redirect-url: the first component matching it with each status does not exclude it (not https: a note)"
        ),
        ("redirect-host", "--redirect-url: on the host the AASA was fetched from"),
        ("assetlinks-array", "an assetlinks.json is a JSON array of statements"),
        ("statement-object", "each an object"),
        ("relation", "whose relation holds delegate_permission/common.handle_all_urls"),
        ("target", "with a target object"),
        ("target-namespace", "whose namespace is android_app"),
        (
            "package-name",
            "whose package_name has 2 or more segments of letters, digits, _, each starting with a letter"
        ),
        ("cert-fingerprint", "and sha256_cert_fingerprints, each 32 upper-case hex pairs joined by colons"),
    ]

    /// The largest AASA Apple takes, in bytes: 128 KB.
    package static let maximumAASASize = 128 * 1024

    /// What `bytes`, a file of `kind`, breaks. With `redirectUrl`, an AASA must send that
    /// URL, as the checkout sends each status to it, to the app; with `host`, the domain
    /// the file was fetched from, the URL must be on it. Throws when `bytes` is not JSON.
    package static func check(
        _ bytes: [UInt8], as kind: LinkFileKind, redirectUrl: String? = nil, host: String? = nil
    ) throws(JSONSyntaxError) -> [LinkFinding] {
        let root = try JSONParser.parse(bytes)
        switch kind {
        case .aasa:
            var findings: [LinkFinding] = []
            if bytes.count >= maximumAASASize {
                findings.append(
                    LinkFinding(
                        .problem, "$", "size-limit", "the file is \(bytes.count) bytes; Apple takes less than 128 KB",
                        fix: "merge components with patterns, or drop what the game does not open"))
            }
            return findings + AASARules.check(root, redirectUrl: redirectUrl, host: host)
        case .assetlinks:
            return AssetLinksRules.check(root)
        }
    }

    /// What a local file's `name` breaks: an AASA named with a `.json` extension is served
    /// at a path the system never asks for, as ``checkServing(_:path:status:contentType:location:)``
    /// says of a URL.
    package static func checkName(_ kind: LinkFileKind, name: some StringProtocol) -> [LinkFinding] {
        guard kind == .aasa, name == kind.fileName + ".json" else { return [] }
        return [
            LinkFinding(
                .problem, "-", "well-known-path", "the file is named \(name)",
                fix: "name it \(kind.fileName) and serve it at \(kind.wellKnownPath), without a .json extension")
        ]
    }

    /// What the answer to `GET path` of a link file of `kind` breaks: the well-known path
    /// (when `path` is not a base the paths were derived from), the status, a redirect
    /// (`location`), and the content type.
    package static func checkServing(
        _ kind: LinkFileKind, path: String, status: Int, contentType: String?, location: String?
    ) -> [LinkFinding] {
        var findings: [LinkFinding] = []
        let bare = path.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        if bare != kind.wellKnownPath {
            findings.append(
                LinkFinding(
                    .problem, "-", "well-known-path", "the file is served at \(bare)",
                    fix: "serve it at \(kind.wellKnownPath)\(kind == .aasa ? ", without a .json extension" : "")"))
        }
        if (300..<400).contains(status) {
            findings.append(
                LinkFinding(
                    .problem, "-", "no-redirect",
                    "the answer is \(status), a redirect to \(location ?? "nowhere"); the system follows none",
                    fix: "answer 200 with the file at \(kind.wellKnownPath) itself"))
        } else if status != 200 {
            findings.append(
                LinkFinding(
                    .problem, "-", "status-200", "the answer is \(status)",
                    fix: "answer 200 with the file at \(kind.wellKnownPath)"))
        }
        guard status == 200 else { return findings }
        let media = (contentType ?? "").split(separator: ";").first.map { $0.trimmingSpaces.lowercased() } ?? ""
        if media != "application/json" {
            findings.append(
                LinkFinding(
                    .problem, "-", "content-type",
                    contentType.map { "the file is served as \($0)" } ?? "the file is served without a Content-Type",
                    fix: "serve it with Content-Type: application/json"))
        }
        return findings
    }

    /// Whether `text` matches an AASA pattern: `*` any run of characters, `?` one.
    package static func matches(_ pattern: some StringProtocol, _ text: some StringProtocol) -> Bool {
        let pattern = Array(pattern.unicodeScalars)
        let text = Array(text.unicodeScalars)
        var p = 0
        var t = 0
        var star: Int?
        var resume = 0
        while t < text.count {
            if p < pattern.count, pattern[p] == "?" || pattern[p] == text[t] {
                p += 1
                t += 1
            } else if p < pattern.count, pattern[p] == "*" {
                star = p
                resume = t
                p += 1
            } else if let star {
                p = star + 1
                resume += 1
                t = resume
            } else {
                return false
            }
        }
        while p < pattern.count, pattern[p] == "*" { p += 1 }
        return p == pattern.count
    }
}

extension StringProtocol {
    /// The text without spaces and tabs at either end.
    var trimmingSpaces: String {
        String(drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }
}

extension JSONValue {
    /// The member `key` of an object; nil for another value or a missing member.
    func member(_ key: String) -> JSONValue? {
        guard case .object(let members) = kind else { return nil }
        return members.first { $0.key == key }?.value
    }

    /// The string the value is; nil for another value.
    var string: String? {
        guard case .string(let text) = kind else { return nil }
        return text
    }

    /// The elements of an array; nil for another value.
    var elements: [JSONValue]? {
        guard case .array(let elements) = kind else { return nil }
        return elements
    }
}
