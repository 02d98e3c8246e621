import Testing
@testable import TagshModel

struct AmountTests {
    @Test(arguments: [
        (Amount(units: 500, scale: 2), Amount(units: 5, scale: 0), true),
        (Amount(units: -1250, scale: 2), Amount(units: -125, scale: 1), true),
        (Amount(units: 1, scale: 2), Amount(units: 1, scale: 1), false),
    ])
    func equalityIgnoresScale(_ a: Amount, _ b: Amount, _ equal: Bool) {
        #expect((a == b) == equal)
        if equal { #expect(a.hashValue == b.hashValue) }
    }

    @Test func ordering() {
        #expect(Amount(units: -5001, scale: 2) < Amount(units: -50, scale: 0))
        #expect(Amount(units: 999, scale: 3) < Amount(units: 1, scale: 0))
        #expect(!(Amount(units: 10, scale: 1) < Amount(units: 1, scale: 0)))
    }

    @Test(arguments: [
        (Amount(units: -123456, scale: 2), false, "-1234.56"),
        (Amount(units: -123456, scale: 2), true, "-1,234.56"),
        (Amount(units: 5, scale: 2), false, "0.05"),
        (Amount(units: -5, scale: 3), false, "-0.005"),
        (Amount(units: 1000000, scale: 0), true, "1,000,000"),
        (Amount(units: 0, scale: 2), false, "0.00"),
    ])
    func formatting(_ a: Amount, _ grouping: Bool, _ text: String) {
        #expect(a.formatted(grouping: grouping) == text)
    }

    @Test func exactSumsWithoutFloatingPoint() {
        var total = AmountTotals()
        for _ in 0..<10 { total.add(Amount(units: 1, scale: 1), currency: 1) } // 0.1 ten times
        #expect(total.entries[0].amount == Amount(units: 1, scale: 0))
        #expect(total.entries[0].amount.description == "1.0")
    }
}

struct DayTests {
    @Test(arguments: [(1970, 1, 1, 0), (2024, 2, 29, 19782), (2000, 3, 1, 11017), (1969, 12, 31, -1)])
    func roundTrip(_ y: Int, _ m: Int, _ d: Int, _ days: Int32) throws {
        let day = try #require(Day(year: y, month: m, day: d))
        #expect(day.daysSinceEpoch == days)
        #expect(day.components == (y, m, d))
    }

    @Test func invalidDatesAreRefused() {
        #expect(Day(year: 2023, month: 2, day: 29) == nil)
        #expect(Day(year: 2024, month: 13, day: 1) == nil)
        #expect(Day(year: 2024, month: 4, day: 31) == nil)
        #expect(Day(iso: "2024-02-30") == nil)
        #expect(Day(iso: "2024-02-29")?.description == "2024-02-29")
    }
}

struct StringTableTests {
    @Test func internsOnceAndKeepsFirstSpelling() {
        var t = StringTable(caseInsensitive: true)
        let a = t.intern("Coffee")
        let b = t.intern("coffee")
        let c = t.intern("COFFEE")
        #expect(a == b && b == c)
        #expect(t[a] == "Coffee")
        #expect(t.count == 1)
        #expect(t.id(of: "cOFFEE") == a)
        #expect(t.intern("Ausgaben-Ä") == t.intern("ausgaben-ä"))
    }

    @Test func caseSensitiveTableKeepsBoth() {
        var t = StringTable()
        #expect(t.intern("STARBUCKS") != t.intern("Starbucks"))
        #expect(t.id(of: "nope") == nil)
    }

    @Test func growsPastManyEntries() {
        var t = StringTable()
        for i in 0..<10_000 { #expect(t.intern("m\(i)") == UInt32(i + 1)) }
        for i in stride(from: 0, to: 10_000, by: 97) { #expect(t.id(of: "m\(i)") == UInt32(i + 1)) }
    }

    /// `merge` must leave what interning the other table's texts one by one, in its id order, leaves: the same
    /// ids, spellings and lookups (it reuses the hashes in the other table's slots, and grows once up front).
    @Test(arguments: [false, true])
    func mergeIsInterningInOrder(_ caseInsensitive: Bool) {
        var mine = StringTable(caseInsensitive: caseInsensitive), theirs = StringTable(caseInsensitive: caseInsensitive)
        for i in 0..<3_000 { _ = mine.intern("Shop \(i)") }
        // Half of theirs is already here (in another case for some), half is new; the order is theirs.
        for i in stride(from: 5_999, through: 1_500, by: -1) { _ = theirs.intern(i % 3 == 0 ? "SHOP \(i)" : "Shop \(i)") }
        var oneByOne = mine
        let expected = [UInt32(0)] + theirs.ids.map { oneByOne.intern(theirs[$0]) }
        let map = mine.merge(theirs)
        #expect(map == expected)
        #expect(mine.count == oneByOne.count)
        for id in mine.ids { #expect(mine[id] == oneByOne[id]) }
        for id in theirs.ids { #expect(mine.id(of: theirs[id]) == expected[Int(id)]) }
        #expect(mine.intern("brand new") == UInt32(oneByOne.count + 1))
    }
}

/// The intern tables' offsets: 32 bits while they fit, full once one does not, read the same either way.
struct OffsetsTests {
    @Test func readBackAcross4GiB() {
        let big = Int(UInt32.max)
        var o = Offsets([0, 5, big - 1, big])
        #expect((0..<o.count).map { o[$0] } == [0, 5, big - 1, big])
        o.append(big + 1)
        o.append(big * 3)
        let all = [0, 5, big - 1, big, big + 1, big * 3]
        #expect((0..<o.count).map { o[$0] } == all)
        #expect(o.withBuffer { b in (0..<all.count).map { b[$0] } } == all)
        let small = Offsets([0, 3, 7])
        #expect(small.withBuffer { b in (0..<3).map { b[$0] } } == [0, 3, 7])
    }
}

struct TagSetTableTests {
    /// Merging sets maps their tags, keeps the other table's order, and finds the sets already here.
    @Test func mergeMapsTagsAndFindsExistingSets() {
        var mine = TagSetTable(), theirs = TagSetTable()
        for i in 0..<2_000 { _ = mine.intern([UInt32(i % 7), UInt32(i)]) }
        for i in 1_000..<4_000 { _ = theirs.intern([UInt32(i % 7), UInt32(i)]) }
        // Their tags below 2,000 are ours; the others are ours plus 10,000 (their first 1,000 sets are here already).
        let tagMap = (0..<4_000).map { UInt32($0 < 2_000 ? $0 : $0 + 10_000) }
        var oneByOne = mine
        let expected = [UInt32(0)] + (1..<theirs.count).map { oneByOne.intern(theirs[UInt32($0)].map { tagMap[Int($0)] }) }
        #expect(mine.merge(theirs, tagMap: tagMap) == expected)
        #expect(mine.count == oneByOne.count)
        for id in 0..<UInt32(mine.count) { #expect(mine[id] == oneByOne[id]) }
        #expect(expected[1] == 1_001 && mine.intern([1_000 % 7, 1_000]) == 1_001)
        #expect(mine.intern([2_000 % 7, 12_000]) == expected[1_001] && expected[1_001] == 2_001)
        #expect(mine.intern([]) == 0)
    }
}

struct TagTests {
    @Test(arguments: [
        ("coffee", nil), ("trip/paris", nil), ("trip:paris", nil), ("a.b_c-d", nil), ("Ausgaben-ä", nil),
        ("", TagName.Problem.empty), ("two words", .badCharacter(" ")), ("semi;colon", .badCharacter(";")),
        (String(repeating: "x", count: 65), .tooLong(65)),
    ])
    func validation(_ name: String, _ problem: TagName.Problem?) {
        #expect(TagName.validate(name) == problem)
    }

    @Test func hierarchy() {
        #expect(TagName.matches("trip", query: "trip"))
        #expect(TagName.matches("trip/paris", query: "trip"))
        #expect(TagName.matches("trip:paris", query: "trip"))
        #expect(!TagName.matches("tripod", query: "trip"))
        #expect(TagName.matches("trip/paris", query: "trip/paris"))
    }

    @Test func paletteIsStableAcrossRunsAndCase() {
        // Fixed values: FNV-1a of the lower-cased UTF-8 name, the same on every machine.
        #expect(TagName.paletteIndex(for: "coffee") == TagName.paletteIndex(for: "Coffee"))
        #expect(TagName.paletteIndex(for: "coffee") == 1)
        #expect(TagName.paletteIndex(for: "trip/paris") == 22)
    }
}

struct RowSetTests {
    @Test func setOperations() {
        var a = RowSet(rowCount: 130, rows: [0, 64, 129])
        let b = RowSet(rowCount: 130, rows: [64, 100])
        #expect(a.count == 3)
        var u = a
        u.formUnion(b)
        #expect(u.rows == [0, 64, 100, 129])
        a.formIntersection(b)
        #expect(a.rows == [64])
        var n = RowSet(rowCount: 130, rows: [1])
        n.invert()
        #expect(n.count == 129)
        #expect(!n.contains(1) && n.contains(129))
        #expect(RowSet(rowCount: 130, filled: true).count == 130)
    }
}
