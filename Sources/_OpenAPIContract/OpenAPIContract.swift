public import PaylinksJSON

/// An OpenAPI 3.1 document held as a contract: what it says a server answers and a client
/// sends, checked against real exchanges.
///
/// Each check returns its problems, one line each, naming the operation (`POST
/// /checkout/v1/session`), where (`response 200 body at /url`) and what is wrong.
public struct OpenAPIContract: Sendable {
    /// A header of a request or an answer.
    public typealias Header = (name: String, value: String)

    /// Why a document cannot be held as a contract.
    public struct DocumentError: Error, CustomStringConvertible {
        /// What is wrong with it.
        public let description: String
    }

    /// The document.
    public let document: JSONValue
    /// The validator of its schemas.
    public let validator: JSONSchemaValidator

    /// The HTTP methods an OpenAPI path item may hold, in its own words.
    static let methods = ["get", "put", "post", "delete", "options", "head", "patch", "trace"]

    /// The contract `document`, the bytes of an OpenAPI document in JSON.
    public init(document: [UInt8]) throws {
        let value: JSONValue
        do {
            value = try JSONParser.parse(document)
        } catch {
            throw DocumentError(description: "the document is not JSON: \(error.reason) at \(error.position)")
        }
        guard case .object = value.kind, value["paths"] != nil else {
            throw DocumentError(description: "the document is not an object with paths")
        }
        self.document = value
        self.validator = JSONSchemaValidator(root: value)
    }

    /// Every operation of the document, as `METHOD /path/{template}`.
    public var operations: Set<String> {
        var found: Set<String> = []
        for path in document["paths"]?.objectMembers ?? [] {
            for member in resolved(path.value).objectMembers where Self.methods.contains(member.key) {
                found.insert("\(member.key.uppercased()) \(path.key)")
            }
        }
        return found
    }

    /// The names of the document's webhooks.
    public var webhooks: Set<String> {
        Set(document["webhooks"]?.objectMembers.map(\.key) ?? [])
    }

    // MARK: Exchanges

    /// What is wrong with one exchange: the answer always, the request when the answer is
    /// below 400 (a request refused may be wrong on purpose). `path` is without its query,
    /// `query` the text after `?`, without it.
    public func problems(
        method: String, path: String, query: String = "", requestHeaders: [Header] = [], requestBody: [UInt8] = [],
        status: Int, responseHeaders: [Header] = [], responseBody: [UInt8] = []
    ) -> [String] {
        guard let (template, item, captures) = pathItem(for: path) else {
            // What no operation can say (the document's description): an unknown path is 404.
            return status == 404 || Self.beforeRouting(status)
                ? problemBody("\(method) \(path)", status, responseHeaders, responseBody)
                : ["\(method) \(path): no path of the document matches \(path) (answered \(status))"]
        }
        let name = "\(method) \(template)"
        // A method is case-sensitive (RFC 9110, section 9.1): an operation is the method
        // written in capitals, and `get` is another, unknown method.
        let operation = method == method.uppercased() ? item[method.lowercased()].map(resolved) : nil
        guard let operation else {
            if status == 405 {
                var problems = problemBody(name, status, responseHeaders, responseBody)
                if Self.header("Allow", in: responseHeaders) == nil {
                    problems.append("\(name): response 405 has no Allow header")
                }
                return problems
            }
            if status == 404 || Self.beforeRouting(status) {
                return problemBody(name, status, responseHeaders, responseBody)
            }
            return method == "HEAD"
                ? ["\(name): answered \(status), but the document has no head operation at \(template)"]
                : ["\(name): answered \(status), but the document has no such operation"]
        }
        var problems = responseProblems(
            name, operation, status: status, headers: responseHeaders, body: responseBody, head: method == "HEAD")
        if status < 400 {
            problems += requestProblems(
                name, item, operation, captures: captures, query: query, headers: requestHeaders, body: requestBody)
        }
        return problems
    }

    /// What is wrong with a request the sandbox sends the game's server as the webhook
    /// `name`: its headers (the operation's header parameters) and its body.
    public func webhookProblems(name: String, headers: [Header], body: [UInt8]) -> [String] {
        guard let item = document["webhooks"]?[name].map(resolved), let operation = item["post"].map(resolved) else {
            return ["webhook \(name): the document has no such webhook with a post operation"]
        }
        return requestProblems(
            "webhook \(name)", item, operation, captures: [:], query: "", headers: headers, body: body)
    }

    /// What is wrong with the game's server's answer to the webhook `name`.
    public func webhookAnswerProblems(name: String, status: Int, headers: [Header], body: [UInt8]) -> [String] {
        guard let item = document["webhooks"]?[name].map(resolved), let operation = item["post"].map(resolved) else {
            return ["webhook \(name): the document has no such webhook with a post operation"]
        }
        return responseProblems("webhook \(name)", operation, status: status, headers: headers, body: body, head: false)
    }

    /// Whether `status` is one answered before any route is found: the transport's to a
    /// request it could not read, and the guard's to a Host the sandbox does not serve.
    static func beforeRouting(_ status: Int) -> Bool {
        [400, 408, 413, 421, 431, 501, 505].contains(status)
    }

    /// The problems of an answer no operation documents: its body must be a `Problem`, when
    /// the document has that schema.
    private func problemBody(_ name: String, _ status: Int, _ headers: [Header], _ body: [UInt8]) -> [String] {
        guard let schema = document["components"]?["schemas"]?["Problem"], !body.isEmpty else { return [] }
        guard let value = try? JSONParser.parse(body) else {
            return ["\(name): response \(status) body is not JSON"]
        }
        return validator.problems(value, against: schema).map { "\(name): response \(status) body \($0)" }
    }

    // MARK: Paths

    /// The path item whose template matches `path`, its template and captures: a template
    /// whose segments are literal wins over one that captures them, segment by segment from
    /// the left, as OpenAPI matches concrete paths before templated ones.
    func pathItem(for path: String) -> (String, JSONValue, [String: String])? {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        var best: (rank: [Bool], template: String, item: JSONValue, captures: [String: String])?
        for candidate in document["paths"]?.objectMembers ?? [] {
            let segments = candidate.key.split(separator: "/", omittingEmptySubsequences: false)
            guard segments.count == parts.count else { continue }
            var rank: [Bool] = []
            var captures: [String: String] = [:]
            var matched = true
            for (segment, part) in zip(segments, parts) {
                if segment.hasPrefix("{") && segment.hasSuffix("}") {
                    captures[String(segment.dropFirst().dropLast())] = String(part)
                    rank.append(false)
                } else if segment == part {
                    rank.append(true)
                } else {
                    matched = false
                    break
                }
            }
            guard matched else { continue }
            if best == nil || Self.outranks(rank, best?.rank ?? []) {
                best = (rank, candidate.key, resolved(candidate.value), captures)
            }
        }
        return best.map { ($0.template, $0.item, $0.captures) }
    }

    /// Whether a template of literal segments `left` is more concrete than `right`: at the
    /// first segment where they differ, it is the literal one.
    static func outranks(_ left: [Bool], _ right: [Bool]) -> Bool {
        for (a, b) in zip(left, right) where a != b { return a }
        return false
    }

    // MARK: Responses

    /// The problems of an answer to `operation`.
    private func responseProblems(
        _ name: String, _ operation: JSONValue, status: Int, headers: [Header], body: [UInt8], head: Bool
    ) -> [String] {
        let responses = operation["responses"]
        let range = "\(status / 100)XX"
        guard
            let response =
                (responses?[String(status)] ?? responses?[range] ?? responses?[range.lowercased()]
                ?? responses?["default"]).map(resolved)
        else {
            return ["\(name): response \(status) is not documented"]
        }
        var problems: [String] = []
        let place = "\(name): response \(status)"
        for documented in response["headers"]?.objectMembers ?? []
        where documented.key.lowercased() != "content-type" {
            let header = resolved(documented.value)
            guard let value = Self.header(documented.key, in: headers) else {
                if case .bool(true) = header["required"]?.kind {
                    problems.append("\(place) has no \(documented.key) header")
                }
                continue
            }
            if let schema = header["schema"] {
                problems += validator.problems(coerced(value, schema), against: schema)
                    .map { "\(place) header \(documented.key) \($0)" }
            }
        }
        let contentType = Self.header("Content-Type", in: headers)
        guard let content = response["content"], !content.objectMembers.isEmpty else {
            if !body.isEmpty { problems.append("\(place) has a body, where the document says none") }
            return problems
        }
        if head && body.isEmpty && contentType == nil { return problems }
        guard let contentType else {
            return problems + ["\(place) has no Content-Type; the document names \(Self.names(content))"]
        }
        guard let media = Self.mediaType(contentType, in: content) else {
            return problems + ["\(place) has Content-Type \(contentType), not one of \(Self.names(content))"]
        }
        guard !head, let schema = media["schema"] else { return problems }
        return problems
            + bodyProblems(body, contentType: contentType, schema: schema).map { "\(place) body \($0)" }
    }

    /// The problems of `body`, of `contentType`, under `schema`: JSON parsed, a form decoded
    /// into an object of strings, anything else a string.
    func bodyProblems(_ body: [UInt8], contentType: String, schema: JSONValue) -> [String] {
        let type = Self.essence(contentType)
        let value: JSONValue
        if type == "application/json" || type.hasSuffix("+json") {
            do {
                value = try JSONParser.parse(body)
            } catch {
                return ["is not JSON: \(error.reason) at \(error.position)"]
            }
        } else if type == "application/x-www-form-urlencoded" {
            // Each field is read as its property's type reads it, as a form serializes one
            // (OpenAPI's `style: form`): `minutes=5` is the integer 5 where the schema says so.
            let properties = resolvedSchema(schema)["properties"]
            value = JSONValue(
                .object(
                    Self.formFields(String(decoding: body, as: UTF8.self)).map { field in
                        (field.name, properties?[field.name].map { coerced(field.value, $0) } ?? .text(field.value))
                    }),
                at: 0)
        } else {
            value = .text(String(decoding: body, as: UTF8.self))
        }
        return validator.problems(value, against: schema)
    }

    // MARK: Text

    /// The value of the header `name` in `headers`, whatever its case.
    static func header(_ name: String, in headers: [Header]) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }

    /// The media type of a Content-Type, lowercased, without its parameters.
    static func essence(_ contentType: String) -> String {
        String(contentType.split(separator: ";", maxSplits: 1).first ?? "").trimmed.lowercased()
    }

    /// The parameters of a Content-Type, by lowercased name, their values lowercased and
    /// unquoted.
    static func parameters(_ contentType: String) -> [String: String] {
        var found: [String: String] = [:]
        for part in contentType.split(separator: ";").dropFirst() {
            let pair = part.split(separator: "=", maxSplits: 1)
            guard pair.count == 2 else { continue }
            var value = String(pair[1]).trimmed.lowercased()
            if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") {
                value = String(value.dropFirst().dropLast())
            }
            found[String(pair[0]).trimmed.lowercased()] = value
        }
        return found
    }

    /// The media type object of `content` that `contentType` is: its type (or a documented
    /// wildcard) the same whatever the case, and every parameter the document names equal.
    static func mediaType(_ contentType: String, in content: JSONValue) -> JSONValue? {
        let type = essence(contentType)
        let given = parameters(contentType)
        for member in content.objectMembers {
            let documented = essence(member.key)
            let sameType =
                documented == type || documented == "*/*"
                || (documented.hasSuffix("/*") && type.hasPrefix(documented.dropLast()))
            guard sameType else { continue }
            if parameters(member.key).allSatisfy({ given[$0.key] == $0.value }) { return member.value }
        }
        return nil
    }

    /// The media types `content` names, for a problem to list.
    static func names(_ content: JSONValue) -> String {
        let names = content.objectMembers.map(\.key)
        return names.isEmpty ? "none" : names.joined(separator: ", ")
    }

    /// The fields of a query or a form body, `+` a space and `%XX` decoded, in order.
    static func formFields(_ text: String) -> [(name: String, value: String)] {
        text.split(separator: "&").map { field in
            let pair = field.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            return (
                percentDecoded(String(pair[0]), plusIsSpace: true),
                pair.count > 1 ? percentDecoded(String(pair[1]), plusIsSpace: true) : ""
            )
        }
    }

    /// `text` with `%XX` decoded (and `+` as a space when `plusIsSpace`); an escape that is
    /// not one stays as it is.
    static func percentDecoded(_ text: String, plusIsSpace: Bool) -> String {
        var bytes: [UInt8] = []
        let source = Array(text.utf8)
        var index = 0
        while index < source.count {
            let byte = source[index]
            if byte == UInt8(ascii: "%"), index + 2 < source.count, let high = hexValue(source[index + 1]),
                let low = hexValue(source[index + 2])
            {
                bytes.append(high << 4 | low)
                index += 3
                continue
            }
            bytes.append(plusIsSpace && byte == UInt8(ascii: "+") ? UInt8(ascii: " ") : byte)
            index += 1
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The value of a hexadecimal digit.
    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case 48...57: byte - 48
        case 65...70: byte - 55
        case 97...102: byte - 87
        default: nil
        }
    }
}

extension JSONValue {
    /// A string value.
    static func text(_ text: String) -> JSONValue {
        JSONValue(.string(text), at: 0)
    }
}

extension StringProtocol {
    /// The text without the spaces and tabs around it.
    var trimmed: String {
        var text = Substring(self)
        while text.first == " " || text.first == "\t" { text = text.dropFirst() }
        while text.last == " " || text.last == "\t" { text = text.dropLast() }
        return String(text)
    }
}
