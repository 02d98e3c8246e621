import TagshModel

/// The record loop of `CSVReader`: what it keeps from record to record, a
/// byte range read at a time, and the driver that reads the two halves of a
/// large file on two cores at once.
extension CSVReader {
    /// What reading records keeps from one record to the next.
    struct RecordState {
        var ledger = Ledger()
        var records = RecordOffsets()
        var skipped: [Diagnostic] = []
        var dateFormat: DateFormat
        var dateOrderSettled: Bool
        /// Rows whose date reads either way while the order of day and month is not settled.
        var ambiguousRows: [Int32] = []
        var onlyYearFirst = true
        var footer: (line: Int, error: Diagnostic, blankDate: Bool)?
        var footerLines = 0
        var leadingLines: [Int] = []
        var defaultAccount: UInt32?
        var scratch: [UInt8] = []
        // Annotation fields repeat: each distinct raw value is parsed once,
        // then looked up by its bytes (ids map to tag sets, categories, intents).
        var rawTags = StringTable(), tagSetOfRaw: [UInt32] = [0]
        var rawCategories = StringTable(), categoryOfRaw: [UInt32] = [0]
        var rawIntents = StringTable(), intentOfRaw: [UInt8] = [0]
        /// How many records the reading expects (`reserve`), without the room to spare: how many descriptions the
        /// table makes slots for once most of them turn out new (see `parseRecords`).
        var expectedRecords = 0

        init(dateFormat: DateFormat, dateOrderSettled: Bool, descriptions: StringTable) {
            self.dateFormat = dateFormat
            self.dateOrderSettled = dateOrderSettled
            ledger.merchants = descriptions
        }

        /// The records an estimate with room to spare (`estimatedRecords`) expects, without the room.
        static func expected(_ estimate: Int) -> Int { estimate - estimate / 9 }

        /// Room for about `n` records in `bytes` bytes: the descriptions, which may be as many as the records,
        /// take no more bytes than the records do (unless a Windows-1252 file's grow as UTF-8: then their text
        /// grows as it would have without the room).
        mutating func reserve(_ n: Int, bytes: Int) {
            expectedRecords = RecordState.expected(n)
            ledger.reserveCapacity(n)
            ledger.merchants.reserveCapacity(bytes: bytes, count: n)
            records.reserveCapacity(n)
        }
    }

    /// What every record is read with, settled before the first.
    struct RecordContext {
        var columns: CSVColumns
        var decimalComma: Bool
        var debitMixed: Bool
        var creditMixed: Bool
        /// How many fields the header row has; 0 without one.
        var headerWidth = 0
        /// Where the annotation columns begin when they are the header's last (as a save adds them); 0 otherwise.
        var annotationStart = 0
        /// The currency the amount column's name gives (`Betrag (EUR)`), for amounts without one of their own.
        var headerCurrency: String?

        /// The width a record of `count` fields is wider than, where its money fields may have been cut at an unquoted
        /// comma: the header's, or the header's before its annotation columns for a record that does not reach them
        /// (a record `--skip-bad` skipped keeps its line when a save adds the annotation columns, so its moved fields
        /// land in them); nil where it is not wider.
        @inline(__always)
        func widthPassed(by count: Int) -> Int? {
            if count > headerWidth { return headerWidth > 0 ? headerWidth : nil }
            return annotationStart > 0 && count > annotationStart && count < headerWidth ? annotationStart : nil
        }
    }

    /// From how many tag sets a reading collects the new ones to intern them at once (see `parseRecords`): 65,536
    /// sets have 131,072 slots, a megabyte. Below it, collecting them only costs.
    static let batchTagSetsFrom = 1 << 16
    /// Every how many rows a reading settles again whether a Tags field is looked up whole (see `parseRecords`).
    static let tagWindow = 8192

    /// Reads every record from `start` to the end of the file into `st`.
    ///
    /// A large file is read in two halves at once: the first from `start`, the second from the first line end
    /// after the middle, with its own intern tables. The second half is kept only when reading it alone gave
    /// what reading on from the first would have: the first half ended exactly where the second began (so the
    /// split was not inside a quoted field), neither half failed, no line without a date was left pending at the
    /// split, and both read dates in the same order (the one the file started with, or the other, settled in
    /// each half). Otherwise the rest is read again from
    /// where the first half ended, as on one core, so the result never depends on the split.
    func readRecords(_ st: inout RecordState, from start: Scanner, _ cx: RecordContext) throws(Diagnostic) {
        var scanner = start
        let n = bytes.count
        st.reserve(estimatedRecords(from: start.pos, to: n), bytes: n - start.pos)
        if options.readsInParallel, !options.skipBad, n - start.pos >= options.parallelFrom,
           let split = lineStart(after: start.pos + (n - start.pos) / 2) {
            // The first half makes slots for its own descriptions only: the second's are made room for when it
            // joins, on the other core (`StringTable.merge`), in memory its reading has freed there.
            st.expectedRecords = RecordState.expected(estimatedRecords(from: start.pos, to: split))
            let secondStart = RecordState(dateFormat: st.dateFormat, dateOrderSettled: st.dateOrderSettled, descriptions: descriptionTable())
            let secondScanner = Scanner(bytes: bytes, pos: split, line: 0, delimiter: start.delimiter)
            let (_, second) = try Parallel.alongside({ () -> (state: RecordState, failed: Diagnostic?) in
                var state = secondStart
                var scanner = secondScanner
                state.reserve(estimatedRecords(from: split, to: n), bytes: n - split)
                do throws(Diagnostic) { try parseRecords(&state, &scanner, limit: n, cx) } catch { return (state, error) }
                return (state, nil)
            }, { () throws(Diagnostic) in try parseRecords(&st, &scanner, limit: split, cx) })
            // Both halves read dates in the same order: the one the file started with, or the other, settled in
            // both (a half that changed the order settled it, and swapped its own rows read before). Reading on
            // from the first half would have read the second so. (A short-row export with dates like 02/08/24
            // settles day first in each half long after its first rows: kept only when neither changed the order,
            // its second half was read again on one core, a third of the open.)
            if second.failed == nil, scanner.pos == split, st.footer == nil, second.state.leadingLines.isEmpty,
               st.dateFormat == second.state.dateFormat {
                merge(second.state, into: &st, lineOffset: scanner.line)
                return
            }
        }
        try parseRecords(&st, &scanner, limit: n, cx)
    }

    /// About how many records `bytes[from..<to]` hold, and an eighth more: the lines of its first 64 KB, as if
    /// the rest were alike. Room a reading reserves is address space until it is written, but room too small is
    /// copied into fresh memory when it runs out, and fresh memory is slow to touch: reserved at 60 bytes a
    /// record, a 1M-row European export (53 bytes a record) outgrew both halves' columns, and joining the
    /// halves copied the first half's into new ones (a tenth of the open, by `perf`, in the kernel zeroing pages).
    func estimatedRecords(from: Int, to: Int) -> Int {
        let sample = min(to - from, 1 << 16)
        guard sample > 0 else { return 0 }
        var lines = 0
        for i in from..<(from + sample) where bytes[i] == 0x0A { lines += 1 }
        // (A record is a dozen bytes at the least: three fields and their separators.)
        let perRecord = max(12, sample / max(1, lines))
        let records = (to - from) / perRecord + 1
        return records + records / 8
    }

    /// The offset just past the first line end at or after `offset`, if it leaves records to read.
    func lineStart(after offset: Int) -> Int? {
        var i = offset
        while i < bytes.count && bytes[i] != 0x0A { i += 1 }
        return i + 1 < bytes.count ? i + 1 : nil
    }

    /// Appends the second half's rows and state to the first's, as reading on from the first would have left them.
    func merge(_ other: RecordState, into st: inout RecordState, lineOffset: Int) {
        let offset = st.ledger.count
        st.ledger.append(rowsOf: other.ledger)
        st.records.append(contentsOf: other.records)
        st.onlyYearFirst = st.onlyYearFirst && other.onlyYearFirst
        // Once the order is settled, earlier ambiguous rows no longer matter (and none were re-read: the format never changed).
        if st.dateOrderSettled || other.dateOrderSettled {
            st.dateOrderSettled = true
            st.ambiguousRows = []
        } else {
            st.ambiguousRows += other.ambiguousRows.map { $0 + Int32(offset) }
        }
        if var f = other.footer {
            f.line += lineOffset
            st.footer = f
        }
        st.footerLines = other.footerLines
    }

    /// The tags of a Tags field, interned straight from its bytes: split on `;`, each name trimmed, empty ones and
    /// repeats (in any case) left out, in order, as `Ledger.internTagSet` does with strings. (A method of its own
    /// so that `parseRecords` captures none of its locals in a closure: that would box them and check every access.)
    func internTags(_ f: FieldRef, into tags: inout StringTable, names: inout ShortNames, ids: inout [UInt32]) {
        ids.removeAll(keepingCapacity: true)
        slice(f) { raw in
            let unescaped = f.escaped ? unescape(raw) : []
            unescaped.withUnsafeBufferPointer { u in
                let b = f.escaped ? u : raw
                var i = 0
                while i <= b.count {
                    var j = i
                    while j < b.count && b[j] != 0x3B { j += 1 }
                    let name = trimmed(UnsafeBufferPointer(rebasing: b[i..<j]))
                    if !name.isEmpty {
                        let id = names.id(of: name) { tags.intern(bytes: name) }
                        if !ids.contains(id) { ids.append(id) }
                    }
                    i = j + 1
                }
            }
        }
    }

    /// Field `i` of a record, nil when the record is shorter.
    @inline(__always)
    static func field(_ i: Int, of fields: [FieldRef]) -> FieldRef? { i < fields.count ? fields[i] : nil }

    /// Reads the records from `scanner` up to the first that starts at or after `limit`.
    func parseRecords(_ st: inout RecordState, _ scanner: inout Scanner, limit: Int, _ cx: RecordContext) throws(Diagnostic) {
        let columns = cx.columns, decimalComma = cx.decimalComma, debitMixed = cx.debitMixed, creditMixed = cx.creditMixed
        let badIntent: UInt8 = 0xFF
        let required = max(columns.date, columns.description, columns.amount ?? 0)
        var fields: [FieldRef] = []
        // The state as locals, moved out of `st` (so nothing is copied) and back when this returns or throws.
        var ledger = Ledger(), records = RecordOffsets(), skipped: [Diagnostic] = []
        swap(&ledger, &st.ledger); swap(&records, &st.records); swap(&skipped, &st.skipped)
        var dateFormat = st.dateFormat, dateOrderSettled = st.dateOrderSettled, onlyYearFirst = st.onlyYearFirst
        var ambiguousRows: [Int32] = [], leadingLines: [Int] = []
        swap(&ambiguousRows, &st.ambiguousRows); swap(&leadingLines, &st.leadingLines)
        var footer = st.footer, footerLines = st.footerLines, defaultAccount = st.defaultAccount
        var scratch: [UInt8] = [], tagIDs: [UInt32] = [], tagNames = ShortNames()
        // What the currency, account, intent and category columns gave last (see `intern(_:into:last:scratch:)`).
        var lastCurrency: UInt32 = 0, lastAccount: UInt32 = 0, lastIntent: UInt32 = 0, lastCategory: UInt32 = 0
        // The currencies up to this id have been looked at (see where a currency column is read).
        var checkedCurrencies: UInt32 = 0
        // A direction column's words (`D`, `C`, `Af`, `Bij`), each read once (`AmountParser.direction`, 0 when it is
        // not a direction), then looked up by their bytes: read from a `String` every row, they cost a tenth of the
        // processor time of opening a 1M-row Swedbank export.
        var rawDirections = StringTable(), directionOfRaw: [Int8] = [0], lastDirection: UInt32 = 0
        var lastSymbol = "", lastSymbolID: UInt32 = 0
        // Whether a Tags field is looked up whole (`rawTags`) before it is split: worth it while most rows repeat
        // a list seen before. Settled again every `tagWindow` rows by what the last ones showed: off when more than
        // half of their lists were new, on again when fewer than a quarter made a new set (only before sets are
        // collected: a set looked up whole is interned at once, and would take an id ahead of those collected).
        var cacheRawTags = true
        // (Rows left in the window, counted here: `ledger.count`, a property of another module, copied the whole
        // ledger value to read it, every row.)
        var windowLeft = CSVReader.tagWindow, windowTagged = 0, windowNew = 0, windowSets = ledger.tagSets.count
        // Whether the descriptions' slots are settled: once a window's descriptions are mostly new (a reference or a
        // number in each), the table gets slots for every record expected at once (`reserveSlots`); doubling on the
        // way placed each description again, and the first half's table doubled once more when the second joined
        // it, while the other core waited.
        let expectedRecords = st.expectedRecords
        var descriptionSlotsSettled = expectedRecords == 0, windowDescriptions = ledger.merchants.count
        swap(&scratch, &st.scratch)
        var rawTags = StringTable(), rawCategories = StringTable(), rawIntents = StringTable()
        var tagSetOfRaw: [UInt32] = [], categoryOfRaw: [UInt32] = [], intentOfRaw: [UInt8] = []
        swap(&rawTags, &st.rawTags); swap(&rawCategories, &st.rawCategories); swap(&rawIntents, &st.rawIntents)
        swap(&tagSetOfRaw, &st.tagSetOfRaw); swap(&categoryOfRaw, &st.categoryOfRaw); swap(&intentOfRaw, &st.intentOfRaw)
        defer {
            swap(&ledger, &st.ledger); swap(&records, &st.records); swap(&skipped, &st.skipped)
            st.dateFormat = dateFormat; st.dateOrderSettled = dateOrderSettled; st.onlyYearFirst = onlyYearFirst
            swap(&ambiguousRows, &st.ambiguousRows); swap(&leadingLines, &st.leadingLines)
            st.footer = footer; st.footerLines = footerLines; st.defaultAccount = defaultAccount
            swap(&scratch, &st.scratch)
            swap(&rawTags, &st.rawTags); swap(&rawCategories, &st.rawCategories); swap(&rawIntents, &st.rawIntents)
            swap(&tagSetOfRaw, &st.tagSetOfRaw); swap(&categoryOfRaw, &st.categoryOfRaw); swap(&intentOfRaw, &st.intentOfRaw)
        }

        // Once most rows' tags are a set of their own (see `cacheRawTags`) and the sets are many (their slots no
        // longer fit in the cache), the rest are interned all at once when these records are read
        // (`TagSetTable.intern(all:)`, in the order of their slots: one after another, each new set of a million
        // waited on its slot), with the same ids; meanwhile a row holds its set's pending index with the top bit
        // set. (Resolved in a `defer`, not a nested function: a function capturing `ledger` would box it, and
        // check every access to it in this loop.)
        let pendingMark: UInt32 = 1 << 31
        var pendingSets = PendingTagSets(), firstPendingRow = -1
        defer {
            if pendingSets.count > 0 {
                let ids = ledger.tagSets.intern(all: pendingSets)
                ledger.tagSet.withUnsafeMutableBufferPointer { column in
                    for r in firstPendingRow..<column.count where column[r] & pendingMark != 0 {
                        column[r] = ids[Int(column[r] & ~pendingMark)]
                    }
                }
            }
        }
        while scanner.pos < limit {
            let recordStart = scanner.pos
            let recordLine = scanner.line
            var recordEnd = 0
            do {
                guard try scanner.next(into: &fields, recordEnd: &recordEnd) else { break }
            } catch {
                let d = diagnostic(for: error)
                if options.skipBad && error.kind != .unterminatedQuote {
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
            // The slots of the description and of the Tags field (when it is looked up whole) in their tables start
            // loading now, and are read when they are interned, after the rest of the record: with a million
            // descriptions, or tens of thousands of lists of tags, the tables do not fit in the cache.
            var descriptionHash: UInt64 = 0, tagsHash: UInt64 = 0
            if columns.description < fields.count { descriptionHash = prefetch(fields[columns.description], in: &ledger.merchants) }
            if cacheRawTags, let c = columns.tags, c < fields.count { tagsHash = prefetch(fields[c], in: &rawTags) }

            // A line whose date column holds no date at all (`***END OF FILE***`, a totals line) may be a footer:
            // it is one if no transaction follows it.
            // The date is read once here; only a row whose date does not read is tokenized again.
            // (Closures here capture constants only: a captured variable would be boxed and its every access checked.)
            let format = dateFormat
            let dateRead: Day? = columns.date < fields.count ? slice(fields[columns.date]) { format.parse($0) } : nil
            let notARecord = dateRead == nil && (columns.date >= fields.count || slice(fields[columns.date]) { DateTokens($0) == nil })
            if notARecord {
                if footer == nil {
                    let error = columns.date < fields.count
                        ? fieldError("cannot read date \(quotedValue(text(fields[columns.date])))", fields[columns.date].start, line: recordLine,
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
            // (Looked at only when a line was left pending: the optional tuple, a `Diagnostic` in it, was tested
            // through the runtime three times a record, a fortieth of opening an export of short records.)
            if footerLines > 0 {
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
                            let settled = evidence
                            parsedDay = slice(dateField) { settled.parse($0) }
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
                    throw fieldError("cannot read date \(quotedValue(text(dateField))) as \(yearFirst ? DateFormat.ymd : dateFormat)",
                                     dateField.start, line: recordLine, recordStart: recordStart,
                                     notes: ["hint: --date-format sets how dates are written, e.g. %d/%m/%Y, %m/%d/%y, %d %b %Y or %Y-%m-%dT%H:%M:%S"
                                             + (options.skipBad ? "" : "; --skip-bad loads the other records")])
                }

                var amount: Amount
                var symbol: String?
                var pending = false
                if let a = columns.amount {
                    let f = Self.field(a, of: fields)
                    // (Not `f.map(isBlank)`: the method as a closure copied the reader, and retained its fields, every row.)
                    var blank = true
                    if let f { blank = isBlank(f) }
                    if blank {
                        // Listed without an amount yet: kept, and marked pending.
                        amount = .zero
                        pending = true
                    } else {
                        // An amount written with a comma and no quotes in a comma-separated file is cut there: `-1,200.00`
                        // read as -1, with 200.00 moved into the next column (and every field after it on by one).
                        if let f, scanner.delimiter == 0x2C, let width = cx.widthPassed(by: fields.count),
                           let error = cutAmountError("amount", f, at: a, of: fields, width: width, cx, line: recordLine, recordStart: recordStart) {
                            throw error
                        }
                        guard let f, let parsed = parseAmountField(f, decimalComma: decimalComma) else {
                            let at = f ?? fields[fields.count - 1]
                            throw fieldError("cannot read amount \(quotedValue(f.map { text($0) } ?? ""))", f?.start ?? at.end,
                                             line: recordLine, recordStart: recordStart,
                                             notes: options.skipBad ? [] : ["hint: --columns amount=N reads another column; --skip-bad loads the other records"])
                        }
                        amount = parsed.amount
                        symbol = parsed.symbol
                    }
                    if let d = columns.direction, let f = Self.field(d, of: fields), !isBlank(f) {
                        let raw = intern(f, into: &rawDirections, last: &lastDirection, scratch: &scratch)
                        if Int(raw) == directionOfRaw.count { directionOfRaw.append(Int8(AmountParser.direction(rawDirections[raw]) ?? 0)) }
                        let sign = directionOfRaw[Int(raw)]
                        guard sign != 0 else {
                            throw fieldError("cannot tell money in from money out: \(quotedValue(text(f)))", f.start,
                                             line: recordLine, recordStart: recordStart)
                        }
                        amount = sign < 0 ? -amount.magnitude : amount.magnitude
                    }
                    if let c = columns.fee, !columns.amountIsNet, let f = Self.field(c, of: fields), !isBlank(f),
                       let fee = parseAmountField(f, decimalComma: decimalComma) {
                        guard let net = amount.adding(-fee.amount.magnitude) else {
                            throw fieldError("the amount less the fee \(quotedValue(text(f))) is more than an amount holds (64 bits)", f.start,
                                             line: recordLine, recordStart: recordStart)
                        }
                        amount = net
                    }
                } else {
                    var total: Amount = .zero
                    var any = false
                    // (Debit, then credit, by a counter: a list of the two columns was an array made and freed every row.)
                    for side in 0..<2 {
                        let isDebit = side == 0
                        guard let index = isDebit ? columns.debit : columns.credit, let f = Self.field(index, of: fields), !isBlank(f) else { continue }
                        // (A debit of `1,200.00` unquoted was read as 1, and its 200.00 as the credit.)
                        if scanner.delimiter == 0x2C, let width = cx.widthPassed(by: fields.count),
                           let error = cutAmountError(isDebit ? "debit" : "credit", f, at: index, of: fields, width: width, cx,
                                                      line: recordLine, recordStart: recordStart) {
                            throw error
                        }
                        guard let parsed = parseAmountField(f, decimalComma: decimalComma) else {
                            throw fieldError("cannot read \(isDebit ? "debit" : "credit") \(quotedValue(text(f)))", f.start,
                                             line: recordLine, recordStart: recordStart)
                        }
                        // A debit column holds money out and a credit column money in, whichever sign the bank
                        // writes them with; a column with both signs is signed already (charges positive).
                        let mixed = isDebit ? debitMixed : creditMixed
                        let v = isDebit ? (mixed ? -parsed.amount : -parsed.amount.magnitude)
                                        : (mixed ? parsed.amount : parsed.amount.magnitude)
                        // (The first side is the total as it is: adding it to zero widened both to 128 bits.)
                        if any {
                            guard let sum = total.adding(v) else {
                                throw fieldError("the debit and credit together are more than an amount holds (64 bits)", f.start,
                                                 line: recordLine, recordStart: recordStart)
                            }
                            total = sum
                        } else {
                            total = v
                        }
                        symbol = symbol ?? parsed.symbol
                        any = true
                    }
                    // Neither debit nor credit: listed without an amount yet (pending).
                    pending = !any
                    amount = total
                }

                var currency: UInt32 = 0
                if let c = columns.currency, let f = Self.field(c, of: fields), !isBlank(f) {
                    currency = intern(f, into: &ledger.currencies, last: &lastCurrency, scratch: &scratch)
                    // Each currency is looked at once, when it is first met (ids are given in order). One with a digit is
                    // no code or symbol: most likely an amount written `12,3,4` unquoted, its fields moved on by one.
                    if currency > checkedCurrencies {
                        checkedCurrencies = currency
                        if ledger.currencies[currency].utf8.contains(where: { $0 >= 0x30 && $0 <= 0x39 }) {
                            let d = scanner.delimiter == 0x09 ? "tab" : "'\(Character(UnicodeScalar(scanner.delimiter)))'"
                            throw fieldError("cannot read currency \(quotedValue(text(f))): a currency is a code or a symbol (EUR, $), "
                                             + "without digits", f.start, line: recordLine, recordStart: recordStart,
                                             notes: ["hint: a \(d) inside a field that is not quoted moves the fields after it on by one; "
                                                     + "--columns currency=N reads another column"
                                                     + (options.skipBad ? "" : "; --skip-bad loads the other records")])
                        }
                    }
                } else if let symbol = symbol ?? cx.headerCurrency {
                    // (The symbol the last amount had, kept with its id: interning a `String` every row hashed it.)
                    if symbol != lastSymbol { (lastSymbol, lastSymbolID) = (symbol, ledger.currencies.intern(symbol)) }
                    currency = lastSymbolID
                }
                let account: UInt32
                if let c = columns.account, let f = Self.field(c, of: fields), !isBlank(f) {
                    account = intern(f, into: &ledger.accounts, last: &lastAccount, scratch: &scratch)
                } else if let defaultAccount {
                    account = defaultAccount
                } else {
                    account = ledger.accounts.intern(Self.accountName(forFile: fileName))
                    defaultAccount = account
                }
                var intent: Intent?
                if let c = columns.intent, let f = Self.field(c, of: fields), !isBlank(f) {
                    let raw = intern(f, into: &rawIntents, last: &lastIntent, scratch: &scratch)
                    if Int(raw) == intentOfRaw.count {
                        let t = rawIntents[raw]
                        intentOfRaw.append(t.lowercased() == "none" ? 0 : Intent(name: t)?.rawValue ?? badIntent)
                    }
                    let value = intentOfRaw[Int(raw)]
                    if value == badIntent {
                        throw fieldError("unknown intent \(quotedValue(rawIntents[raw])): use need, want, culture, unexpected or leave it empty",
                                         f.start, line: recordLine, recordStart: recordStart)
                    }
                    intent = Intent(rawValue: value)
                }
                var category: UInt32 = 0
                if let c = columns.category, let f = Self.field(c, of: fields), !isBlank(f) {
                    let raw = intern(f, into: &rawCategories, last: &lastCategory, scratch: &scratch)
                    if Int(raw) == categoryOfRaw.count { categoryOfRaw.append(ledger.categories.intern(rawCategories[raw])) }
                    category = categoryOfRaw[Int(raw)]
                }
                var tagSet: UInt32 = 0
                if let c = columns.tags, let f = Self.field(c, of: fields), !isBlank(f), !cacheRawTags {
                    windowTagged += 1
                    internTags(f, into: &ledger.tags, names: &tagNames, ids: &tagIDs)
                    // (The table does not grow while sets are collected: once collecting starts, it goes on.)
                    if ledger.tagSets.count < CSVReader.batchTagSetsFrom {
                        tagSet = ledger.tagSets.intern(tagIDs)
                    } else {
                        if firstPendingRow < 0 { firstPendingRow = ledger.count }
                        tagSet = pendingMark | UInt32(pendingSets.append(tagIDs))
                    }
                } else if let c = columns.tags, let f = Self.field(c, of: fields), !isBlank(f) {
                    windowTagged += 1
                    let raw = intern(f, into: &rawTags, hash: tagsHash, scratch: &scratch)
                    if Int(raw) == tagSetOfRaw.count {
                        windowNew += 1
                        // A new list of tags: split on `;` and interned from the bytes, each name trimmed, in order,
                        // the first of names equal but for case kept (as `Ledger.internTagSet` does with strings).
                        internTags(f, into: &ledger.tags, names: &tagNames, ids: &tagIDs)
                        tagSetOfRaw.append(ledger.tagSets.intern(tagIDs))
                    }
                    tagSet = tagSetOfRaw[Int(raw)]
                }
                var note: UInt32 = 0
                if let c = columns.notes, let f = Self.field(c, of: fields), !isBlank(f) {
                    note = intern(f, into: &ledger.notes, scratch: &scratch)
                }
                let merchant = intern(fields[columns.description], into: &ledger.merchants, hash: descriptionHash, scratch: &scratch)
                ledger.append(day: day, merchant: merchant, amount: amount, currency: currency, account: account,
                              intent: intent, category: category, tagSet: tagSet, note: note)
                if pending { ledger.markLastPending() }
                records.append(recordStart..<recordEnd)
                windowLeft -= 1
                if windowLeft == 0 {
                    if cacheRawTags {
                        // Most lists new (every row its own tags): looking each up whole first only costs.
                        cacheRawTags = windowNew * 2 <= windowTagged
                    } else if pendingSets.count == 0 {
                        // Most lists repeat one seen before (many rows, few sets): looked up whole, they are not split.
                        cacheRawTags = (ledger.tagSets.count - windowSets) * 4 < windowTagged
                    }
                    windowLeft = CSVReader.tagWindow
                    windowTagged = 0; windowNew = 0; windowSets = ledger.tagSets.count
                    if !descriptionSlotsSettled {
                        let descriptions = ledger.merchants.count
                        if (descriptions - windowDescriptions) * 2 > CSVReader.tagWindow {
                            ledger.merchants.reserveSlots(count: expectedRecords)
                            descriptionSlotsSettled = true
                        }
                        windowDescriptions = descriptions
                    }
                }
            } catch {
                if options.skipBad { skipped.append(error); continue }
                throw error
            }

        }
    }
}

/// The ids of short names already interned, by their exact bytes: a tag's name is looked up here before its table,
/// which folds its case first. A row of a Tags column names a few tags of a small vocabulary, over and over: a
/// million rows of five to eight tags each looked up in the table spent a fifth of the open there.
/// Direct-mapped, 256 names of up to 16 bytes; a name that does not fit, or whose place another took, goes to
/// the table. (The table never gives a name another id, so what is kept here stays right.)
struct ShortNames {
    private var words = [UInt64](repeating: 0, count: 512)
    /// Each place's name length, `UInt8.max` while empty.
    private var lengths = [UInt8](repeating: .max, count: 256)
    private var ids = [UInt32](repeating: 0, count: 256)

    /// The id kept for `name`, or else `intern()`'s, kept.
    @inline(__always)
    mutating func id(of name: UnsafeBufferPointer<UInt8>, _ intern: () -> UInt32) -> UInt32 {
        let n = name.count
        guard n <= 16 else { return intern() }
        var a: UInt64 = 0, b: UInt64 = 0
        withUnsafeMutableBytes(of: &a) { $0.copyMemory(from: UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(name)[..<min(n, 8)])) }
        if n > 8 { withUnsafeMutableBytes(of: &b) { $0.copyMemory(from: UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(name)[8..<n])) } }
        let place = Int(truncatingIfNeeded: ((a ^ (b &* 0x9E37_79B9_7F4A_7C15) ^ UInt64(n)) &* 0xff51_afd7_ed55_8ccd) >> 56)
        if lengths[place] == UInt8(n) && words[2 * place] == a && words[2 * place + 1] == b { return ids[place] }
        let id = intern()
        lengths[place] = UInt8(n)
        words[2 * place] = a
        words[2 * place + 1] = b
        ids[place] = id
        return id
    }
}
