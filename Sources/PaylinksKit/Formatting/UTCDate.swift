/// Formats Unix timestamps as UTC dates without Foundation.
package enum UTCDate {
    /// `2024-06-12 08:51:52 UTC` for 1718182312, as text output shows a date.
    package static func format(unixSeconds: Int) -> String {
        let (date, time) = parts(unixSeconds)
        return "\(date) \(time) UTC"
    }

    /// `2024-06-12T08:51:52.000Z` for 1718182312: ISO 8601 with milliseconds, as an award's
    /// `purchaseDateAndTimeUtc`.
    package static func iso8601(unixSeconds: Int) -> String {
        let (date, time) = parts(unixSeconds)
        return "\(date)T\(time).000Z"
    }

    /// The Unix seconds of an ISO 8601 date in UTC: `2024-06-12`, `2024-06-12T08:51:52Z`,
    /// `2024-06-12T08:51:52.000Z`; nil for anything else.
    package static func parse(_ text: String) -> Int? {
        let bytes = Array(text.utf8)
        func number(_ range: Range<Int>) -> Int? {
            guard range.upperBound <= bytes.count else { return nil }
            var value = 0
            for byte in bytes[range] {
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
            }
            return value
        }
        guard bytes.count >= 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
            let year = number(0..<4), let month = number(5..<7), let day = number(8..<10), (1...12).contains(month),
            (1...31).contains(day)
        else { return nil }
        var seconds = 0
        if bytes.count > 10 {
            guard bytes.count >= 20, bytes[10] == UInt8(ascii: "T"), bytes[13] == UInt8(ascii: ":"),
                bytes[16] == UInt8(ascii: ":"), bytes.last == UInt8(ascii: "Z"), let hour = number(11..<13),
                let minute = number(14..<16), let second = number(17..<19), hour < 24, minute < 60, second < 60
            else { return nil }
            let fraction = bytes[19..<(bytes.count - 1)]
            guard
                fraction.isEmpty
                    || (fraction.first == UInt8(ascii: ".") && fraction.count > 1
                        && fraction.dropFirst().allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) })
            else { return nil }
            seconds = hour * 3600 + minute * 60 + second
        }
        // Days from the civil date (Howard Hinnant's algorithm, the inverse of civilDate).
        let shifted = month <= 2 ? year - 1 : year
        let era = (shifted >= 0 ? shifted : shifted - 399) / 400
        let yearOfEra = shifted - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        let days = era * 146_097 + dayOfEra - 719_468
        guard civilDate(daysSinceEpoch: days) == (year, month, day) else { return nil }
        return days * 86_400 + seconds
    }

    private static func parts(_ unixSeconds: Int) -> (date: String, time: String) {
        let days = unixSeconds >= 0 ? unixSeconds / 86_400 : (unixSeconds - 86_399) / 86_400
        let secondsOfDay = unixSeconds - days * 86_400
        let (year, month, day) = civilDate(daysSinceEpoch: days)
        return (
            "\(year)-\(pad(month))-\(pad(day))",
            "\(pad(secondsOfDay / 3600)):\(pad(secondsOfDay / 60 % 60)):\(pad(secondsOfDay % 60))"
        )
    }

    private static func pad(_ value: Int) -> String {
        value < 10 ? "0\(value)" : String(value)
    }

    /// The proleptic Gregorian date of a day count from 1970-01-01 (Howard Hinnant's algorithm).
    private static func civilDate(daysSinceEpoch: Int) -> (year: Int, month: Int, day: Int) {
        let z = daysSinceEpoch + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        return (year, month, day)
    }
}
