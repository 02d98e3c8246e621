import Testing
import TagshModel
@testable import TagshQuery

/// The byte-level fast path must give the regex engine's and `lowercased().contains`'s answer on every text
/// it decides, and leave to them every text and pattern it cannot decide exactly.
@Suite struct ASCIIMatcherTests {
    static let texts = [
        "", "STARBUCKS 1234", "starbucks", "Starbucks Coffee", "THE STARBUCKS", "STAR", "ST", "a.b", "axb", "$5 OFF", "PRICE $5",
        "UBER *TRIP", "UBERTRIP", "c:/temp", "A-B", "Café Nero", "KIOSK", "\u{212A}IOSK", "tab\there", "straße", "AMAZON MKTP US",
        // Longer than a word of eight bytes, with the match (or a near miss) at every kind of place.
        "PARKING INSURANCE 0007, OSLO CARD PAYMENT REF 9563534503", "AIRLINE COFFEE 0000, MADRID CARD PAYMENT REF STARBUCK",
        "CARD PAYMENT REF 0000000 STARBUCKS", "SSSSSSSSSSSSSSSSSSSTAR", "sssssssstarbucks coffee 1234 kiosk", "KIOSK KIOSK KIOSK KIOS",
        "A PRICE OF $5 AND MORE TEXT", "LONG TEXT WITH DEL \u{7F} IN IT", "LONG TEXT WITH A NEWLINE\nIN IT", "0123456789abcdef a.b",
    ]

    @Test(arguments: [
        // (query source as the user types it after desc:, is the fast path expected to take it)
        ("/^STAR/", true), ("/star/", true), ("/bucks$/", true), ("/^starbucks$/", true), ("/^$/", true), ("//", true),
        ("/a\\.b/", true), ("/\\$5/", true), ("/\\$5$/", true), ("/uber \\*trip/", true), ("/c:\\/temp/", true), ("/a\\-b/", true),
        ("/kiosk/", true), ("/^kiosk$/", true),
        ("/star|uber/", true), ("/^star|trip$/", true), ("/a\\|b|kiosk/", true), ("/star|/", true),
        ("/a.b/", false), ("/star|ub.r/", false), ("/(star|uber)/", false), ("/^st(ar)?/", false), ("/\\d+/", false), ("/\\bstar/", false), ("/[sS]tar/", false),
        ("/café/", false), ("/star$$/", false),
        ("star", true), ("bucks c", true), ("$5", true), ("", true), ("café", false), ("straße", false),
    ])
    func agreesWithTheFullEngine(source: String, fast: Bool) throws {
        let pattern: TextPattern
        if source.hasPrefix("/") {
            pattern = .regex(try Regex(String(source.dropFirst().dropLast())))
        } else {
            pattern = .contains(source.lowercased())
        }
        let matcher = ASCIIMatcher(pattern)
        #expect((matcher != nil) == fast, "fast path taken for \(source)")
        guard let matcher else { return }
        for text in Self.texts {
            let slow = TextPattern.slowMatch(pattern, text)
            var copy = text
            let quick = copy.withUTF8 { matcher.matches($0) }
            if text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) {
                #expect(quick == slow, "\(source) on \(text)")
            } else {
                #expect(quick == nil, "\(source) on \(text) must be left to the full engine")
            }
        }
    }

    @Test func aQueryOverATableGivesTheSameRowsEitherWay() throws {
        var ledger = Ledger()
        for text in Self.texts {
            ledger.append(day: Day(iso: "2024-01-05")!, merchant: ledger.merchants.intern(text), amount: Amount(units: -100, scale: 2),
                          currency: 0, account: 0, intent: nil, category: 0, tagSet: 0, note: 0)
        }
        for source in ["desc:/^star/", "desc:star", "desc:/bucks$/", "desc:/^kiosk$/", "desc:kiosk", "desc:/a\\.b/", "desc:/a.b/", "desc:/star|^uber/"] {
            let q = try parse(source)
            let rows = QueryEvaluator(ledger: ledger).rows(matching: q).rows
            guard case .term(.merchant(let p)) = q else { Issue.record("not a merchant test: \(source)"); continue }
            let expected = (0..<ledger.count).filter { TextPattern.slowMatch(p, ledger.merchants[ledger.merchant[$0]]) }
            #expect(rows == expected, "\(source)")
        }
    }
}
