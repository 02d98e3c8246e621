import Testing
import TagshModel
@testable import TagshQuery

/// A compact text form of a query, so tables read like the language.
func sexp(_ q: Query) -> String {
    switch q {
    case .all: return "all"
    case .and(let p): return "(and " + p.map(sexp).joined(separator: " ") + ")"
    case .or(let p): return "(or " + p.map(sexp).joined(separator: " ") + ")"
    case .not(let p): return "(not " + sexp(p) + ")"
    case .term(let t):
        func text(_ p: TextPattern) -> String {
            switch p {
            case .contains(let s): "~" + s
            case .regex(let r): "/" + r.source + "/"
            }
        }
        switch t {
        case .merchant(let p): return "desc" + text(p)
        case .note(let p): return "note" + text(p)
        case .account(let p): return "acct" + text(p)
        case .tag(.named(let n)): return "tag=" + n
        case .tag(.none): return "tag=none"
        case .tag(.any): return "tag=any"
        case .tag(.regex(let r)): return "tag/" + r.source + "/"
        case .category(.named(let n)): return "cat=" + n
        case .category(.none): return "cat=none"
        case .category(.regex(let r)): return "cat/" + r.source + "/"
        case .intent(let i): return "intent=" + (i?.description ?? "none")
        case .amount(let a):
            var s = a.absolute ? "|amt|" : "amt"
            if let l = a.lower { s += l.op.rawValue + l.value.description }
            if let u = a.upper { s += u.op.rawValue + u.value.description }
            return s
        case .date(let d): return "date[" + (d.from?.description ?? "") + ".." + (d.through?.description ?? "") + "]"
        case .id(let r): return "id[\(r.lowerBound)..\(r.upperBound)]"
        case .selection: return "@"
        case .pending(let p): return p ? "pending" : "booked"
        case .hasNote(let h): return h ? "note=any" : "note=none"
        case .column(let name, .equals(let v)): return "col[" + name + "]=" + v
        case .column(let name, .matches(let p)): return "col[" + name + "]" + text(p)
        }
    }
}

/// Relative periods against a fixed today (Wednesday 2024-03-13).
@Test(arguments: [
    ("today", "date[2024-03-13..2024-03-13]"), ("yesterday", "date[2024-03-12..2024-03-12]"),
    ("thisweek", "date[2024-03-11..2024-03-17]"), ("lastweek", "date[2024-03-04..2024-03-10]"),
    ("thismonth", "date[2024-03-01..2024-03-31]"), ("lastmonth", "date[2024-02-01..2024-02-29]"),
    ("thisquarter", "date[2024-01-01..2024-03-31]"), ("lastquarter", "date[2023-10-01..2023-12-31]"),
    ("thisyear", "date[2024-01-01..2024-12-31]"), ("lastyear", "date[2023-01-01..2023-12-31]"),
    ("'last 30 days'", "date[2024-02-13..2024-03-13]"), ("2024q2", "date[2024-04-01..2024-06-30]"),
    ("lastmonth..", "date[2024-02-01..]"), ("..yesterday", "date[..2024-03-12]"),
])
func relativeDates(_ value: String, _ expected: String) throws {
    let today = try #require(Day(year: 2024, month: 3, day: 13))
    let words = try Lexer.words(in: value.hasPrefix("'") ? "'date:" + value.dropFirst() : "date:" + value)
    #expect(sexp(try QueryParser.parse(words, today: today)) == expected)
}

func parse(_ line: String) throws -> Query {
    try QueryParser.parse(try Lexer.words(in: line))
}

struct QueryParserTests {
    static let table: [(String, String)] = [
        ("", "all"),
        ("starbucks", "desc~starbucks"),
        ("STARBUCKS coffee", "(and desc~starbucks desc~coffee)"),
        ("desc:Uber merchant:trip", "(and desc~uber desc~trip)"),
        ("'desc:/^uber\\b/'", "desc/^uber\\b/"),
        ("desc:\"WHOLE FOODS\"", "desc~whole foods"),
        ("note:anna acct:visa", "(and note~anna acct~visa)"),
        ("desc:/starbucks|blue bottle/", "desc/starbucks|blue bottle/"), ("desc:/a  b/ x", "(and desc/a  b/ desc~x)"),
        ("-desc:/a b/", "(not desc/a b/)"), ("# a comment", "all"), ("coffee # why", "desc~coffee"), ("#1234", "desc~#1234"),
        ("status:pending", "pending"), ("-status:pending", "(not pending)"), ("status:booked", "booked"),
        ("payee:uber", "desc~uber"), ("note:none", "note=none"), ("note:any", "note=any"), ("note:nonesuch", "note~nonesuch"),
        ("all", "all"), ("cat:food,groceries", "(or cat=food cat=groceries)"), ("tag:coffee,tea", "(or tag=coffee tag=tea)"),
        ("intent:need,want", "(or intent=need intent=want)"), ("'cat:Gifts, etc'", "cat=gifts, etc"),
        ("col:Type=Sale", "col[Type]=sale"), ("col:Type:sal", "col[Type]~sal"), ("'col:Buchungstext:/^last/'", "col[Buchungstext]/^last/"),
        ("\"col:Transaction Type=debit\"", "col[Transaction Type]=debit"), ("col:Memo=", "col[Memo]="),
        ("note:/ann?a/ acct:/^card/", "(and note/ann?a/ acct/^card/)"),
        ("amt:<-50", "amt<-50"),
        ("amt:>=10", "|amt|>=10"),
        ("amt:5..20", "|amt|>=5<=20"),
        ("amt:-20..-5", "amt>=-20<=-5"),
        ("amt:-5.75", "amt=-5.75"),
        ("amt:12", "|amt|=12"),
        ("amt:<0", "amt<0"),
        ("date:2024", "date[2024-01-01..2024-12-31]"),
        ("date:2024-02", "date[2024-02-01..2024-02-29]"),
        ("date:2024-01-05", "date[2024-01-05..2024-01-05]"),
        ("date:2024-01..2024-03", "date[2024-01-01..2024-03-31]"),
        ("date:..2023", "date[..2023-12-31]"),
        ("date:2024-06..", "date[2024-06-01..]"),
        ("tag:Trip", "tag=trip"),
        ("tag:none", "tag=none"),
        ("tag:trip/", "tag=trip"),
        ("tag:any", "tag=any"),
        ("tag:/^trip/", "tag/^trip/"),
        ("cat:Food", "cat=food"),
        ("cat:none", "cat=none"),
        ("cat:/^f/", "cat/^f/"),
        ("intent:want", "intent=want"),
        ("intent:none", "intent=none"),
        ("id:412", "id[412..412]"),
        ("id:400..420", "id[400..420]"),
        ("-tag:coffee", "(not tag=coffee)"),
        ("not starbucks", "(not desc~starbucks)"),
        ("a or b", "(or desc~a desc~b)"),
        ("a b or c", "(or (and desc~a desc~b) desc~c)"),
        ("a (b or c)", "(and desc~a (or desc~b desc~c))"),
        ("(tag:a or tag:b) -cat:none", "(and (or tag=a tag=b) (not cat=none))"),
        ("-(a or b)", "(not (or desc~a desc~b))"),
        ("--a", "desc~a"),
        ("---tag:x", "(not tag=x)"),
        (String(repeating: "-", count: 100_000) + "a", "desc~a"),
        ("not (a or b) c", "(and (not (or desc~a desc~b)) desc~c)"),
        ("((a))", "desc~a"),
        ("a and b", "(and desc~a desc~b)"),
        ("'or'", "desc~or"),
        ("@ -tag:coffee", "(and @ (not tag=coffee))"),
        ("\"(paren)\"", "desc~(paren)"),
        // A colon after text that cannot be a key is text.
        ("'netflix desc:/a/'", "desc~netflix desc:/a/"), ("'PAYPAL *NETFLIX: DE'", "desc~paypal *netflix: de"),
        ("'AB.CD:x'", "desc~ab.cd:x"), ("'-AB CD: x'", "(not desc~ab cd: x)"),
    ]

    @Test(arguments: table)
    func parses(_ text: String, _ expected: String) throws {
        #expect(sexp(try parse(text)) == expected)
    }

    /// Malformed queries: the error and the characters the caret marks.
    static let errors: [(String, String, Range<Int>)] = [
        ("status:maybe", "unknown status 'maybe': use status:pending or status:booked", 0..<12),
        ("x col:=a", "bad column test '=a': use col:NAME=VALUE, col:NAME:TEXT or col:NAME:/REGEX/", 2..<8),
        ("foo:bar", "unknown query key 'foo:'", 0..<7),
        ("a tag:", "'tag:' needs a value", 2..<6),
        ("desc:/(/", "bad regular expression /(/: expected ')'", 0..<8),
        ("desc:/*x/", "bad regular expression /*x/: quantifier '*' must appear after expression", 0..<9),
        ("desc:/[z-a]/", "bad regular expression /[z-a]/: character 'z' must compare less than or equal to 'a'", 0..<12),
        ("'desc:/a\u{0}b/'", "bad regular expression /a?b/: it holds a control character", 0..<12),
        ("desc:/star bucks", "regular expression /star has no closing /", 0..<10),
        ("amt:>>5", "bad amount '>>5'", 0..<7),
        ("amt:abc", "bad amount 'abc'", 0..<7),
        ("date:2024-13", "bad date '2024-13'", 0..<12),
        ("date:24", "bad date '24'", 0..<7),
        ("date:..", "bad date '..'", 0..<7),
        ("id:0", "bad id '0'", 0..<4),
        ("id:9..3", "bad id '9..3'", 0..<7),
        ("intent:wants", "unknown intent 'wants'", 0..<12),
        ("(a or b", "'(' is never closed", 0..<1),
        ("a or b)", "')' without a matching '('", 6..<7),
        ("a or", "'or' needs a term after it", 2..<4),
        ("or a", "'or' needs a term after it", 0..<2),
        ("not", "'not' needs a term after it", 0..<3),
        ("a ()", "'(' needs a term after it", 2..<4),
        (String(repeating: "(", count: 300) + "a", "the query nests too deeply", 200..<201),
        (String(repeating: "not ", count: 300) + "a", "the query nests too deeply", 800..<803),
    ]

    @Test(arguments: errors)
    func errorsPointAtTheTerm(_ text: String, _ message: String, _ span: Range<Int>) throws {
        do {
            let q = try parse(text)
            Issue.record("parsed as \(sexp(q))")
        } catch let e as QueryError {
            #expect(e.message.hasPrefix(message), "\(e.message)")
            #expect(e.span == span)
        }
    }
}

struct LexerTests {
    static let table: [(String, [String])] = [
        ("ls tag:a", ["ls", "tag:a"]),
        ("  echo   'a b'  \"c d\"", ["echo", "a b", "c d"]),
        ("echo a\\ b", ["echo", "a b"]),
        ("echo \"say \\\"hi\\\"\"", ["echo", "say \"hi\""]),
        ("echo 'it'\\''s'", ["echo", "it's"]),
        ("echo desc:\"WHOLE FOODS\"x", ["echo", "desc:WHOLE FOODSx"]),
        ("echo a # a comment", ["echo", "a"]), ("echo a#b #x '# q' #", ["echo", "a#b", "#x", "# q"]),
        ("category new X --color #6f4e37", ["category", "new", "X", "--color", "#6f4e37"]),
        ("echo a#b", ["echo", "a#b"]),
        ("echo '' \"\"", ["echo", "", ""]),
        ("echo \"a\\nb\"", ["echo", "a\\nb"]),
        ("echo café 日本", ["echo", "café", "日本"]),
    ]

    @Test(arguments: table)
    func words(_ line: String, _ expected: [String]) throws {
        #expect(try Lexer.words(in: line).map(\.text) == expected)
    }

    @Test func spansAreCharacterOffsets() throws {
        let w = try Lexer.words(in: "ls  café 'x y'")
        #expect(w.map(\.span) == [0..<2, 4..<8, 9..<14])
    }

    @Test func unterminatedQuotes() {
        #expect(throws: Lexer.Problem.unterminatedQuote("'", at: 5)) { try Lexer.words(in: "echo 'abc") }
        #expect(throws: Lexer.Problem.unterminatedQuote("\"", at: 7)) { try Lexer.words(in: "echo a \"b") }
        #expect(throws: Lexer.Problem.trailingBackslash(at: 6)) { try Lexer.words(in: "echo a\\") }
    }

    @Test(arguments: ["plain", "two words", "it's", "", "tag:a/b", "$HOME"])
    func quoteRoundTrips(_ text: String) throws {
        #expect(try Lexer.words(in: "echo " + Lexer.quote(text)).dropFirst().map(\.text) == [text])
    }
}

struct EvaluatorTests {
    /// A small ledger: merchants repeat so per-merchant evaluation is exercised.
    static func ledger() -> Ledger {
        var l = Ledger()
        let rows: [(String, String, Int64, UInt8, String, Intent?, String?, [String], String?)] = [
            ("2024-01-05", "STARBUCKS 1234", -475, 2, "Checking", .want, "Food", ["coffee"], "with Anna"),
            ("2024-01-06", "Starbucks 0567", -380, 2, "Checking", nil, nil, ["Coffee", "work"], nil),
            ("2024-02-01", "UBER *TRIP", -1840, 2, "Visa", .need, "Transport", ["trip/paris"], nil),
            ("2024-03-01", "ACME SALARY", 320000, 2, "Checking", nil, "Income", [], nil),
            ("2023-12-31", "STARBUCKS 1234", -5750, 3, "Visa", .culture, nil, ["trip:rome"], "gift"),
        ]
        for r in rows {
            l.append(day: Day(iso: Substring(r.0))!, merchant: l.merchants.intern(r.1), amount: Amount(units: r.2, scale: r.3),
                     currency: l.currencies.intern("EUR"), account: l.accounts.intern(r.4), intent: r.5,
                     category: r.6.map { l.categories.intern($0) } ?? 0, tagSet: l.internTagSet(r.7),
                     note: r.8.map { l.notes.intern($0) } ?? 0)
        }
        return l
    }

    static let table: [(String, [Int])] = [
        ("", [1, 2, 3, 4, 5]),
        ("starbucks", [1, 2, 5]),
        ("'desc:/^starbucks \\d{4}$/'", [1, 2, 5]),
        ("amt:<0", [1, 2, 3, 5]),
        ("amt:>0", [4]),
        ("'desc:/^STARBUCKS 1/'", [1, 5]),
        ("tag:coffee", [1, 2]),
        ("tag:trip", [3, 5]),
        ("tag:trip/paris", [3]),
        ("tag:trip/", [3, 5]),
        ("tag:trip:", [3, 5]),
        ("tag:none", [4]),
        ("tag:any", [1, 2, 3, 5]),
        ("tag:/^w/", [2]),
        ("cat:food", [1]),
        ("cat:none", [2, 5]),
        ("cat:/^(food|income)$/", [1, 4]),
        ("intent:need", [3]),
        ("intent:none", [2, 4]),
        ("amt:<-5", [3, 5]),
        ("amt:>=10", [3, 4]),
        ("amt:5..20", [3, 5]),
        ("amt:-5.75", [5]),
        ("amt:-5.750", [5]),
        ("amt:4.75", [1]),
        ("date:2024", [1, 2, 3, 4]),
        ("date:2024-01", [1, 2]),
        ("date:2024-01-06", [2]),
        ("date:..2023", [5]),
        ("date:2024-02..", [3, 4]),
        ("date:2024-01..2024-02", [1, 2, 3]),
        ("note:ann", [1]),
        ("note:/^g/", [5]),
        ("acct:visa", [3, 5]),
        ("id:2", [2]),
        ("id:2..4", [2, 3, 4]),
        ("id:4..99", [4, 5]),
        ("-starbucks", [3, 4]),
        ("starbucks or uber", [1, 2, 3, 5]),
        ("starbucks not tag:coffee", [5]),
        ("(acct:visa or intent:want) amt:<0", [1, 3, 5]),
        ("nothing-matches", []),
    ]

    @Test(arguments: table)
    func matches(_ text: String, _ ids: [Int]) throws {
        let rows = QueryEvaluator(ledger: Self.ledger()).rows(matching: try parse(text))
        #expect(rows.rows.map { $0 + 1 } == ids)
    }

    /// The same, with the tag set table holding many sets no row holds (as undone steps and previews leave them),
    /// among them sets with the tags the queries ask for: a `tag:` term then tests only the rows' own sets
    /// (`Ledger.tagSetsHeld`), and must match the same rows.
    @Test(arguments: table)
    func matchesAmongSetsNoRowHolds(_ text: String, _ ids: [Int]) throws {
        var ledger = Self.ledger()
        let names = ["coffee", "work", "trip/paris", "trip:rome", "wine"]
        for i in 0..<40 { _ = ledger.internTagSet([names[i % names.count], "left\(i)"]) }
        #expect(ledger.tagSetsHeld() != nil)
        let rows = QueryEvaluator(ledger: ledger).rows(matching: try parse(text))
        #expect(rows.rows.map { $0 + 1 } == ids)
    }
}

/// `QueryEvaluator.lookup` builds a row set 64 rows a word without a branch: every size around a word's edge, and
/// tables marking few, half and most ids, give what asking row by row gives.
@Test(arguments: [0, 1, 63, 64, 65, 127, 128, 129, 1000])
func lookupIsRowByRow(rows: Int) {
    var state: UInt64 = UInt64(rows) &+ 7
    func next() -> Int { state = state &* 6364136223846793005 &+ 1442695040888963407; return Int(state >> 33) }
    let column = (0..<rows).map { _ in UInt32(next() % 50) }
    for share in [1, 2, 10] {
        let table = (0..<50).map { _ in next() % share == 0 }
        let got = QueryEvaluator(ledger: Ledger()).lookup(column, table)
        let expected = RowSet(rowCount: rows) { table[Int(column[$0])] }
        #expect(got == expected, "\(rows) rows, one in \(share)")
    }
}
