import TagshModel

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

    /// An unsigned amount's direction (`Af Bij`, `Transaction Type` with debit/credit, `D/C`).
    public var direction: Int?
    /// A fee taken on top of the amount.
    public var fee: Int?
    /// The amount column is already net of fees (`Net`): a fee column is not applied again.
    public var amountIsNet = false

    /// Maps header names through `HeaderVocabulary` (many languages, best-ranked column per role);
    /// nil unless there is a date, a description and an amount (or a debit or credit) column.
    init?(header: [String]) {
        self.init(roles: CSVColumns.knownRoles(header), header: header)
    }

    /// The roles `header`'s names give (`HeaderVocabulary`), and for each the column of the best-ranked name.
    static func knownRoles(_ header: [String]) -> [ColumnRole: (index: Int, rank: Int)] {
        var best: [ColumnRole: (index: Int, rank: Int)] = [:]
        for (i, raw) in header.enumerated() {
            guard let (role, rank) = HeaderVocabulary.role(of: raw) else { continue }
            if let current = best[role], current.rank <= rank { continue }
            best[role] = (i, rank)
        }
        return best
    }

    /// The columns of `best` roles (some named by the header, some found by what the records hold); nil unless
    /// there is a date, a description and an amount (or a debit or credit) column.
    init?(roles best: [ColumnRole: (index: Int, rank: Int)], header: [String]) {
        guard let date = best[.date]?.index, let desc = best[.description]?.index,
              best[.amount] != nil || best[.debit] != nil || best[.credit] != nil else { return nil }
        self.date = date
        self.description = desc
        self.amount = best[.amount]?.index
        self.debit = amount == nil ? best[.debit]?.index : nil
        self.credit = amount == nil ? best[.credit]?.index : nil
        self.currency = best[.currency]?.index
        self.account = best[.account]?.index
        // A bank's own Category column (Monzo, N26, Mint) is an ordinary column, not tagsh's category: only
        // `Category (tagsh)`, or a Category column beside tagsh's Tags or Intent column, is (or a mapping says so).
        if let c = best[.category], c.rank == 0 || best[.tags] != nil || best[.intent] != nil {
            self.category = c.index
        }
        self.tags = best[.tags]?.index
        self.notes = best[.notes]?.index
        self.intent = best[.intent]?.index
        self.direction = amount == nil ? nil : best[.direction]?.index
        self.fee = best[.fee]?.index
        if let a = amount, a < header.count { amountIsNet = HeaderVocabulary.normalized(header[a]).hasPrefix("net") }
    }

    /// A mapping given by position (0-based), for a file without a header row.
    public init(date: Int, description: Int, amount: Int?, debit: Int? = nil, credit: Int? = nil) {
        self.date = date
        self.description = description
        self.amount = amount
        self.debit = debit
        self.credit = credit
    }

    /// Every column the mapping uses.
    public var used: [Int] {
        [date, description, amount, debit, credit, currency, account, category, tags, notes, intent, direction, fee].compactMap { $0 }
    }
}

extension CSVLayout {
    /// The column holding the bank's own transaction id, when the header names one and no role uses it.
    public var bankIDColumn: Int? {
        guard hasHeader, let i = header.firstIndex(where: HeaderVocabulary.isBankID), !columns.used.contains(i) else { return nil }
        return i
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
    /// Whether the file has a header row (a file without one has positions `1`, `2`, ... as its header).
    public var hasHeader = true
    /// The mapping given with `--columns`, or inferred for a file without a header row (kept in the sidecar).
    public var columnMap: ColumnMap?
    /// The date format was given with `--date-format` (kept in the sidecar), not read from the dates.
    public var dateFormatGiven = false
    /// The currency a money column's name gives (`Betrag (EUR)`, `Amount (£)`), which amounts without a currency
    /// of their own are in (with no currency column), and that column.
    public var headerCurrency: (code: String, column: Int)?
    /// What the reader guessed and how to override it (a date order no date settles), for `open` and `info`.
    public var guesses: [String] = []
    /// What the reader noticed and handled (a footer kept as it is), for `info`.
    public var notes: [String] = []
    /// UTF-8, or Windows-1252 for an export that is not UTF-8.
    public var encoding: TextEncoding = .utf8
    /// Byte range of each transaction's record in the file, without its line terminator.
    public var records: RecordOffsets
}

extension String {
    func trimmingSpaces() -> String {
        var s = Substring(self)
        while let f = s.first, f == " " || f == "\t" { s = s.dropFirst() }
        while let l = s.last, l == " " || l == "\t" { s = s.dropLast() }
        return String(s)
    }
}
