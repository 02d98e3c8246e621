import Foundation
import Testing
@testable import TagshModel
@testable import TagshFormats

/// A large CSV file is read in two halves at once (`CSVReader.readRecords`); whatever the file holds around
/// the split, the result must be what reading it on one core gives, or the same error.
struct ParallelReadTests {
    /// From how many bytes these tests read a file on two cores (`ReadOptions.parallelFrom`): the split is the same
    /// at any size, and files of 6 MB, past the 4 MB the shell reads them from, took a debug build a minute.
    static let threshold = 1 << 18

    /// About `threshold` × 1.5 of records, with `special` lines placed around the middle.
    static func file(header: String = "Date,Description,Amount,Tags,Category,Intent", row: (Int) -> String,
                     special: [String] = [], at fraction: Double = 0.5, footer: String = "") -> [UInt8] {
        var rows: [String] = []
        var size = 0, i = 0
        while size < threshold * 3 / 2 {
            let r = row(i)
            rows.append(r)
            size += r.utf8.count + 1
            i += 1
        }
        rows.insert(contentsOf: special, at: Int(Double(rows.count) * fraction))
        return Array((header + "\n" + rows.joined(separator: "\n") + "\n" + footer).utf8)
    }

    static func read(_ bytes: [UInt8], parallel: Bool) -> Result<(Ledger, CSVLayout), Diagnostic> {
        var options = ReadOptions()
        options.readsInParallel = parallel
        options.parallelFrom = threshold
        do throws(Diagnostic) {
            let (ledger, layout, _) = try CSVReader.read(bytes, fileName: "big.csv", options: options)
            return .success((ledger, layout))
        } catch {
            return .failure(error)
        }
    }

    static let merchants = ["STARBUCKS 1234", "REWE", "\"AMAZON, MKTPLACE\"", "Café Zoë", "UBER *TRIP"]
    static let tags = ["", "coffee", "Coffee;work", "trip/paris;COFFEE", "work"]

    static func row(_ i: Int, date: (Int) -> String = { i in "2024-\(1 + i % 12 < 10 ? "0" : "")\(1 + i % 12)-\(10 + i % 18)" }) -> String {
        "\(date(i)),\(merchants[i % 5]),-\(i % 97).\(10 + i % 89),\(tags[(i / 5) % 5]),\(i % 7 == 0 ? "Food" : ""),\(i % 11 == 0 ? "want" : "")"
    }

    /// How many rows `file` makes of `row` (9,445): rows `early` and `late` are in its first and second halves.
    static let rowCount: Int = {
        var size = 0, i = 0
        while size < threshold * 3 / 2 { size += row(i).utf8.count + 1; i += 1 }
        return i
    }()
    static let early = rowCount / 8, late = rowCount * 3 / 4

    static let cases: [(String, [UInt8])] = [
        ("plain ISO dates", file(row: { row($0) })),
        // A quoted field holding line ends right at the middle: the split lands inside it, and the lines inside
        // read as records of their own when read from there.
        ("a quoted field over many lines at the split",
         file(header: "Date,Description,Amount,Tags,Category,Other", row: { row($0) },
              special: ["2024-05-05,\"MULTI\n" + String(repeating: "2024-01-01,FAKE,-1.00,,,\n", count: 400) + "2024-01-01,FAKE,-1.00,,,X\",-1.00,,,"])),
        // US dates that settle only in the second half (every day 12 or less before it).
        ("dates settled after the split",
         file(row: { row($0, date: { i in "0\(1 + i % 9)/0\(1 + i % 9)/2024" }) }, special: ["03/25/2024,LATE,-2.00,,,"], at: 0.8)),
        // ... and settled the other way round than the hint, so rows of the first half are read again.
        ("dates settled the other way after the split",
         file(row: { row($0, date: { i in "0\(1 + i % 9)/0\(2 + i % 8)/2024" }) }, special: ["25/03/2024,LATE,-2.00,,,"], at: 0.8)),
        // Settled the other way than the hint in the first half (row `early`), and again in the second (`late`): each
        // half swapped its own rows, and the halves agree.
        ("dates settled the other way in both halves",
         file(row: { row($0, date: { i in i == early || i == late ? "25/03/2024" : "0\(1 + i % 9)/0\(2 + i % 8)/2024" }) })),
        // ... in the first half only: the second half read its dates the hint's way, which reading on would not.
        ("dates settled the other way in the first half only",
         file(row: { row($0, date: { i in i == early ? "25/03/2024" : "0\(1 + i % 9)/0\(2 + i % 8)/2024" }) })),
        // ... one way in the first half and the other in the second: reading on, that date is an error.
        ("dates settled one way in the first half and the other in the second (an error)",
         file(row: { row($0, date: { i in i == early ? "25/03/2024" : i == late ? "03/25/2024" : "0\(1 + i % 9)/0\(2 + i % 8)/2024" }) })),
        ("dates settled the hint's way in the first half and the other in the second (an error)",
         file(row: { row($0, date: { i in i == early ? "03/25/2024" : i == late ? "25/03/2024" : "0\(1 + i % 9)/0\(2 + i % 8)/2024" }) })),
        ("a footer at the end", file(row: { row($0) }, footer: "Total,,-1234.00,,,\n")),
        ("a line without a date in the second half (an error)", file(row: { row($0) }, special: ["not a date,X,-1.00,,,"], at: 0.7)),
        ("a line without a date at the split (an error)", file(row: { row($0) }, special: ["not a date,X,-1.00,,,"], at: 0.5)),
        ("a bad amount in the second half (an error)", file(row: { row($0) }, special: ["2024-01-01,X,lots,,,"], at: 0.9)),
        ("a bad intent in the first half (an error)", file(row: { row($0) }, special: ["2024-01-01,X,-1.00,,,maybe"], at: 0.2)),
    ]

    @Test(arguments: cases.map(\.0))
    func twoHalvesReadAsOne(_ name: String) throws {
        let bytes = try #require(Self.cases.first { $0.0 == name }).1
        #expect(bytes.count > Self.threshold)
        switch (Self.read(bytes, parallel: false), Self.read(bytes, parallel: true)) {
        case (.success(let (one, l1)), .success(let (two, l2))):
            #expect(one.count == two.count)
            #expect((0..<one.count).allSatisfy { one.transaction($0) == two.transaction($0) })
            // Interned in the same order: the same ids, so tag and category order and spelling are the same.
            #expect(one.merchant == two.merchant && one.tagSet == two.tagSet && one.category == two.category)
            #expect(one.tags.ids.map { one.tags[$0] } == two.tags.ids.map { two.tags[$0] })
            #expect(l1.records == l2.records)
            #expect(l1.notes == l2.notes && l1.guesses == l2.guesses && l1.dateFormat == l2.dateFormat)
            #expect(one.pendingRows == two.pendingRows)
        case (.failure(let e1), .failure(let e2)):
            #expect(e1 == e2)
        case (let a, let b):
            Issue.record("one core: \(a), two: \(b)")
        }
    }
}

/// The descriptions are named in the file's bytes, not copied, on one core and on two; only one whose quotes
/// are doubled, or a file read as Windows-1252, has its text held by the table.
struct DescriptionsInTheFileTests {
    @Test(arguments: [false, true])
    func descriptionsAreNamedInTheFile(_ parallel: Bool) throws {
        let bytes = ParallelReadTests.file(row: { ParallelReadTests.row($0) },
                                           special: ["2024-01-01,\"SAY \"\"HI\"\"\",-1.00,,,", "2024-01-01,\"SAY \"\"HI\"\"\",-2.00,,,"], at: 0.7)
        let (ledger, _) = try ParallelReadTests.read(bytes, parallel: parallel).get()
        #expect(ledger.merchants.sharesBuffer)
        #expect(ledger.merchants.ownByteCount == "SAY \"HI\"".utf8.count)
        #expect(ledger.merchants.ids.map { ledger.merchants[$0] } == ParallelReadTests.merchants.map { $0.replacingOccurrences(of: "\"", with: "") } + ["SAY \"HI\""])
        let latin = Array("Date,Description,Amount\n2024-01-01,CAF".utf8) + [0xC9] + Array(",-1.00\n2024-01-02,REWE,-2.00\n".utf8)
        let (l1252, _) = try ParallelReadTests.read(latin, parallel: parallel).get()
        #expect(!l1252.merchants.sharesBuffer && l1252.merchants.ids.map { l1252.merchants[$0] } == ["CAFÉ", "REWE"])
    }
}

/// Once most rows' tags are a set of their own, a CSV reader interns the sets of the rest all at once
/// (`TagSetTable.intern(all:)`): the ids, the table and each row's tags must be what interning each row's tags
/// one after another gives, on one core and on two.
struct BatchedTagSetTests {
    /// Rows whose tags are distinct for the first 9,000 (which turns the raw lists' cache off), then repeats of earlier sets,
    /// sets that differ only in case or order, empty ones (`;`), and new ones.
    static func tags(_ i: Int) -> String {
        if i < 9_000 { return "t\(i);common" }
        switch i % 6 {
        case 0: return "t\(i % 9_000);common"
        case 1: return "COMMON;T\(i % 9_000)"
        case 2: return " ; "
        case 3: return "n\(i);x\(i % 13);Common"
        case 4: return "x\(i % 13);n\(i - 1)"
        default: return "common;t\((i * 7) % 9_000);COMMON"
        }
    }

    /// 20,000 rows make 15,667 sets (none collected); 200,000 make 75,667, from `CSVReader.batchTagSetsFrom` on collected
    /// (on one core; on two, the first half's).
    @Test(arguments: [20_000, 200_000])
    func batchedSetsAreTheSetsInternedOneByOne(_ rows: Int) throws {
        var text = "Date,Description,Amount,Tags\n"
        for i in 0..<rows { text += "2024-01-\(10 + i % 18),SHOP \(i % 50),-\(1 + i % 90).00,\(BatchedTagSetTests.tags(i))\n" }
        let bytes = Array(text.utf8)
        var reference = Ledger()
        let expected = (0..<rows).map { i in
            reference.internTagSet(BatchedTagSetTests.tags(i).split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
                .filter { !$0.isEmpty })
        }
        for parallel in [false, true] {
            let (ledger, _) = try ParallelReadTests.read(bytes, parallel: parallel).get()
            try #require(ledger.tagSet.allSatisfy { Int($0) < ledger.tagSets.count }, "parallel: \(parallel): \(ledger.tagSet.max() ?? 0)")
            // The first row apart: arrays of 200,000 compared with == are worked out as their difference when they differ.
            let apart = (0..<min(rows, ledger.tagSet.count)).first { ledger.tagSet[$0] != expected[$0] }
            #expect(ledger.tagSet.count == rows && apart == nil, "parallel: \(parallel), first row apart: \(apart ?? -1)")
            try #require(ledger.tagSets.count == reference.tagSets.count)
            for id in 0..<UInt32(reference.tagSets.count) {
                #expect(ledger.tagSets[id].map { ledger.tags[$0] } == reference.tagSets[id].map { reference.tags[$0] })
            }
            #expect(ledger.tagNames(rows - 1) == reference.tagSets[expected[rows - 1]].map { reference.tags[$0] })
        }
        #expect(bytes.count > ParallelReadTests.threshold)
        #expect(rows == 20_000 ? reference.tagSets.count < CSVReader.batchTagSetsFrom : reference.tagSets.count > CSVReader.batchTagSetsFrom)
    }

    /// Lists of tags whose kind changes along the file, so that looking them up whole (`parseRecords`'s
    /// `cacheRawTags`) is turned off, on again, off again; then, once sets are collected, lists that repeat
    /// collected ones (looked up whole then, they would be interned ahead of the sets collected before them).
    static func phasedTags(_ i: Int) -> String {
        switch i {
        case ..<9_000: "t\(i);common"
        case ..<40_000: i % 3 == 0 ? "T\(i % 9_000);COMMON" : "t\((i * 7) % 9_000);common"
        case ..<60_000: "u\(i);x\(i % 7)"
        case ..<140_000: "v\(i);common"
        default: i % 2 == 0 ? "V\(60_000 + (i * 13) % 80_000);Common" : "u\(40_000 + i % 20_000);X\((40_000 + i % 20_000) % 7)"
        }
    }

    @Test func listsLookedUpWholeOnAndOffAreTheSetsInternedOneByOne() throws {
        let rows = 200_000
        var text = "Date,Description,Amount,Tags\n"
        for i in 0..<rows { text += "2024-01-\(10 + i % 18),SHOP \(i % 50),-\(1 + i % 90).00,\(BatchedTagSetTests.phasedTags(i))\n" }
        let bytes = Array(text.utf8)
        var reference = Ledger()
        let expected = (0..<rows).map { i in
            reference.internTagSet(BatchedTagSetTests.phasedTags(i).split(separator: ";").map(String.init))
        }
        for parallel in [false, true] {
            let (ledger, _) = try ParallelReadTests.read(bytes, parallel: parallel).get()
            try #require(ledger.tagSet.allSatisfy { Int($0) < ledger.tagSets.count }, "parallel: \(parallel): \(ledger.tagSet.max() ?? 0)")
            // The first row apart (two arrays of 200,000 compared with == are worked out as their difference when they differ).
            let apart = (0..<min(rows, ledger.tagSet.count)).first { ledger.tagSet[$0] != expected[$0] }
            #expect(ledger.tagSet.count == rows && apart == nil, "parallel: \(parallel), first row apart: \(apart ?? -1)")
            #expect(ledger.tagSets.count == reference.tagSets.count)
            #expect(ledger.tags.ids.map { ledger.tags[$0] } == reference.tags.ids.map { reference.tags[$0] })
        }
        #expect(bytes.count > ParallelReadTests.threshold && reference.tagSets.count > CSVReader.batchTagSetsFrom)
    }
}

/// A large file is read from disk, and checked for UTF-8, in two halves at once (`FileIO.read`,
/// `TextEncoding.isCleanUTF8`): the bytes and the verdict must be those of one pass over the whole.
struct LargeFileReadTests {
    /// Past the size read in halves by a few bytes, none repeating in step with the halves.
    static let size = FileIO.readsInHalvesFrom + 7

    @Test func aLargeFileReadInHalvesIsTheFile() throws {
        var bytes = [UInt8](repeating: 0, count: LargeFileReadTests.size)
        var x: UInt64 = 0x9E37_79B9_7F4A_7C15
        for i in bytes.indices {
            x = x &* 6364136223846793005 &+ 1442695040888963407
            bytes[i] = UInt8(truncatingIfNeeded: x >> 56)
        }
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("tagsh-large-\(getpid()).bin").path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let (read, stamp) = try FileIO.read(path)
        #expect(read.count == bytes.count && stamp.size == Int64(bytes.count))
        #expect(bytes.count >= FileIO.readsInHalvesFrom)
        // The first byte apart, not `read == bytes`: a failed comparison of two arrays of megabytes is worked out
        // as their difference, which took minutes.
        let apart = read.withUnsafeBufferPointer { r in bytes.withUnsafeBufferPointer { b in (0..<min(r.count, b.count)).first { r[$0] != b[$0] } } }
        #expect(apart == nil, "the first byte apart: \(apart ?? -1) of \(bytes.count)")
    }

    /// A file that shrank while its halves were read is what was read up to the first gap.
    @Test func aFileThatShrankIsReadUpToTheGap() {
        #expect(FileIO.lengthRead(first: 10, second: 6, mid: 10) == 16)
        #expect(FileIO.lengthRead(first: 10, second: 0, mid: 10) == 10)
        #expect(FileIO.lengthRead(first: 7, second: 6, mid: 10) == 7)
        #expect(FileIO.lengthRead(first: 0, second: 6, mid: 10) == 0)
    }

    /// As many bytes as are checked in halves, ASCII around `middle`, placed so that it straddles the point
    /// where the halves are split.
    static func around(_ middle: [UInt8], at offset: Int) -> [UInt8] {
        var bytes = [UInt8](repeating: 0x61, count: TextEncoding.checksInHalvesFrom)
        bytes.replaceSubrange(bytes.count / 2 - offset..<bytes.count / 2 - offset + middle.count, with: middle)
        return bytes
    }

    static let middles: [(String, [UInt8], Bool)] = [
        ("é", Array("é".utf8), true),
        ("€", Array("€".utf8), true),
        ("an emoji", Array("🙂".utf8), true),
        ("a character cut short", [0xE2, 0x82, 0x61], false),
        ("a lone continuation byte", [0x61, 0x82, 0x61], false),
        ("continuation bytes only", [0x80, 0x80, 0x80, 0x80, 0x80], false),
        ("an overlong form", [0xE0, 0x80, 0xAF], false),
        ("a surrogate", [0xED, 0xA0, 0x80], false),
        ("a NUL", [0x00], false),
    ]

    @Test(arguments: middles.map(\.0))
    func utf8CheckedInHalvesIsCheckedAsOne(_ name: String) throws {
        let (_, middle, valid) = try #require(Self.middles.first { $0.0 == name })
        for offset in 0...middle.count {
            let bytes = Self.around(middle, at: offset)
            let whole = bytes.withUnsafeBufferPointer { TextEncoding.isCleanUTF8($0) }
            #expect(whole == valid, "offset \(offset)")
            #expect(TextEncoding.isCleanUTF8(bytes) == valid, "offset \(offset)")
        }
        // Far from the middle, in either half.
        for at in [1, TextEncoding.checksInHalvesFrom - 1_000] {
            var bytes = [UInt8](repeating: 0x62, count: TextEncoding.checksInHalvesFrom)
            bytes.replaceSubrange(at..<at + middle.count, with: middle)
            #expect(TextEncoding.isCleanUTF8(bytes) == valid, "at \(at)")
        }
    }
}

/// A Tags field's names are looked up by their exact bytes (`ShortNames`) before the tags table: every name must
/// get the id the table alone gives it, names that share their first eight bytes, differ only in case, are past
/// sixteen bytes or go beyond ASCII included, many more than the 256 places (so places are taken over).
struct ShortNamesTests {
    @Test func namesKeptByTheirBytesHaveTheTablesIDs() {
        var rng = SystemRandomNumberGenerator()
        let stems = ["abcdefgh", "trip/par", "batch000", "café", "x", ""]
        var names: [String] = []
        for i in 0..<3_000 {
            let stem = stems[i % stems.count]
            let tail = String(Int.random(in: 0..<400, using: &rng))
            let name = stem + tail + (i % 7 == 0 ? String(repeating: "z", count: Int.random(in: 0..<10, using: &rng)) : "")
            names.append(i % 5 == 0 ? name.uppercased() : name)
        }
        var cached = StringTable(caseInsensitive: true), plain = StringTable(caseInsensitive: true)
        var short = ShortNames()
        for name in names + names.shuffled(using: &rng) {
            var bytes = Array(name.utf8)
            let viaCache = bytes.withUnsafeMutableBufferPointer { b in
                let name = UnsafeBufferPointer(b)
                return short.id(of: name) { cached.intern(bytes: name) }
            }
            #expect(viaCache == plain.intern(name), "\(name)")
        }
    }
}

/// The room a reading reserves for its records (`CSVReader.estimatedRecords`): at least the records there are, so
/// that the columns are not copied into fresh memory when they run out (at 60 bytes a record, a European export's
/// 53-byte records outgrew them), and not many times more.
struct RecordEstimateTests {
    @Test(arguments: [("2024-01-05,A,-1.00\n", 1), ("01.01.2020;\"REWE MARKT DUBLIN\";-1.299,75;EUR\r\n", 0),
                      ("2024-01-05,SHOP,-12.50,EUR,Checking,Food,coffee;work,,want\n", 0),
                      ("2024-01-05,\"" + String(repeating: "LONG DESCRIPTION ", count: 8) + "\",-12.50\n", 0),
                      ("2024-01-05,\"two\nlines\",-1.00\n", 0)])
    func coversTheRecordsThere(_ row: String, _ tail: Int) {
        for count in [1, 50, 5_000, 40_000] {
            let text = String(repeating: row, count: count) + (tail > 0 ? "total,,\n" : "")
            let bytes = Array(text.utf8)
            let estimate = bytes.withUnsafeBufferPointer { b in
                CSVReader(bytes: b, fileName: "", options: ReadOptions()).estimatedRecords(from: 0, to: b.count)
            }
            // (A quoted line end counts as a record: the estimate reserves room for two.)
            let lines = text.utf8.filter { $0 == 0x0A }.count
            #expect(estimate >= count, "\(count) records of \(row.utf8.count) bytes: \(estimate)")
            #expect(estimate <= lines + lines / 4 + 2, "\(count) records of \(row.utf8.count) bytes: \(estimate)")
        }
    }

    @Test func fromTheMiddle() {
        let text = String(repeating: "2024-01-05,LONG DESCRIPTION HERE,-1.00\n", count: 3_000) + String(repeating: "2024-01-05,A,-1.00\n", count: 3_000)
        let bytes = Array(text.utf8)
        let middle = 3_000 * 39
        let estimate = bytes.withUnsafeBufferPointer { b in
            CSVReader(bytes: b, fileName: "", options: ReadOptions()).estimatedRecords(from: middle, to: b.count)
        }
        #expect(estimate >= 3_000 && estimate <= 3_800)
        #expect(bytes.withUnsafeBufferPointer { CSVReader(bytes: $0, fileName: "", options: ReadOptions()).estimatedRecords(from: 5, to: 5) } == 0)
    }
}

/// Once a window of rows shows mostly new descriptions, the descriptions' table gets slots for every record the
/// reading expects at once (`StringTable.reserveSlots`), not by doubling on the way.
struct DescriptionSlotsTests {
    /// 9,000 short rows, then 2,000 rows with 500-byte descriptions: the estimate, taken from the first 64 KB,
    /// expects some 49,000 records, more than the 11,000 there are (on one core: the file is under 4 MB).
    static func file(distinct: Bool) -> [UInt8] {
        var rows = ["Date,Description,Amount"]
        for i in 0..<9000 { rows.append("2024-01-02,\(distinct ? "SHOP \(i)" : "SHOP \(i % 100)"),-1.50") }
        for i in 0..<2000 { rows.append("2024-01-03,LONG \(i) " + String(repeating: "x", count: 500) + ",-2.50") }
        return Array((rows.joined(separator: "\n") + "\n").utf8)
    }

    @Test func mostlyNewDescriptionsGetSlotsForTheRecordsExpected() throws {
        let bytes = DescriptionSlotsTests.file(distinct: true)
        #expect(bytes.count < ReadOptions().parallelFrom)
        let (ledger, _, _) = try CSVReader.read(bytes, fileName: "shops.csv", options: ReadOptions())
        #expect(ledger.count == 11_000 && ledger.merchants.count == 11_000)
        // Grown one string at a time, 11,000 take 32,768 slots; reserved for the ~49,000 expected, 131,072.
        #expect(ledger.merchants.slotCount == 1 << 17)
    }

    /// Read on two cores, the first half makes slots for the records it expects itself, not for the whole file's:
    /// the second half's descriptions get theirs when it joins, on the other core. (Slots for the whole file's,
    /// made on the first core, were 16 MB more resident after opening a million rows of the `merchants` shape.)
    @Test func theFirstOfTwoHalvesGetsSlotsForItsOwnRecords() throws {
        // 60,000 short rows and 5,000 of 500 bytes: 4.3 MB, split among the long rows. Estimated from the short
        // ones, the whole file expects some 146,000 records (524,288 slots) and its first half some 73,000
        // (262,144 slots); the 65,000 descriptions there are fit in those.
        var rows = ["Date,Description,Amount"]
        for i in 0..<60_000 { rows.append("2024-01-02,SHOP \(i),-1.50") }
        for i in 0..<5_000 { rows.append("2024-01-03,LONG \(i) " + String(repeating: "x", count: 480) + ",-2.50") }
        let bytes = Array((rows.joined(separator: "\n") + "\n").utf8)
        #expect(bytes.count >= ReadOptions().parallelFrom)
        let (ledger, _, _) = try CSVReader.read(bytes, fileName: "shops.csv", options: ReadOptions())
        #expect(ledger.count == 65_000 && ledger.merchants.count == 65_000)
        #expect(ledger.merchants.slotCount == 1 << 18)
        var oneCore = ReadOptions()
        oneCore.readsInParallel = false
        let (alone, _, _) = try CSVReader.read(bytes, fileName: "shops.csv", options: oneCore)
        #expect(alone.merchants.slotCount == 1 << 19, "on one core, slots for the whole file's records")
    }

    @Test func repeatedDescriptionsGrowAsTheyCome() throws {
        let (ledger, _, _) = try CSVReader.read(DescriptionSlotsTests.file(distinct: false), fileName: "shops.csv", options: ReadOptions())
        #expect(ledger.merchants.count == 2100)
        #expect(ledger.merchants.slotCount == 1 << 13)
    }
}

