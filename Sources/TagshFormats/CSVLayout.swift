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
    /// What the reader guessed and how to override it (a date order no date settles), for `open` and `info`.
    public var notes: [String] = []
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
