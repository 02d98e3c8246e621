import Testing
@testable import TagshShell
import TagshTestSupport

/// TARGET words: ids, lists and ranges, in order and each once.
struct TargetSyntaxTests {
    @Test(arguments: [
        ("1", [0]), ("3,1", [0, 2]), ("1-3,2-5", [0, 1, 2, 3, 4]), ("5-6,1-2,2", [0, 1, 4, 5]), ("2-2", [1]),
        ("4,4,4", [3]), ("1-10", Array(0..<10)), ("7-9,1-8", Array(0..<9)), ("ALL", [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]),
    ])
    func rows(_ text: String, _ expected: [Int]) throws {
        #expect(try TargetSyntax.rows(text, count: 10, selection: nil).get() == expected)
    }

    @Test(arguments: ["0", "3-1", "1-11", "a", "1,,2", "1-2-3", "-1", "", "11"])
    func refused(_ text: String) {
        #expect(throws: (any Error).self) { try TargetSyntax.rows(text, count: 10, selection: nil).get() }
    }

    /// Any list of ids and ranges gives the ids it names, ascending, each once.
    @Test func listsOfRangesAreTheirIdsSortedOnce() throws {
        var rng = SplitMix(seed: 7)
        for _ in 0..<500 {
            var parts: [String] = [], expected = Set<Int>()
            for _ in 0..<Int.random(in: 1...6, using: &rng) {
                let lo = Int.random(in: 1...60, using: &rng), hi = min(60, lo + Int.random(in: 0...12, using: &rng))
                parts.append(lo == hi && Bool.random(using: &rng) ? "\(lo)" : "\(lo)-\(hi)")
                expected.formUnion((lo - 1)...(hi - 1))
            }
            let text = parts.joined(separator: ",")
            #expect(try TargetSyntax.rows(text, count: 60, selection: nil).get() == expected.sorted(), "\(text)")
        }
    }
}
