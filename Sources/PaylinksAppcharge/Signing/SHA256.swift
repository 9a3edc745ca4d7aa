#if PAYLINKS_SHA_INSTRUCTIONS
    import _Builtin_intrinsics.intel
    import _Builtin_intrinsics.intel.cpuid
#endif

/// SHA-256 (FIPS 180-4), for signing award callbacks without a package.
///
/// Blocks are compressed with the processor's SHA instructions where it has them (x86-64
/// processors since about 2017, checked at run time), else in portable code; both give
/// the same digests. Proven by the FIPS 180-4 examples, each way, and cross-checked
/// against an independent implementation in the tests.
public struct SHA256: Sendable {
    /// How blocks are compressed.
    enum Engine: Sendable, CaseIterable {
        /// Portable Swift: sixty-four rounds of shifts and additions.
        case portable
        /// The x86 SHA extensions: two rounds an instruction.
        case instructions

        /// The engines this processor can run, the portable one first.
        static let available: [Engine] = hasSHAInstructions ? [.portable, .instructions] : [.portable]

        /// The fastest this processor can run.
        static let fastest: Engine = available.last ?? .portable

        /// Whether the processor has the SHA extensions (CPUID leaf 7, EBX bit 29), and
        /// this build can use them.
        private static var hasSHAInstructions: Bool {
            #if PAYLINKS_SHA_INSTRUCTIONS
                var (eax, ebx, ecx, edx): (UInt32, UInt32, UInt32, UInt32) = (0, 0, 0, 0)
                guard __get_cpuid_count(7, 0, &eax, &ebx, &ecx, &edx) != 0 else { return false }
                return ebx & (1 << 29) != 0
            #else
                return false
            #endif
        }
    }

    /// The length of a digest, in bytes.
    public static let digestLength = 32
    /// The length of a block, in bytes: what HMAC pads its key to.
    public static let blockLength = 64

    private static let roundConstants: [UInt32] = [
        0x428a_2f98, 0x7137_4491, 0xb5c0_fbcf, 0xe9b5_dba5, 0x3956_c25b, 0x59f1_11f1, 0x923f_82a4, 0xab1c_5ed5,
        0xd807_aa98, 0x1283_5b01, 0x2431_85be, 0x550c_7dc3, 0x72be_5d74, 0x80de_b1fe, 0x9bdc_06a7, 0xc19b_f174,
        0xe49b_69c1, 0xefbe_4786, 0x0fc1_9dc6, 0x240c_a1cc, 0x2de9_2c6f, 0x4a74_84aa, 0x5cb0_a9dc, 0x76f9_88da,
        0x983e_5152, 0xa831_c66d, 0xb003_27c8, 0xbf59_7fc7, 0xc6e0_0bf3, 0xd5a7_9147, 0x06ca_6351, 0x1429_2967,
        0x27b7_0a85, 0x2e1b_2138, 0x4d2c_6dfc, 0x5338_0d13, 0x650a_7354, 0x766a_0abb, 0x81c2_c92e, 0x9272_2c85,
        0xa2bf_e8a1, 0xa81a_664b, 0xc24b_8b70, 0xc76c_51a3, 0xd192_e819, 0xd699_0624, 0xf40e_3585, 0x106a_a070,
        0x19a4_c116, 0x1e37_6c08, 0x2748_774c, 0x34b0_bcb5, 0x391c_0cb3, 0x4ed8_aa4a, 0x5b9c_ca4f, 0x682e_6ff3,
        0x748f_82ee, 0x78a5_636f, 0x84c8_7814, 0x8cc7_0208, 0x90be_fffa, 0xa450_6ceb, 0xbef9_a3f7, 0xc671_78f2,
    ]

    private var state: (UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32) = (
        0x6a09_e667, 0xbb67_ae85, 0x3c6e_f372, 0xa54f_f53a, 0x510e_527f, 0x9b05_688c, 0x1f83_d9ab, 0x5be0_cd19
    )
    /// Bytes of a block not yet full: the first `buffered` of these 64, kept inline so
    /// that hashing allocates nothing.
    private var block: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0, 0, 0)
    private var buffered = 0
    private var length: UInt64 = 0
    private let engine: Engine

    /// An empty hash.
    public init() {
        engine = .fastest
    }

    /// An empty hash whose blocks `engine` compresses, which must be one of
    /// ``Engine/available``.
    init(engine: Engine) {
        precondition(Engine.available.contains(engine), "this processor cannot run \(engine)")
        self.engine = engine
    }

    /// The digest of `bytes`.
    public static func hash(_ bytes: some Sequence<UInt8>) -> [UInt8] {
        var hasher = SHA256()
        hasher.update(bytes)
        return hasher.finalize()
    }

    /// Adds bytes to the message.
    public mutating func update(_ bytes: some Sequence<UInt8>) {
        let contiguous: Void? = bytes.withContiguousStorageIfAvailable { buffer in
            update(UnsafeRawBufferPointer(buffer))
        }
        if contiguous == nil {
            let copy = Array(bytes)
            copy.withUnsafeBytes { update($0) }
        }
    }

    private mutating func update(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress else { return }
        length &+= UInt64(bytes.count)
        var offset = 0
        if buffered > 0 {
            let take = min(Self.blockLength - buffered, bytes.count)
            let start = buffered
            withUnsafeMutableBytes(of: &block) {
                $0.baseAddress!.advanced(by: start).copyMemory(from: base, byteCount: take)
            }
            buffered += take
            offset = take
            guard buffered == Self.blockLength else { return }
            let full = block
            withUnsafeBytes(of: full) { compress($0.baseAddress!, count: 1) }
            buffered = 0
        }
        let blocks = (bytes.count - offset) / Self.blockLength
        if blocks > 0 {
            compress(base + offset, count: blocks)
            offset += blocks * Self.blockLength
        }
        let rest = bytes.count - offset
        if rest > 0 {
            withUnsafeMutableBytes(of: &block) { $0.baseAddress!.copyMemory(from: base + offset, byteCount: rest) }
            buffered = rest
        }
    }

    /// The digest of everything added.
    public consuming func finalize() -> [UInt8] {
        let bitLength = length &* 8
        // The last block or two: what is buffered, 0x80, zeros, and the length in bits.
        let padded = buffered < 56 ? Self.blockLength : 2 * Self.blockLength
        let pending = block
        let count = buffered
        withUnsafeTemporaryAllocation(byteCount: 2 * Self.blockLength, alignment: 8) { tail in
            tail.initializeMemory(as: UInt8.self, repeating: 0)
            withUnsafeBytes(of: pending) { tail.baseAddress!.copyMemory(from: $0.baseAddress!, byteCount: count) }
            tail[count] = 0x80
            for index in 0..<8 {
                tail[padded - 1 - index] = UInt8(truncatingIfNeeded: bitLength >> (8 * UInt64(index)))
            }
            compress(UnsafeRawPointer(tail.baseAddress!), count: padded / Self.blockLength)
        }
        // The eight words of the state, each written most significant byte first.
        let words = state
        return [UInt8](unsafeUninitializedCapacity: Self.digestLength) { digest, count in
            withUnsafeBytes(of: words) { raw in
                for index in 0..<8 {
                    let word = raw.load(fromByteOffset: 4 * index, as: UInt32.self)
                    digest[4 * index] = UInt8(word >> 24)
                    digest[4 * index + 1] = UInt8(truncatingIfNeeded: word >> 16)
                    digest[4 * index + 2] = UInt8(truncatingIfNeeded: word >> 8)
                    digest[4 * index + 3] = UInt8(truncatingIfNeeded: word)
                }
            }
            count = Self.digestLength
        }
    }

    /// Mixes `count` 64-byte blocks, from `blocks` on, into the state.
    private mutating func compress(_ blocks: UnsafeRawPointer, count: Int) {
        switch engine {
        case .portable:
            for index in 0..<count { compressPortably(blocks + index * Self.blockLength) }
        case .instructions:
            #if PAYLINKS_SHA_INSTRUCTIONS
                Self.compressWithInstructions(&state, blocks, count: count)
            #endif
        }
    }

    /// Mixes one 64-byte block at `block` into the state. The message schedule lives in a
    /// window of sixteen words, each computed just before its round needs it.
    private mutating func compressPortably(_ block: UnsafeRawPointer) {
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 16) { window in
            let w = window.baseAddress!
            for index in 0..<16 {
                w[index] = UInt32(bigEndian: block.loadUnaligned(fromByteOffset: index * 4, as: UInt32.self))
            }
            var (a, b, c, d, e, f, g, h) = state
            Self.roundConstants.withUnsafeBufferPointer { constants in
                let k = constants.baseAddress!
                /// Round `index`'s constant plus its word, the word computed in place.
                @inline(__always) func scheduled(_ index: Int) -> UInt32 {
                    guard index >= 16 else { return k[index] &+ w[index] }
                    let early = w[(index - 15) & 15]
                    let late = w[(index - 2) & 15]
                    let s0 = Self.rotate(early, 7) ^ Self.rotate(early, 18) ^ (early >> 3)
                    let s1 = Self.rotate(late, 17) ^ Self.rotate(late, 19) ^ (late >> 10)
                    let word = w[index & 15] &+ s0 &+ w[(index - 7) & 15] &+ s1
                    w[index & 15] = word
                    return k[index] &+ word
                }
                // Sixteen rounds at a time, the working variables renamed rather than moved.
                for index in stride(from: 0, to: 64, by: 16) {
                    Self.round(a, b, c, &d, e, f, g, &h, scheduled(index + 0))
                    Self.round(h, a, b, &c, d, e, f, &g, scheduled(index + 1))
                    Self.round(g, h, a, &b, c, d, e, &f, scheduled(index + 2))
                    Self.round(f, g, h, &a, b, c, d, &e, scheduled(index + 3))
                    Self.round(e, f, g, &h, a, b, c, &d, scheduled(index + 4))
                    Self.round(d, e, f, &g, h, a, b, &c, scheduled(index + 5))
                    Self.round(c, d, e, &f, g, h, a, &b, scheduled(index + 6))
                    Self.round(b, c, d, &e, f, g, h, &a, scheduled(index + 7))
                    Self.round(a, b, c, &d, e, f, g, &h, scheduled(index + 8))
                    Self.round(h, a, b, &c, d, e, f, &g, scheduled(index + 9))
                    Self.round(g, h, a, &b, c, d, e, &f, scheduled(index + 10))
                    Self.round(f, g, h, &a, b, c, d, &e, scheduled(index + 11))
                    Self.round(e, f, g, &h, a, b, c, &d, scheduled(index + 12))
                    Self.round(d, e, f, &g, h, a, b, &c, scheduled(index + 13))
                    Self.round(c, d, e, &f, g, h, a, &b, scheduled(index + 14))
                    Self.round(b, c, d, &e, f, g, h, &a, scheduled(index + 15))
                }
            }
            state = (
                state.0 &+ a, state.1 &+ b, state.2 &+ c, state.3 &+ d, state.4 &+ e, state.5 &+ f, state.6 &+ g,
                state.7 &+ h
            )
        }
    }

    /// One round: `d` and `h` take their new values; the caller renames the rest.
    @inline(__always)
    private static func round(
        _ a: UInt32, _ b: UInt32, _ c: UInt32, _ d: inout UInt32, _ e: UInt32, _ f: UInt32, _ g: UInt32,
        _ h: inout UInt32, _ constantAndWord: UInt32
    ) {
        let sum1 = rotate(e, 6) ^ rotate(e, 11) ^ rotate(e, 25)
        let choice = g ^ (e & (f ^ g))
        let temp1 = h &+ sum1 &+ choice &+ constantAndWord
        let sum0 = rotate(a, 2) ^ rotate(a, 13) ^ rotate(a, 22)
        let majority = (a & b) ^ (c & (a ^ b))
        d = d &+ temp1
        h = temp1 &+ sum0 &+ majority
    }

    @inline(__always)
    private static func rotate(_ value: UInt32, _ count: UInt32) -> UInt32 {
        (value &>> count) | (value &<< (32 - count))
    }

    #if PAYLINKS_SHA_INSTRUCTIONS
        /// Four 32-bit words in a vector register.
        private typealias Words = SIMD4<UInt32>

        /// Mixes `count` 64-byte blocks, from `blocks` on, into `state` with the SHA
        /// extensions (Intel's "SHA Extensions" paper, 2013): `sha256rnds2` runs two rounds
        /// on a state held as two registers, {A, B, E, F} and {C, D, G, H}, and
        /// `sha256msg1`/`sha256msg2` extend the schedule four words at a time. Only these
        /// and SSE2 are used, so nothing here needs more of the processor than the check
        /// found. Never inlined: only this module is built to use the instructions.
        @inline(never)
        private static func compressWithInstructions(
            _ state: inout (UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32),
            _ blocks: UnsafeRawPointer, count: Int
        ) {
            @inline(__always) func vector(_ words: Words) -> __m128i { unsafeBitCast(words, to: __m128i.self) }
            @inline(__always) func words(_ vector: __m128i) -> Words { unsafeBitCast(vector, to: Words.self) }
            // Lanes are listed from the lowest: lane 3 holds A, lane 0 holds F.
            var abef = Words(state.5, state.4, state.1, state.0)
            var cdgh = Words(state.7, state.6, state.3, state.2)
            roundConstants.withUnsafeBytes { constants in
                let k = constants.baseAddress!
                for number in 0..<count {
                    let block = blocks + number * blockLength
                    /// Message words 4i to 4i+3, big-endian in the block.
                    @inline(__always) func message(_ i: Int) -> Words {
                        Words(
                            UInt32(bigEndian: block.loadUnaligned(fromByteOffset: 16 * i, as: UInt32.self)),
                            UInt32(bigEndian: block.loadUnaligned(fromByteOffset: 16 * i + 4, as: UInt32.self)),
                            UInt32(bigEndian: block.loadUnaligned(fromByteOffset: 16 * i + 8, as: UInt32.self)),
                            UInt32(bigEndian: block.loadUnaligned(fromByteOffset: 16 * i + 12, as: UInt32.self)))
                    }
                    /// Rounds 4i to 4i+3 on the words `w` of the schedule.
                    @inline(__always) func rounds(_ w: Words, _ i: Int) {
                        let input = w &+ k.loadUnaligned(fromByteOffset: 16 * i, as: Words.self)
                        cdgh = words(_mm_sha256rnds2_epu32(vector(cdgh), vector(abef), vector(input)))
                        let upper = Words(input[2], input[3], input[0], input[1])
                        abef = words(_mm_sha256rnds2_epu32(vector(abef), vector(cdgh), vector(upper)))
                    }
                    /// Words 4i to 4i+3 of the schedule from the sixteen before them, given
                    /// four at a time, the oldest first.
                    @inline(__always) func extended(_ w0: Words, _ w1: Words, _ w2: Words, _ w3: Words) -> Words {
                        let sevenBack = Words(w2[1], w2[2], w2[3], w3[0])
                        let partial = words(_mm_sha256msg1_epu32(vector(w0), vector(w1))) &+ sevenBack
                        return words(_mm_sha256msg2_epu32(vector(partial), vector(w3)))
                    }
                    let (savedABEF, savedCDGH) = (abef, cdgh)
                    var (w0, w1, w2, w3) = (message(0), message(1), message(2), message(3))
                    rounds(w0, 0)
                    rounds(w1, 1)
                    rounds(w2, 2)
                    rounds(w3, 3)
                    for i in stride(from: 4, to: 16, by: 4) {
                        w0 = extended(w0, w1, w2, w3)
                        rounds(w0, i)
                        w1 = extended(w1, w2, w3, w0)
                        rounds(w1, i + 1)
                        w2 = extended(w2, w3, w0, w1)
                        rounds(w2, i + 2)
                        w3 = extended(w3, w0, w1, w2)
                        rounds(w3, i + 3)
                    }
                    abef &+= savedABEF
                    cdgh &+= savedCDGH
                }
            }
            state = (abef[3], abef[2], cdgh[3], cdgh[2], abef[1], abef[0], cdgh[1], cdgh[0])
        }
    #endif
}

/// HMAC-SHA256 (RFC 2104), the signature of award callbacks; proven by the RFC 4231
/// test cases.
public enum HMACSHA256 {
    /// A key made ready for many messages: the hash states after its inner and outer
    /// pads, so that each message costs only its own blocks.
    public struct Key: Sendable {
        private let inner: SHA256
        private let outer: SHA256

        /// Prepares `key`; a key longer than a block is hashed first, as RFC 2104 says.
        public init(_ key: [UInt8]) {
            var block = key.count > SHA256.blockLength ? SHA256.hash(key) : key
            block += [UInt8](repeating: 0, count: SHA256.blockLength - block.count)
            var inner = SHA256()
            inner.update(block.map { $0 ^ 0x36 })
            var outer = SHA256()
            outer.update(block.map { $0 ^ 0x5c })
            self.inner = inner
            self.outer = outer
        }

        /// An authenticator that takes a message in parts.
        public func authenticator() -> Authenticator {
            Authenticator(inner: inner, outer: outer)
        }
    }

    /// The authentication code of one message, given in parts.
    public struct Authenticator: Sendable {
        fileprivate var inner: SHA256
        fileprivate let outer: SHA256

        /// Adds bytes to the message.
        public mutating func update(_ bytes: some Sequence<UInt8>) {
            inner.update(bytes)
        }

        /// The code of everything added.
        public consuming func finalize() -> [UInt8] {
            var outer = self.outer
            outer.update(inner.finalize())
            return outer.finalize()
        }
    }

    /// The authentication code of `message` under `key`.
    public static func authenticate(_ message: some Sequence<UInt8>, key: [UInt8]) -> [UInt8] {
        var authenticator = Key(key).authenticator()
        authenticator.update(message)
        return authenticator.finalize()
    }

    /// Lower-case hexadecimal, as the `v1` of a signature.
    public static func hex(_ bytes: [UInt8]) -> String {
        var text: [UInt8] = []
        text.reserveCapacity(bytes.count * 2)
        appendHex(bytes, to: &text)
        return String(decoding: text, as: UTF8.self)
    }

    /// Appends `bytes` in lower-case hexadecimal to `text`.
    public static func appendHex(_ bytes: [UInt8], to text: inout [UInt8]) {
        let digits: StaticString = "0123456789abcdef"
        digits.withUTF8Buffer { digits in
            for byte in bytes {
                text.append(digits[Int(byte >> 4)])
                text.append(digits[Int(byte & 0x0f)])
            }
        }
    }
}
