import TagshModel

/// How dates are written in a CSV file.
public enum DateFormat: Sendable, Equatable, CustomStringConvertible {
    /// Year, month, day (`2024-03-05`, `2024/03/05`).
    case ymd
    /// Month, day, year (`03/05/2024`), as US banks write.
    case mdy
    /// Day, month, year (`05.03.2024`, `05/03/2024`).
    case dmy

    /// Parses a `--date-format` value: `%Y-%m-%d`, `%m/%d/%Y`, `%d.%m.%Y`, `%d/%m/%Y`, or
    /// the words `ymd`, `mdy`, `dmy`.
    public init?(pattern: String) {
        let p = pattern.lowercased().filter { $0 == "y" || $0 == "m" || $0 == "d" }
        switch p {
        case "ymd": self = .ymd
        case "mdy": self = .mdy
        case "dmy": self = .dmy
        default: return nil
        }
    }

    /// The order in words: the separator may be `-`, `/` or `.` in each.
    public var description: String {
        switch self {
        case .ymd: "year-month-day"
        case .mdy: "month/day/year"
        case .dmy: "day/month/year"
        }
    }

    /// Parses a date field in this order; separators may be `-`, `/` or `.`.
    func parse(_ f: UnsafeBufferPointer<UInt8>) -> Day? {
        var nums = (0, 0, 0)
        var lens = (0, 0, 0)
        var part = 0
        for b in f {
            if b >= 0x30 && b <= 0x39 {
                let d = Int(b - 0x30)
                switch part {
                case 0: nums.0 = nums.0 * 10 + d; lens.0 += 1
                case 1: nums.1 = nums.1 * 10 + d; lens.1 += 1
                default: nums.2 = nums.2 * 10 + d; lens.2 += 1
                }
                if lens.0 > 4 || lens.1 > 4 || lens.2 > 4 { return nil }
            } else if b == 0x2D || b == 0x2F || b == 0x2E {
                part += 1
                if part > 2 { return nil }
            } else {
                return nil
            }
        }
        guard part == 2, lens.0 > 0, lens.1 > 0, lens.2 > 0 else { return nil }
        switch self {
        case .ymd:
            guard lens.0 == 4, lens.1 <= 2, lens.2 <= 2 else { return nil }
            return Day(year: nums.0, month: nums.1, day: nums.2)
        case .mdy:
            guard lens.2 == 4, lens.0 <= 2, lens.1 <= 2 else { return nil }
            return Day(year: nums.2, month: nums.0, day: nums.1)
        case .dmy:
            guard lens.2 == 4, lens.0 <= 2, lens.1 <= 2 else { return nil }
            return Day(year: nums.2, month: nums.1, day: nums.0)
        }
    }

    /// The format a sample date is written in: ISO when it starts with four
    /// digits, day-first with `.`, month-first with `/` (as `MM/DD/YYYY`).
    static func guess(_ f: UnsafeBufferPointer<UInt8>) -> DateFormat? {
        guard f.count >= 6 else { return nil }
        if f.prefix(4).allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) { return .ymd }
        if f.contains(0x2E) { return .dmy }
        if f.contains(0x2F) || f.contains(0x2D) { return .mdy }
        return nil
    }
}

/// Which column holds which field. Indexes are 0-based field positions.
public struct CSVColumns: Sendable, Equatable {
    public var date: Int
    public var description: Int
    public var amount: Int?
    public var debit: Int?
    public var credit: Int?
    public var currency: Int?
    public var account: Int?
    public var category: Int?
    public var tags: Int?
    public var notes: Int?
    public var intent: Int?

    /// Maps header names case-insensitively; nil unless there is a date, a
    /// description and an amount (or a debit or credit) column.
    init?(header: [String]) {
        var date: Int?, desc: Int?, amount: Int?, debit: Int?, credit: Int?
        var currency: Int?, account: Int?, category: Int?, tags: Int?, notes: Int?, intent: Int?
        for (i, raw) in header.enumerated() {
            let name = raw.trimmingSpaces().lowercased()
            func take(_ slot: inout Int?) { if slot == nil { slot = i } }
            switch name {
            case "date", "transaction date", "posted date", "posting date", "booking date", "datum", "buchungstag": take(&date)
            case "description", "payee", "merchant", "name", "empfänger", "beschreibung", "verwendungszweck",
                 "beguenstigter/zahlungspflichtiger", "begünstigter/zahlungspflichtiger": take(&desc)
            case "amount", "betrag": take(&amount)
            case "debit", "debit amount", "withdrawal", "withdrawals": take(&debit)
            case "credit", "credit amount", "deposit", "deposits": take(&credit)
            case "currency", "währung", "waehrung": take(&currency)
            case "account", "konto": take(&account)
            case "category": take(&category)
            case "tags", "tag": take(&tags)
            case "notes", "note", "memo", "notiz": take(&notes)
            case "intent": take(&intent)
            default: break
            }
        }
        guard let date, let desc, amount != nil || debit != nil || credit != nil else { return nil }
        self.date = date
        self.description = desc
        self.amount = amount
        self.debit = amount == nil ? debit : nil
        self.credit = amount == nil ? credit : nil
        self.currency = currency
        self.account = account
        self.category = category
        self.tags = tags
        self.notes = notes
        self.intent = intent
    }
}

/// Everything about a CSV file that is needed to write it back byte for byte.
public struct CSVLayout: Sendable {
    public var delimiter: UInt8
    /// `\r\n` or `\n`: the first line terminator in the file.
    public var lineEnding: [UInt8]
    public var hasBOM: Bool
    public var header: [String]
    public var columns: CSVColumns
    /// Line number (1-based) of the header row.
    public var headerLine: Int
    /// Byte range of the header record, without its line terminator.
    public var headerRange: Range<Int>
    public var decimalComma: Bool
    public var dateFormat: DateFormat
    /// UTF-8, or Windows-1252 for an export that is not UTF-8.
    public var encoding: TextEncoding = .utf8
    /// Byte range of each transaction's record in the file, without its line terminator.
    public var recordStarts: [Int]
    public var recordEnds: [Int]
}

extension String {
    func trimmingSpaces() -> String {
        var s = Substring(self)
        while let f = s.first, f == " " || f == "\t" { s = s.dropFirst() }
        while let l = s.last, l == " " || l == "\t" { s = s.dropLast() }
        return String(s)
    }
}
