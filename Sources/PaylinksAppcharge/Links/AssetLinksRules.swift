import PaylinksJSON

/// The rules of an `assetlinks.json`: statements that hand the domain's links
/// (`delegate_permission/common.handle_all_urls`) to an Android app, named by its package
/// and the SHA-256 fingerprints of its signing certificates.
enum AssetLinksRules {
    /// The relation that lets an app open the domain's links.
    static let handleAllURLs = "delegate_permission/common.handle_all_urls"

    /// What the document `root` breaks.
    static func check(_ root: JSONValue) -> [LinkFinding] {
        guard let statements = root.elements, !statements.isEmpty else {
            return [
                LinkFinding(
                    .problem, "$", "assetlinks-array",
                    "the file is \(root.elements == nil ? root.typeDescription : "an empty array")",
                    fix: "make it an array of statements, each with relation and target")
            ]
        }
        var findings: [LinkFinding] = []
        for (index, statement) in statements.enumerated() {
            let path = "$[\(index)]"
            guard case .object = statement.kind else {
                findings.append(
                    LinkFinding(
                        .problem, path, "statement-object", "the statement is \(statement.typeDescription)",
                        fix: "make it an object with relation and target"))
                continue
            }
            let relations = statement.member("relation")?.elements?.compactMap(\.string) ?? []
            if !relations.contains(handleAllURLs) {
                findings.append(
                    LinkFinding(
                        .problem, "\(path).relation", "relation",
                        "relation does not hold \(handleAllURLs)", fix: "write \"relation\": [\"\(handleAllURLs)\"]"))
            }
            guard let target = statement.member("target"), case .object = target.kind else {
                findings.append(
                    LinkFinding(
                        .problem, "\(path).target", "target", "there is no target object",
                        fix: "add \"target\": {\"namespace\": \"android_app\", \"package_name\": ..., "
                            + "\"sha256_cert_fingerprints\": [...]}"))
                continue
            }
            if target.member("namespace")?.string != "android_app" {
                findings.append(
                    LinkFinding(
                        .problem, "\(path).target.namespace", "target-namespace",
                        "the namespace is \(target.member("namespace").map { $0.string.map { "\"\($0)\"" } ?? $0.typeDescription } ?? "missing")",
                        fix: "write \"namespace\": \"android_app\""))
            }
            if let finding = packageName(target.member("package_name"), at: "\(path).target.package_name") {
                findings.append(finding)
            }
            findings += fingerprints(
                target.member("sha256_cert_fingerprints"), at: "\(path).target.sha256_cert_fingerprints")
        }
        return findings
    }

    /// The finding of a package name Android does not take; nil for one it does.
    static func packageName(_ value: JSONValue?, at path: String) -> LinkFinding? {
        let finding = { (what: String) in
            LinkFinding(
                .problem, path, "package-name", what,
                fix: "give the app's applicationId: two or more segments joined by dots, each starting with a letter, "
                    + "of letters, digits and underscores, such as com.example.game")
        }
        guard let name = value?.string else {
            return finding(value.map { "package_name is \($0.typeDescription)" } ?? "there is no package_name")
        }
        let segments = name.split(separator: ".", omittingEmptySubsequences: false)
        let valid =
            segments.count >= 2
            && segments.allSatisfy { segment in
                guard let first = segment.unicodeScalars.first, first.isASCII, first.properties.isAlphabetic else {
                    return false
                }
                return segment.unicodeScalars.allSatisfy {
                    $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "_")
                }
            }
        return valid ? nil : finding("\"\(name)\" is not a package name")
    }

    /// The findings of fingerprints that are not 32 upper-case hex pairs joined by colons.
    static func fingerprints(_ value: JSONValue?, at path: String) -> [LinkFinding] {
        let fix =
            "give the SHA-256 of the signing certificate as 32 upper-case hex pairs joined by colons, as "
            + "'keytool -list -v' prints it: \"14:6D:E9:...\""
        guard let elements = value?.elements, !elements.isEmpty else {
            return [
                LinkFinding(
                    .problem, path, "cert-fingerprint",
                    value.map { "sha256_cert_fingerprints is \($0.elements == nil ? $0.typeDescription : "empty")" }
                        ?? "there is no sha256_cert_fingerprints", fix: fix)
            ]
        }
        return elements.enumerated().compactMap { index, element in
            guard !isFingerprint(element.string ?? "") else { return nil }
            let shown = element.string.map { "\"\($0)\"" } ?? element.typeDescription
            return LinkFinding(
                .problem, "\(path)[\(index)]", "cert-fingerprint", "\(shown) is not a SHA-256 fingerprint",
                fix: element.string.flatMap(repaired) ?? fix)
        }
    }

    /// Whether `text` is 32 upper-case hex pairs joined by colons.
    static func isFingerprint(_ text: String) -> Bool {
        let pairs = text.split(separator: ":", omittingEmptySubsequences: false)
        return pairs.count == 32
            && pairs.allSatisfy { pair in
                pair.count == 2
                    && pair.unicodeScalars.allSatisfy { ("0"..."9").contains($0) || ("A"..."F").contains($0) }
            }
    }

    /// The fix of a fingerprint that is right but for its case or its colons, with the value
    /// to write; nil for one that is wrong otherwise.
    static func repaired(_ text: String) -> String? {
        let upper = text.uppercased()
        if isFingerprint(upper) { return "write it in upper case: \(upper)" }
        guard upper.count == 64, !upper.contains(":") else { return nil }
        var pairs: [Substring] = []
        var rest = Substring(upper)
        while !rest.isEmpty {
            pairs.append(rest.prefix(2))
            rest = rest.dropFirst(2)
        }
        let joined = pairs.joined(separator: ":")
        guard isFingerprint(joined) else { return nil }
        return "its colons are missing: join its 32 pairs with colons, in upper case: \(joined)"
    }
}
