import TagshModel

/// A field that `summary` and `chart` group transactions by.
enum Dimension: String, CaseIterable, Sendable {
    case year, quarter, month, week, day, category, intent, tag, merchant, account, file

    /// The dimensions that are periods of time, listed in date order.
    static let periods: [Dimension] = [.year, .quarter, .month, .week, .day]

    var isPeriod: Bool { Dimension.periods.contains(self) }

    /// The words `by` takes, for usage text and errors.
    static let names = allCases.map(\.rawValue)
}

/// Periods of time as integer keys that sort in date order and count up one
/// period at a time (weeks: the day number of their Monday, in steps of 7).
enum Period {
    /// The key of the period of `dimension` holding `day`.
    static func key(_ dimension: Dimension, _ day: Day) -> Int {
        let (y, m, _) = day.components
        switch dimension {
        case .year: return y
        case .quarter: return y * 4 + (m - 1) / 3
        case .week: return Int(day.daysSinceEpoch) - weekday(day)
        case .day: return Int(day.daysSinceEpoch)
        default: return y * 12 + m - 1
        }
    }

    /// The key of the period after `key`.
    static func next(_ dimension: Dimension, _ key: Int) -> Int { dimension == .week ? key + 7 : key + 1 }

    /// `2025`, `2025-Q1`, `2025-03`, `2025-W09` (ISO 8601 week) or `2025-03-01`.
    static func label(_ dimension: Dimension, _ key: Int) -> String {
        switch dimension {
        case .year: return String(key)
        case .quarter: return pad(floorDiv(key, 4), 4) + "-Q" + String(key - floorDiv(key, 4) * 4 + 1)
        case .week:
            // The ISO year and week are those of the week's Thursday.
            let thursday = Day(daysSinceEpoch: Int32(key + 3))
            let year = thursday.components.year
            let jan1 = Day(year: year, month: 1, day: 1)?.daysSinceEpoch ?? thursday.daysSinceEpoch
            let week = (Int(thursday.daysSinceEpoch - jan1)) / 7 + 1
            return pad(year, 4) + "-W" + pad(week, 2)
        case .day: return Day(daysSinceEpoch: Int32(key)).description
        default: return pad(floorDiv(key, 12), 4) + "-" + pad(key - floorDiv(key, 12) * 12 + 1, 2)
        }
    }

    /// Days since Monday: 0 for a Monday, 6 for a Sunday (1970-01-01 was a Thursday).
    static func weekday(_ day: Day) -> Int {
        let r = (Int(day.daysSinceEpoch) + 3) % 7
        return r < 0 ? r + 7 : r
    }

    private static func floorDiv(_ a: Int, _ b: Int) -> Int { a >= 0 ? a / b : (a - b + 1) / b }

    private static func pad(_ n: Int, _ width: Int) -> String {
        let s = String(n)
        return s.count >= width ? s : String(repeating: "0", count: width - s.count) + s
    }
}

/// Names with levels (`trip/paris`, `Food:Groceries`) cut to their first levels.
enum Hierarchy {
    /// Whether `rollUp` can change a name at `depth` (no depth, or one below 1, leaves every name as it is).
    static func rollsUp(depth: Int?) -> Bool { (depth ?? 0) > 0 }

    /// `name` up to its `depth`-th level; levels are separated by `/` or `:`
    /// (tags use either; journal categories use `:`). nil keeps the whole name.
    static func rollUp(_ name: String, depth: Int?) -> String {
        guard let depth, rollsUp(depth: depth) else { return name }
        var levels = 0
        for i in name.indices where name[i] == "/" || name[i] == ":" {
            levels += 1
            if levels == depth { return i == name.startIndex ? name : String(name[..<i]) }
        }
        return name
    }
}

/// Small bar charts of a series, one block character per value.
enum Sparkline {
    static let blocks: [Character] = ["▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"]

    /// The block for `value` on a scale from 0 to `max` (magnitudes): the
    /// lowest block for zero, the highest for `max`, linear between, in integers.
    static func level(_ value: Int128, of max: Int128) -> Int {
        guard max > 0, value > 0 else { return 0 }
        return Int(Swift.min(7, (value * 8 - 1) / max))
    }

    /// One block per value, scaled to the largest magnitude of the series.
    static func render(_ values: [Int128]) -> String {
        let magnitudes = values.map { $0 < 0 ? -$0 : $0 }
        let top = magnitudes.max() ?? 0
        return String(magnitudes.map { blocks[level($0, of: top)] })
    }
}
