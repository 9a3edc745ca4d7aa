package import PaylinksJSON

/// The two files a domain serves so that a link to it opens the game, not the browser:
/// what brings the player back after Link Out's checkout sends the browser to the
/// `redirectUrl`.
package enum LinkFileKind: String, CaseIterable, Sendable {
    /// iOS's `apple-app-site-association`: the universal links the domain hands to apps.
    case aasa
    /// Android's `assetlinks.json`: the apps the domain trusts with its app links.
    case assetlinks

    /// The file's name, as the operating system asks for it.
    package var fileName: String {
        switch self {
        case .aasa: "apple-app-site-association"
        case .assetlinks: "assetlinks.json"
        }
    }

    /// Where the domain serves it: `/.well-known/apple-app-site-association`.
    package var wellKnownPath: String { "/.well-known/\(fileName)" }

    /// The kind a file named `name` (a path's last component) is; nil for another name.
    package init?(fileName name: some StringProtocol) {
        guard let kind = Self.allCases.first(where: { $0.fileName == name }) else { return nil }
        self = kind
    }

    /// The kind a document of this shape is: an object is an AASA, an array assetlinks.
    package init?(shape value: JSONValue) {
        switch value.kind {
        case .object: self = .aasa
        case .array: self = .assetlinks
        default: return nil
        }
    }
}

/// One thing a link file, or the way it is served, does wrong: where in it, the rule it
/// breaks by name, what is there, and the fix.
package struct LinkFinding: Equatable, Sendable {
    /// Whether the file breaks a rule, or does something accepted that has a newer form.
    package enum Severity: String, Sendable {
        /// The rule is broken: the link will not open the game.
        case problem
        /// Accepted, in an older form.
        case note
    }

    /// A problem or a note.
    package var severity: Severity
    /// Where: a JSON path such as `$.applinks.details[0].appIDs[1]`, or `-` for how the
    /// file was served.
    package var path: String
    /// The rule's name: `app-id-form`.
    package var rule: String
    /// What is there.
    package var what: String
    /// What to do.
    package var fix: String

    /// A finding.
    package init(_ severity: Severity, _ path: String, _ rule: String, _ what: String, fix: String) {
        self.severity = severity
        self.path = path
        self.rule = rule
        self.what = what
        self.fix = fix
    }
}
