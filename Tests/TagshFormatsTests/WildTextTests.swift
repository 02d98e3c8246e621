import Foundation
import Testing
import TagshModel
@testable import TagshFormats
import TagshTestSupport

/// Journal and beancount shapes that ledger's, hledger's and beancount's own
/// test suites and examples use: each is read into (date, payee, amount,
/// category, tags) per transaction, and a no-op render is byte-identical.
struct WildTextTests {
    static func read(_ text: String, _ format: LedgerFormat) throws -> [String] {
        let loaded = try LedgerDocument.read(Array(text.utf8), fileName: "t." + format.rawValue, format: format, options: ReadOptions())
        #expect(try loaded.document.renderMain(loaded.ledger, changedRows: []) == Array(text.utf8))
        let l = loaded.ledger
        return (0..<l.count).map { r in
            let t = l.transaction(r)
            var s = "\(t.day) \(t.merchant) \(t.amount)"
            if !t.currency.isEmpty { s += " " + t.currency }
            if let c = t.category { s += " [\(c)]" }
            if !t.tags.isEmpty { s += " #" + t.tags.joined(separator: " #") }
            if let i = t.intent { s += " intent=\(i)" }
            if let n = t.note { s += " note=\(n)" }
            return s
        }
    }

    static let journals: [(String, String, [String])] = [
        ("year directive, then dates without a year",
         "year 2024\n\n01/15 Test\n    Expenses:Food  $5\n    Assets:Cash\n\nY 2023\n02/01 Other\n    Expenses:Food  $6\n    Assets:Cash\n",
         ["2024-01-15 Test -5 $ [Food]", "2023-02-01 Other -6 $ [Food]"]),
        ("apply year, and dates with dots and one-digit parts",
         "apply year 2022\n3.7 A\n    Expenses:X  1 EUR\n    Assets:Y\n\n2021.1.2 B\n    Expenses:X  2 EUR\n    Assets:Y\n",
         ["2022-03-07 A -1 EUR [X]", "2021-01-02 B -2 EUR [X]"]),
        ("amount expressions, evaluated exactly",
         "2024/01/01 Expr\n    Expenses:Food  (5 * 2)\n    Assets:Cash\n\n2024/01/02 Money expr\n    Expenses:Food  ($10.00 * 3)\n    Assets:Cash\n\n"
            + "2024/01/03 Split\n    Expenses:Food  (2.83/2 EUR)\n    Assets:Cash\n",
         ["2024-01-01 Expr -10 [Food]", "2024-01-02 Money expr -30.00 $ [Food]", "2024-01-03 Split -1.415 EUR [Food]"]),
        ("an expression that is not exact is kept, with an unknown amount",
         "2024/01/01 Third\n    Expenses:Food  ($10 / 3)\n    Assets:Cash  $-3.33\n",
         ["2024-01-01 Third -3.33 $ [Food]"]),
        ("quoted commodities, before and after the number",
         "2024-01-01 Armor\n    Assets:Gear  1 \"light armor, studded leather\"\n    Assets:Gold  -25 \"gold pieces\"\n\n"
            + "2024-01-02 Shares\n    Assets:Broker  \"AA BB\" 10\n    Equity:Open\n",
         ["2024-01-01 Armor 1 light armor, studded leather", "2024-01-02 Shares 10 AA BB"]),
        ("lot prices, lot dates, lot notes, costs and balance assertions",
         "2024/01/01 Buy\n    Assets:Broker  10 AAPL {$50} [2024/01/01] (first lot) @ $50\n    Assets:Cash  $-500 = $1000\n\n"
            + "2024/01/02 Sell\n    Assets:Broker  -5 AAPL {{$250}} @@ $300\n    Assets:Cash\n",
         ["2024-01-01 Buy 10 AAPL", "2024-01-02 Sell -5 AAPL"]),
        ("a commodity written after the number with digits, dots and underscores",
         "2024-01-01 Vest\n    Income:Awards  -1680 HOOL.UNVEST\n    Assets:Unvested  1680 HOOL.UNVEST\n\n"
            + "2024-01-02 Fund\n    Assets:Fund  3 VAN_2024\n    Assets:Cash  -3 VAN_2024\n",
         ["2024-01-01 Vest 1680 HOOL.UNVEST [Awards]", "2024-01-02 Fund 3 VAN_2024"]),
        ("a header with a state, a code, a secondary date and a note; a payee-less header",
         "2024/03/01=2024/03/05 * (42) Bakery | bread  ; :fresh:\n    Expenses:Food  $4\n    Assets:Cash\n\n"
            + "2024/03/02\n    ; coffee:\n    Expenses:Food  $1\n    Assets:Cash\n",
         ["2024-03-01 Bakery | bread -4 $ [Food] #fresh", "2024-03-02  -1 $ [Food] #coffee"]),
        ("ledger's tag forms: :a:b:, key: value on its own line, and a note that runs to the end of its line",
         "2024-01-01 Shop  ; :a:b:\n    ; trip: paris\n    ; note: one, two; three\n    Expenses:X  $1\n    Assets:Y\n",
         ["2024-01-01 Shop -1 $ [X] #a #b #trip:paris note=one, two; three"]),
        ("hledger's comma-separated tags on the header",
         "2024-01-01 Shop  ; coffee:, trip:paris, intent:want, note:short\n    Expenses:X  $1\n    Assets:Y\n",
         ["2024-01-01 Shop -1 $ [X] #coffee #trip:paris intent=want note=short"]),
        ("automated, periodic and block-comment entries are kept, not read",
         "= /Food/\n    (Budget)  -1\n\n~ monthly\n    Expenses:Rent  $500\n    Assets:Cash\n\ncomment\n2024-01-01 Not a transaction\nend comment\n\n"
            + "2024-01-02 Real\n    Expenses:Food  $2\n    Assets:Cash\n\ntest bal\n  $2  Expenses:Food\nend test\n",
         ["2024-01-02 Real -2 $ [Food]"]),
        ("lower-case accounts and an income top level",
         "2024-01-01 salary\n    income:salary  -100 USD\n    assets:bank\n\n2024-01-02 bonus\n    Income  -5 USD\n    Assets:Bank\n",
         ["2024-01-01 salary 100 USD [salary]", "2024-01-02 bonus 5 USD [Income]"]),
        ("a decimal comma, read as ledger and hledger read it",
         "2024/01/03 * (1001) Albert Heijn\n    Expenses:Food  54,20 EUR\n    Assets:Checking\n\n"
            + "2024/01/04 Bol.com\n    Expenses:Shopping  1.234,5 EUR\n    Assets:Checking\n",
         ["2024-01-03 Albert Heijn -54.20 EUR [Food]", "2024-01-04 Bol.com -1234.5 EUR [Shopping]"]),
        ("spaces grouping digits, as hledger reads them",
         "2024-01-01 A\n    Expenses:X  1 000,00 EUR\n    Assets:Y\n\n2024-01-02 B\n    Expenses:X  12 345.67 USD\n    Assets:Y\n\n"
            + "2024-01-03 C\n    Expenses:X  1 000 000,5 EUR\n    Assets:Y\n",
         ["2024-01-01 A -1000.00 EUR [X]", "2024-01-02 B -12345.67 USD [X]", "2024-01-03 C -1000000.5 EUR [X]"]),
        ("one mark and three digits: a comma groups and a point is decimal, unless a decimal mark is declared",
         "2024-01-01 A\n    Expenses:X  1,000 EUR\n    Assets:Y\n\n2024-01-02 B\n    Expenses:X  1.000 EUR\n    Assets:Y\n\n"
            + "commodity EUR\n    format 1.000,00 EUR\n\n"
            + "2024-01-03 C\n    Expenses:X  1,000 EUR\n    Assets:Y\n\n2024-01-04 D\n    Expenses:X  1.000 EUR\n    Assets:Y\n\n"
            + "2024-01-05 E\n    Expenses:X  $1,000\n    Assets:Y\n\n"
            + "commodity $1.000,00\ndecimal-mark ,\n\n"
            + "2024-01-06 F\n    Expenses:X  $1,000\n    Assets:Y\n\n2024-01-07 G\n    Expenses:X  2,500 GBP\n    Assets:Y\n",
         ["2024-01-01 A -1000 EUR [X]", "2024-01-02 B -1.000 EUR [X]", "2024-01-03 C -1.000 EUR [X]", "2024-01-04 D -1000 EUR [X]",
          "2024-01-05 E -1000 $ [X]", "2024-01-06 F -1.000 $ [X]", "2024-01-07 G -2.500 GBP [X]"]),
        ("a decimal mark at the end, a zero before one mark, and a default commodity (ledger's D), as the peers read them",
         "2024-01-01 A\n    Expenses:X  $100.\n    Assets:Y\n\n2024-01-02 B\n    Expenses:X  1,234. USD\n    Assets:Y\n\n"
            + "2024-01-03 C\n    Expenses:X  0,075 EUR\n    Assets:Y\n\nD 1.000,00 EUR\n\n2024-01-04 D\n    Expenses:X  4000,58\n    Assets:Y\n\n"
            + "commodity 1.000, JPY\n\n2024-01-05 E\n    Expenses:X  1.000 JPY\n    Assets:Y\n",
         ["2024-01-01 A -100 $ [X]", "2024-01-02 B -1234 USD [X]", "2024-01-03 C -0.075 EUR [X]", "2024-01-04 D -4000.58 EUR [X]",
          "2024-01-05 E -1000 JPY [X]"]),
        ("virtual postings are off the balance: the money side and an elided amount come from the real ones",
         "2024-01-01 A\n    Expenses:Food  $10.00\n    (Budget:Food)  $10.00\n    Assets:Cash\n\n"
            + "2024-01-02 B\n    (Budget:Food)  $-5.00\n    Expenses:Food  $5.00\n    Assets:Cash  $-5.00\n\n"
            + "2024-01-03 C ; only virtual\n    [Budget:Food]  $20.00\n    [Budget:Available]\n",
         ["2024-01-01 A -10.00 $", "2024-01-02 B -5.00 $", "2024-01-03 C 20.00 $"]),
        ("a cost weighs the elided money side as hledger weighs it: a price a unit, a price of all the units; a lot price alone weighs nothing",
         "2024-01-05 Paris\n    Expenses:Travel  10.00 EUR @ $1.10\n    Assets:Checking\n\n"
            + "2024-01-06 Refund\n    Expenses:Travel  -10.00 EUR @@ $11.50\n    Assets:Checking\n\n"
            + "2024-01-07 Lot\n    Assets:Cash\n    Assets:Broker  10 AAPL {$50.00}\n\n"
            + "2024-01-08 Lot and price\n    Assets:Cash\n    Assets:Broker  10 AAPL {$50.00} @ $60.00 = 10 AAPL\n\n"
            + "2024-01-09 Thirds\n    Expenses:X  3 ABC @ $1.333  ; exact\n    Assets:Cash\n",
         ["2024-01-05 Paris -11.00 $ [Travel]", "2024-01-06 Refund 11.50 $ [Travel]", "2024-01-07 Lot -10 AAPL",
          "2024-01-08 Lot and price -600.00 $", "2024-01-09 Thirds -3.999 $ [X]"]),
        ("alias lines rename accounts as hledger reads them: a name or its leading part, with its case; a regex, ignoring case; "
            + "the last defined first; none after `end aliases`",
         "alias food = Expenses:Food\nalias chk=Assets:Checking\nalias Expenses:Food:Fancy = Expenses:Dining\n"
            + "alias /^(expenses):gro[a-z]*/ = \\1:Groceries\n\n"
            + "2024-01-03 A\n    food  $12.50\n    chk\n\n2024-01-04 B\n    food:snacks  $1.00\n    chk\n\n"
            + "2024-01-05 C\n    Food  $2.00\n    chk\n\n2024-01-06 D\n    food:Fancy  $3.00\n    chk\n\n"
            + "2024-01-07 E\n    EXPENSES:Grocery  $4.00\n    chk\n\nend aliases\n\n2024-01-08 F\n    food  $5.00\n    chk\n",
         ["2024-01-03 A -12.50 $ [Food]", "2024-01-04 B -1.00 $ [Food:snacks]", "2024-01-05 C 2.00 $", "2024-01-06 D -3.00 $ [Food:Fancy]",
          "2024-01-07 E -4.00 $ [Groceries]", "2024-01-08 F 5.00 $"]),
        ("balance assignments: the amount that brings the account, as aliases name it, to the balance assigned, in its commodity",
         "2024-01-02 Opening\n    Assets:Checking  = $1000.00\n    Equity:Opening\n\n2024-01-03 Grocer\n    Expenses:Food  $12.50\n    Assets:Checking\n\n"
            + "alias chk = Assets:Checking\n\n2024-01-07 Rebalance\n    chk  = $900.00\n    Expenses:Misc\n\n"
            + "2024-01-08 Interest\n    Income:Interest\n    Assets:Checking  ==* $901.00\n\n2024-01-09 Fx\n    Assets:Checking  = 50 EUR\n    Equity:Opening\n",
         ["2024-01-02 Opening 1000.00 $", "2024-01-03 Grocer -12.50 $ [Food]", "2024-01-07 Rebalance -87.50 $ [Misc]",
          "2024-01-08 Interest 1.00 $ [Interest]", "2024-01-09 Fx 50 EUR"]),
        ("a total balance assignment (==) takes the account's other commodities to zero, as hledger reads it",
         "2013-01-01 X\n    a   $1\n    a   -1 zorkmids\n    b\n\n2013-01-02 Y\n    a   == $1\n    b\n",
         ["2013-01-01 X 1 $", "2013-01-02 Y 1 zorkmids"]),
        ("--input-date-format lines",
         "--input-date-format %d/%m/%y\n\n15/03/24 Day first\n    Expenses:X  $1\n    Assets:Y\n",
         ["2024-03-15 Day first -1 $ [X]"]),
    ]

    @Test(arguments: journals)
    func readsJournal(_ name: String, _ text: String, _ expected: [String]) throws {
        #expect(try Self.read(text, .journal) == expected, "\(name)")
    }

    static let beancounts: [(String, String, [String])] = [
        ("posting flags other than * and !",
         "2024-01-01 open Assets:Cash\n2024-01-01 open Expenses:Food\n\n2024-01-02 * \"Shop\" \"Lunch\"\n  P Expenses:Food  5 USD\n"
            + "  # Assets:Cash  -5 USD\n\n2024-01-03 ? \"Maybe\"\n  ? Expenses:Food  1 USD\n  Assets:Cash\n",
         ["2024-01-02 Shop -5 USD [Food]", "2024-01-03 Maybe -1 USD [Food]"]),
        ("commodities with dots, underscores, quotes and digits",
         "2024-01-02 * \"Vest\" #award\n  Income:US:Hooli:Awards  -1680 HOOL.UNVEST\n  Assets:US:Hooli:Unvested  1680 HOOL.UNVEST\n\n"
            + "2024-01-03 * \"Fund\"\n  Assets:Fund  3 VAN_2024 {10.00 USD}\n  Assets:Cash  -30.00 USD\n",
         ["2024-01-02 Vest 1680 HOOL.UNVEST [US:Hooli:Awards] #award", "2024-01-03 Fund 3 VAN_2024"]),
        ("commas grouping thousands",
         "2024-01-02 * \"Rent\"\n  Expenses:Rent  1,250.00 EUR\n  Assets:Cash  -1,250.00 EUR\n\n"
            + "2024-01-03 * \"Car\"\n  Expenses:Car  12,345,678 EUR\n  Assets:Cash\n",
         ["2024-01-02 Rent -1250.00 EUR [Rent]", "2024-01-03 Car -12345678 EUR [Car]"]),
        ("a cost weighs the elided money side as bean-check weighs it: a lot's cost before a price",
         "2024-01-10 * \"Buy\"\n  Assets:Cash\n  Assets:Stock  10 HOOL {105.30 EUR, 2024-01-10} @ 110 EUR\n\n"
            + "2024-01-11 * \"Trip\"\n  Expenses:Travel  10.00 EUR @ 1.10 USD\n  Assets:Cash\n\n"
            + "2024-01-12 * \"Trip back\"\n  Expenses:Travel  10.00 EUR @@ 11.50 USD\n  Assets:Cash\n\n"
            + "2024-01-13 * \"Total lot\"\n  Assets:Cash\n  Assets:Stock  2 HOOL {{250.00 EUR}}\n",
         ["2024-01-10 Buy -1053.00 EUR", "2024-01-11 Trip -11.00 USD [Travel]", "2024-01-12 Trip back -11.50 USD [Travel]",
          "2024-01-13 Total lot -250.00 EUR"]),
        ("metadata, links, and a narration-only header",
         "2024-01-02 txn \"Only narration\" ^link-1 #t\n  intent: \"want\"\n  note: \"a, b; c\"\n  Expenses:Food  1 USD\n    receipt: \"x.pdf\"\n  Assets:Cash\n",
         ["2024-01-02 Only narration -1 USD [Food] #t intent=want note=a, b; c"]),
    ]

    @Test(arguments: beancounts)
    func readsBeancount(_ name: String, _ text: String, _ expected: [String]) throws {
        #expect(try Self.read(text, .beancount) == expected, "\(name)")
    }

    /// Amounts tagsh cannot take are refused with the place; ones the peers read but tagsh cannot hold are kept.
    @Test(arguments: [
        ("10 USD", PostingAmount.Reading.amount(Amount(units: 10, scale: 0), symbol: "USD")),
        ("$-1,234.50", .amount(Amount(units: -123450, scale: 2), symbol: "$")),
        ("-€5", .amount(Amount(units: -5, scale: 0), symbol: "€")),
        ("1.234,56 EUR", .amount(Amount(units: 123456, scale: 2), symbol: "EUR")),
        ("(1 + 2 * 3)", .amount(Amount(units: 7, scale: 0), symbol: nil)),
        ("(-(2) - 3)", .amount(Amount(units: -5, scale: 0), symbol: nil)),
        ("(1 / 3)", .unknown),
        ("(foo(1))", .unknown),
        // Hostile: an exact quotient too large to hold, and nesting deeper than the reader follows.
        ("(999999999999999999 / 0.000000000000000001)", .unknown),
        (String(repeating: "(", count: 5000) + "1" + String(repeating: ")", count: 5000), .unknown),
        ("12345678901234567890 X", .unknown),
        ("10 USD garbage", .invalid),
        ("USD", .invalid),
        ("1.2.3", .invalid),
    ])
    func postingAmounts(_ text: String, _ expected: PostingAmount.Reading) {
        #expect(PostingAmount.read(text) == expected, "\(text)")
    }

    /// The journal reader's fast path (`PostingAmount.quick`) reads every amount it takes as `PostingAmount.read`
    /// does, with every kind of declared mark: signs, symbols before and after, and numbers with marks anywhere.
    @Test(arguments: [1, 2, 3] as [UInt64]) func quickAmountsAreReadAmounts(seed: UInt64) {
        var rng = SplitMix(seed: seed)
        func pick<T>(_ a: [T]) -> T { a[Int(rng.next() % UInt64(a.count))] }
        var declared = PostingAmount.Marks()
        declared.note(["decimal-mark ,"])
        var byCommodity = PostingAmount.Marks()
        byCommodity.note(["commodity EUR", "    format 1.000,00 EUR"])
        byCommodity.note(["commodity $1,000.00"])
        let allMarks = [PostingAmount.Marks(), declared, byCommodity, PostingAmount.Marks(beancount: true)]
        var quick = 0
        for _ in 0..<20_000 {
            var number = String(1 + rng.next() % 9)
            for _ in 0..<Int(rng.next() % 9) {
                number += rng.next() % 4 == 0 ? pick([",", ".", " "]) : String(rng.next() % 10)
            }
            number = number.replacingOccurrences(of: "  ", with: " ")
            if !(number.last?.isNumber ?? false) && rng.next() % 4 != 0 { number += "0" }
            let (prefix, suffix) = pick([("", ""), ("$", ""), ("€", ""), ("EUR ", ""), ("", " EUR"), ("", " USD"), ("", "€"), ("", " $")])
            let text = pick(["", "-"]) + prefix + number + suffix
            let marks = pick(allMarks)
            let bytes = Array(text.utf8)
            guard let fast = bytes.withUnsafeBufferPointer({ PostingAmount.quick($0, marks: marks) }) else { continue }
            quick += 1
            #expect(PostingAmount.read(text, marks: marks) == .amount(fast.amount, symbol: fast.symbol), "\(text) with \(marks)")
        }
        #expect(quick > 5_000)
        // The forms journals write take the fast path (read otherwise, a million of them opened five times slower).
        for text in ["54,20 EUR", "-1.234,56 EUR", "-€1.234,56", "$1,234.56", "1,000 EUR", "12.5 USD", "1,234,567 EUR", "1 000,00 EUR"] {
            #expect(Array(text.utf8).withUnsafeBufferPointer { PostingAmount.quick($0, marks: PostingAmount.Marks()) } != nil, "\(text)")
        }
        #expect(Array("1,234.50 USD".utf8).withUnsafeBufferPointer { PostingAmount.quick($0, marks: PostingAmount.Marks(beancount: true)) } != nil)
    }

    /// bean-check refuses a comma anywhere but between groups of three digits; so does tagsh, at its place.
    @Test(arguments: ["54,20 EUR", "1,2345.00 EUR", "1234,567 EUR", "1,234,56 EUR", "1.234,56 EUR"])
    func aBeancountCommaOutOfPlaceIsRefused(_ amount: String) throws {
        let text = "2024-01-01 * \"X\"\n  Expenses:A  \(amount)\n  Assets:B\n"
        do {
            _ = try Self.read(text, .beancount)
            Issue.record("\(amount): read")
        } catch let error as Diagnostic {
            #expect(error.line == 2 && error.column == 15 && error.message.contains("cannot read the amount '\(amount)'")
                    && error.message.contains("groups of three digits"), "\(amount): \(error.message)")
        }
    }

    /// A virtual posting is off the balance, but an amount in it that no peer reads is still an error at its place.
    @Test func aBadVirtualAmountNamesItsPlace() throws {
        do {
            _ = try Self.read("2024-01-01 X\n    Expenses:A  10 USD\n    (Budget:A)  10 USD garbage\n    Assets:B\n", .journal)
            Issue.record("read")
        } catch let error as Diagnostic {
            #expect(error.line == 3 && error.column == 17 && error.message.contains("cannot read the amount '10 USD garbage'"), "\(error.message)")
        }
    }

    @Test func aBadJournalAmountNamesItsPlace() throws {
        #expect(throws: Diagnostic.self) {
            try Self.read("2024-01-01 X\n    Expenses:A  10 USD garbage\n    Assets:B\n", .journal)
        }
        do { _ = try Self.read("2024-01-01 X\n    Expenses:A  10 USD garbage\n    Assets:B\n", .journal) } catch let error as Diagnostic {
            #expect(error.line == 2 && error.column == 17 && error.message.contains("cannot read the amount '10 USD garbage'"))
        }
    }

    /// The money side of a transaction without its amount is the others' sum, negated: a sum past what an amount
    /// holds is an error at the posting where it passed (it was the sum before it, without a word), and only when
    /// the money side needs it.
    @Test(arguments: [LedgerFormat.journal, .beancount])
    func postingsAddingUpPastAnAmountAreAnError(_ format: LedgerFormat) throws {
        let head = format == .journal ? "2024-01-01 Big\n" : "2024-01-01 * \"Big\"\n"
        let big = "    Expenses:Food    99999999999.0000001 EUR\n"
        let text = head + String(repeating: big, count: 10) + "    Assets:Bank\n"
        #expect(throws: Diagnostic.self) { try Self.read(text, format) }
        do { _ = try Self.read(text, format) } catch let error as Diagnostic {
            #expect(error.line == 11 && error.column == 22 && error.message.contains("add up to more than an amount holds"), "\(error.message)")
        }
        // Nine fit, and the money side is their sum.
        let nine = try Self.read(head + String(repeating: big, count: 9) + "    Assets:Bank\n", format)
        #expect(nine.count == 1 && nine[0].contains("-899999999991.0000009"), "\(nine)")
        // With the money side's own amount, the others' sum is not needed.
        let given = head + String(repeating: big, count: 10) + "    Assets:Bank    -1 EUR\n"
        #expect(try Self.read(given, format).count == 1)
    }

    /// A category set on a posting written as an alias writes its account in full, which reads back as that
    /// category; where an alias in force would rename the account written, the save is refused and says so.
    @Test func aCategoryOnAnAliasedPostingIsWrittenInFull() throws {
        let text = "alias food = Expenses:Food\nalias bank=Assets:Checking\n\n2024-01-03 A\n    food:Coffee  $12.50\n    bank\n\n"
            + "alias Expenses = Personal:Expenses\n\n2024-01-04 B\n    food  $1.00\n    bank\n"
        let loaded = try LedgerDocument.read(Array(text.utf8), fileName: "t.journal", format: .journal, options: ReadOptions())
        var ledger = loaded.ledger
        #expect(ledger.transaction(0).category == "Food:Coffee" && ledger.transaction(1).category == "Food")
        ledger.category[0] = ledger.categories.intern("Gifts")
        let saved = String(decoding: try loaded.document.renderMain(ledger, changedRows: [0]), as: UTF8.self)
        #expect(saved == "account Expenses:Gifts\n" + text.replacingOccurrences(of: "    food:Coffee  $12.50", with: "    Expenses:Gifts  $12.50"),
                "\(saved)")
        #expect(try Self.read(saved, .journal)[0] == "2024-01-03 A -12.50 $ [Gifts]")
        ledger.category[1] = ledger.categories.intern("Gifts")
        var refusal = "written"
        do { _ = try loaded.document.renderMain(ledger, changedRows: [0, 1]) } catch { refusal = error.message }
        #expect(refusal.contains("an alias in force renames Expenses:Gifts to Personal:Expenses:Gifts"), "\(refusal)")
    }

    @Test func includePatternsReadEveryMatchInNameOrder() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("tagsh-glob-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("parts"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        for (name, day) in [("b", "02"), ("a", "01"), ("c", "03")] {
            try "2024-01-\(day) Part \(name)\n    Expenses:X  $1\n    Assets:Y\n".write(to: dir.appendingPathComponent("parts/data_\(name).dat"), atomically: true, encoding: .utf8)
        }
        let main = dir.appendingPathComponent("main.journal")
        try "include parts/data_[ab].dat\n!include parts/*_c.dat\n".write(to: main, atomically: true, encoding: .utf8)
        let loaded = try LedgerDocument.read(Array(try Data(contentsOf: main)), fileName: main.path, format: .journal, options: ReadOptions())
        #expect((0..<loaded.ledger.count).map { loaded.ledger.transaction($0).merchant } == ["Part a", "Part b", "Part c"])
        try "include parts/none_*.dat\n".write(to: main, atomically: true, encoding: .utf8)
        #expect(throws: Diagnostic.self) {
            try LedgerDocument.read(Array(try Data(contentsOf: main)), fileName: main.path, format: .journal, options: ReadOptions())
        }
    }

    @Test func formatsComeFromOneList() {
        #expect(FormatHandlers.names == ["csv", "journal", "beancount"])
        for h in FormatHandlers.all {
            for e in h.extensions { #expect(LedgerFormat(extensionOf: "x." + e) == h.format) }
        }
        #expect(LedgerFormat(sniffing: Array("2024-01-01 open Assets:Cash\n".utf8)) == .beancount)
        #expect(LedgerFormat(sniffing: Array("2024-01-01 Shop\n  Expenses:A  $1\n  Assets:B\n".utf8)) == .journal)
        #expect(LedgerFormat(sniffing: Array("Date,Amount\n2024-01-01,5\n".utf8)) == .csv)
    }

    @Test func jsonIsNotOpenedButSaysWhy() {
        do {
            _ = try LedgerDocument.read(Array("{\"transactions\": []}".utf8), fileName: "x.json", format: .json, options: ReadOptions())
            Issue.record("read a JSON file")
        } catch {
            #expect(error.message.contains("tagsh does not open json files; JSON is what `export` writes"))
        }
    }
}
