/// An `http://` URL, as far as paylinks' client takes one: a host (a name, an IPv4
/// literal, or an IPv6 literal in brackets), a port, and a path with its query.
public struct HTTPURL: Equatable, Sendable, CustomStringConvertible {
    /// The host to connect to, without brackets.
    public var host: String
    /// The port: 80 when the URL names none.
    public var port: Int
    /// The path and query: `/award?x=1`, or `/`.
    public var target: String

    /// The URL as written back: `http://127.0.0.1:8080/award`.
    public var description: String {
        let shownHost = host.contains(":") ? "[\(host)]" : host
        return "http://\(shownHost)\(port == 80 ? "" : ":\(port)")\(target)"
    }

    /// The value of the `Host` header.
    var hostHeader: String {
        let shownHost = host.contains(":") ? "[\(host)]" : host
        return port == 80 ? shownHost : "\(shownHost):\(port)"
    }

    /// Reads a URL, saying exactly what is wrong with one paylinks cannot use.
    public init(_ text: String) throws(HTTPError) {
        let lowered = text.lowercased()
        if lowered.hasPrefix("https://") {
            throw .invalidURL(
                text,
                "https is not supported: paylinks speaks plain HTTP to a server on this machine; "
                    + "run the endpoint locally over http:// (or put a TLS-terminating proxy in front of it)")
        }
        guard lowered.hasPrefix("http://") else {
            throw .invalidURL(text, "give an http:// URL, such as http://127.0.0.1:8080/award")
        }
        let rest = text.dropFirst("http://".count)
        let authorityEnd = rest.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? rest.endIndex
        let authority = rest[..<authorityEnd]
        var target = String(rest[authorityEnd...])
        if let fragment = target.utf8.firstIndex(of: UInt8(ascii: "#")) { target = String(target[..<fragment]) }
        if target.isEmpty || target.hasPrefix("?") { target = "/" + target }
        guard !authority.contains("@") else {
            throw .invalidURL(text, "credentials in the URL are not supported; send them some other way")
        }
        var hostPart = Substring(authority)
        var portPart: Substring?
        if hostPart.hasPrefix("[") {
            guard let close = hostPart.firstIndex(of: "]") else {
                throw .invalidURL(text, "an IPv6 address must be closed with ]")
            }
            let after = hostPart[hostPart.index(after: close)...]
            if after.hasPrefix(":") {
                portPart = after.dropFirst()
            } else if !after.isEmpty {
                throw .invalidURL(text, "expected ':' and a port after the IPv6 address")
            }
            hostPart = hostPart[hostPart.index(after: hostPart.startIndex)..<close]
        } else if let colon = hostPart.lastIndex(of: ":") {
            portPart = hostPart[hostPart.index(after: colon)...]
            hostPart = hostPart[..<colon]
        }
        guard !hostPart.isEmpty else { throw .invalidURL(text, "the URL has no host") }
        guard
            hostPart.unicodeScalars.allSatisfy({
                $0.isASCII
                    && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || ".-:_%".unicodeScalars.contains($0))
            })
        else { throw .invalidURL(text, "the host may hold only letters, digits, '.', '-' and ':'") }
        var port = 80
        if let portPart {
            guard let number = Int(portPart), (1...65_535).contains(number) else {
                throw .invalidURL(text, "the port must be a number from 1 to 65535")
            }
            port = number
        }
        guard !target.unicodeScalars.contains(where: { $0.value <= 0x20 || $0.value >= 0x7F }) else {
            throw .invalidURL(
                text, "the path must not hold spaces, control characters or non-ASCII letters; percent-encode them")
        }
        self.host = String(hostPart)
        self.port = port
        self.target = target
    }
}
