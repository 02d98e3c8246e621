import TagshModel

/// Beancount files: transactions are read into the model (tags `#name`,
/// intent and note as metadata); every other directive is kept byte for byte.
enum BeancountFormat {
    typealias Posting = TextPosting

    struct Block {
        var header: String
        /// Tag tokens on the header line: name and character range (with the leading space).
        var tags: [(name: String, range: Range<Int>)]
        /// Where new tags go on the header: before a trailing comment, or at the end.
        var tagInsertAt: Int
        var lines: [String]
        /// Transaction metadata lines: key, index.
        var metadata: [(key: String, value: String, line: Int)]
        /// Every posting; empty when the block was parsed without them.
        var postings: [Posting]
        /// The line of the first posting.
        var firstPostingLine: Int?
    }

    static let directives: Set<String> = ["open", "close", "commodity", "balance", "pad", "note", "document", "event",
                                          "custom", "price", "query"]
    static let directiveBytes: [[UInt8]] = directives.sorted().map { Array($0.utf8) }

    /// Reads a double-quoted string starting at `i`; returns the text and the index after the closing quote.
    /// (Characters, or the bytes of an ASCII line.)
    static func quoted<U: TextUnit>(_ chars: [U], _ i: Int) -> (String, Int)? {
        guard i < chars.count, chars[i] == .quote else { return nil }
        var out: [U] = []
        var j = i + 1
        while j < chars.count {
            if chars[j] == .backslash && j + 1 < chars.count { out.append(chars[j + 1]); j += 2; continue }
            if chars[j] == .quote { return (U.string(out), j + 1) }
            out.append(chars[j])
            j += 1
        }
        return nil
    }

    /// A metadata value: a quoted string unescaped, or the rest of the line (a number, a date, an account).
    static func metadataValue<U: TextUnit>(_ chars: [U], from i: Int) -> String {
        quoted(chars, i)?.0 ?? U.string(chars[i...]).trimmingCharacters(in: " \t")
    }

    /// A metadata line's key and value (`key` and `valueStart` as `BlockLine.scan` gave them).
    private static func metadata<U: TextUnit>(_ chars: [U], key: Range<Int>, valueStart: Int) -> (key: String, value: String) {
        (U.string(chars[key]), metadataValue(chars, from: valueStart))
    }

    static func escape(_ s: String) -> String {
        "\"" + s.replacingAll("\\", with: "\\\\").replacingAll("\"", with: "\\\"") + "\""
    }

    /// The block's header tags, its metadata (those before the first posting: the transaction's own) and its
    /// postings. Without `postings` (a save where the category cannot change), it stops at the first posting.
    static func parseBlock(_ lines: [String], postings: Bool = true) -> Block {
        let header = lines[0]
        let (tags, end) = header.isASCII ? scanHeader(Array(header.utf8)) : scanHeader(Array(header))
        var block = Block(header: header, tags: tags, tagInsertAt: end,
                          lines: lines, metadata: [], postings: [])
        for (n, line) in lines.enumerated().dropFirst() {
            switch BlockLine.scan(line, dialect: .beancount) {
            case .blank, .comment: continue
            case .metadata(let key, let valueStart):
                if block.firstPostingLine == nil {
                    let (k, v) = line.isASCII ? metadata(Array(line.utf8), key: key, valueStart: valueStart)
                        : metadata(Array(line), key: key, valueStart: valueStart)
                    block.metadata.append((k, v, n))
                }
            case .posting(let span):
                if block.firstPostingLine == nil { block.firstPostingLine = n }
                guard postings else { return block }
                block.postings.append(TextPosting(line: n, span: span, in: line))
            }
        }
        return block
    }

    /// A header's `#tags` (name and range, with the spaces before) and where new tags go:
    /// right after the last tag or string, before spaces and a comment.
    static func scanHeader<U: TextUnit>(_ chars: [U]) -> (tags: [(name: String, range: Range<Int>)], insertAt: Int) {
        var i = 0
        while i < chars.count && chars[i] != .space && chars[i] != .tab { i += 1 } // the date
        func spaces() { while i < chars.count && (chars[i] == .space || chars[i] == .tab) { i += 1 } }
        spaces()
        // The flag: `*`, `!`, `txn` or another single character.
        while i < chars.count && chars[i] != .space && chars[i] != .tab && chars[i] != .quote { i += 1 }
        spaces()
        // Payee and narration: skipped, as tags come after them.
        while let next = skipQuoted(chars, i) {
            i = next
            spaces()
        }
        var tags: [(name: String, range: Range<Int>)] = []
        var insertAt = chars.count
        while i < chars.count {
            if chars[i] == .semicolon { insertAt = i; break }
            if chars[i] == .hash || chars[i] == .caret {
                var j = i + 1
                while j < chars.count && chars[j] != .space && chars[j] != .tab { j += 1 }
                if chars[i] == .hash {
                    var start = i
                    while start > 0 && (chars[start - 1] == .space || chars[start - 1] == .tab) { start -= 1 }
                    tags.append((U.string(chars[(i + 1)..<j]), start..<j))
                }
                i = j
            } else {
                i += 1
            }
        }
        var end = insertAt
        while end > 0 && (chars[end - 1] == .space || chars[end - 1] == .tab) { end -= 1 }
        return (tags, end)
    }

    /// The index after the double-quoted string starting at `i` (what `quoted` reads, without building it).
    private static func skipQuoted<U: TextUnit>(_ chars: [U], _ i: Int) -> Int? {
        guard i < chars.count, chars[i] == .quote else { return nil }
        var j = i + 1
        while j < chars.count {
            if chars[j] == .backslash && j + 1 < chars.count { j += 2; continue }
            if chars[j] == .quote { return j + 1 }
            j += 1
        }
        return nil
    }

    static func read(_ bytes: [UInt8], path: String, stamp: FileStamp?, options: ReadOptions,
                     load: @escaping (String) throws(FileError) -> (bytes: [UInt8], stamp: FileStamp)) throws(Diagnostic) -> LoadedLedger {
        var reader = TextReader(dialect: .beancount, options: options, load: load)
        try reader.readFile(bytes, path: path, stamp: stamp)
        return reader.finish(mainBytes: bytes, format: .beancount)
    }
}

enum BeancountWriter {
    /// A tag beancount can spell: letters, digits and `- _ / .`.
    /// Read as UTF-8 bytes: any byte of a non-ASCII character fails, as the character would (a `Character` walk
    /// with its Unicode properties took a fifth of rewriting a transaction's block).
    static func isValidTag(_ t: String) -> Bool {
        !t.isEmpty && t.utf8.allSatisfy { c in
            (c >= 0x61 && c <= 0x7A) || (c >= 0x41 && c <= 0x5A) || (c >= 0x30 && c <= 0x39)
                || c == 0x2D || c == 0x5F || c == 0x2F || c == 0x2E
        }
    }

    /// Why a transaction cannot carry these tags in a beancount file, or nil.
    static func refusal(tags: [String], pushed: Set<String>, row: Int) -> String? {
        if !pushed.isEmpty {
            for p in pushed.sorted() where !tags.contains(where: { $0.lowercased() == p }) {
                return "transaction \(row + 1): the tag '\(p)' comes from a pushtag directive; remove it there"
            }
        }
        for t in tags where !isValidTag(t) && (pushed.isEmpty || !pushed.contains(t.lowercased())) {
            return "transaction \(row + 1): beancount cannot spell the tag '\(t)' (letters, digits and - _ / . only)"
        }
        return nil
    }

    /// Why a category cannot be a beancount account below an expense or income account, or nil.
    static func refusal(category: String) -> String? {
        // Beancount account components start with a capital letter or a digit; the name is not altered to fit.
        let parts = category.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.allSatisfy({ p in
            guard let f = p.first, f.isUppercase || f.isNumber else { return false }
            return p.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" }
        }) else {
            return "category '\(category)' cannot be a beancount account name (each part starts with a capital letter or digit, then letters, digits and -)"
        }
        return nil
    }

    /// A header with the `removing` ranges taken out (right to left) and `inserting` put at `at` (an offset before the removals).
    private static func edit<U: TextUnit>(_ header: [U], removing: [Range<Int>], inserting: String, at: Int) -> String {
        var header = header
        var insertAt = at
        for r in removing.reversed() {
            header.removeSubrange(r)
            if r.upperBound <= insertAt { insertAt -= r.count }
        }
        if !inserting.isEmpty { header.insert(contentsOf: U.units(inserting), at: insertAt) }
        return U.string(header)
    }

    static func rewrite(_ lines: [String], row: Int, ledger: Ledger, pushed: Set<String>, path: String, categoryMayChange: Bool = true)
        throws(Diagnostic) -> (lines: [String], newAccount: String?)
    {
        var lines = lines
        let block = BeancountFormat.parseBlock(lines, postings: categoryMayChange)

        // Category: the same edit as a journal, with beancount's rules for account names.
        var newAccount: String?
        if categoryMayChange {
            newAccount = try TextWriter.applyCategory(&lines, postings: block.postings, row: row, ledger: ledger, path: path) {
                (top: String, category: String) throws(Diagnostic) -> String in
                guard !category.isEmpty, category.lowercased() != top.lowercased() else {
                    throw Diagnostic("transaction \(row + 1): beancount needs an account below \(top), so its category cannot be none", file: path)
                }
                if let why = refusal(category: category) { throw Diagnostic("transaction \(row + 1): " + why, file: path) }
                return top + ":" + category
            }
        }

        // Tags on the header line; those a `pushtag` gives cannot be taken off here.
        let all = ledger.tagNames(row)
        if let why = refusal(tags: all, pushed: pushed, row: row) { throw Diagnostic(why, file: path) }
        let tags = all.filter { !pushed.contains($0.lowercased()) }
        let have = block.tags.map { $0.name.lowercased() }
        let wantedTags = tags.map { $0.lowercased() }
        let removed = block.tags.filter { !wantedTags.contains($0.name.lowercased()) }.map(\.range)
        let added = tags.filter { !have.contains($0.lowercased()) }.map { " #" + $0 }.joined()
        if !removed.isEmpty || !added.isEmpty {
            lines[0] = lines[0].isASCII ? edit(Array(lines[0].utf8), removing: removed, inserting: added, at: block.tagInsertAt)
                : edit(Array(lines[0]), removing: removed, inserting: added, at: block.tagInsertAt)
        }

        // Intent and note as metadata, right after the header.
        let indent = block.firstPostingLine.map { p in String(lines[p].prefix { $0 == " " || $0 == "\t" }) } ?? "  "
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
            let last: Int? = block.metadata.map(\.line).filter { !removals.contains($0) }.max()
            let after = last.map { (l: Int) -> Int in l - removals.filter { $0 < l }.count } ?? 0
            lines.insert(contentsOf: inserts, at: after + 1)
        }
        return (lines, newAccount)
    }

    /// The new bytes of the block `bytes[start..<end]` when its transaction's change only adds tags and leaves its
    /// category, intent and note: worked out on the bytes, they are what `rewrite` gives (the header with ` #tag`s
    /// where new tags go). Nil for any other change, for tags `rewrite` refuses, and for blocks whose bytes the
    /// shortcut does not read as `rewrite` would (a header or a metadata line with non-ASCII, lines ending both
    /// ways): the caller rewrites those. (As `JournalWriter.addingOnly`.)
    static func addingOnly(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int, row: Int, ledger: Ledger,
                           pushed: Set<String>) -> [UInt8]? {
        func ascii(_ from: Int, _ to: Int) -> Bool {
            var high: UInt8 = 0
            for i in from..<to { high |= bytes[i] }
            return high < 0x80
        }
        var header = start..<start
        var inMetadata = true
        var intent: String?, note: String? // the first value of each, as `rewrite` takes them
        let lines = TextWriter.eachLine(bytes, start, end) { line, lineStart, textEnd, _ in
            if line == 0 {
                guard ascii(lineStart, textEnd) else { return false }
                header = lineStart..<textEnd
            } else if inMetadata {
                switch BlockLine.scan(bytes, lineStart, textEnd, dialect: .beancount) {
                case .blank, .comment: break
                case .posting: inMetadata = false
                case .metadata(let key, let valueStart):
                    let k = String(decoding: UnsafeBufferPointer(rebasing: bytes[key]), as: UTF8.self)
                    guard (k == "intent" && intent == nil) || (k == "note" && note == nil) else { break }
                    guard ascii(lineStart, textEnd) else { return false }
                    let value = BeancountFormat.metadataValue(Array(UnsafeBufferPointer(rebasing: bytes[lineStart..<textEnd])),
                                                              from: valueStart - lineStart)
                    if k == "intent" { intent = value } else { note = value }
                }
            }
            return true
        }
        guard lines != nil else { return nil }
        // Intent and note stay as they are.
        let wantedIntent = ledger.intentValue(row)?.description
        let wantedNote = ledger.note[row] == 0 ? nil : ledger.notes[ledger.note[row]]
        if let intent {
            if let wantedIntent { guard intent == wantedIntent else { return nil } } else { guard Intent(name: intent) == nil else { return nil } }
        } else if wantedIntent != nil { return nil }
        guard note == wantedNote else { return nil }
        // Tags: none taken off.
        let all = ledger.tagNames(row)
        guard refusal(tags: all, pushed: pushed, row: row) == nil else { return nil }
        let tags = all.filter { !pushed.contains($0.lowercased()) }
        let (found, insertAt) = BeancountFormat.scanHeader(Array(UnsafeBufferPointer(rebasing: bytes[header])))
        let have = found.map { $0.name.lowercased() }
        let wanted = tags.map { $0.lowercased() }
        guard found.allSatisfy({ wanted.contains($0.name.lowercased()) }) else { return nil }
        let added = tags.filter { !have.contains($0.lowercased()) }.map { " #" + $0 }.joined()
        var block: [UInt8] = []
        block.reserveCapacity(end - start + added.utf8.count)
        block.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<(header.lowerBound + insertAt)]))
        block.append(contentsOf: added.utf8)
        block.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[(header.lowerBound + insertAt)..<end]))
        return block
    }
}

/// Beancount's rules for names, for code that writes beancount text.
public enum Beancount {
    /// Whether beancount takes `name` as a commodity: an upper-case letter first, upper-case letters, digits
    /// and `'._-` after, a letter or digit last, at most 24 characters.
    public static func isCommodity(_ name: String) -> Bool {
        let chars = Array(name.unicodeScalars)
        guard let first = chars.first, let last = chars.last, chars.count <= 24, ("A"..."Z").contains(first) else { return false }
        guard ("A"..."Z").contains(last) || ("0"..."9").contains(last) else { return false }
        return chars.allSatisfy { ("A"..."Z").contains($0) || ("0"..."9").contains($0) || "'._-".unicodeScalars.contains($0) }
    }
}
