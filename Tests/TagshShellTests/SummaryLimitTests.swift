import Foundation
import Testing
import TagshModel
@testable import TagshShell
import TagshTestSupport

/// `summary --limit N` finds the groups it keeps before making their lines (`SummaryReport.keptKeys`): what it prints
/// must be what the full summary's first N lines and the rest folded into one give.
struct SummaryLimitTests {
    /// With `huge` 1 (2), six merchants also get money in (out) past Int64 in all at three decimals, and the same
    /// out (in) at two, which does not pass it (no other amount then has three decimals); their net totals are a
    /// few thousandths, so a limited summary folds them.
    static func ledgerFile(seed: UInt64, currencies: [String], huge: Int = 0, tags: Bool = false) throws -> (URL, String) {
        var rng = SplitMix(seed: seed)
        var text = "Date,Description,Amount,Currency,Category" + (tags ? ",Tags\n" : "\n")
        let tagSets = ["", "trip", "trip;work", "coffee", "work;coffee;gift", "gift", ""]
        let merchants = (0..<40).map { "SHOP \($0 % 7 == 0 ? "Café " : "")\($0)" }
        for i in 0..<600 {
            let merchant = merchants[Int.random(in: 0..<merchants.count, using: &rng)]
            // Ties of size (the same net) between merchants, money in and out, and a few amounts with more digits.
            let cents = [-1500, 1500, -250, 999, 0][i % 5] + (Int.random(in: 0..<4, using: &rng) == 0 ? Int.random(in: -90_000...90_000, using: &rng) : 0)
            let amount = i % 97 == 0 && huge == 0 ? "\(cents / 100).\(String(format: "%03d", abs(cents % 100) * 10 + 5))"
                                     : String(format: "%.2f", Double(cents) / 100) // test data only: the file's text
            let day = String(format: "2024-%02d-%02d", 1 + i % 12, 1 + i % 28)
            let category = ["Food", "Travel", "", "Rent"][Int.random(in: 0..<4, using: &rng)]
            text += "\(day),\(merchant),\(amount),\(currencies[i % currencies.count]),\(category)" + (tags ? ",\(tagSets[Int.random(in: 0..<tagSets.count, using: &rng)])\n" : "\n")
        }
        if huge > 0 {
            let (three, two) = huge == 1 ? ("", "-") : ("-", "")
            for m in 0..<6 {
                for amount in [three + "999999999999999.999", three + "999999999999999.999", two + "1999999999999999.99"] {
                    text += "2024-02-0\(1 + m),HUGE \(m),\(amount),\(currencies[0]),\(tags ? "," : "")\n"
                }
            }
        }
        let (dir, path) = try scratchFile("summary.csv", prefix: "tagsh-summary")
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return (dir, path)
    }

    @Test(arguments: [(1, ["EUR"]), (2, ["EUR"]), (3, ["USD", "EUR"])] as [(UInt64, [String])])
    func aLimitedSummaryIsTheFullOneFolded(_ seed: UInt64, _ currencies: [String]) throws {
        let (dir, path) = try SummaryLimitTests.ledgerFile(seed: seed, currencies: currencies, tags: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let session = Session(sink: BufferSink())
        session.execute("open \(path)")
        let ledger = try #require(session.ledger)
        let rows = Array(0..<ledger.count)
        for dimensions in [[TagshShell.Dimension.merchant], [.category], [.account], [.intent], [.tag], [.merchant, .month], [.category, .merchant],
                           [.tag, .month], [.month, .tag], [.week, .category]] {
            for trend in [false, true] {
                let full = try SummaryReport(ledger: ledger, rows: rows, dimensions: dimensions, depth: nil, limit: nil, trend: trend, session: session)
                for n in [1, 3, 10, 39, 40, 100] {
                    let limited = try SummaryReport(ledger: ledger, rows: rows, dimensions: dimensions, depth: nil, limit: n, trend: trend, session: session)
                    var expected = full
                    if full.lines.count > n {
                        var others = SummaryReport.Line()
                        for l in full.lines[n...] { others.add(l) }
                        expected.lines = Array(full.lines.prefix(n)) + [others]
                    }
                    let what = "\(dimensions) --limit \(n)\(trend ? " --trend" : "") seed \(seed)"
                    // (By tag, a row with several folded tags is one of the folded row's: not the lines added up; by a
                    // period, the earlier ones are folded.)
                    if dimensions[0] != .tag && !dimensions[0].isPeriod {
                        #expect(limited.csv() == expected.csv(), "\(what)")
                        #expect(limited.json() == expected.json(), "\(what)")
                        #expect(limited.table(width: 120, style: .plain).render(width: 120, style: .plain) == expected.table(width: 120, style: .plain).render(width: 120, style: .plain), "\(what)")
                    }
                    // Summed in arrays (`gridLines`) as by the general loop.
                    let general = try SummaryReport(ledger: ledger, rows: rows, dimensions: dimensions, depth: nil, limit: n, trend: trend,
                                                    session: session, gridCells: 0)
                    #expect(limited.csv() == general.csv() && limited.json() == general.json(), "\(what), arrays against the general loop")
                    #expect(limited.table(width: 120, style: .plain).render(width: 120, style: .plain)
                            == general.table(width: 120, style: .plain).render(width: 120, style: .plain), "\(what), arrays against the general loop")
                }
            }
        }
    }
}

/// `summary by tag --limit N`: the first N lines of the full summary, and one folded row tallying each transaction
/// that holds any folded tag once (worked out here row by row, with `Groups.Group.add`); in one currency and in two,
/// with a trend, over a query's rows, and late in a session (sets no row holds in the table).
struct SummaryByTagLimitTests {
    @Test(arguments: [(5, ["EUR"]), (6, ["USD", "EUR"])] as [(UInt64, [String])])
    func foldedTagsAreTalliedByRow(_ seed: UInt64, _ currencies: [String]) throws {
        let (dir, path) = try SummaryLimitTests.ledgerFile(seed: seed, currencies: currencies)
        defer { try? FileManager.default.removeItem(at: dir) }
        var lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").enumerated().map { i, line in
            line + "," + ["", "a", "a;b", "b;c;trip/x", "c", "d;e", "e", "f;a;trip/y"][i % 8]
        }
        lines[0] += "Tags"
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: path))
        let session = Session(sink: BufferSink())
        session.execute("open \(path)")
        for step in ["tag all +zz", "undo"] { #expect(session.execute(step) == .ok) }
        let ledger = try #require(session.ledger)
        for rows in [Array(0..<ledger.count), (0..<ledger.count).filter { $0 % 3 != 1 }] {
            for trend in [false, true] {
                let full = try SummaryReport(ledger: ledger, rows: rows, dimensions: [.tag], depth: nil, limit: nil, trend: trend, session: session)
                let grouping = Grouping(.tag, ledger: ledger, depth: nil, rows: rows)
                // (8: as many as the tags; 100: more.)
                for n in [1, 3, 5, 8, 100] {
                    let limited = try SummaryReport(ledger: ledger, rows: rows, dimensions: [.tag], depth: nil, limit: n, trend: trend, session: session)
                    var expected = full
                    if full.lines.count > n {
                        let folded = Set(full.lines[n...].compactMap(\.key))
                        var others = SummaryReport.Line()
                        others.folded = full.lines.count - n
                        for r in rows {
                            var inFolded = false
                            grouping.forEachKey(r, ledger) { if folded.contains($0) { inFolded = true } }
                            guard inFolded else { continue }
                            others.group.add(ledger.amount(r), currency: ledger.currency[r])
                            if trend { others.byMonth[Period.key(.month, ledger.day(r)), default: .init()].add(ledger.amount(r), currency: ledger.currency[r]) }
                        }
                        expected.lines = Array(full.lines.prefix(n)) + [others]
                    }
                    let what = "by tag --limit \(n)\(trend ? " --trend" : ""), \(rows.count) rows, \(currencies)"
                    #expect(limited.csv() == expected.csv(), "\(what)")
                    #expect(limited.json() == expected.json(), "\(what)")
                }
            }
        }
    }
}

/// `summary --limit N` in one currency keeps only net totals by key, and sums the others' money in and out one row
/// after another (`SummaryReport.keptLines`): its lines, the others' and the total must be what keeping every key's
/// sums and folding them key by key gives (`keptLinesByKey`), also where the others' money passes Int64.
struct KeptLinesTests {
    @Test(arguments: [(1, 0), (2, 0), (3, 1), (4, 2)] as [(UInt64, Int)])
    func keptLinesAreTheSumsKeyByKey(_ seed: UInt64, _ huge: Int) throws {
        let (dir, path) = try SummaryLimitTests.ledgerFile(seed: seed, currencies: ["EUR"], huge: huge)
        defer { try? FileManager.default.removeItem(at: dir) }
        let session = Session(sink: BufferSink())
        session.execute("open \(path)")
        let ledger = try #require(session.ledger)
        let rows = Array(0..<ledger.count)
        func describe(_ l: SummaryReport.Line) -> String { "\(l.key.map(String.init) ?? "-") \(SummaryFastPathTests.describe(l.group))" }
        for d in [TagshShell.Dimension.merchant, .category, .account, .intent] {
            let grouping = Grouping(d, ledger: ledger, depth: nil)
            // The keys' totals summed on one core, and split between two from the second key on.
            for limit in [1, 3, 10, 39, 100] {
                for twoCoresFrom in [Int.max, 2] {
                    let got = try #require(try SummaryReport.keptLines(rows, grouping, ledger, limit: limit, session: session, twoPassesFrom: 0,
                                                                       twoCoresFrom: twoCoresFrom))
                    let byKey = try #require(try SummaryReport.keptLinesByKey(rows, grouping, ledger, limit: limit, session: session))
                    let what = "\(d) --limit \(limit)\(twoCoresFrom == 2 ? ", two cores" : "")"
                    #expect(describe(got.all) == describe(byKey.all), "\(what)")
                    #expect(got.lines.map(describe) == byKey.lines.map(describe), "\(what)")
                    #expect(describe(got.others) == describe(byKey.others), "\(what)")
                    #expect(got.folded == byKey.folded, "\(what)")
                    // The keys kept with a trend or columns are these, summed on one core or two.
                    let kept = try #require(try SummaryReport.keptKeys(rows, grouping, ledger, limit: limit, session: session, twoCoresFrom: twoCoresFrom))
                    #expect(kept.isKept.indices.filter { kept.isKept[$0] } == got.lines.compactMap(\.key).sorted(), "\(what)")
                    #expect(kept.folded == got.folded, "\(what)")
                }
            }
        }
    }
}

/// A table by two dimensions names its one currency in its header, `MONTH (EUR)`; a file without currencies gets
/// `MONTH` (it got `MONTH ()`).
struct CrossTableHeaderTests {
    @Test func theHeaderNamesTheCurrencyOnlyWhenThereIsOne() throws {
        for (header, currency) in [("Date,Description,Amount\n", ""), ("Date,Description,Amount,Currency\n", ",EUR")] {
            let (dir, path) = try scratchFile("bank.csv", prefix: "tagsh-cross")
            defer { try? FileManager.default.removeItem(at: dir) }
            try (header + "2024-01-02,REWE,-54.20\(currency)\n2024-02-03,SALARY,2500.00\(currency)\n").write(toFile: path, atomically: true, encoding: .utf8)
            let sink = BufferSink()
            let session = Session(sink: sink)
            session.execute("open \(path)")
            session.execute("summary by month by category")
            let first = sink.out.split(separator: "\n").first { $0.hasPrefix("MONTH") }.map(String.init) ?? sink.combined
            #expect(first.hasPrefix(currency.isEmpty ? "MONTH   " : "MONTH (EUR)"), "\(first)")
            #expect(!first.contains("()"), "\(first)")
        }
    }
}

/// A summary with a trend or two dimensions is summed in arrays (`SummaryReport.gridLines`), from enough rows in two
/// halves at once, and columns past what an array takes in the cells that hold something: each line's, month's and
/// column's sums must be what one loop on one core into arrays gives.
struct GridLinesTests {
    @Test(arguments: [0, 1, 2]) func twoHalvesSumAsOne(huge: Int) throws {
        let (dir, path) = try SummaryLimitTests.ledgerFile(seed: 5, currencies: ["EUR"], huge: huge, tags: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let session = Session(sink: BufferSink())
        session.execute("open \(path)")
        let ledger = try #require(session.ledger)
        let rows = Array(0..<ledger.count).filter { $0 % 13 != 4 }
        let describe = GridLinesTests.describe
        for dimensions in [[TagshShell.Dimension.category], [.tag], [.merchant, .month], [.tag, .category], [.week, .tag]] {
            let first = Grouping(dimensions[0], ledger: ledger, depth: nil)
            let second = dimensions.count > 1 ? Grouping(dimensions[1], ledger: ledger, depth: nil) : nil
            let kept = dimensions[0] == .merchant ? (0..<(ledger.merchants.count + 1)).map { $0 % 3 == 0 } : nil
            for trend in [false, true] where trend || second != nil {
                func grid(_ parallelFrom: Int, sparse: Bool = false) throws -> [String] {
                    let g = try #require(try SummaryReport.gridLines(rows, first, second, trend: trend, kept: kept, ledger, session: session,
                                                                     denseColumnsTo: sparse ? 0 : nil, parallelFrom: parallelFrom))
                    return [describe(g.all), describe(g.others)] + g.lines.map(describe)
                        + g.columnTotals.keys.sorted().map { "\($0): \(SummaryFastPathTests.describe(g.columnTotals[$0]!))" }
                }
                let one = try grid(.max)
                #expect(try grid(2) == one, "\(dimensions)\(trend ? " --trend" : "")")
                // Columns in the cells that hold something (`SparseCells`), as in an array.
                #expect(try grid(.max, sparse: true) == one && grid(2, sparse: true) == one, "\(dimensions)\(trend ? " --trend" : ""), sparse")
                #expect(one.count > 3)
            }
        }
    }

    /// By tag with a few tags kept, a row is summed once by the lines it is in (`MaskCells`): each line's, month's,
    /// the others' and all's sums must be what summing the row into each of its lines gives, on one core and two,
    /// with and without a trend, the kept tags many or few and an untagged row's line kept or not.
    @Test(arguments: [0, 1]) func rowsSummedByTheLinesTheyAreInSumAsEachLine(huge: Int) throws {
        let (dir, path) = try SummaryLimitTests.ledgerFile(seed: 9, currencies: ["EUR"], huge: huge, tags: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let session = Session(sink: BufferSink())
        session.execute("open \(path)")
        let ledger = try #require(session.ledger)
        let rows = Array(0..<ledger.count).filter { $0 % 11 != 3 }
        let first = Grouping(.tag, ledger: ledger, depth: nil)
        let keys = Int(ledger.tags.count) + 1
        var masked = 0
        for kept in [(0..<keys).map { $0 % 2 == 0 }, (0..<keys).map { $0 == 1 || $0 == 4 }, (0..<keys).map { $0 == 0 }] {
            for trend in [false, true] {
                func grid(_ parallelFrom: Int, maskedLinesTo: Int) throws -> [String] {
                    let g = try #require(try SummaryReport.gridLines(rows, first, nil, trend: trend, kept: kept, ledger, session: session,
                                                                     parallelFrom: parallelFrom, maskedLinesTo: maskedLinesTo))
                    return [GridLinesTests.describe(g.all), GridLinesTests.describe(g.others)] + g.lines.map(GridLinesTests.describe)
                }
                let each = try grid(.max, maskedLinesTo: 0)
                let lines = kept.filter { $0 }.count
                if lines < 16 { masked += 1 }
                #expect(try grid(.max, maskedLinesTo: 16) == each, "\(lines) kept\(trend ? " --trend" : "")")
                #expect(try grid(2, maskedLinesTo: 16) == each, "\(lines) kept\(trend ? " --trend" : ""), two halves")
                #expect(each.count >= 3 && !each[1].hasPrefix("- 0 "), "\(each)")
            }
        }
        #expect(masked >= 4)
    }

    static func describe(_ l: SummaryReport.Line) -> String {
        "\(l.key.map(String.init) ?? "-") \(SummaryFastPathTests.describe(l.group)) months "
            + l.byMonth.keys.sorted().map { "\($0): \(SummaryFastPathTests.describe(l.byMonth[$0]!))" }.joined(separator: "; ") + " columns "
            + l.byColumn.keys.sorted().map { "\($0): \(SummaryFastPathTests.describe(l.byColumn[$0]!))" }.joined(separator: "; ")
    }
}

/// A summary for a table of a known width (`tableWidth`) folds the columns that could never fit it as it sums the
/// rows (`SummaryReport.foldedColumns`): the table must be the one the report with every column folds to, at that
/// width, with a limit and a trend too, in one currency (where the columns are folded so) and in two, and over a
/// query's rows; with no width, or as JSON or CSV, nothing is folded.
struct FoldedColumnsTests {
    @Test(arguments: [(11, ["EUR"], 0), (12, ["EUR"], 1), (13, ["USD", "EUR"], 0)] as [(UInt64, [String], Int)])
    func aTableFoldedWhileSummedIsTheTableFolded(_ seed: UInt64, _ currencies: [String], huge: Int) throws {
        let (dir, path) = try SummaryLimitTests.ledgerFile(seed: seed, currencies: currencies, huge: huge, tags: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let session = Session(sink: BufferSink())
        session.execute("open \(path)")
        let ledger = try #require(session.ledger)
        var foldedSome = 0
        for rows in [Array(0..<ledger.count), (0..<ledger.count).filter { $0 % 5 != 2 }] {
            for dimensions in [[TagshShell.Dimension.month, .merchant], [.month, .tag], [.category, .merchant], [.tag, .merchant], [.merchant, .tag],
                               [.week, .category], [.merchant, .month]] {
                for (limit, trend) in [(nil, false), (3, false), (nil, true), (2, true)] as [(Int?, Bool)] {
                    let full = try SummaryReport(ledger: ledger, rows: rows, dimensions: dimensions, depth: nil, limit: limit, trend: trend, session: session)
                    for width in [20, 34, 52, 80, 200] {
                        let folded = try SummaryReport(ledger: ledger, rows: rows, dimensions: dimensions, depth: nil, limit: limit, trend: trend,
                                                       session: session, tableWidth: width)
                        let what = "\(dimensions) width \(width) limit \(limit.map(String.init) ?? "-")\(trend ? " --trend" : "") \(currencies) \(rows.count) rows"
                        #expect(folded.table(width: width, style: .plain).render(width: width, style: .plain)
                                == full.table(width: width, style: .plain).render(width: width, style: .plain), "\(what)")
                        if folded.foldedColumns > 0 {
                            foldedSome += 1
                            #expect(currencies.count == 1 && !dimensions[1].isPeriod, "\(what)")
                        }
                    }
                    #expect(full.foldedColumns == 0)
                }
            }
        }
        // In one currency, the columns of 40 merchants or 6 tags do not fit 20, 34 or 52 cells.
        #expect((foldedSome > 0) == (currencies.count == 1), "\(foldedSome) reports folded columns")
    }

    /// Columns as narrow as a table takes (three cells and a gap: names of up to three letters, whole amounts of a
    /// digit or two), so that the table shows as many as its width could ever hold: a report that kept fewer would
    /// print fewer.
    @Test func theNarrowestColumnsAreAllKept() throws {
        var text = "Date,Description,Amount,Tags\n"
        for i in 0..<900 {
            text += String(format: "2024-%02d-%02d", 1 + i % 3, 1 + i % 28) + ",M\(i % 70),\(i % 3 == 0 ? "" : "-")\(1 + i % 4),t\(i % 50)/\(i % 3);u\(i % 7)\n"
        }
        let (session, sink, _, _) = try SmallLedgers.opened("narrow.csv", text)
        let ledger = try #require(session.ledger)
        let rows = Array(0..<ledger.count)
        // (By tag rolled up to one level too: `t12/1` and `t12/2` are the column `t12`.)
        for (dimensions, depth) in [([TagshShell.Dimension.month, .merchant], nil), ([.month, .tag], nil), ([.month, .tag], 1)] as [([TagshShell.Dimension], Int?)] {
            let full = try SummaryReport(ledger: ledger, rows: rows, dimensions: dimensions, depth: depth, limit: nil, trend: false, session: session)
            // As CSV or JSON, every cell, whatever the width.
            let command = "summary by \(dimensions[0].rawValue) by \(dimensions[1].rawValue)" + (depth.map { " --depth \($0)" } ?? "")
            #expect(session.execute("set width 40") == .ok)
            for (format, lines) in [("--csv", full.csv()), ("--json", full.json())] {
                sink.reset()
                #expect(session.execute(command + " " + format) == .ok)
                #expect(sink.out == lines.map { $0 + "\n" }.joined(), "\(command) \(format)")
            }
            for width in [40, 60, 80, 120, 160, 300, 400] {
                let folded = try SummaryReport(ledger: ledger, rows: rows, dimensions: dimensions, depth: depth, limit: nil, trend: false,
                                               session: session, tableWidth: width)
                let table = folded.table(width: width, style: .plain).render(width: width, style: .plain)
                #expect(table == full.table(width: width, style: .plain).render(width: width, style: .plain), "\(command) width \(width)")
                #expect(folded.foldedColumns > 0 || width >= 300, "\(command) width \(width): \(folded.foldedColumns) folded")
                // Folded, the widest line fills the width but for less than a column (of five cells: three-letter
                // names; `t12/1` by tag with no depth are wider).
                let narrow = dimensions[1] == .merchant || depth != nil
                #expect(table.split(separator: "\n").map(\.count).max().map { (folded.foldedColumns == 0 || !narrow || $0 > width - 5) && $0 <= width } == true,
                        "\(command) width \(width)")
            }
        }
    }
}

/// A summary by one dimension in one currency is summed in arrays (`SummaryReport.singleCurrencyLines`): each group
/// must hold what adding its transactions one by one (`Groups.Group.add`) gives, mixed scales and sums past Int64
/// included.
struct SummaryFastPathTests {
    static func describe(_ g: Groups.Group) -> String {
        "\(g.count) \(g.totals.entries.map { "\($0.currency):\($0.amount)" }) in \(g.inflow.entries.map { "\($0.currency):\($0.amount)" }) "
            + "out \(g.outflow.entries.map { "\($0.currency):\($0.amount)" }) \(g.counts.map { "\($0.currency):\($0.count)" })"
    }

    @Test(arguments: [1, 2] as [UInt64]) func groupsAreTheRowsAddedOneByOne(seed: UInt64) throws {
        let (dir, path) = try SummaryLimitTests.ledgerFile(seed: seed, currencies: ["EUR"])
        defer { try? FileManager.default.removeItem(at: dir) }
        // A Tags column makes the Category column tagsh's; twelve amounts whose sum passes Int64 (summed in 128
        // bits), and amounts at scale 0 among those at 2 and 3.
        var lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").enumerated().map { i, line in
            line + "," + ["", "a", "a;b", "b;c;trip/x", "c"][i % 5]
        }
        lines[0] += "Tags"
        lines += Array(repeating: "2024-03-03,SHOP 1,9999999999999999.99,EUR,Food,", count: 12) + ["2024-03-05,SHOP 1,-5,EUR,Food,x"]
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: path))
        let session = Session(sink: BufferSink())
        session.execute("open \(path)")
        let ledger = try #require(session.ledger)
        let rows = Array(0..<ledger.count)
        let dimensions: [TagshShell.Dimension] = [.merchant, .category, .account, .intent, .tag, .year, .quarter, .month, .week, .day]
        for d in dimensions {
            let report = try SummaryReport(ledger: ledger, rows: rows, dimensions: [d], depth: nil, limit: nil, trend: false, session: session)
            let grouping = Grouping(d, ledger: ledger, depth: nil)
            var expected: [Int: Groups.Group] = [:], all = Groups.Group()
            for r in rows {
                all.add(ledger.amount(r), currency: ledger.currency[r])
                grouping.forEachKey(r, ledger) { expected[$0, default: .init()].add(ledger.amount(r), currency: ledger.currency[r]) }
            }
            #expect(SummaryFastPathTests.describe(report.all.group) == SummaryFastPathTests.describe(all), "\(d)")
            let got = Dictionary(uniqueKeysWithValues: report.lines.map { ($0.key ?? -1, SummaryFastPathTests.describe($0.group)) })
            #expect(got == expected.mapValues(SummaryFastPathTests.describe), "\(d)")
            #expect(report.lines.count == expected.count, "\(d)")
            #expect(expected.count > 1 || [.account, .intent, .year].contains(d), "\(d)") // (one year in the file)
        }
    }
}

/// By tag, a transaction counts once in each of its tags, rolled up (`Grouping.keysOfSets`): the keys of each row
/// must be its tags' names rolled up, each once, in order, or none, worked out here from the names.
struct SummaryByTagKeysTests {
    /// Every row's keys, at each depth. `setsNoRowHolds`: with 200 sets no row holds in the table as well (undone
    /// steps and previews leave them), some with the rows' tags, so that only the rows' own sets get keys
    /// (`Ledger.tagSetsHeld`). `someRows`: keys asked for three rows only (of seven sets), and read for those.
    @Test(arguments: [(false, false), (true, false), (false, true), (true, true)])
    func eachRowsKeysAreItsTagsRolledUpOnce(setsNoRowHolds: Bool, someRows: Bool) throws {
        var text = "Date,Description,Amount,Tags\n"
        let lists = ["", "a", "a;b", "trip/x;trip/y;a", "b;trip/x", "Trip/Z;c", "c;trip"]
        for i in 0..<70 { text += "2024-01-\(String(format: "%02d", 1 + i % 28)),SHOP \(i % 5),-\(i + 1).00,\(lists[i % lists.count])\n" }
        let (dir, path) = try scratchFile("tags.csv", prefix: "tagsh-summary-tags")
        defer { try? FileManager.default.removeItem(at: dir) }
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        let session = Session(sink: BufferSink())
        session.execute("open \(path)")
        var ledger = try #require(session.ledger)
        if setsNoRowHolds {
            for i in 0..<200 { _ = ledger.internTagSet([["a", "trip/x", "c", "Trip/Q"][i % 4], "left\(i)"]) }
        }
        let rows = someRows ? Array(stride(from: 2, to: ledger.count, by: 25)) : nil
        #expect((ledger.tagSetsHeld(by: rows) != nil) == (setsNoRowHolds || someRows))
        for depth in [nil, 1, 2] as [Int?] {
            let grouping = Grouping(.tag, ledger: ledger, depth: depth, rows: rows)
            for r in rows ?? Array(0..<ledger.count) {
                var keys: [String] = []
                grouping.forEachKey(r, ledger) { keys.append(grouping.name($0, ledger) ?? "(none)") }
                var expected: [String] = []
                for name in ledger.tagNames(r).map({ Hierarchy.rollUp($0, depth: depth) })
                where !expected.contains(where: { $0.lowercased() == name.lowercased() }) {
                    expected.append(name)
                }
                #expect(keys.map { $0.lowercased() } == (expected.isEmpty ? ["(none)"] : expected.map { $0.lowercased() }),
                        "row \(r + 1), depth \(depth.map(String.init) ?? "none")")
            }
        }
    }
}

/// A long session leaves tag sets no row holds (each `tag all` undone leaves one for every set it met); the
/// commands that read the sets must then print what a fresh session prints on the same rows.
struct SetsNoRowHoldsTests {
    @Test func reportsAfterUndoneStepsAreAFreshSessionsReports() throws {
        var text = "Date,Description,Amount,Tags\n"
        let tags = ["a", "b", "trip/x", "trip:y", "Trip/Z", "c"]
        // Most rows a set of their own (as the merchants shape), some sharing one, a few none.
        for i in 0..<90 {
            let list = i % 9 == 0 ? "" : i % 5 == 0 ? "a;b" : "\(tags[i % tags.count]);\(tags[(i / 6) % tags.count]);own\(i)"
            text += "2024-\(String(format: "%02d", 1 + i % 3))-\(String(format: "%02d", 1 + i % 28)),SHOP \(i % 7),-\(i + 1).50,\(list)\n"
        }
        let (dir, path) = try scratchFile("held.csv", prefix: "tagsh-held")
        defer { try? FileManager.default.removeItem(at: dir) }
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        let commands = ["summary by tag", "summary by tag --depth 1", "summary by tag --limit 3", "summary date:2024-02 by tag",
                        "summary by tag by month", "summary tag:trip by tag --limit 2", "count tag:trip", "count tag:/^own1/",
                        "count -tag:a", "count tag:a tag:b", "ls tag:trip/x --limit 40"]
        func outputs(after steps: [String]) throws -> [String] {
            let sink = BufferSink()
            let session = Session(sink: sink)
            session.execute("open \(path)")
            for step in steps { session.execute(step) }
            let ledger = try #require(session.ledger)
            #expect((ledger.tagSetsHeld() != nil) == !steps.isEmpty, "the table holds many sets no row holds")
            return commands.map { c in
                let before = sink.combined.count
                session.execute(c)
                return String(sink.combined.dropFirst(before))
            }
        }
        let fresh = try outputs(after: [])
        let long = try outputs(after: ["tag all +x", "undo", "tag all +own5", "undo", "tag all -a", "undo"])
        for (i, c) in commands.enumerated() { #expect(long[i] == fresh[i], "\(c)") }
        #expect(fresh.allSatisfy { !$0.contains("error") })
    }
}

/// `SummaryReport.largest` compares sizes as 64-bit integers at the largest scale among them when they fit: it
/// must pick what comparing them as `Amount`s in 128 bits picked, ties by key, with mixed scales, absent keys,
/// both signs and sizes past 64 bits.
struct LargestTests {
    @Test(arguments: [(1, false), (2, false), (3, true), (4, true)])
    func picksWhatComparingAmountsPicked(seed: UInt64, huge: Bool) {
        var rng = SplitMix(seed: seed)
        var net = [SummaryReport.Summing.Running](repeating: .init(), count: 3_000)
        for k in net.indices where Int.random(in: 0..<10, using: &rng) > 0 {
            let scale = UInt8.random(in: 0...4, using: &rng)
            var units = Int64.random(in: -50...50, using: &rng)
            for _ in 0..<scale { units *= 10 } // the same values at other scales: ties
            if Bool.random(using: &rng) { units += Int64.random(in: -9...9, using: &rng) }
            if huge && Int.random(in: 0..<50, using: &rng) == 0 { units = Int64.random(in: (Int64.max / 2)...Int64.max, using: &rng) * (Bool.random(using: &rng) ? 1 : -1) }
            net[k].add(units, scale)
        }
        let keys = net.indices.filter { _ in Int.random(in: 0..<4, using: &rng) > 0 }
        let size = keys.map { key -> Int128 in
            let v = net[key].amount?.units(atScale: Amount.maxScale) ?? 0
            return v < 0 ? -v : v
        }
        for limit in [1, 3, 10, 100, keys.count / 8 + 1, keys.count, keys.count + 5] {
            let expected = Array(keys.indices.sorted { (size[$0], keys[$1]) > (size[$1], keys[$0]) }.prefix(limit))
            #expect(SummaryReport.largest(limit, of: keys, net: net) == expected, "limit \(limit)")
        }
    }
}

/// `tags rename` and `tags delete` edit each set in place: a renamed tag keeps its place among the others, a tag
/// renamed into one the set holds already is merged there, and sets no row holds change no row.
struct TagsRenameTests {
    @Test func renameKeepsThePlaceAndMerges() throws {
        var text = "Date,Description,Amount,Tags\n"
        let lists = ["a;b;c", "b;a", "c;b;a;d", "b", "d", ""]
        // Rows past the sixth have a set of their own, so that the table holds many more sets than rows below.
        for i in 0..<60 {
            let list = lists[i % lists.count] + (i < 6 ? "" : ";own\(i)")
            text += "2024-01-\(String(format: "%02d", 1 + i % 28)),SHOP \(i % 4),-\(i + 1).00,\(list)\n"
        }
        let (dir, path) = try scratchFile("rename.csv", prefix: "tagsh-rename")
        defer { try? FileManager.default.removeItem(at: dir) }
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        let s = Session(sink: BufferSink())
        s.execute("open \(path)")
        // Sets no row holds, some holding b: they are not rows' sets, and change nothing.
        for step in ["tag all +x", "undo", "tag all +bb", "undo"] { #expect(s.execute(step) == .ok) }
        #expect(try #require(s.ledger).tagSetsHeld() != nil)
        func tags(_ row: Int) throws -> [String] { try #require(s.ledger).transaction(row).tags }
        #expect(s.execute("tags rename b B2") == .ok)
        #expect(try tags(0) == ["a", "B2", "c"] && tags(1) == ["B2", "a"] && tags(2) == ["c", "B2", "a", "d"] && tags(3) == ["B2"])
        #expect(s.execute("undo") == .ok)
        // Into a tag the set holds: merged where that one is.
        #expect(s.execute("tags rename b c") == .ok)
        #expect(try tags(0) == ["a", "c"] && tags(1) == ["c", "a"] && tags(2) == ["c", "a", "d"] && tags(3) == ["c"])
        #expect(s.execute("undo") == .ok)
        #expect(s.execute("tags delete a") == .ok)
        #expect(try tags(0) == ["b", "c"] && tags(1) == ["b"] && tags(2) == ["c", "b", "d"] && tags(4) == ["d"] && tags(5) == [])
        #expect(try tags(7) == ["b", "own7"] && tags(8) == ["c", "b", "d", "own8"] && tags(12) == ["b", "c", "own12"])
    }
}

/// Every report's totals are exact: twelve amounts of 99,999,999,999.0000001 add up to 1,199,999,999,988.0000012
/// (past Int64 at that scale; each sum kept the total it had, and reports showed 899,999,999,991.0000009), in every
/// report and every path a report takes (one currency or two, a limit, the two-pass fold, by tag, by period).
struct ExactTotalsTests {
    @Test(arguments: [false, true]) func reportsAddUpPastSixtyFourBits(twoCurrencies: Bool) throws {
        var text = "Date,Description,Amount,Currency,Tags,Intent\n"
        for i in 0..<12 { text += "2024-01-\(String(format: "%02d", i + 1)),BIG,99999999999.0000001,EUR,big,\n" }
        for i in 0..<30 { text += "2024-02-\(String(format: "%02d", i % 28 + 1)),SHOP \(i % 5),-1.5,\(twoCurrencies && i == 0 ? "USD" : "EUR"),small,want\n" }
        let (dir, path) = try scratchFile("big.csv", prefix: "tagsh-exact")
        defer { try? FileManager.default.removeItem(at: dir) }
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        let sink = BufferSink()
        let session = Session(sink: sink)
        session.execute("open \(path)")
        let shown = "1,199,999,999,988.0000012", plain = "1199999999988.0000012"
        for command in ["summary", "summary by merchant", "summary by merchant --limit 1", "summary by tag", "summary by tag --limit 1",
                        "summary by month", "summary by merchant by month", "summary --trend", "merchants", "merchants --limit 1",
                        "intents", "chart", "chart BIG by quarter", "summary by merchant BIG"] {
            sink.reset()
            #expect(session.execute(command) == .ok, "\(command): \(sink.err)")
            #expect(sink.out.contains(shown), "\(command):\n\(sink.out)")
            sink.reset()
            #expect(session.execute(command + " --csv") == .ok, "\(command) --csv: \(sink.err)")
            #expect(sink.out.contains(plain), "\(command) --csv:\n\(sink.out)")
            sink.reset()
            #expect(session.execute(command + " --json") == .ok, "\(command) --json: \(sink.err)")
            #expect(sink.out.contains("\"\(plain)\""), "\(command) --json:\n\(sink.out)")
        }
        // The two-pass fold of a limited summary (from 65,536 keys), made here from the first key on.
        let ledger = try #require(session.ledger)
        let rows = Array(0..<ledger.count)
        let grouping = Grouping(.merchant, ledger: ledger, depth: nil)
        if let kept = try SummaryReport.keptLines(rows, grouping, ledger, limit: 1, session: session, twoPassesFrom: 0) {
            #expect(kept.lines.first.map { SummaryFastPathTests.describe($0.group) }?.contains(plain) == true)
            #expect(SummaryFastPathTests.describe(kept.all.group).contains("1199999999943.0000012"))
        } else {
            #expect(twoCurrencies) // (one currency only)
        }
    }
}

/// `chart` and `intents` in one currency sum in arrays (`SummaryReport.singleCurrencyLines`); in several, row by
/// row. Either way each period's (intent's) count and total must be its transactions' added one by one, with
/// `--in` keeping money in (zero included) and `--out` money out.
struct ChartIntentsSumsTests {
    @Test(arguments: [(1, ["EUR"]), (2, ["EUR"]), (3, ["USD", "EUR"])] as [(UInt64, [String])])
    func eachPeriodIsItsRowsAdded(_ seed: UInt64, _ currencies: [String]) throws {
        let (dir, path) = try SummaryLimitTests.ledgerFile(seed: seed, currencies: currencies)
        defer { try? FileManager.default.removeItem(at: dir) }
        var lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").enumerated().map { i, line in
            line + "," + ["", "need", "want", "", "culture"][i % 5]
        }
        lines[0] += "Intent"
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: path))
        let sink = BufferSink()
        let session = Session(sink: sink)
        session.execute("open \(path)")
        let ledger = try #require(session.ledger)
        func csv(_ g: Groups.Group) -> [String] {
            g.totals.entries.map { "\(g.count(in: $0.currency)),\(ledger.currencies[$0.currency]),\($0.amount)" }
        }
        for period in [TagshShell.Dimension.month, .week, .quarter] {
            for flag in ["", " --in", " --out"] {
                var expected: [Int: Groups.Group] = [:]
                for row in 0..<ledger.count {
                    let a = ledger.amount(row)
                    if flag == " --in" && a.isNegative || flag == " --out" && !a.isNegative { continue }
                    expected[Period.key(period, ledger.day(row)), default: .init()].add(a, currency: ledger.currency[row])
                }
                sink.reset()
                #expect(session.execute("chart by \(period.rawValue)\(flag) --csv") == .ok, "\(sink.err)")
                let got = sink.out.split(separator: "\n").dropFirst().map(String.init)
                let want = expected.keys.sorted().flatMap { k in csv(expected[k]!).map { Period.label(period, k) + "," + $0 } }
                #expect(got.filter { !$0.contains(",0,") } == want, "chart by \(period)\(flag)")
            }
        }
        var byIntent: [Int: Groups.Group] = [:]
        for row in 0..<ledger.count { byIntent[Int(ledger.intent[row]), default: .init()].add(ledger.amount(row), currency: ledger.currency[row]) }
        sink.reset()
        #expect(session.execute("intents --csv") == .ok)
        let got = sink.out.split(separator: "\n").dropFirst().map(String.init)
        // (`intents --csv` writes an intent's transactions in all currencies on each of its lines.)
        let want = (Intent.allCases.map { Int($0.rawValue) } + [0]).flatMap { k -> [String] in
            let name = Intent(rawValue: UInt8(k))?.description ?? "", g = byIntent[k] ?? .init()
            if g.totals.entries.isEmpty { return ["\(name),0,,0"] }
            return g.totals.entries.map { "\(name),\(g.count),\(ledger.currencies[$0.currency]),\($0.amount)" }
        }
        #expect(got == want)
    }
}

/// `SummaryReport.sumByTag` sums by set first where the rows are many for their sets, and in two halves at once
/// where they are many: each way must give each tag's and all's sums that adding the rows to their tags one by one on
/// one core gives.
struct SumByTagWaysTests {
    static func describe(_ s: SummaryReport.Summing) -> [String] {
        func d(_ r: SummaryReport.Summing.Running) -> String { r.amount.map { "\($0)" } ?? "-" }
        return s.counts.indices.map { "\($0): \(s.counts[$0]) \(d(s.net[$0])) in \(d(s.inflow[$0])) out \(d(s.outflow[$0]))" }
            + ["all: \(s.all.count) \(d(s.all.net)) in \(d(s.all.inflow)) out \(d(s.all.outflow))"]
    }

    @Test(arguments: [0, 1, 2]) func eachWaySumsAsOneLoop(huge: Int) throws {
        let (dir, path) = try SummaryLimitTests.ledgerFile(seed: 4, currencies: ["EUR"], huge: huge)
        defer { try? FileManager.default.removeItem(at: dir) }
        // Tags of a handful of sets for most rows, one of their own for some, and none for others.
        var lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").enumerated().map { i, line in
            line + "," + (i % 7 == 3 ? "own\(i);a" : ["", "a", "a;b", "b;c;trip/x", "c;trip/y;a"][i % 5])
        }
        lines[0] += "Tags"
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: path))
        let session = Session(sink: BufferSink())
        session.execute("open \(path)")
        let ledger = try #require(session.ledger)
        let rows = Array(0..<ledger.count).filter { $0 % 11 != 5 }
        for depth in [nil, 1] as [Int?] {
            let grouping = Grouping(.tag, ledger: ledger, depth: depth)
            let bound = try #require(grouping.tagKeyBound)
            func sum(bySetFrom: Int, parallelFrom: Int) throws -> [String] {
                var sums = SummaryReport.Summing(count: bound)
                try SummaryReport.sumByTag(rows, grouping, ledger, into: &sums, session: session, bySetFrom: bySetFrom, parallelFrom: parallelFrom)
                return SumByTagWaysTests.describe(sums)
            }
            // One loop on one core, added row by row: what the other ways must give.
            var expected = SummaryReport.Summing(count: bound)
            for r in rows {
                grouping.forEachKey(r, ledger) { expected.add($0, ledger.amountUnits[r], ledger.amountScale[r]) }
                expected.addAll(ledger.amountUnits[r], ledger.amountScale[r])
            }
            let oneLoop = try sum(bySetFrom: .max / 2, parallelFrom: .max)
            #expect(oneLoop == SumByTagWaysTests.describe(expected))
            #expect(try sum(bySetFrom: 0, parallelFrom: .max) == oneLoop, "by set, depth \(depth.map(String.init) ?? "none")")
            #expect(try sum(bySetFrom: .max / 2, parallelFrom: 2) == oneLoop, "in halves, depth \(depth.map(String.init) ?? "none")")
            // A limited summary's others, folded set by set where the rows were summed so, row by row otherwise.
            for limit in [1, 3] {
                func kept(bySetFrom: Int) throws -> [String] {
                    let k = try #require(try SummaryReport.keptTagLines(rows, grouping, ledger, limit: limit, session: session, bySetFrom: bySetFrom))
                    return ([k.all, k.others] + k.lines).map { "\($0.key ?? -1) " + SummaryFastPathTests.describe($0.group) } + ["\(k.folded)"]
                }
                let rowByRow = try kept(bySetFrom: .max / 2)
                #expect(try kept(bySetFrom: 0) == rowByRow, "limit \(limit)")
                #expect(rowByRow[1].hasPrefix("-1 0 ") == false, "something is folded")
            }
            // The sets are few for the rows here (the default sums by set) and the keys several.
            #expect(rows.count >= ledger.tagSets.count * 4 / 2)
            #expect(bound > 5)
        }
    }
}

/// By tag with no `--depth`, each tag's id is its key and its name is read from the tag table when shown
/// (`Grouping.tagNames`); rolled up to more levels than any tag has, the keys are the names lower-cased into a
/// dictionary, as every summary by tag made them before. Both must give each row the same keys, and each key the
/// same name and label: tags that differ in case only, accented ones, and one with an escape sequence in it.
struct TagKeysTests {
    @Test func tagIDsAsKeysAreTheNamesLowerCased() throws {
        let (dir, path) = try scratchFile("tags.csv", prefix: "tagsh-tagkeys")
        defer { try? FileManager.default.removeItem(at: dir) }
        let tags = ["Trip/Rome", "trip/rome;work", "CAFÉ;café", "Café", "red\u{1B}[31m;WORK", "", "gift;Trip/Rome;x:y"]
        var text = "Date,Description,Amount,Tags\n"
        for i in 0..<70 { text += "2024-\(String(format: "%02d", 1 + i % 12))-03,SHOP \(i % 5),-\(i + 1).50,\"\(tags[i % tags.count])\"\n" }
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        let session = Session(sink: BufferSink())
        #expect(session.execute("open \(path)") == .ok)
        session.execute("tag 3 +Extra")
        let ledger = try #require(session.ledger)
        let byID = Grouping(.tag, ledger: ledger, depth: nil), byName = Grouping(.tag, ledger: ledger, depth: 9)
        #expect(byID.tagKeyBound == byName.tagKeyBound)
        var keys = Set<Int>()
        for row in 0..<ledger.count {
            var a: [Int] = [], b: [Int] = []
            byID.forEachKey(row, ledger) { a.append($0) }
            byName.forEachKey(row, ledger) { b.append($0) }
            #expect(a == b, "row \(row)")
            keys.formUnion(a)
        }
        #expect(keys.count == 8, "\(keys.sorted())") // (none), trip/rome, work, café, red…, gift, x:y, extra
        for k in keys.sorted() {
            #expect(byID.name(k, ledger) == byName.name(k, ledger), "key \(k)")
            #expect(byID.label(k, ledger).0 == byName.label(k, ledger).0, "key \(k)")
        }
        #expect(keys.contains { byID.label($0, ledger).0.contains("red") && !byID.label($0, ledger).0.contains("\u{1B}") })
    }
}
