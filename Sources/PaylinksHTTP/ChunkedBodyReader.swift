/// Reads a chunked request body (RFC 9112, 7.1) as its bytes arrive, however they are
/// split: each byte of its framing looked at once, the data of each chunk copied out, the
/// chunk extensions and the trailer fields read and dropped. It is as strict as the head's
/// reading: every line ends in CRLF, a chunk size is 1 to 16 hex digits, and it stops at
/// the first byte that breaks a rule, so that where the bytes were split never changes
/// what it says. Its limits: the data at most the body's limit, refused as soon as a chunk
/// size would pass it; a size line with its extensions at most ``lineLimit``; the body as
/// sent, framing and all, at most the body's limit and the head's together; the trailers,
/// with the head, at most the head's limit.
struct ChunkedBodyReader {
    /// Where in the chunked body the next byte falls.
    private enum Place: Equatable {
        /// A chunk size's hex digits.
        case size
        /// Past the size: blanks, then `;` and the extensions, up to the line's CR.
        case extensions(afterSemicolon: Bool)
        /// The CR ending a size line has come: its LF.
        case sizeLineFeed
        /// A chunk's data, this many bytes still to come.
        case data(Int)
        /// The CR after a chunk's data.
        case dataReturn
        /// The LF after a chunk's data.
        case dataLineFeed
        /// The start of a trailer line, or of the empty line that ends the trailers.
        case trailerStart
        /// A trailer's name, before its colon.
        case trailerName
        /// A trailer's value.
        case trailerValue
        /// The CR ending a trailer line has come: its LF; `last` when the line was empty.
        case trailerLineFeed(last: Bool)
    }

    /// The longest line a chunk size and its extensions may take: far more than a client
    /// writes, and short enough that waiting for its end is cheap.
    static let lineLimit = 4096

    /// The data of the chunks read so far.
    private(set) var body: [UInt8] = []
    private var place = Place.size
    /// The next byte to look at.
    private var position: Int
    /// Where the body starts, and where the line being read does.
    private let start: Int
    private var lineStart: Int
    /// Where the trailers start, once the last chunk has come.
    private var trailersStart = 0
    /// The size of the chunk whose size line is being read, and its digits so far.
    private var size = 0
    private var digits = 0
    private let maximumBodySize: Int
    private let maximumHeadSize: Int
    /// The bytes the head took, blank lines before it included: the trailers add to it.
    private let headSize: Int

    /// A reader of the body that starts at `start`, after a head of `headSize` bytes.
    init(start: Int, headSize: Int, maximumHeadSize: Int, maximumBodySize: Int) {
        self.start = start
        position = start
        lineStart = start
        self.headSize = headSize
        self.maximumHeadSize = maximumHeadSize
        self.maximumBodySize = maximumBodySize
    }

    /// Reads on from where the last call stopped, in `bytes`, which hold what that call was
    /// given and more: where the body ends, its trailers included, or nil when it does not
    /// end in them.
    mutating func read(_ bytes: ArraySlice<UInt8>) throws(HTTPRequestError) -> Int? {
        while position < bytes.endIndex {
            if case .data(let remaining) = place {
                let taken = min(remaining, bytes.endIndex - position)
                body += bytes[position..<position + taken]
                position += taken
                place = remaining == taken ? .dataReturn : .data(remaining - taken)
                continue
            }
            let byte = bytes[position]
            if try take(byte, in: bytes) { return position + 1 }
            position += 1
            guard position - start <= maximumBodySize + maximumHeadSize else {
                throw .bodyTooLarge(limit: maximumBodySize)
            }
        }
        return nil
    }

    /// Takes the byte at `position`, of a size line, a line end or a trailer: whether it is
    /// the last of the body.
    private mutating func take(_ byte: UInt8, in bytes: ArraySlice<UInt8>) throws(HTTPRequestError) -> Bool {
        switch place {
        case .size:
            if let digit = byte.hexDigit {
                digits += 1
                guard digits <= 16 else { throw sizeError(bytes) }
                // Past this the size is larger than any limit: it stays there, and cannot overflow.
                if size <= Int.max >> 5 { size = size * 16 + digit }
            } else if digits > 0 && byte == 13 {
                place = .sizeLineFeed
            } else if digits > 0 && byte == 10 {
                throw .malformed("a line of the chunked body does not end in CRLF")
            } else if digits > 0 && (HTTPBytes.isBlank(byte) || byte == UInt8(ascii: ";")) {
                place = .extensions(afterSemicolon: byte == UInt8(ascii: ";"))
            } else {
                throw sizeError(bytes)
            }
            if byte != 13 { try checkLineLength() }
        case .extensions(let afterSemicolon):
            if byte == 13 {
                place = .sizeLineFeed
            } else if byte == 10 {
                throw .malformed("a line of the chunked body does not end in CRLF")
            } else if !afterSemicolon {
                // Only blanks may come between a size and its first extension.
                if byte == UInt8(ascii: ";") {
                    place = .extensions(afterSemicolon: true)
                } else if !HTTPBytes.isBlank(byte) {
                    throw sizeError(bytes)
                }
            } else if (byte < 0x20 && byte != 0x09) || byte == 0x7F {
                throw .malformed("a chunk extension holds a control character")
            }
            if byte != 13 { try checkLineLength() }
        case .sizeLineFeed:
            guard byte == 10 else { throw .malformed("a line of the chunked body does not end in CRLF") }
            lineStart = position + 1
            if size == 0 {
                trailersStart = position + 1
                place = .trailerStart
                return false
            }
            guard size <= maximumBodySize - body.count else { throw .bodyTooLarge(limit: maximumBodySize) }
            // The chunk and the CRLF after it, were they to come, would make the body as sent too large.
            guard size + 2 <= maximumBodySize + maximumHeadSize - (position + 1 - start) else {
                throw .bodyTooLarge(limit: maximumBodySize)
            }
            place = .data(size)
            (size, digits) = (0, 0)
        case .data:
            break
        case .dataReturn:
            guard byte == 13 else { throw .malformed("a chunk's data does not end in CRLF") }
            place = .dataLineFeed
        case .dataLineFeed:
            guard byte == 10 else { throw .malformed("a chunk's data does not end in CRLF") }
            lineStart = position + 1
            place = .size
        case .trailerStart:
            try checkTrailersSize()
            if byte == 13 {
                place = .trailerLineFeed(last: true)
            } else if byte == 10 {
                throw .malformed("a line of the chunked body does not end in CRLF")
            } else {
                place = .trailerName
                return try take(byte, in: bytes)
            }
        case .trailerName:
            try checkTrailersSize()
            if byte == UInt8(ascii: ":") {
                guard position > lineStart else { throw .malformed("a trailer's name is empty or holds a blank") }
                place = .trailerValue
            } else if byte == 13 {
                throw .malformed("a trailer has no ':'")
            } else if byte <= 0x20 || byte == 0x7F {
                throw .malformed("a trailer's name is empty or holds a blank")
            }
        case .trailerValue:
            try checkTrailersSize()
            if byte == 13 {
                place = .trailerLineFeed(last: false)
            } else if byte == 10 || byte == 0 {
                throw .malformed("a trailer's value holds a CR, an LF or a NUL")
            }
        case .trailerLineFeed(let last):
            guard byte == 10 else {
                throw .malformed(
                    last
                        ? "a line of the chunked body does not end in CRLF"
                        : "a trailer's value holds a CR, an LF or a NUL")
            }
            if last { return true }
            lineStart = position + 1
            place = .trailerStart
        }
        return false
    }

    /// Refuses a size line longer than ``lineLimit`` without its CRLF, once the byte at
    /// `position` makes it so.
    private func checkLineLength() throws(HTTPRequestError) {
        guard position + 1 - lineStart <= Self.lineLimit else {
            throw .malformed("a chunk's size line is longer than \(Self.lineLimit) bytes")
        }
    }

    /// Refuses trailers that, with the head, pass the head's limit.
    private func checkTrailersSize() throws(HTTPRequestError) {
        guard headSize + position + 1 - trailersStart <= maximumHeadSize else {
            throw .headersTooLarge(limit: maximumHeadSize)
        }
    }

    /// The size line, up to the byte that breaks it, is not a chunk size: its printable
    /// bytes, shown.
    private func sizeError(_ bytes: ArraySlice<UInt8>) -> HTTPRequestError {
        let line = bytes[lineStart...position].prefix(40).filter { $0 >= 0x20 && $0 < 0x7F }
        return .malformed("a chunk size is not 1 to 16 hex digits: '\(String(decoding: line, as: UTF8.self))'")
    }
}

extension UInt8 {
    /// The value of the hex digit this byte is, either case; nil for any other byte. Chunk
    /// sizes are read with it, in requests and in responses.
    var hexDigit: Int? {
        switch self {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): Int(self - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): Int(self - UInt8(ascii: "a")) + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): Int(self - UInt8(ascii: "A")) + 10
        default: nil
        }
    }
}
