#if canImport(Glibc)
import Glibc
#endif
import TagshFormats
import TagshModel
import TagshQuery
import TagshRules

/// The undo history of earlier sessions, kept beside the ledger in
/// `LEDGER.tagsh-history` and written by every save.
///
/// It holds the steps that lead to the file as saved, as deltas with their
/// values spelled out (tag names, note text, category names), and a
/// fingerprint of the file. When the ledger is opened again and the file still
/// has that fingerprint, the steps come back: `history` and `blame` list them
/// and `undo` walks into them. When the file changed in between (edited by
/// hand, or by another program), they are not used, and `history` says why.
///
/// One record per line, fields separated by tabs, `\`, tab and line breaks escaped.
enum HistoryFile {
    /// Version 2 fingerprints a file eight bytes at a time; version 1 files (FNV-1a byte by byte) are still read.
    static let magic = "tagsh-history\t2"
    static let magicV1 = "tagsh-history\t1"
    /// Version 3 is version 2 with a unit separator in a name written `\u`: written only when one is, so that a
    /// tagsh that reads version 2 alone refuses such a history instead of reading `\u` as `u`.
    static let magicV3 = "tagsh-history\t3"

    /// `bank.csv` → `bank.csv.tagsh-history`.
    static func path(for ledgerPath: String) -> String { ledgerPath + ".tagsh-history" }

    /// FNV-1a over the bytes, with their count (history files of version 1).
    static func fingerprintV1(_ bytes: [UInt8]) -> String {
        var h: UInt64 = 0xcbf29ce484222325
        for b in bytes { h = (h ^ UInt64(b)) &* 0x100000001b3 }
        return "\(bytes.count)\t" + String(h, radix: 16)
    }

    /// A 64-bit hash of the bytes taken eight at a time (a multiply-rotate mix), with their count: about eight
    /// times faster than FNV-1a byte by byte, which took a fifth of a save of a million-row CSV.
    static func fingerprint(_ bytes: [UInt8]) -> String {
        var hasher = Fingerprinter(count: bytes.count)
        bytes.withUnsafeBytes { hasher.add($0) }
        return hasher.fingerprint
    }

    /// `fingerprint` of the bytes `splice` makes, read part by part where they lie: a save works it out on the
    /// other core while the file is written, so that no pass over the new bytes follows the write.
    static func fingerprint(of splice: ByteSplice) -> String {
        var hasher = Fingerprinter(count: splice.count)
        splice.forEachPart { (part: UnsafeBufferPointer<UInt8>) in hasher.add(UnsafeRawBufferPointer(part)) }
        return hasher.fingerprint
    }

    /// `fingerprint`'s hash, fed its bytes in parts of any length: words of eight bytes, little-endian, whichever
    /// part their bytes are in; the last one to seven bytes as the tail.
    struct Fingerprinter {
        let count: Int
        var h: UInt64
        /// Bytes of a word not yet whole, in its low bytes; `carried` of them.
        var carry: UInt64 = 0
        var carried = 0

        init(count: Int) {
            self.count = count
            h = 0x9E3779B97F4A7C15 ^ UInt64(count)
        }

        @inline(__always)
        mutating func word(_ w: UInt64) {
            h = ((h ^ w) &* 0xFF51AFD7ED558CCD)
            h = (h << 31) | (h >> 33)
        }

        /// A byte of a word not yet whole; the word, once it is.
        @inline(__always)
        private mutating func take(_ b: UInt8) {
            carry |= UInt64(b) << (8 * UInt64(carried))
            carried += 1
            if carried == 8 {
                word(carry)
                (carry, carried) = (0, 0)
            }
        }

        mutating func add(_ raw: UnsafeRawBufferPointer) {
            var i = 0
            // The bytes that complete a word the last part began, then whole words, then what is left.
            while carried > 0 && i < raw.count { take(raw[i]); i += 1 }
            let words = (raw.count - i) / 8
            for k in 0..<words { word(raw.loadUnaligned(fromByteOffset: i + k * 8, as: UInt64.self)) }
            i += words * 8
            while i < raw.count { take(raw[i]); i += 1 }
        }

        var fingerprint: String {
            var f = (h ^ carry) &* 0xC4CEB9FE1A85EC53
            f ^= f >> 29
            return "\(count)\t" + String(f, radix: 16)
        }
    }

    static func escape(_ s: String) -> String {
        guard s.utf8.contains(where: needsEscape) else { return s }
        var out: [UInt8] = []
        var copy = s
        copy.withUTF8 { escape($0, into: &out) }
        return String(decoding: out, as: UTF8.self)
    }

    /// The bytes `escape` writes as `\` and a letter: the backslash, the field and line separators, and the
    /// unit separator that joins tag names (`tagSeparator`), so that a name read from a file that holds one is
    /// not split in two when the history is read back.
    @inline(__always) static func needsEscape(_ b: UInt8) -> Bool { b == 0x5C || b == 0x09 || b == 0x0A || b == 0x0D || b == 0x1F }

    /// Appends `text` escaped: byte by byte, so a CR LF pair (one `Character` in Swift) is escaped too.
    static func escape(_ text: UnsafeBufferPointer<UInt8>, into out: inout [UInt8]) {
        guard text.contains(where: needsEscape) else {
            out.append(contentsOf: text)
            return
        }
        for b in text {
            switch b {
            case 0x5C: out += [0x5C, 0x5C]
            case 0x09: out += [0x5C, 0x74]
            case 0x0A: out += [0x5C, 0x6E]
            case 0x0D: out += [0x5C, 0x72]
            case 0x1F: out += [0x5C, 0x75] // \u
            default: out.append(b)
            }
        }
    }

    /// `escape` undone. Byte by byte, as the change lines are read (`unescaped`): read by `Character`s, a
    /// backslash and a letter with a combining mark after it were one character, and the note lost its tab.
    static func unescape(_ s: Substring) -> String {
        guard s.utf8.contains(0x5C) else { return String(s) }
        var copy = String(s)
        return copy.withUTF8 { unescaped($0) { String(decoding: $0, as: UTF8.self) } }
    }

    /// Tag names joined by the unit separator, each escaped (`escape` writes a unit separator in a name as `\u`).
    static let tagSeparator: Character = "\u{1F}"

    /// A category's fields, each escaped, joined by the unit separator.
    static func encode(_ c: Category) -> String {
        [c.name, c.isDefault ? "1" : "0", c.color?.description ?? "", c.icon.map(String.init) ?? "", c.isDeleted ? "1" : "0"]
            .map(escape).joined(separator: String(tagSeparator))
    }

    /// `encode` undone: split at the unit separators, then each field unescaped.
    static func decodeCategory(_ s: Substring) -> Category? {
        let parts = s.split(separator: tagSeparator, omittingEmptySubsequences: false).map(unescape)
        guard parts.count == 5 else { return nil }
        var c = Category(name: parts[0], isDefault: parts[1] == "1", color: Color(parsing: parts[2]), icon: parts[3].first)
        c.isDeleted = parts[4] == "1"
        return c
    }

    /// The history file's text for `steps`, which lead to a file with `fingerprint`.
    static func render(_ steps: ArraySlice<Session.Step>, ledger: Ledger, fingerprint: String) -> String {
        String(decoding: renderBytes(steps, ledger: ledger, fingerprint: fingerprint), as: UTF8.self)
    }

    /// `render`'s text as UTF-8 bytes, built as bytes: a step that tags 100,000 rows is 100,000 lines, and
    /// building each as a String took a tenth of a second.
    static func renderBytes(_ steps: ArraySlice<Session.Step>, ledger: Ledger, fingerprint: String) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(64 + steps.reduce(0) { $0 + 24 * $1.changes.count })
        func line(_ text: String) {
            out.append(contentsOf: text.utf8)
            out.append(0x0A)
        }
        line(magic)
        line("F\t" + fingerprint)
        // Category ids are the session's own; name them as they are now (or mark them gone).
        var referenced = Set<UInt32>()
        for step in steps {
            for i in 0..<step.changes.count where step.changes.fields[i] == .category {
                referenced.insert(step.changes.before[i]); referenced.insert(step.changes.after[i])
            }
            for t in step.changes.tableChanges { if case .setCategory(let id, _, _) = t { referenced.insert(id) } }
        }
        referenced.remove(0)
        for id in referenced.sorted() {
            let c = ledger.categories[id]
            line("C\t\(id)\t" + (c.isDeleted ? "D\t" : "L\t") + escape(c.name))
        }
        // Tag sets are spelled from their tags' bytes: a step that tags a million rows of a file whose every row
        // has its own set names two million sets. Each tag and note is escaped once (`Spellings`), and a step's
        // change lines are copied into a buffer made at their size (appended piece by piece, they were 7 ns a
        // byte: a `tag all` of the `merchants` shape writes 114 MB of them, at every save of the session).
        var spellings = Spellings(ledger)
        ledger.tagSets.withMembers { members, starts in
            for step in steps {
                line("S\t\(step.time)\t" + [step.command, step.replay, step.summary].map(escape).joined(separator: "\t"))
                let c = step.changes
                out += spellings.changeLines(c, members: members, starts: starts)
                for t in c.tableChanges {
                    if case .setCategory(let id, let before, let after) = t {
                        line("T\t\(id)\t" + encode(before) + "\t" + encode(after))
                    }
                }
                for r in step.rules {
                    line("U\t\(r.index)\t" + (r.before.map { "1" + escape($0.definition) } ?? "0") + "\t"
                         + (r.after.map { "1" + escape($0.definition) } ?? "0"))
                }
                if let s = step.setting { line("V\t" + [s.name, s.before, s.after].map(escape).joined(separator: "\t")) }
            }
        }
        if containsUnitSeparatorEscape(out) {
            out.replaceSubrange(0..<magic.utf8.count, with: magicV3.utf8)
        }
        return out
    }

    /// The escaped spellings of the tags and notes a history names, each made the first time it is named, and the
    /// change lines (`R`, row, field, before, after) spelled from them.
    struct Spellings {
        let ledger: Ledger
        var bytes: [UInt8] = []
        /// By tag id and by note id: where its spelling is in `bytes` (-1: not yet made).
        var tagAt: [Int32], tagEnd: [Int32], noteAt: [Int32], noteEnd: [Int32]

        init(_ ledger: Ledger) {
            self.ledger = ledger
            tagAt = [Int32](repeating: -1, count: ledger.tags.count + 1)
            tagEnd = tagAt
            noteAt = [Int32](repeating: -1, count: ledger.notes.count + 1)
            noteEnd = noteAt
        }

        /// The length of text `id` of `table` escaped, its spelling made in `bytes` if it was not yet (`at`, `end`).
        private static func spell(_ id: Int, of table: StringTable, into bytes: inout [UInt8], _ at: inout [Int32], _ end: inout [Int32]) -> Int {
            if at[id] < 0 {
                at[id] = Int32(bytes.count)
                table.withUTF8(UInt32(id)) { HistoryFile.escape($0, into: &bytes) }
                end[id] = Int32(bytes.count)
            }
            return Int(end[id] - at[id])
        }

        private mutating func tag(_ t: Int) -> Int { Spellings.spell(t, of: ledger.tags, into: &bytes, &tagAt, &tagEnd) }

        private mutating func note(_ n: Int) -> Int { Spellings.spell(n, of: ledger.notes, into: &bytes, &noteAt, &noteEnd) }

        /// The number of bytes a value of `field` takes, its spellings made.
        private mutating func size(_ field: ChangeSet.Field, _ v: UInt32, _ members: UnsafeBufferPointer<UInt32>, _ starts: Offsets.Buffer) -> Int {
            switch field {
            case .intent, .category: return HistoryFile.digits(v)
            case .tags:
                let (from, to) = (starts[Int(v)], starts[Int(v) + 1])
                var n = max(0, to - from - 1) // the unit separators between the names
                for k in from..<to { n += tag(Int(members[k])) }
                return n
            case .note: return v == 0 ? 0 : note(Int(v))
            }
        }

        /// `c`'s change lines: their size worked out (and every spelling they need made) first, then written.
        mutating func changeLines(_ c: ChangeSet, members: UnsafeBufferPointer<UInt32>, starts: Offsets.Buffer) -> [UInt8] {
            var total = 0
            for i in 0..<c.count {
                let field = c.fields[i]
                total += 6 + HistoryFile.digits(UInt32(c.rows[i])) + HistoryFile.digits(UInt32(field.rawValue))
                    + size(field, c.before[i], members, starts) + size(field, c.after[i], members, starts)
            }
            return bytes.withUnsafeBufferPointer { spelled in
                [UInt8](unsafeUninitializedCapacity: total) { out, count in
                    var p = 0
                    func put(_ b: UInt8) { out[p] = b; p += 1 }
                    func put(_ from: Int32, _ to: Int32) {
                        let n = Int(to - from)
                        if n > 0 { UnsafeMutableRawPointer(out.baseAddress! + p).copyMemory(from: spelled.baseAddress! + Int(from), byteCount: n) }
                        p += n
                    }
                    func number(_ v: UInt32) {
                        let n = HistoryFile.digits(v)
                        var v = v
                        for k in stride(from: p + n - 1, through: p, by: -1) { out[k] = 0x30 + UInt8(v % 10); v /= 10 }
                        p += n
                    }
                    func value(_ field: ChangeSet.Field, _ v: UInt32) {
                        switch field {
                        case .intent, .category: number(v)
                        case .tags:
                            for k in starts[Int(v)]..<starts[Int(v) + 1] {
                                if k > starts[Int(v)] { put(0x1F) } // tagSeparator
                                let t = Int(members[k])
                                put(tagAt[t], tagEnd[t])
                            }
                        case .note: if v != 0 { put(noteAt[Int(v)], noteEnd[Int(v)]) }
                        }
                    }
                    for i in 0..<c.count {
                        let field = c.fields[i]
                        put(0x52) // R
                        put(0x09)
                        number(UInt32(c.rows[i]))
                        put(0x09)
                        number(UInt32(field.rawValue))
                        put(0x09)
                        value(field, c.before[i])
                        put(0x09)
                        value(field, c.after[i])
                        put(0x0A)
                    }
                    precondition(p == total, "history change lines: \(p) bytes written of \(total)")
                    count = p
                }
            }
        }
    }

    /// The number of decimal digits of `v`, as `String(v)` spells it.
    @inline(__always)
    static func digits(_ v: UInt32) -> Int {
        var n = 1, v = v
        while v >= 10 { v /= 10; n += 1 }
        return n
    }

    /// Whether `bytes` hold a `\u` escape (a backslash escaping a `u`, not an escaped backslash before one).
    static func containsUnitSeparatorEscape(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBufferPointer { b in
            guard let base = b.baseAddress else { return false }
            var i = 0
            while i < b.count, let found = memchr(base + i, 0x5C, b.count - i) {
                let at = UnsafeRawPointer(found).assumingMemoryBound(to: UInt8.self) - base
                if at + 1 < b.count && b[at + 1] == 0x75 { return true }
                i = at + 2
            }
            return false
        }
    }

    /// `stale`: the file's bytes are not those saved; `missingCategory`: they are, but the ledger read from them has
    /// no category a step names (the file was read otherwise than when it was saved).
    enum Failure: Error { case unreadable, stale, missingCategory(String) }

    /// Reads the steps back against `ledger` (names interned into its tables as needed).
    ///
    /// Read as bytes, a line and a field at a time: a step that tagged a million rows is a million `R` lines, and
    /// split into `String`s (every line, every field, every tag name) they took 1.2 s of opening a 1M-row journal
    /// that took 0.2 s to read. The other lines are few, and are read as text.
    static func read(_ bytes: [UInt8], fingerprint: String, ledger: inout Ledger) throws(Failure) -> [Session.Step] {
        var steps: [Session.Step] = []
        var changes = ChangeSet()
        var categoryID: [UInt32: UInt32] = [0: 0]
        var values = TagValues()
        try bytes.withUnsafeBufferPointer { (b: UnsafeBufferPointer<UInt8>) throws(Failure) in
            var lineNumber = 0, at = 0
            while at < b.count {
                var end = at
                // (A line ends at a line feed not after a carriage return: split as text, CR LF was one character
                // and ended no line. tagsh writes neither raw.)
                while end < b.count && (b[end] != 0x0A || (end > at && b[end - 1] == 0x0D)) { end += 1 }
                let line = UnsafeBufferPointer(rebasing: b[at..<end])
                at = end + 1
                // (Empty lines are skipped, as splitting the text on line ends left them out.)
                guard !line.isEmpty else { continue }
                lineNumber += 1
                switch lineNumber {
                case 1:
                    guard line.elementsEqual(magic.utf8) || line.elementsEqual(magicV3.utf8) || line.elementsEqual(magicV1.utf8) else {
                        throw .unreadable
                    }
                case 2:
                    guard line.elementsEqual(("F\t" + fingerprint).utf8) else { throw .stale }
                default:
                    if line[0] == 0x52 { // R
                        try readChange(line, into: &changes, steps: steps.count, categoryID: categoryID, values: &values, ledger: &ledger)
                    } else {
                        try readRecord(String(decoding: line, as: UTF8.self), steps: &steps, changes: &changes,
                                       categoryID: &categoryID, ledger: &ledger)
                    }
                }
            }
            if lineNumber < 2 { throw lineNumber == 0 ? .unreadable : .stale }
        }
        finish(&steps, &changes)
        return steps
    }

    /// Gives the last step the changes read since it began.
    private static func finish(_ steps: inout [Session.Step], _ changes: inout ChangeSet) {
        if !steps.isEmpty { steps[steps.count - 1].changes = changes }
        changes = ChangeSet()
    }

    /// Tag sets read from their spelling, by the spelling's bytes, while most spellings repeat (a few sets over
    /// many rows); given up after 8,192 spellings of which fewer than half repeated (a set a row).
    struct TagValues {
        var seen = StringTable()
        var sets: [UInt32] = [0]
        /// A set's tag ids while it is read.
        var ids: [UInt32] = []
        var looked = 0, found = 0
        var remembering = true
    }

    /// An `R` line: row, field, the value before and after.
    private static func readChange(_ line: UnsafeBufferPointer<UInt8>, into changes: inout ChangeSet, steps: Int,
                                   categoryID: [UInt32: UInt32], values: inout TagValues, ledger: inout Ledger) throws(Failure) {
        // The five fields' bounds, found without an array a line (a million lines).
        var fields = (0..<0, 0..<0, 0..<0, 0..<0, 0..<0)
        var count = 0, start = 0
        for i in 0...line.count where i == line.count || line[i] == 0x09 {
            switch count {
            case 0: fields.0 = start..<i
            case 1: fields.1 = start..<i
            case 2: fields.2 = start..<i
            case 3: fields.3 = start..<i
            case 4: fields.4 = start..<i
            default: throw .unreadable
            }
            count += 1
            start = i + 1
        }
        guard count == 5, fields.0.count == 1, steps > 0,
              let row = decimal(line, fields.1), row >= 0, row < ledger.count,
              let raw = decimal(line, fields.2), raw >= 0, raw <= Int(UInt8.max), let field = ChangeSet.Field(rawValue: UInt8(raw)) else { throw .unreadable }
        func value(_ r: Range<Int>) throws(Failure) -> UInt32 {
            let text = UnsafeBufferPointer(rebasing: line[r])
            switch field {
            case .intent:
                guard let v = decimal(line, r), v >= 0, v <= 4 else { throw .unreadable }
                return UInt32(v)
            case .category:
                guard let v = decimal(line, r), v >= 0, v <= Int(UInt32.max), let id = categoryID[UInt32(v)] else { throw .unreadable }
                return id
            case .tags:
                return tagSet(text, values: &values, ledger: &ledger)
            case .note:
                if text.isEmpty { return 0 }
                return unescaped(text) { ledger.notes.intern(bytes: $0) }
            }
        }
        changes.record(row: row, field: field, before: try value(fields.3), after: try value(fields.4))
    }

    /// The set a tag set's spelling names (its names joined by `tagSeparator`, escaped), interned as
    /// `Ledger.internTagSet` interns names: empty ones left out, each once whatever its case, in order.
    private static func tagSet(_ text: UnsafeBufferPointer<UInt8>, values: inout TagValues, ledger: inout Ledger) -> UInt32 {
        if values.remembering {
            let before = values.seen.count
            let id = values.seen.intern(bytes: text)
            values.looked += 1
            if values.seen.count == before { values.found += 1; return values.sets[Int(id)] }
            let set = tagSet(spelled: text, ids: &values.ids, ledger: &ledger)
            values.sets.append(set)
            if values.looked == 8192 && values.found * 2 < values.looked { values = TagValues(remembering: false) }
            return set
        }
        return tagSet(spelled: text, ids: &values.ids, ledger: &ledger)
    }

    private static func tagSet(spelled text: UnsafeBufferPointer<UInt8>, ids: inout [UInt32], ledger: inout Ledger) -> UInt32 {
        ids.removeAll(keepingCapacity: true)
        // Split first, then each name unescaped: a unit separator within a name is written `\u`.
        var start = 0
        for i in 0...text.count where i == text.count || text[i] == 0x1F {
            if i > start {
                let name = UnsafeBufferPointer(rebasing: text[start..<i])
                if let id = unescaped(name, { $0.isEmpty ? nil : ledger.tags.intern(bytes: $0) }), !ids.contains(id) { ids.append(id) }
            }
            start = i + 1
        }
        return ledger.tagSets.intern(ids)
    }

    /// `body` on `text` with its escapes (`unescape`'s) undone, as bytes.
    private static func unescaped<R>(_ text: UnsafeBufferPointer<UInt8>, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        guard text.contains(0x5C) else { return body(text) }
        var out: [UInt8] = []
        out.reserveCapacity(text.count)
        var escaped = false
        for c in text {
            if escaped {
                switch c {
                case 0x74: out.append(0x09) // t
                case 0x6E: out.append(0x0A) // n
                case 0x72: out.append(0x0D) // r
                case 0x75: out.append(0x1F) // u
                default: out.append(c)
                }
                escaped = false
            } else if c == 0x5C {
                escaped = true
            } else {
                out.append(c)
            }
        }
        return out.withUnsafeBufferPointer { body($0) }
    }

    /// The number in `r`: its decimal digits, or, when it is not up to 18 digits alone, as `Int` reads text (a sign,
    /// leading zeros), as the text reader read it; nil when it is no number.
    private static func decimal(_ line: UnsafeBufferPointer<UInt8>, _ r: Range<Int>) -> Int? {
        guard !r.isEmpty, r.count <= 18 else { return r.isEmpty ? nil : Int(String(decoding: line[r], as: UTF8.self)) }
        var v = 0
        for i in r {
            let d = line[i] &- 0x30
            guard d < 10 else { return Int(String(decoding: line[r], as: UTF8.self)) }
            v = v * 10 + Int(d)
        }
        return v
    }

    /// A line other than a change (`R`): a category, a step, a category's table change, a rule or a setting.
    static func readRecord(_ line: String, steps: inout [Session.Step], changes: inout ChangeSet,
                                   categoryID: inout [UInt32: UInt32], ledger: inout Ledger) throws(Failure) {
        let f = line.split(separator: "\t", omittingEmptySubsequences: false)
        switch f.first {
        case "C":
            guard f.count == 4, let id = UInt32(f[1]) else { throw .unreadable }
            let name = unescape(f[3])
            if f[2] == "L" {
                guard let now = ledger.categories.id(of: name) else { throw .missingCategory(name) }
                categoryID[id] = now
            } else {
                var hidden = Category(name: name, isDefault: false)
                hidden.isDeleted = true
                categoryID[id] = ledger.categories.add(hidden)
            }
        case "S":
            guard f.count == 5, let time = Int(f[1]) else { throw .unreadable }
            finish(&steps, &changes)
            steps.append(Session.Step(command: unescape(f[2]), replay: unescape(f[3]), summary: unescape(f[4]),
                                      changes: ChangeSet(), time: time, isEarlier: true))
        case "T":
            guard f.count == 4, let old = UInt32(f[1]), let id = categoryID[old],
                  let before = decodeCategory(f[2]), let after = decodeCategory(f[3]) else { throw .unreadable }
            changes.record(.setCategory(id: id, before: before, after: after))
        case "U":
            guard f.count == 4, let index = Int(f[1]), !steps.isEmpty else { throw .unreadable }
            func rule(_ s: Substring) throws(Failure) -> Rule? {
                guard s.first == "1" else { return nil }
                guard let r = Session.parseRuleDefinition(unescape(s.dropFirst())) else { throw .unreadable }
                return r
            }
            steps[steps.count - 1].rules.append(RuleEdit(index: index, before: try rule(f[2]), after: try rule(f[3])))
        case "V":
            guard f.count == 4, !steps.isEmpty else { throw .unreadable }
            steps[steps.count - 1].setting = SettingEdit(name: unescape(f[1]), before: unescape(f[2]), after: unescape(f[3]))
        default:
            throw .unreadable
        }
    }
}

extension Session {
    /// A rule from its `rule NAME QUERY => ACTIONS` definition, or nil when it does not read.
    static func parseRuleDefinition(_ text: String) -> Rule? {
        guard let words = try? Lexer.words(in: text), words.count >= 3, words[0].text == "rule",
              let (queryWords, arrow, actionWords) = RuleParser.split(Array(words.dropFirst(2))),
              let query = try? QueryParser.parse(queryWords),
              let actions = try? RuleParser.actions(actionWords, arrow: arrow) else { return nil }
        return Rule(name: words[1].text, queryText: Rule.queryText(of: queryWords, in: text), query: query, actions: actions)
    }

    /// Brings back the steps of earlier sessions when the file is as tagsh last saved it.
    func loadHistory() {
        guard let path = file?.path, let current = ledger else { return }
        let historyPath = HistoryFile.path(for: path)
        guard FileIO.exists(historyPath) else { return }
        guard let bytes = try? FileIO.read(historyPath).bytes, let document = file?.document else {
            historyNote = "\(historyPath) could not be read"
            return
        }
        var working = current
        do throws(HistoryFile.Failure) {
            // A history written before version 2 was fingerprinted byte by byte.
            let v1 = bytes.starts(with: (HistoryFile.magicV1 + "\n").utf8)
            _ = document
            let earlier = try HistoryFile.read(bytes, fingerprint: v1 ? historyFingerprint(HistoryFile.fingerprintV1) : historyFingerprint(),
                                               ledger: &working)
            ledger = working
            forgetCompletionCounts()
            steps = earlier
            position = earlier.count
            savedPosition = earlier.count
            earlierStepsAtOpen = earlier.count
            lowestEarlierPosition = earlier.count
        } catch .stale {
            let savedTogether = String(decoding: bytes.prefix(4096), as: UTF8.self).split(separator: "\n").dropFirst().first?
                .split(separator: ";").count ?? 1
            historyNote = savedTogether != files.count
                ? "the steps of earlier sessions are not available: they were saved with \(plural(savedTogether, "file")) open, and \(files.count) are open now"
                : "the steps of earlier sessions are not available: \(path) changed since tagsh saved it"
        } catch .missingCategory(let name) {
            historyNote = "the steps of earlier sessions are not available: \(path) is as tagsh saved it, but read now it has no "
                + "category '\(TextSafety.sanitize(name))', which they name (was it read with other columns?)"
        } catch {
            historyNote = "the steps of earlier sessions are not available: \(historyPath) is damaged"
        }
    }

    /// Whether a save writes a history: there are steps, and none up to here is an import (a saved import ends
    /// the history: `forgetSavedImports`). Asked by `save` before the write too.
    var writesHistory: Bool { position > 0 && !steps[0..<position].contains(where: { $0.imported != nil }) }

    /// Writes the steps that lead to the file as just saved. `written`: a temporary beside the history that holds
    /// its bytes already (written while the file was, by `save`), renamed into place; it is removed otherwise.
    func writeHistory(path: String, fingerprint: String, written: String? = nil) throws(ShellError) {
        guard let ledger else { return }
        let historyPath = HistoryFile.path(for: path)
        if !writesHistory {
            // (Steps up to a saved import are dropped at the save: `forgetSavedImports`.)
            if let written { FileIO.discardTemporary(written) }
            unlink(historyPath)
            return
        }
        if let written {
            do throws(FileError) { try FileIO.replace(historyPath, with: written) } catch { throw .file(error) }
            return
        }
        let bytes = HistoryFile.renderBytes(steps[0..<position], ledger: ledger, fingerprint: fingerprint)
        do throws(FileError) { try FileIO.writeAtomically(bytes, to: historyPath) } catch { throw .file(error) }
    }
}
