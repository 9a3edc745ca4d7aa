import Testing

@testable import PaylinksJSON

/// `JSONValue.wholeNumber`: the whole number a JSON number stands for, however it is spelled.
@Suite("JSON whole numbers")
struct JSONWholeNumberTests {
    private func whole(_ text: String) -> Int? {
        JSONValue(.number(text), at: 0).wholeNumber
    }

    @Test(
        "every spelling of a whole value is that value",
        arguments: [
            ("499", 499), ("499.0", 499), ("499.00", 499), ("4.99e2", 499), ("4.99E+2", 499), ("4990e-1", 499),
            ("0.499e3", 499), ("49900000e-5", 499), ("0", 0), ("-0", 0), ("-0.0", 0), ("0e999999999", 0),
            ("0.000e-999999999", 0), ("-12", -12), ("-1.2e1", -12), ("100", 100), ("1e2", 100),
            ("1e18", 1_000_000_000_000_000_000),
            ("9223372036854775807", Int.max), ("9223372036854775807.000", Int.max), ("-9223372036854775808", Int.min),
            ("-9.223372036854775808e18", Int.min), ("92233720368547758070e-1", Int.max), ("000499", 499),
            ("999999999999999999", 999_999_999_999_999_999), ("-999999999999999999", -999_999_999_999_999_999),
            ("1000000000000000000", 1_000_000_000_000_000_000), ("7", 7), ("-7", -7),
        ])
    func whole(text: String, value: Int) {
        #expect(whole(text) == value, "\(text)")
    }

    @Test(
        "a fraction that is not zero, a value beyond Int and what is no number are nil",
        arguments: [
            "499.5", "4.995e2", "4990e-2", "0.1", "-0.5", "1e-1", "9223372036854775808", "-9223372036854775809",
            "1e19", "92233720368547758080e-1", "1e999999999", "1e-999999999", "1e99999999999999999999999999",
            "1e-99999999999999999999999999", "", "-", ".", "1.", ".5", "-.5", "e2", "1e", "1e+", "1.2.3", "1x", "--1",
            "1-", "12a", "+1",
        ])
    func notWhole(text: String) {
        #expect(whole(text) == nil, "\(text)")
    }

    @Test(
        "a whole number beyond Int is above or below it, and a fraction however small is not whole",
        arguments: [
            ("9223372036854775808", WholeNumberReading.aboveInt), ("1e19", .aboveInt), ("1e999999999", .aboveInt),
            ("1e99999999999999999999999999", .aboveInt), ("-9223372036854775809", .belowInt),
            ("-1e999999999", .belowInt), ("1e-999999", .notWhole), ("1e-99999999999999999999999999", .notWhole),
            ("499.5", .notWhole), ("4990e-1", .whole(499)), ("0e999999999", .whole(0)),
        ])
    func reading(text: String, reading: WholeNumberReading) {
        #expect(JSONValue(.number(text), at: 0).wholeNumberReading == reading, "\(text)")
    }

    @Test("only numbers have a whole number")
    func otherKinds() {
        #expect(JSONValue(.string("499"), at: 0).wholeNumber == nil)
        #expect(JSONValue(.bool(true), at: 0).wholeNumber == nil)
        #expect(JSONValue(.null, at: 0).wholeNumber == nil)
    }

    @Test("a long mantissa with a huge exponent is figured in the time of its text")
    func longText() {
        let zeros = String(repeating: "0", count: 100_000)
        #expect(whole("499." + zeros) == 499)
        #expect(whole("0." + zeros + "1e100000") == nil)
        #expect(whole("0." + zeros + "1e100001") == 1)
        #expect(whole("1" + zeros + "e-100000") == 1)
        #expect(whole("1" + zeros + "e999999999999") == nil)
    }
}
