#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import TagshModel

/// Reads journals and beancount files in one pass over the bytes.
///
/// Dates, descriptions, accounts and amounts are read straight from bytes
/// and interned without building strings; only comments and metadata, which
/// few transactions have, are decoded. Parsed comments and accounts are
/// cached by their raw bytes, as repeated values are the rule.
struct TextReader {
    let dialect: TextLayout.Dialect
    let options: ReadOptions
    let load: (String) throws(FileError) -> (bytes: [UInt8], stamp: FileStamp)

    var ledger = Ledger()
    var layout: TextLayout
    var skipped: [Diagnostic] = []
    var locks: [UInt8] = []
    var visiting: [String] = []
    var ledgerStyle = 0, hledgerStyle = 0
    /// Whether the main file's declarations set `layout.declarationInsertAt` (what a second half tells the first).
    var declaresAccounts = false
    /// The last currency symbol interned, and its id.
    var lastSymbol: (text: String, id: UInt32)?
    var pushed: [String] = []
    /// Postings whose amount tagsh keeps without a value (an expression it cannot evaluate exactly).
    var unknownAmounts = 0
    /// Timeclock lines (`i 2013/04/05 09:30:00 Project`, `o ...`): ledger makes each pair a transaction of hours;
    /// tagsh keeps them as they are and says so at open.
    var timeclockLines = 0
    /// The year of year-less dates (`year 2024`, `Y 2024`, `apply year 2024`); the current year without one.
    var defaultYear: Int?
    let currentYear = Day.today.components.year
    /// Ledger's `--input-date-format FMT` line in a journal: how its dates are written (and whether they lack the year).
    var inputDateFormat: (format: DateFormat, needsYear: Bool)?
    /// The decimal marks declared so far (`PostingAmount.Marks`), and beancount's rule for commas.
    var marks: PostingAmount.Marks

    /// The `alias` directives in force.
    var aliases = AccountAliases()
    /// Whether a posting assigns its account's balance (`Assets:Checking  = $500`, with no amount). Its amount is
    /// the one that brings the balance there, which needs every account's running balance: `JournalFormat.read`
    /// reads such a file again with `tracksBalances`, on one core, keeping them in `balances` (by account as read,
    /// then commodity).
    var sawAssignment = false
    var tracksBalances = false
    var balances: [String: [String: Amount]] = [:]
    /// Raw account text → (is an expense/income account, category id, account id), under `aliases`.
    var rawAccounts = StringTable()
    var accountInfo: [(isCategory: Bool, category: UInt32, account: UInt32, isIncome: Bool)] = [(false, 0, 0, false)]
    /// Raw comment text → the tags, intent and note it holds.
    var rawComments = StringTable()
    var commentInfo: [(tags: [String], intent: Intent?, note: String?)] = [([], nil, nil)]
    /// The tag set of a comment's tags, by raw comment id, once interned (0: not yet).
    var commentTagSet: [UInt32] = [0]
    /// The last comment that gave a transaction tags (its raw id), while reading one transaction.
    var lastTagComment: UInt32 = 0

    init(dialect: TextLayout.Dialect, options: ReadOptions, load: @escaping (String) throws(FileError) -> (bytes: [UInt8], stamp: FileStamp)) {
        self.dialect = dialect
        self.options = options
        self.load = load
        layout = TextLayout(dialect: dialect, files: [])
        marks = PostingAmount.Marks(beancount: dialect == .beancount)
    }

    mutating func finish(mainBytes: [UInt8], format: LedgerFormat) -> LoadedLedger {
        layout.tagStyle = ledgerStyle > hledgerStyle ? .ledger : .hledger
        if timeclockLines > 0 {
            layout.notes.append("\(timeclockLines) timeclock line\(timeclockLines == 1 ? "" : "s") (i/o) kept as "
                                + "\(timeclockLines == 1 ? "it is" : "they are"): ledger makes each check-in and its check-out a "
                                + "transaction of hours, tagsh leaves them out")
        }
        ledger.categoryLock = locks
        return LoadedLedger(ledger: ledger, document: LedgerDocument(format: format, bytes: mainBytes, layout: .text(layout)),
                            skipped: skipped)
    }

    // MARK: - files

    mutating func readFile(_ bytes: [UInt8], path: String, stamp: FileStamp?) throws(Diagnostic) {
        let fileIndex = Int32(layout.files.count)
        layout.files.append(TextFile(path: path, bytes: bytes, stamp: stamp))
        visiting.append(FileIO.resolvingLinks(path))
        defer { visiting.removeLast() }
        if fileIndex == 0, let nl = bytes.firstIndex(of: 0x0A), nl > 0, bytes[nl - 1] == 0x0D { layout.lineEnding = [0x0D, 0x0A] }
        try bytes.withUnsafeBufferPointer { b throws(Diagnostic) in
            var at = (pos: 0, line: 1)
            if fileIndex == 0, options.readsInParallel, !options.skipBad, !tracksBalances, b.count >= options.parallelFrom,
               let split = TextReader.splitPoint(b) {
                // Room for the whole file's rows: the second half's are appended without growing the arrays.
                reserve(b.count / 110)
                at = try readInHalves(b, split: split, path: path)
            }
            _ = try readBlocks(b, from: at.pos, line: at.line, limit: b.count, fileIndex: fileIndex, path: path)
        }
    }

    /// Reads the main file's blocks up to `split` here and from `split` on another thread, with its own
    /// tables. The second half is kept (up to a directive that changes how later lines read, where reading goes
    /// on as on one core) only when reading it alone gave what reading on from the first would have: the first
    /// half ended exactly at the split (no `comment` block ran over it) with no year, date format, pushed tag or
    /// alias in force. Returns where reading goes on.
    mutating func readInHalves(_ b: UnsafeBufferPointer<UInt8>, split: Int, path: String) throws(Diagnostic) -> (pos: Int, line: Int) {
        var secondReader = TextReader(dialect: dialect, options: options, load: load)
        // The decimal marks the lines before the first transaction declare, where a journal declares them: the
        // second half reads with those, and is kept only if the first half ended with no others.
        let headMarks = dialect == .journal ? TextReader.declaredMarks(beforeTransactionsOf: b) : marks
        secondReader.marks = headMarks
        let (first, second) = try Parallel.alongside({ () -> (reader: TextReader, end: (pos: Int, line: Int), failed: Diagnostic?) in
            var reader = secondReader
            reader.reserve((b.count - split) / 110)
            do throws(Diagnostic) {
                let end = try reader.readBlocks(b, from: split, line: 1, limit: b.count, fileIndex: 0, path: path, stopsAtState: true)
                return (reader, (end.pos, end.line), nil)
            } catch {
                return (reader, (b.count, 1), error)
            }
        }, { () throws(Diagnostic) in try readBlocks(b, from: 0, line: 1, limit: split, fileIndex: 0, path: path) })
        guard first.pos == split, defaultYear == nil, inputDateFormat == nil, pushed.isEmpty, marks == headMarks, aliases.isEmpty else {
            return (first.pos, first.line)
        }
        if var error = second.failed {
            error.line = error.line.map { $0 + first.line - 1 }
            throw error
        }
        merge(second.reader)
        return (second.end.pos, second.end.line + first.line - 1)
    }

    /// Room for `n` more transactions (about one per 120 bytes of a journal).
    mutating func reserve(_ n: Int) {
        ledger.reserveCapacity(ledger.count + n)
        locks.reserveCapacity(locks.count + n)
        layout.rowFile.reserveCapacity(layout.rowFile.count + n)
        layout.rowStart.reserveCapacity(layout.rowStart.count + n)
        layout.rowEnd.reserveCapacity(layout.rowEnd.count + n)
    }

    /// Appends the second half's rows and state, as reading on from the first would have left them.
    mutating func merge(_ other: TextReader) {
        ledger.append(rowsOf: other.ledger)
        locks += other.locks
        layout.rowFile += other.layout.rowFile
        layout.rowStart += other.layout.rowStart
        layout.rowEnd += other.layout.rowEnd
        layout.declaredAccounts.formUnion(other.layout.declaredAccounts)
        if other.declaresAccounts { layout.declarationInsertAt = other.layout.declarationInsertAt }
        if !layout.decimalMarkSeen { (layout.decimalMarkSeen, layout.decimalComma) = (other.layout.decimalMarkSeen, other.layout.decimalComma) }
        ledgerStyle += other.ledgerStyle
        hledgerStyle += other.hledgerStyle
        unknownAmounts += other.unknownAmounts
        sawAssignment = sawAssignment || other.sawAssignment
        timeclockLines += other.timeclockLines
    }

    /// The decimal marks a journal's lines declare before its first transaction (a line starting with a digit).
    static func declaredMarks(beforeTransactionsOf b: UnsafeBufferPointer<UInt8>) -> PostingAmount.Marks {
        var marks = PostingAmount.Marks()
        var lines: [String] = []
        var p = 0
        while p < b.count, !(b[p] >= 0x30 && b[p] <= 0x39) {
            var e = p
            while e < b.count && b[e] != 0x0A { e += 1 }
            let lineEnd = e > p && b[e - 1] == 0x0D ? e - 1 : e
            let line = String(decoding: UnsafeBufferPointer(rebasing: b[p..<lineEnd]), as: UTF8.self)
            if line.first == " " || line.first == "\t" {
                lines.append(line)
            } else {
                marks.note(lines)
                lines = [line]
            }
            p = e + 1
        }
        marks.note(lines)
        return marks
    }

    /// The start of the first transaction line (a line starting with a digit) after the middle, within 1 MB.
    static func splitPoint(_ b: UnsafeBufferPointer<UInt8>) -> Int? {
        var i = b.count / 2
        let stop = min(b.count, i + (1 << 20))
        while i < stop {
            while i < stop && b[i] != 0x0A { i += 1 }
            i += 1
            if i < stop && b[i] >= 0x30 && b[i] <= 0x39 { return i }
        }
        return nil
    }

    /// Reads the blocks from `pos` (on line `line`) to `limit`. With `stopsAtState` (the second half of a
    /// file read in two), stops before a line that changes how later lines read (a year, a date format, a
    /// pushed tag, an include), so that the rest is read on from the first half's state.
    mutating func readBlocks(_ b: UnsafeBufferPointer<UInt8>, from start: Int, line startLine: Int, limit: Int, fileIndex: Int32,
                             path: String, stopsAtState: Bool = false) throws(Diagnostic) -> (pos: Int, line: Int, stopped: Bool) {
        var pos = start
        var lineNumber = startLine
        let n = b.count
        let base = b.baseAddress
        func lineEnd(_ p: Int) -> (end: Int, next: Int) {
            // memchr: the line end, many bytes at a time.
            guard p < n, let base, let found = memchr(base + p, 0x0A, n - p) else { return (n > p && b[n - 1] == 0x0D ? n - 1 : n, n) }
            let i = UnsafeRawPointer(found).assumingMemoryBound(to: UInt8.self) - base
            let end = i > p && b[i - 1] == 0x0D ? i - 1 : i
            return (end, i + 1)
        }
        func isIndented(_ p: Int) -> Bool { p < n && (b[p] == 0x20 || b[p] == 0x09) }
        func text(_ s: Int, _ e: Int) -> String { String(decoding: UnsafeBufferPointer(rebasing: b[s..<e]), as: UTF8.self) }
        var lines: [(start: Int, end: Int)] = []
        while pos < limit {
            let (end, next) = lineEnd(pos)
            if end == pos { pos = next; lineNumber += 1; continue }
            // The block: this line and the indented lines after it.
            lines.removeAll(keepingCapacity: true)
            lines.append((pos, end))
            var blockNext = next
            var blockLines = 1
            while isIndented(blockNext) {
                let (e2, n2) = lineEnd(blockNext)
                lines.append((blockNext, e2))
                blockNext = n2
                blockLines += 1
            }
            let first = b[pos]
            if first >= 0x30 && first <= 0x39 {
                let isTransaction = dialect == .journal || beancountIsTransaction(b, pos, end)
                if isTransaction {
                    do throws(Diagnostic) {
                        try addTransaction(b, lines, lineNumber: lineNumber, fileIndex: fileIndex, path: path)
                    } catch {
                        if options.skipBad { skipped.append(error) } else { throw error }
                    }
                } else if let account = beancountOpen(b, pos, end) {
                    layout.declaredAccounts.insert(account)
                    if fileIndex == 0 {
                        layout.declarationInsertAt = lines.last.map { lineEnd($0.start).next } ?? next
                        declaresAccounts = true
                    }
                }
                pos = blockNext
                lineNumber += blockLines
                continue
            }
            let line = text(pos, end)
            if stopsAtState && changesState(line) { return (pos, lineNumber, true) }
            switch dialect {
            case .journal:
                if line.trimmingCharacters(in: " \t") == "comment" || line.hasPrefix("test ") || line == "test" {
                    // A block that runs to its `end comment` / `end test` line, kept as it is.
                    let closer = line.hasPrefix("test") ? "end test" : "end comment"
                    var p = next
                    var count = 1
                    while p < n {
                        let (e2, n2) = lineEnd(p)
                        count += 1
                        let t = text(p, e2)
                        p = n2
                        if t.trimmingCharacters(in: " \t").hasPrefix(closer) { break }
                    }
                    pos = p
                    lineNumber += count
                    continue
                }
                if let year = JournalFormat.yearDirective(line) { defaultYear = year }
                if line.hasPrefix("commodity") || line.hasPrefix("decimal-mark") || line.hasPrefix("D ") || line.hasPrefix("D\t") {
                    marks.note(lines.map { text($0.start, $0.end) })
                }
                if JournalFormat.isTimeclock(line) { timeclockLines += 1 }
                if line.hasPrefix("--input-date-format ") {
                    let pattern = String(line.dropFirst(20)).trimmingCharacters(in: " \t")
                    let needsYear = !pattern.contains("%Y") && !pattern.contains("%y")
                    if let f = DateFormat(pattern: needsYear ? pattern + " %Y" : pattern) { inputDateFormat = (f, needsYear) }
                }
                if line.hasPrefix("account ") || line.hasPrefix("account\t") {
                    let name = String(line.dropFirst(8).prefix { $0 != ";" }).trimmingCharacters(in: " \t")
                        .components(separatedByTwoSpaces: ())
                    layout.declaredAccounts.insert(name)
                    if fileIndex == 0 {
                        layout.declarationInsertAt = blockNext
                        declaresAccounts = true
                    }
                } else if line.hasPrefix("include ") || line.hasPrefix("!include ") {
                    // Read where it stands, so transaction order follows the files. Aliases an included file
                    // defines end with it, as hledger reads them (ledger 3.3 keeps them on).
                    let target = String(line.drop { $0 == "!" }.dropFirst(8)).trimmingCharacters(in: " \t")
                    let before = aliases
                    let scopes = layout.aliasScopes.count
                    try include(target, from: path, line: lineNumber, text: line)
                    if layout.aliasScopes.count != scopes { setAliases(before) }
                } else if line.hasPrefix("alias ") || line.hasPrefix("alias\t") {
                    var next = aliases
                    if next.add(line.dropFirst(6)) {
                        setAliases(next)
                    } else {
                        // (hledger refuses such a line; ledger reads a name no account has. Kept, and said.)
                        let place = fileIndex == 0 ? "line \(lineNumber)" : "line \(lineNumber) of \(path.split(separator: "/").last ?? "")"
                        layout.notes.append("\(place): `\(line.trimmingCharacters(in: " \t"))` is not an alias tagsh reads "
                                            + "(alias NAME = ACCOUNT, or alias /REGEX/ = REPLACEMENT): kept as it is, and not applied")
                    }
                } else if line.hasPrefix("end aliases"), line.dropFirst(11).allSatisfy({ $0 == " " || $0 == "\t" }), !aliases.isEmpty {
                    setAliases(AccountAliases())
                }
            case .beancount:
                if line.hasPrefix("pushtag ") || line.hasPrefix("poptag ") {
                    let tag = line.split(separator: " ").dropFirst().first.map { String($0.dropFirst()) } ?? ""
                    if line.hasPrefix("pushtag ") { pushed.append(tag) } else if let i = pushed.lastIndex(of: tag) { pushed.remove(at: i) }
                } else if line.hasPrefix("include ") {
                    if let (target, _) = BeancountFormat.quoted(Array(line), 8) {
                        try include(target, from: path, line: lineNumber, text: line)
                    }
                }
            }
            pos = blockNext
            lineNumber += blockLines
        }
        return (pos, lineNumber, false)
    }

    /// The account a raw account's text names under the aliases in force.
    func accountName(_ raw: UInt32) -> String { aliases.isEmpty ? rawAccounts[raw] : aliases.apply(rawAccounts[raw]) }

    /// The aliases in force from the next row on; what was read of accounts under others is forgotten.
    mutating func setAliases(_ new: AccountAliases) {
        aliases = new
        rawAccounts = StringTable()
        accountInfo = [(false, 0, 0, false)]
        layout.aliasScopes.append(AliasScope(from: ledger.count, aliases: new))
    }

    /// Whether a line sets what later lines read as: a year, a date format, a pushed tag, an alias, or an included file.
    func changesState(_ line: String) -> Bool {
        switch dialect {
        case .journal:
            JournalFormat.yearDirective(line) != nil || line.hasPrefix("--input-date-format ") || line.hasPrefix("include ")
                || line.hasPrefix("!include ") || line.hasPrefix("alias ") || line.hasPrefix("alias\t") || line.hasPrefix("end aliases")
        case .beancount: line.hasPrefix("pushtag ") || line.hasPrefix("poptag ") || line.hasPrefix("include ")
        }
    }

    mutating func include(_ written: String, from path: String, line: Int, text: String) throws(Diagnostic) {
        var target = written
        if target.count >= 2 && target.hasPrefix("\"") && target.hasSuffix("\"") { target = String(target.dropFirst().dropLast()) }
        let folder = path.lastIndex(of: "/").map { String(path[...$0]) } ?? ""
        let full = target.hasPrefix("/") ? target : folder + target
        if !target.hasPrefix("/"), path == layout.files.first?.path { layout.relativeIncludes.append(target) }
        // A pattern (`*.dat`, `data_?.dat`, `data_[ab].dat`) includes every file it matches, in name order, as ledger does.
        if dialect == .journal && target.contains(where: { "*?[\\".contains($0) }) {
            let matches = FileIO.glob(full)
            guard !matches.isEmpty else {
                throw Diagnostic("cannot include \(target): no file matches", file: path, line: line, column: 9,
                                 sourceLine: text, span: 8..<text.count)
            }
            for m in matches { try includeFile(m, written: target, from: path, line: line, text: text) }
            return
        }
        try includeFile(full, written: target, from: path, line: line, text: text)
    }

    mutating func includeFile(_ full: String, written target: String, from path: String, line: Int, text: String) throws(Diagnostic) {
        if visiting.contains(FileIO.resolvingLinks(full)) {
            throw Diagnostic("include cycle: \(target) is already being read", file: path, line: line, column: 9,
                             sourceLine: text, span: 8..<text.count)
        }
        let loaded: (bytes: [UInt8], stamp: FileStamp)
        do throws(FileError) { loaded = try load(full) } catch {
            throw Diagnostic("cannot include \(target): \(error.diagnostic.message)", file: path, line: line, column: 9,
                             sourceLine: text, span: 8..<text.count)
        }
        try readFile(loaded.bytes, path: full, stamp: loaded.stamp)
    }

    // MARK: - beancount line kinds

    func beancountIsTransaction(_ b: UnsafeBufferPointer<UInt8>, _ s: Int, _ e: Int) -> Bool {
        // The second word, compared as bytes (a String per line costs more than the rest of the line).
        var i = s
        while i < e && b[i] != 0x20 && b[i] != 0x09 { i += 1 }
        while i < e && (b[i] == 0x20 || b[i] == 0x09) { i += 1 }
        let start = i
        while i < e && b[i] != 0x20 && b[i] != 0x09 { i += 1 }
        guard i > start else { return false }
        // A flag (`*`, `!`, `txn`, one character) is never a directive name.
        if i - start == 1 || b[start] < 0x61 || b[start] > 0x7A { return true }
        let word = UnsafeBufferPointer(rebasing: b[start..<i])
        return !BeancountFormat.directiveBytes.contains { $0.elementsEqual(word) }
    }

    func beancountOpen(_ b: UnsafeBufferPointer<UInt8>, _ s: Int, _ e: Int) -> String? {
        guard dialect == .beancount, secondWord(b, s, e) == "open" else { return nil }
        let parts = String(decoding: UnsafeBufferPointer(rebasing: b[s..<e]), as: UTF8.self).split(separator: " ", omittingEmptySubsequences: true)
        return parts.count >= 3 ? String(parts[2]) : nil
    }

    func secondWord(_ b: UnsafeBufferPointer<UInt8>, _ s: Int, _ e: Int) -> String? {
        var i = s
        while i < e && b[i] != 0x20 && b[i] != 0x09 { i += 1 }
        while i < e && (b[i] == 0x20 || b[i] == 0x09) { i += 1 }
        let start = i
        while i < e && b[i] != 0x20 && b[i] != 0x09 { i += 1 }
        return i > start ? String(decoding: UnsafeBufferPointer(rebasing: b[start..<i]), as: UTF8.self) : nil
    }

    // MARK: - transactions

    mutating func addTransaction(_ b: UnsafeBufferPointer<UInt8>, _ lines: [(start: Int, end: Int)], lineNumber: Int,
                                 fileIndex: Int32, path: String) throws(Diagnostic) {
        let (hs, he) = lines[0]
        lastTagComment = 0
        var i = hs
        while i < he && b[i] != 0x20 && b[i] != 0x09 && b[i] != 0x3D && b[i] != 0x3B { i += 1 } // up to space, '=' or ';'
        guard let day = dialect == .journal ? (inputDateFormat.map { inputDate(b, hs, i, $0) } ?? journalDate(b, hs, i))
                : DateFormat.ymd.parse(UnsafeBufferPointer(rebasing: b[hs..<i])) else {
            let header = String(decoding: UnsafeBufferPointer(rebasing: b[hs..<he]), as: UTF8.self)
            let dateText = String(header.prefix { $0 != " " && $0 != "\t" && $0 != "=" })
            throw Diagnostic("cannot read the date \(quotedValue(dateText)) (use YYYY-MM-DD\(dialect == .journal ? ", or MM-DD after a year directive" : ""))", file: path, line: lineNumber, column: 1,
                             sourceLine: header, span: 0..<max(1, dateText.count))
        }
        while i < he && b[i] != 0x20 && b[i] != 0x09 && b[i] != 0x3B { i += 1 } // a secondary date
        func spaces() { while i < he && (b[i] == 0x20 || b[i] == 0x09) { i += 1 } }
        spaces()
        var merchant: UInt32 = 0
        var tagNames: [String] = []
        var intent: Intent?
        var note: String?
        var commentBytes: (Int, Int)?
        switch dialect {
        case .journal:
            if i < he && (b[i] == 0x2A || b[i] == 0x21) { i += 1; spaces() }
            if i < he && b[i] == 0x28, let close = (i..<he).first(where: { b[$0] == 0x29 }) { i = close + 1; spaces() }
            let descStart = i
            while i < he && b[i] != 0x3B { i += 1 }
            var descEnd = i
            while descEnd > descStart && (b[descEnd - 1] == 0x20 || b[descEnd - 1] == 0x09) { descEnd -= 1 }
            merchant = ledger.merchants.intern(bytes: UnsafeBufferPointer(rebasing: b[descStart..<descEnd]))
            if i < he { commentBytes = (i + 1, he) }
        case .beancount:
            // The flag, then one or two strings, then #tags and ^links.
            if i < he && b[i] != 0x22 { while i < he && b[i] != 0x20 && b[i] != 0x09 { i += 1 }; spaces() }
            // On bytes: strings are interned straight from the file unless they hold an escape. Only the
            // first two matter (no array: this runs for every transaction).
            var stringCount = 0
            var firstString = (start: 0, end: 0, escaped: false), secondString = firstString
            var j = i
            while j < he && b[j] == 0x22 {
                var k = j + 1
                var escaped = false
                while k < he && b[k] != 0x22 {
                    if b[k] == 0x5C { escaped = true; k += 2 } else { k += 1 }
                }
                guard k < he else { break } // not closed: no string, as beancount's lexer would refuse it
                if stringCount == 0 { firstString = (j + 1, k, escaped) } else if stringCount == 1 { secondString = (j + 1, k, escaped) }
                stringCount += 1
                j = k + 1
                while j < he && (b[j] == 0x20 || b[j] == 0x09) { j += 1 }
            }
            // The #tags (and ^links) up to a comment, read once for each way they are written.
            var k = j
            while k < he && b[k] != 0x3B {
                if b[k] == 0x23 { // a tag runs to a space, past a `;`
                    k += 1
                    while k < he && b[k] != 0x20 && b[k] != 0x09 { k += 1 }
                } else {
                    k += 1
                }
            }
            if k > j { applyHeaderTags(b, j, k, &tagNames) }
            // The payee when there are two strings and it is not empty, else the narration.
            let chosen = stringCount >= 2 ? (firstString.end > firstString.start ? firstString : secondString)
                : stringCount == 1 ? firstString : nil
            if let c = chosen, !c.escaped {
                merchant = ledger.merchants.intern(bytes: UnsafeBufferPointer(rebasing: b[c.start..<c.end]))
            } else if let c = chosen {
                let text = Array(String(decoding: UnsafeBufferPointer(rebasing: b[(c.start - 1)..<(c.end + 1)]), as: UTF8.self))
                merchant = ledger.merchants.intern(BeancountFormat.quoted(text, 0)?.0 ?? "")
            } else {
                merchant = ledger.merchants.intern("")
            }
        }
        if let (cs, ce) = commentBytes { applyComment(b, cs, ce, &tagNames, &intent, &note) }

        // Postings and the lines before the first one (comments, metadata). Plain locals, not tuples of
        // optionals: this runs for every posting of a million transactions.
        var postingCount = 0
        var categoryCount = 0
        var lastCategory: UInt32 = 0, lastCategoryAmount: Amount?, lastCategorySymbol: String?
        var categoryIsIncome = false
        // The money side: the first posting that is not an expense or income account.
        var hasMoney = false
        var moneyAccount: UInt32 = 0, moneyAmount: Amount?, moneySymbol: String?
        // The sum of the other postings' amounts (the money side's, negated, when it has none), and where it first
        // passed what an amount holds, if it did (an error only when the money side needs it).
        var otherSum: Amount?, otherSymbol: String?
        var otherSumPassed: (line: (start: Int, end: Int), amount: Range<Int>, number: Int)?
        // Virtual postings, `(Budget:Food)` and `[Savings:Goal]`, are off the transaction's balance: its money
        // side, category and amount are read from its real postings, as ledger and hledger balance them (counted
        // in, an elided amount beside a virtual posting came out twice as large). A transaction of virtual
        // postings only is read from those, in a second pass. Every posting counts as one of the transaction's.
        var allPostings = 0
        var virtualSkipped = false, includesVirtual = false
        // With `tracksBalances`: the posting without an amount, whose balance takes what the others leave.
        var elidedAccount: String?
        passes: while true {
        for index in 1..<lines.count {
            let line = lines[index]
            let span: BlockLine.PostingSpan
            switch BlockLine.scan(b, line.start, line.end, dialect: dialect) {
            case .blank: continue
            case .comment(let textStart):
                if allPostings == 0 && !includesVirtual && dialect == .journal { applyComment(b, textStart, line.end, &tagNames, &intent, &note) }
                continue
            case .metadata(let keyRange, let valueStart):
                if allPostings == 0 && !includesVirtual {
                    let key = String(decoding: UnsafeBufferPointer(rebasing: b[keyRange]), as: UTF8.self)
                    if key == "intent" || key == "note" {
                        // An ASCII value is read as bytes: a character is a byte there.
                        let raw = UnsafeBufferPointer(rebasing: b[valueStart..<line.end])
                        let value = raw.allSatisfy({ $0 < 0x80 }) ? BeancountFormat.metadataValue(Array(raw), from: 0)
                            : BeancountFormat.metadataValue(Array(String(decoding: raw, as: UTF8.self)), from: 0)
                        if key == "intent", let v = Intent(name: value) { intent = v }
                        if key == "note" { note = value.isEmpty ? nil : value }
                    }
                }
                continue
            case .posting(let s): span = s
            }
            if !includesVirtual { allPostings += 1 }
            // (A virtual posting left out is still read, so that an amount no peer reads is an error here too.)
            let leftOut = span.written.count != span.account.count && !includesVirtual
            if leftOut { virtualSkipped = true }
            let raw = rawAccounts.intern(bytes: UnsafeBufferPointer(rebasing: b[span.account]))
            if Int(raw) == accountInfo.count {
                let name = accountName(raw)
                if let cat = AccountKind.category(of: name) {
                    accountInfo.append((true, cat.isEmpty ? 0 : ledger.categories.intern(cat), 0, AccountKind.isIncome(name)))
                } else {
                    accountInfo.append((false, 0, ledger.accounts.intern(name), false))
                }
            }
            let info = accountInfo[Int(raw)]
            var amount: Amount?
            var symbol: String?
            // Where a cost or an assertion may follow the quantity (`@ $1.10`, `{105.30 EUR}`, `= $500`).
            var quantityEnd = 0
            if let range = span.amount {
                let p = range.lowerBound
                var e = p
                while e < range.upperBound && b[e] != 0x40 && b[e] != 0x3D && b[e] != 0x7B { e += 1 }
                quantityEnd = e
                while e > p && (b[e - 1] == 0x20 || b[e - 1] == 0x09) { e -= 1 }
                let field = UnsafeBufferPointer(rebasing: b[p..<e])
                // The bank-style reader is the fast path, where it reads the amount as `PostingAmount.read` would
                // (`54,20 EUR` is 54.20 to ledger and hledger, an error to bean-check; `1,000 EUR` is 1000, or 1.000
                // where a decimal comma is declared).
                if e > p, let parsed = PostingAmount.quick(field, marks: marks) {
                    amount = parsed.amount
                    symbol = parsed.symbol
                } else if e > p {
                    let amountText = String(decoding: UnsafeBufferPointer(rebasing: b[range]), as: UTF8.self)
                    switch PostingAmount.read(amountText, marks: marks) {
                    case .amount(let a, let s):
                        amount = a
                        symbol = s
                    case .unknown: unknownAmounts += 1
                    case .invalid:
                        let hint = dialect == .beancount && field.contains(0x2C)
                            ? ": beancount writes a comma only between groups of three digits (1,234.56)" : ""
                        throw amountDiagnostic("cannot read the amount \(quotedValue(amountText))\(hint)", b, line, range, lineNumber + index, path)
                    }
                }
            }
            if leftOut { continue }
            // An amount without a commodity has the default one (ledger's `D` directive).
            if amount != nil && symbol == nil, let d = marks.defaultCommodity { symbol = d }
            if let range = span.amount, amount == nil, quantityEnd == range.lowerBound, b[quantityEnd] == 0x3D {
                // A balance assignment: worked out when the balances are kept (else the file is read again).
                if tracksBalances, let assigned = assignment(b, range) {
                    let name = accountName(raw)
                    let key = assigned.symbol ?? ""
                    amount = assigned.amount.adding(-(balances[name]?[key] ?? .zero))
                    symbol = assigned.symbol
                    // `==` also takes the account's other commodities to zero: where the one assigned does not
                    // move and one other does, that is the posting's amount, as hledger reads it.
                    if quantityEnd + 1 < range.upperBound, b[quantityEnd + 1] == 0x3D, amount == .zero,
                       case let others = balances[name]?.filter({ $0.key != key && $0.value != .zero }) ?? [:], others.count == 1,
                       let other = others.first {
                        amount = -other.value
                        symbol = other.key.isEmpty ? nil : other.key
                    }
                } else {
                    sawAssignment = true
                }
            }
            if tracksBalances {
                let name = accountName(raw)
                if let a = amount { addToBalance(name, a, symbol) } else { elidedAccount = elidedAccount ?? name }
            }
            if !layout.decimalMarkSeen, let a = amount, a.scale > 0, let range = span.amount {
                // The file's decimal mark: the last mark of the first amount with decimals.
                layout.decimalMarkSeen = true
                layout.decimalComma = b[range].last { $0 == 0x2C || $0 == 0x2E } == 0x2C
            }
            postingCount += 1
            var addsToOthers = true
            if info.isCategory {
                categoryCount += 1
                lastCategory = info.category
                lastCategoryAmount = amount
                lastCategorySymbol = symbol
                categoryIsIncome = info.isIncome
            } else if !hasMoney {
                hasMoney = true
                moneyAccount = info.account
                moneyAmount = amount
                moneySymbol = symbol
                addsToOthers = false
            }
            if addsToOthers, var a = amount {
                // A posting with a cost weighs its cost (`10.00 EUR @ $1.10` is $11.00 of the money side's), as the
                // peers balance it.
                if let range = span.amount, quantityEnd < range.upperBound, b[quantityEnd] != 0x3D,
                   let cost = PostingAmount.cost(b, from: quantityEnd, to: range.upperBound, beancount: dialect == .beancount),
                   let w = PostingAmount.weight(of: a, cost: UnsafeBufferPointer(rebasing: b[cost.range]), total: cost.total, marks: marks) {
                    a = w.amount
                    symbol = w.symbol ?? marks.defaultCommodity
                }
                if let sum = otherSum {
                    if let next = sum.adding(a) { otherSum = next } else if otherSumPassed == nil, let range = span.amount {
                        otherSumPassed = ((line.start, line.end), range, lineNumber + index)
                    }
                } else {
                    otherSum = a
                }
                otherSymbol = otherSymbol ?? symbol
            }
        }
        if postingCount == 0 && virtualSkipped && !includesVirtual {
            includesVirtual = true
            continue passes
        }
        break
        }
        if !hasMoney && categoryCount > 0 {
            // Every posting is an expense or income account: the first stands for the money side.
            hasMoney = true
            moneyAccount = ledger.accounts.intern("")
            moneyAmount = lastCategoryAmount
            moneySymbol = lastCategorySymbol
        }
        var category: UInt32 = 0
        var lock: UInt8 = 0
        if allPostings > 2 { lock = 1 } else if categoryCount == 1 {
            category = lastCategory
            if categoryIsIncome { lock = 3 }
        } else { lock = 2 }
        if let elidedAccount, let others = (otherSum ?? .zero).adding(moneyAmount ?? .zero) {
            addToBalance(elidedAccount, -others, otherSymbol ?? moneySymbol)
        }
        var amount = Amount.zero
        var symbol: String?
        if hasMoney, let a = moneyAmount {
            amount = a
            symbol = moneySymbol
        } else {
            if let at = otherSumPassed {
                throw amountDiagnostic("the amounts of this transaction add up to more than an amount holds (64 bits), so the money side's cannot be worked out",
                                       b, at.line, at.amount, at.number, path)
            }
            amount = -(otherSum ?? .zero)
            symbol = otherSymbol
        }
        if dialect == .beancount { tagNames += pushed }
        var currency: UInt32 = 0
        if let symbol {
            // Most transactions are in the currency of the one before.
            if let last = lastSymbol, last.text == symbol { currency = last.id } else {
                currency = ledger.currencies.intern(symbol)
                lastSymbol = (symbol, currency)
            }
        }
        ledger.append(day: day, merchant: merchant, amount: amount, currency: currency,
                      account: hasMoney ? moneyAccount : ledger.accounts.intern(""), intent: intent, category: category,
                      tagSet: tagSet(tagNames), note: note.map { ledger.notes.intern($0) } ?? 0)
        if dialect == .beancount && !pushed.isEmpty { layout.pushedTags[ledger.count - 1] = Set(pushed.map { $0.lowercased() }) }
        locks.append(lock)
        layout.rowFile.append(fileIndex)
        layout.rowStart.append(lines[0].start)
        layout.rowEnd.append(lines[lines.count - 1].end)
    }

    /// The amount a balance assignment sets (`= $500`, `== $500`, `=* $500`; without a cost that follows).
    func assignment(_ b: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> (amount: Amount, symbol: String?)? {
        var p = range.lowerBound
        while p < range.upperBound && (b[p] == 0x3D || b[p] == 0x2A || b[p] == 0x20 || b[p] == 0x09) { p += 1 }
        var e = p
        while e < range.upperBound && b[e] != 0x40 { e += 1 }
        while e > p && (b[e - 1] == 0x20 || b[e - 1] == 0x09) { e -= 1 }
        guard e > p else { return nil }
        let found = PostingAmount.value(UnsafeBufferPointer(rebasing: b[p..<e]), marks: marks)
        if let f = found, f.symbol == nil, let d = marks.defaultCommodity { return (f.amount, d) }
        return found
    }

    mutating func addToBalance(_ account: String, _ amount: Amount, _ symbol: String?) {
        let key = symbol ?? ""
        let sum = (balances[account]?[key] ?? .zero).adding(amount)
        balances[account, default: [:]][key] = sum ?? amount
    }

    /// An error at a posting's amount: `range` of the bytes of `line`, which is line `number` of the file.
    func amountDiagnostic(_ message: String, _ b: UnsafeBufferPointer<UInt8>, _ line: (start: Int, end: Int), _ range: Range<Int>,
                          _ number: Int, _ path: String) -> Diagnostic {
        let lineText = String(decoding: UnsafeBufferPointer(rebasing: b[line.start..<line.end]), as: UTF8.self)
        let col = String(decoding: UnsafeBufferPointer(rebasing: b[line.start..<range.lowerBound]), as: UTF8.self).count
        let width = String(decoding: UnsafeBufferPointer(rebasing: b[range]), as: UTF8.self).count
        return Diagnostic(message, file: path, line: number, column: col + 1, sourceLine: lineText, span: col..<(col + width))
    }

    /// Reads a beancount header's `#tags` (and `^links`, skipped) up to its comment, cached by their bytes.
    mutating func applyHeaderTags(_ b: UnsafeBufferPointer<UInt8>, _ s: Int, _ e: Int, _ tags: inout [String]) {
        let raw = rawComments.intern(bytes: UnsafeBufferPointer(rebasing: b[s..<e]))
        if Int(raw) == commentInfo.count {
            var names: [String] = []
            var j = s
            while j < e {
                if b[j] == 0x23 {
                    var k = j + 1
                    while k < e && b[k] != 0x20 && b[k] != 0x09 { k += 1 }
                    names.append(String(decoding: UnsafeBufferPointer(rebasing: b[(j + 1)..<k]), as: UTF8.self))
                    j = k
                } else {
                    j += 1
                }
            }
            commentInfo.append((names, nil, nil))
            commentTagSet.append(0)
        }
        let names = commentInfo[Int(raw)].tags
        if !names.isEmpty { lastTagComment = raw }
        tags += names
    }

    /// The tag set of a transaction's tags; when they all came from one comment, interned once for that comment.
    mutating func tagSet(_ names: [String]) -> UInt32 {
        if names.isEmpty { return 0 }
        let raw = Int(lastTagComment)
        guard raw != 0, names.count == commentInfo[raw].tags.count else { return ledger.internTagSet(names) }
        if commentTagSet[raw] == 0 { commentTagSet[raw] = ledger.internTagSet(names) }
        return commentTagSet[raw]
    }

    /// A date written as an `--input-date-format` line says (the year of a `year` directive added when it has none).
    func inputDate(_ b: UnsafeBufferPointer<UInt8>, _ s: Int, _ e: Int, _ f: (format: DateFormat, needsYear: Bool)) -> Day? {
        guard f.needsYear else { return f.format.parse(UnsafeBufferPointer(rebasing: b[s..<e])) }
        var text = Array(b[s..<e]) + Array(" \(defaultYear ?? currentYear)".utf8)
        return text.withUnsafeMutableBufferPointer { f.format.parse(UnsafeBufferPointer($0)) }
    }

    /// A journal date: year, month and day separated by `-`, `/` or `.`, or a
    /// month and day in the year of the last `year` directive (ledger and hledger
    /// take the current year without one).
    func journalDate(_ b: UnsafeBufferPointer<UInt8>, _ s: Int, _ e: Int) -> Day? {
        // Up to three numbers, without an array: this runs once per transaction.
        var values = (0, 0, 0), digits = (0, 0, 0)
        var count = 0
        var i = s
        while i < e {
            var v = 0, d = 0
            while i < e && b[i] >= 0x30 && b[i] <= 0x39 && d < 9 { v = v * 10 + Int(b[i] - 0x30); d += 1; i += 1 }
            guard d > 0, count < 3 else { return nil }
            switch count {
            case 0: values.0 = v; digits.0 = d
            case 1: values.1 = v; digits.1 = d
            default: values.2 = v; digits.2 = d
            }
            count += 1
            guard i < e else { break }
            guard b[i] == 0x2D || b[i] == 0x2F || b[i] == 0x2E, count < 3 else { return nil }
            i += 1
        }
        switch count {
        case 3: return digits.1 <= 2 && digits.2 <= 2 ? Day(year: values.0, month: values.1, day: values.2) : nil
        case 2:
            guard digits.0 <= 2, digits.1 <= 2 else { return nil }
            return Day(year: defaultYear ?? currentYear, month: values.0, day: values.1)
        default: return nil
        }
    }

    /// Reads the tags, intent and note of a journal comment, cached by its bytes.
    mutating func applyComment(_ b: UnsafeBufferPointer<UInt8>, _ s: Int, _ e: Int,
                               _ tags: inout [String], _ intent: inout Intent?, _ note: inout String?) {
        let raw = rawComments.intern(bytes: UnsafeBufferPointer(rebasing: b[s..<e]))
        if Int(raw) == commentInfo.count {
            var info: (tags: [String], intent: Intent?, note: String?) = ([], nil, nil)
            for t in CommentTags.find(in: rawComments[raw], offset: 0) {
                if t.ledgerStyle { ledgerStyle += 1 } else { hledgerStyle += 1 }
                if t.name.lowercased() == "intent", let i = Intent(name: t.value) { info.intent = i; continue }
                if t.name.lowercased() == "note" { info.note = t.value.isEmpty ? nil : t.value; continue }
                info.tags.append(t.value.isEmpty ? t.name : t.name + ":" + t.value)
            }
            commentInfo.append(info)
            commentTagSet.append(0)
        }
        let info = commentInfo[Int(raw)]
        if !info.tags.isEmpty { lastTagComment = raw }
        tags += info.tags
        if let i = info.intent { intent = i }
        if let n = info.note { note = n }
    }
}
