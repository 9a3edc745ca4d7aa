/// Percent-encoding, RFC 3986's, for the sandbox's paths and forms: one encoder and one
/// decoder that the pages, the forms and the control API's paths share.
enum PercentCoding {
    /// `text` for a URL: letters, digits and `-._~` as they are, every other byte `%XX`.
    static func encoded(_ text: String) -> String {
        let digits = Array("0123456789ABCDEF".utf8)
        var bytes: [UInt8] = []
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                UInt8(ascii: "~"):
                bytes.append(byte)
            default: bytes += [UInt8(ascii: "%"), digits[Int(byte >> 4)], digits[Int(byte & 15)]]
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The bytes `text` stands for, each `%XX` as its byte, and `+` as a space when
    /// `plusAsSpace` (a form's fields). A broken escape makes it nil when `strict` (a path,
    /// which must name one thing exactly); otherwise it is left out, as a browser's form
    /// never sends one.
    static func decoded(_ text: some StringProtocol, plusAsSpace: Bool, strict: Bool) -> [UInt8]? {
        var bytes: [UInt8] = []
        var utf8 = text.utf8.makeIterator()
        while let byte = utf8.next() {
            switch byte {
            case UInt8(ascii: "+") where plusAsSpace: bytes.append(0x20)
            case UInt8(ascii: "%"):
                let high = utf8.next().flatMap(hexValue)
                let low = utf8.next().flatMap(hexValue)
                if let high, let low {
                    bytes.append(high << 4 | low)
                } else if strict {
                    return nil
                }
            default: bytes.append(byte)
            }
        }
        return bytes
    }

    /// The value of a hex digit, or nil.
    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
