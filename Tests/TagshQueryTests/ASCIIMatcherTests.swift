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

    @Test(arguments: [
        ("st.r", ["st", "r"]), ("colou?r", ["colo", "r"]), ("ab+c", ["ab", "c"]), ("^uber (eats|trip)", ["uber "]),
        ("a{2,3}b", ["b"]), ("amazon.*prime", ["amazon", "prime"]), ("\\d+ STAR", [" star"]), ("star\\.com$", ["star.com"]),
        ("x[]a]y", ["x", "y"]), ("x[^]a]*y", ["x", "y"]), ("a*?b", ["b"]), ("\\?x?", ["?"]), ("[0-9]{4} kiosk", [" kiosk"]),
        ("star\\s*bucks", ["star", "bucks"]), ("ub[eo]r", ["ub", "r"]),
    ])
    func theLiteralsARegexRequires(source: String, expected: [String]) {
        #expect(ASCIIMatcher.requiredLiterals(ofRegex: source)?.map { String(decoding: $0, as: UTF8.self) } == expected)
    }

    @Test(arguments: ["a|b", "ab(c)|d", "ab(c|d", "(?x)s t", "\\Qa.b\\E", "[[:alpha:]]x", "caf\u{e9}", "\\x41", "\\u{41}bc", "(ab)\\1", "\\p{L}x", ".*", "[a-z]+"])
    func noLiteralsAreClaimedForWhatIsNotFollowed(source: String) {
        #expect(ASCIIMatcher.requiredLiterals(ofRegex: source) == nil)
    }

    /// Wherever the prefilter turns a text away, the engine would not have matched it.
    @Test func aTextWithoutTheRequiredLiteralsNeverMatches() throws {
        let sources = ["st.r", "colou?r", "ab+c", "^uber (eats|trip)", "a{2,3}b", "star.*card", "\\d+ STAR", "k.osk", "s+tar", "ta?r",
                       "\\$5", "ST[A-Z]R", "[ck]iosk", "t\\w+p"]
        let texts = Self.texts + ["COLOR", "colour", "abbbc", "ac", "UBER EATS", "uber trip 2", "aab", "b", "STARBUCKS CARD", "12 star",
                                  "k1osk", "sssstar", "tr", "tar", "STXR", "KIOSK", "trip", "top"]
        for source in sources {
            let regex = try Regex(source)
            guard let required = ASCIIMatcher.requiredLiterals(ofRegex: source) else { Issue.record("no literals for \(source)"); continue }
            for text in texts {
                var copy = text
                let rejected = copy.withUTF8 { ASCIIMatcher.isPrintableASCII($0) && !ASCIIMatcher.containsAll(required, $0) }
                if rejected { #expect(!regex.matches(text), "/\(source)/ on \(text)") }
            }
        }
    }

    /// Over 20,000 distinct texts the engine runs on both cores; the rows are the ones a test of each text gives.
    @Test func aTableLargeEnoughForTwoCoresGivesTheSameRows() throws {
        var ledger = Ledger()
        for i in 0..<30_000 {
            let text = (i % 7 == 0 ? "Café " : "SHOP ") + String(i) + (i % 3 == 0 ? " STAR" : " KIOSK")
            ledger.append(day: Day(iso: "2024-01-05")!, merchant: ledger.merchants.intern(text), amount: Amount(units: -100, scale: 2),
                          currency: 0, account: 0, intent: nil, category: 0, tagSet: 0, note: 0)
        }
        for source in ["'desc:/[0-9]5 star/'", "'desc:/caf. 1/'", "'desc:/shop 2.*kiosk/'", "'desc:/\\d{4}1 kiosk$/'",
                       "'desc:/^[a-z]+ [0-9]*5/'", "'desc:/[0-9]{3}[05] [ks]/'",
                       // The engine, after the literals every match requires (the automaton does not take \b).
                       "'desc:/\\bshop 2\\d+ star/'",
                       // Literals: ASCIIMatcher's test, on both cores too.
                       "desc:9' star'", "'desc:/^shop 2/'", "'desc:/star|^caf/'"] {
            let q = try parse(source)
            guard case .term(.merchant(let p)) = q else { Issue.record("not a merchant test: \(source)"); continue }
            let rows = QueryEvaluator(ledger: ledger).rows(matching: q).rows
            let expected = (0..<ledger.count).filter { TextPattern.slowMatch(p, ledger.merchants[ledger.merchant[$0]]) }
            #expect(rows == expected, "\(source)")
            #expect(!rows.isEmpty && rows.count < ledger.count, "\(source): \(rows.count) rows")
        }
    }
}
