import TagshModel

/// Beancount files: transactions are read into the model (tags `#name`,
/// intent and note as metadata); every other directive is kept byte for byte.
enum BeancountFormat {
    struct Posting {
        var line: Int
        var accountRange: Range<Int>
        var account: String
        var amountStart: Int?
        var amountText: String?
    }

    struct Block {
        var header: String
        var date: Day?
        var payee: String?
        var narration: String
        /// Tag tokens on the header line: name and character range (with the leading space).
        var tags: [(name: String, range: Range<Int>)]
        /// Where new tags go on the header: before a trailing comment, or at the end.
        var tagInsertAt: Int
        var lines: [String]
        /// Transaction metadata lines: key, index.
        var metadata: [(key: String, value: String, line: Int)]
        var postings: [Posting]
    }

    static let directives: Set<String> = ["open", "close", "commodity", "balance", "pad", "note", "document", "event",
                                          "custom", "price", "query"]

    /// Whether a dated line is a transaction (not another dated directive).
    static func isTransaction(_ line: String) -> Bool {
        let parts = line.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: true)
        guard parts.count >= 2 else { return false }
        return !directives.contains(String(parts[1]))
    }

    /// Reads a double-quoted string starting at `i`; returns the text and the index after the closing quote.
    static func quoted(_ chars: [Character], _ i: Int) -> (String, Int)? {
        guard i < chars.count, chars[i] == "\"" else { return nil }
        var out = ""
        var j = i + 1
        while j < chars.count {
            if chars[j] == "\\" && j + 1 < chars.count { out.append(chars[j + 1]); j += 2; continue }
            if chars[j] == "\"" { return (out, j + 1) }
            out.append(chars[j])
            j += 1
        }
        return nil
    }

    static func escape(_ s: String) -> String {
        "\"" + s.replacingAll("\\", with: "\\\\").replacingAll("\"", with: "\\\"") + "\""
    }

    static func parseBlock(_ lines: [String]) -> Block {
        let header = lines[0]
        let chars = Array(header)
        var i = 0
        while i < chars.count && chars[i] != " " && chars[i] != "\t" { i += 1 }
        let date = Day(iso: Substring(String(chars[..<i])))
        func spaces() { while i < chars.count && (chars[i] == " " || chars[i] == "\t") { i += 1 } }
        spaces()
        // The flag: `*`, `!`, `txn` or another single character.
        while i < chars.count && chars[i] != " " && chars[i] != "\t" && chars[i] != "\"" { i += 1 }
        spaces()
        var strings: [String] = []
        while let (s, next) = quoted(chars, i) {
            strings.append(s)
            i = next
            spaces()
        }
        var tags: [(String, Range<Int>)] = []
        var insertAt = chars.count
        while i < chars.count {
            if chars[i] == ";" { insertAt = i; break }
            if chars[i] == "#" || chars[i] == "^" {
                var j = i + 1
                while j < chars.count && chars[j] != " " && chars[j] != "\t" { j += 1 }
                if chars[i] == "#" {
                    var start = i
                    while start > 0 && (chars[start - 1] == " " || chars[start - 1] == "\t") { start -= 1 }
                    tags.append((String(chars[(i + 1)..<j]), start..<j))
                }
                i = j
            } else {
                i += 1
            }
        }
        // New tags go right after the last tag or string, before spaces and a comment.
        var end = insertAt
        while end > 0 && (chars[end - 1] == " " || chars[end - 1] == "\t") { end -= 1 }
        let payee = strings.count >= 2 ? strings[0] : nil
        let narration = strings.count >= 2 ? strings[1] : (strings.first ?? "")
        var block = Block(header: header, date: date, payee: payee, narration: narration, tags: tags, tagInsertAt: end,
                          lines: lines, metadata: [], postings: [])
        for (n, line) in lines.enumerated().dropFirst() {
            let lc = Array(line)
            var j = 0
            while j < lc.count && (lc[j] == " " || lc[j] == "\t") { j += 1 }
            if j >= lc.count || lc[j] == ";" { continue }
            // Metadata: `key: value` with a lower-case key.
            if lc[j].isLowercase, let colon = lc[j...].firstIndex(of: ":"),
               lc[j..<colon].allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" }) {
                if block.postings.isEmpty {
                    var k = colon + 1
                    while k < lc.count && lc[k] == " " { k += 1 }
                    let value = quoted(lc, k)?.0 ?? String(lc[k...]).trimmingCharacters(in: " \t")
                    block.metadata.append((String(lc[j..<colon]), value, n))
                }
                continue
            }
            if (lc[j] == "*" || lc[j] == "!") && j + 1 < lc.count && lc[j + 1] == " " { j += 2 }
            let accountStart = j
            var k = j
            while k < lc.count && lc[k] != " " && lc[k] != "\t" && lc[k] != ";" { k += 1 }
            let account = String(lc[accountStart..<k])
            var a = k
            while a < lc.count && (lc[a] == " " || lc[a] == "\t") { a += 1 }
            var amountText: String?
            var amountStart: Int?
            if a < lc.count && lc[a] != ";" {
                let endA = lc[a...].firstIndex(of: ";") ?? lc.count
                amountText = String(lc[a..<endA]).trimmingCharacters(in: " \t")
                amountStart = a
            }
            block.postings.append(Posting(line: n, accountRange: accountStart..<k, account: account, amountStart: amountStart,
                                          amountText: amountText?.isEmpty == true ? nil : amountText))
        }
        return block
    }

    static func read(_ bytes: [UInt8], path: String, stamp: FileStamp?, options: ReadOptions,
                     load: (String) throws(FileError) -> (bytes: [UInt8], stamp: FileStamp)) throws(Diagnostic) -> LoadedLedger {
        var ledger = Ledger()
        var layout = TextLayout(dialect: .beancount, files: [])
        var skipped: [Diagnostic] = []
        var locks: [UInt8] = []
        var visiting: [String] = []
        var pushed: [String] = []

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
                var end = n
                while end + 1 < lines.count, lines[end + 1].end > lines[end + 1].start,
                      bytes[lines[end + 1].start] == 0x20 || bytes[lines[end + 1].start] == 0x09 { end += 1 }
                let first = bytes[line.start]
                let text = bytes.text(line)
                if first >= 0x30 && first <= 0x39 {
                    if isTransaction(text) {
                        let block = parseBlock((n...end).map { bytes.text(lines[$0]) })
                        do throws(Diagnostic) {
                            try add(block, lines: lines, n: n, end: end, fileIndex: fileIndex, path: path)
                        } catch {
                            if options.skipBad { skipped.append(error) } else { throw error }
                        }
                    } else {
                        let parts = text.split(separator: " ", omittingEmptySubsequences: true)
                        if parts.count >= 3, parts[1] == "open" {
                            layout.declaredAccounts.insert(String(parts[2]))
                            if fileIndex == 0 { layout.declarationInsertAt = lines[end].next }
                        }
                    }
                } else if text.hasPrefix("pushtag ") || text.hasPrefix("poptag ") {
                    let tag = text.split(separator: " ").dropFirst().first.map { String($0.dropFirst()) } ?? ""
                    if text.hasPrefix("pushtag ") { pushed.append(tag) } else if let i = pushed.lastIndex(of: tag) { pushed.remove(at: i) }
                } else if text.hasPrefix("include ") {
                    let chars = Array(text)
                    if let (target, _) = quoted(chars, 8) {
                        let folder = path.lastIndex(of: "/").map { String(path[...$0]) } ?? ""
                        let full = target.hasPrefix("/") ? target : folder + target
                        if visiting.contains(FileIO.resolvingLinks(full)) {
                            throw Diagnostic("include cycle: \(target) is already being read", file: path, line: n + 1, column: 9,
                                             sourceLine: text, span: 8..<text.count)
                        }
                        let loaded: (bytes: [UInt8], stamp: FileStamp)
                        do throws(FileError) { loaded = try load(full) } catch {
                            throw Diagnostic("cannot include \(target): \(error.diagnostic.message)", file: path, line: n + 1,
                                             column: 9, sourceLine: text, span: 8..<text.count)
                        }
                        try readFile(loaded.bytes, path: full, stamp: loaded.stamp)
                    }
                }
                n = end + 1
            }
        }

        func add(_ block: Block, lines: [Line], n: Int, end: Int, fileIndex: Int32, path: String) throws(Diagnostic) {
            guard let date = block.date else {
                let dateText = String(block.header.prefix { $0 != " " })
                throw Diagnostic("cannot read the date '\(dateText)' (use YYYY-MM-DD)", file: path, line: n + 1, column: 1,
                                 sourceLine: block.header, span: 0..<max(1, dateText.count))
            }
            var intent: Intent?
            var note: UInt32 = 0
            for m in block.metadata {
                if m.key == "intent", let i = Intent(name: m.value) { intent = i }
                if m.key == "note", !m.value.isEmpty { note = ledger.notes.intern(m.value) }
            }
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
            let merchantName = block.payee.flatMap { $0.isEmpty ? nil : $0 } ?? block.narration
            ledger.append(day: date, merchant: ledger.merchants.intern(merchantName), amount: amount,
                          currency: symbol.map { ledger.currencies.intern($0) } ?? 0,
                          account: ledger.accounts.intern(money?.account ?? ""), intent: intent, category: category,
                          tagSet: ledger.internTagSet(block.tags.map(\.name) + pushed), note: note)
            if !pushed.isEmpty { layout.pushedTags[ledger.count - 1] = Set(pushed.map { $0.lowercased() }) }
            locks.append(lock)
            layout.rowFile.append(fileIndex)
            layout.rowStart.append(lines[n].start)
            layout.rowEnd.append(lines[end].end)
        }

        try readFile(bytes, path: path, stamp: stamp)
        ledger.categoryLock = locks
        return LoadedLedger(ledger: ledger, document: LedgerDocument(format: .beancount, bytes: bytes, layout: .text(layout)),
                            skipped: skipped)
    }
}

enum BeancountWriter {
    /// A tag beancount can spell: letters, digits and `- _ / .`.
    static func isValidTag(_ t: String) -> Bool {
        !t.isEmpty && t.allSatisfy { ($0.isASCII && ($0.isLetter || $0.isNumber)) || "-_/.".contains($0) }
    }

    static func rewrite(_ lines: [String], row: Int, ledger: Ledger, pushed: Set<String>, path: String) throws(Diagnostic)
        -> (lines: [String], newAccount: String?)
    {
        var lines = lines
        let block = BeancountFormat.parseBlock(lines)
        var newAccount: String?

        // Category.
        let categoryPostings = block.postings.filter { AccountKind.category(of: $0.account) != nil }
        let current = categoryPostings.count == 1 && block.postings.count <= 2 ? AccountKind.category(of: categoryPostings[0].account) : nil
        let wanted = ledger.category[row] == 0 ? "" : ledger.categories[ledger.category[row]].name
        if current == nil && !wanted.isEmpty {
            throw Diagnostic(ledger.categoryRefusal(row) ?? "transaction \(row + 1) has no single category posting", file: path)
        }
        if let current, current.lowercased() != wanted.lowercased() {
            // Beancount account components start with a capital letter or a digit; the name is not altered to fit.
            let parts = wanted.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
            guard parts.allSatisfy({ p in
                guard let f = p.first, f.isUppercase || f.isNumber else { return false }
                return p.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" }
            }) else {
                throw Diagnostic("transaction \(row + 1): category '\(wanted)' cannot be a beancount account name "
                                 + "(each part starts with a capital letter or digit, then letters, digits and -)", file: path)
            }
            let p = categoryPostings[0]
            let account = AccountKind.topLevel(of: p.account) + (parts.isEmpty ? "" : ":" + parts.joined(separator: ":"))
            lines[p.line] = TextWriter.replaceAccount(in: lines[p.line], range: p.accountRange, with: account, amountStart: p.amountStart)
            newAccount = account
        }

        // Tags on the header line; those a `pushtag` gives cannot be taken off here.
        let all = ledger.tagNames(row)
        for p in pushed where !all.contains(where: { $0.lowercased() == p }) {
            throw Diagnostic("transaction \(row + 1): the tag '\(p)' comes from a pushtag directive; remove it there", file: path)
        }
        let tags = all.filter { !pushed.contains($0.lowercased()) }
        for t in tags where !isValidTag(t) {
            throw Diagnostic("transaction \(row + 1): beancount cannot spell the tag '\(t)' (letters, digits and - _ / . only)", file: path)
        }
        let have = block.tags.map { $0.name.lowercased() }
        let wantedTags = tags.map { $0.lowercased() }
        var header = Array(lines[0])
        var insertAt = block.tagInsertAt
        for t in block.tags.reversed() where !wantedTags.contains(t.name.lowercased()) {
            header.removeSubrange(t.range)
            if t.range.upperBound <= insertAt { insertAt -= t.range.count }
        }
        let added = tags.filter { !have.contains($0.lowercased()) }
        if !added.isEmpty {
            header.insert(contentsOf: Array(added.map { " #" + $0 }.joined()), at: insertAt)
        }
        lines[0] = String(header)

        // Intent and note as metadata, right after the header.
        let indent = block.postings.first.map { p in String(lines[p.line].prefix { $0 == " " || $0 == "\t" }) } ?? "  "
        var removals: [Int] = []
        var inserts: [String] = []
        for (key, value) in [("intent", ledger.intentValue(row)?.description), ("note", ledger.note[row] == 0 ? nil : ledger.notes[ledger.note[row]])] {
            let existing = block.metadata.first { $0.key == key }
            if let existing {
                if let value {
                    if existing.value != value { lines[existing.line] = indent + key + ": " + BeancountFormat.escape(value) }
                } else if key != "intent" || Intent(name: existing.value) != nil {
                    removals.append(existing.line)
                }
            } else if let value {
                inserts.append(indent + key + ": " + BeancountFormat.escape(value))
            }
        }
        for i in removals.sorted(by: >) { lines.remove(at: i) }
        if !inserts.isEmpty {
            let after = block.metadata.map(\.line).filter { !removals.contains($0) }.max().map { l in l - removals.filter { $0 < l }.count } ?? 0
            lines.insert(contentsOf: inserts, at: after + 1)
        }
        return (lines, newAccount)
    }
}
