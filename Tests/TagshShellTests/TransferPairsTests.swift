import Testing
import TagshModel
@testable import TagshRules
import TagshTestSupport

/// `transferPairs` reads the columns with bits per row and keys amounts by currency id; it must pair exactly what
/// the first version did (kept here as the reference): the same pairs in the same order, with amounts written with
/// and without trailing zeros, two currencies, three accounts, rows excluded, and a query's rows among all.
struct TransferPairsTests {
    /// The first version of `ImportMatcher.transferPairs`.
    static func reference(in ledger: Ledger, rows: [Int], among all: [Int], days: Int = 3, excluded: Set<Int> = []) -> [(out: Int, in: Int)] {
        guard !rows.isEmpty else { return [] }
        let wanted = Set(rows)
        var byAmount: [ImportMatcher.Key: [Int]] = [:]
        let lo = rows.map { ledger.days[$0] }.min()! - Int32(days), hi = rows.map { ledger.days[$0] }.max()! + Int32(days)
        for r in all where ledger.days[r] >= lo && ledger.days[r] <= hi && !excluded.contains(r) && ledger.amount(r).units > 0 {
            byAmount[ImportMatcher.key(ledger.amount(r), currency: ledger.currencies[ledger.currency[r]]), default: []].append(r)
        }
        var used = Set<Int>()
        var pairs: [(Int, Int)] = []
        for r in all where !excluded.contains(r) && ledger.amount(r).units < 0 && ledger.days[r] >= lo && ledger.days[r] <= hi {
            let k = ImportMatcher.key(-ledger.amount(r), currency: ledger.currencies[ledger.currency[r]])
            guard let ins = byAmount[k] else { continue }
            let candidates = ins.filter { i in
                !used.contains(i) && ledger.account[i] != ledger.account[r] && abs(ledger.days[i] - ledger.days[r]) <= Int32(days)
                    && (wanted.contains(i) || wanted.contains(r))
            }
            guard !used.contains(r), let best = candidates.min(by: { abs(ledger.days[$0] - ledger.days[r]) < abs(ledger.days[$1] - ledger.days[r]) })
            else { continue }
            used.insert(r)
            used.insert(best)
            pairs.append((r, best))
        }
        return pairs
    }

    @Test(arguments: [91, 92, 93] as [UInt64]) func pairsAsTheFirstVersionDid(seed: UInt64) {
        var rng = SplitMix(seed: seed)
        var l = Ledger()
        let accounts = ["Checking", "Savings", "Card"].map { l.accounts.intern($0) }
        let currencies = [l.currencies.intern("EUR"), l.currencies.intern("USD")]
        let merchant = l.merchants.intern("TRANSFER")
        for i in 0..<2000 {
            // Few amounts, so that many rows meet; 1.5 written as 1.50 or 1.500 too.
            let units = Int64(rng.next() % 12 + 1) * 50
            let extra = Int(rng.next() % 3)
            var scaled = units
            for _ in 0..<extra { scaled *= 10 }
            let sign: Int64 = rng.next() % 2 == 0 ? 1 : -1
            l.append(day: Day(year: 2024, month: 1, day: 1)!.adding(days: i / 20 + Int(rng.next() % 3)), merchant: merchant,
                     amount: Amount(units: sign * scaled, scale: UInt8(2 + extra)), currency: currencies[Int(rng.next() % 10 == 0 ? 1 : 0)],
                     account: accounts[Int(rng.next() % 3)], intent: nil, category: 0, tagSet: 0, note: 0)
        }
        let all = Array(0..<l.count)
        let excluded = Set((0..<150).map { _ in Int(rng.next() % UInt64(l.count)) })
        let some = all.filter { _ in rng.next() % 4 == 0 }
        for (rows, ex) in [(all, Set<Int>()), (all, excluded), (some, excluded), (Array(all[900..<1000]), Set<Int>())] {
            let got = ImportMatcher.transferPairs(in: l, rows: rows, among: all, excluded: ex)
            let expected = Self.reference(in: l, rows: rows, among: all, excluded: ex)
            #expect(got.map { "\($0.out)-\($0.in)" } == expected.map { "\($0.out)-\($0.in)" }, "\(rows.count) rows, \(ex.count) excluded")
            #expect(expected.count > 20)
        }
        // Among one account's rows only, nothing pairs; among two accounts', what the first version paired.
        for among in [all.filter { l.account[$0] == accounts[0] }, all.filter { l.account[$0] != accounts[2] }] {
            let got = ImportMatcher.transferPairs(in: l, rows: among, among: among)
            let expected = Self.reference(in: l, rows: among, among: among)
            #expect(got.map { "\($0.out)-\($0.in)" } == expected.map { "\($0.out)-\($0.in)" }, "\(among.count) rows")
        }
    }
}
