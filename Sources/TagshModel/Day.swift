#if canImport(Glibc)
import Glibc
#endif

/// A calendar date without time zone, stored as days since 1970-01-01.
public struct Day: Sendable, Hashable, Comparable, CustomStringConvertible {
    public var daysSinceEpoch: Int32

    public init(daysSinceEpoch: Int32) { self.daysSinceEpoch = daysSinceEpoch }

    /// Today in the local time zone.
    public static var today: Day {
        var t = time(nil)
        var parts = tm()
        localtime_r(&t, &parts)
        return Day(year: Int(parts.tm_year) + 1900, month: Int(parts.tm_mon) + 1, day: Int(parts.tm_mday)) ?? Day(daysSinceEpoch: 0)
    }

    public func adding(days n: Int) -> Day { Day(daysSinceEpoch: daysSinceEpoch + Int32(n)) }

    /// The date, or nil when it does not exist (`2023-02-29`).
    public init?(year: Int, month: Int, day: Int) {
        guard (1...9999).contains(year), (1...12).contains(month),
              (1...Day.daysIn(month: month, year: year)).contains(day) else { return nil }
        // Howard Hinnant's days_from_civil.
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = (month + 9) % 12
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        daysSinceEpoch = Int32(era * 146097 + doe - 719468)
    }

    public static func isLeap(_ year: Int) -> Bool { (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 }

    public static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return isLeap(year) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Year, month and day of month.
    public var components: (year: Int, month: Int, day: Int) {
        let z = Int(daysSinceEpoch) + 719468
        let era = (z >= 0 ? z : z - 146096) / 146097
        let doe = z - era * 146097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (m <= 2 ? 1 : 0), m, d)
    }

    public static func < (a: Day, b: Day) -> Bool { a.daysSinceEpoch < b.daysSinceEpoch }

    /// ISO 8601: `2024-03-05`.
    public var description: String {
        let (y, m, d) = components
        return Day.pad(y, 4) + "-" + Day.pad(m, 2) + "-" + Day.pad(d, 2)
    }

    /// `2024-03`, the month's key in monthly reports.
    public var monthDescription: String {
        let (y, m, _) = components
        return Day.pad(y, 4) + "-" + Day.pad(m, 2)
    }

    static func pad(_ n: Int, _ width: Int) -> String {
        let s = String(n)
        return s.count >= width ? s : String(repeating: "0", count: width - s.count) + s
    }

    /// Parses `YYYY-MM-DD` (also with `/` or `.` as separators).
    public init?(iso text: Substring) {
        let parts = text.split(omittingEmptySubsequences: false) { $0 == "-" || $0 == "/" || $0 == "." }
        guard parts.count == 3, parts[0].count == 4,
              let y = Int(parts[0]), let m = Int(parts[1]), let d = Int(parts[2]) else { return nil }
        self.init(year: y, month: m, day: d)
    }
}
