import Testing
import TagshModel
@testable import TagshShell
import TagshTestSupport

/// The pieces `summary` and `chart` are made of: roll-up, periods, sparklines and bars.
struct ReportTests {
    @Test(arguments: [
        ("trip/paris", 1, "trip"), ("trip/paris", 2, "trip/paris"), ("trip/paris", 5, "trip/paris"),
        ("trip", 1, "trip"), ("Food:Groceries:Organic", 1, "Food"), ("Food:Groceries:Organic", 2, "Food:Groceries"),
        ("trip:paris/day1", 2, "trip:paris"), ("a/b/c/d", 3, "a/b/c"), ("/leading", 1, "/leading"),
    ])
    func rollUp(_ name: String, _ depth: Int, _ expected: String) {
        #expect(Hierarchy.rollUp(name, depth: depth) == expected)
    }

    @Test func rollUpWithoutDepthKeepsTheName() {
        #expect(Hierarchy.rollUp("trip/paris", depth: nil) == "trip/paris")
    }

    /// ISO weeks: the week with the year's first Thursday is week 1, so early
    /// January can belong to the year before and late December to the year after.
    @Test(arguments: [
        ("2025-03-01", "2025-W09"), ("2025-03-03", "2025-W10"), ("2025-03-09", "2025-W10"),
        ("2024-12-30", "2025-W01"), ("2025-01-01", "2025-W01"), ("2021-01-03", "2020-W53"),
        ("2020-12-31", "2020-W53"), ("2026-12-31", "2026-W53"), ("2027-01-04", "2027-W01"), ("1969-12-29", "1970-W01"),
    ])
    func isoWeek(_ date: String, _ expected: String) throws {
        let day = try #require(Day(iso: Substring(date)))
        #expect(Period.label(.week, Period.key(.week, day)) == expected)
        #expect(Period.weekday(Day(daysSinceEpoch: Int32(Period.key(.week, day)))) == 0, "a week's key is its Monday")
    }

    @Test(arguments: [
        (Dimension.quarter, "2025-01-01", "2025-Q1"), (.quarter, "2025-03-31", "2025-Q1"), (.quarter, "2025-04-01", "2025-Q2"),
        (.quarter, "2025-12-31", "2025-Q4"), (.month, "2025-12-31", "2025-12"), (.year, "2025-06-15", "2025"),
        (.day, "2025-06-15", "2025-06-15"), (.quarter, "1960-11-02", "1960-Q4"),
    ])
    func periodLabel(_ period: Dimension, _ date: String, _ expected: String) throws {
        let day = try #require(Day(iso: Substring(date)))
        #expect(Period.label(period, Period.key(period, day)) == expected)
    }

    /// The period after the last of a year is the first of the next.
    @Test(arguments: [
        (Dimension.quarter, "2025-12-01", "2026-Q1"), (.month, "2025-12-01", "2026-01"), (.week, "2025-12-29", "2026-W02"),
        (.day, "2024-02-28", "2024-02-29"), (.year, "1999-01-01", "2000"),
    ])
    func nextPeriod(_ period: Dimension, _ date: String, _ expected: String) throws {
        let day = try #require(Day(iso: Substring(date)))
        #expect(Period.label(period, Period.next(period, Period.key(period, day))) == expected)
    }

    @Test(arguments: [
        (Int128(0), Int128(100), 0), (1, 100, 0), (12, 100, 0), (13, 100, 1), (50, 100, 3), (87, 100, 6),
        (88, 100, 7), (100, 100, 7), (5, 0, 0), (-5, 100, 0),
    ])
    func sparklineLevel(_ value: Int128, _ max: Int128, _ expected: Int) {
        #expect(Sparkline.level(value, of: max) == expected)
    }

    @Test(arguments: [
        ([Int128](), ""), ([0, 0], "▁▁"), ([1, 2, 3, 4, 5, 6, 7, 8], "▁▂▃▄▅▆▇█"), ([-8, 4, 0], "█▄▁"),
        // Amounts at scale 18 of a ledger's largest totals stay exact in integers.
        ([Int128(1_000_000_000) * 1_000_000_000_000_000_000, 1], "█▁"),
    ])
    func sparkline(_ values: [Int128], _ expected: String) {
        #expect(Sparkline.render(values) == expected)
    }

    /// Money out and money in together are as long as the whole flow's bar.
    @Test(arguments: [
        (Int128(2555), Int128(4200), Int128(6755), 38), (1000, 0, 1000, 10), (0, 1000, 1000, 10), (1, 1, 1000, 10), (999, 1, 1000, 40),
    ])
    func flowBarsFitTheirWidth(_ out: Int128, _ inflow: Int128, _ max: Int128, _ width: Int) {
        let (o, i) = Summary.bars(out: out, in: inflow, of: max, width: width)
        #expect(o.count + i.count <= width + 1)
        #expect(out == 0 ? o.isEmpty : !o.isEmpty)
        #expect(inflow == 0 ? i.isEmpty : !i.isEmpty)
        #expect(i.allSatisfy { $0 == "░" })
    }

    /// The largest flow fills the width exactly.
    @Test func largestFlowFillsTheWidth() {
        let (o, i) = Summary.bars(out: 600, in: 400, of: 1000, width: 10)
        #expect(o == "██████" && i == "░░░░")
    }

    /// `--csv` goes to the terminal: ledger text in it cannot drive the terminal, and stays one line per row.
    @Test(arguments: [
        ("STARBUCKS", "STARBUCKS"), ("a,b", "\"a,b\""), ("say \"hi\"", "\"say \"\"hi\"\"\""),
        ("EVIL\u{1b}[31mRED", "EVIL^[[31mRED"), ("two\nlines, here", "\"two^Jlines, here\""), (" edge", "\" edge\""),
    ])
    func csvField(_ text: String, _ expected: String) {
        #expect(Render.csvField(text) == expected)
    }

    /// A bar's cells are `value / max` of the width, rounded, as before for amounts that fit; for amounts of
    /// eighteen digits at eleven places (units at the largest scale, past 2^120) the product overflowed 128 bits and
    /// stopped tagsh in `chart` (found by a review). Now both are halved until it fits.
    @Test func barCellsNeverOverflow() {
        for (value, max, count) in [(Int128(1), Int128(3), 80), (2, 3, 80), (50, 100, 7), (99, 100, 640), (0, 5, 10), (7, 7, 1)] {
            #expect(Summary.cells(value, of: max, in: count) == Int((value * Int128(count) + max / 2) / max))
        }
        let huge = Int128.max / 3
        #expect(Summary.cells(huge, of: huge, in: 640) == 640)
        #expect(Summary.cells(huge / 2, of: huge, in: 640) == 320)
        #expect(Summary.cells(Int128.max, of: Int128.max, in: 8 * 200) == 1600)
        #expect(Summary.bar(Int128.max, of: Int128.max, width: 40) == String(repeating: "█", count: 40))
        #expect(Summary.bars(out: Int128.max / 2 + 1, in: Int128.max / 2 + 1, of: Int128.max, width: 10).1.count >= 1)
    }
}

/// `merchants` orders names as `String`s do, reading their bytes where that gives the same answer
/// (`textPrecedes`): against `String`'s `<` on names of ASCII, precomposed and combining characters, one the
/// other's start, and equal.
struct TextOrderTests {
    @Test func bytesWhereTheyAgreeWithStrings() {
        let parts = ["a", "b", "e", "E", " ", "1", "é", "e\u{301}", "\u{301}", "ß", "ü", "u\u{308}", "☕", "Z", "z"]
        var rng = SplitMix(seed: 99)
        var names: [String] = ["", "a", "ab", "abc", "e", "é", "e\u{301}", "e\u{301}x", "ex", "eé", "ee\u{301}"]
        for _ in 0..<400 {
            names.append((0..<Int.random(in: 0...5, using: &rng)).map { _ in parts.randomElement(using: &rng)! }.joined())
        }
        for a in names {
            for b in names {
                var x = a, y = b
                let got = x.withUTF8 { p in y.withUTF8 { q in textPrecedes(p, q) } }
                #expect(got == (a < b), "'\(a.unicodeScalars.map { String($0.value, radix: 16) })' < '\(b.unicodeScalars.map { String($0.value, radix: 16) })'")
            }
        }
    }
}
