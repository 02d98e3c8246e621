import Foundation
import Testing
import TagshFormats
import TagshModel
import TagshRules
@testable import TagshShell
import TagshTestSupport

/// The history file is read as bytes (`HistoryFile.read`), where it was read as text split into `String`s; the
/// steps, the names interned and the failures must be what the text reader gave, on histories that sessions
/// wrote and on histories damaged by hand. (The reference below is the text reader as the format is now: tag
/// names split at the unit separator before each is unescaped, since a name holding one writes it `\u`; and
/// `unescape` goes by bytes, where it went by `Character`s and lost the tab of `\t` followed by a combining mark.)
struct HistoryReadTests {
    /// The reader as it was for the change lines (text split into lines, fields and names), kept here as the
    /// reference; the other lines (`HistoryFile.readRecord`) were read as text before and still are.
    enum TextReader {
        static func read(_ text: String, fingerprint: String, ledger: inout Ledger) throws(HistoryFile.Failure) -> [Session.Step] {
            let lines = text.split(separator: "\n")
            guard let first = lines.first.map(String.init), first == HistoryFile.magic || first == HistoryFile.magicV3 || first == HistoryFile.magicV1 else { throw .unreadable }
            guard lines.count > 1, lines[1] == "F\t" + fingerprint else { throw .stale }
            var categoryID: [UInt32: UInt32] = [0: 0]
            var steps: [Session.Step] = []
            var changes = ChangeSet()
            for line in lines.dropFirst(2) {
                let f = line.split(separator: "\t", omittingEmptySubsequences: false)
                guard f.first == "R" else {
                    try HistoryFile.readRecord(String(line), steps: &steps, changes: &changes, categoryID: &categoryID, ledger: &ledger)
                    continue
                }
                guard f.count == 5, let row = Int(f[1]), row >= 0, row < ledger.count, let raw = UInt8(f[2]),
                      let field = ChangeSet.Field(rawValue: raw), !steps.isEmpty else { throw .unreadable }
                func value(_ s: Substring) throws(HistoryFile.Failure) -> UInt32 {
                    switch field {
                    case .intent:
                        guard let v = UInt32(s), v <= 4 else { throw .unreadable }
                        return v
                    case .category:
                        guard let v = UInt32(s), let id = categoryID[v] else { throw .unreadable }
                        return id
                    case .tags:
                        let names = s.split(separator: HistoryFile.tagSeparator).map { HistoryFile.unescape($0) }
                        return ledger.internTagSet(names)
                    case .note:
                        return s.isEmpty ? 0 : ledger.notes.intern(HistoryFile.unescape(s))
                    }
                }
                changes.record(row: row, field: field, before: try value(f[3]), after: try value(f[4]))
            }
            if !steps.isEmpty { steps[steps.count - 1].changes = changes }
            return steps
        }
    }

    /// What a reading gave, in terms that do not depend on how it was done.
    struct Outcome: Equatable {
        var failure: String?
        var steps: [String] = []
        var tables: [String] = []

        init(_ read: () throws(HistoryFile.Failure) -> [Session.Step], ledger: () -> Ledger) {
            do throws(HistoryFile.Failure) {
                let steps = try read()
                let l = ledger()
                self.steps = steps.map { s in
                    let c = s.changes
                    let changes = (0..<c.count).map { "\(c.rows[$0]) \(c.fields[$0]) \(c.before[$0]) \(c.after[$0])" }
                    let rules = s.rules.map { "\($0.index) \($0.before?.definition ?? "-") \($0.after?.definition ?? "-")" }
                    return ([s.command, s.replay, s.summary, String(s.time), String(s.isEarlier), "\(c.tableChanges)",
                             "\(s.setting.map { [$0.name, $0.before, $0.after] } ?? [])"] + rules + changes).joined(separator: "|")
                }
                tables = [l.tags.ids.map { l.tags[$0] }.joined(separator: ","),
                          (0..<UInt32(l.tagSets.count)).map { l.tagSets[$0].map(String.init).joined(separator: ".") }.joined(separator: ","),
                          l.notes.ids.map { l.notes[$0] }.joined(separator: ","),
                          l.categories.ids.map { l.categories[$0].name + (l.categories[$0].isDeleted ? "(deleted)" : "") }.joined(separator: ",")]
            } catch {
                failure = "\(error)"
            }
        }
    }

    static func outcomes(_ bytes: [UInt8], fingerprint: String, ledger: Ledger) -> (bytes: Outcome, text: Outcome) {
        var a = ledger, b = ledger
        let byBytes = Outcome({ () throws(HistoryFile.Failure) in try HistoryFile.read(bytes, fingerprint: fingerprint, ledger: &a) }, ledger: { a })
        let byText = Outcome({ () throws(HistoryFile.Failure) in
            try TextReader.read(String(decoding: bytes, as: UTF8.self), fingerprint: fingerprint, ledger: &b)
        }, ledger: { b })
        return (byBytes, byText)
    }

    /// A session's history: tags (names in several cases, beyond ASCII, with a tab and a backslash read from the
    /// file), notes with every escaped byte, intents, categories made, renamed and deleted, rules and a setting.
    static func sessionHistory() throws -> (bytes: [UInt8], fingerprint: String, ledger: Ledger, dir: URL) {
        let (bytes, fingerprint, ledger, dir, _) = try sessionHistoryAndSession()
        return (bytes, fingerprint, ledger, dir)
    }

    /// `sessionHistory`, and the session that wrote it.
    static func sessionHistoryAndSession() throws -> (bytes: [UInt8], fingerprint: String, ledger: Ledger, dir: URL, session: Session) {
        let (dir, path) = try scratchFile("h.csv", prefix: "tagsh-history-read")
        var text = "Date,Description,Amount,Tags\n"
        for i in 0..<40 { text += "2024-01-\(String(format: "%02d", 1 + i % 28)),SHOP \(i % 6),-\(i + 1).00,\(["", "a;B", "\"tab\there;back\\\\slash\"", "café;Café", "x;unit\u{1F}sep"][i % 5])\n" }
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        let s = Session(sink: BufferSink())
        s.sourcesSidecar = false
        for c in ["open \(path)", "tag 1-20 +coffee +Trip/Paris", "tag 2,5 -a -x", "note 4 \"line\\none\\ttab \\\\ back\\rcr\"",
                  "note 5 plain", "intent 1-9 want", "category new \"Coffee Shops\" --color brown", "category 2-6 \"Coffee Shops\"",
                  "category rename \"Coffee Shops\" Cafés", "rule r desc:shop => +shop, intent need", "apply r",
                  "category new Gone", "category 7 Gone", "category delete Gone --reassign none", "set max-tags 12",
                  "tag all +ÉTÉ", "note 4 \"\"", "undo", "tag 10 +été2 -coffee"] {
            #expect(s.execute(c) == .ok, "\(c)")
        }
        #expect(s.execute("save") == .ok)
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: HistoryFile.path(for: path))))
        let fingerprint = s.historyFingerprint()
        // The ledger as a second session reads it, before the history (a copy of the file, with none beside it).
        let copy = dir.appendingPathComponent("copy.csv").path
        try FileManager.default.copyItem(atPath: path, toPath: copy)
        let t = Session(sink: BufferSink())
        t.sourcesSidecar = false
        t.execute("open \(copy)")
        return (bytes, fingerprint, try #require(t.ledger), dir, s)
    }

    /// How the history's change lines were written before they were spelled from each tag's bytes escaped once
    /// (`HistoryFile.renderBytes`), kept here as the reference: each set's tags escaped as they came, and each
    /// number made a `String`.
    static func referenceChangeLines(_ steps: ArraySlice<Session.Step>, ledger: Ledger) -> [UInt8] {
        var out: [UInt8] = []
        for step in steps {
            let c = step.changes
            for i in 0..<c.count {
                func value(_ v: UInt32) {
                    switch c.fields[i] {
                    case .intent, .category: out += Array(String(v).utf8)
                    case .tags:
                        for (k, t) in ledger.tagSets[v].enumerated() {
                            if k > 0 { out.append(0x1F) }
                            ledger.tags.withUTF8(t) { HistoryFile.escape($0, into: &out) }
                        }
                    case .note: if v != 0 { ledger.notes.withUTF8(v) { HistoryFile.escape($0, into: &out) } }
                    }
                }
                out += Array("R\t\(c.rows[i])\t\(c.fields[i].rawValue)\t".utf8)
                value(c.before[i])
                out.append(0x09)
                value(c.after[i])
                out.append(0x0A)
            }
        }
        return out
    }

    /// The change lines `renderBytes` writes are the reference's, byte for byte: tags with a tab, a backslash and a
    /// unit separator in their names, beyond ASCII, in several cases; notes with every escaped byte.
    @Test func changeLinesAreWrittenAsTheyWere() throws {
        let (bytes, _, _, dir, session) = try Self.sessionHistoryAndSession()
        defer { try? FileManager.default.removeItem(at: dir) }
        let ledger = try #require(session.ledger)
        let written = bytes.split(separator: 0x0A, omittingEmptySubsequences: false).filter { $0.first == 0x52 && $0.dropFirst().first == 0x09 }
            .map { Array($0) + [0x0A] }.joined()
        let reference = Self.referenceChangeLines(session.steps[0..<session.position], ledger: ledger)
        #expect(Array(written) == reference)
        #expect(reference.count > 2_000 && reference.contains(0x5C), "\(reference.count) bytes")
        // Numbers of every length, as `String` spells them: rows and category ids made up, up to UInt32's largest.
        var rng = SplitMix(seed: 9)
        var numbers = ChangeSet()
        let edges: [UInt32] = [0, 1, 9, 10, 99, 100, 999, 1_000, 65_535, 1_000_000, UInt32(Int32.max)]
        for k in 0..<2_000 {
            let row = k < edges.count ? Int(edges[k]) : Int(UInt32(truncatingIfNeeded: rng.next()) >> UInt32(1 + rng.below(31)))
            numbers.record(row: row, field: .category, before: UInt32(truncatingIfNeeded: rng.next()) >> UInt32(rng.below(32)),
                           after: k < edges.count ? UInt32.max - UInt32(k) : UInt32(rng.below(10)))
        }
        var step = session.steps[0]
        step.changes = numbers
        var spellings = HistoryFile.Spellings(ledger)
        let spelled = ledger.tagSets.withMembers { spellings.changeLines(numbers, members: $0, starts: $1) }
        #expect(spelled == Self.referenceChangeLines([step], ledger: ledger))
        for v in edges + [UInt32.max] { #expect(HistoryFile.digits(v) == String(v).count, "\(v)") }
    }

    @Test func aSessionsHistoryReadsAsTheTextReaderReadIt() throws {
        let (bytes, fingerprint, ledger, dir) = try Self.sessionHistory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let (byBytes, byText) = Self.outcomes(bytes, fingerprint: fingerprint, ledger: ledger)
        #expect(byBytes.failure == nil && byBytes.steps.count == 16, "\(byBytes.steps.count) steps")
        #expect(byBytes == byText)
    }

    /// Histories damaged or edited by hand: each line of the session's history dropped, doubled or cut short,
    /// fields changed, records made up, and the first two lines changed.
    @Test func damagedHistoriesFailAsTheTextReaderFailed() throws {
        let (bytes, fingerprint, ledger, dir) = try Self.sessionHistory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let lines = String(decoding: bytes, as: UTF8.self).components(separatedBy: "\n")
        var variants: [[String]] = []
        for i in lines.indices {
            var dropped = lines; dropped.remove(at: i); variants.append(dropped)
            var doubled = lines; doubled.insert(lines[i], at: i); variants.append(doubled)
            var cut = lines; cut[i] = String(lines[i].prefix(lines[i].count / 2)); variants.append(cut)
            var tabbed = lines; tabbed[i] += "\textra"; variants.append(tabbed)
        }
        let made = ["R\t0\t2\ta\tb", "R\t999\t2\ta\tb", "R\t0\t9\ta\tb", "R\t0\t0\t0\t5", "R\t0\t0\t0\t4", "R\t0\t1\t0\t77",
                    "R\t0\t3\t\tnote", "R\t0\t3\ta\\tb\t\\\\", "R\t0\t2\t\u{1F}\u{1F}a\u{1F}A\tb\\\u{1F}", "R\t-1\t2\ta\tb",
                    "R\t0\t2\ta", "R\t\t2\ta\tb", "R\t00\t02\tA\ta", "X\tgarbage", "S\tnot-a-time\ta\tb\tc", "V\tmax-tags\t1\t2",
                    "U\t0\t0\t1rule q x => +y", "U\t0\t1nonsense\t0", "C\t99\tL\tNo Such", "C\t98\tD\tHidden", "T\t98\ta\tb", "", "",
                    // Numbers as `Int` reads text (a sign, leading zeros); line ends after a carriage return (CR LF was
                    // one character to the text reader, and ended no line). Found by a review.
                    "R\t+0\t2\ta\tb", "R\t-0\t2\ta\tb", "R\t0000000000000000000\t2\ta\tb", "R\t0\t+2\ta\tb",
                    "R\t0\t-0\t+1\t-0", "R\t0\t1\t-0\t+0", "R\t0\t0\t-1\t2", "R\t99999999999999999999\t2\ta\tb",
                    "S\t1\ta\tb\tc\r", "R\t0\t2\ta\tb\r", "R\t0\t3\tx\r\ty", "\r"]
        for m in made {
            var at3 = lines; at3.insert(m, at: min(3, at3.count)); variants.append(at3)
            var atEnd = lines; atEnd.insert(m, at: max(0, atEnd.count - 1)); variants.append(atEnd)
        }
        variants.append(["tagsh-history\t3"] + lines.dropFirst())
        variants.append([lines[0], "F\tother"] + lines.dropFirst(2))
        variants.append([lines[0]])
        variants.append([])
        variants.append([lines[0], lines[1]])
        var failures = 0
        for (n, v) in variants.enumerated() {
            let (byBytes, byText) = Self.outcomes(Array(v.joined(separator: "\n").utf8), fingerprint: fingerprint, ledger: ledger)
            #expect(byBytes == byText, "variant \(n): \(v.count) lines")
            if byBytes.failure != nil { failures += 1 }
        }
        #expect(failures > variants.count / 4)
    }
}

/// The undo history's fingerprint of a file: the same for its bytes whole and read part by part from a save's
/// splice (`HistoryFile.fingerprint(of:)`, worked out while the file is written), and the same as version 2 has
/// always written (values from a Python transcription of the hash), so that earlier histories are still read.
struct FingerprintTests {
    @Test func knownValues() {
        #expect(HistoryFile.fingerprint([]) == "0\t90f8749b0fb13233")
        #expect(HistoryFile.fingerprint(Array("abcdefghij".utf8)) == "10\tf194fb3486b77c4b")
        #expect(HistoryFile.fingerprint(Array("2024-01-01 CAFE\n    Expenses:Food  3 EUR\n    Assets:Bank\n".utf8)) == "57\t1209e861d5f43a86")
    }

    @Test(arguments: [1, 2, 3] as [UInt64])
    func aSplicesPartsGiveTheWholesFingerprint(seed: UInt64) {
        var rng = SplitMix(seed: seed)
        for _ in 0..<300 {
            let base = (0..<Int.random(in: 0...200, using: &rng)).map { _ in UInt8.random(in: 0...255, using: &rng) }
            // Edits of any length (one to seven bytes, so that words straddle the parts), insertions included.
            var edits: [ByteSplice.Edit] = []
            var at = 0
            while at < base.count, Int.random(in: 0..<4, using: &rng) > 0 {
                let start = min(base.count, at + Int.random(in: 0...13, using: &rng))
                let end = min(base.count, start + Int.random(in: 0...5, using: &rng))
                edits.append((start, end, (0..<Int.random(in: 0...11, using: &rng)).map { _ in UInt8.random(in: 0...255, using: &rng) }))
                at = end + 1
            }
            let splice = ByteSplice(base, edits: edits)
            #expect(HistoryFile.fingerprint(of: splice) == HistoryFile.fingerprint(splice.bytes), "\(base.count) bytes, \(edits.count) edits")
        }
    }
}
