extension OpenAPIContract {
    /// What is wrong with one exchange as it went over the wire: `request`, the request's
    /// head and body, and `answer`, the server's first answer to it (a chunked body is
    /// joined; what follows the first answer is left out). A request whose head cannot be
    /// read has its answer held to the rules no operation states; an answer that cannot be
    /// read is a problem.
    public func problems(request: [UInt8], answer: [UInt8]) -> [String] {
        guard let answerMessage = Self.message(answer, isRequest: false),
            let status = Int(answerMessage.startLine.split(separator: " ").dropFirst().first ?? "")
        else {
            return ["the answer is not HTTP: \(String(decoding: answer.prefix(60), as: UTF8.self))"]
        }
        guard let requestMessage = Self.message(request, isRequest: true) else {
            return problems(
                method: "GET", path: "", status: status, responseHeaders: answerMessage.headers,
                responseBody: answerMessage.body)
        }
        let parts = requestMessage.startLine.split(separator: " ")
        let method = parts.first.map(String.init) ?? ""
        var target = parts.count > 1 ? String(parts[1]) : ""
        if let scheme = target.firstRange(of: "://") {
            // An absolute form: the path starts at the first slash after the authority.
            let rest = target[scheme.upperBound...]
            target = rest.firstIndex(of: "/").map { String(rest[$0...]) } ?? "/"
        }
        let split = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        return problems(
            method: method, path: String(split.first ?? ""), query: split.count > 1 ? String(split[1]) : "",
            requestHeaders: requestMessage.headers, requestBody: requestMessage.body, status: status,
            responseHeaders: answerMessage.headers,
            responseBody: method.uppercased() == "HEAD" ? [] : answerMessage.body)
    }

    /// A message read from its bytes: its start line, headers and body (by Content-Length,
    /// or chunked; an answer without either runs to the end).
    static func message(_ bytes: [UInt8], isRequest: Bool) -> (startLine: String, headers: [Header], body: [UInt8])? {
        guard let end = headEnd(bytes) else {
            // A head without its blank line: all of it is the head.
            return bytes.isEmpty ? nil : parseHead(bytes[...]).map { ($0.0, $0.1, []) }
        }
        guard let (startLine, headers) = parseHead(bytes[..<end]) else { return nil }
        let rest = Array(bytes[(end + 4)...])
        if header("Transfer-Encoding", in: headers)?.lowercased().contains("chunked") == true {
            return (startLine, headers, unchunked(rest))
        }
        if let length = header("Content-Length", in: headers).flatMap({ Int($0.trimmed) }) {
            return (startLine, headers, Array(rest.prefix(length)))
        }
        return (startLine, headers, isRequest ? [] : rest)
    }

    /// Where the blank line that ends a head starts.
    private static func headEnd(_ bytes: [UInt8]) -> Int? {
        guard bytes.count >= 4 else { return nil }
        for index in 0...(bytes.count - 4)
        where bytes[index] == 13 && bytes[index + 1] == 10 && bytes[index + 2] == 13 && bytes[index + 3] == 10 {
            return index
        }
        return nil
    }

    /// The start line and headers of a head.
    private static func parseHead(_ bytes: ArraySlice<UInt8>) -> (String, [Header])? {
        let lines = String(decoding: bytes, as: UTF8.self).split(separator: "\r\n", omittingEmptySubsequences: false)
        guard let first = lines.first, first.contains(" ") else { return nil }
        let headers: [Header] = lines.dropFirst().compactMap { line in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            return (String(line[..<colon]), line[line.index(after: colon)...].trimmed)
        }
        return (String(first), headers)
    }

    /// A chunked body's data, joined.
    private static func unchunked(_ bytes: [UInt8]) -> [UInt8] {
        var body: [UInt8] = []
        var index = 0
        while index < bytes.count {
            guard let lineEnd = (index..<bytes.count - 1).first(where: { bytes[$0] == 13 && bytes[$0 + 1] == 10 })
            else { break }
            let sizeText = String(decoding: bytes[index..<lineEnd], as: UTF8.self).split(separator: ";").first ?? ""
            guard let size = Int(sizeText.trimmed, radix: 16), size > 0 else { break }
            let start = lineEnd + 2
            body += bytes[start..<min(start + size, bytes.count)]
            index = start + size + 2
        }
        return body
    }
}
