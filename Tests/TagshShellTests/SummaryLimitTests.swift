import Foundation
import Testing
import TagshModel
@testable import TagshShell

/// `summary --limit N` finds the groups it keeps before making their lines (`SummaryReport.keptKeys`): what it prints
/// must be what the full summary's first N lines and the rest folded into one give.
struct SummaryLimitTests {
    static func ledgerFile(seed: UInt64, currencies: [String]) throws -> (URL, String) {
        var rng = SeededRandom(seed: seed)
        var text = "Date,Description,Amount,Currency,Category\n"
        let merchants = (0..<40).map { "SHOP \($0 % 7 == 0 ? "Café " : "")\($0)" }
        for i in 0..<600 {
            let merchant = merchants[Int.random(in: 0..<merchants.count, using: &rng)]
            // Ties of size (the same net) between merchants, money in and out, and a few amounts with more digits.
            let cents = [-1500, 1500, -250, 999, 0][i % 5] + (Int.random(in: 0..<4, using: &rng) == 0 ? Int.random(in: -90_000...90_000, using: &rng) : 0)
            let amount = i % 97 == 0 ? "\(cents / 100).\(String(format: "%03d", abs(cents % 100) * 10 + 5))"
                                     : String(format: "%.2f", Double(cents) / 100) // test data only: the file's text
            let day = String(format: "2024-%02d-%02d", 1 + i % 12, 1 + i % 28)
            let category = ["Food", "Travel", "", "Rent"][Int.random(in: 0..<4, using: &rng)]
            text += "\(day),\(merchant),\(amount),\(currencies[i % currencies.count]),\(category)\n"
        }
        let (dir, path) = try scratchFile("summary.csv", prefix: "tagsh-summary")
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return (dir, path)
    }

    @Test(arguments: [(1, ["EUR"]), (2, ["EUR"]), (3, ["USD", "EUR"])] as [(UInt64, [String])])
    func aLimitedSummaryIsTheFullOneFolded(_ seed: UInt64, _ currencies: [String]) throws {
        let (dir, path) = try SummaryLimitTests.ledgerFile(seed: seed, currencies: currencies)
        defer { try? FileManager.default.removeItem(at: dir) }
        let session = Session(sink: BufferSink())
        session.execute("open \(path)")
        let ledger = try #require(session.ledger)
        let rows = Array(0..<ledger.count)
        for dimensions in [[TagshShell.Dimension.merchant], [.category], [.account], [.intent], [.merchant, .month], [.category, .merchant]] {
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
                    #expect(limited.csv() == expected.csv(), "\(what)")
                    #expect(limited.json() == expected.json(), "\(what)")
                    #expect(limited.table(width: 120, style: .plain).render(width: 120, style: .plain) == expected.table(width: 120, style: .plain).render(width: 120, style: .plain), "\(what)")
                }
            }
        }
    }
}
