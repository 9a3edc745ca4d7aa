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
}
