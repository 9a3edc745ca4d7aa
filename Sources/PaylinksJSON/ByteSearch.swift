/// A small set of bytes looked for in text eight bytes at a time: every byte below a bound,
/// and four more. What escapes a text (JSON's strings, a one-line message) is such a set,
/// and most text holds none of it, so that a long text costs few steps, even unoptimized.
package struct ByteSearch: Sendable {
    private static let ones: UInt64 = 0x0101_0101_0101_0101
    private static let highs: UInt64 = 0x8080_8080_8080_8080

    private let bound: UInt8
    private let values: (UInt8, UInt8, UInt8, UInt8)
    /// `bound` and each value in every byte of a word.
    private let boundWord: UInt64
    private let valueWords: (UInt64, UInt64, UInt64, UInt64)

    /// The bytes below `bound` (at most 0x80), and `a`, `b`, `c` and `d`.
    package init(below bound: UInt8, _ a: UInt8, _ b: UInt8, _ c: UInt8, _ d: UInt8) {
        precondition(bound <= 0x80, "a bound above 0x80 is not found a word at a time")
        self.bound = bound
        values = (a, b, c, d)
        boundWord = Self.ones &* UInt64(bound)
        valueWords = (Self.ones &* UInt64(a), Self.ones &* UInt64(b), Self.ones &* UInt64(c), Self.ones &* UInt64(d))
    }

    /// Whether `byte` is one of the set.
    package func contains(_ byte: UInt8) -> Bool {
        byte < bound || byte == values.0 || byte == values.1 || byte == values.2 || byte == values.3
    }

    /// Whether any of the eight bytes of `word` is one of the set. Each test finds whether
    /// some byte is below a bound, or is zero once the value looked for is taken away: a
    /// borrow can mark a byte falsely only above one marked truly, so that the answer for
    /// the word is exact.
    private func containsAny(of word: UInt64) -> Bool {
        func hasZero(_ value: UInt64) -> Bool { (value &- Self.ones) & ~value & Self.highs != 0 }
        return (word &- boundWord) & ~word & Self.highs != 0 || hasZero(word ^ valueWords.0)
            || hasZero(word ^ valueWords.1) || hasZero(word ^ valueWords.2) || hasZero(word ^ valueWords.3)
    }

    /// The index of the first byte of `bytes` from `start` on that is one of the set, or
    /// `bytes.count` when none is.
    package func firstIndex(in bytes: UnsafeBufferPointer<UInt8>, from start: Int = 0) -> Int {
        var index = start
        if let base = bytes.baseAddress {
            let raw = UnsafeRawPointer(base)
            while bytes.count - index >= 8, !containsAny(of: raw.loadUnaligned(fromByteOffset: index, as: UInt64.self))
            {
                index += 8
            }
        }
        while index < bytes.count && !contains(bytes[index]) { index += 1 }
        return index
    }
}
