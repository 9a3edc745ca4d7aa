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
