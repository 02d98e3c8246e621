import TagshModel

/// Writes changed transactions back into journal and beancount files: each
/// changed block is re-read and edited minimally; every other byte is copied.
enum TextWriter {
    /// What a save changes in a text ledger's files: each file's edits, and what its layout learns.
    struct Changes: Sendable {
        /// By file (0 is the main file), sorted as a splice holds them.
        var edits: [Int32: [ByteSplice.Edit]] = [:]
        var newAccounts: [String] = []
        /// Where new declarations go once the edits are made (before them when there are no new accounts).
        var declarationInsertAt = 0
    }

    /// The files to write (the main file first, then each changed included file), as splices of their bytes.
    static func render(_ layout: TextLayout, ledger: Ledger, changedRows: [Int], categoryChanged: Set<Int>? = nil)
        throws(Diagnostic) -> (outputs: [LedgerDocument.Output], changes: Changes)
    {
        var changes = Changes()
        var byFile: [Int32: [Int]] = [:]
        for row in changedRows { byFile[layout.rowFile[row], default: []].append(row) }
        var outputs: [LedgerDocument.Output] = []
        var mainEdits: [ByteSplice.Edit] = []
        for fileIndex in byFile.keys.sorted() {
            let file = layout.files[Int(fileIndex)]
            // Each block is rewritten on its own, so the rows are rewritten in two halves at once; the halves are
            // merged in row order (edits, new accounts, the first error), as one loop would have left them.
            let rows = byFile[fileIndex, default: []].sorted()
            let halves = Parallel.halves(rows.count, threshold: 2_000) { range in
                rewrite(rows[range], file: file, layout: layout, ledger: ledger, categoryChanged: categoryChanged)
            }
            var edits: [ByteSplice.Edit] = []
            for half in halves {
                let (halfEdits, accounts) = try half.get()
                edits += halfEdits
                for a in accounts where !layout.declaredAccounts.contains(a) && !changes.newAccounts.contains(a) {
                    changes.newAccounts.append(a)
                }
            }
            if fileIndex == 0 { mainEdits = edits } else {
                let splice = ByteSplice(file.bytes, edits: edits)
                changes.edits[fileIndex] = splice.edits
                outputs.append(LedgerDocument.Output(path: file.path, content: splice))
            }
        }
        if !changes.newAccounts.isEmpty {
            let eol = String(decoding: layout.lineEnding, as: UTF8.self)
            let declarations: String
            switch layout.dialect {
            case .journal: declarations = changes.newAccounts.map { "account \($0)" + eol }.joined()
            case .beancount:
                // Dated on or before the first transaction, so every use comes after it.
                let first = ledger.days.min().map { Day(daysSinceEpoch: $0).description } ?? "1970-01-01"
                declarations = changes.newAccounts.map { "\(first) open \($0)" + eol }.joined()
            }
            var at = layout.declarationInsertAt
            let main = layout.files[0].bytes
            // After the last declaration's line (or at the top); a file not ending in a newline gets one first.
            var text = declarations
            if at > 0 && main[at - 1] != 0x0A { text = eol + text }
            if at > main.count { at = main.count }
            changes.declarationInsertAt = shifted(at, by: mainEdits) + text.utf8.count
            mainEdits.append((at, at, Array(text.utf8)))
        } else {
            changes.declarationInsertAt = shifted(layout.declarationInsertAt, by: mainEdits)
        }
        let main = ByteSplice(layout.files[0].bytes, edits: mainEdits)
        changes.edits[0] = main.edits
        outputs.insert(LedgerDocument.Output(path: nil, content: main), at: 0)
        return (outputs, changes)
    }

    /// Makes a save's changes to the layout it was rendered from: each file's bytes are edited in place and
    /// every row's block is shifted by the edits before it (an edited block takes its new length), so a save
    /// need not read the files again, nor copy them.
    static func apply(_ changes: Changes, to layout: inout TextLayout) {
        for (fileIndex, edits) in changes.edits where !edits.isEmpty {
            var bytes = layout.files[Int(fileIndex)].bytes
            layout.files[Int(fileIndex)].bytes = []
            ByteSplice.apply(edits, to: &bytes)
            layout.files[Int(fileIndex)].bytes = bytes
            var k = 0
            var delta = 0
            for row in 0..<layout.rowFile.count where layout.rowFile[row] == fileIndex {
                let start = layout.rowStart[row], end = layout.rowEnd[row]
                while k < edits.count && (edits[k].end < start || (edits[k].end == start && edits[k].start < start)
                                          || (edits[k].start == edits[k].end && edits[k].start <= start)) {
                    delta += edits[k].bytes.count - (edits[k].end - edits[k].start)
                    k += 1
                }
                if k < edits.count && edits[k].start == start && edits[k].end == end {
                    layout.rowStart[row] = start + delta
                    layout.rowEnd[row] = start + delta + edits[k].bytes.count
                    delta += edits[k].bytes.count - (edits[k].end - edits[k].start)
                    k += 1
                } else {
                    layout.rowStart[row] = start + delta
                    layout.rowEnd[row] = end + delta
                }
            }
        }
        layout.declaredAccounts.formUnion(changes.newAccounts)
        layout.declarationInsertAt = changes.declarationInsertAt
    }

    /// The new bytes of each row's block, in row order, and the accounts their categories now name.
    /// (`shortcuts: false`, for tests: every block the long way, without `JournalWriter.addingOnly` and
    /// `BeancountWriter.addingOnly`.)
    static func rewrite(_ rows: ArraySlice<Int>, file: TextFile, layout: TextLayout, ledger: Ledger, categoryChanged: Set<Int>?,
                        shortcuts: Bool = true)
        -> Result<(edits: [ByteSplice.Edit], accounts: [String]), Diagnostic>
    {
        var edits: [ByteSplice.Edit] = []
        var accounts: [String] = []
        for row in rows {
            let start = layout.rowStart[row], end = layout.rowEnd[row]
            if shortcuts, categoryChanged.map({ !$0.contains(row) }) ?? false, let block = file.bytes.withUnsafeBufferPointer({ b in
                switch layout.dialect {
                case .journal: JournalWriter.addingOnly(b, start, end, row: row, ledger: ledger, style: layout.tagStyle)
                case .beancount: BeancountWriter.addingOnly(b, start, end, row: row, ledger: ledger, pushed: layout.pushedTags[row] ?? [])
                }
            }) {
                edits.append((start, end, block))
                continue
            }
            // The block's lines, split on bytes (a String's Character walk costs more than the edit).
            var lines: [String] = []
            var crlf = false
            var lineStart = start
            for i in start...end where i == end || file.bytes[i] == 0x0A {
                var lineEnd = i
                if lineEnd > lineStart && file.bytes[lineEnd - 1] == 0x0D && i < end { lineEnd -= 1; crlf = true }
                lines.append(String(decoding: file.bytes[lineStart..<lineEnd], as: UTF8.self))
                lineStart = i + 1
            }
            let result: (lines: [String], newAccount: String?)
            do throws(Diagnostic) {
                switch layout.dialect {
                case .journal:
                    result = try JournalWriter.rewrite(lines, row: row, ledger: ledger, style: layout.tagStyle, path: file.path,
                                                       categoryMayChange: categoryChanged?.contains(row) ?? true,
                                                       aliases: layout.aliasScopes.aliases(atRow: row))
                case .beancount:
                    result = try BeancountWriter.rewrite(lines, row: row, ledger: ledger, pushed: layout.pushedTags[row] ?? [], path: file.path,
                                                         categoryMayChange: categoryChanged?.contains(row) ?? true)
                }
            } catch {
                return .failure(error)
            }
            if let a = result.newAccount, !accounts.contains(a) { accounts.append(a) }
            // The lines' bytes joined straight into the edit (joining them into a `String` first cost a tenth).
            var block: [UInt8] = []
            block.reserveCapacity(result.lines.reduce(0) { $0 + $1.utf8.count } + (result.lines.count - 1) * (crlf ? 2 : 1))
            for (k, line) in result.lines.enumerated() {
                if k > 0 { if crlf { block.append(0x0D) }; block.append(0x0A) }
                block.append(contentsOf: line.utf8)
            }
            edits.append((start, end, block))
        }
        return .success((edits, accounts))
    }

    /// Calls `body` with each line of the block `bytes[start..<end]` as `rewrite` splits it: its index, its start,
    /// the end of its text (before the `\r` of a `\r\n`, except on the last line, which `rewrite` leaves whole) and
    /// its end (its `\n`, or `end`). Returns whether lines end `\r\n`; nil when `body` said stop (false), or when
    /// some lines end `\r\n` and others `\n` (`rewrite` would end them all `\r\n`).
    @inline(__always)
    static func eachLine(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int,
                         _ body: (_ line: Int, _ start: Int, _ textEnd: Int, _ end: Int) -> Bool) -> Bool? {
        var lineStart = start, line = 0
        var crlf = false, lf = false
        while true {
            var lineEnd = lineStart
            while lineEnd < end && bytes[lineEnd] != 0x0A { lineEnd += 1 }
            var textEnd = lineEnd
            if lineEnd < end {
                if textEnd > lineStart && bytes[textEnd - 1] == 0x0D { textEnd -= 1; crlf = true } else { lf = true }
            }
            guard body(line, lineStart, textEnd, lineEnd) else { return nil }
            if lineEnd >= end { break }
            lineStart = lineEnd + 1
            line += 1
        }
        return crlf && lf ? nil : crlf
    }

    static func shifted(_ offset: Int, by edits: [ByteSplice.Edit]) -> Int {
        var o = offset
        for e in edits where e.end <= offset { o += e.bytes.count - (e.end - e.start) }
        return o
    }

    /// Sets a block's category: rewrites its single expense or income
    /// posting's account (kept in brackets for a virtual posting) and returns
    /// the new account, or nil when the category did not change. `account`
    /// makes the account name from the top level and the category. Accounts
    /// are read under `aliases` (a journal's `alias` lines in force at the
    /// block), as the reader read them; a posting written as an alias gets the
    /// new account in full (`food` becomes `Expenses:Gifts`).
    static func applyCategory(_ lines: inout [String], postings: [TextPosting], row: Int, ledger: Ledger, path: String,
                              aliases: AccountAliases? = nil,
                              account makeAccount: (_ top: String, _ category: String) throws(Diagnostic) -> String)
        throws(Diagnostic) -> String?
    {
        func named(_ written: String) -> String { aliases.map { $0.apply(written) } ?? written }
        let categoryPostings = postings.filter { AccountKind.category(of: named($0.account)) != nil }
        let current = categoryPostings.count == 1 && postings.count <= 2 ? AccountKind.category(of: named(categoryPostings[0].account)) : nil
        let wanted = ledger.category[row] == 0 ? "" : ledger.categories[ledger.category[row]].name
        if current == nil && !wanted.isEmpty {
            throw Diagnostic(ledger.categoryRefusal(row, setting: ledger.category[row]) ?? "transaction \(row + 1) has no single category posting", file: path)
        }
        guard let current, current.lowercased() != wanted.lowercased() else { return nil }
        let p = categoryPostings[0]
        let account = try makeAccount(AccountKind.topLevel(of: named(p.account)), wanted)
        // An alias may rename the account written (`alias Expenses = Personal:Expenses`): then no account written
        // here would read as the category, and the save is refused rather than write one that reads otherwise.
        if let aliases, AccountKind.category(of: aliases.apply(account))?.lowercased() != wanted.lowercased() {
            throw Diagnostic("transaction \(row + 1): an alias in force renames \(account) to \(aliases.apply(account)), "
                             + "so its category cannot be written as \(wanted)", file: path)
        }
        let original = lines[p.line]
        let inner = Array(original)[p.accountRange]
        let wrapped = inner.first == "(" ? "(" + account + ")" : inner.first == "[" ? "[" + account + "]" : account
        lines[p.line] = replaceAccount(in: original, range: p.accountRange, with: wrapped, amountStart: p.amountStart)
        return account
    }

    /// The tags, intent and note a transaction should carry, as (name, value) pairs.
    static func desiredTags(_ ledger: Ledger, _ row: Int) -> [(name: String, value: String)] {
        var out = ledger.tagNames(row).map { tag -> (name: String, value: String) in
            // An ASCII tag is split at its colon's byte: the `Character` search cost a quarter of rewriting a block.
            let colon = tag.isASCII ? tag.utf8.firstIndex(of: 0x3A) : tag.firstIndex(of: ":")
            if let colon { return (String(tag[..<colon]), String(tag[tag.index(after: colon)...])) }
            return (tag, "")
        }
        if let i = ledger.intentValue(row) { out.append(("intent", i.description)) }
        if ledger.note[row] != 0 { out.append(("note", ledger.notes[ledger.note[row]])) }
        return out
    }

    /// Replaces the account of a posting line, keeping the amount where it was when there is room.
    static func replaceAccount(in line: String, range: Range<Int>, with account: String, amountStart: Int?) -> String {
        var chars = Array(line)
        let oldLength = range.count
        chars.replaceSubrange(range, with: Array(account))
        guard let amountStart else { return String(chars) }
        let delta = account.count - oldLength
        let gapStart = range.lowerBound + account.count
        let gapEnd = amountStart + delta
        guard gapEnd >= gapStart, gapEnd <= chars.count else { return String(chars) }
        let gap = gapEnd - gapStart
        // Keep the amount column: fewer spaces after a longer account, more after a shorter one; never fewer than two.
        let wanted = max(2, gap - delta)
        if chars[gapStart..<gapEnd].allSatisfy({ $0 == " " }) {
            chars.replaceSubrange(gapStart..<gapEnd, with: Array(repeating: " ", count: wanted))
        }
        return String(chars)
    }
}

enum JournalWriter {
    static func rewrite(_ lines: [String], row: Int, ledger: Ledger, style: TagStyle, path: String, categoryMayChange: Bool = true,
                        aliases: AccountAliases? = nil)
        throws(Diagnostic) -> (lines: [String], newAccount: String?)
    {
        var lines = lines
        // Postings are only read when the category may have changed; comments are found either way.
        let block = categoryMayChange ? JournalFormat.parseBlock(lines) : JournalFormat.parseHeaderAndComments(lines)
        var newAccount: String?

        // Category: rewrite the expense or income posting's account.
        if categoryMayChange {
            newAccount = try TextWriter.applyCategory(&lines, postings: block.postings, row: row, ledger: ledger, path: path, aliases: aliases) {
                (top: String, category: String) throws(Diagnostic) -> String in AccountKind.account(top: top, category: category)
            }
        }

        // Tags, intent and note, as tag tokens in comments.
        var found: [(line: Int, tag: FoundTag)] = []
        if let c = block.headerCommentStart {
            found += CommentTags.find(in: String(lines[0].dropFirst(c + 1)), offset: c + 1).map { (0, $0) }
        }
        for i in block.commentLines {
            if let off = JournalFormat.commentStart(lines[i]) {
                found += CommentTags.find(in: String(lines[i].dropFirst(off + 1)), offset: off + 1).map { (i, $0) }
            }
        }
        var (keep, additions) = settle(found.map(\.tag), TextWriter.desiredTags(ledger, row))

        // A note or an intent whose value changed is rewritten where it stands, in its own spelling
        // (`; Note: old` becomes `; Note: new`), when it is the only thing in its comment. Among other tags
        // (`; coffee:, intent:need`) it is taken off and written on a line of its own, as a new one is: ledger reads
        // nothing after a comma, so a value rewritten in place there would be hledger's only (tried: `ledger print
        // --limit 'tag("intent") == "want"'` then found 1 of 3 transactions, 2 with the line of its own).
        for (i, f) in found.enumerated() where !keep[i] && !f.tag.ledgerStyle {
            let name = f.tag.name.lowercased()
            guard name == "note" || name == "intent", let a = additions.firstIndex(where: { $0.name == name }) else { continue }
            var chars = Array(lines[f.line])
            guard let semicolon = f.line == 0 ? block.headerCommentStart : chars.firstIndex(of: ";"),
                  String(chars[(semicolon + 1)...]).trimmingCharacters(in: " \t")
                    == String(chars[f.tag.range]).trimmingCharacters(in: " \t"),
                  let colon = chars[f.tag.range].firstIndex(of: ":") else { continue }
            var valueStart = colon + 1
            while valueStart < chars.count && (chars[valueStart] == " " || chars[valueStart] == "\t") { valueStart += 1 }
            var end = chars.count
            while end > valueStart && (chars[end - 1] == " " || chars[end - 1] == "\t") { end -= 1 }
            chars.replaceSubrange(valueStart..<end, with: Array(additions[a].value))
            lines[f.line] = String(chars)
            keep[i] = true
            additions.remove(at: a)
        }

        // Remove the tags no longer wanted, right to left on each line.
        var removals: [Int: [(Range<Int>, FoundTag)]] = [:]
        for (i, f) in found.enumerated() where !keep[i] { removals[f.line, default: []].append((f.tag.range, f.tag)) }
        var deleteLines = Set<Int>()
        for (lineIndex, items) in removals {
            var chars = Array(lines[lineIndex])
            // Ledger-style tokens hold several names: rebuild them with those that stay.
            var byRange: [Range<Int>: [String]] = [:]
            for (r, t) in items where t.ledgerStyle { byRange[r, default: []].append(t.name.lowercased()) }
            var done = Set<Range<Int>>()
            for (r, t) in items.sorted(by: { $0.0.lowerBound > $1.0.lowerBound }) where !done.contains(r) {
                done.insert(r)
                if t.ledgerStyle {
                    let all = found.filter { $0.line == lineIndex && $0.tag.range == r }.map(\.tag.name)
                    let gone = byRange[r] ?? []
                    let stay = all.filter { !gone.contains($0.lowercased()) }
                    chars.replaceSubrange(r, with: Array(stay.isEmpty ? "" : ":" + stay.joined(separator: ":") + ":"))
                } else {
                    chars.removeSubrange(r)
                }
            }
            var line = String(chars)
            // Tidy what is left of the comment: a dangling ", " or an empty comment.
            if let c = line.firstIndex(of: ";") {
                var rest = String(line[line.index(after: c)...])
                while let l = rest.last, l == " " || l == "," || l == "\t" { rest.removeLast() }
                if rest.trimmingCharacters(in: " \t").isEmpty {
                    if lineIndex == 0 {
                        var head = String(line[..<c])
                        while let l = head.last, l == " " || l == "\t" { head.removeLast() }
                        line = head
                    } else {
                        deleteLines.insert(lineIndex)
                    }
                } else {
                    line = String(line[...c]) + rest
                }
            }
            lines[lineIndex] = line
        }

        // Add the new ones, one to an indented comment line under the header: the one
        // spelling both hledger and ledger read (ledger sees nothing after a comma, and
        // hledger does not split `:a:b:`; a payee-less header would give ledger its payee).
        if !additions.isEmpty {
            let indent = block.postings.first.map { p in String(lines[p.line].prefix { $0 == " " || $0 == "\t" }) } ?? "    "
            let added = additions.map { indent + commentLine($0, style: style) }
            let insertAt = (block.commentLines.max() ?? 0) + 1
            lines.insert(contentsOf: added, at: insertAt)
            deleteLines = Set(deleteLines.map { $0 >= insertAt ? $0 + added.count : $0 })
        }
        for i in deleteLines.sorted(by: >) { lines.remove(at: i) }
        return (lines, newAccount)
    }

    /// Which of the tags a block's comments hold stay, and the tags, intent and note the transaction should carry
    /// (`desired`) that none of them spells and so are added.
    static func settle(_ found: [FoundTag], _ desired: [(name: String, value: String)])
        -> (keep: [Bool], additions: [(name: String, value: String)])
    {
        // A tag is matched by `name:value` ignoring case. In ASCII that is compared byte by byte; otherwise as the
        // lower-cased `String`s (which also take `é` and `e` + U+0301 as one), built once each.
        let ascii = desired.allSatisfy { $0.name.isASCII && $0.value.isASCII } && found.allSatisfy { $0.name.isASCII && $0.value.isASCII }
        let keys = ascii ? [] : desired.map { key($0.name, $0.value) }
        func same(_ d: Int, _ name: String, _ value: String) -> Bool {
            ascii ? sameASCIIKey(desired[d], (name, value)) : keys[d] == key(name, value)
        }
        var wanted = Array(desired.indices) // those no found tag has matched yet
        var keep: [Bool] = []
        for f in found {
            // Intent and note values the model does not hold (intent:maybe) are kept as they are.
            if let i = wanted.firstIndex(where: { same($0, f.name, f.value) }) { wanted.remove(at: i); keep.append(true) } else {
                keep.append(f.name.lowercased() == "intent" && Intent(name: f.value) == nil)
            }
        }
        return (keep, desired.filter { d in wanted.contains { same($0, d.name, d.value) } })
    }

    private static func key(_ name: String, _ value: String) -> String { (name + ":" + value).lowercased() }

    /// Whether `a.name:a.value` and `b.name:b.value`, all ASCII, are the same ignoring case (as their `key`s).
    private static func sameASCIIKey(_ a: (name: String, value: String), _ b: (name: String, value: String)) -> Bool {
        guard a.name.utf8.count + a.value.utf8.count == b.name.utf8.count + b.value.utf8.count else { return false }
        var x = a.name.utf8.makeIterator(), y = b.name.utf8.makeIterator()
        var xInValue = false, yInValue = false
        // Each side's bytes, then `:`, then the value's (a name may hold `:` itself: `a:b` + `` is `a` + `b:`).
        func next(_ it: inout String.UTF8View.Iterator, _ inValue: inout Bool, _ value: String) -> UInt8? {
            if let c = it.next() { return c }
            if inValue { return nil }
            inValue = true
            it = value.utf8.makeIterator()
            return 0x3A
        }
        while true {
            let c = next(&x, &xInValue, a.value), d = next(&y, &yInValue, b.value)
            guard let c, let d else { return c == nil && d == nil }
            if c != d && c | 0x20 != d | 0x20 || (c != d && !((c | 0x20) >= 0x61 && (c | 0x20) <= 0x7A)) { return false }
        }
    }

    /// An added tag's comment line, after its indent.
    static func commentLine(_ t: (name: String, value: String), style: TagStyle) -> String {
        "; " + (t.value.isEmpty ? (style == .ledger ? ":" + t.name + ":" : t.name + ":") : t.name + ": " + t.value)
    }

    /// The new bytes of the block `bytes[start..<end]` when its transaction's change only adds to what its comments
    /// hold (tags, an intent, a note) and leaves its category: worked out on the bytes, they are what `rewrite` gives
    /// (the block with the added comment lines under the header's comments). Nil for any other change, and for
    /// blocks whose bytes the shortcut does not read as `rewrite` would (a `;` beside a non-ASCII byte, a posting
    /// indent before one, lines ending both ways): the caller rewrites those.
    ///
    /// (`rewrite` splits a block into `String` lines and edits those: on two cores, 105-175 ms of a 1M journal's
    /// save after `tag 1-100000 +tenth`, where the whole save took 240-500 ms.)
    static func addingOnly(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int, row: Int, ledger: Ledger, style: TagStyle) -> [UInt8]? {
        var found: [FoundTag] = []
        // The tags of a comment: the text after the line's first `;`, as `rewrite` takes it.
        func comment(_ from: Int, _ to: Int) -> Bool {
            var semicolon = from
            while semicolon < to && bytes[semicolon] != 0x3B { semicolon += 1 }
            guard semicolon < to else { return true }
            // A `;` with ASCII on either side is a character of its own, where `rewrite` finds it.
            guard (semicolon == from || bytes[semicolon - 1] < 0x80) && (semicolon + 1 == to || bytes[semicolon + 1] < 0x80) else { return false }
            found += CommentTags.find(in: String(decoding: UnsafeBufferPointer(rebasing: bytes[(semicolon + 1)..<to]), as: UTF8.self), offset: 0)
            return true
        }
        var insertAt: Int? // the first byte of the line after the header's comments
        var indent: Range<Int>?
        var inComments = true
        let crlf = TextWriter.eachLine(bytes, start, end) { line, lineStart, contentEnd, lineEnd in
            guard inComments else { return true }
            var first = lineStart
            while first < contentEnd && (bytes[first] == 0x20 || bytes[first] == 0x09) { first += 1 }
            if line == 0 || (first < contentEnd && (bytes[first] == 0x3B || bytes[first] == 0x23)) {
                guard comment(lineStart, contentEnd) else { return false }
                insertAt = lineEnd < end ? lineEnd + 1 : nil
            } else if first < contentEnd {
                // The first posting: its indent is the added lines'.
                guard bytes[first] < 0x80 else { return false }
                indent = lineStart..<first
                inComments = false
            }
            return true
        }
        guard let crlf, let insertAt else { return nil }
        let (keep, additions) = settle(found, TextWriter.desiredTags(ledger, row))
        guard !keep.contains(false) else { return nil }
        var block: [UInt8] = []
        block.reserveCapacity(end - start + additions.count * 24)
        block.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<insertAt]))
        for a in additions {
            if let indent { block.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[indent])) } else { block.append(contentsOf: "    ".utf8) }
            block.append(contentsOf: commentLine(a, style: style).utf8)
            if crlf { block.append(0x0D) }
            block.append(0x0A)
        }
        block.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[insertAt..<end]))
        return block
    }
}
