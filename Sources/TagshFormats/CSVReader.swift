import TagshModel

/// Options for reading a ledger file.
public struct ReadOptions: Sendable {
    /// Load the records that can be read and report the others, instead of refusing the file.
    public var skipBad = false
    /// Force the date order of a CSV file instead of detecting it.
    public var dateFormat: DateFormat?

    /// Which column holds what (`--columns`), instead of the header's names; required by position
    /// for a file without a header row when tagsh cannot infer it.
    public var columns: ColumnMap?

    /// Mappings remembered from earlier files by their header row (`ColumnMap.signature`), so next month's
    /// export with the same unknown header reads the same way.
    public var rememberedMappings: [String: ColumnMap] = [:]

    public init(skipBad: Bool = false, dateFormat: DateFormat? = nil, columns: ColumnMap? = nil) {
        self.skipBad = skipBad
        self.dateFormat = dateFormat
        self.columns = columns
    }
}

/// A field of a CSV record: its bytes in the file.
struct FieldRef {
    var start: Int
    var end: Int
    /// The field was in quotes (start/end exclude them).
    var quoted: Bool
    /// It contains doubled quotes to undo.
    var escaped: Bool
}

/// Reads bank CSV exports (SPEC §6) in one pass over the bytes.
public struct CSVReader {
    let bytes: UnsafeBufferPointer<UInt8>
    let fileName: String
    let options: ReadOptions
    var encoding: TextEncoding = .utf8

    /// Splits records, tracking line numbers for messages.
    struct Scanner {
        let bytes: UnsafeBufferPointer<UInt8>
        var pos: Int
        var line: Int
        var delimiter: UInt8

        /// Reads one record into `fields`; returns false at the end of input.
        /// `recordEnd` excludes the line terminator.
        mutating func next(into fields: inout [FieldRef], recordEnd: inout Int) throws(ScanError) -> Bool {
            fields.removeAll(keepingCapacity: true)
            let n = bytes.count
            if pos >= n { return false }
            while true {
                var start = pos
                if pos < n && bytes[pos] == 0x22 {
                    let open = pos
                    pos += 1
                    start = pos
                    var escaped = false
                    var closed = false
                    while pos < n {
                        let b = bytes[pos]
                        if b == 0x22 {
                            if pos + 1 < n && bytes[pos + 1] == 0x22 { escaped = true; pos += 2; continue }
                            closed = true
                            break
                        }
                        if b == 0x0A { line += 1 }
                        pos += 1
                    }
                    if !closed { throw ScanError(kind: .unterminatedQuote, offset: open) }
                    fields.append(FieldRef(start: start, end: pos, quoted: true, escaped: escaped))
                    pos += 1
                    if pos < n, bytes[pos] != delimiter, bytes[pos] != 0x0A, bytes[pos] != 0x0D {
                        throw ScanError(kind: .textAfterQuote, offset: pos)
                    }
                } else {
                    while pos < n {
                        let b = bytes[pos]
                        if b == delimiter || b == 0x0A || b == 0x0D { break }
                        pos += 1
                    }
                    fields.append(FieldRef(start: start, end: pos, quoted: false, escaped: false))
                }
                if pos >= n { recordEnd = n; return true }
                let b = bytes[pos]
                if b == delimiter { pos += 1; continue }
                recordEnd = pos
                if b == 0x0D { pos += 1; if pos < n && bytes[pos] == 0x0A { pos += 1 } } else { pos += 1 }
                line += 1
                return true
            }
        }
    }

    struct ScanError: Error {
        enum Kind { case unterminatedQuote, textAfterQuote }
        var kind: Kind
        var offset: Int
    }

    /// Reads `bytes`, the whole content of `fileName`.
    public static func read(_ bytes: [UInt8], fileName: String, options: ReadOptions = ReadOptions())
        throws(Diagnostic) -> (ledger: Ledger, layout: CSVLayout, skipped: [Diagnostic])
    {
        if let nul = TextEncoding.firstNUL(bytes) {
            throw Diagnostic("the file holds a NUL byte, so it is not a text file", file: fileName, line: nul.line, column: nul.column)
        }
        let encoding: TextEncoding = TextEncoding.firstInvalidUTF8(bytes) == nil ? .utf8 : .windows1252
        do {
            return try bytes.withUnsafeBufferPointer { buffer in
                try CSVReader(bytes: buffer, fileName: fileName, options: options, encoding: encoding).read()
            }
        } catch let d as Diagnostic {
            throw d
        } catch {
            throw Diagnostic("\(fileName): \(error)")
        }
    }

    func read() throws(Diagnostic) -> (ledger: Ledger, layout: CSVLayout, skipped: [Diagnostic]) {
        let hasBOM = bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF
        if bytes.count >= 2 && ((bytes[0] == 0xFF && bytes[1] == 0xFE) || (bytes[0] == 0xFE && bytes[1] == 0xFF)) {
            throw Diagnostic("\(fileName): the file is UTF-16; save it as UTF-8 first", file: fileName, line: 1, column: 1)
        }
        let bodyStart = hasBOM ? 3 : 0
        let lineEnding = detectLineEnding()

        // Find the header: the first of the first 20 lines whose names map.
        var fields: [FieldRef] = []
        var header: (names: [String], columns: CSVColumns, delimiter: UInt8, line: Int, next: Int, range: Range<Int>)?
        var rememberedMap: ColumnMap?
        var inferredMap: ColumnMap?
        var probe = Scanner(bytes: bytes, pos: bodyStart, line: 1, delimiter: 0x2C)
        var firstNonEmptyLine: Int?
        for _ in 0..<20 {
            let lineStart = probe.pos, lineNumber = probe.line
            guard let end = lineEndOffset(from: lineStart) else { break }
            let delimiter = detectDelimiter(lineStart..<end)
            var scanner = Scanner(bytes: bytes, pos: lineStart, line: lineNumber, delimiter: delimiter)
            var recordEnd = 0
            do {
                guard try scanner.next(into: &fields, recordEnd: &recordEnd) else { break }
            } catch {
                throw diagnostic(for: error)
            }
            let names = fields.map { text($0) }
            if names.count > 1 || !(names.first ?? "").isEmpty, firstNonEmptyLine == nil { firstNonEmptyLine = lineNumber }
            // The header row: names tagsh knows, or the names the mapping gives.
            let mapped: CSVColumns?
            if let map = options.columns, map.entries.contains(where: { if case .name = $0.column { true } else { false } }) {
                mapped = try? map.columns(header: names)
            } else if let map = options.columns, CSVColumns(header: names) != nil {
                do throws(ColumnMap.MapError) { mapped = try map.columns(header: names) } catch { throw mapError(error) }
            } else if let remembered = options.rememberedMappings[ColumnMap.signature(of: names)], options.columns == nil {
                mapped = try? remembered.columns(header: names)
                if mapped != nil {
                    rememberedMap = remembered
                }
            } else {
                mapped = CSVColumns(header: names)
            }
            if let columns = mapped {
                header = (names, columns, delimiter, lineNumber, scanner.pos, lineStart..<recordEnd)
                break
            }
            probe.pos = scanner.pos
            probe.line = scanner.line
        }
        var hasHeader = true
        var guesses: [String] = []
        if header == nil, let first = firstNonEmptyLine {
            // No header row: the records start at the first line; the columns come from --columns or from what they hold.
            var probe = Scanner(bytes: bytes, pos: bodyStart, line: 1, delimiter: 0x2C)
            while probe.line < first, let end = lineEndOffset(from: probe.pos) {
                probe.pos = end
                skipToNextLine(&probe)
            }
            let start = probe.pos
            if let end = lineEndOffset(from: start) {
                let delimiter = detectDelimiter(start..<end)
                let scanner = Scanner(bytes: bytes, pos: start, line: first, delimiter: delimiter)
                var columns: CSVColumns?
                if let map = options.columns {
                    do throws(ColumnMap.MapError) { columns = try map.columns(header: nil) } catch { throw mapError(error) }
                } else if let inferred = inferColumns(from: scanner) {
                    columns = inferred
                    guesses.append("the file has no header row: read column \(inferred.date + 1) as the date, \(inferred.description + 1) as "
                                   + "the description and \(inferred.amount.map { "\($0 + 1)" } ?? "?") as the amount; "
                                   + "--columns \(ColumnMap(positionsOf: inferred)) (changed as needed) to read it otherwise")
                } else {
                    // A header row whose names tagsh does not know: the columns come from what the records below it hold.
                    var below = scanner
                    var names: [FieldRef] = []
                    var end = 0
                    if (try? below.next(into: &names, recordEnd: &end)) == true, let inferred = inferColumns(from: below) {
                        let headerNames = names.map { text($0) }
                        func name(_ i: Int?) -> String { i.map { $0 < headerNames.count ? "'\(headerNames[$0])'" : "\($0 + 1)" } ?? "?" }
                        guesses.append("tagsh does not know this header's names: read \(name(inferred.date)) as the date, "
                                       + "\(name(inferred.description)) as the description and \(name(inferred.amount)) as the amount; "
                                       + "--columns to read it otherwise")
                        header = (headerNames, inferred, delimiter, first, below.pos, start..<end)
                        inferredMap = ColumnMap(namesOf: inferred, header: headerNames)
                    }
                }
                if let columns {
                    let width = max(sampleWidth(from: scanner), (columns.used.max() ?? 0) + 1)
                    header = ((1...width).map(String.init), columns, delimiter, first - 1, start, start..<start)
                    hasHeader = false
                }
            }
        }
        guard let header else {
            if firstNonEmptyLine == nil {
                throw Diagnostic("the file is empty: a CSV ledger needs a header row",
                                 file: fileName, line: 1, column: 1)
            }
            throw Diagnostic(
                "no header row: expected columns named date, description (or payee, merchant, name) and amount (or debit and credit)",
                file: fileName, line: firstNonEmptyLine ?? 1, column: 1,
                sourceLine: lineText(atLine: firstNonEmptyLine ?? 1), span: nil,
                notes: ["hint: --columns date=1,description=3,amount=5 says which column holds what (by position or header name)"])
        }

        var columns = header.columns
        var scanner = Scanner(bytes: bytes, pos: header.next, line: header.line + 1, delimiter: header.delimiter)
        func hasBothSigns(_ column: Int?) -> Bool {
            guard let column else { return false }
            let values = sampleValues(from: scanner, column: column, limit: 200).compactMap { AmountParser.parse($0, decimalComma: false)?.amount }
            return values.contains { $0 < .zero } && values.contains { $0 > .zero }
        }
        let debitMixed = hasBothSigns(columns.debit), creditMixed = hasBothSigns(columns.credit)
        // A "Transaction Type" column is a direction only when it holds debit/credit words.
        if let d = columns.direction, !sampleValues(from: scanner, column: d).allSatisfy({ $0.isEmpty || AmountParser.direction($0) != nil }) {
            columns.direction = nil
        }
        let amountColumns = [columns.amount, columns.debit, columns.credit].compactMap { $0 }
        let decimalComma = detectDecimalComma(from: scanner, amountColumns: amountColumns)
        // The order of day and month is settled by the first date that can only be read one way; until then
        // dates are read in the order the file's conventions suggest, and re-read if a later one disagrees.
        let hint = dateOrderHint(from: scanner, dateColumn: columns.date, decimalComma: decimalComma, header: header.names)
        var dateFormat = options.dateFormat ?? hint.order
        // Day first is the only order written with dots (05.03.2024): no guess to report.
        var dateOrderSettled = options.dateFormat != nil || hint.certain
        var ambiguousRows: [Int32] = []
        var onlyYearFirst = true
        var footer: (line: Int, error: Diagnostic, blankDate: Bool)?
        var footerLines = 0
        var leadingLines: [Int] = []

        var ledger = Ledger()
        var starts: [Int] = [], ends: [Int] = []
        let estimate = bytes.count / 60
        ledger.reserveCapacity(estimate)
        starts.reserveCapacity(estimate)
        ends.reserveCapacity(estimate)
        var skipped: [Diagnostic] = []
        var defaultAccount: UInt32?
        var scratch: [UInt8] = []
        var tagNames: [String] = []
        // Annotation fields repeat: each distinct raw value is parsed once,
        // then looked up by its bytes (ids map to tag sets, categories, intents).
        var rawTags = StringTable(), tagSetOfRaw: [UInt32] = [0]
        var rawCategories = StringTable(), categoryOfRaw: [UInt32] = [0]
        var rawIntents = StringTable(), intentOfRaw: [UInt8] = [0]
        let badIntent: UInt8 = 0xFF
        let required = max(columns.date, columns.description, columns.amount ?? 0)

        while true {
            let recordStart = scanner.pos
            let recordLine = scanner.line
            var recordEnd = 0
            do {
                guard try scanner.next(into: &fields, recordEnd: &recordEnd) else { break }
            } catch {
                let d = diagnostic(for: error)
                if options.skipBad && error.kind == .textAfterQuote {
                    skipped.append(d)
                    // Skip to the end of this line and go on.
                    scanner.pos = (lineEndOffset(from: error.offset).map { $0 } ?? bytes.count)
                    skipToNextLine(&scanner)
                    continue
                }
                throw d
            }
            // Blank lines are kept verbatim and are not transactions.
            if fields.count == 1 && isBlank(fields[0]) { continue }

            // A line whose date column holds no date at all (`***END OF FILE***`, a totals line) may be a footer:
            // it is one if no transaction follows it.
            // The date is read once here; only a row whose date does not read is tokenized again.
            let dateRead: Day? = columns.date < fields.count ? slice(fields[columns.date]) { dateFormat.parse($0) } : nil
            let notARecord = dateRead == nil && (columns.date >= fields.count || slice(fields[columns.date]) { DateTokens($0) == nil })
            if notARecord {
                if footer == nil {
                    let error = columns.date < fields.count
                        ? fieldError("cannot read date '\(text(fields[columns.date]))'", fields[columns.date].start, line: recordLine,
                                     recordStart: recordStart,
                                     notes: ["hint: --date-format sets how dates are written, e.g. %d/%m/%Y or %d %b %Y; "
                                             + "--columns date=N picks another column; --skip-bad loads the other records"])
                        : fieldError("expected at least \(columns.date + 1) fields, found \(fields.count)",
                                     fields.last.map { $0.end } ?? recordStart, line: recordLine, recordStart: recordStart,
                                     notes: ["hint: --skip-bad loads the other records"])
                    footer = (recordLine, error, columns.date >= fields.count || isBlank(fields[columns.date]))
                }
                footerLines += 1
                continue
            }
            // Lines without a date between the header and the first transaction (Venmo's opening balance) are kept
            // as they are, like a footer; between transactions they are an error.
            if let f = footer, f.blankDate, footerLines == 1, ledger.count == 0, !options.skipBad {
                leadingLines.append(f.line)
                footer = nil
                footerLines = 0
            }
            if let footer, !options.skipBad { throw footer.error }
            if let f = footer {
                skipped.append(f.error)
                footer = nil
                footerLines = 0
            }

            do throws(Diagnostic) {
                guard fields.count > required else {
                    throw fieldError("expected at least \(required + 1) fields, found \(fields.count)",
                                     fields.last.map { $0.end } ?? recordStart, line: recordLine, recordStart: recordStart)
                }
                let dateField = fields[columns.date]
                var parsedDay = dateRead
                // A date that starts with its year says nothing about the order of day and month.
                let yearFirst = slice(dateField) { f in
                    var i = 0
                    while i < f.count, f[i] == 0x20 || f[i] == 0x22 { i += 1 }
                    return f.count - i >= 4 && (i..<i + 4).allSatisfy { f[$0] >= 0x30 && f[$0] <= 0x39 }
                }
                if !yearFirst { onlyYearFirst = false }
                if !dateOrderSettled && !yearFirst {
                    switch slice(dateField, { DateFormat.evidence($0) }) {
                    case let evidence? where evidence == .mdy || evidence == .dmy:
                        if evidence != dateFormat {
                            // Every date so far could be read either way: read them the other way.
                            dateFormat = evidence
                            ledger.swapDayAndMonth(rows: ambiguousRows)
                            parsedDay = slice(dateField) { dateFormat.parse($0) }
                        }
                        dateOrderSettled = true
                        ambiguousRows = []
                    case nil where parsedDay != nil:
                        ambiguousRows.append(Int32(ledger.count))
                    default:
                        break
                    }
                }
                guard let day = parsedDay else {
                    throw fieldError("cannot read date '\(text(dateField))' as \(yearFirst ? DateFormat.ymd : dateFormat)",
                                     dateField.start, line: recordLine, recordStart: recordStart,
                                     notes: ["hint: --date-format sets how dates are written, e.g. %d/%m/%Y, %m/%d/%y, %d %b %Y or %Y-%m-%dT%H:%M:%S"
                                             + (options.skipBad ? "" : "; --skip-bad loads the other records")])
                }
                let merchant = intern(fields[columns.description], into: &ledger.merchants, scratch: &scratch)

                var amount: Amount
                var symbol: String?
                var pending = false
                if let a = columns.amount {
                    let f = field(a)
                    if f.map(isBlank) ?? true {
                        // Listed without an amount yet: kept, and marked pending.
                        amount = .zero
                        pending = true
                    } else {
                        guard let f, let parsed = parseAmountField(f, decimalComma: decimalComma) else {
                            let at = f ?? fields[fields.count - 1]
                            throw fieldError("cannot read amount '\(f.map { text($0) } ?? "")'", f?.start ?? at.end,
                                             line: recordLine, recordStart: recordStart,
                                             notes: options.skipBad ? [] : ["hint: --columns amount=N reads another column; --skip-bad loads the other records"])
                        }
                        amount = parsed.amount
                        symbol = parsed.symbol
                    }
                    if let d = columns.direction, let f = field(d), !isBlank(f) {
                        guard let sign = AmountParser.direction(text(f)) else {
                            throw fieldError("cannot tell money in from money out: '\(text(f))'", f.start,
                                             line: recordLine, recordStart: recordStart)
                        }
                        amount = sign < 0 ? -amount.magnitude : amount.magnitude
                    }
                    if let c = columns.fee, !columns.amountIsNet, let f = field(c), !isBlank(f),
                       let fee = parseAmountField(f, decimalComma: decimalComma) {
                        amount = amount.adding(-fee.amount.magnitude) ?? amount
                    }
                } else {
                    var total: Amount = .zero
                    var any = false
                    for (index, isDebit) in [(columns.debit, true), (columns.credit, false)] {
                        guard let index, let f = field(index), !isBlank(f) else { continue }
                        guard let parsed = parseAmountField(f, decimalComma: decimalComma) else {
                            throw fieldError("cannot read \(isDebit ? "debit" : "credit") '\(text(f))'", f.start,
                                             line: recordLine, recordStart: recordStart)
                        }
                        // A debit column holds money out and a credit column money in, whichever sign the bank
                        // writes them with; a column with both signs is signed already (charges positive).
                        let mixed = isDebit ? debitMixed : creditMixed
                        let v = isDebit ? (mixed ? -parsed.amount : -parsed.amount.magnitude)
                                        : (mixed ? parsed.amount : parsed.amount.magnitude)
                        total = total.adding(v) ?? total
                        symbol = symbol ?? parsed.symbol
                        any = true
                    }
                    // Neither debit nor credit: listed without an amount yet (pending).
                    pending = !any
                    amount = total
                }

                var currency: UInt32 = 0
                if let c = columns.currency, let f = field(c), !isBlank(f) {
                    currency = intern(f, into: &ledger.currencies, scratch: &scratch)
                } else if let symbol {
                    currency = ledger.currencies.intern(symbol)
                }
                let account: UInt32
                if let c = columns.account, let f = field(c), !isBlank(f) {
                    account = intern(f, into: &ledger.accounts, scratch: &scratch)
                } else if let defaultAccount {
                    account = defaultAccount
                } else {
                    account = ledger.accounts.intern(Self.accountName(forFile: fileName))
                    defaultAccount = account
                }
                var intent: Intent?
                if let c = columns.intent, let f = field(c), !isBlank(f) {
                    let raw = intern(f, into: &rawIntents, scratch: &scratch)
                    if Int(raw) == intentOfRaw.count {
                        let t = rawIntents[raw]
                        intentOfRaw.append(t.lowercased() == "none" ? 0 : Intent(name: t)?.rawValue ?? badIntent)
                    }
                    let value = intentOfRaw[Int(raw)]
                    if value == badIntent {
                        throw fieldError("unknown intent '\(rawIntents[raw])': use need, want, culture, unexpected or leave it empty",
                                         f.start, line: recordLine, recordStart: recordStart)
                    }
                    intent = Intent(rawValue: value)
                }
                var category: UInt32 = 0
                if let c = columns.category, let f = field(c), !isBlank(f) {
                    let raw = intern(f, into: &rawCategories, scratch: &scratch)
                    if Int(raw) == categoryOfRaw.count { categoryOfRaw.append(ledger.categories.intern(rawCategories[raw])) }
                    category = categoryOfRaw[Int(raw)]
                }
                var tagSet: UInt32 = 0
                if let c = columns.tags, let f = field(c), !isBlank(f) {
                    let raw = intern(f, into: &rawTags, scratch: &scratch)
                    if Int(raw) == tagSetOfRaw.count {
                        tagNames.removeAll(keepingCapacity: true)
                        for part in rawTags[raw].split(separator: ";") {
                            let name = String(part).trimmingSpaces()
                            if !name.isEmpty { tagNames.append(name) }
                        }
                        tagSetOfRaw.append(ledger.internTagSet(tagNames))
                    }
                    tagSet = tagSetOfRaw[Int(raw)]
                }
                var note: UInt32 = 0
                if let c = columns.notes, let f = field(c), !isBlank(f) {
                    note = intern(f, into: &ledger.notes, scratch: &scratch)
                }
                ledger.append(day: day, merchant: merchant, amount: amount, currency: currency, account: account,
                              intent: intent, category: category, tagSet: tagSet, note: note)
                if pending { ledger.markLastPending() }
                starts.append(recordStart)
                ends.append(recordEnd)
            } catch {
                if options.skipBad { skipped.append(error); continue }
                throw error
            }

            func field(_ i: Int) -> FieldRef? { i < fields.count ? fields[i] : nil }
        }

        var layout = CSVLayout(
            delimiter: header.delimiter, lineEnding: lineEnding, hasBOM: hasBOM, header: header.names,
            columns: columns, headerLine: header.line, headerRange: header.range, decimalComma: decimalComma,
            dateFormat: onlyYearFirst && options.dateFormat == nil ? .ymd : dateFormat, encoding: encoding,
            recordStarts: starts, recordEnds: ends)
        layout.hasHeader = hasHeader
        layout.guesses = guesses
        layout.dateFormatGiven = options.dateFormat != nil
        layout.columnMap = options.columns ?? rememberedMap ?? inferredMap ?? (hasHeader ? nil : ColumnMap(positionsOf: columns))
        if let rememberedMap {
            layout.guesses.append("read with the mapping remembered for this header row: \(rememberedMap) (`columns set` changes it)")
        }
        if let footer, ledger.count == 0, !options.skipBad {
            // Nothing but lines without a date: not a footer, a file read the wrong way.
            throw footer.error
        }
        if let first = leadingLines.first {
            layout.notes.append("line \(first) has no date (above the first transaction): kept as it is")
        }
        if let footer {
            layout.notes.append(footerLines == 1 ? "line \(footer.line) is not a transaction (a footer): kept as it is"
                                : "\(footerLines) lines from line \(footer.line) are not transactions (a footer): kept as they are")
        }
        if !dateOrderSettled && !ambiguousRows.isEmpty {
            let other = dateFormat == .dmy ? "%m/%d/%Y" : "%d/%m/%Y"
            layout.guesses.append("no date settles whether the day or the month comes first (every day is 12 or less); "
                                + "read as \(dateFormat) (\(hint.reason)); --date-format \(other) if that is wrong")
        }
        return (ledger, layout, skipped)
    }

    /// One field of a record, interned (0 when the record is shorter).
    func field(_ index: Int, of range: Range<Int>, delimiter: UInt8, into table: inout StringTable, scratch: inout [UInt8]) -> UInt32 {
        var scanner = Scanner(bytes: UnsafeBufferPointer(rebasing: bytes[..<range.upperBound]), pos: range.lowerBound, line: 0,
                              delimiter: delimiter)
        var fields: [FieldRef] = []
        var recordEnd = 0
        guard (try? scanner.next(into: &fields, recordEnd: &recordEnd)) == true, index < fields.count else { return 0 }
        return intern(fields[index], into: &table, scratch: &scratch)
    }

    /// The texts of the fields of one record.
    func fieldTexts(_ range: Range<Int>, delimiter: UInt8) -> [String] {
        var scanner = Scanner(bytes: UnsafeBufferPointer(rebasing: bytes[..<range.upperBound]), pos: range.lowerBound, line: 0,
                              delimiter: delimiter)
        var fields: [FieldRef] = []
        var recordEnd = 0
        guard (try? scanner.next(into: &fields, recordEnd: &recordEnd)) == true else { return [] }
        return fields.map { text($0) }
    }

    func mapError(_ e: ColumnMap.MapError) -> Diagnostic {
        Diagnostic("--columns: \(e.message)", file: fileName)
    }

    /// The first records after `start`, as trimmed texts, blank lines left out: what the detectors look at.
    func sampleRecords(from start: Scanner, limit: Int) -> [[String]] {
        var scanner = start
        var fields: [FieldRef] = []
        var recordEnd = 0
        var rows: [[String]] = []
        while rows.count < limit, (try? scanner.next(into: &fields, recordEnd: &recordEnd)) == true {
            if fields.count == 1 && isBlank(fields[0]) { continue }
            rows.append(fields.map { text($0).trimmingSpaces() })
        }
        return rows
    }

    /// The most fields a record has among the first ones.
    func sampleWidth(from start: Scanner) -> Int {
        sampleRecords(from: start, limit: 50).map(\.count).max() ?? 0
    }

    /// For a file without a header row: the first column that holds a date in every sampled record, the
    /// first other one that holds an amount in every record, and the one with the longest text as the description.
    func inferColumns(from start: Scanner) -> CSVColumns? {
        let rows = sampleRecords(from: start, limit: 50)
        guard rows.count >= 1, let width = rows.map(\.count).max(), width >= 3 else { return nil }
        func column(_ i: Int) -> [String] { rows.compactMap { i < $0.count ? $0[i] : nil } }
        func all(_ i: Int, _ test: (String) -> Bool) -> Bool {
            let values = column(i).filter { !$0.isEmpty }
            return values.count * 2 >= rows.count && values.allSatisfy(test)
        }
        func isDate(_ s: String) -> Bool {
            guard let t = DateTokens.of(s) else { return false }
            return t.day(in: .dmy) != nil || t.day(in: .mdy) != nil
        }
        func isAmount(_ s: String) -> Bool {
            // An amount has a decimal mark or a sign; a plain number could be a reference.
            s.contains(where: { $0 == "." || $0 == "," || $0 == "-" || $0 == "(" }) && !isDate(s)
                && (AmountParser.parse(s, decimalComma: false) != nil || AmountParser.parse(s, decimalComma: true) != nil)
        }
        guard let date = (0..<width).first(where: { all($0) { isDate($0) } }),
              let amount = (0..<width).first(where: { $0 != date && all($0) { isAmount($0) } }) else { return nil }
        let textColumns = (0..<width).filter { $0 != date && $0 != amount && !all($0) { isAmount($0) || isDate($0) } }
        func averageLength(_ i: Int) -> Int { column(i).reduce(0) { $0 + $1.count } }
        guard let description = textColumns.max(by: { averageLength($0) < averageLength($1) }) else { return nil }
        return CSVColumns(date: date, description: description, amount: amount)
    }

    /// The text of one column in the first records after `start` (for deciding what a column holds).
    func sampleValues(from start: Scanner, column: Int, limit: Int = 50) -> [String] {
        sampleRecords(from: start, limit: limit).compactMap { column < $0.count ? $0[column] : nil }
    }

    /// The order to read ambiguous dates in (`03/05/2024`), from the file's conventions, and why.
    func dateOrderHint(from start: Scanner, dateColumn: Int, decimalComma: Bool, header: [String])
        -> (order: DateFormat, reason: String, certain: Bool)
    {
        for date in sampleValues(from: start, column: dateColumn, limit: 20) where date.contains(".") {
            if let evidence = DateTokens.of(date).map(\.evidence), evidence != .ymd {
                return (.dmy, "the dates are written with dots", true)
            }
        }
        if decimalComma { return (.dmy, "the amounts use a decimal comma", false) }
        if dateColumn < header.count, !header[dateColumn].allSatisfy(\.isNumber),
           !HeaderVocabulary.englishDateNames.contains(HeaderVocabulary.normalized(header[dateColumn])),
           HeaderVocabulary.role(of: header[dateColumn])?.0 == .date {
            return (.dmy, "the header is not in English", false)
        }
        let text = String(decoding: bytes.prefix(4096), as: UTF8.self)
        if text.contains("£") || text.contains("GBP") { return (.dmy, "the amounts are in pounds", false) }
        if text.contains("€") || text.contains("EUR") { return (.dmy, "the amounts are in euros", false) }
        return (.mdy, "the usual order for dates written with /", false)
    }

    /// The account of transactions in a file without an account column: the
    /// file's name without folder and extension (`checking.csv` → `checking`).
    static func accountName(forFile path: String) -> String {
        var name = Substring(path)
        if let slash = name.lastIndex(of: "/") { name = name[name.index(after: slash)...] }
        if let dot = name.lastIndex(of: "."), dot != name.startIndex { name = name[..<dot] }
        return name.isEmpty ? "csv" : String(name)
    }

    // MARK: - fields

    /// A field's bytes as UTF-8 (Windows-1252 files are transcoded field by field).
    func slice<T>(_ f: FieldRef, _ body: (UnsafeBufferPointer<UInt8>) -> T) -> T {
        let raw = UnsafeBufferPointer(rebasing: bytes[f.start..<f.end])
        if encoding == .windows1252 && raw.contains(where: { $0 >= 0x80 }) {
            return TextEncoding.utf8(fromWindows1252: raw).withUnsafeBufferPointer(body)
        }
        return body(raw)
    }

    func trimmed(_ b: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
        var s = 0, e = b.count
        while s < e && (b[s] == 0x20 || b[s] == 0x09) { s += 1 }
        while e > s && (b[e - 1] == 0x20 || b[e - 1] == 0x09) { e -= 1 }
        return UnsafeBufferPointer(rebasing: b[s..<e])
    }

    func isBlank(_ f: FieldRef) -> Bool { slice(f) { trimmed($0).isEmpty } }

    /// The field's text, quotes undone.
    func text(_ f: FieldRef) -> String {
        slice(f) { b in
            guard f.escaped else { return String(decoding: b, as: UTF8.self) }
            return String(decoding: unescape(b), as: UTF8.self)
        }
    }

    func unescape(_ b: UnsafeBufferPointer<UInt8>) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(b.count)
        var i = 0
        while i < b.count {
            out.append(b[i])
            i += (b[i] == 0x22 && i + 1 < b.count && b[i + 1] == 0x22) ? 2 : 1
        }
        return out
    }

    /// Interns a field's text without building a String unless it is new.
    /// Unquoted fields are trimmed (bank exports pad them); spaces inside quotes are kept.
    func intern(_ f: FieldRef, into table: inout StringTable, scratch: inout [UInt8]) -> UInt32 {
        slice(f) { b in
            if f.escaped {
                scratch = unescape(b)
                return scratch.withUnsafeBufferPointer { table.intern(bytes: f.quoted ? $0 : trimmed($0)) }
            }
            return table.intern(bytes: f.quoted ? b : trimmed(b))
        }
    }

    func parseAmountField(_ f: FieldRef, decimalComma: Bool) -> (amount: Amount, symbol: String?)? {
        slice(f) { b in
            if f.escaped { return unescape(b).withUnsafeBufferPointer { AmountParser.parse($0, decimalComma: decimalComma) } }
            return AmountParser.parse(b, decimalComma: decimalComma)
        }
    }

    // MARK: - detection

    func detectLineEnding() -> [UInt8] {
        var i = 0
        var inQuotes = false
        while i < bytes.count {
            let b = bytes[i]
            if b == 0x22 { inQuotes.toggle() }
            if !inQuotes {
                if b == 0x0A { return [0x0A] }
                if b == 0x0D { return i + 1 < bytes.count && bytes[i + 1] == 0x0A ? [0x0D, 0x0A] : [0x0D] }
            }
            i += 1
        }
        return [0x0A]
    }

    /// The end of the line starting at `start` (outside quotes), or nil at end of input.
    func lineEndOffset(from start: Int) -> Int? {
        if start >= bytes.count { return nil }
        var i = start
        var inQuotes = false
        while i < bytes.count {
            let b = bytes[i]
            if b == 0x22 { inQuotes.toggle() }
            if !inQuotes && (b == 0x0A || b == 0x0D) { return i }
            i += 1
        }
        return bytes.count
    }

    func skipToNextLine(_ scanner: inout Scanner) {
        if scanner.pos < bytes.count, bytes[scanner.pos] == 0x0D { scanner.pos += 1 }
        if scanner.pos < bytes.count, bytes[scanner.pos] == 0x0A { scanner.pos += 1 }
        scanner.line += 1
    }

    /// `,`, `;` or tab: whichever occurs most often outside quotes in the line.
    func detectDelimiter(_ range: Range<Int>) -> UInt8 {
        var counts: [UInt8: Int] = [0x2C: 0, 0x3B: 0, 0x09: 0]
        var inQuotes = false
        for i in range {
            let b = bytes[i]
            if b == 0x22 { inQuotes.toggle() } else if !inQuotes, let c = counts[b] { counts[b] = c + 1 }
        }
        let best = [UInt8(0x09), 0x3B, 0x2C].max { (counts[$0] ?? 0) < (counts[$1] ?? 0) } ?? 0x2C
        return (counts[best] ?? 0) > 0 ? best : 0x2C
    }

    /// Whether amounts use a decimal comma (`1.234,56`), judged from the
    /// first thousand records: the last separator in an amount is the decimal
    /// mark, unless three digits follow it (then it is a grouping).
    func detectDecimalComma(from start: Scanner, amountColumns: [Int]) -> Bool {
        var scanner = start
        var fields: [FieldRef] = []
        var commaVotes = 0, pointVotes = 0
        var end = 0
        for _ in 0..<1000 {
            guard (try? scanner.next(into: &fields, recordEnd: &end)) == true else { break }
            for c in amountColumns where c < fields.count {
                slice(fields[c]) { b in
                    var lastSep: UInt8 = 0
                    var digitsAfter = 0
                    var seps = 0
                    var sawPoint = false, sawComma = false
                    var sawDigit = false
                    for x in b {
                        // Dots in a currency symbol before the number (`د.ا.`) are not marks.
                        if x >= 0x30 && x <= 0x39 { sawDigit = true }
                        if !sawDigit { continue }
                        if x == 0x2C || x == 0x2E {
                            lastSep = x; digitsAfter = 0; seps += 1
                            if x == 0x2C { sawComma = true } else { sawPoint = true }
                        } else if x >= 0x30 && x <= 0x39 { digitsAfter += 1 }
                    }
                    if sawPoint && sawComma {
                        if lastSep == 0x2C { commaVotes += 1 } else { pointVotes += 1 }
                    } else if lastSep == 0x2C {
                        if digitsAfter != 3 || seps > 1 && digitsAfter != 3 { commaVotes += 1 }
                    } else if lastSep == 0x2E {
                        if digitsAfter != 3 || seps == 1 { pointVotes += 1 } else { commaVotes += 1 }
                    }
                }
            }
        }
        return commaVotes > pointVotes
    }

    // MARK: - errors

    /// 1-based line and column of a byte offset, counting characters.
    func position(of offset: Int, from base: (offset: Int, line: Int) = (0, 1)) -> (line: Int, column: Int, lineStart: Int) {
        var line = base.line
        var lineStart = base.offset
        var i = base.offset
        while i < offset && i < bytes.count {
            if bytes[i] == 0x0A { line += 1; lineStart = i + 1 }
            i += 1
        }
        let prefix = UnsafeBufferPointer(rebasing: bytes[lineStart..<min(offset, bytes.count)])
        var column = String(decoding: prefix, as: UTF8.self).count + 1
        if line == 1 && bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF { column -= 1 }
        return (line, column, lineStart)
    }

    func lineText(atLine target: Int) -> String? {
        var line = 1, i = 0
        while i < bytes.count && line < target { if bytes[i] == 0x0A { line += 1 }; i += 1 }
        return lineText(from: i)
    }

    /// The line at `lineStart` for an error message (at most 4 KB of it).
    func lineText(from lineStart: Int) -> String {
        var e = lineStart
        let limit = min(bytes.count, lineStart + 4096)
        while e < limit && bytes[e] != 0x0A && bytes[e] != 0x0D { e += 1 }
        var text = String(decoding: UnsafeBufferPointer(rebasing: bytes[lineStart..<e]), as: UTF8.self)
        if text.hasPrefix("\u{FEFF}") { text.removeFirst() }
        return text
    }

    func fieldError(_ message: String, _ offset: Int, line: Int, recordStart: Int, notes: [String] = []) -> Diagnostic {
        let p = position(of: offset, from: (recordStart, line))
        let text = lineText(from: p.lineStart)
        let col = p.column - 1
        let fieldWidth = max(1, text.dropFirst(col).prefix { !"\t,;".contains($0) }.count)
        return Diagnostic(message, file: fileName, line: p.line, column: p.column, sourceLine: text,
                          span: col..<(col + min(fieldWidth, 40)), notes: notes)
    }

    func diagnostic(for error: ScanError) -> Diagnostic {
        let p = position(of: error.offset)
        let message = error.kind == .unterminatedQuote ? "quoted field is never closed" : "unexpected text after a closing quote"
        return Diagnostic(message, file: fileName, line: p.line, column: p.column,
                          sourceLine: lineText(from: p.lineStart), span: (p.column - 1)..<p.column)
    }
}
