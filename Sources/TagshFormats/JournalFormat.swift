import TagshModel

/// hledger / ledger journals: transactions are read into the model, and
/// everything else (directives, comments, periodic and automated
/// transactions, unknown syntax) is kept byte for byte.
enum JournalFormat {
    /// A posting line, split up.
    struct Posting {
        var line: Int
        /// Character offsets of the account name in the line.
        var accountRange: Range<Int>
        var account: String
        /// Offset of the amount text (after the spacing), if any.
        var amountStart: Int?
        var amountText: String?
    }

    /// A transaction block, split up.
    struct Block {
        var header: String
        var headerCommentStart: Int?
        var date: Day?
        var description: String
        var lines: [String]
        /// Indices (into `lines`) of transaction-level comment lines.
        var commentLines: [Int]
        var postings: [Posting]
    }

    static func parseBlock(_ lines: [String]) -> Block {
        let header = lines[0]
        let chars = Array(header)
        var i = 0
        while i < chars.count && !(chars[i] == " " || chars[i] == "\t" || chars[i] == ";") { i += 1 }
        let dateText = String(chars[..<i]).split(separator: "=").first.map(String.init) ?? ""
        let date = Day(iso: Substring(dateText))
        let semicolon = chars[i...].firstIndex(of: ";")
        var descChars = chars[i..<(semicolon ?? chars.count)]
        func dropSpaces() { while let f = descChars.first, f == " " || f == "\t" { descChars = descChars.dropFirst() } }
        dropSpaces()
        if let f = descChars.first, f == "*" || f == "!" { descChars = descChars.dropFirst(); dropSpaces() }
        if descChars.first == "(", let close = descChars.firstIndex(of: ")") { descChars = descChars[(close + 1)...]; dropSpaces() }
        let description = String(descChars).trimmingCharacters(in: " \t")
        var block = Block(header: header, headerCommentStart: semicolon, date: date, description: description, lines: lines,
                          commentLines: [], postings: [])
        for (n, line) in lines.enumerated().dropFirst() {
            let lc = Array(line)
            var j = 0
            while j < lc.count && (lc[j] == " " || lc[j] == "\t") { j += 1 }
            if j >= lc.count { continue }
            if lc[j] == ";" || lc[j] == "#" {
                if block.postings.isEmpty { block.commentLines.append(n) }
                continue
            }
            if (lc[j] == "*" || lc[j] == "!") && j + 1 < lc.count && lc[j + 1] == " " { j += 2 }
            let accountStart = j
            var k = j
            // The account ends at two spaces, a tab, a `;`, or the end.
            while k < lc.count {
                if lc[k] == "\t" || lc[k] == ";" { break }
                if lc[k] == " " && k + 1 < lc.count && lc[k + 1] == " " { break }
                if lc[k] == " " && k + 1 == lc.count { break }
                k += 1
            }
            var account = String(lc[accountStart..<k])
            if (account.hasPrefix("(") && account.hasSuffix(")")) || (account.hasPrefix("[") && account.hasSuffix("]")) {
                account = String(account.dropFirst().dropLast())
            }
            var a = k
            while a < lc.count && (lc[a] == " " || lc[a] == "\t") { a += 1 }
            var amountText: String?
            var amountStart: Int?
            if a < lc.count && lc[a] != ";" {
                let end = lc[a...].firstIndex(of: ";") ?? lc.count
                amountText = String(lc[a..<end]).trimmingCharacters(in: " \t")
                amountStart = a
            }
            block.postings.append(Posting(line: n, accountRange: accountStart..<k, account: account, amountStart: amountStart,
                                          amountText: amountText?.isEmpty == true ? nil : amountText))
        }
        return block
    }

    /// An amount as a journal writes it, without cost (`@`) or balance assertion (`=`).
    static func amount(_ text: String) -> (amount: Amount, symbol: String?)? {
        var t = Substring(text)
        if let cut = t.firstIndex(where: { $0 == "@" || $0 == "=" || $0 == "{" }) { t = t[..<cut] }
        let cleaned = String(t).replacingAll("\"", with: "").trimmingCharacters(in: " \t")
        return AmountParser.parse(cleaned, decimalComma: false) ?? AmountParser.parse(cleaned, decimalComma: true)
    }

    static func read(_ bytes: [UInt8], path: String, stamp: FileStamp?, options: ReadOptions,
                     load: (String) throws(FileError) -> (bytes: [UInt8], stamp: FileStamp)) throws(Diagnostic) -> LoadedLedger {
        var ledger = Ledger()
        var layout = TextLayout(dialect: .journal, files: [])
        var skipped: [Diagnostic] = []
        var ledgerStyle = 0, hledgerStyle = 0
        var locks: [UInt8] = []
        var visiting: [String] = []

        func readFile(_ bytes: [UInt8], path: String, stamp: FileStamp?) throws(Diagnostic) {
            let fileIndex = Int32(layout.files.count)
            layout.files.append(TextFile(path: path, bytes: bytes, stamp: stamp))
            visiting.append(FileIO.resolvingLinks(path))
            defer { visiting.removeLast() }
            let lines = bytes.lines()
            if fileIndex == 0, let first = lines.first, first.next > first.end, bytes[first.end] == 0x0D {
                layout.lineEnding = [0x0D, 0x0A]
            }
            var n = 0
            while n < lines.count {
                let line = lines[n]
                guard line.end > line.start else { n += 1; continue }
                let first = bytes[line.start]
                // Indented lines that belong to a directive or a periodic/automated transaction.
                func skipIndented() { while n + 1 < lines.count, lines[n + 1].end > lines[n + 1].start,
                                             bytes[lines[n + 1].start] == 0x20 || bytes[lines[n + 1].start] == 0x09 { n += 1 } }
                if first >= 0x30 && first <= 0x39 {
                    var end = n
                    while end + 1 < lines.count, lines[end + 1].end > lines[end + 1].start,
                          bytes[lines[end + 1].start] == 0x20 || bytes[lines[end + 1].start] == 0x09 { end += 1 }
                    let texts = (n...end).map { bytes.text(lines[$0]) }
                    let block = parseBlock(texts)
                    do throws(Diagnostic) {
                        try add(block, lines: lines, n: n, end: end, fileIndex: fileIndex, path: path)
                    } catch {
                        if options.skipBad { skipped.append(error) } else { throw error }
                    }
                    n = end + 1
                    continue
                }
                let text = bytes.text(line)
                let word = text.prefix { $0 != " " && $0 != "\t" }
                switch word {
                case "comment":
                    while n + 1 < lines.count && bytes.text(lines[n + 1]).trimmingCharacters(in: " \t") != "end comment" { n += 1 }
                    n += 1
                case "test":
                    while n + 1 < lines.count && !bytes.text(lines[n + 1]).hasPrefix("end test") { n += 1 }
                    n += 1
                case "account":
                    let name = String(text.dropFirst(7).prefix { $0 != ";" }).trimmingCharacters(in: " \t")
                        .components(separatedByTwoSpaces: ())
                    layout.declaredAccounts.insert(name)
                    if fileIndex == 0 { layout.declarationInsertAt = line.next }
                    skipIndented()
                case "include":
                    let target = String(text.dropFirst(7)).trimmingCharacters(in: " \t")
                    let folder = path.lastIndex(of: "/").map { String(path[...$0]) } ?? ""
                    let full = target.hasPrefix("/") ? target : folder + target
                    if visiting.contains(FileIO.resolvingLinks(full)) {
                        throw Diagnostic("include cycle: \(target) is already being read", file: path, line: n + 1, column: 9,
                                         sourceLine: text, span: 8..<text.count)
                    }
                    let loaded: (bytes: [UInt8], stamp: FileStamp)
                    do throws(FileError) { loaded = try load(full) } catch {
                        throw Diagnostic("cannot include \(target): \(error.diagnostic.message)", file: path, line: n + 1, column: 9,
                                         sourceLine: text, span: 8..<text.count)
                    }
                    try readFile(loaded.bytes, path: full, stamp: loaded.stamp)
                default:
                    skipIndented()
                }
                n += 1
            }
        }

        func add(_ block: Block, lines: [Line], n: Int, end: Int, fileIndex: Int32, path: String) throws(Diagnostic) {
            guard let date = block.date else {
                let dateText = String(block.header.prefix { $0 != " " && $0 != "\t" })
                throw Diagnostic("cannot read the date '\(dateText)' (use YYYY-MM-DD)", file: path, line: n + 1, column: 1,
                                 sourceLine: block.header, span: 0..<max(1, dateText.count))
            }
            // Tags: the header's comment and the comment lines before the first posting.
            var found: [FoundTag] = []
            if let c = block.headerCommentStart {
                found += CommentTags.find(in: String(block.header.dropFirst(c + 1)), offset: c + 1)
            }
            for i in block.commentLines {
                let l = block.lines[i]
                if let c = l.firstIndex(of: ";") {
                    let off = l.distance(from: l.startIndex, to: c)
                    found += CommentTags.find(in: String(l[l.index(after: c)...]), offset: off + 1)
                }
            }
            var tagNames: [String] = []
            var intent: Intent?
            var note: UInt32 = 0
            for t in found {
                if t.ledgerStyle { ledgerStyle += 1 } else { hledgerStyle += 1 }
                if t.name.lowercased() == "intent", let i = Intent(name: t.value) { intent = i; continue }
                if t.name.lowercased() == "note" {
                    if !t.value.isEmpty { note = ledger.notes.intern(t.value) }
                    continue
                }
                tagNames.append(t.value.isEmpty ? t.name : t.name + ":" + t.value)
            }
            // Category: the single expense or income posting of a two-posting transaction.
            let categoryPostings = block.postings.filter { AccountKind.category(of: $0.account) != nil }
            var category: UInt32 = 0
            var lock: UInt8 = 0
            if block.postings.count > 2 {
                lock = 1
            } else if categoryPostings.count == 1, let name = AccountKind.category(of: categoryPostings[0].account) {
                if !name.isEmpty { category = ledger.categories.intern(name) }
            } else {
                lock = 2
            }
            // Amount: the money side's amount, or the other side's, negated.
            let money = block.postings.first { AccountKind.category(of: $0.account) == nil } ?? block.postings.first
            var amount = Amount.zero
            var symbol: String?
            if let money, let text = money.amountText {
                guard let a = JournalFormat.amount(text) else {
                    throw Diagnostic("cannot read the amount '\(text)'", file: path, line: n + money.line + 1,
                                     column: (money.amountStart ?? 0) + 1, sourceLine: block.lines[money.line],
                                     span: (money.amountStart ?? 0)..<((money.amountStart ?? 0) + text.count))
                }
                (amount, symbol) = a
            } else {
                var total = Amount.zero
                for p in block.postings where p.line != money?.line {
                    if let text = p.amountText, let a = JournalFormat.amount(text) {
                        total = total.adding(a.amount) ?? total
                        symbol = symbol ?? a.symbol
                    }
                }
                amount = -total
            }
            let merchant = ledger.merchants.intern(block.description)
            let account = ledger.accounts.intern(money?.account ?? "")
            ledger.append(day: date, merchant: merchant, amount: amount, currency: symbol.map { ledger.currencies.intern($0) } ?? 0,
                          account: account, intent: intent, category: category, tagSet: ledger.internTagSet(tagNames), note: note)
            locks.append(lock)
            layout.rowFile.append(fileIndex)
            layout.rowStart.append(lines[n].start)
            layout.rowEnd.append(lines[end].end)
        }

        try readFile(bytes, path: path, stamp: stamp)
        layout.tagStyle = ledgerStyle > hledgerStyle ? .ledger : .hledger
        ledger.categoryLock = locks
        let document = LedgerDocument(format: .journal, bytes: bytes, layout: .text(layout))
        return LoadedLedger(ledger: ledger, document: document, skipped: skipped)
    }
}

extension String {
    /// The part before two spaces or a tab (journal account names end there).
    func components(separatedByTwoSpaces _: Void) -> String {
        var out = ""
        var prev: Character?
        for c in self {
            if c == "\t" || (c == " " && prev == " ") { return out.trimmingCharacters(in: " ") }
            out.append(c)
            prev = c
        }
        return out.trimmingCharacters(in: " ")
    }

    func replacingAll(_ target: String, with replacement: String) -> String {
        split(separator: target, omittingEmptySubsequences: false).joined(separator: replacement)
    }
}
