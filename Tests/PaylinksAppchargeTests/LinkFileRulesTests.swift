import Foundation
import PaylinksAppcharge
import PaylinksJSON
import Testing

/// The rules of the files that bring the player back from Link Out's checkout: each rule
/// broken once, on a file that is otherwise correct.
@Suite("Link files")
struct LinkFileRulesTests {
    static let aasa = """
        {"applinks": {"details": [{"appIDs": ["ABCDE12345.com.example.game"], \
        "components": [{"/": "/return/private*", "exclude": true}, {"/": "/return*", "?": {"status": "*"}}]}]}}
        """
    static let fingerprint = (0..<32).map { _ in "A1" }.joined(separator: ":")
    static let assetlinks = """
        [{"relation": ["delegate_permission/common.handle_all_urls"], "target": {"namespace": "android_app", \
        "package_name": "com.example.game", "sha256_cert_fingerprints": ["\(fingerprint)"]}}]
        """

    static func findings(_ text: String, _ kind: LinkFileKind, redirect: String? = nil, host: String? = nil) throws
        -> [LinkFinding]
    {
        try LinkFileRules.check(Array(text.utf8), as: kind, redirectUrl: redirect, host: host)
    }

    @Test("a correct AASA and a correct assetlinks.json break no rule, the return URL covered on its domain")
    func correct() throws {
        #expect(
            try Self.findings(Self.aasa, .aasa, redirect: "https://game.example/return", host: "game.example") == [])
        #expect(try Self.findings(Self.assetlinks, .assetlinks) == [])
    }

    /// One rule broken: the document, its kind, the rule and where the finding points.
    struct Broken: CustomTestStringConvertible, Sendable {
        var rule: String
        var kind: LinkFileKind
        var text: String
        var path: String
        var redirect: String? = nil
        var host: String? = nil
        var testDescription: String { rule }
    }

    static let broken: [Broken] = [
        Broken(rule: "aasa-object", kind: .aasa, text: "[]", path: "$"),
        Broken(rule: "applinks", kind: .aasa, text: #"{"webcredentials": {}}"#, path: "$.applinks"),
        Broken(rule: "details", kind: .aasa, text: #"{"applinks": {"details": {}}}"#, path: "$.applinks.details"),
        Broken(
            rule: "detail-object", kind: .aasa, text: #"{"applinks": {"details": ["x"]}}"#,
            path: "$.applinks.details[0]"),
        Broken(
            rule: "app-ids", kind: .aasa, text: aasa.replacingFirst(#""appIDs""#, with: #""apps""#),
            path: "$.applinks.details[0].appIDs"),
        Broken(
            rule: "app-id-form", kind: .aasa, text: aasa.replacingFirst("ABCDE12345.", with: "abcde12345."),
            path: "$.applinks.details[0].appIDs[0]"),
        Broken(
            rule: "components", kind: .aasa, text: aasa.replacingFirst(#""components""#, with: #""comps""#),
            path: "$.applinks.details[0].components"),
        Broken(
            rule: "component-fields", kind: .aasa,
            text: aasa.replacingFirst(#""exclude": true"#, with: #""exclude": "yes""#),
            path: #"$.applinks.details[0].components[0]["exclude"]"#),
        Broken(
            rule: "redirect-covered", kind: .aasa, text: aasa, path: "$.applinks.details",
            redirect: "https://game.example/return/private/1"),
        Broken(
            rule: "redirect-host", kind: .aasa, text: aasa, path: "$", redirect: "https://game.example/return",
            host: "other.example"),
        Broken(rule: "assetlinks-array", kind: .assetlinks, text: "{}", path: "$"),
        Broken(rule: "statement-object", kind: .assetlinks, text: "[1]", path: "$[0]"),
        Broken(
            rule: "relation", kind: .assetlinks,
            text: assetlinks.replacingFirst("handle_all_urls", with: "get_login_creds"),
            path: "$[0].relation"),
        Broken(
            rule: "target", kind: .assetlinks, text: assetlinks.replacingFirst(#""target""#, with: #""targets""#),
            path: "$[0].target"),
        Broken(
            rule: "target-namespace", kind: .assetlinks, text: assetlinks.replacingFirst("android_app", with: "web"),
            path: "$[0].target.namespace"),
        Broken(
            rule: "package-name", kind: .assetlinks, text: assetlinks.replacingFirst("com.example.game", with: "game"),
            path: "$[0].target.package_name"),
        Broken(
            rule: "cert-fingerprint", kind: .assetlinks, text: assetlinks.replacingFirst("A1:A1", with: "a1:A1"),
            path: "$[0].target.sha256_cert_fingerprints[0]"),
    ]

    @Test("each rule, broken once, is the one finding, named and placed", arguments: broken)
    func brokenRule(_ broken: Broken) throws {
        let findings = try Self.findings(broken.text, broken.kind, redirect: broken.redirect, host: broken.host)
        #expect(findings.map(\.rule) == [broken.rule])
        #expect(findings.map(\.path) == [broken.path])
        #expect(findings.allSatisfy { $0.severity == .problem && !$0.fix.isEmpty })
    }

    @Test("the help's list of rules names each rule a finding can carry, once")
    func ruleList() {
        let listed = LinkFileRules.rules.map(\.name)
        #expect(Set(listed).count == listed.count)
        let found = Set(Self.broken.map(\.rule) + ["size-limit", "well-known-path", "status-200", "no-redirect"])
        #expect(found.isSubset(of: Set(listed)), "\(found.subtracting(listed))")
    }

    @Test("an AASA of 128 KB or more breaks size-limit")
    func sizeLimit() throws {
        let padded = Self.aasa.replacingFirst(
            #""appIDs""#, with: #""padding": ""# + String(repeating: "x", count: 128 * 1024) + #"", "appIDs""#)
        #expect(try Self.findings(padded, .aasa).map(\.rule) == ["size-limit"])
    }

    @Test("the older appID and paths are taken, each with a note, and paths cover the return")
    func legacy() throws {
        let old =
            #"{"applinks": {"apps": [], "details": [{"appID": "ABCDE12345.com.example.game", "paths": ["/return*"]}]}}"#
        let findings = try Self.findings(old, .aasa, redirect: "https://game.example/return")
        #expect(findings.map(\.rule) == ["app-id-legacy", "paths-legacy"])
        #expect(findings.allSatisfy { $0.severity == .note })
        let excluded = old.replacingFirst(#"["/return*"]"#, with: #"["NOT /return*", "*"]"#)
        #expect(
            try Self.findings(excluded, .aasa, redirect: "https://game.example/return").map(\.rule).last
                == "redirect-covered")
    }

    @Test("the return is checked with each status the checkout adds: a query that takes one of them misses the others")
    func everyStatus() throws {
        let one = Self.aasa.replacingFirst(#"{"status": "*"}"#, with: #"{"status": "success"}"#)
        let finding = try #require(try Self.findings(one, .aasa, redirect: "https://game.example/return").first)
        #expect(finding.rule == "redirect-covered")
        #expect(finding.what.hasSuffix("with status=fail, status=cancel"))
    }

    @Test(
        "a return URL of a custom scheme or http: one note that an AASA opens the app for https universal links only",
        arguments: ["mygame://return", "http://game.example/return"])
    func notUniversal(redirect: String) throws {
        let findings = try Self.findings(Self.aasa, .aasa, redirect: redirect, host: "game.example")
        #expect(findings.map(\.rule) == ["redirect-covered"])
        #expect(findings.map(\.severity) == [.note])
        let finding = try #require(findings.first)
        #expect(finding.what.contains("an AASA cannot open the app for it"), "\(finding.what)")
        #expect(!finding.fix.contains("add a component"), "\(finding.fix)")
        if redirect.hasPrefix("mygame") {
            #expect(finding.fix.contains("registered in the app, not in this file"), "\(finding.fix)")
        } else {
            #expect(finding.fix.contains("universal links are https"), "\(finding.fix)")
        }
    }

    @Test("app-id-legacy suggests appIDs with the value only when the value is a valid app ID")
    func legacyFix() throws {
        let good =
            #"{"applinks": {"details": [{"appID": "ABCDE12345.com.example.game", "components": [{"/": "/*"}]}]}}"#
        let fixes = try Self.findings(good, .aasa).filter { $0.rule == "app-id-legacy" }.map(\.fix)
        #expect(fixes == [#"write "appIDs": ["ABCDE12345.com.example.game"]"#])
        let bad = good.replacingFirst("ABCDE12345.", with: "")
        let fix = try #require(try Self.findings(bad, .aasa).first { $0.rule == "app-id-legacy" }?.fix)
        #expect(!fix.contains("com.example.game\"]"), "\(fix)")
        #expect(fix.contains("TEAMID.bundle.id"), "\(fix)")
    }

    @Test("a fingerprint in lower case says to write it in upper case, one without colons to join its pairs")
    func fingerprintFix() throws {
        let lower = Self.assetlinks.replacingFirst(Self.fingerprint, with: Self.fingerprint.lowercased())
        let fix = try #require(try Self.findings(lower, .assetlinks).first?.fix)
        #expect(fix == "write it in upper case: \(Self.fingerprint)")
        let bare = Self.assetlinks.replacingFirst(
            Self.fingerprint, with: Self.fingerprint.replacingOccurrences(of: ":", with: "").lowercased())
        let joined = try #require(try Self.findings(bare, .assetlinks).first?.fix)
        #expect(joined.hasPrefix("its colons are missing"), "\(joined)")
        #expect(joined.hasSuffix(": \(Self.fingerprint)"), "\(joined)")
    }

    @Test("a component whose path matches the return but whose ? does not: the fix names the query pattern")
    func queryFix() throws {
        let one = Self.aasa.replacingFirst(#"{"status": "*"}"#, with: #"{"status": "success"}"#)
        let finding = try #require(try Self.findings(one, .aasa, redirect: "https://game.example/return").first)
        #expect(finding.fix.contains(#""?": {"status": "success"}"#), "\(finding.fix)")
        #expect(finding.fix.contains("components[1]"), "\(finding.fix)")
        let whole = Self.aasa.replacingFirst(#"{"status": "*"}"#, with: #""status=success""#)
        let wholeFix = try #require(try Self.findings(whole, .aasa, redirect: "https://game.example/return").first)
        #expect(wholeFix.fix.contains(#""?": "status=success""#), "\(wholeFix.fix)")
    }

    @Test("a file that is not JSON throws the parser's error")
    func notJSON() {
        #expect(throws: JSONSyntaxError.self) { try Self.findings("{applinks", .aasa) }
    }

    @Test(
        "AASA patterns: * any run, ? one character",
        arguments: [
            ("/return*", "/return", true), ("/return*", "/return/x/y", true), ("/r?turn", "/return", true),
            ("/r?turn", "/rturn", false), ("*", "", true), ("/a*b", "/acb/b", true), ("/a*b", "/acbc", false),
        ])
    func pattern(_ pattern: String, _ text: String, _ matches: Bool) {
        #expect(LinkFileRules.matches(pattern, text) == matches)
    }

    @Test("served: the well-known path, 200 without a redirect, application/json")
    func serving() {
        #expect(
            LinkFileRules.checkServing(
                .aasa, path: "/.well-known/apple-app-site-association", status: 200,
                contentType: "application/json; charset=utf-8", location: nil) == [])
        #expect(
            LinkFileRules.checkServing(
                .aasa, path: "/.well-known/apple-app-site-association.json", status: 200, contentType: "text/plain",
                location: nil
            ).map(\.rule) == ["well-known-path", "content-type"])
        #expect(
            LinkFileRules.checkServing(
                .assetlinks, path: "/.well-known/assetlinks.json", status: 301, contentType: nil, location: "/x"
            ).map(\.rule) == ["no-redirect"])
        #expect(
            LinkFileRules.checkServing(
                .assetlinks, path: "/.well-known/assetlinks.json", status: 404, contentType: nil, location: nil
            ).map(\.rule) == ["status-200"])
    }
}

extension String {
    /// The text with the first `target` replaced by `replacement`; the text itself when it
    /// holds none.
    fileprivate func replacingFirst(_ target: String, with replacement: String) -> String {
        guard let range = firstRange(of: target) else { return self }
        return replacingCharacters(in: range, with: replacement)
    }
}
