extension Array where Element == UInt8 {
    /// Appends `value` in decimal digits, with its sign, making no string of it: `-42`.
    package mutating func appendDecimal(_ value: Int) {
        if value < 0 { append(UInt8(ascii: "-")) }
        appendDecimal(UInt64(value.magnitude))
    }

    /// Appends `value` in decimal digits: `18446744073709551615`.
    package mutating func appendDecimal(_ value: UInt64) {
        // The digits written from the end of a buffer on the stack, then appended at once.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            let start = digits.writeDecimal(value, endingAt: digits.count)
            append(contentsOf: UnsafeBufferPointer(rebasing: digits[start...]))
        }
    }
}

extension UnsafeMutableBufferPointer where Element == UInt8 {
    /// Writes `value`'s decimal digits so that the last is just before `end`; where the
    /// first is. The buffer holds them: 20 bytes before `end` hold any `UInt64`.
    package func writeDecimal(_ value: UInt64, endingAt end: Int) -> Int {
        var start = end
        var rest = value
        repeat {
            start -= 1
            self[start] = UInt8(ascii: "0") + UInt8(rest % 10)
            rest /= 10
        } while rest > 0
        return start
    }
}
