public import PaylinksJSON

/// A JSON Schema 2020-12 validator for the keywords the sandbox's OpenAPI document uses,
/// with its schemas' `$ref`s resolved in the document that holds them.
///
/// A keyword it does not know is reported as a problem wherever a schema has it, so that no
/// part of the document escapes checking unnoticed.
public struct JSONSchemaValidator: Sendable {
    /// The document `$ref`s point into.
    let root: JSONValue

    /// Keywords that only annotate: they never make a value wrong.
    static let annotations: Set<String> = [
        "format", "description", "title", "examples", "example", "default", "discriminator", "$comment",
        "deprecated", "readOnly", "writeOnly", "$defs", "$schema", "$id", "contentMediaType",
    ]

    /// Keywords the validator applies.
    static let assertions: Set<String> = [
        "$ref", "type", "properties", "required", "additionalProperties", "patternProperties", "items",
        "prefixItems", "minItems", "maxItems", "uniqueItems", "minProperties", "maxProperties", "enum", "const",
        "oneOf", "anyOf", "allOf", "not", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum",
        "minLength", "maxLength", "pattern", "propertyNames", "dependentSchemas", "dependentRequired", "if", "then",
        "else",
    ]

    /// A validator whose `$ref`s resolve in `root`.
    public init(root: JSONValue) {
        self.root = root
    }

    /// What is wrong with `instance` under `schema`, one line each, each naming where in
    /// the instance (a JSON pointer after `at`).
    public func problems(_ instance: JSONValue, against schema: JSONValue, at location: String = "") -> [String] {
        check(instance, schema, location, depth: 0)
    }

    /// Whether `instance` is valid under `schema`.
    public func accepts(_ instance: JSONValue, _ schema: JSONValue) -> Bool {
        check(instance, schema, "", depth: 0).isEmpty
    }

    /// The value a local `$ref` such as `#/components/schemas/Problem` points at, or nil
    /// when it points at nothing.
    public func resolve(_ reference: String) -> JSONValue? {
        guard reference.hasPrefix("#") else { return nil }
        let pointer = percentDecoded(String(reference.dropFirst()))
        if pointer.isEmpty { return root }
        guard pointer.hasPrefix("/") else { return nil }
        var value = root
        for token in pointer.dropFirst().split(separator: "/", omittingEmptySubsequences: false) {
            let name = String(token).replacing("~1", with: "/").replacing("~0", with: "~")
            switch value.kind {
            case .object:
                guard let member = value[name] else { return nil }
                value = member
            case .array(let elements):
                guard let index = Int(name), elements.indices.contains(index) else { return nil }
                value = elements[index]
            default: return nil
            }
        }
        return value
    }

    /// The problems of `instance` under `schema`; `depth` stops a `$ref` that leads back to
    /// itself without consuming the instance.
    private func check(_ instance: JSONValue, _ schema: JSONValue, _ at: String, depth: Int) -> [String] {
        let place = at.isEmpty ? "at the top" : "at \(at)"
        if case .bool(let flag) = schema.kind {
            return flag ? [] : ["\(place): no value is allowed here"]
        }
        guard case .object(let members) = schema.kind else {
            return ["\(place): the schema is \(schema.typeDescription), not an object"]
        }
        guard depth < 64 else { return ["\(place): the schema's references nest too deep"] }
        var problems: [String] = []
        for member in members
        where !Self.assertions.contains(member.key) && !Self.annotations.contains(member.key) {
            problems.append("\(place): the schema has the keyword \(member.key), which this validator does not know")
        }
        for member in members {
            problems += keyword(member.key, member.value, schema, instance, at, place, depth)
        }
        return problems
    }

    /// The problems one keyword finds.
    private func keyword(
        _ name: String, _ value: JSONValue, _ schema: JSONValue, _ instance: JSONValue, _ at: String, _ place: String,
        _ depth: Int
    ) -> [String] {
        switch name {
        case "$ref":
            guard case .string(let reference) = value.kind, let target = resolve(reference) else {
                return ["\(place): the schema's $ref \(value.text) points at nothing"]
            }
            return check(instance, target, at, depth: depth + 1)
        case "type":
            let names: [String] =
                switch value.kind {
                case .string(let one): [one]
                case .array(let many): many.compactMap(\.string)
                default: []
                }
            return names.contains { Self.instance(instance, is: $0) }
                ? [] : ["\(place): \(instance.typeDescription) where \(names.joined(separator: " or ")) is expected"]
        case "properties":
            guard case .object(let instanceMembers) = instance.kind, case .object(let properties) = value.kind else {
                return []
            }
            var problems: [String] = []
            for property in properties {
                for member in instanceMembers where member.key == property.key {
                    problems += check(member.value, property.value, at + "/" + escaped(member.key), depth: depth)
                }
            }
            return problems
        case "required":
            guard case .object(let instanceMembers) = instance.kind, case .array(let names) = value.kind else {
                return []
            }
            let present = Set(instanceMembers.map(\.key))
            return names.compactMap(\.string).filter { !present.contains($0) }.map { "\(place): \($0) is missing" }
        case "patternProperties":
            guard case .object(let instanceMembers) = instance.kind, case .object(let patterns) = value.kind else {
                return []
            }
            var problems: [String] = []
            for pattern in patterns {
                for member in instanceMembers {
                    switch matches(member.key, pattern.key) {
                    case .none: problems.append("\(place): the pattern \(pattern.key) is not a regular expression")
                    case .some(true):
                        problems += check(member.value, pattern.value, at + "/" + escaped(member.key), depth: depth)
                    case .some(false): break
                    }
                }
            }
            return problems
        case "additionalProperties":
            guard case .object(let instanceMembers) = instance.kind else { return [] }
            let named = Set(schema["properties"]?.objectMembers.map(\.key) ?? [])
            let patterns = schema["patternProperties"]?.objectMembers.map(\.key) ?? []
            var problems: [String] = []
            for member in instanceMembers
            where !named.contains(member.key) && !patterns.contains(where: { matches(member.key, $0) == true }) {
                if case .bool(false) = value.kind {
                    problems.append("\(place): \(member.key) is not a member this object may have")
                } else {
                    problems += check(member.value, value, at + "/" + escaped(member.key), depth: depth)
                }
            }
            return problems
        case "propertyNames":
            guard case .object(let instanceMembers) = instance.kind else { return [] }
            return instanceMembers.flatMap { member in
                check(.text(member.key), value, at + "/" + escaped(member.key), depth: depth)
                    .map { "\($0) (the member's name)" }
            }
        case "dependentSchemas":
            guard case .object(let instanceMembers) = instance.kind else { return [] }
            let present = Set(instanceMembers.map(\.key))
            return value.objectMembers.filter { present.contains($0.key) }.flatMap { dependent in
                check(instance, dependent.value, at, depth: depth + 1).map { "\($0) (as it has \(dependent.key))" }
            }
        case "dependentRequired":
            guard case .object(let instanceMembers) = instance.kind else { return [] }
            let present = Set(instanceMembers.map(\.key))
            return value.objectMembers.filter { present.contains($0.key) }.flatMap { dependent in
                dependent.value.arrayElements.compactMap(\.string).filter { !present.contains($0) }
                    .map { "\(place): \($0) is missing, as \(dependent.key) is there" }
            }
        case "items":
            guard case .array(let elements) = instance.kind else { return [] }
            let skipped = schema["prefixItems"]?.arrayElements.count ?? 0
            return elements.enumerated().dropFirst(skipped).flatMap { index, element in
                check(element, value, at + "/\(index)", depth: depth)
            }
        case "prefixItems":
            guard case .array(let elements) = instance.kind, case .array(let schemas) = value.kind else { return [] }
            return zip(elements, schemas).enumerated().flatMap { index, pair in
                check(pair.0, pair.1, at + "/\(index)", depth: depth)
            }
        case "minItems", "maxItems":
            guard case .array(let elements) = instance.kind, let bound = value.wholeNumber else { return [] }
            if name == "minItems", elements.count < bound {
                return ["\(place): \(elements.count) items where at least \(bound) are expected"]
            }
            if name == "maxItems", elements.count > bound {
                return ["\(place): \(elements.count) items where at most \(bound) are expected"]
            }
            return []
        case "uniqueItems":
            guard case .array(let elements) = instance.kind, case .bool(true) = value.kind else { return [] }
            for (index, element) in elements.enumerated()
            where elements[..<index].contains(where: { JSONValue.same($0, element) }) {
                return ["\(place): item \(index) repeats an earlier one"]
            }
            return []
        case "minProperties", "maxProperties":
            guard case .object(let instanceMembers) = instance.kind, let bound = value.wholeNumber else { return [] }
            if name == "minProperties", instanceMembers.count < bound {
                return ["\(place): \(instanceMembers.count) members where at least \(bound) are expected"]
            }
            if name == "maxProperties", instanceMembers.count > bound {
                return ["\(place): \(instanceMembers.count) members where at most \(bound) are expected"]
            }
            return []
        case "enum":
            guard case .array(let allowed) = value.kind else { return ["\(place): the schema's enum is not an array"] }
            return allowed.contains { JSONValue.same($0, instance) }
                ? [] : ["\(place): \(instance.text) is none of \(allowed.map(\.text).joined(separator: ", "))"]
        case "const":
            return JSONValue.same(value, instance) ? [] : ["\(place): \(instance.text) where \(value.text) is expected"]
        case "oneOf", "anyOf", "allOf":
            guard case .array(let schemas) = value.kind else {
                return ["\(place): the schema's \(name) is not an array"]
            }
            let results = schemas.map { check(instance, $0, at, depth: depth + 1) }
            let passing = results.filter(\.isEmpty).count
            switch name {
            case "allOf": return results.flatMap { $0 }
            case "anyOf":
                return passing > 0
                    ? [] : ["\(place): matches none of anyOf's \(schemas.count) schemas: " + summary(results)]
            default:
                if passing == 1 { return [] }
                return passing == 0
                    ? ["\(place): matches none of oneOf's \(schemas.count) schemas: " + summary(results)]
                    : ["\(place): matches \(passing) of oneOf's schemas, where exactly one must"]
            }
        case "if":
            let holds = check(instance, value, at, depth: depth + 1).isEmpty
            guard let branch = schema[holds ? "then" : "else"] else { return [] }
            return check(instance, branch, at, depth: depth + 1)
                .map { "\($0) (as the schema's if \(holds ? "holds" : "does not hold"))" }
        case "not":
            return check(instance, value, at, depth: depth + 1).isEmpty
                ? ["\(place): \(instance.text) matches the schema it must not"] : []
        case "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum":
            guard case .number(let text) = instance.kind, let number = ExactNumber(text) else { return [] }
            guard case .number(let boundText) = value.kind, let bound = ExactNumber(boundText) else {
                return ["\(place): the schema's \(name) is not a number"]
            }
            let fine =
                switch name {
                case "minimum": number >= bound
                case "maximum": number <= bound
                case "exclusiveMinimum": number > bound
                default: number < bound
                }
            return fine ? [] : ["\(place): \(text) breaks \(name) \(boundText)"]
        case "minLength", "maxLength":
            guard case .string(let text) = instance.kind, let bound = value.wholeNumber else { return [] }
            let length = text.unicodeScalars.count
            if name == "minLength", length < bound {
                return ["\(place): \(length) characters where at least \(bound) are expected"]
            }
            if name == "maxLength", length > bound {
                return ["\(place): \(length) characters where at most \(bound) are expected"]
            }
            return []
        case "pattern":
            guard case .string(let text) = instance.kind, case .string(let pattern) = value.kind else { return [] }
            switch matches(text, pattern) {
            case .none: return ["\(place): the pattern \(pattern) is not a regular expression"]
            case .some(true): return []
            case .some(false): return ["\(place): \(instance.text) does not match \(pattern)"]
            }
        default:
            return []
        }
    }

    /// Whether `instance` is of JSON Schema's type `name`: a number without a fraction is
    /// an integer however it is written.
    static func instance(_ instance: JSONValue, is name: String) -> Bool {
        switch (instance.kind, name) {
        case (.null, "null"), (.bool, "boolean"), (.string, "string"), (.array, "array"), (.object, "object"),
            (.number, "number"):
            true
        case (.number(let text), "integer"): ExactNumber(text)?.isWhole ?? false
        default: false
        }
    }

    /// Whether `pattern`, searched for anywhere in `text`, matches it; nil when it is not a
    /// regular expression.
    func matches(_ text: String, _ pattern: String) -> Bool? {
        guard let regex = try? Regex(pattern) else { return nil }
        return text.contains(regex)
    }

    /// The first problem of each schema a combinator tried, short enough for one line.
    private func summary(_ results: [[String]]) -> String {
        results.enumerated().map { index, problems in "[\(index)] \(problems.first ?? "fine")" }
            .joined(separator: "; ")
    }

    /// `name` as a JSON pointer token.
    private func escaped(_ name: String) -> String {
        name.replacing("~", with: "~0").replacing("/", with: "~1")
    }

    /// `text` with its `%XX` escapes decoded, as a URI fragment is.
    private func percentDecoded(_ text: String) -> String {
        OpenAPIContract.percentDecoded(text, plusIsSpace: false)
    }

    /// Every keyword no schema of the document may have, in every schema it holds: under
    /// `components/schemas` and each `schema` member, however deep.
    public func unknownKeywords() -> [String] {
        var found: [String] = []
        walk(root, "#", inSchema: false, &found)
        return found
    }

    /// Walks `value` at `pointer`; `inSchema` when it is a schema.
    private func walk(_ value: JSONValue, _ pointer: String, inSchema: Bool, _ found: inout [String]) {
        switch value.kind {
        case .object(let members):
            for member in members {
                let here = pointer + "/" + escaped(member.key)
                if inSchema {
                    if !Self.assertions.contains(member.key) && !Self.annotations.contains(member.key) {
                        found.append("\(pointer): unknown keyword \(member.key)")
                    }
                    switch member.key {
                    case "properties", "patternProperties", "$defs", "dependentSchemas":
                        for sub in member.value.objectMembers {
                            walk(sub.value, here + "/" + escaped(sub.key), inSchema: true, &found)
                        }
                    case "items", "additionalProperties", "not", "propertyNames", "if", "then", "else":
                        walk(member.value, here, inSchema: true, &found)
                    case "prefixItems", "oneOf", "anyOf", "allOf":
                        for (index, sub) in member.value.arrayElements.enumerated() {
                            walk(sub, here + "/\(index)", inSchema: true, &found)
                        }
                    default: break
                    }
                } else if member.key == "schema" {
                    walk(member.value, here, inSchema: true, &found)
                } else if pointer == "#/components", member.key == "schemas" {
                    for sub in member.value.objectMembers {
                        walk(sub.value, here + "/" + escaped(sub.key), inSchema: true, &found)
                    }
                } else if member.key != "examples" && member.key != "example" {
                    walk(member.value, here, inSchema: false, &found)
                }
            }
        case .array(let elements):
            guard !inSchema else { return }
            for (index, element) in elements.enumerated() {
                walk(element, pointer + "/\(index)", inSchema: false, &found)
            }
        default: break
        }
    }
}
