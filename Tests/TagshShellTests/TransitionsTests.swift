import Testing
@testable import TagshRules
import TagshTestSupport

/// `Transitions` counts a plan's (before, after) pairs by the value before in an array when the rows are many
/// beside the values, with a dictionary for the rest; whichever way a pair is counted, the pairs come out in the
/// order first seen with the counts a plain dictionary gives (kept here as the reference), before and after their
/// afters are renumbered.
struct TransitionsTests {
    /// The pairs of `counted` in the order first seen, with their counts.
    static func reference(_ counted: [(UInt32, UInt32, Int)]) -> [String] {
        var order: [UInt64] = [], counts: [UInt64: Int] = [:]
        for (b, a, n) in counted {
            let key = UInt64(b) << 32 | UInt64(a)
            if counts[key] == nil { order.append(key) }
            counts[key, default: 0] += n
        }
        return order.map { "\($0 >> 32)→\($0 & 0xFFFF_FFFF)×\(counts[$0]!)" }
    }

    static func text(_ t: Transitions) -> [String] { t.entries.map { "\($0.before)→\($0.after)×\($0.count)" } }

    /// Values before past the array (a value made after it was sized), values with one after and with several,
    /// counts of one and of many at once; in an array (many rows) and in the dictionary alone (few).
    @Test(arguments: [1, 2, 3] as [UInt64], [true, false]) func pairsInTheOrderFirstSeenWithTheirCounts(seed: UInt64, array: Bool) {
        var rng = SplitMix(seed: seed)
        let values = 50
        var t = Transitions(values: values, rows: array ? 1000 : 1)
        var counted: [(UInt32, UInt32, Int)] = []
        for _ in 0..<1000 {
            let before = UInt32(rng.next() % UInt64(values + 10))
            // Most values go to one after (as under one rule); some to another too.
            let after = rng.next() % 5 == 0 ? 200 + before + UInt32(rng.next() % 3) : 100 + before
            let times = rng.next() % 4 == 0 ? Int(rng.next() % 50) + 1 : 1
            t.count(before, after, times: times)
            counted.append((before, after, times))
        }
        #expect(TransitionsTests.text(t) == TransitionsTests.reference(counted))
        // Afters from 200 on renamed (as a plan's made sets are once interned): the counts stay with their pairs.
        let ids = (0..<100).map { UInt32(1000 + $0) }
        t.renumberAfter(from: 200, ids)
        let renamed = counted.map { ($0.0, $0.1 >= 200 ? ids[Int($0.1 - 200)] : $0.1, $0.2) }
        #expect(TransitionsTests.text(t) == TransitionsTests.reference(renamed))
    }
}
