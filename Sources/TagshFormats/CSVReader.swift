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

    /// Whether a large file may be read on two cores (the tests compare both ways).
    var readsInParallel = true
    /// From how many bytes (of a CSV file's records, of a journal or beancount main file) it is read on two cores:
    /// below, a second thread would cost more than it saves. The tests of the split lower it, so that files of a
    /// few hundred kilobytes, not 6 MB read by a debug build, are split.
    var parallelFrom = 4 << 20

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
    /// The file's bytes as the document keeps them (the array `bytes` points into), for the descriptions to be
    /// named in rather than copied; empty when they are not to be.
    var file: [UInt8] = []

    /// The table the descriptions are interned in: one that names them in the file's bytes, when those are
    /// the text (UTF-8, not transcoded from Windows-1252).
    func descriptionTable() -> StringTable {
        encoding == .utf8 && !file.isEmpty ? StringTable(sharing: file) : StringTable()
    }

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
                        // To the next quote or line feed, eight bytes at a time (a long description is most of a line).
                        pos = CSVReader.firstOf(0x22, 0x0A, 0x0A, in: bytes, from: pos)
                        if pos >= n { break }
                        if bytes[pos] == 0x22 {
                            if pos + 1 < n && bytes[pos + 1] == 0x22 { escaped = true; pos += 2; continue }
                            closed = true
                            break
                        }
                        line += 1
                        pos += 1
                    }
                    if !closed { throw ScanError(kind: .unterminatedQuote, offset: open) }
                    fields.append(FieldRef(start: start, end: pos, quoted: true, escaped: escaped))
                    pos += 1
                    if pos < n, bytes[pos] != delimiter, bytes[pos] != 0x0A, bytes[pos] != 0x0D {
                        throw ScanError(kind: .textAfterQuote, offset: pos, opened: open)
                    }
                } else {
                    pos = CSVReader.unquotedEnd(bytes, from: pos, delimiter: delimiter)
                    fields.append(FieldRef(start: start, end: pos, quoted: false, escaped: false))
                }
                if pos >= n { recordEnd = n; return true }
                let b = bytes[pos]
                if b == delimiter {
                    pos += 1
                    if fields.count == CSVReader.mostFields { throw ScanError(kind: .tooManyFields, offset: pos) }
                    continue
                }
                recordEnd = pos
                if b == 0x0D { pos += 1; if pos < n && bytes[pos] == 0x0A { pos += 1 } } else { pos += 1 }
                line += 1
                return true
            }
        }
    }

    /// Where an unquoted field that starts at `from` ends: at the first delimiter, line feed or carriage return,
    /// or the end.
    @inline(__always)
    static func unquotedEnd(_ bytes: UnsafeBufferPointer<UInt8>, from: Int, delimiter: UInt8) -> Int {
        firstOf(delimiter, 0x0A, 0x0D, in: bytes, from: from)
    }

    /// The offset of the first byte at or after `from` that is `a`, `b` or `c`, or the end. Eight bytes at a
    /// time: a byte equal to one of the three is found as a zero byte of the word xored with it repeated (the
    /// lowest flagged byte is always a true one), then the bytes left one by one.
    @inline(__always)
    static func firstOf(_ a: UInt8, _ b: UInt8, _ c: UInt8, in bytes: UnsafeBufferPointer<UInt8>, from: Int) -> Int {
        var pos = from
        let n = bytes.count
        #if _endian(little)
        if let base = bytes.baseAddress {
            let raw = UnsafeRawPointer(base)
            let ones: UInt64 = 0x0101_0101_0101_0101, highs: UInt64 = 0x8080_8080_8080_8080
            let wa = ones &* UInt64(a), wb = ones &* UInt64(b), wc = ones &* UInt64(c)
            while pos + 8 <= n {
                let w = raw.loadUnaligned(fromByteOffset: pos, as: UInt64.self)
                let x = w ^ wa, y = w ^ wb, z = w ^ wc
                let hit = ((x &- ones) & ~x | (y &- ones) & ~y | (z &- ones) & ~z) & highs
                if hit != 0 { return pos + hit.trailingZeroBitCount >> 3 }
                pos += 8
            }
        }
        #endif
        while pos < n {
            let byte = bytes[pos]
            if byte == a || byte == b || byte == c { break }
            pos += 1
        }
        return pos
    }

    /// The most fields a record may have: ten thousand, and the annotation columns a save may add to a record of
    /// that many (a file tagsh wrote always reads back). A bank export has tens; a file of 50 MB of commas is one
    /// record of 52 million empty fields, which took 115 s and 3.4 GB to refuse (each field a name to look up, a
    /// date and an amount to try). sqlite3's `.import` stops at 2,000 columns.
    static let mostFields = 10_000 + CSVWriter.Column.allCases.count

    struct ScanError: Error {
        enum Kind { case unterminatedQuote, textAfterQuote, tooManyFields }
        var kind: Kind
        var offset: Int
        /// For text after a closing quote: where its field's opening quote is.
        var opened: Int? = nil
    }

    /// Reads `bytes`, the whole content of `fileName`.
    public static func read(_ bytes: [UInt8], fileName: String, options: ReadOptions = ReadOptions())
        throws(Diagnostic) -> (ledger: Ledger, layout: CSVLayout, skipped: [Diagnostic])
    {
        // One fast pass says the usual: UTF-8 and no NUL. Only otherwise are the bytes looked at closely.
        let clean = TextEncoding.isCleanUTF8(bytes)
        if !clean, let nul = TextEncoding.firstNUL(bytes) {
            throw Diagnostic("the file holds a NUL byte, so it is not a text file", file: fileName, line: nul.line, column: nul.column)
        }
        let encoding: TextEncoding = clean || TextEncoding.firstInvalidUTF8(bytes) == nil ? .utf8 : .windows1252
        do {
            return try bytes.withUnsafeBufferPointer { buffer in
                try CSVReader(bytes: buffer, fileName: fileName, options: options, encoding: encoding, file: bytes).read()
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
        /// The description column a header's names rank first, and the one read because the first is empty.
        var movedDescription: (from: Int, to: Int)?
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
                mapped = CSVColumns(header: names).map { columns in
                    let filled = withFilledDescription(columns, header: names, below: scanner)
                    if filled.description != columns.description { movedDescription = (columns.description, filled.description) }
                    return filled
                }
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
        if let (from, to) = movedDescription, let names = header?.names, from < names.count, to < names.count {
            guesses.append("'\(names[from])' is empty in the first records: read '\(names[to])' as the description; "
                           + "--columns description=\"\(names[from])\" to read it otherwise")
        }
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
                } else if let inferred = inferColumns(from: scanner)?.columns {
                    columns = inferred
                    var first = true
                    let read = CSVReader.readAs(inferred, name: { i in
                        defer { first = false }
                        return (first ? "column " : "") + "\(i + 1)"
                    })
                    guesses.append("the file has no header row: read \(read); "
                                   + "--columns \(ColumnMap(positionsOf: inferred)) (changed as needed) to read it otherwise")
                } else {
                    // A header row whose names tagsh does not know: the columns come from what the records below it
                    // hold. Names it does know (`Description1`, `Debit Amount`) are taken for what they name. The
                    // header is the first non-empty line, or, below lines above it (a statement's title, its
                    // account), the first of the next 19 lines that names a date, a description or an amount, holds
                    // no date or amount itself, and has records below it that read; and no line above it reads as
                    // a record (a date and an amount), which would be a transaction left out.
                    let required: Set<ColumnRole> = [.date, .description, .amount, .debit, .credit]
                    var candidate = scanner
                    for k in 0..<20 {
                        let lineStart = candidate.pos
                        guard let lineEnd = lineEndOffset(from: lineStart) else { break }
                        var below = Scanner(bytes: bytes, pos: lineStart, line: candidate.line,
                                            delimiter: k == 0 ? delimiter : detectDelimiter(lineStart..<lineEnd))
                        var names: [FieldRef] = []
                        var end = 0
                        guard (try? below.next(into: &names, recordEnd: &end)) == true else { break }
                        let headerNames = names.map { text($0) }
                        let known = CSVColumns.knownRoles(headerNames)
                        let date = headerNames.contains { CSVReader.looksLikeDate($0.trimmingSpaces()) }
                        let amount = headerNames.contains { CSVReader.looksLikeAmount($0.trimmingSpaces()) }
                        let values = date || amount
                        // A record: a header below it would leave it out.
                        if k > 0 && date && amount { break }
                        if k == 0 || (!values && known.keys.contains(where: required.contains)),
                           let (inferred, found) = inferColumns(from: below, header: headerNames, known: known) {
                            guesses.append(CSVReader.unknownHeaderGuess(inferred, found: found, header: headerNames))
                            header = (headerNames, inferred, below.delimiter, candidate.line, below.pos, lineStart..<end)
                            inferredMap = ColumnMap(namesOf: inferred, header: headerNames)
                            break
                        }
                        candidate = below
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
        let scanner = Scanner(bytes: bytes, pos: header.next, line: header.line + 1, delimiter: header.delimiter)
        func hasBothSigns(_ column: Int?) -> Bool {
            guard let column else { return false }
            let values = sampleValues(from: scanner, column: column, limit: 200).compactMap { AmountParser.parse($0, decimalComma: false)?.amount }
            return values.contains { $0 < .zero } && values.contains { $0 > .zero }
        }
        let debitMixed = hasBothSigns(columns.debit), creditMixed = hasBothSigns(columns.credit)
        // A "Transaction Type" column found by its name is a direction only when it holds debit/credit words. One
        // named by `--columns` is kept: a word in it that says neither way is an error at its row, where dropping
        // the column read every amount unsigned, money out as money in.
        let directionGiven = options.columns?.entries.contains { $0.role == .direction } ?? false
        // Whether every value a sample of the column holds is a debit or credit word (or empty).
        func saysDirections(_ values: [String]) -> Bool { values.allSatisfy { $0.isEmpty || AmountParser.direction($0) != nil } }
        if let d = columns.direction, !directionGiven, !saysDirections(sampleValues(from: scanner, column: d)) {
            columns.direction = nil
        }
        // A bare `Type` column (otherwise a description of last resort, and in card exports Sale or Payment) is the
        // direction when every value it has is a debit or credit word (DR, CR), beside an amount and no direction
        // named: its DR rows were read as money in.
        if columns.direction == nil, options.columns == nil, hasHeader, columns.amount != nil,
           let t = header.names.firstIndex(where: { HeaderVocabulary.normalized($0) == "type" }), !columns.used.contains(t) {
            let values = sampleValues(from: scanner, column: t)
            if values.contains(where: { !$0.isEmpty }), saysDirections(values) {
                columns.direction = t
            }
        }
        let amountColumns = [columns.amount, columns.debit, columns.credit].compactMap { $0 }
        let decimalComma = detectDecimalComma(from: scanner, amountColumns: amountColumns)
        // The order of day and month is settled by the first date that can only be read one way; until then
        // dates are read in the order the file's conventions suggest, and re-read if a later one disagrees.
        let hint = dateOrderHint(from: scanner, dateColumn: columns.date, decimalComma: decimalComma, header: header.names)
        var st = RecordState(dateFormat: options.dateFormat ?? hint.order,
                             // Day first is the only order written with dots (05.03.2024): no guess to report.
                             dateOrderSettled: options.dateFormat != nil || hint.certain,
                             descriptions: descriptionTable())
        // `Betrag (EUR)`: the amounts are in euros, where no currency column says otherwise.
        let headerCurrency = !hasHeader || columns.currency != nil ? nil
            : amountColumns.lazy.compactMap { c in
                c < header.names.count ? HeaderVocabulary.currency(inName: header.names[c]).map { (code: $0, column: c) } : nil
            }.first
        // The annotation columns, where they are the header's last ones.
        let annotations = [columns.intent, columns.category, columns.tags, columns.notes].compactMap { $0 }
        let annotationStart = hasHeader && !annotations.isEmpty && Set(annotations) == Set(annotations.min()!..<header.names.count)
            ? annotations.min()! : 0
        let cx = RecordContext(columns: columns, decimalComma: decimalComma, debitMixed: debitMixed, creditMixed: creditMixed,
                               headerWidth: hasHeader ? header.names.count : 0, annotationStart: annotationStart,
                               headerCurrency: headerCurrency?.code)
        try readRecords(&st, from: scanner, cx)
        let ledger = st.ledger, records = st.records, skipped = st.skipped, footer = st.footer
        let footerLines = st.footerLines, leadingLines = st.leadingLines, dateFormat = st.dateFormat
        let dateOrderSettled = st.dateOrderSettled, ambiguousRows = st.ambiguousRows, onlyYearFirst = st.onlyYearFirst

        var layout = CSVLayout(
            delimiter: header.delimiter, lineEnding: lineEnding, hasBOM: hasBOM, header: header.names,
            columns: columns, headerLine: header.line, headerRange: header.range, decimalComma: decimalComma,
            dateFormat: onlyYearFirst && options.dateFormat == nil ? .ymd : dateFormat, encoding: encoding,
            records: records)
        layout.hasHeader = hasHeader
        layout.headerCurrency = headerCurrency
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
        // A description column that no record fills (BNP Paribas Fortis' `Tegenpartij`, an account number left
        // empty, was taken over `Naam van de tegenpartij`) is said, not left to show as blank merchants.
        if ledger.count > 0 && !ledger.merchants.ids.contains(where: { ledger.merchants.withUTF8($0) { !$0.isEmpty } }) {
            let d = columns.description
            let name = hasHeader && d < header.names.count ? "'\(header.names[d])'" : "\(d + 1)"
            layout.guesses.append("the description column \(name) is empty in every record; --columns description=COLUMN reads another")
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

    /// `columns`, its description moved to the next best-named description column when no sampled record fills
    /// the one its name ranks first (Nordea's `Mottagare` is empty where `Rubrik` holds the text; BNP Paribas
    /// Fortis' `Tegenpartij` is an account number left empty).
    func withFilledDescription(_ columns: CSVColumns, header: [String], below: Scanner) -> CSVColumns {
        let rows = sampleRecords(from: below, limit: 50)
        func filled(_ i: Int) -> Bool { rows.contains { i < $0.count && !$0[i].isEmpty } }
        guard !rows.isEmpty, !filled(columns.description) else { return columns }
        let others = header.indices.compactMap { i -> (rank: Int, index: Int)? in
            guard i != columns.description, !columns.used.contains(i), let (role, rank) = HeaderVocabulary.role(of: header[i]),
                  role == .description, rank < HeaderVocabulary.weakDescriptionRank else { return nil }
            return (rank, i)
        }.sorted { ($0.rank, $0.index) < ($1.rank, $1.index) }
        guard let next = others.first(where: { filled($0.index) }) else { return columns }
        var c = columns
        c.description = next.index
        return c
    }

    /// The most fields a record has among the first ones.
    func sampleWidth(from start: Scanner) -> Int {
        sampleRecords(from: start, limit: 50).map(\.count).max() ?? 0
    }

    /// The most bytes a field that reads as a date or an amount has (`Wednesday, 12 September 2024`,
    /// `-1.234.567,89 EUR`, with room to spare): a longer one is neither, and is not read as each (a 100 MB field
    /// was read character by character).
    static let longestValue = 64

    /// Whether a field reads as a date (either order of day and month).
    static func looksLikeDate(_ s: String) -> Bool {
        guard s.utf8.count <= longestValue, let t = DateTokens.of(s) else { return false }
        return t.day(in: .dmy) != nil || t.day(in: .mdy) != nil
    }

    /// Whether a field reads as an amount: it has a decimal mark or a sign (a plain number could be a reference).
    static func looksLikeAmount(_ s: String) -> Bool {
        s.utf8.count <= longestValue && s.contains(where: { $0 == "." || $0 == "," || $0 == "-" || $0 == "(" }) && !looksLikeDate(s)
            && (AmountParser.parse(s, decimalComma: false) != nil || AmountParser.parse(s, decimalComma: true) != nil)
    }

    /// For a file without a header row: the first column that holds a date in every sampled record, the
    /// first other one that holds an amount in every record, and the one with the longest text as the description.
    ///
    /// With `known` roles (what the names of a header row tagsh knows only in part give), those columns are taken
    /// as named, and only the roles missing among date, description and amount are found so, among the other
    /// columns. Returns the columns and the roles found by what the records hold.
    func inferColumns(from start: Scanner, header: [String] = [],
                      known: [ColumnRole: (index: Int, rank: Int)] = [:]) -> (columns: CSVColumns, found: [ColumnRole])? {
        let rows = sampleRecords(from: start, limit: 50)
        guard rows.count >= 1, let width = rows.map(\.count).max(), width >= 3 else { return nil }
        func column(_ i: Int) -> [String] { rows.compactMap { i < $0.count ? $0[i] : nil } }
        func all(_ i: Int, _ test: (String) -> Bool) -> Bool {
            let values = column(i).filter { !$0.isEmpty }
            return values.count * 2 >= rows.count && values.allSatisfy(test)
        }
        let isDate = CSVReader.looksLikeDate, isAmount = CSVReader.looksLikeAmount
        var roles = known
        // A description name of the weakest rank (`Type`, `Reference`, `Details`, `Label`) is not taken on its
        // own: where the other names are not all known, the column with the longest text is the description
        // (that column may be it). Taken as named, `Type` made every merchant `POS`.
        if let d = roles[.description], d.rank >= HeaderVocabulary.weakDescriptionRank { roles[.description] = nil }
        var found: [ColumnRole] = []
        // Columns named for a role beside these (a `Memo` read as notes, an `Account`) may still be found to be
        // the description (Barclays' only text column is `Memo`): then they serve as that alone.
        let core: Set<ColumnRole> = [.date, .description, .amount, .debit, .credit, .direction, .fee]
        let named = Set(roles.filter { core.contains($0.key) }.map(\.value.index))
        func free(_ i: Int) -> Bool { !named.contains(i) && !found.contains { roles[$0]?.index == i } }
        if roles[.date] == nil {
            guard let date = (0..<width).first(where: { free($0) && all($0) { isDate($0) } }) else { return nil }
            roles[.date] = (date, 9)
            found.append(.date)
        }
        if roles[.amount] == nil && roles[.debit] == nil && roles[.credit] == nil {
            guard let amount = (0..<width).first(where: { free($0) && all($0) { isAmount($0) } }) else { return nil }
            // Money out and money in side by side (`Debit,Credit`, `Paid out,Paid in`): the next column holds only
            // amounts too, neither holds a negative one (a signed amount beside a fee or a balance is no pair), and
            // every record has an amount in exactly one of the two. The first is taken as the money out, as banks
            // order them.
            let next = amount + 1
            func unsigned(_ i: Int) -> Bool { column(i).allSatisfy { !$0.contains("-") && !$0.contains("(") } }
            if next < width, free(next), rows.contains(where: { next < $0.count && !$0[next].isEmpty }),
               column(next).allSatisfy({ $0.isEmpty || isAmount($0) }), unsigned(amount), unsigned(next),
               rows.allSatisfy({ (amount >= $0.count || $0[amount].isEmpty) != (next >= $0.count || $0[next].isEmpty) }) {
                roles[.debit] = (amount, 9)
                roles[.credit] = (next, 9)
                found += [.debit, .credit]
            } else {
                roles[.amount] = (amount, 9)
                found.append(.amount)
            }
        }
        if roles[.description] == nil {
            var textColumns = (0..<width).filter { free($0) && !all($0) { isAmount($0) || isDate($0) } }
            // A column with the same number in every record (the account's own, Triodos: six digits or more)
            // names no merchant. (The same name in every record may: a file of rent payments.)
            func accountNumber(_ i: Int) -> Bool {
                let values = Set(column(i))
                return values.count == 1 && values.first.map { $0.filter(\.isNumber).count >= 6 } == true
            }
            let notAccounts = textColumns.filter { !accountNumber($0) }
            if rows.count > 1 && !notAccounts.isEmpty { textColumns = notAccounts }
            func averageLength(_ i: Int) -> Int { column(i).reduce(0) { $0 + $1.count } }
            guard let description = textColumns.max(by: { averageLength($0) < averageLength($1) }) else { return nil }
            roles[.description] = (description, 9)
            found.append(.description)
        }
        let foundColumns = Set(found.compactMap { roles[$0]?.index })
        for (role, column) in roles where !core.contains(role) && foundColumns.contains(column.index) { roles[role] = nil }
        return CSVColumns(roles: roles, header: header).map { ($0, found) }
    }

    /// What `open` says of a header row whose names tagsh does not all know: which column it read as each of
    /// date, description and amount (or debit and credit), and which it found by what the records hold.
    static func unknownHeaderGuess(_ c: CSVColumns, found: [ColumnRole], header: [String]) -> String {
        let allFound = found.contains(.date) && found.contains(.description) && (found.contains(.amount) || found.contains(.debit))
        let read = readAs(c, name: { i in i < header.count ? "'\(header[i])'" : "\(i + 1)" },
                          note: { role in found.contains(role) && !allFound ? " (by what it holds)" : "" })
        return (allFound ? "tagsh does not know this header's names" : "tagsh knows only some of this header's names")
            + ": read " + read + "; --columns to read it otherwise"
    }

    /// `'A' as the date, 'B' as the description and 'C' as the amount` (or `'C' as the debit and 'D' as the
    /// credit`), each column named by `name`.
    static func readAs(_ c: CSVColumns, name: (Int) -> String, note: (ColumnRole) -> String = { _ in "" }) -> String {
        var parts = [name(c.date) + " as the date" + note(.date), name(c.description) + " as the description" + note(.description)]
        if let a = c.amount {
            parts.append(name(a) + " as the amount" + note(.amount))
            if let d = c.direction { parts.append(name(d) + " as the direction" + note(.direction)) }
        } else {
            if let d = c.debit { parts.append(name(d) + " as the debit" + note(.debit)) }
            if let k = c.credit { parts.append(name(k) + " as the credit" + note(.credit)) }
        }
        return parts.dropLast().joined(separator: ", ") + " and " + parts.last!
    }

    /// The text of one column in the first records after `start` (for deciding what a column holds).
    func sampleValues(from start: Scanner, column: Int, limit: Int = 50) -> [String] {
        sampleRecords(from: start, limit: limit).compactMap { column < $0.count ? $0[column] : nil }
    }

    /// The order to read ambiguous dates in (`03/05/2024`), from the file's conventions, and why.
    func dateOrderHint(from start: Scanner, dateColumn: Int, decimalComma: Bool, header: [String])
        -> (order: DateFormat, reason: String, certain: Bool)
    {
        // (A field longer than any date is none: a 50 MB one was looked through a character at a time, 2 s.)
        for date in sampleValues(from: start, column: dateColumn, limit: 20)
        where date.utf8.count <= CSVReader.longestValue && date.utf8.contains(UInt8(ascii: ".")) {
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

    @inline(__always)
    func trimmed(_ b: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
        // Most fields have nothing to trim: one look at each end says so.
        guard let first = b.first, let last = b.last, first == 0x20 || first == 0x09 || last == 0x20 || last == 0x09 else { return b }
        var s = 0, e = b.count
        while s < e && (b[s] == 0x20 || b[s] == 0x09) { s += 1 }
        while e > s && (b[e - 1] == 0x20 || b[e - 1] == 0x09) { e -= 1 }
        return UnsafeBufferPointer(rebasing: b[s..<e])
    }

    func isBlank(_ f: FieldRef) -> Bool { slice(f) { trimmed($0).isEmpty } }

    /// The error for a money field (`name`: amount, debit or credit) of a record wider than its header, when it and
    /// the field after it look like one amount cut at a comma written without quotes (`cutAmount`); nil otherwise.
    func cutAmountError(_ name: String, _ f: FieldRef, at index: Int, of fields: [FieldRef], width: Int, _ cx: RecordContext, line: Int,
                        recordStart: Int) -> Diagnostic? {
        guard index + 1 < fields.count, !f.escaped, !fields[index + 1].escaped, let joined = cutAmount(f, fields[index + 1]) else { return nil }
        return fieldError("cannot read \(name) \(quotedValue(text(f))): it and the field after it look like one amount, \(joined), "
                          + "written without quotes (the record has \(fields.count) fields where the header has \(width)"
                          + (width < cx.headerWidth ? " before its annotation columns)" : ")"),
                          f.start, line: line, recordStart: recordStart,
                          notes: ["hint: an amount holding a comma is written in quotes (\"\(joined)\")"
                                  + (options.skipBad ? "" : "; --skip-bad loads the other records")])
    }

    /// `-1,200.00` when an amount of whole units (`-1`, `$1`, `(1`) and the field after it, digits with or without
    /// a fraction (`200.00`, `34`), look like one amount cut at a comma; nil otherwise.
    func cutAmount(_ amount: FieldRef, _ next: FieldRef) -> String? {
        let whole = slice(amount) { b in
            let t = trimmed(b)
            return t.contains { $0 >= 0x30 && $0 <= 0x39 } && !t.contains { $0 == 0x2E || $0 == 0x2C }
                && t.last.map { $0 >= 0x30 && $0 <= 0x39 } == true
        }
        guard whole else { return nil }
        let digits = slice(next) { b in
            var t = Array(trimmed(b))
            if t.last == 0x29 { t.removeLast() } // `(1,200.00)`
            guard let first = t.first, first >= 0x30 && first <= 0x39 else { return false }
            var dots = 0
            for c in t {
                if c == 0x2E { dots += 1; continue }
                guard c >= 0x30 && c <= 0x39 else { return false }
            }
            return dots <= 1 && t.last != 0x2E
        }
        guard digits else { return nil }
        return text(amount).trimmingCharacters(in: " \t") + "," + text(next).trimmingCharacters(in: " \t")
    }

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

    /// The text `intern` looks up for the field, when it is the field's bytes as they are (nil for a field with
    /// doubled quotes, or in a file transcoded from Windows-1252): what `prefetch` hashes and `intern(hash:)` interns.
    @inline(__always)
    func textInPlace(_ f: FieldRef) -> UnsafeBufferPointer<UInt8>? {
        guard !f.escaped, encoding == .utf8 else { return nil }
        let b = UnsafeBufferPointer(rebasing: bytes[f.start..<f.end])
        return f.quoted ? b : trimmed(b)
    }

    /// `table.prefetch` of the field's text in place (0 when it is not read in place).
    @inline(__always)
    func prefetch(_ f: FieldRef, in table: inout StringTable) -> UInt64 {
        textInPlace(f).map { table.prefetch($0) } ?? 0
    }

    /// `intern`, with the hash `prefetch(f, in: table)` gave (0: none).
    func intern(_ f: FieldRef, into table: inout StringTable, hash: UInt64, scratch: inout [UInt8]) -> UInt32 {
        guard hash != 0, let text = textInPlace(f) else { return intern(f, into: &table, scratch: &scratch) }
        return table.intern(bytes: text, hash: hash)
    }

    /// `intern`, first comparing the field with the text the same column gave last (`last`, 0 for none): columns
    /// such as the currency, the account or the category repeat from row to row, and comparing a few bytes costs
    /// less than a hash and a probe.
    func intern(_ f: FieldRef, into table: inout StringTable, last: inout UInt32, scratch: inout [UInt8]) -> UInt32 {
        if last != 0 && !f.escaped {
            let previous = last
            if slice(f, { table.text(of: previous, is: f.quoted ? $0 : trimmed($0)) }) { return last }
        }
        last = intern(f, into: &table, scratch: &scratch)
        return last
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
        // (Counted in three variables: in a dictionary, a byte took 30 ns, a third of a second for a 10 MB line.)
        var commas = 0, semicolons = 0, tabs = 0
        var inQuotes = false
        for i in range {
            switch bytes[i] {
            case 0x22: inQuotes.toggle()
            case 0x2C where !inQuotes: commas += 1
            case 0x3B where !inQuotes: semicolons += 1
            case 0x09 where !inQuotes: tabs += 1
            default: break
            }
        }
        // The most often; on a tie, tab before `;` before `,`; `,` when there is none.
        if tabs > 0 && tabs >= semicolons && tabs >= commas { return 0x09 }
        if semicolons > 0 && semicolons >= commas { return 0x3B }
        return 0x2C
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
        let message = switch error.kind {
        case .unterminatedQuote: "quoted field is never closed"
        case .textAfterQuote: "unexpected text after a closing quote"
        case .tooManyFields: "more than \(CSVReader.mostFields) fields in one record: tagsh reads at most that many (a bank export has tens)"
        }
        // A quote left open on an earlier line runs over the line ends to the next quote, which is where the error
        // shows: the note names the line the field began on, where the mistake most likely is.
        var notes: [String] = []
        if let opened = error.opened, case let o = position(of: opened), o.line < p.line {
            notes.append("note: the quoted field it closes began at line \(o.line), column \(o.column): a quote left open there "
                         + "takes the line ends after it into the field")
        }
        return Diagnostic(message, file: fileName, line: p.line, column: p.column,
                          sourceLine: lineText(from: p.lineStart), span: (p.column - 1)..<p.column, notes: notes)
    }
}
