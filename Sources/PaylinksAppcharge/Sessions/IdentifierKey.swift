/// A session's identifier (its token, purchase id or order id) as the store keys it: the
/// identifier's bytes packed in four words, so that a key hashes, compares and moves as a
/// plain value, with no string storage to reach, retain or release. A dictionary that
/// forgets a key moves the keys after it and hashes each again; with strings, that was
/// most of what a new session cost a full store.
///
/// Every identifier the sandbox makes fits: 32 bytes at most. A longer one, which only a
/// record written by hand can hold, is keyed by its SHA-256 digest.
struct IdentifierKey: Hashable, Sendable {
    private var first: UInt64
    private var second: UInt64
    private var third: UInt64
    private var fourth: UInt64
    /// The identifier's length in bytes, or ``digested`` when the words hold its digest.
    private var length: UInt8

    /// The most bytes an identifier can have and be kept as it is.
    static let packedLength = 32
    private static let digested = UInt8.max

    /// The key of `identifier`.
    init(_ identifier: String) {
        var identifier = identifier
        self = identifier.withUTF8 { Self($0) }
    }

    /// The key of the identifier whose UTF-8 is `bytes`.
    init(_ bytes: UnsafeBufferPointer<UInt8>) {
        var words: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
        if bytes.count <= Self.packedLength {
            withUnsafeMutableBytes(of: &words) { $0.copyMemory(from: UnsafeRawBufferPointer(bytes)) }
            length = UInt8(bytes.count)
        } else {
            let digest = SHA256.hash(bytes)
            withUnsafeMutableBytes(of: &words) { words in digest.withUnsafeBytes { words.copyMemory(from: $0) } }
            length = Self.digested
        }
        (first, second, third, fourth) = words
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(first)
        hasher.combine(second)
        hasher.combine(third)
        hasher.combine(fourth)
    }
}
