import PaylinksJSON

/// A decimal number held exactly, as its digits and a power of ten: 8.875 is 8875 × 10⁻³.
/// Rates and tax rates are figured with it in whole numbers, never in binary floating
/// point, so that what a fixture says is what an order is charged.
public struct ExactDecimal: Hashable, Sendable, CustomStringConvertible {
    /// The digits as a whole number: 8875 for 8.875.
    public var significand: Int
    /// How many of the digits are after the point: 3 for 8.875.
    public var scale: Int

    /// The most digits after the point a decimal keeps.
    public static let maximumScale = 6
    /// The largest whole part a decimal takes, so that an amount times a decimal stays
    /// far inside `Int`.
    public static let maximumWhole = 1_000_000

    /// `significand` × 10^-`scale`, with the zeros that end the fraction taken off, so
    /// that equal numbers are equal values: 1.50 is 15 × 10⁻¹.
    public init(significand: Int, scale: Int) {
        var significand = significand
        var scale = scale
        while scale > 0, significand % 10 == 0 {
            significand /= 10
            scale -= 1
        }
        self.significand = significand
        self.scale = scale
    }

    /// A decimal written plainly, "0.95", "19" or "150.5": digits with at most one point,
    /// no sign and no exponent, at most six digits after the point and a whole part of at
    /// most 1,000,000; nil otherwise.
    public init?(_ text: String) {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count <= 2, let whole = parts.first, !whole.isEmpty else { return nil }
        let fraction = parts.count == 2 ? parts[1] : ""
        guard parts.count == 1 || !fraction.isEmpty, fraction.count <= Self.maximumScale,
            whole.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
            fraction.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
            whole.count <= 7, let wholeValue = Int(whole), wholeValue <= Self.maximumWhole,
            let digits = Int(whole + fraction)
        else { return nil }
        self.init(significand: digits, scale: fraction.count)
    }

    /// The number a JSON text spells, exactly, however it is spelled: `30`, `30.0`, `3e1`
    /// and `300e-1` are all 30. The same bounds as ``init(_:)``: not below zero, at most
    /// six digits after the point once the zeros that end it are dropped, and a whole part
    /// of at most 1,000,000; nil otherwise, and for a text that is not a JSON number.
    package static func reading(jsonNumber text: String) -> ExactDecimal? {
        guard let number = JSONNumberDigits(text) else { return nil }
        guard !number.isZero else { return ExactDecimal(significand: 0, scale: 0) }
        // Seven digits before the point at most, six after: the significand stays within 13 digits.
        guard !number.negative, number.exponent >= -maximumScale, number.count + number.exponent <= 7 else {
            return nil
        }
        var significand = 0
        number.forEachDigit { significand = significand * 10 + Int($0) }
        for _ in 0..<max(0, number.exponent) { significand *= 10 }
        let decimal = ExactDecimal(significand: significand, scale: max(0, -number.exponent))
        return decimal.significand / decimal.denominator <= maximumWhole ? decimal : nil
    }

    /// 10^`scale`: what the significand is divided by.
    public var denominator: Int {
        var result = 1
        for _ in 0..<scale { result *= 10 }
        return result
    }

    /// Whether the number is zero.
    public var isZero: Bool { significand == 0 }

    /// The number as a fixture writes it: "8.875", "19", "0.95".
    public var description: String {
        guard scale > 0 else { return String(significand) }
        let digits = String(significand)
        let padded = String(repeating: "0", count: max(0, scale + 1 - digits.count)) + digits
        let point = padded.index(padded.endIndex, offsetBy: -scale)
        // Appended piece by piece rather than joined with `+`, whose generic form looks up
        // the pieces' types by name the first time it runs, which an award's money would
        // pay at every start.
        var text = String(padded[..<point])
        text.append(".")
        text.append(contentsOf: padded[point...])
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text
    }
}
