import PaylinksKit

/// Reads RFC 3339 times (`date-time` in OpenAPI): `2021-01-01T00:00:00Z`,
/// `2021-01-01T02:00:00.250+02:00`. The date, the time and a zone are all required; a
/// fraction of any length is cut to the millisecond; `t` and `z` may be lower case, as the
/// RFC allows.
package enum RFC3339 {
    /// The Unix milliseconds of `text`, rounded down to the millisecond; nil for anything
    /// else than an RFC 3339 time from 0000 to 9999.
    package static func milliseconds(_ text: String) -> Int? {
        let bytes = Array(text.utf8)
        // YYYY-MM-DDTHH:MM:SS, then the fraction, then the zone.
        guard bytes.count >= 20, bytes.count <= 64 else { return nil }
        let upper = bytes.map { $0 == UInt8(ascii: "t") || $0 == UInt8(ascii: "z") ? $0 - 0x20 : $0 }
        guard upper[10] == UInt8(ascii: "T") else { return nil }
        var end = upper.count
        var offset = 0
        if upper.last == UInt8(ascii: "Z") {
            end -= 1
        } else {
            // ±HH:MM
            let zone = Array(upper.suffix(6))
            guard zone.count == 6, zone[0] == UInt8(ascii: "+") || zone[0] == UInt8(ascii: "-"),
                zone[3] == UInt8(ascii: ":"), let hours = digits(zone[1..<3]), let minutes = digits(zone[4..<6]),
                hours < 24, minutes < 60
            else { return nil }
            offset = (hours * 60 + minutes) * 60_000 * (zone[0] == UInt8(ascii: "+") ? 1 : -1)
            end -= 6
        }
        guard end >= 19 else { return nil }
        var fraction = 0
        if end > 19 {
            let part = upper[20..<end]
            guard upper[19] == UInt8(ascii: "."), part.allSatisfy(isDigit), let value = digits(part.prefix(3))
            else { return nil }
            fraction = value * [100, 10, 1][min(part.count, 3) - 1]
        }
        let whole = String(decoding: upper[0..<19], as: UTF8.self) + "Z"
        guard let seconds = UTCDate.parse(whole) else { return nil }
        return seconds * 1000 + fraction - offset
    }

    private static func isDigit(_ byte: UInt8) -> Bool { (0x30...0x39).contains(byte) }

    /// The number `bytes` spell in decimal digits; nil when one is not a digit.
    private static func digits(_ bytes: some Collection<UInt8>) -> Int? {
        guard !bytes.isEmpty, bytes.count <= 18, bytes.allSatisfy(isDigit) else { return nil }
        return bytes.reduce(0) { $0 * 10 + Int($1 - 0x30) }
    }
}
