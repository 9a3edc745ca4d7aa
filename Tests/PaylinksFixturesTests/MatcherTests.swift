import Testing

@testable import PaylinksFixtures
@testable import PaylinksJSON
@testable import PaylinksKit

/// How a scenario's expected values are compared with what a callback carried: an
/// expected object names only the keys it cares about, every one of which must be there.
@Suite("Expectation matching")
struct MatcherTests {
    static func differences(_ expected: String, _ actual: String) throws -> [String] {
        JSONValueMatcher.differences(
            expected: try JSONParser.parse(Array(expected.utf8)), actual: try JSONParser.parse(Array(actual.utf8)),
            path: "order")
    }

    @Test("an expected key the callback lacks is a mismatch, never a match")
    func missingKey() throws {
        #expect(
            try Self.differences(#"{"paymentMethod": "Mastercard"}"#, #"{"paymentMethodName": "Mastercard"}"#)
                == [#"order.paymentMethod: expected "Mastercard", got nothing"#])
        #expect(try Self.differences(#"{"a": {"b": 1}}"#, #"{"a": {}}"#) == ["order.a.b: expected 1, got nothing"])
        #expect(try Self.differences(#"{"a": null}"#, #"{}"#) == ["order.a: expected null, got nothing"])
    }

    @Test("keys the expectation leaves out are not checked")
    func extraKeys() throws {
        #expect(try Self.differences(#"{"price": 499}"#, #"{"price": 499, "currency": "USD", "items": []}"#).isEmpty)
        #expect(try Self.differences("{}", #"{"anything": [1, 2]}"#).isEmpty)
    }

    @Test("a value of another type is a mismatch, whatever it prints as")
    func types() throws {
        #expect(
            try Self.differences(#"{"quantity": "100"}"#, #"{"quantity": 100}"#) == [
                #"order.quantity: expected "100", got 100"#
            ])
        #expect(
            try Self.differences(#"{"spacing": false}"#, #"{"spacing": "false"}"#) == [
                #"order.spacing: expected false, got "false""#
            ])
        #expect(try Self.differences(#"{"a": null}"#, #"{"a": 0}"#) == ["order.a: expected null, got 0"])
        #expect(try Self.differences(#"{"a": {}}"#, #"{"a": []}"#) == ["order.a: expected {}, got []"])
        #expect(try Self.differences(#"{"price": 499.0}"#, #"{"price": 499}"#).isEmpty, "numbers compare as numbers")
    }

    @Test("arrays match element by element, nested ones too, and only at the same length")
    func arrays() throws {
        let actual = #"{"items": [{"sku": "gem_01", "tags": [1, 2]}, {"sku": "coin_01", "tags": []}]}"#
        #expect(try Self.differences(#"{"items": [{"sku": "gem_01"}, {"sku": "coin_01"}]}"#, actual).isEmpty)
        #expect(
            try Self.differences(#"{"items": [{"sku": "gem_01", "tags": [1, 3]}, {}]}"#, actual)
                == ["order.items[0].tags[1]: expected 3, got 2"])
        #expect(
            try Self.differences(#"{"items": [{"sku": "gem_01"}]}"#, actual)
                == [
                    #"order.items: expected [{"sku":"gem_01"}], got [{"sku":"gem_01","tags":[1,2]},{"sku":"coin_01","tags":[]}]"#
                ])
    }
}
