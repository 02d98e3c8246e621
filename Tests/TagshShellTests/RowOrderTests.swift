import Testing
import TagshModel
@testable import TagshShell
import TagshTestSupport

/// `ls --sort amount|merchant [--reverse] [--limit N]` (`RowOrder`) must list what sorting every row with
/// `Amount` and lower-cased `String` comparisons, reversing, and taking the first N listed: the order it had
/// before it kept the first rows in order as they went by (`firstInOrder`) and compared ASCII names by their bytes.
struct RowOrderTests {
    /// Names in every case, sharing prefixes, alike but for case, beyond ASCII (precomposed and with a combining
    /// mark after an ASCII letter, which composes with it and sorts by what it makes: `abe\u{301}` after `abf`).
    static let names = ["ACME", "acme", "Acme Corp", "ACME CORP", "abc", "abd", "abe\u{301}", "abé", "abf", "ABF",
                        "Éclair", "eclair", "Zeta", "zeta 2", "", "a", "A", "ß shop", "SS SHOP", "日本", "Ab", "aB", "~x", "[x"]

    static func ledger(seed: UInt64, rows: Int, hugeAmounts: Bool) -> Ledger {
        var rng = SplitMix(seed: seed)
        var l = Ledger()
        for _ in 0..<rows {
            let name = names[Int.random(in: 0..<names.count, using: &rng)]
            // Scales 0 to 4, equal values at other scales (5, 5.0, 5.00), ties, both signs.
            let scale = UInt8.random(in: 0...4, using: &rng)
            var units = Int64.random(in: -30...30, using: &rng)
            for _ in 0..<scale { units *= 10 }
            if Int.random(in: 0..<5, using: &rng) == 0 { units += Int64.random(in: -9...9, using: &rng) }
            if hugeAmounts && Int.random(in: 0..<10, using: &rng) == 0 { units = Int64.random(in: (Int64.max / 4)...Int64.max, using: &rng) }
            l.append(day: Day(year: 2024, month: 1, day: 1)!, merchant: l.merchants.intern(name), amount: Amount(units: units, scale: scale),
                     currency: l.currencies.intern("EUR"), account: 0, intent: nil, category: 0, tagSet: 0, note: 0)
        }
        return l
    }

    /// What `ls` did before: every row sorted, reversed, then the first `limit`.
    static func reference(_ rows: [Int], _ l: Ledger, byAmount: Bool, reverse: Bool, limit: Int?) -> [Int] {
        var sorted: [Int]
        if byAmount {
            sorted = rows.sorted { l.amount($0) != l.amount($1) ? l.amount($0) < l.amount($1) : $0 < $1 }
        } else {
            let names = [""] + l.merchants.ids.map { l.merchants[$0].lowercased() }
            sorted = rows.sorted { (names[Int(l.merchant[$0])], $0) < (names[Int(l.merchant[$1])], $1) }
        }
        if reverse { sorted.reverse() }
        if let limit, sorted.count > limit { sorted = Array(sorted.prefix(limit)) }
        return sorted
    }

    @Test(arguments: [(1, 0, false), (2, 1, false), (3, 7, false), (4, 60, false), (5, 400, false), (6, 400, true), (7, 3_000, true)])
    func listsWhatSortingEveryRowListed(seed: UInt64, rows count: Int, hugeAmounts: Bool) {
        let l = Self.ledger(seed: seed, rows: count, hugeAmounts: hugeAmounts)
        var rng = SplitMix(seed: seed &* 31)
        // Every row, and a subset in file order (what a query gives).
        let subsets = [Array(0..<count), (0..<count).filter { _ in Bool.random(using: &rng) }]
        for rows in subsets {
            for limit in [nil, 0, 1, 2, 5, 20, rows.count / 8, rows.count / 8 + 1, rows.count, rows.count + 3] as [Int?] {
                for reverse in [false, true] {
                    #expect(RowOrder.byAmount(rows, l, reverse: reverse, limit: limit)
                            == Self.reference(rows, l, byAmount: true, reverse: reverse, limit: limit),
                            "by amount, \(rows.count) rows, limit \(limit.map(String.init) ?? "none"), reverse \(reverse)")
                    #expect(RowOrder.byMerchant(rows, l, reverse: reverse, limit: limit)
                            == Self.reference(rows, l, byAmount: false, reverse: reverse, limit: limit),
                            "by merchant, \(rows.count) rows, limit \(limit.map(String.init) ?? "none"), reverse \(reverse)")
                }
            }
        }
    }

    /// A few of many rows of many names are found on two cores, the first few of each half (`Parallel.halves`),
    /// then the first of those: the same rows as sorting every row, names alike in both halves (ties by row)
    /// and names beyond ASCII included.
    @Test func fewOfManyRowsOnTwoCoresAreTheSortsFirst() {
        var rng = SplitMix(seed: 11)
        var l = Ledger()
        let count = 70_000
        for _ in 0..<count {
            let name = Self.names[Int.random(in: 0..<Self.names.count, using: &rng)] + " \(Int.random(in: 0..<12_000, using: &rng))"
            l.append(day: Day(year: 2024, month: 1, day: 1)!, merchant: l.merchants.intern(name), amount: Amount(units: 1, scale: 0),
                     currency: 0, account: 0, intent: nil, category: 0, tagSet: 0, note: 0)
        }
        #expect(l.merchants.count * 8 > count && count >= 1 << 16)
        let subsets = [Array(0..<count), (0..<count).filter { $0 % 3 != 0 }]
        for rows in subsets {
            for limit in [1, 5, 20, 1024] {
                for reverse in [false, true] {
                    #expect(RowOrder.byMerchant(rows, l, reverse: reverse, limit: limit)
                            == Self.reference(rows, l, byAmount: false, reverse: reverse, limit: limit),
                            "\(rows.count) rows, limit \(limit), reverse \(reverse)")
                }
            }
        }
    }

    /// `firstInOrder` is a stable sort's first `k`: ties (many, under a coarse key) keep the items' order, whatever
    /// order the items come in (ascending, descending, at random), whether it keeps a heap or sorts, and whether it
    /// keeps one heap or one for each half of the items, on two cores.
    @Test func firstInOrderIsTheStableSortsPrefix() {
        var rng = SplitMix(seed: 5)
        let random = (0..<3_000).map { _ in Int.random(in: 0..<40, using: &rng) }
        for values in [random, random.sorted(), random.sorted(by: >)] {
            for (name, precedes) in [("ascending", { (i: Int, j: Int) in values[i] < values[j] }),
                                     ("descending", { (i: Int, j: Int) in values[i] > values[j] })] {
                var stable = Array(values.indices)
                // An insertion sort: stable by construction.
                for a in 1..<stable.count {
                    var b = a
                    while b > 0 && precedes(stable[a], stable[b - 1]) { b -= 1 }
                    if b < a { let x = stable.remove(at: a); stable.insert(x, at: b) }
                }
                for k in [0, 1, 2, 7, 100, 374, 375, 376, 1_000, 2_999, 3_000, 4_000] {
                    #expect(firstInOrder(k, of: values.indices, by: precedes) == Array(stable.prefix(k)), "\(name), k \(k)")
                    // Each half's heap on a core of its own, then the first of both: the same.
                    #expect(firstInOrder(k, of: values.indices, twoCoresFrom: 64, by: precedes) == Array(stable.prefix(k)), "\(name), k \(k), halves")
                }
                // Items not from 0, in halves: the second half's positions are the items', not the half's.
                let tail = 1_000..<values.count
                #expect(firstInOrder(20, of: tail, twoCoresFrom: 64, by: precedes) == Array(stable.filter { tail.contains($0) }.prefix(20)), "\(name), tail")
            }
        }
    }
}
