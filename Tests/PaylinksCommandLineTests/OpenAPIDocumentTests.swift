import Foundation
import Testing

/// openapi-spec-validator, the OpenAPI project's own checker of documents, run by python3.
enum OpenAPISpecValidator {
    /// Whether python3 has it.
    static let installed: Bool = {
        (try? runProgram("/usr/bin/env", ["python3", "-c", "import openapi_spec_validator"]))?.status == 0
    }()

    /// What it says of the document at `path`, and its exit status.
    static func validate(_ path: String) throws -> (status: Int32, output: String) {
        try runProgram("/usr/bin/env", ["python3", "-m", "openapi_spec_validator", path])
    }
}

/// The sandbox's OpenAPI document, `Schemas/sandbox.openapi.json`, read by
/// openapi-spec-validator: the document is valid, and a copy that drifts from the
/// specification is not, so the check can fail.
@Suite(
    "The sandbox's OpenAPI document",
    .enabled(
        if: OpenAPISpecValidator.installed || runningInCI,
        "python3 with openapi-spec-validator is not installed (.ci/run installs it)"))
struct OpenAPIDocumentTests {
    static let document = DocumentedCommands.root.appendingPathComponent("Schemas/sandbox.openapi.json")

    @Test("the document is a valid OpenAPI 3.1 document")
    func valid() throws {
        let (status, output) = try OpenAPISpecValidator.validate(Self.document.path)
        #expect(status == 0, "\(output)")
        #expect(output.hasSuffix(": OK\n"), "\(output)")
    }

    /// A change that makes the document invalid: where in it, what it puts there, and a
    /// word the validator's complaint names.
    struct Drift: Sendable, CustomTestStringConvertible {
        let path: [String]
        let value: @Sendable () -> Any
        let named: String
        let testDescription: String
    }

    static let drifts: [Drift] = [
        Drift(
            path: ["paths", "/openapi.json", "get", "responses", "400"],
            value: { ["$ref": "#/components/responses/Nowhere"] }, named: "/components/responses/Nowhere",
            testDescription: "a $ref to no component"),
        Drift(
            path: ["paths", "/openapi.json", "get", "operationId"], value: { 45 }, named: "operationId",
            testDescription: "an operationId that is not a string"),
        Drift(
            path: ["components", "schemas", "Problem", "properties", "errorCode", "type"], value: { "int" },
            named: "int", testDescription: "a schema of a type JSON Schema does not have"),
    ]

    @Test("a copy that drifts from the specification fails the validator", arguments: drifts)
    func drift(_ drift: Drift) throws {
        let document = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: Self.document)) as? [String: Any])
        let copy = try Self.replacing(drift.path, with: drift.value(), in: document)
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("openapi-\(UUID().uuidString).json")
        try JSONSerialization.data(withJSONObject: copy).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let (status, output) = try OpenAPISpecValidator.validate(file.path)
        #expect(status != 0, "\(output)")
        #expect(output.contains(drift.named), "\(output)")
    }

    /// `object` with the member at `path` (the keys of the objects leading to it) set to
    /// `value`; every object on the way must be there.
    static func replacing(_ path: [String], with value: Any, in object: [String: Any]) throws -> [String: Any] {
        guard let key = path.first else { return object }
        var object = object
        if path.count == 1 {
            object[key] = value
        } else {
            let inner = try #require(object[key] as? [String: Any], "the document has no object at \(key)")
            object[key] = try replacing(Array(path.dropFirst()), with: value, in: inner)
        }
        return object
    }
}
