import TagshModel

/// Transactions that are not in a file yet (an `import`), written in that
/// file's own layout: a CSV file's columns, date form, decimal mark and
/// quoting; a journal's or beancount file's date form, indentation and
/// commodity placement. Annotations are not written here: the rows they become
/// are edited like any changed row when the file is saved.
public struct NewTransaction: Sendable {
    public var day: Day
    public var description: String
    public var amount: Amount
    public var currency: String
    /// The account the money moves in (`Assets:Checking`; in a CSV file, its account column if it has one).
    public var account: String
    /// The bank's own id for the transaction, written where the file has a column for it.
    public var bankID: String?
    /// The export's other fields by header name as `HeaderVocabulary.normalized` gives it (`details`, `type`,
    /// `balance`): written into the file's columns of the same name that tagsh does not read, so a row comes in
    /// as the bank wrote it.
    public var otherFields: [String: String] = [:]

    public init(day: Day, description: String, amount: Amount, currency: String, account: String, bankID: String? = nil) {
        self.day = day
        self.description = description
        self.amount = amount
        self.currency = currency
        self.account = account
        self.bankID = bankID
    }
}

extension LedgerDocument {
    /// Where text for new records goes: after the last record (before a CSV footer), else at the end.
    public var appendOffset: Int {
        guard case .csv(let layout) = layout else { return bytes.count }
        guard let end = layout.records.last?.upperBound ?? (layout.hasHeader ? layout.headerRange.upperBound : nil) else { return bytes.count }
        var at = end
        while at < bytes.count && (bytes[at] == 0x0D || bytes[at] == 0x0A) {
            at += 1
            if bytes[at - 1] == 0x0A { break }
        }
        return at
    }

    /// The text `transactions` take in this file, and the rows it reads back as (read with this file's layout).
    /// `counterAccount` names the other posting of a journal or beancount transaction.
    public func newRecords(_ transactions: [NewTransaction], fileName: String, counterAccount: (NewTransaction) -> String)
        throws(Diagnostic) -> (text: [UInt8], rows: Ledger)
    {
        switch layout {
        case .csv(let l): return try csvRecords(transactions, l, fileName: fileName)
        case .text(let t): return try textRecords(transactions, t, fileName: fileName, counterAccount: counterAccount)
        }
    }

    func csvRecords(_ transactions: [NewTransaction], _ l: CSVLayout, fileName: String) throws(Diagnostic) -> (text: [UInt8], rows: Ledger) {
        let c = l.columns
        if c.direction != nil || c.fee != nil {
            throw Diagnostic("\(fileName): tagsh cannot write new rows in this file's layout (a direction or fee column); "
                             + "import into a journal or beancount file instead")
        }
        // A record of the file shows how dates are written (separators, padding, month names).
        var sampleDate: String?
        if let first = l.records.first {
            let fields = bytes.withUnsafeBufferPointer { buffer in
                CSVReader(bytes: buffer, fileName: "", options: ReadOptions(), encoding: l.encoding).fieldTexts(first, delimiter: l.delimiter)
            }
            if c.date < fields.count { sampleDate = fields[c.date] }
        }
        // Amounts as the file writes them: symbol, decimal mark, sign or debit/credit columns.
        let width = max(l.header.count, (c.used.max() ?? 0) + 1)
        // Worked out once, not per record: the bank id column, and the columns no role reads, by normalised name.
        let bankIDColumn = l.bankIDColumn
        let otherColumns: [(index: Int, name: String)] = l.hasHeader
            ? l.header.indices.filter { !c.used.contains($0) }.map { ($0, HeaderVocabulary.normalized(l.header[$0])) } : []
        var out: [UInt8] = []
        for t in transactions {
            var fields = [String](repeating: "", count: width)
            fields[c.date] = CSVDates.write(t.day, format: l.dateFormat, like: sampleDate)
            fields[c.description] = t.description
            var number = t.amount.formatted(grouping: false, minimumScale: 2)
            if l.decimalComma { number = number.replacingDots(with: ",") }
            if let a = c.amount {
                fields[a] = number
            } else {
                let magnitude = number.hasPrefix("-") ? String(number.dropFirst()) : number
                if t.amount.units < 0, let d = c.debit { fields[d] = magnitude } else if let cr = c.credit { fields[cr] = magnitude }
                else if let d = c.debit { fields[d] = "-" + magnitude }
            }
            if let cur = c.currency { fields[cur] = t.currency }
            if let acc = c.account { fields[acc] = t.account }
            if !t.otherFields.isEmpty {
                for (i, name) in otherColumns { if let v = t.otherFields[name] { fields[i] = v } }
            }
            if let b = bankIDColumn, let id = t.bankID { fields[b] = id }
            for (i, f) in fields.enumerated() {
                if i > 0 { out.append(l.delimiter) }
                out += try CSVWriter.field(f, l, quoteAll: false, row: nil)
            }
            out += l.lineEnding
        }
        // Read back with the file's own header and settings, so the rows are what the file will hold.
        let head = l.records.first.map { Array(bytes[0..<$0.lowerBound]) } ?? Array(bytes[0..<appendOffset])
        var options = ReadOptions()
        options.dateFormat = l.dateFormat
        options.columns = l.columnMap
        let (rows, _, _) = try CSVReader.read(head + out, fileName: fileName, options: options)
        return (out, rows)
    }

    func textRecords(_ transactions: [NewTransaction], _ t: TextLayout, fileName: String, counterAccount: (NewTransaction) -> String) throws(Diagnostic)
        -> (text: [UInt8], rows: Ledger)
    {
        let main = t.files[0].bytes
        let eol = String(decoding: t.lineEnding, as: UTF8.self)
        // The date separator and indentation of the file's first transaction.
        var separator = "-", indent = t.dialect == .beancount ? "  " : "    "
        if let first = t.rowFile.firstIndex(of: 0) {
            let block = String(decoding: main[t.rowStart[first]..<t.rowEnd[first]], as: UTF8.self)
            if block.prefix(10).contains("/") { separator = "/" } else if block.prefix(10).contains(".") { separator = "." }
            if let line = block.split(separator: "\n").dropFirst().first(where: { !$0.trimmingSpaces.isEmpty && !$0.trimmingSpaces.hasPrefix(";") }) {
                let lead = line.prefix { $0 == " " || $0 == "\t" }
                if !lead.isEmpty { indent = String(lead) }
            }
        }
        var out = ""
        if t.dialect == .beancount {
            // Beancount wants every account opened on or before its first use.
            var needed: [String] = []
            for tr in transactions {
                for a in [tr.account, counterAccount(tr)] where !t.declaredAccounts.contains(a) && !needed.contains(a) { needed.append(a) }
            }
            if let first = transactions.map(\.day).min() {
                for a in needed { out += "\(first) open \(a)" + eol }
                if !needed.isEmpty { out += eol }
            }
        }
        for (k, tr) in transactions.enumerated() {
            if k > 0 { out += eol }
            let date = tr.day.description.replacingDashes(with: separator)
            var amount = tr.amount.formatted(grouping: false, minimumScale: 2)
            if t.dialect == .journal && t.decimalComma { amount = amount.replacingDots(with: ",") }
            let money: String
            switch t.dialect {
            case .journal:
                let symbol = tr.currency
                if symbol.isEmpty { money = amount } else if symbol.count == 1 && !symbol.first!.isLetter {
                    money = amount.hasPrefix("-") ? "-" + symbol + amount.dropFirst() : symbol + amount
                } else {
                    money = amount + " " + (symbol.allSatisfy(\.isLetter) ? symbol : "\"" + symbol + "\"")
                }
                out += "\(date) \(tr.description.replacingSemicolons)" + eol
            case .beancount:
                let escaped = tr.description.replacingQuotes
                money = amount + " " + tr.currency
                out += "\(date) * \"\(escaped)\"" + eol
            }
            out += indent + tr.account + "  " + money + eol
            out += indent + counterAccount(tr) + eol
        }
        let text = Array(out.utf8)
        let read = try LedgerDocument.read(text, fileName: fileName, format: format, options: ReadOptions())
        return (text, read.ledger)
    }
}

/// Dates written the way a CSV file writes them.
enum CSVDates {
    static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// `day` in `format`, with the separators and zero padding of `sample` (a date from the same column).
    static func write(_ day: Day, format: DateFormat, like sample: String?) -> String {
        let (y, m, d) = day.components
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        if case .pattern(let p) = format {
            var out = ""
            for piece in p.pieces {
                switch piece {
                case .day: out += two(d)
                case .month: out += two(m)
                case .year2: out += two(y % 100)
                case .year4: out += String(y)
                case .monthName: out += months[m - 1]
                case .hour, .minute, .second: out += "00"
                case .zone: out += "+0000"
                case .literal(let b): out.append(Character(UnicodeScalar(b)))
                case .space: out += " "
                }
            }
            return out
        }
        let sample = sample?.trimmingSpaces ?? ""
        let separator = sample.first { !$0.isNumber && !$0.isLetter }.map(String.init) ?? (format == .ymd ? "-" : "/")
        let parts = sample.split { !$0.isNumber && !$0.isLetter }
        let padded = parts.isEmpty || parts.allSatisfy { $0.count != 1 }
        let shortYear = parts.contains { $0.count == 2 } && !parts.contains { $0.count == 4 }
        let yearText = shortYear ? two(y % 100) : String(y)
        let mt = padded ? two(m) : String(m), dt = padded ? two(d) : String(d)
        switch format {
        case .ymd: return [yearText, mt, dt].joined(separator: separator)
        case .mdy: return [mt, dt, yearText].joined(separator: separator)
        default: return [dt, mt, yearText].joined(separator: separator)
        }
    }
}

extension StringProtocol {
    var trimmingSpaces: String {
        var s = Substring(self)
        while s.first == " " || s.first == "\t" || s.first == "\r" { s = s.dropFirst() }
        while s.last == " " || s.last == "\t" || s.last == "\r" { s = s.dropLast() }
        return String(s)
    }
}

extension String {
    func replacingDots(with c: Character) -> String { String(map { $0 == "." ? c : $0 }) }
    func replacingDashes(with s: String) -> String { split(separator: "-", omittingEmptySubsequences: false).joined(separator: s) }
    /// A journal description ends at `;` (a comment follows), so one inside it is written as `,`.
    var replacingSemicolons: String { String(map { $0 == ";" ? "," : $0 }) }
    var replacingQuotes: String { replacing("\\", with: "\\\\").replacing("\"", with: "\\\"") }
}
