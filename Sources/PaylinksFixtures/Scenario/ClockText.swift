import PaylinksKit

/// A clock as `--now` and a scenario's `configuration.now` take it: Unix seconds; an
/// ISO 8601 time, `2024-06-12T08:51:52Z`, in UTC or with an offset such as `+02:00` (a
/// fraction of a second is dropped); or a date alone, `2024-06-12`, for its midnight in
/// UTC. From 1970 to the end of 9999. One parser, so both say the same.
package enum ClockText {
    /// The last second of 9999.
    package static let latest = 253_402_300_799

    /// Why a text is not a clock: a reason that follows the option or the key's path,
    /// `--now takes ...` or `--now: '...' has no time zone; ...`.
    package struct Problem: Error, Equatable, Sendable {
        package var reason: String

        /// The reason after `subject`: `--now takes ...`, `--now: ...`.
        package func message(for subject: String) -> String {
            reason.hasPrefix("takes ") ? "\(subject) \(reason)" : "\(subject): \(reason)"
        }
    }

    /// The Unix seconds `text` stands for.
    package static func unixSeconds(_ text: String) throws(Problem) -> Int {
        let range = 0...latest
        let shown = MessageText.sanitized(text)
        if !text.isEmpty && text.utf8.allSatisfy({ (0x30...0x39).contains($0) }), let number = Int(text) {
            if range.contains(number) { return number }
            // Unix milliseconds, as JavaScript's Date.now() and the events' timestamps have them:
            // thirteen digits since 2001; twelve are more likely a year past 9999 in seconds.
            if number >= 1_000_000_000_000, range.contains(number / 1000) {
                throw Problem(
                    reason: "takes Unix seconds; '\(shown)' looks like Unix milliseconds "
                        + "(\(UTCDate.format(unixSeconds: number / 1000)))"
                        + Suggestion.didYouMean(String(number / 1000), quoted: .bare))
            }
        } else if let seconds = isoSeconds(text) {
            if range.contains(seconds) { return seconds }
        } else if text.uppercased().contains(Character("T")), !text.uppercased().hasSuffix("Z"),
            isoSeconds(text + "Z") != nil
        {
            throw Problem(reason: "'\(shown)' has no time zone; add Z (UTC) or an offset such as +02:00")
        }
        throw Problem(
            reason: "takes Unix seconds (0 to \(latest)), an ISO 8601 time such as 2024-06-12T08:51:52Z "
                + "or 2024-06-12T10:51:52+02:00, or a date such as 2024-06-12, not '\(shown)'")
    }

    /// The Unix seconds of an ISO 8601 date or time, in any letter case, its offset from
    /// UTC (`+02:00`) taken off; nil for anything else.
    private static func isoSeconds(_ value: String) -> Int? {
        var text = Array(value.uppercased().utf8)
        var offset = 0
        // `...T08:51:52+02:00`: the time is two hours ahead of UTC.
        if text.count > 16, text.contains(UInt8(ascii: "T")), text[text.count - 3] == UInt8(ascii: ":") {
            let sign = text[text.count - 6]
            let digits = [1, 2, 4, 5].map { text[text.count - 6 + $0] }
            guard sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-"),
                digits.allSatisfy({ (0x30...0x39).contains($0) })
            else { return nil }
            let values = digits.map { Int($0) - 0x30 }
            let (hours, minutes) = (values[0] * 10 + values[1], values[2] * 10 + values[3])
            guard hours < 24, minutes < 60 else { return nil }
            offset = (hours * 3600 + minutes * 60) * (sign == UInt8(ascii: "+") ? 1 : -1)
            text = Array(text.dropLast(6)) + [UInt8(ascii: "Z")]
        }
        return UTCDate.parse(String(decoding: text, as: UTF8.self)).map { $0 - offset }
    }

    /// The Unix milliseconds `text` stands for, as ``unixSeconds(_:)`` reads it, with the
    /// milliseconds of an ISO 8601 time's fraction (`2026-12-01T10:00:00.250Z`).
    package static func unixMilliseconds(_ text: String) throws(Problem) -> Int {
        let seconds = try unixSeconds(text)
        let bytes = Array(text.utf8)
        guard let dot = bytes.firstIndex(of: UInt8(ascii: ".")), bytes.contains(UInt8(ascii: ":")) else {
            return seconds * 1000
        }
        let digits = bytes[(dot + 1)...].prefix { (0x30...0x39).contains($0) }.prefix(3)
        let fraction = String(decoding: digits, as: UTF8.self)
        return seconds * 1000 + (Int(fraction + String(repeating: "0", count: 3 - fraction.count)) ?? 0)
    }

    /// The milliseconds an ISO 8601 duration stands for: weeks, days, hours, minutes and
    /// seconds (`PT15M`, `P1DT2H`, `PT0.5S`), in any letter case; more than nothing, and
    /// no years or months, which have no fixed length.
    package static func durationMilliseconds(_ text: String) throws(Problem) -> Int {
        let shown = MessageText.sanitized(text)
        let form = "an ISO 8601 duration such as PT15M, PT30S, PT1H or P1D"
        if text.hasPrefix("-") {
            throw Problem(reason: "'\(shown)' is negative; the clock moves only forward: give \(form)")
        }
        // Only ASCII letters change case: no other letter may stand for one.
        var bytes = Array(text.utf8).map { (0x61...0x7A).contains($0) ? $0 - 0x20 : $0 }[...]
        guard bytes.popFirst() == UInt8(ascii: "P"), !bytes.isEmpty else {
            throw Problem(reason: "takes \(form), not '\(shown)'")
        }
        // Each part is a number and its unit, the units in this order, days before T and
        // the rest after it.
        let dateUnits: [(UInt8, Int)] = [(UInt8(ascii: "W"), 604_800_000), (UInt8(ascii: "D"), 86_400_000)]
        let timeUnits: [(UInt8, Int)] = [
            (UInt8(ascii: "H"), 3_600_000), (UInt8(ascii: "M"), 60_000), (UInt8(ascii: "S"), 1000),
        ]
        var total = 0
        var inTime = false
        var units = dateUnits[...]
        var parts = 0
        while !bytes.isEmpty {
            if bytes.first == UInt8(ascii: "T") {
                guard !inTime else { throw Problem(reason: "takes \(form), not '\(shown)'") }
                bytes.removeFirst()
                inTime = true
                units = timeUnits[...]
                guard !bytes.isEmpty else { throw Problem(reason: "'\(shown)' has nothing after T; give \(form)") }
                continue
            }
            let digits = bytes.prefix { (0x30...0x39).contains($0) || $0 == UInt8(ascii: ".") }
            bytes.removeFirst(digits.count)
            guard let unit = bytes.popFirst(), !digits.isEmpty else {
                throw Problem(reason: "takes \(form), not '\(shown)'")
            }
            if !inTime && (unit == UInt8(ascii: "Y") || unit == UInt8(ascii: "M")) {
                throw Problem(
                    reason: "'\(shown)' counts years or months, which have no fixed length; give days, such as P30D")
            }
            guard let index = units.firstIndex(where: { $0.0 == unit }) else {
                throw Problem(reason: "takes \(form), not '\(shown)'")
            }
            let scale = units[index].1
            units = units[(index + 1)...]
            let pieces = digits.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
            if pieces.count <= 2, !pieces[0].isEmpty,
                Int(String(decoding: pieces[0], as: UTF8.self)).map({ $0 > 1 << 40 }) ?? true,
                pieces[0].allSatisfy({ (0x30...0x39).contains($0) })
            {
                throw Problem(reason: "'\(shown)' is longer than the clock goes (to the end of 9999)")
            }
            guard pieces.count <= 2, let whole = Int(String(decoding: pieces[0], as: UTF8.self)), whole <= 1 << 40,
                pieces.count == 1 || (unit == UInt8(ascii: "S") && !pieces[1].isEmpty && pieces[1].count <= 3)
            else {
                throw Problem(reason: "takes \(form) (a fraction only of seconds, to the millisecond), not '\(shown)'")
            }
            let fraction = pieces.count == 2 ? String(decoding: pieces[1], as: UTF8.self) : ""
            let milliseconds = Int(fraction + String(repeating: "0", count: 3 - fraction.count)) ?? 0
            let (product, overflow) = whole.multipliedReportingOverflow(by: scale)
            guard !overflow, total <= Int.max - product - milliseconds else {
                throw Problem(reason: "'\(shown)' is longer than the clock goes (to the end of 9999)")
            }
            total += product + milliseconds
            parts += 1
        }
        guard parts > 0 else { throw Problem(reason: "takes \(form), not '\(shown)'") }
        guard total > 0 else { throw Problem(reason: "'\(shown)' is zero; the clock moves only forward: give \(form)") }
        return total
    }

    /// The ISO 8601 duration of `milliseconds`, as ``durationMilliseconds(_:)`` reads it
    /// back: days, hours, minutes and seconds to the millisecond, leaving out those that are
    /// 0 (`PT5M`, `P1DT0.5S`); `PT0S` for nothing.
    package static func isoDuration(milliseconds: Int) -> String {
        let total = max(0, milliseconds)
        let (days, hours) = (total / 86_400_000, total % 86_400_000 / 3_600_000)
        let (minutes, seconds, rest) = (total % 3_600_000 / 60_000, total % 60_000 / 1000, total % 1000)
        var text = days > 0 ? "P\(days)D" : "P"
        guard total % 86_400_000 > 0 else { return days > 0 ? text : "PT0S" }
        text += "T"
        if hours > 0 { text += "\(hours)H" }
        if minutes > 0 { text += "\(minutes)M" }
        if seconds > 0 || rest > 0 {
            text += String(seconds)
            if rest > 0 {
                let digits = String(rest)
                var fraction = Substring(String(repeating: "0", count: 3 - digits.count) + digits)
                while fraction.last == "0" { fraction = fraction.dropLast() }
                text += "." + fraction
            }
            text += "S"
        }
        return text
    }

    /// `2026-12-01T10:00:00.000Z` for Unix milliseconds: ISO 8601 UTC to the millisecond.
    package static func iso8601(milliseconds: Int) -> String {
        let seconds = milliseconds >= 0 ? milliseconds / 1000 : (milliseconds - 999) / 1000
        let rest = milliseconds - seconds * 1000
        let text = UTCDate.iso8601(unixSeconds: seconds)
        let digits = String(rest)
        return text.dropLast(4) + String(repeating: "0", count: 3 - digits.count) + digits + "Z"
    }
}
