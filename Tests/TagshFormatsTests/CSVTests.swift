import Foundation
import Testing
import TagshModel
@testable import TagshFormats

let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")

func fixture(_ name: String) throws -> [UInt8] {
    Array(try Data(contentsOf: fixtures.appendingPathComponent(name)))
}

struct CSVReadTests {
    /// Each variant: file, transactions expected, and the first transaction as text.
    static let variants: [(String, Int, String)] = [
        ("basic.csv", 3, "2024-01-05 STARBUCKS 1234 -4.75"),
        ("crlf.csv", 2, "2024-02-01 NETFLIX.COM -12.99 EUR"),
        ("bom.csv", 2, "2024-03-01 CAFÉ EINSTEIN -3.90"),
        ("german.csv", 3, "2024-01-05 EDEKA -1234.56"),
        ("tab.tsv", 2, "2024-04-01 UBER *TRIP -18.40"),
        ("debit-credit.csv", 3, "2024-01-15 SHELL 2231 -45.10 $"),
        ("quoted.csv", 3, "2024-05-01 SMITH, JONES & CO -120.00"),
        ("no-final-newline.csv", 2, "2024-06-01 IKEA -89.00"),
        ("amounts.csv", 6, "2024-07-01 DENTIST -120.00"),
        ("preamble.csv", 2, "2024-08-01 CINEMAXX -11.50"),
        ("annotated.csv", 4, "2024-09-01 STARBUCKS 1234 -4.75 USD"),
        ("us-dates.csv", 2, "2023-12-31 NEW YEAR PARTY -80.00"),
        ("spaces.csv", 1, "2024-10-01 PADDED MERCHANT -9.99"),
        ("header-only.csv", 0, ""),
    ]

    @Test(arguments: variants)
    func readsAndRendersByteIdentical(_ name: String, _ count: Int, _ first: String) throws {
        let bytes = try fixture(name)
        let loaded = try LedgerDocument.read(bytes, fileName: name, format: .csv, options: ReadOptions())
        #expect(loaded.ledger.count == count)
        #expect(loaded.skipped.isEmpty)
        if count > 0 {
            let t = loaded.ledger.transaction(0)
            let text = "\(t.day) \(t.merchant) \(t.amount)" + (t.currency.isEmpty ? "" : " \(t.currency)")
            #expect(text == first)
        }
        #expect(try loaded.document.renderMain(loaded.ledger, changedRows: []) == bytes)
    }

    @Test func allAmountsOfTheAmountsFixture() throws {
        let loaded = try LedgerDocument.read(try fixture("amounts.csv"), fileName: "amounts.csv", format: .csv, options: ReadOptions())
        let amounts = (0..<loaded.ledger.count).map { loaded.ledger.amount($0).description }
        #expect(amounts == ["-120.00", "5", "-1150.00", "12.50", "-7.25", "3.10"])
        let currencies = (0..<loaded.ledger.count).map { loaded.ledger.transaction($0).currency }
        #expect(currencies == ["", "$", "", "USD", "", "€"])
    }

    @Test func layoutDetection() throws {
        func layout(_ name: String) throws -> CSVLayout {
            let loaded = try LedgerDocument.read(try fixture(name), fileName: name, format: .csv, options: ReadOptions())
            guard case .csv(let l) = loaded.document.layout else { throw Diagnostic("not csv") }
            return l
        }
        let german = try layout("german.csv")
        #expect(german.delimiter == UInt8(ascii: ";"))
        #expect(german.decimalComma)
        #expect(german.dateFormat == .dmy)
        #expect(german.headerLine == 2)
        #expect(try layout("tab.tsv").delimiter == 0x09)
        #expect(try layout("crlf.csv").lineEnding == [0x0D, 0x0A])
        #expect(try layout("bom.csv").hasBOM)
        #expect(try layout("us-dates.csv").dateFormat == .mdy)
        #expect(try layout("basic.csv").decimalComma == false)
    }

    @Test func debitAndCreditMakeOneSignedAmount() throws {
        let l = try LedgerDocument.read(try fixture("debit-credit.csv"), fileName: "x.csv", format: .csv, options: ReadOptions()).ledger
        #expect((0..<l.count).map { l.amount($0).description } == ["-45.10", "19.99", "-1204.33"])
    }

    @Test func annotationsAreRead() throws {
        let l = try LedgerDocument.read(try fixture("annotated.csv"), fileName: "a.csv", format: .csv, options: ReadOptions()).ledger
        let t = l.transaction(0)
        #expect(t.category == "Food")
        #expect(t.tags == ["coffee", "Work"])
        #expect(t.note == "with Anna")
        #expect(t.intent == .want)
        // Tags compare case-insensitively; the first spelling is kept.
        #expect(l.transaction(3).tags == ["gift", "trip/paris", "coffee"])
        #expect(l.categories[l.categories.id(of: "coffee")!].isDefault == false)
        #expect(l.transaction(1).note == nil)
    }

    /// A Tags field is split on `;`, each name trimmed, empty ones and repeats (in any case) left out, first spelling kept.
    @Test(arguments: [
        ("coffee;work", ["coffee", "work"]),
        (" Coffee ; work ;;coffee;WORK ", ["Coffee", "work"]),
        ("\"a,b;\"\"quoted\"\";c\"", ["a,b", "\"quoted\"", "c"]),
        ("\" spaced tag ;\tx\"", ["spaced tag", "x"]),
        (";;", []),
        ("Café;CAFÉ;café", ["Café"]),
        ("trip/paris;trip:lisbon", ["trip/paris", "trip:lisbon"]),
    ])
    func tagFieldsSplitOnSemicolons(_ field: String, _ tags: [String]) throws {
        let csv = "Date,Description,Amount,Tags\n2024-01-02,CAFE,-3.00,\(field)\n2024-01-03,CAFE,-3.00,\(field)\n"
        let l = try CSVReader.read(Array(csv.utf8), fileName: "t.csv").ledger
        #expect(l.transaction(0).tags == tags)
        #expect(l.transaction(1).tags == tags)
    }

    @Test func quotedFieldsKeepCommasQuotesAndNewlines() throws {
        let l = try LedgerDocument.read(try fixture("quoted.csv"), fileName: "q.csv", format: .csv, options: ReadOptions()).ledger
        #expect(l.transaction(1).merchant == "BAR \"ZUM HIRSCH\"")
        #expect(l.transaction(2).merchant == "MULTI\nLINE SHOP")
        #expect(l.transaction(2).note == "a note\nover two lines")
        #expect(l.transaction(1).note == nil)
    }

    @Test func forcedDateFormat() throws {
        let bytes = Array("Date,Description,Amount\n05/03/2024,X,-1.00\n".utf8)
        let dmy = try LedgerDocument.read(bytes, fileName: "d.csv", format: .csv, options: ReadOptions(dateFormat: .dmy)).ledger
        #expect(dmy.day(0).description == "2024-03-05")
        let mdy = try LedgerDocument.read(bytes, fileName: "d.csv", format: .csv, options: ReadOptions()).ledger
        #expect(mdy.day(0).description == "2024-05-03")
    }

    /// Malformed files: message, line and column.
    static let malformed: [(String, String, Int, Int)] = [
        ("bad-date.csv", "cannot read date '2024-13-45' as year-month-day", 3, 1),
        ("bad-amount.csv", "cannot read amount '12..5'", 3, 23),
        ("unterminated.csv", "quoted field is never closed", 2, 12),
        ("no-dates.csv", "no header row: expected columns named date, description (or payee, merchant, name) and amount (or debit and credit)", 1, 1),
        ("empty.csv", "the file is empty: a CSV ledger needs a header row", 1, 1),
        ("bad-intent.csv", "unknown intent 'wants': use need, want, culture, unexpected or leave it empty", 2, 20),
        ("text-after-quote.csv", "unexpected text after a closing quote", 2, 20),
        ("short-row.csv", "expected at least 3 fields, found 1", 2, 11),
        // `-1,200.00` unquoted: the amount read -1 and 200.00 moved into the next column (taken: -1 in currency 200.00,
        // or, with no currency column, -1). Seen by the record's shape: one field more than the header, whole units,
        // then digits.
        ("unquoted-amount.csv", "cannot read amount '-1': it and the field after it look like one amount, -1,200.00, written without quotes "
            + "(the record has 5 fields where the header has 4)", 3, 17),
        ("unquoted-amount-bare.csv", "cannot read amount '(1': it and the field after it look like one amount, (1,200.00), written without quotes "
            + "(the record has 4 fields where the header has 3)", 3, 17),
        // The same in a debit or a credit column: the debit read 1 and its 200.00 taken as the credit (+199.00), the
        // credit read 2 (its 500.00 taken as the balance).
        ("unquoted-debit.csv", "cannot read debit '1': it and the field after it look like one amount, 1,200.00, written without quotes "
            + "(the record has 6 fields where the header has 5)", 3, 25),
        ("unquoted-credit.csv", "cannot read credit '2': it and the field after it look like one amount, 2,500.00, written without quotes "
            + "(the record has 6 fields where the header has 5)", 3, 21),
        // A record as wide as its header (an empty memo taken by the move): the currency column holds the digits.
        ("unquoted-amount-memo.csv", "cannot read currency '200.00': a currency is a code or a symbol (EUR, $), without digits", 3, 20),
    ]

    @Test(arguments: malformed)
    func malformedFilesNameLineAndColumn(_ name: String, _ message: String, _ line: Int, _ column: Int) throws {
        let bytes = try fixture(name)
        do throws(Diagnostic) {
            _ = try LedgerDocument.read(bytes, fileName: name, format: .csv, options: ReadOptions())
            Issue.record("\(name) was read without an error")
        } catch {
            #expect(error.message == message)
            #expect(error.file == name)
            #expect(error.line == line)
            #expect(error.column == column)
        }
    }

    /// A quote left open runs over the line ends to the next quote, where the text after it is the error: the note
    /// names the line and column the field began at. A quote closed on its own line gets no note.
    @Test func textAfterAQuoteOpenedLinesBeforeNamesWhereItOpened() throws {
        let text = "Date;Payee;Purpose;Amount\n02.01.2024;REWE;\"Einkauf 4711;-45,67\n03.01.2024;Miete;Januar;-1.234,56\n"
            + "05.01.2024;\"Müller; Schmidt\";Rechnung;-89,90\n"
        do throws(Diagnostic) {
            _ = try LedgerDocument.read(Array(text.utf8), fileName: "open.csv", format: .csv, options: ReadOptions())
            Issue.record("read without an error")
        } catch {
            #expect(error.message == "unexpected text after a closing quote" && error.line == 4 && error.column == 13)
            #expect(error.notes == ["note: the quoted field it closes began at line 2, column 17: a quote left open there takes the line ends after it into the field"])
        }
        let closedOnItsLine = try fixture("text-after-quote.csv")
        do throws(Diagnostic) {
            _ = try LedgerDocument.read(closedOnItsLine, fileName: "t.csv", format: .csv, options: ReadOptions())
            Issue.record("text-after-quote.csv read without an error")
        } catch {
            #expect(error.line == 2 && error.notes.isEmpty)
        }
    }

    /// Columns whose field is compared with the text the column gave last before it is looked up (currency,
    /// account, intent, category): each row keeps its own value when they change, by a byte, a case, a length
    /// (a category differing only in case is the same category).
    @Test func repeatingColumnsKeepEachRowsValue() throws {
        let rows = [("EUR", "Giro", "need", "Food"), ("EUR", "Giro", "need", "Food"), ("EURO", "Giro 2", "want", "Foods"),
                    ("EU", "Gir", "Want", "food"), ("USD", "Giro", "need", "Food"), ("USD", "\"Giro\"", "need", "Fooe")]
        let text = "Date,Description,Amount,Currency,Account,Intent,Category\n"
            + rows.map { "2025-01-01,X,-1.00,\($0.0),\($0.1),\($0.2),\($0.3)\n" }.joined()
        let l = try LedgerDocument.read(Array(text.utf8), fileName: "r.csv", format: .csv, options: ReadOptions()).ledger
        let read = (0..<l.count).map { r in
            let t = l.transaction(r)
            return "\(t.currency) \(t.account) \(t.intent.map { "\($0)" } ?? "-") \(t.category ?? "-")"
        }
        #expect(read == ["EUR Giro need Food", "EUR Giro need Food", "EURO Giro 2 want Foods", "EU Gir want Food",
                         "USD Giro need Food", "USD Giro need Fooe"])
    }

    /// Line breaks inside quoted fields (the quoted field's search stops at each) count towards the line an error
    /// names, with LF and CRLF line ends, and a long description between them.
    @Test(arguments: ["\n", "\r\n"]) func linesInsideQuotesCount(_ end: String) throws {
        let long = String(repeating: "WORD ", count: 12)
        let text = ["Date,Description,Amount", "2025-01-01,\"two\(end)lines \(long)\",-1.00",
                    "2025-01-02,\"three\(end)\(long)line\(end)text\",-2.00", "2025-01-03,\"ok \(long)\",3.0.0",
                    "2025-01-04,after,-4.00", ""].joined(separator: end)
        do throws(Diagnostic) {
            _ = try LedgerDocument.read(Array(text.utf8), fileName: "q.csv", format: .csv, options: ReadOptions())
            Issue.record("read without an error")
        } catch {
            #expect(error.message == "cannot read amount '3.0.0'")
            #expect(error.line == 7, "\(error.line ?? 0)")
        }
    }

    @Test func skipBadLoadsTheRestAndListsWhatWasSkipped() throws {
        let loaded = try LedgerDocument.read(try fixture("bad-amount.csv"), fileName: "b.csv", format: .csv,
                                             options: ReadOptions(skipBad: true))
        #expect(loaded.ledger.count == 2)
        #expect(loaded.skipped.map(\.line) == [3])
        #expect(loaded.ledger.transaction(1).merchant == "ALSO OK")
        // The skipped record's description is not among the names (completion would offer a description no
        // transaction has): it is interned once the record has read.
        #expect(loaded.ledger.merchants.count == 2)
        // The skipped line is still in the file when saved.
        #expect(try loaded.document.renderMain(loaded.ledger, changedRows: []) == (try fixture("bad-amount.csv")))
    }
}

/// An unquoted field's end, and the next quote or line feed in a quoted one, found eight bytes at a time, are
/// where a byte-by-byte look finds them: on random bytes
/// (any value, so that no borrow between bytes fakes a match), from every start, with each delimiter.
struct FieldEndTests {
    @Test(arguments: [UInt8(0x2C), 0x3B, 0x09]) func wordAtATimeIsByteByByte(delimiter: UInt8) {
        var rng = SystemRandomNumberGenerator()
        for round in 0..<300 {
            let n = Int.random(in: 0..<70, using: &rng)
            // Rare stops in some rounds (long runs between them), frequent ones in others, and every byte value.
            let stops: [UInt8] = [delimiter, 0x0A, 0x0D], special = stops + [0x22]
            let bytes: [UInt8] = (0..<n).map { _ in
                Int.random(in: 0..<(round % 2 == 0 ? 40 : 6), using: &rng) == 0 ? special[Int.random(in: 0..<4, using: &rng)]
                    : UInt8.random(in: 0...255, using: &rng)
            }
            bytes.withUnsafeBufferPointer { b in
                for from in 0...n {
                    var naive = from
                    while naive < n && !stops.contains(b[naive]) { naive += 1 }
                    #expect(CSVReader.unquotedEnd(b, from: from, delimiter: delimiter) == naive, "\(bytes) from \(from)")
                    // Inside quotes: the next quote or line feed.
                    var quoted = from
                    while quoted < n && b[quoted] != 0x22 && b[quoted] != 0x0A { quoted += 1 }
                    #expect(CSVReader.firstOf(0x22, 0x0A, 0x0A, in: b, from: from) == quoted, "\(bytes) from \(from)")
                }
            }
        }
    }
}

/// The delimiter of a line: whichever of `,` `;` and tab occurs most often outside quotes; on a tie, tab before `;`
/// before `,`; `,` when there is none.
struct DelimiterTests {
    @Test(arguments: [
        ("Date,Description,Amount", ","), ("Datum;Text;Betrag", ";"), ("Date\tPayee\tAmount", "\t"),
        ("no delimiter at all", ","), ("", ","),
        ("a;b,c", ";"), ("a\tb;c", "\t"), ("a\tb,c", "\t"), ("a\tb;c,d", "\t"),
        ("a\tb;c;d", ";"), ("a;b,c,d", ","), ("a\tb,c,d;e;f", ";"), ("a\tb,c,d;e", ","),
        // Inside quotes they do not count, and a doubled quote ends and starts them again.
        ("\"a;b;c\",d", ","), ("\"x,y,z\";w", ";"), ("\"a\"\"b,c\";d", ";"),
    ]) func mostOftenOutsideQuotes(line: String, expected: String) {
        let bytes = Array(line.utf8)
        let found = bytes.withUnsafeBufferPointer { b in
            CSVReader(bytes: b, fileName: "t.csv", options: ReadOptions()).detectDelimiter(0..<b.count)
        }
        #expect(found == expected.utf8.first!, "\(line)")
    }
}

/// A field too long to be a header name is not read as one: a name padded past `HeaderVocabulary.longestName` is
/// no longer the name (each field was normalized character by character: a file of 100 MB with no line break took
/// 28 s to refuse). The time, and the limits on dates and amounts, which no field that long could read as anyway,
/// are guarded by `scripts/perf-gate` (`refuse-csv-no-lines`).
struct LongFieldTests {
    @Test func aFieldLongerThanANameIsNone() {
        let padded = "Date" + String(repeating: " ", count: 300)
        #expect(HeaderVocabulary.role(of: "Date" + String(repeating: " ", count: 200))?.0 == .date)
        #expect(HeaderVocabulary.role(of: padded) == nil)
        #expect(HeaderVocabulary.normalized(padded) == padded)
    }
}

/// Windows-1252 read as UTF-8: every byte value, alone and in runs, as the Unicode scalar it names encodes.
struct Windows1252Tests {
    @Test func everyByteEncodesAsItsScalar() {
        func reference(_ bytes: [UInt8]) -> [UInt8] {
            Array(String(String.UnicodeScalarView(bytes.map { b in
                Unicode.Scalar(b < 0x80 || b >= 0xA0 ? UInt32(b) : TextEncoding.high[Int(b - 0x80)])!
            })).utf8)
        }
        for b in 0...255 {
            let one = [UInt8(b)]
            #expect(one.withUnsafeBufferPointer { TextEncoding.utf8(fromWindows1252: $0) } == reference(one), "\(b)")
        }
        let all = Array(0...255).map(UInt8.init), run = all + all.reversed() + [0x80, 0x41, 0xE9, 0x9F]
        #expect(run.withUnsafeBufferPointer { TextEncoding.utf8(fromWindows1252: $0) } == reference(run))
        #expect([UInt8]().withUnsafeBufferPointer { TextEncoding.utf8(fromWindows1252: $0) } == [])
    }
}

struct AmountParserTests {
    /// The shortcut for plain amounts reads what the whole reading reads, wherever it takes the text: on random
    /// texts of digits, signs, marks and a few other bytes, both decimal marks, up to 20 bytes (past 18 digits).
    @Test(arguments: [false, true]) func plainAmountsReadAsTheWholeReadingDoes(decimalComma: Bool) {
        var rng = SystemRandomNumberGenerator()
        let alphabet = Array("0123456789012345678901234567890123456789-.,+ $E(".utf8)
        var taken = 0
        for _ in 0..<50_000 {
            let n = Int.random(in: 0...20, using: &rng)
            var b = (0..<n).map { _ in alphabet[Int.random(in: 0..<alphabet.count, using: &rng)] }
            if Bool.random(using: &rng) { b = b.map { $0 == 0x2B || $0 == 0x20 || $0 == 0x24 || $0 == 0x45 || $0 == 0x28 ? 0x35 : $0 } }
            b.withUnsafeBufferPointer { f in
                guard let plain = AmountParser.plain(f, decimalComma: decimalComma) else { return }
                taken += 1
                let whole = AmountParser.parseWhole(f, decimalComma: decimalComma)
                #expect(whole?.amount == plain && whole?.symbol == nil, "\(String(decoding: b, as: UTF8.self))")
            }
        }
        #expect(taken > 1_000)
    }

    /// Every reading `parse` takes (the plain shortcut, the one for `$`, `£` or `€` before a plain amount, the whole
    /// reading) gives what the whole reading gives, amount and symbol, on random texts of digits, signs, marks,
    /// those symbols and a few other bytes, both decimal marks.
    @Test(arguments: [false, true]) func everyShortcutReadsAsTheWholeReadingDoes(decimalComma: Bool) {
        var rng = SystemRandomNumberGenerator()
        let pieces = ["0", "1", "2", "5", "9", "00", "12", "-", "-", ".", ",", "+", " ", "$", "$", "£", "£", "€", "€", "E", "(", ")", "\u{C2}", "\u{A3}"]
        // Codes after the number (`plainThenCode`), directions among them.
        let codes = [" USD", " EUR", " E", " CR", " DR", " DB", " Cr", " usd", "  USD", " US D", " XAU", "USD", " C", " UR"]
        var symbolTaken = 0, codeTaken = 0
        for _ in 0..<50_000 {
            var text = ""
            // Most of them a symbol, maybe after a minus, then digits and marks.
            if Int.random(in: 0..<4, using: &rng) > 0 {
                text = (Bool.random(using: &rng) ? "-" : "") + ["$", "£", "€"][Int.random(in: 0..<3, using: &rng)]
            }
            for _ in 0..<Int.random(in: 0...9, using: &rng) { text += pieces[Int.random(in: 0..<pieces.count, using: &rng)] }
            if Int.random(in: 0..<3, using: &rng) == 0 {
                text = (Bool.random(using: &rng) ? "-" : "") + String((0..<Int.random(in: 1...20, using: &rng)).map { _ in "0123456789.,"
                    .randomElement(using: &rng)! }) + codes[Int.random(in: 0..<codes.count, using: &rng)]
            }
            var bytes = Array(text.utf8)
            bytes.withUnsafeMutableBufferPointer { m in
                let f = UnsafeBufferPointer(m)
                let read = AmountParser.parse(f, decimalComma: decimalComma), whole = AmountParser.parseWhole(f, decimalComma: decimalComma)
                #expect(read?.amount.units == whole?.amount.units && read?.amount.scale == whole?.amount.scale && read?.symbol == whole?.symbol, "\(text)")
                if AmountParser.symbolThenPlain(f, decimalComma: decimalComma) != nil { symbolTaken += 1 }
                if AmountParser.plainThenCode(f, decimalComma: decimalComma) != nil { codeTaken += 1 }
            }
        }
        #expect(symbolTaken > 1_000 && codeTaken > 1_000, "\(symbolTaken) \(codeTaken)")
    }

    static let cases: [(String, Bool, String?, String?)] = [
        ("-4.75", false, "-4.75", nil),
        ("3200", false, "3200", nil),
        ("-1,234.56", false, "-1234.56", nil),
        ("(12.00)", false, "-12.00", nil),
        ("$5", false, "5", "$"),
        ("-$5.00", false, "-5.00", "$"),
        ("$-5.00", false, "-5.00", "$"),
        ("1.234,56", true, "1234.56", nil),
        ("-2,5", true, "-2.5", nil),
        ("1 234,56", true, "1234.56", nil),
        ("12.50 USD", false, "12.50", "USD"),
        ("EUR 7", false, "7", "EUR"),
        ("€3.10", false, "3.10", "€"),
        ("7.25-", false, "-7.25", nil),
        ("+8", false, "8", nil),
        ("1'000.00", false, "1000.00", nil),
        ("12..5", false, nil, nil),
        ("", false, nil, nil),
        ("abc", false, nil, nil),
        ("1.2.3", false, nil, nil),
        ("5 USD EUR", false, nil, nil),
        ("1234567890123456789", false, nil, nil),
        ("12.", false, nil, nil),
    ]

    @Test(arguments: cases)
    func parses(_ text: String, _ decimalComma: Bool, _ expected: String?, _ symbol: String?) {
        let parsed = AmountParser.parse(text, decimalComma: decimalComma)
        #expect(parsed?.amount.description == expected)
        if expected != nil { #expect(parsed?.symbol == symbol) }
    }
}

struct ExportTests {
    @Test func jsonEscapesAndKeepsAmountsExact() throws {
        let l = try LedgerDocument.read(try fixture("quoted.csv"), fileName: "q.csv", format: .csv, options: ReadOptions()).ledger
        let json = Export.json(l)
        #expect(json.contains(#""merchant": "BAR \"ZUM HIRSCH\"""#))
        #expect(json.contains(#""merchant": "MULTI\nLINE SHOP""#))
        #expect(json.contains(#""amount": "-120.00""#))
        let parsed = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any]
        #expect((parsed?["transactions"] as? [Any])?.count == 3)
    }

    @Test func csvExportReadsBackTheSame() throws {
        let original = try LedgerDocument.read(try fixture("annotated.csv"), fileName: "a.csv", format: .csv, options: ReadOptions()).ledger
        let exported = Array(Export.csv(original).utf8)
        let again = try LedgerDocument.read(exported, fileName: "a.csv", format: .csv, options: ReadOptions()).ledger
        #expect((0..<original.count).map(original.transaction) == (0..<again.count).map(again.transaction))
    }
}

struct FileIOTests {
    @Test func atomicWriteKeepsModeAndFollowsLinks() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("tagsh-io-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let target = dir.appendingPathComponent("real.csv").path
        let link = dir.appendingPathComponent("link.csv").path
        try Data("old".utf8).write(to: URL(fileURLWithPath: target))
        chmod(target, 0o640)
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
        try FileIO.writeAtomically(Array("new".utf8), to: link)
        #expect(try String(contentsOfFile: target, encoding: .utf8) == "new")
        #expect((try FileManager.default.attributesOfItem(atPath: link)[.type] as? FileAttributeType) == .typeSymbolicLink)
        #expect(FileIO.stamp(of: target).map { $0.mode & 0o777 } == 0o640)
        // No temporary files are left behind.
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted() == ["link.csv", "real.csv"])
    }

    @Test func readErrorsSayWhy() {
        #expect(throws: FileError(path: "/nonexistent/x.csv", kind: .notFound, whileWriting: false)) {
            _ = try FileIO.read("/nonexistent/x.csv")
        }
        #expect(throws: FileError(path: "/tmp", kind: .isDirectory, whileWriting: false)) {
            _ = try FileIO.read("/tmp")
        }
    }

    @Test func failedWriteLeavesTheOriginal() throws {
        #expect(throws: FileError.self) {
            try FileIO.writeAtomically(Array("x".utf8), to: "/nonexistent-folder/file.csv")
        }
    }
}
