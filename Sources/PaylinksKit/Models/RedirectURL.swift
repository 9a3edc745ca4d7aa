/// What a `redirectUrl` must be: the address the checkout sends the browser back to, in a
/// `Location` header, for Link Out, by one rule for the sandbox's Create Checkout Session,
/// the command line and scenario files; and the narrower universal link the SDK's
/// configuration takes.
package enum RedirectURL {
    /// The most bytes a return URL may hold.
    package static let limit = 2048

    /// The schemes a return URL may not have: the browser would run or show what they hold,
    /// on the checkout's behalf, rather than go back to the game.
    package static let refusedSchemes: Set<String> = ["javascript", "data", "vbscript", "file", "about", "blob"]

    /// Why `url` cannot be a return URL, in words that follow the URL's name ("redirectUrl
    /// 'x' is not an absolute URL…"); nil when it can: an absolute URL with a scheme (`https`,
    /// `http` with a host, or a game's own such as `mygame`), without a space or a control
    /// character, at most ``limit`` bytes, and of no refused scheme.
    package static func problem(_ url: String) -> String? {
        let example = "such as https://game.example/return or mygame://return"
        if url.utf8.count > limit {
            return "is \(url.utf8.count) bytes, more than \(limit); send a shorter return address"
        }
        if url.unicodeScalars.contains(where: { $0.value <= 0x20 || (0x7F...0x9F).contains($0.value) }) {
            return "holds a space, a line break or a control character, which a Location header cannot carry; "
                + "percent-encode it (a space is %20)"
        }
        let scheme = url.prefix { $0 != ":" }
        // RFC 3986: a letter, then letters, digits, +, - and .
        let isLetter: (Unicode.Scalar) -> Bool = { ("a"..."z").contains($0) || ("A"..."Z").contains($0) }
        guard scheme.count < url.count, let first = scheme.unicodeScalars.first, isLetter(first),
            scheme.unicodeScalars.allSatisfy({
                isLetter($0) || ("0"..."9").contains($0) || "+-.".unicodeScalars.contains($0)
            })
        else {
            return "is not an absolute URL with a scheme; give one \(example)"
        }
        let name = scheme.lowercased()
        if refusedSchemes.contains(name) {
            return "has the scheme \(name):, which a browser runs or shows instead of returning to the game; give one "
                + example
        }
        let rest = url.dropFirst(scheme.count + 1)
        if name == "http" || name == "https" {
            let authority = rest.hasPrefix("//") ? rest.dropFirst(2).prefix(while: { !"/?#".contains($0) }) : ""
            guard !authority.isEmpty else { return "names no host; give one \(example)" }
            if let problem = hostProblem(authority) { return problem }
        } else if rest.isEmpty {
            return "has nothing after its scheme; give one \(example)"
        }
        return nil
    }

    /// Why the authority of an http or https return URL (`host[:port]`, no user) is not one
    /// a browser and the checkout's Content-Security-Policy read alike: a host of ASCII
    /// letters, digits, dots and hyphens (an international name in its `xn--` form), or an
    /// IPv6 address in brackets, and a port from 1 to 65535.
    static func hostProblem(_ authority: Substring) -> String? {
        if authority.contains("@") || authority.contains("\\") {
            return "holds a user or a backslash before its host, which browsers read differently; give the host alone, "
                + "such as https://game.example/return"
        }
        var host = authority
        var port: Substring?
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { return "has an IPv6 host without its ]" }
            host = authority[...close]
            let after = authority[authority.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":") else { return "has text after its IPv6 host" }
                port = after.dropFirst()
            }
            guard host.dropFirst().dropLast().allSatisfy({ $0.isHexDigit || $0 == ":" || $0 == "." }) else {
                return "has an IPv6 host that is not one"
            }
        } else {
            if let colon = authority.firstIndex(of: ":") {
                host = authority[..<colon]
                port = authority[authority.index(after: colon)...]
            }
            let isHostCharacter: (Unicode.Scalar) -> Bool = {
                ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || $0 == "."
                    || $0 == "-"
            }
            guard !host.isEmpty, host.unicodeScalars.allSatisfy(isHostCharacter) else {
                return "has a host of other characters than letters, digits, dots and hyphens; write an international "
                    + "name in its xn-- form"
            }
        }
        if let port, !port.isEmpty {
            guard port.count <= 5, port.allSatisfy(\.isASCII), let number = Int(port), (1...65535).contains(number)
            else { return "has the port '\(port)', which is not 1 to 65535" }
        }
        return nil
    }

    /// Whether `text` is what the SDK's configuration takes (2004 otherwise): an absolute
    /// `https` URL with a host and no white space, a universal link.
    static func isUniversalLink(_ text: String) -> Bool {
        let prefix = "https://"
        guard text.lowercased().hasPrefix(prefix) else { return false }
        let rest = text.dropFirst(prefix.count)
        let host = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        return !host.isEmpty && !host.contains("@")
            && !text.unicodeScalars.contains { $0.value <= 0x20 || (0x7F...0x9F).contains($0.value) }
    }
}
