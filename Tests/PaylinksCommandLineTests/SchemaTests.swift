import Foundation
import Testing

@testable import PaylinksCommandLine
@testable import PaylinksFixtures
@testable import PaylinksJSON
@testable import PaylinksKit

/// A JSON Schema (draft 2020-12) checker for the keywords paylinks' schemas use. A keyword
/// it does not know is reported, so a schema can never be silently half-checked.
struct SchemaValidator {
    let root: JSONValue

    init(file: URL) throws {
        root = try JSONParser.parse(Array(try Data(contentsOf: file)))
    }

    /// The ways `instance` breaks the schema; empty when it conforms.
    func errors(in instance: JSONValue) -> [String] {
        check(instance, against: root, at: "$")
    }

    private static let annotations: Set<String> = ["$schema", "$id", "title", "description", "$defs"]

    private func check(_ instance: JSONValue, against schema: JSONValue, at path: String) -> [String] {
        guard case .object(let keywords) = schema.kind else { return ["\(path): the schema is not an object"] }
        var errors: [String] = []
        let object: [(key: String, value: JSONValue)]? = {
            if case .object(let members) = instance.kind { return members }
            return nil
        }()
        for (keyword, value) in keywords where !Self.annotations.contains(keyword) {
            switch (keyword, value.kind) {
            case ("type", _):
                let types: [String] =
                    switch value.kind {
                    case .string(let type): [type]
                    case .array(let list): list.compactMap { if case .string(let type) = $0.kind { type } else { nil } }
                    default: []
                    }
                if !types.contains(where: { Self.has(instance, type: $0) }) {
                    errors.append(
                        "\(path): expected \(types.joined(separator: " or ")), got \(instance.typeDescription)")
                }
            case ("required", .array(let names)):
                guard let object else { continue }
                for case .string(let name) in names.map(\.kind) where !object.contains(where: { $0.key == name }) {
                    errors.append("\(path): missing \(name)")
                }
            case ("properties", .object(let properties)):
                for (name, subschema) in properties {
                    if let member = object?.first(where: { $0.key == name }) {
                        errors += check(member.value, against: subschema, at: "\(path).\(name)")
                    }
                }
            case ("additionalProperties", _):
                guard let object else { continue }
                let known: [String] =
                    keywords.first { $0.key == "properties" }.map {
                        if case .object(let properties) = $0.value.kind { properties.map(\.key) } else { [] }
                    } ?? []
                for member in object where !known.contains(member.key) {
                    if case .bool(false) = value.kind {
                        errors.append("\(path): unexpected key \(member.key)")
                    } else {
                        errors += check(member.value, against: value, at: "\(path).\(member.key)")
                    }
                }
            case ("items", _):
                if case .array(let elements) = instance.kind {
                    for (index, element) in elements.enumerated() {
                        errors += check(element, against: value, at: "\(path)[\(index)]")
                    }
                }
            case ("enum", .array(let options)):
                if !options.contains(where: { JSONValueMatcher.text(of: $0) == JSONValueMatcher.text(of: instance) }) {
                    errors.append("\(path): \(JSONValueMatcher.text(of: instance)) is not one of the allowed values")
                }
            case ("const", _):
                if JSONValueMatcher.text(of: value) != JSONValueMatcher.text(of: instance) {
                    errors.append("\(path): expected \(JSONValueMatcher.text(of: value))")
                }
            case ("$ref", .string(let reference)):
                guard reference.hasPrefix("#/$defs/"), let target = definition(String(reference.dropFirst(8))) else {
                    errors.append("\(path): unresolvable $ref \(reference)")
                    continue
                }
                errors += check(instance, against: target, at: path)
            case ("oneOf", .array(let options)):
                let passing = options.filter { check(instance, against: $0, at: path).isEmpty }.count
                if passing != 1 { errors.append("\(path): matches \(passing) of the oneOf options, not exactly 1") }
            case ("anyOf", .array(let options)):
                if !options.contains(where: { check(instance, against: $0, at: path).isEmpty }) {
                    errors.append("\(path): matches none of the anyOf options")
                }
            case ("minimum", .number(let bound)), ("maximum", .number(let bound)):
                guard case .number(let number) = instance.kind, let value = Double(number), let limit = Double(bound)
                else {
                    continue
                }
                if keyword == "minimum" ? value < limit : value > limit {
                    errors.append("\(path): \(number) is beyond the \(keyword) \(bound)")
                }
            case ("minLength", .number(let bound)):
                if case .string(let text) = instance.kind, text.count < Int(bound) ?? 0 {
                    errors.append("\(path): shorter than \(bound)")
                }
            case ("minItems", .number(let bound)):
                if case .array(let elements) = instance.kind, elements.count < Int(bound) ?? 0 {
                    errors.append("\(path): fewer than \(bound) items")
                }
            case ("pattern", .string(let pattern)):
                if case .string(let text) = instance.kind,
                    text.range(of: pattern, options: .regularExpression) == nil
                {
                    errors.append("\(path): \"\(text)\" does not match \(pattern)")
                }
            default:
                errors.append("\(path): the checker does not support the keyword \(keyword)")
            }
        }
        return errors
    }

    private func definition(_ name: String) -> JSONValue? {
        guard case .object(let members) = root.kind,
            case .object(let definitions)? = members.first(where: { $0.key == "$defs" })?.value.kind
        else { return nil }
        return definitions.first { $0.key == name }?.value
    }

    private static func has(_ value: JSONValue, type: String) -> Bool {
        switch (type, value.kind) {
        case ("object", .object), ("array", .array), ("string", .string), ("boolean", .bool), ("null", .null),
            ("number", .number):
            return true
        case ("integer", .number(let text)):
            return !text.contains(".") && !text.lowercased().contains("e")
        default:
            return false
        }
    }
}

/// The JSON Schemas in `Schemas/` describe what paylinks writes and reads.
@Suite("JSON Schemas")
@MainActor
struct SchemaTests {
    nonisolated static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent()
        .deletingLastPathComponent()
    nonisolated static let callbackSchema = root.appendingPathComponent("Schemas/callback-event.schema.json")
    static let scenarioSchema = root.appendingPathComponent("Schemas/scenario.schema.json")

    /// The golden files that hold callbacks as JSON lines.
    nonisolated static let goldenCallbackFiles: [String] = GoldenCase.all.filter {
        $0.arguments.contains("--json") && !["errors", "offers", "countries"].contains($0.arguments.first)
    }.map(\.name)

    nonisolated static let exampleScenarios = ScenarioTests.exampleFiles

    nonisolated static func parse(_ text: some StringProtocol) throws -> JSONValue {
        try JSONParser.parse(Array(text.utf8))
    }

    @Test("every golden JSON line is a valid callback event", arguments: goldenCallbackFiles)
    func goldenLines(name: String) throws {
        let validator = try SchemaValidator(file: Self.callbackSchema)
        let text = try String(
            contentsOf: Self.root.appendingPathComponent("Tests/PaylinksCommandLineTests/Golden/\(name).out"),
            encoding: .utf8)
        let lines = text.split(separator: "\n")
        #expect(!lines.isEmpty)
        for line in lines {
            let errors = validator.errors(in: try Self.parse(line))
            #expect(errors.isEmpty, "\(errors)\n\(line)")
        }
    }

    @Test("the golden files cover every callback")
    func coverage() throws {
        var seen: Set<String> = []
        for name in Self.goldenCallbackFiles {
            let text = try String(
                contentsOf: Self.root.appendingPathComponent("Tests/PaylinksCommandLineTests/Golden/\(name).out"),
                encoding: .utf8)
            for callback in CallbackName.allCases where text.contains("\"callback\":\"\(callback.rawValue)\"") {
                seen.insert(callback.rawValue)
            }
        }
        #expect(seen == Set(CallbackName.allCases.map(\.rawValue)))
    }

    @Test("every example scenario is valid", arguments: exampleScenarios)
    func exampleScenario(file: String) throws {
        let validator = try SchemaValidator(file: Self.scenarioSchema)
        let bytes = try Data(contentsOf: ScenarioTests.examples.appendingPathComponent(file))
        let errors = validator.errors(in: try JSONParser.parse(Array(bytes)))
        #expect(errors.isEmpty, "\(errors)")
    }

    @Test(
        "the callback schema refuses what paylinks never writes",
        arguments: [
            #"{"callback":"onPurchaseSuccess","order":{"date":1}}"#,
            #"{"callback":"onRefund"}"#,
            #"{"callback":"onPurchaseCanceled","error":{"code":3002,"message":"m"}}"#,
            #"{"callback":"onPurchaseFailed","error":{"code":3002,"message":"m"},"order":{"date":1}}"#,
            #"{"callback":"onInitializeFailed","error":{"code":"3002","message":"m"}}"#,
            #"{"callback":"onInitialized","extra":1}"#,
        ])
    func refusesCallbacks(line: String) throws {
        let validator = try SchemaValidator(file: Self.callbackSchema)
        #expect(!validator.errors(in: try Self.parse(line)).isEmpty)
    }

    @Test(
        "the scenario schema refuses what the loader refuses",
        arguments: [
            #"{"steps": []}"#,
            #"{"steps": [{"step": "refnd"}]}"#,
            #"{"steps": [{"step": "purchase"}]}"#,
            #"{"steps": [{"step": "purchase", "sku": "a", "outcom": "declined"}]}"#,
            #"{"steps": [{"step": "cancel", "sku": "a", "beforeOrder": "yes"}]}"#,
        ])
    func refusesScenarios(text: String) throws {
        let validator = try SchemaValidator(file: Self.scenarioSchema)
        #expect(!validator.errors(in: try Self.parse(text)).isEmpty)
        #expect(runCLI("run", try ScenarioTests.write([("s.json", text)])[0]).exitCode == .dataError)
    }
}
