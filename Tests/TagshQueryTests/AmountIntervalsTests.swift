import Testing
import TagshModel
@testable import TagshQuery

/// `AmountTest.Intervals` decides an amount by its units at its own scale against bounds worked out per scale;
/// it must decide every amount as `AmountTest.matches` does (kept as the reference): each operator, both bounds,
/// `abs`, bounds of more and fewer decimals than the amount, negative bounds, amounts at the edges of 64 bits.
struct AmountIntervalsTests {
    static let ops: [AmountTest.Op] = [.lt, .le, .gt, .ge, .eq]

    /// Amounts near a bound at every scale near the bound's (the units around it, multiplied and divided by ten),
    /// and a few at the edges of the range.
    static func amounts(near bound: Amount) -> [Amount] {
        var out: [Amount] = [Amount(units: .min, scale: 0), Amount(units: .max, scale: 0), Amount(units: .min, scale: 18),
                             Amount(units: .max, scale: 18), .zero, Amount(units: 0, scale: 18)]
        for scale in 0...Int(Amount.maxScale) {
            let s = UInt8(scale)
            var centre = bound.units(atScale: max(s, bound.scale))
            for _ in s..<max(s, bound.scale) where bound.scale > s { centre /= 10 }
            for d in -12...12 {
                if let u = Int64(exactly: centre + Int128(d)) { out.append(Amount(units: u, scale: s)) }
            }
        }
        return out
    }

    static let bounds: [Amount] = [Amount(units: -5, scale: 0), Amount(units: -500, scale: 2), Amount(units: 1234, scale: 2),
                                   Amount(units: -1234, scale: 3), Amount(units: 7, scale: 1), .zero, Amount(units: 1, scale: 18),
                                   Amount(units: -999_999_999_999, scale: 0), Amount(units: .max, scale: 0),
                                   Amount(units: .min, scale: 0), Amount(units: 5, scale: 9)]

    @Test(arguments: [false, true]) func oneBoundDecidesAsMatches(absolute: Bool) {
        var differ: [String] = []
        for bound in AmountIntervalsTests.bounds {
            for op in AmountIntervalsTests.ops {
                let test = AmountTest(lower: (op, bound), upper: nil, absolute: absolute)
                let fast = AmountTest.Intervals(test)
                for a in AmountIntervalsTests.amounts(near: bound) where fast.contains(units: a.units, scale: a.scale) != test.matches(a) {
                    differ.append("\(absolute ? "abs " : "")\(op.rawValue)\(bound) on \(a) (\(a.units)e-\(a.scale))")
                }
            }
        }
        #expect(differ.isEmpty, "\(differ.prefix(8))")
    }

    @Test func twoBoundsDecideAsMatches() {
        var differ: [String] = []
        for (lower, upper) in [(Amount(units: -500, scale: 2), Amount(units: 12, scale: 0)), (Amount(units: 3, scale: 1), Amount(units: 3, scale: 1)),
                               (Amount(units: 10, scale: 0), Amount(units: -10, scale: 0))] {
            for lo in [AmountTest.Op.gt, .ge] {
                for hi in [AmountTest.Op.lt, .le] {
                    for absolute in [false, true] {
                        let test = AmountTest(lower: (lo, lower), upper: (hi, upper), absolute: absolute)
                        let fast = AmountTest.Intervals(test)
                        for a in AmountIntervalsTests.amounts(near: lower) + AmountIntervalsTests.amounts(near: upper)
                        where fast.contains(units: a.units, scale: a.scale) != test.matches(a) {
                            differ.append("\(lo.rawValue)\(lower) \(hi.rawValue)\(upper) abs \(absolute) on \(a.units)e-\(a.scale)")
                        }
                    }
                }
            }
        }
        #expect(differ.isEmpty, "\(differ.prefix(8))")
    }
}
