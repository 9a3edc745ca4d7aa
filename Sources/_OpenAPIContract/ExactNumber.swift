/// A JSON number held as its decimal digits, so that two numbers compare exactly: `499.0`
/// equals `499`, and `0.1` is below `0.10000000000000001`, as no `Double` can tell.
struct ExactNumber: Comparable, Sendable {
    /// Whether the number is below zero (never for zero).
    let negative: Bool
    /// The significant digits, without leading or trailing zeros; empty for zero.
    let digits: [UInt8]
    /// Where the decimal point stands: the number is `0.digits` times ten to this.
    let exponent: Int

    /// The number JSON's grammar spells as `text`, or nil when `text` is not one.
    init?(_ text: String) {
        var bytes = Array(text.utf8)[...]
        var negative = false
        if bytes.first == UInt8(ascii: "-") {
            negative = true
            bytes = bytes.dropFirst()
        } else if bytes.first == UInt8(ascii: "+") {
            bytes = bytes.dropFirst()
        }
        var whole: [UInt8] = []
        var fraction: [UInt8] = []
        var exponentValue = 0
        var index = bytes.startIndex
        while index < bytes.endIndex, (48...57).contains(bytes[index]) {
            whole.append(bytes[index] - 48)
            index += 1
        }
        if index < bytes.endIndex, bytes[index] == UInt8(ascii: ".") {
            index += 1
            while index < bytes.endIndex, (48...57).contains(bytes[index]) {
                fraction.append(bytes[index] - 48)
                index += 1
            }
        }
        guard !whole.isEmpty || !fraction.isEmpty else { return nil }
        if index < bytes.endIndex, bytes[index] | 0x20 == UInt8(ascii: "e") {
            index += 1
            var exponentNegative = false
            if index < bytes.endIndex, bytes[index] == UInt8(ascii: "-") || bytes[index] == UInt8(ascii: "+") {
                exponentNegative = bytes[index] == UInt8(ascii: "-")
                index += 1
            }
            var any = false
            while index < bytes.endIndex, (48...57).contains(bytes[index]) {
                // Past a million the number is far beyond any bound a document states.
                if exponentValue < 1_000_000 { exponentValue = exponentValue * 10 + Int(bytes[index] - 48) }
                any = true
                index += 1
            }
            guard any else { return nil }
            if exponentNegative { exponentValue = -exponentValue }
        }
        guard index == bytes.endIndex else { return nil }
        var all = whole + fraction
        var pointAt = whole.count + exponentValue
        while let first = all.first, first == 0 {
            all.removeFirst()
            pointAt -= 1
        }
        while let last = all.last, last == 0 { all.removeLast() }
        self.negative = negative && !all.isEmpty
        self.digits = all
        self.exponent = all.isEmpty ? 0 : pointAt
    }

    /// Whether the number has no fraction: `499.0` and `4.99e2` do, `4.5` does not.
    var isWhole: Bool { digits.count <= exponent || digits.isEmpty }

    /// The number as a `Double`, for what no exact comparison needs.
    var double: Double {
        var value = 0.0
        for digit in digits { value = value * 10 + Double(digit) }
        var power = exponent - digits.count
        while power > 0 {
            value *= 10
            power -= 1
        }
        while power < 0 {
            value /= 10
            power += 1
        }
        return negative ? -value : value
    }

    static func < (left: ExactNumber, right: ExactNumber) -> Bool {
        if left.negative != right.negative { return left.negative }
        let magnitudeBelow = below(left, right)
        return left.negative ? below(right, left) : magnitudeBelow
    }

    /// Whether the magnitude of `left` is below that of `right`.
    private static func below(_ left: ExactNumber, _ right: ExactNumber) -> Bool {
        if left.digits.isEmpty { return !right.digits.isEmpty }
        if right.digits.isEmpty { return false }
        if left.exponent != right.exponent { return left.exponent < right.exponent }
        for (a, b) in zip(left.digits, right.digits) where a != b { return a < b }
        return left.digits.count < right.digits.count
    }
}
