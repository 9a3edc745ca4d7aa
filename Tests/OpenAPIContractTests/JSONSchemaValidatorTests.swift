import PaylinksJSON
import Testing

@testable import _OpenAPIContract

/// The schema validator, keyword by keyword: each accepts what it should and refuses what it
/// should not.
@Suite struct JSONSchemaValidatorTests {
    /// A case: a schema, an instance, and whether the schema takes it.
    struct Case: CustomTestStringConvertible, Sendable {
        let schema: String
        let instance: String
        let valid: Bool
        var testDescription: String { "\(schema) \(valid ? "takes" : "refuses") \(instance)" }
    }

    /// A document whose components the cases' `$ref`s point at.
    static let root = """
        {"components": {"schemas": {"Name": {"type": "string", "minLength": 1},
          "a/b": {"const": 1}, "c~d": {"const": 2}, "Self": {"type": "array", "items": {"$ref": "#/components/schemas/Self"}}}},
         "$defs": {"Count": {"type": "integer"}}}
        """

    static let cases: [Case] = [
        Case(schema: ##"{"$ref": "#/components/schemas/Name"}"##, instance: ##""x""##, valid: true),
        Case(schema: ##"{"$ref": "#/components/schemas/Name"}"##, instance: ##""""##, valid: false),
        Case(schema: ##"{"$ref": "#/components/schemas/Name"}"##, instance: "3", valid: false),
        Case(schema: ##"{"$ref": "#/$defs/Count"}"##, instance: "3", valid: true),
        Case(schema: ##"{"$ref": "#/$defs/Count"}"##, instance: "3.5", valid: false),
        Case(schema: ##"{"$ref": "#/components/schemas/a~1b"}"##, instance: "1", valid: true),
        Case(schema: ##"{"$ref": "#/components/schemas/a~1b"}"##, instance: "2", valid: false),
        Case(schema: ##"{"$ref": "#/components/schemas/c~0d"}"##, instance: "2", valid: true),
        Case(schema: ##"{"$ref": "#/components/schemas/c~0d"}"##, instance: "1", valid: false),
        Case(schema: ##"{"$ref": "#/components/schemas/Self"}"##, instance: "[[], [[]]]", valid: true),
        Case(schema: ##"{"$ref": "#/components/schemas/Self"}"##, instance: "[[1]]", valid: false),
        Case(schema: ##"{"$ref": "#/components/schemas/Missing"}"##, instance: "1", valid: false),
        Case(schema: ##"{"type": "string"}"##, instance: ##""a""##, valid: true),
        Case(schema: ##"{"type": "string"}"##, instance: "1", valid: false),
        Case(schema: ##"{"type": "integer"}"##, instance: "499", valid: true),
        Case(schema: ##"{"type": "integer"}"##, instance: "499.0", valid: true),
        Case(schema: ##"{"type": "integer"}"##, instance: "4.99e2", valid: true),
        Case(schema: ##"{"type": "integer"}"##, instance: "4.99", valid: false),
        Case(schema: ##"{"type": "integer"}"##, instance: ##""499""##, valid: false),
        Case(schema: ##"{"type": "number"}"##, instance: "4.99", valid: true),
        Case(schema: ##"{"type": "number"}"##, instance: "null", valid: false),
        Case(schema: ##"{"type": "boolean"}"##, instance: "false", valid: true),
        Case(schema: ##"{"type": "boolean"}"##, instance: "0", valid: false),
        Case(schema: ##"{"type": "null"}"##, instance: "null", valid: true),
        Case(schema: ##"{"type": "null"}"##, instance: "false", valid: false),
        Case(schema: ##"{"type": "array"}"##, instance: "[]", valid: true),
        Case(schema: ##"{"type": "array"}"##, instance: "{}", valid: false),
        Case(schema: ##"{"type": "object"}"##, instance: "{}", valid: true),
        Case(schema: ##"{"type": "object"}"##, instance: "[]", valid: false),
        Case(schema: ##"{"type": ["string", "null"]}"##, instance: "null", valid: true),
        Case(schema: ##"{"type": ["string", "null"]}"##, instance: ##""a""##, valid: true),
        Case(schema: ##"{"type": ["string", "null"]}"##, instance: "1", valid: false),
        Case(schema: ##"{"properties": {"a": {"type": "integer"}}}"##, instance: ##"{"a": 1}"##, valid: true),
        Case(schema: ##"{"properties": {"a": {"type": "integer"}}}"##, instance: ##"{"a": "1"}"##, valid: false),
        Case(schema: ##"{"properties": {"a": {"type": "integer"}}}"##, instance: ##"{"b": "1"}"##, valid: true),
        Case(schema: ##"{"required": ["a"]}"##, instance: ##"{"a": null}"##, valid: true),
        Case(schema: ##"{"required": ["a"]}"##, instance: ##"{"b": 1}"##, valid: false),
        Case(schema: ##"{"required": ["a"]}"##, instance: "[]", valid: true),
        Case(
            schema: ##"{"properties": {"a": {}}, "additionalProperties": false}"##, instance: ##"{"a": 1}"##,
            valid: true),
        Case(
            schema: ##"{"properties": {"a": {}}, "additionalProperties": false}"##, instance: ##"{"b": 1}"##,
            valid: false),
        Case(schema: ##"{"additionalProperties": true}"##, instance: ##"{"b": 1}"##, valid: true),
        Case(schema: ##"{"additionalProperties": {"type": "string"}}"##, instance: ##"{"b": "x"}"##, valid: true),
        Case(schema: ##"{"additionalProperties": {"type": "string"}}"##, instance: ##"{"b": 1}"##, valid: false),
        Case(
            schema: ##"{"patternProperties": {"^x-": {"type": "string"}}, "additionalProperties": false}"##,
            instance: ##"{"x-a": "1"}"##, valid: true),
        Case(
            schema: ##"{"patternProperties": {"^x-": {"type": "string"}}, "additionalProperties": false}"##,
            instance: ##"{"x-a": 1}"##, valid: false),
        Case(
            schema: ##"{"patternProperties": {"^x-": {"type": "string"}}, "additionalProperties": false}"##,
            instance: ##"{"y": "1"}"##, valid: false),
        Case(schema: ##"{"items": {"type": "integer"}}"##, instance: "[1, 2.0]", valid: true),
        Case(schema: ##"{"items": {"type": "integer"}}"##, instance: ##"[1, "2"]"##, valid: false),
        Case(
            schema: ##"{"prefixItems": [{"type": "string"}], "items": {"type": "integer"}}"##, instance: ##"["a", 1]"##,
            valid: true),
        Case(
            schema: ##"{"prefixItems": [{"type": "string"}], "items": {"type": "integer"}}"##, instance: ##"[1, 1]"##,
            valid: false),
        Case(
            schema: ##"{"prefixItems": [{"type": "string"}], "items": {"type": "integer"}}"##,
            instance: ##"["a", "b"]"##,
            valid: false),
        Case(schema: ##"{"prefixItems": [{"type": "string"}], "items": false}"##, instance: ##"["a"]"##, valid: true),
        Case(
            schema: ##"{"prefixItems": [{"type": "string"}], "items": false}"##, instance: ##"["a", 1]"##, valid: false),
        Case(schema: ##"{"minItems": 2}"##, instance: "[1, 2]", valid: true),
        Case(schema: ##"{"minItems": 2}"##, instance: "[1]", valid: false),
        Case(schema: ##"{"maxItems": 1}"##, instance: "[1]", valid: true),
        Case(schema: ##"{"maxItems": 1}"##, instance: "[1, 2]", valid: false),
        Case(schema: ##"{"enum": ["a", 1]}"##, instance: "1.0", valid: true),
        Case(schema: ##"{"enum": ["a", 1]}"##, instance: ##""a""##, valid: true),
        Case(schema: ##"{"enum": ["a", 1]}"##, instance: ##""b""##, valid: false),
        Case(schema: ##"{"const": {"a": [1]}}"##, instance: ##"{"a": [1]}"##, valid: true),
        Case(schema: ##"{"const": {"a": [1]}}"##, instance: ##"{"a": [2]}"##, valid: false),
        Case(schema: ##"{"const": "x"}"##, instance: ##""y""##, valid: false),
        Case(schema: ##"{"oneOf": [{"type": "integer"}, {"type": "string"}]}"##, instance: "1", valid: true),
        Case(schema: ##"{"oneOf": [{"type": "integer"}, {"type": "number"}]}"##, instance: "1", valid: false),
        Case(schema: ##"{"oneOf": [{"type": "integer"}, {"type": "string"}]}"##, instance: "null", valid: false),
        Case(schema: ##"{"anyOf": [{"type": "integer"}, {"type": "number"}]}"##, instance: "1", valid: true),
        Case(schema: ##"{"anyOf": [{"type": "integer"}, {"type": "string"}]}"##, instance: "null", valid: false),
        Case(schema: ##"{"allOf": [{"type": "integer"}, {"minimum": 2}]}"##, instance: "2", valid: true),
        Case(schema: ##"{"allOf": [{"type": "integer"}, {"minimum": 2}]}"##, instance: "1", valid: false),
        Case(schema: ##"{"not": {"type": "string"}}"##, instance: "1", valid: true),
        Case(schema: ##"{"not": {"type": "string"}}"##, instance: ##""a""##, valid: false),
        Case(schema: ##"{"minimum": 1}"##, instance: "1.0", valid: true),
        Case(schema: ##"{"minimum": 1}"##, instance: "0.999999999999999999999", valid: false),
        Case(schema: ##"{"minimum": -2}"##, instance: "-1", valid: true),
        Case(schema: ##"{"minimum": -2}"##, instance: "-3", valid: false),
        Case(schema: ##"{"maximum": 9007199254740993}"##, instance: "9007199254740993", valid: true),
        Case(schema: ##"{"maximum": 9007199254740992}"##, instance: "9007199254740993", valid: false),
        Case(schema: ##"{"exclusiveMinimum": 0}"##, instance: "1e-300", valid: true),
        Case(schema: ##"{"exclusiveMinimum": 0}"##, instance: "0.0", valid: false),
        Case(schema: ##"{"exclusiveMaximum": 100}"##, instance: "99.99", valid: true),
        Case(schema: ##"{"exclusiveMaximum": 100}"##, instance: "1e2", valid: false),
        Case(schema: ##"{"minimum": 1}"##, instance: ##""0""##, valid: true),
        Case(schema: ##"{"minLength": 2}"##, instance: ##""é""##, valid: false),
        Case(schema: ##"{"minLength": 2}"##, instance: ##""ab""##, valid: true),
        Case(schema: ##"{"maxLength": 1}"##, instance: ##""😀""##, valid: true),
        Case(schema: ##"{"maxLength": 1}"##, instance: ##""e\u0301""##, valid: false),
        Case(schema: ##"{"pattern": "^[a-z]+_[0-9]{3}$"}"##, instance: ##""pack_001""##, valid: true),
        Case(schema: ##"{"pattern": "^[a-z]+_[0-9]{3}$"}"##, instance: ##""pack_01""##, valid: false),
        Case(schema: ##"{"pattern": "b"}"##, instance: ##""abc""##, valid: true),
        Case(schema: ##"{"pattern": "\\d"}"##, instance: ##""abc""##, valid: false),
        Case(
            schema: ##"{"format": "uri", "description": "d", "title": "t", "examples": [1], "default": 1}"##,
            instance: ##""not a uri""##, valid: true),
        Case(schema: ##"{"discriminator": {"propertyName": "kind"}}"##, instance: "1", valid: true),
        Case(schema: ##"{"uniqueKeys": true}"##, instance: "1", valid: false),
        Case(schema: ##"{"propertyNames": {"pattern": "^[a-z]+$"}}"##, instance: ##"{"ab": 1}"##, valid: true),
        Case(schema: ##"{"propertyNames": {"pattern": "^[a-z]+$"}}"##, instance: ##"{"a1": 1}"##, valid: false),
        Case(
            schema: ##"{"dependentSchemas": {"a": {"required": ["b"]}}}"##, instance: ##"{"a": 1, "b": 2}"##,
            valid: true),
        Case(schema: ##"{"dependentSchemas": {"a": {"required": ["b"]}}}"##, instance: ##"{"c": 1}"##, valid: true),
        Case(schema: ##"{"dependentSchemas": {"a": {"required": ["b"]}}}"##, instance: ##"{"a": 1}"##, valid: false),
        Case(schema: ##"{"dependentRequired": {"a": ["b"]}}"##, instance: ##"{"b": 1}"##, valid: true),
        Case(schema: ##"{"dependentRequired": {"a": ["b"]}}"##, instance: ##"{"a": 1}"##, valid: false),
        Case(
            schema:
                ##"{"if": {"required": ["free"]}, "then": {"required": ["zero"]}, "else": {"required": ["price"]}}"##,
            instance: ##"{"free": true, "zero": 0}"##, valid: true),
        Case(
            schema:
                ##"{"if": {"required": ["free"]}, "then": {"required": ["zero"]}, "else": {"required": ["price"]}}"##,
            instance: ##"{"free": true, "price": 1}"##, valid: false),
        Case(
            schema:
                ##"{"if": {"required": ["free"]}, "then": {"required": ["zero"]}, "else": {"required": ["price"]}}"##,
            instance: ##"{"price": 1}"##, valid: true),
        Case(
            schema:
                ##"{"if": {"required": ["free"]}, "then": {"required": ["zero"]}, "else": {"required": ["price"]}}"##,
            instance: ##"{"zero": 0}"##, valid: false),
        Case(schema: ##"{"then": {"required": ["zero"]}}"##, instance: ##"{"price": 1}"##, valid: true),
        Case(schema: "true", instance: "1", valid: true),
        Case(schema: "false", instance: "1", valid: false),
    ]

    /// Each case is judged as it says.
    @Test(arguments: cases)
    func keyword(_ item: Case) throws {
        let validator = JSONSchemaValidator(root: try JSONParser.parse(Array(Self.root.utf8)))
        let schema = try JSONParser.parse(Array(item.schema.utf8))
        let instance = try JSONParser.parse(Array(item.instance.utf8))
        let problems = validator.problems(instance, against: schema)
        #expect(problems.isEmpty == item.valid, "\(problems)")
    }

    /// A keyword the validator does not know is named in the problem, not passed over.
    @Test func unknownKeywordIsNamed() throws {
        let validator = JSONSchemaValidator(root: try JSONParser.parse(Array(Self.root.utf8)))
        let problems = validator.problems(
            try JSONParser.parse(Array("1".utf8)), against: try JSONParser.parse(Array(##"{"multipleOf": 2}"##.utf8)))
        #expect(problems == ["at the top: the schema has the keyword multipleOf, which this validator does not know"])
    }

    /// A problem says where in the instance it is.
    @Test func problemNamesItsPlace() throws {
        let validator = JSONSchemaValidator(root: try JSONParser.parse(Array(Self.root.utf8)))
        let schema = ##"{"properties": {"a/b": {"items": {"type": "integer"}}}}"##
        let problems = validator.problems(
            try JSONParser.parse(Array(##"{"a/b": [1, "x"]}"##.utf8)), against: try JSONParser.parse(Array(schema.utf8))
        )
        #expect(problems == [##"at /a~1b/1: a string where integer is expected"##])
    }

    /// The walk over a document finds a keyword it does not know, however deep.
    @Test func documentWalkFindsUnknownKeywords() throws {
        let text = """
            {"paths": {"/a": {"get": {"responses": {"200": {"content": {"application/json":
              {"schema": {"properties": {"x": {"items": {"multipleOf": 2}}}}}}}}}}},
             "components": {"schemas": {"A": {"oneOf": [{"type": "string"}, {"minContains": 1}]}}}}
            """
        let validator = JSONSchemaValidator(root: try JSONParser.parse(Array(text.utf8)))
        #expect(validator.unknownKeywords().count == 2, "\(validator.unknownKeywords())")
    }

    /// Numbers compare by their decimal value.
    @Test func exactNumbers() throws {
        let n = { (text: String) throws -> ExactNumber in try #require(ExactNumber(text)) }
        #expect(try n("499.0") == n("499"))
        #expect(try n("4.99e2") == n("499"))
        #expect(try n("-0") == n("0"))
        #expect(try n("0.1") < n("0.10000000000000001"))
        #expect(try n("-2") < n("-1.5"))
        #expect(try n("1e-5") < n("0.0001"))
        #expect(try n("499.0").isWhole)
        #expect(try !n("499.5").isWhole)
        #expect(ExactNumber("1.") == nil || ExactNumber("1.")?.isWhole == true)
        #expect(ExactNumber("abc") == nil)
    }
}
