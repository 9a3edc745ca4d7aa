import PaylinksJSON

/// A request to an operation, read as the document says it is: its parameters, coerced by
/// their schemas, and its body.
extension OpenAPIContract {
    /// The problems of a request to `operation` of the path item `item`.
    func requestProblems(
        _ name: String, _ item: JSONValue, _ operation: JSONValue, captures: [String: String], query: String,
        headers: [Header], body: [UInt8]
    ) -> [String] {
        var parameters: [(name: String, location: String, parameter: JSONValue)] = []
        for parameter in (item["parameters"]?.arrayElements ?? []) + (operation["parameters"]?.arrayElements ?? []) {
            let parameter = resolved(parameter)
            guard let name = parameter["name"]?.string, let location = parameter["in"]?.string else { continue }
            parameters.removeAll { $0.name == name && $0.location == location }
            parameters.append((name, location, parameter))
        }
        let fields = Self.formFields(query)
        var problems: [String] = []
        for (parameterName, location, parameter) in parameters {
            let values: [String]
            switch location {
            case "path": values = captures[parameterName].map { [$0] } ?? []
            case "query": values = fields.filter { $0.name == parameterName }.map(\.value)
            case "header": values = headers.filter { $0.name.lowercased() == parameterName.lowercased() }.map(\.value)
            default: continue
            }
            let required =
                location == "path"
                || parameter["required"].map { if case .bool(true) = $0.kind { true } else { false } } == true
            guard !values.isEmpty else {
                if required { problems.append("\(name): request has no \(location) parameter \(parameterName)") }
                continue
            }
            guard let schema = parameter["schema"] else { continue }
            let value: JSONValue
            if Self.types(of: resolvedSchema(schema)).contains("array") {
                let items = resolvedSchema(schema)["items"] ?? JSONValue(.bool(true), at: 0)
                value = JSONValue(.array(values.map { coerced($0, items) }), at: 0)
            } else {
                value = coerced(values[0], schema)
            }
            problems += validator.problems(value, against: schema)
                .map { "\(name): request \(location) parameter \(parameterName) \($0)" }
        }
        guard let requestBody = operation["requestBody"].map(resolved) else { return problems }
        if body.isEmpty {
            if case .bool(true) = requestBody["required"]?.kind {
                problems.append("\(name): request has no body, which the document requires")
            }
            return problems
        }
        let content = requestBody["content"] ?? JSONValue(.object([]), at: 0)
        guard let contentType = Self.header("Content-Type", in: headers) else {
            return problems + [
                "\(name): request has a body without a Content-Type; the document names \(Self.names(content))"
            ]
        }
        guard let media = Self.mediaType(contentType, in: content) else {
            return problems + ["\(name): request has Content-Type \(contentType), not one of \(Self.names(content))"]
        }
        guard let schema = media["schema"] else { return problems }
        return problems
            + bodyProblems(body, contentType: contentType, schema: schema).map {
                "\(name): request body \($0)"
            }
    }

    /// `text`, a parameter's value, as the JSON value `schema`'s type reads it: a number or a
    /// boolean where it says so and the text is one, else a string.
    func coerced(_ text: String, _ schema: JSONValue) -> JSONValue {
        let types = Self.types(of: resolvedSchema(schema))
        if types.contains("integer") || types.contains("number"), ExactNumber(text) != nil,
            text.first.map({ $0 == "-" || $0.isNumber }) == true
        {
            return JSONValue(.number(text), at: 0)
        }
        if types.contains("boolean"), text == "true" || text == "false" {
            return JSONValue(.bool(text == "true"), at: 0)
        }
        return .text(text)
    }

    /// The types a schema names at its top.
    static func types(of schema: JSONValue) -> [String] {
        switch schema["type"]?.kind {
        case .string(let one): [one]
        case .array(let many): many.compactMap(\.string)
        default: []
        }
    }

    /// `schema` with a `$ref` at its top followed.
    func resolvedSchema(_ schema: JSONValue) -> JSONValue {
        var schema = schema
        for _ in 0..<16 {
            guard let reference = schema["$ref"]?.string, let target = validator.resolve(reference) else { break }
            schema = target
        }
        return schema
    }

    /// An OpenAPI object with its `$ref` followed, as responses, parameters, request bodies
    /// and headers may be given.
    func resolved(_ value: JSONValue) -> JSONValue {
        var value = value
        for _ in 0..<16 {
            guard let reference = value["$ref"]?.string, let target = validator.resolve(reference) else { break }
            value = target
        }
        return value
    }
}
