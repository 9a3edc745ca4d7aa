/// A small, fast, seedable random number generator (SplitMix64).
///
/// paylinks maps its output to identifiers with its own arithmetic rather than the
/// standard library's `random(in:)`, so the same seed gives the same bytes on every
/// machine and toolchain.
package struct SeededGenerator: RandomNumberGenerator, Sendable {
    private var state: UInt64

    /// A generator that starts from `seed`.
    package init(seed: UInt64) {
        state = seed
    }

    /// The next 64 random bits.
    package mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// The identifiers of one checkout, shaped like the real ones and fixed by the run's
/// seed and the checkout's index in the run.
///
/// The session token and purchase id are random; the order id is a permutation of the
/// index, so order ids never repeat within a run (up to nine billion checkouts). Both
/// the simulator and the bulk writer produce identifiers through the same function,
/// so a bulk run's lines equal single runs' byte for byte.
package struct CheckoutIdentifiers: Equatable, Sendable {
    /// 32 mixed-case letters and digits.
    package var sessionToken: String
    /// `pr_` and 24 lowercase letters and digits.
    package var purchaseId: String
    /// Ten digits, not starting with 0.
    package var orderId: String

    static let sessionTokenLength = 32
    static let purchaseIdLength = 27
    static let orderIdLength = 10

    /// The `index`th of A–Z, a–z, 0–9 (62 in all), worked out rather than looked up in a
    /// table that each start would first have to make.
    private static func alphanumeric(_ index: UInt8) -> UInt8 {
        if index < 26 { return UInt8(ascii: "A") + index }
        return lowercaseAlphanumeric(index - 26)
    }

    /// The `index`th of a–z, 0–9 (36 in all).
    private static func lowercaseAlphanumeric(_ index: UInt8) -> UInt8 {
        index < 26 ? UInt8(ascii: "a") + index : UInt8(ascii: "0") + (index - 26)
    }
    private static let orderIdSpace: UInt64 = 9_000_000_000

    /// The identifiers of checkout `index` in a run seeded with `seed`.
    package init(seed: UInt64, index: Int) {
        var (sessionToken, purchaseId, orderId) = ("", "", "")
        Self.withBytes(seed: seed, index: index) { token, purchase, order in
            sessionToken = String(decoding: token, as: UTF8.self)
            purchaseId = String(decoding: purchase, as: UTF8.self)
            orderId = String(decoding: order, as: UTF8.self)
        }
        (self.sessionToken, self.purchaseId, self.orderId) = (sessionToken, purchaseId, orderId)
    }

    /// Calls `body` with the identifiers of checkout `index` in a run seeded with `seed`,
    /// as ASCII bytes: the session token, the purchase id and the order id, written
    /// without making a string, as a bulk run fills them in line after line.
    package static func withBytes(
        seed: UInt64, index: Int,
        _ body: (
            _ sessionToken: UnsafeBufferPointer<UInt8>, _ purchaseId: UnsafeBufferPointer<UInt8>,
            _ orderId: UnsafeBufferPointer<UInt8>
        ) -> Void
    ) {
        let (tokenEnd, purchaseEnd) = (sessionTokenLength, sessionTokenLength + purchaseIdLength)
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: purchaseEnd + orderIdLength) { scratch in
            let token = UnsafeMutableBufferPointer(rebasing: scratch[0..<tokenEnd])
            let purchase = UnsafeMutableBufferPointer(rebasing: scratch[tokenEnd..<purchaseEnd])
            let order = UnsafeMutableBufferPointer(rebasing: scratch[purchaseEnd...])
            write(seed: seed, index: index, sessionToken: token, purchaseId: purchase, orderId: order)
            body(UnsafeBufferPointer(token), UnsafeBufferPointer(purchase), UnsafeBufferPointer(order))
        }
    }

    /// Writes the identifiers of checkout `index` as ASCII into buffers of exactly
    /// ``sessionTokenLength``, ``purchaseIdLength`` and ``orderIdLength`` bytes.
    static func write(
        seed: UInt64, index: Int, sessionToken: UnsafeMutableBufferPointer<UInt8>,
        purchaseId: UnsafeMutableBufferPointer<UInt8>, orderId: UnsafeMutableBufferPointer<UInt8>
    ) {
        var random = SeededGenerator(seed: seed &+ UInt64(truncatingIfNeeded: index) &* 0xD1B5_4A32_D192_ED03)
        for position in 0..<sessionTokenLength {
            sessionToken[position] = alphanumeric(UInt8(random.next() % 62))
        }
        purchaseId[0] = UInt8(ascii: "p")
        purchaseId[1] = UInt8(ascii: "r")
        purchaseId[2] = UInt8(ascii: "_")
        for position in 3..<purchaseIdLength {
            purchaseId[position] = lowercaseAlphanumeric(UInt8(random.next() % 36))
        }
        // An affine map with a multiplier coprime to the space is a bijection: distinct
        // indexes get distinct order ids.
        var keys = SeededGenerator(seed: seed)
        let offset = keys.next() % orderIdSpace
        var multiplier = keys.next() % orderIdSpace | 1
        while multiplier % 3 == 0 || multiplier % 5 == 0 { multiplier += 2 }
        let position = UInt64(truncatingIfNeeded: index) % orderIdSpace
        let product = position.multipliedFullWidth(by: multiplier)
        let (_, scrambled) = orderIdSpace.dividingFullWidth((product.high % orderIdSpace, product.low))
        var value = 1_000_000_000 + (scrambled + offset) % orderIdSpace
        for position in stride(from: orderIdLength - 1, through: 0, by: -1) {
            orderId[position] = UInt8(ascii: "0") + UInt8(value % 10)
            value /= 10
        }
    }
}
