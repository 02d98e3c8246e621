import Testing
#if canImport(Glibc)
import Glibc
#endif
import TagshModel
@testable import TagshFormats

/// A save writes a file's new bytes as a splice of its old ones (`ByteSplice`), then edits the old bytes and row
/// offsets in place (`Rendered.nextDocument`). Every way of getting the new bytes must give the same bytes, and the
/// document a save leaves must be the document reading the written file gives.
struct SaveSpliceTests {
    /// A small deterministic generator (the same cases on every run).
    struct Generator {
        var state: UInt64
        mutating func next(_ bound: Int) -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int((state >> 33) % UInt64(bound))
        }
    }

    /// Random edits, none overlapping another: replacements, deletions, insertions (also at a replaced range's
    /// start), at the very start and end of the file too.
    static func randomEdits(count: Int, size: Int, rng: inout Generator) -> [ByteSplice.Edit] {
        var edits: [ByteSplice.Edit] = []
        var at = 0
        while edits.count < count && at <= size {
            let start = min(size, at + rng.next(4) * rng.next(40))
            let end = min(size, start + [0, 0, 1, 7, 30][rng.next(5)])
            let text = (0..<[0, 1, 5, 40, 200][rng.next(5)]).map { _ in UInt8(97 + rng.next(26)) }
            if start == end && text.isEmpty { at = start + 1; continue }
            if rng.next(3) == 0 && start < end { edits.append((start, start, [0x2B])) } // an insertion where a replacement starts
            edits.append((start, end, text))
            at = end + (start == end ? 1 : 0)
        }
        return edits
    }

    /// What the new bytes must be: the old ones with each edit made, by plain array surgery from the back.
    static func expected(_ base: [UInt8], _ edits: [ByteSplice.Edit]) -> [UInt8] {
        var out = base
        for e in edits.reversed() { out.replaceSubrange(e.start..<e.end, with: e.bytes) }
        return out
    }

    @Test func everyWayOfMakingTheNewBytesAgrees() {
        var rng = Generator(state: 7)
        for round in 0..<300 {
            let size = [0, 1, 50, 1_000, 20_000][round % 5]
            let base = (0..<size).map { _ in UInt8(65 + rng.next(26)) }
            let edits = Self.randomEdits(count: [1, 3, 40, 400][rng.next(4)], size: size, rng: &rng)
            let want = Self.expected(base, edits)
            // Given in any order, the splice sorts them.
            let splice = ByteSplice(base, edits: rng.next(2) == 0 ? edits : edits.reversed())
            #expect(splice.count == want.count)
            #expect(splice.bytes == want, "round \(round)")
            var parts: [UInt8] = []
            splice.forEachPart { (p: UnsafeBufferPointer<UInt8>) in
                #expect(!p.isEmpty)
                parts += p
            }
            #expect(parts == want, "round \(round)")
            // In place, with room to grow and without; a shared array is copied, not changed under its other holder.
            var roomy = base
            roomy.reserveCapacity(base.count * 2 + 1_000)
            ByteSplice.apply(splice.edits, to: &roomy)
            #expect(roomy == want, "round \(round)")
            var tight = base
            let other = tight
            ByteSplice.apply(splice.edits, to: &tight)
            #expect(tight == want, "round \(round)")
            #expect(other == base)
        }
    }

    @Test func aSplicedWriteWritesTheNewBytes() throws {
        let folder = "/tmp/tagsh-splice-\(getpid())"
        FileIO.makeFolders(folder)
        defer { _ = FileIO.glob(folder + "/*").map { unlink($0) }; rmdir(folder) }
        var rng = Generator(state: 11)
        // Long runs of old bytes go straight to the kernel, short parts are gathered: both, and many of each.
        let base = (0..<3_000_000).map { _ in UInt8(65 + rng.next(26)) }
        let edits = Self.randomEdits(count: 5_000, size: 1_500_000, rng: &rng) + [(2_900_000, 2_900_010, [0x2D])]
        let splice = ByteSplice(base, edits: edits)
        let path = folder + "/ledger.journal"
        let temporary = try FileIO.writeTemporary(splice, for: path)
        try FileIO.replace(path, with: temporary)
        #expect(try FileIO.read(path).bytes == Self.expected(base, edits))
        // A disk that fills up halfway: nothing is left behind.
        FileIO.injectWriteFault(forPathContaining: "spliced", afterBytes: 2_000_000)
        defer { FileIO.clearWriteFault(forPathContaining: "spliced") }
        #expect(throws: FileError.self) { try FileIO.writeTemporary(splice, for: folder + "/spliced.journal") }
        #expect(FileIO.glob(folder + "/.spliced*").isEmpty)
    }

    static let journal = """
        account Assets:Checking
        account Expenses:Food

        2024-01-02 REWE ; trip:paris
            Expenses:Food  12.50 EUR
            Assets:Checking

        include other.journal

        2024-01-03 STARBUCKS
            Expenses:Food  4.20 EUR
            Assets:Checking

        account Expenses:Late

        2024-01-04 UBER
            Expenses:Food  9.00 EUR
            Assets:Checking

        2024-01-05 LAST ; note: no newline at the end
            Expenses:Food  1.00 EUR
            Assets:Checking
        """

    static let beancount = """
        2000-01-01 open Assets:Checking
        2000-01-01 open Expenses:Food

        2024-01-02 * "REWE" "" #paris
          Expenses:Food  12.50 EUR
          Assets:Checking  -12.50 EUR

        2024-01-03 * "STARBUCKS" ""
          Expenses:Food  4.20 EUR
          Assets:Checking  -4.20 EUR

        2024-01-04 * "UBER" ""
          intent: "want"
          Expenses:Food  9.00 EUR
          Assets:Checking  -9.00 EUR
        """

    static let included: [UInt8] = Array("""
        2024-01-10 INCLUDED
            Expenses:Food  2.00 EUR
            Assets:Checking

        """.utf8)

    static func read(_ bytes: [UInt8], _ format: LedgerFormat, included: [UInt8] = included) throws -> LoadedLedger {
        try LedgerDocument.read(bytes, fileName: "/ledgers/main.\(format)", format: format, options: ReadOptions()) { path throws(FileError) in
            guard path == "/ledgers/other.journal" else { throw FileError(path: path, kind: .notFound, whileWriting: false) }
            return (included, FileStamp(device: 0, inode: 0, size: 0, modified: 0, modifiedNanos: 0, mode: 0o100644))
        }
    }

    /// Three saves in one session, each changing other rows (tags, a note, a new category, the first and the last
    /// row, the included file's row): after each, the document the save leaves is the one reading its files gives.
    @Test(arguments: [LedgerFormat.journal, .beancount])
    func theDocumentASaveLeavesIsTheFileItWrote(_ format: LedgerFormat) throws {
        var loaded = try Self.read(Array((format == .journal ? Self.journal : Self.beancount).utf8), format)
        var ledger = loaded.ledger
        let last = ledger.count - 1
        let steps: [(rows: [Int], change: (inout Ledger, Int) -> Void)] = [
            ([0, last], { l, r in l.tagSet[r] = l.internTagSet(["coffee", "work"]) }),
            ([1, 2], { l, r in l.category[r] = l.categories.intern(r == 1 ? "Fees" : "Late"); l.note[r] = l.notes.intern("paid") }),
            ([0, 1, last], { l, r in l.tagSet[r] = 0; l.intent[r] = Intent.need.rawValue }),
        ]
        for (n, step) in steps.enumerated() {
            for r in step.rows { step.change(&ledger, r) }
            let changed = step.rows.filter { $0 < ledger.count }
            var rendered = try loaded.document.renderForSave(ledger, changedRows: changed)
            let main = rendered.main.bytes
            let included = rendered.included.first?.bytes
            let made = rendered.nextDocument(from: &loaded.document)
            let next = try #require(made)
            #expect(next.bytes == main, "save \(n + 1)")
            let reread = try Self.read(main, format, included: included ?? (format == .journal ? Self.included : []))
            guard case .text(let got) = next.layout, case .text(let want) = reread.document.layout else {
                Issue.record("not a text layout")
                return
            }
            #expect(got.files.map(\.bytes) == want.files.map(\.bytes), "save \(n + 1)")
            #expect(got.rowFile == want.rowFile, "save \(n + 1)")
            #expect(got.rowStart == want.rowStart, "save \(n + 1)")
            #expect(got.rowEnd == want.rowEnd, "save \(n + 1)")
            #expect(got.declaredAccounts == want.declaredAccounts, "save \(n + 1)")
            #expect(got.declarationInsertAt == want.declarationInsertAt, "save \(n + 1)")
            // The saved file reads back as the ledger that was saved.
            for r in 0..<ledger.count {
                #expect(reread.ledger.tagNames(r) == ledger.tagNames(r), "save \(n + 1), row \(r + 1)")
                #expect(reread.ledger.category[r] == 0 ? ledger.category[r] == 0
                        : reread.ledger.categories[reread.ledger.category[r]].name == ledger.categories[ledger.category[r]].name,
                        "save \(n + 1), row \(r + 1)")
            }
            loaded.document = next
        }
    }

    /// A bank export with every annotation column already there (so no save adds one and the document is not read
    /// back): quoted fields, a record that quotes every field, CRLF line ends and a footer.
    static let csv = "Date,Description,Amount,Intent,Category,Tags,Notes\r\n"
        + "2024-01-02,\"REWE, Berlin\",-12.50,,,trip:paris,\r\n"
        + "\"2024-01-03\",\"STARBUCKS\",\"-4.20\",\"\",\"\",\"\",\"\"\r\n"
        + "2024-01-04,UBER,-9.00,want,,,\r\n"
        + "2024-01-05,LAST,-1.00,,,,\"say \"\"hi\"\"\"\r\n"
        + "Total,,-26.70,,,,\r\n"

    /// Three saves of a CSV file in one session: after each, the document the save leaves (its bytes edited in place,
    /// its records' offsets shifted) is the one reading the written file gives.
    @Test func theCSVDocumentASaveLeavesIsTheFileItWrote() throws {
        func read(_ bytes: [UInt8]) throws -> LoadedLedger {
            try LedgerDocument.read(bytes, fileName: "/ledgers/bank.csv", format: .csv, options: ReadOptions())
        }
        var loaded = try read(Array(Self.csv.utf8))
        var ledger = loaded.ledger
        let last = ledger.count - 1
        let steps: [(rows: [Int], change: (inout Ledger, Int) -> Void)] = [
            ([0, last], { l, r in l.tagSet[r] = l.internTagSet(["coffee", "a longer tag name"]) }),
            ([1, 2], { l, r in l.category[r] = l.categories.intern(r == 1 ? "Fees" : "Late"); l.note[r] = l.notes.intern("paid, \"cash\"") }),
            ([0, 1, last], { l, r in l.tagSet[r] = 0; l.intent[r] = Intent.need.rawValue; l.note[r] = 0 }),
        ]
        for (n, step) in steps.enumerated() {
            for r in step.rows { step.change(&ledger, r) }
            var rendered = try loaded.document.renderForSave(ledger, changedRows: step.rows)
            let main = rendered.main.bytes
            let made = rendered.nextDocument(from: &loaded.document)
            let next = try #require(made)
            #expect(next.bytes == main, "save \(n + 1)")
            let reread = try read(main)
            guard case .csv(let got) = next.layout, case .csv(let want) = reread.document.layout else {
                Issue.record("not a CSV layout")
                return
            }
            #expect(got.records == want.records, "save \(n + 1)")
            for r in 0..<ledger.count {
                #expect(reread.ledger.tagNames(r) == ledger.tagNames(r), "save \(n + 1), row \(r + 1)")
                #expect(reread.ledger.note[r] == 0 ? ledger.note[r] == 0 : reread.ledger.notes[reread.ledger.note[r]] == ledger.notes[ledger.note[r]],
                        "save \(n + 1), row \(r + 1)")
                #expect(reread.ledger.intent[r] == ledger.intent[r], "save \(n + 1), row \(r + 1)")
            }
            loaded.document = next
        }
        // Only the changed records changed: the footer and the untouched record are as they were.
        let text = String(decoding: loaded.document.bytes, as: UTF8.self)
        #expect(text.hasSuffix("\r\nTotal,,-26.70,,,,\r\n"))
        #expect(text.contains("\r\n2024-01-04,UBER,-9.00,want,Late,,\"paid, \"\"cash\"\"\"\r\n"))
        #expect(text.contains("\r\n\"2024-01-03\",\"STARBUCKS\",\"-4.20\",\"need\",\"Fees\",\"\",\"\"\r\n"))
    }
}

/// Record offsets are kept in 32 bits while they fit and in full once one does not; either way they read back
/// as given and shift as a save's edits move them.
struct RecordOffsetsTests {
    static func offsets(_ ranges: [Range<Int>]) -> RecordOffsets {
        var o = RecordOffsets()
        for r in ranges { o.append(r) }
        return o
    }

    @Test func readsBackWhatWasAppendedOnEitherSideOf4GiB() {
        let big = Int(UInt32.max)
        let ranges = [0..<10, 11..<20, (big - 5)..<(big + 7), (big + 8)..<(big + 30)]
        let o = Self.offsets(ranges)
        #expect(o.indices.map { o[$0] } == ranges)
        #expect(o.first == 0..<10 && o.last == (big + 8)..<(big + 30))
        var joined = Self.offsets(Array(ranges.prefix(2)))
        joined.append(contentsOf: Self.offsets(Array(ranges.dropFirst(2))))
        #expect(joined == o)
    }

    @Test(arguments: [0, Int(UInt32.max) - 40])
    func shiftMovesEveryRecordAfterAnEdit(_ base: Int) {
        // Three records of 10 bytes and a line end each; the second grows by 5 bytes, the third shrinks by 3.
        var o = Self.offsets([base..<(base + 10), (base + 11)..<(base + 21), (base + 22)..<(base + 32)])
        o.shift(by: [(start: base + 11, end: base + 21, bytes: Array(repeating: 0x41, count: 15)),
                     (start: base + 22, end: base + 32, bytes: Array(repeating: 0x42, count: 7))])
        #expect(o.indices.map { o[$0] } == [base..<(base + 10), (base + 11)..<(base + 26), (base + 27)..<(base + 34)])
    }
}

/// The byte-level shortcuts a text save's rewrite of a block takes, against the `Character` readings they replaced.
struct BlockRewriteShortcutTests {
    static let samples = ["coffee", "trip-paris", "a_b/c.d", "Work2024", "", "trip:paris", "café", "naïve", "e\u{301}",
                          "٣", "Ⅻ", "ß", "a b", "a\tb", "#x", "x!", "日本", "A-Z_0-9./", "-", "a\r\nb", "ａ"]

    /// Beancount's tag spelling, read as bytes, accepts exactly what the `Character` test did.
    @Test(arguments: samples)
    func beancountTagSpellingReadsBytesAsCharacters(_ tag: String) {
        let reference = !tag.isEmpty && tag.allSatisfy { ($0.isASCII && ($0.isLetter || $0.isNumber)) || "-_/.".contains($0) }
        #expect(BeancountWriter.isValidTag(tag) == reference)
    }

    /// A tag is split into a journal's `name:value` at its first colon, ASCII or not, as the `Character` search did.
    @Test func desiredTagsSplitAtTheFirstColon() {
        let tags = ["trip:paris", "plain", ":lead", "trail:", "a:b:c", "café:crème", "é:ü", "x:\u{301}y", "日本:東京"]
        var ledger = Ledger()
        let set = ledger.internTagSet(tags)
        ledger.append(day: Day(year: 2024, month: 1, day: 1)!, merchant: ledger.merchants.intern("M"), amount: .zero,
                      currency: 0, account: 0, intent: nil, category: 0, tagSet: set, note: 0)
        let got = TextWriter.desiredTags(ledger, 0)
        let want = ledger.tagNames(0).map { tag -> (String, String) in
            guard let colon = tag.firstIndex(of: ":") else { return (tag, "") }
            return (String(tag[..<colon]), String(tag[tag.index(after: colon)...]))
        }
        #expect(got.map(\.name) == want.map(\.0))
        #expect(got.map(\.value) == want.map(\.1))
        #expect(got.first.map { $0.name == "trip" && $0.value == "paris" } == true)
    }

    /// A beancount file's intent and note metadata read at open: ASCII values as bytes, others as characters, quoted
    /// or bare, escapes undone.
    @Test func metadataValuesReadAtOpen() throws {
        let text = """
            2024-01-01 * "A"
              note: "say \\"hi\\", twice"
              intent: want
              Expenses:Food  1 USD
              Assets:Cash

            2024-01-02 * "B"
              note: "café \\"crème\\""
              intent: "need"
              Expenses:Food  1 USD
              Assets:Cash

            2024-01-03 * "C"
              note:   bare value  \t
              Expenses:Food  1 USD
              Assets:Cash

            """
        let loaded = try LedgerDocument.read(Array(text.utf8), fileName: "m.beancount", format: .beancount, options: ReadOptions())
        let l = loaded.ledger
        #expect(l.count == 3)
        #expect((0..<3).map { l.notes[l.note[$0]] } == [#"say "hi", twice"#, #"café "crème""#, "bare value"])
        #expect((0..<3).map { l.intentValue($0) } == [.want, .need, nil])
    }

    /// A block parsed without its postings (a save where the category cannot change) has the same tags,
    /// metadata and first posting line as one parsed whole, and stops reading at its first posting.
    @Test func aBlockParsedWithoutPostingsHasTheSameMetadata() {
        let blocks: [[String]] = [
            ["2024-01-02 * \"STARBUCKS\" \"latte\" #coffee #morning ^r1", "  place: \"downtown\"", "  intent: \"need\"",
             "  Expenses:Food:Coffee      4.75 USD", "    note: \"posting metadata\"", "  Assets:Checking  -4.75 USD"],
            ["2024-01-03 ! \"Rent\"  ; comment", "  ; a comment", "  note: \"say \\\"hi\\\", café\"", "",
             "  Expenses:Rent  1200.00 USD", "  Assets:Checking"],
            ["2024-01-04 txn \"Café\" #été", "  intent: want", "  Expenses:Food  5 EUR", "  Assets:Cash"],
            ["2024-01-05 * \"No postings\"", "  note: \"only\""],
        ]
        for lines in blocks {
            let whole = BeancountFormat.parseBlock(lines)
            let header = BeancountFormat.parseBlock(lines, postings: false)
            #expect(header.tags.map(\.name) == whole.tags.map(\.name) && header.tags.map(\.range) == whole.tags.map(\.range))
            #expect(header.tagInsertAt == whole.tagInsertAt)
            #expect(header.metadata.map(\.key) == whole.metadata.map(\.key))
            #expect(header.metadata.map(\.value) == whole.metadata.map(\.value))
            #expect(header.metadata.map(\.line) == whole.metadata.map(\.line))
            #expect(header.firstPostingLine == whole.postings.first?.line)
            #expect(header.postings.isEmpty)
        }
        #expect(BeancountFormat.parseBlock(blocks[1]).metadata.map(\.value) == ["say \"hi\", café"])
        #expect(BeancountFormat.parseBlock(blocks[2]).metadata.map(\.value) == ["want"])
    }
}

/// The ids a beancount refusal has checked: a bit each when the looks are many, a `Set` when they are few beside the
/// ids; either way an id is new once.
struct SeenIDsTests {
    @Test(arguments: [(1000, 1), (1000, 100), (10, 1)])
    func anIDIsNewOnce(_ count: Int, _ looks: Int) {
        var seen = SeenIDs(count: count, looks: looks)
        for id in [0, 63, 64, 999, 5, 63] where id < count { _ = seen.insert(UInt32(id)) }
        for id in 0..<UInt32(count) {
            let new = seen.insert(id)
            #expect(new == ![0, 63, 64, 999, 5].contains(Int(id)), "id \(id) of \(count)")
        }
        for id in 0..<UInt32(count) {
            let new = seen.insert(id)
            #expect(!new, "id \(id) of \(count), again")
        }
    }
}
