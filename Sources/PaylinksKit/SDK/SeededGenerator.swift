/// A small, fast, seedable random number generator (SplitMix64).
///
/// paylinks maps its output to identifiers with its own arithmetic rather than the
/// standard library's `random(in:)`, so the same seed gives the same bytes on every
/// machine and toolchain.
public struct SeededGenerator: RandomNumberGenerator, Sendable {
    private var state: UInt64

    /// A generator that starts from `seed`.
    public init(seed: UInt64) {
        state = seed
    }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// `count` characters drawn from `alphabet`.
    mutating func characters(_ count: Int, from alphabet: [Character]) -> String {
        var text = ""
        text.reserveCapacity(count)
        for _ in 0..<count {
            text.append(alphabet[Int(next() % UInt64(alphabet.count))])
        }
        return text
    }
}

/// The identifiers a checkout produces, shaped like the real ones.
enum Identifiers {
    private static let alphanumeric = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")
    private static let lowercaseAlphanumeric = Array("abcdefghijklmnopqrstuvwxyz0123456789")
    private static let digits = Array("0123456789")

    /// A checkout session token: 32 mixed-case letters and digits.
    static func sessionToken(using random: inout SeededGenerator) -> String {
        random.characters(32, from: alphanumeric)
    }

    /// A purchase id: `pr_` and 24 lowercase letters and digits.
    static func purchaseId(using random: inout SeededGenerator) -> String {
        "pr_" + random.characters(24, from: lowercaseAlphanumeric)
    }

    /// An order id: ten digits, not starting with 0.
    static func orderId(using random: inout SeededGenerator) -> String {
        random.characters(1, from: Array(digits.dropFirst())) + random.characters(9, from: digits)
    }
}
