import Testing
@testable import TagshModel
import TagshTestSupport

/// A sum of amounts is exact (`Total`, `AmountTotals`): what the amounts add up to as integers at scale 18, at the
/// largest scale among them, in any order; past 128 bits it is overflow, never another figure.
struct TotalTests {
    /// Amounts of every size and scale: near Int64's ends, small, at scale 0 to 18.
    static func amounts(_ n: Int, _ rng: inout SplitMix) -> [Amount] {
        (0..<n).map { _ in
            let units: Int64 = switch Int.random(in: 0..<4, using: &rng) {
            case 0: Int64.random(in: .min ... .max, using: &rng)
            case 1: Int64.random(in: -1000...1000, using: &rng)
            case 2: Int64.random(in: 9_000_000_000_000_000_000 ... .max, using: &rng) * (Bool.random(using: &rng) ? 1 : -1)
            default: Int64.random(in: -99_999_999_999_999...99_999_999_999_999, using: &rng)
            }
            return Amount(units: units, scale: UInt8.random(in: 0...18, using: &rng))
        }
    }

    /// The reference: each amount as an integer at scale 18 (sixteen of them fit 128 bits), added up.
    static func reference(_ amounts: [Amount]) -> Int128 {
        amounts.reduce(Int128(0)) { sum, a in
            var v = Int128(a.units)
            for _ in a.scale..<18 { v *= 10 }
            return sum + v
        }
    }

    @Test(arguments: [1, 2, 3] as [UInt64])
    func aSumIsTheAmountsAddedExactly(seed: UInt64) {
        var rng = SplitMix(seed: seed)
        for _ in 0..<2000 {
            let amounts = TotalTests.amounts(Int.random(in: 1...16, using: &rng), &rng)
            var total = Total(), backwards = Total(), totals = AmountTotals()
            for a in amounts { total.add(a); totals.add(a, currency: 7) }
            for a in amounts.reversed() { backwards.add(a) }
            let expected = TotalTests.reference(amounts)
            #expect(!total.overflowed)
            #expect(total.units(atScale: 18) == expected, "\(amounts)")
            #expect(total.scale == amounts.map(\.scale).max())
            #expect(backwards == total)
            #expect(totals.entries.count == 1 && totals.entries[0].currency == 7 && totals.entries[0].amount == total)
            // Totals added to totals, in two parts.
            let half = amounts.count / 2
            var first = Total(), second = Total()
            for a in amounts[..<half] { first.add(a) }
            for a in amounts[half...] { second.add(a) }
            first.add(second)
            #expect(first == total)
        }
    }

    /// Twelve amounts of 99,999,999,999.0000001 pass Int64 (the sum kept the total of nine before).
    @Test func aSumPastSixtyFourBitsIsWrittenWhole() {
        var totals = AmountTotals()
        for _ in 0..<12 { totals.add(Amount(units: 999_999_999_990_000_001, scale: 7), currency: 1) }
        #expect(totals.entries[0].amount.description == "1199999999988.0000012")
        #expect(totals.entries[0].amount.formatted(grouping: true, minimumScale: 9) == "1,199,999,999,988.000001200")
        var negative = Total()
        for _ in 0..<12 { negative.add(Amount(units: -999_999_999_990_000_001, scale: 7)) }
        #expect(negative.formatted(grouping: true) == "-1,199,999,999,988.0000012")
    }

    /// Past 128 bits: overflow, whichever way it was reached, and it stays so.
    @Test func aSumPastOneHundredTwentyEightBitsIsOverflow() {
        var total = Total(Amount(units: 1, scale: 18))
        for _ in 0..<18 { total.add(Amount(units: .max, scale: 0)) }
        #expect(!total.overflowed) // 18 × (2^63 - 1) × 10^18 is below 2^127
        total.add(Amount(units: .max, scale: 0))
        total.add(Amount(units: .max, scale: 0))
        #expect(total.overflowed)
        #expect(total.description == "overflow")
        #expect(total.formatted(grouping: true, minimumScale: 2) == "overflow")
        total.add(Amount(units: .min, scale: 0))
        #expect(total.overflowed)
        // Rescaling alone can pass: a total near 2^127 at scale 0 met by an amount at scale 1.
        var wide = Total(units: Int128.max / 5, scale: 0)
        wide.add(Amount(units: 1, scale: 1))
        #expect(wide.overflowed)
        var sum = Total()
        sum.add(wide)
        #expect(sum.overflowed && sum == wide && sum != Total())
    }

    @Test func totalsCompareByValueWhateverTheirScales() {
        #expect(Total(Amount(units: 5, scale: 0)) == Total(Amount(units: 500, scale: 2)))
        #expect(Total(Amount(units: 5, scale: 0)) != Total(Amount(units: 501, scale: 2)))
        #expect(Total(units: Int128.min, scale: 0).description == "-170141183460469231731687303715884105728")
    }
}
