import Foundation
import Testing
import TagshFormats
import TagshModel
import TagshQuery
@testable import TagshShell

/// The export shapes of real banks and apps (`Fixtures/banks`, written by
/// scripts/gen-bank-fixtures, each citing where its shape is documented): each
/// opens, with the options its EXPECTED.tsv line gives (as a person would type
/// them), with the right count, dates, amounts and signs; saves byte-identical
/// with no change; and keeps annotations across a save and a reopen.
struct BankFixtureTests {
    static let folder = fixtureFolder.appendingPathComponent("banks")

    struct Expected: CustomStringConvertible, Sendable {
        var file: String, options: String, count: Int, dates: [String], amounts: [String], first: String
        var description: String { file }
    }

    static let expected: [Expected] = {
        guard let text = try? String(contentsOf: folder.appendingPathComponent("EXPECTED.tsv"), encoding: .utf8) else { return [] }
        return text.split(separator: "\n").dropFirst().map { line in
            let f = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            return Expected(file: f[0], options: f[3], count: Int(f[4]) ?? -1, dates: f[5].split(separator: ",").map(String.init),
                            amounts: f[6].split(separator: ",").map(String.init), first: f[7])
        }
    }()

    /// Each amount as EXPECTED.tsv writes it: two decimals at least (`2415` is `2415.00`), `pending` for a row listed without one.
    static func amounts(_ l: Ledger) -> [String] {
        (0..<l.count).map { row in
            if l.pendingRows.contains(Int32(row)) { return "pending" }
            var a = l.amount(row)
            while a.scale < 2 { a = Amount(units: a.units * 10, scale: a.scale + 1) }
            while a.scale > 2 && a.units % 10 == 0 { a = Amount(units: a.units / 10, scale: a.scale - 1) }
            return a.description
        }
    }

    @Test func thereAreFiftyShapesOrMore() {
        #expect(Self.expected.count >= 50)
        let files = (try? FileManager.default.contentsOfDirectory(atPath: Self.folder.path)) ?? []
        #expect(Set(Self.expected.map(\.file)).isSubset(of: Set(files)))
    }

    @Test(arguments: expected)
    func opensSavesAndKeepsAnnotations(_ e: Expected) throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("tagsh-bank-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent(e.file).path
        try FileManager.default.copyItem(atPath: Self.folder.appendingPathComponent(e.file).path, toPath: path)
        let original = try Data(contentsOf: URL(fileURLWithPath: path))

        let sink = BufferSink()
        let s = Session(sink: sink)
        try #require(s.execute("open \(Lexer.quote(path)) \(e.options)") == .ok, "\(e.file): \(sink.err)")
        let l = try #require(s.ledger)
        #expect(l.count == e.count, "\(e.file): count")
        #expect((0..<l.count).map { l.day($0).description } == e.dates, "\(e.file): dates")
        #expect(Self.amounts(l) == e.amounts, "\(e.file): amounts")
        if l.count > 0 {
            #expect(l.transaction(0).merchant.lowercased().hasPrefix(e.first.lowercased()),
                    "\(e.file): first description '\(l.transaction(0).merchant)'")
        }
        // No change: byte-identical.
        #expect(s.execute("save") == .ok, "\(e.file): \(sink.err)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == original, "\(e.file): a no-op save changed the file")
        // Annotations survive a save and a reopen; nothing else moves.
        #expect(s.execute("tag 1 +checked") == .ok)
        #expect(s.execute("intent 2 need") == .ok)
        #expect(s.execute("save") == .ok, "\(e.file): \(sink.err)")
        s.close()
        let sink2 = BufferSink()
        let t = Session(sink: sink2)
        try #require(t.execute("open \(Lexer.quote(path))") == .ok, "\(e.file) reopened: \(sink2.err)")
        let r = try #require(t.ledger)
        #expect(r.count == e.count && Self.amounts(r) == e.amounts, "\(e.file): reopened amounts")
        #expect(r.tagNames(0) == ["checked"] && r.intentValue(1) == .need, "\(e.file): annotations lost")
        // A bank's own Category column is not tagsh's category, before or after tagsh adds its columns.
        #expect((0..<r.count).allSatisfy { (i: Int) -> Bool in r.category[i] == l.category[i] || i == 0 }, "\(e.file): categories moved")
    }
}

/// Exports whose EXPECTED.tsv line gives options read the same without them: their header's names are known
/// (`HeaderVocabulary`), or known in part with the rest found by what the records hold, or there is no header and
/// the columns are found so (a debit and a credit column side by side included).
struct BankFixturesWithoutOptionsTests {
    /// A session that opened `text`, written to a scratch file `name`, without its sidecar (the open expected to
    /// succeed), with what it said and the file's path.
    static func opened(_ name: String, _ text: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> (Session, BufferSink, String) {
        let path = try SmallLedgers.scratch(name, text)
        let sink = BufferSink()
        let s = Session(sink: sink)
        s.sourcesSidecar = false
        #expect(s.execute("open \(path)") == .ok, "\(sink.err)", sourceLocation: sourceLocation)
        return (s, sink, path)
    }
    /// The fixtures with options that read right without them (21 before names known in part were used, and
    /// debit and credit columns found by what they hold).
    static let readWithoutOptions: Set<String> = [
        "wellsfargo.csv", "usaa.csv", "tdbank.csv", "stripe-balance.csv", "amazon-payments.csv", "personal-capital.csv",
        "barclaycard.csv", "nationwide.csv", "aib.csv", "ulster.csv", "raiffeisen-at.csv", "easybank-at.csv", "zkb.csv",
        "knab.csv", "lansforsakringar.csv", "edb-dk.csv", "dnb-no.csv", "swedbank-lv.csv", "boursorama.csv", "mbank.csv",
        "pko-bp.csv", "alior.csv", "airbank-cz.csv", "erste-hu.csv", "tatra-sk.csv", "anz-au.csv", "nab-au.csv", "hsbc-sg.csv",
        "posb-sg.csv", "bradesco-br.csv", "revolut.csv", "nordea-dk.csv", "sparbanken-tanum.csv",
        "portalbank-dk.csv", "otp-hu.csv", "ocbc-sg.csv", "dkb-giro-2023.csv", "bnp-fortis.csv", "kbc.csv",
        "nordea-se.csv", "wise.csv", "swisscard.csv",
    ]

    @Test(arguments: BankFixtureTests.expected.filter { readWithoutOptions.contains($0.file) })
    func readsWithoutItsOptions(_ e: BankFixtureTests.Expected) throws {
        #expect(!e.options.isEmpty, "\(e.file) needs no options in EXPECTED.tsv")
        let sink = BufferSink()
        let s = Session(sink: sink)
        s.sourcesSidecar = false
        let path = BankFixtureTests.folder.appendingPathComponent(e.file).path
        try #require(s.execute("open \(Lexer.quote(path))") == .ok, "\(e.file): \(sink.err)")
        let l = try #require(s.ledger)
        #expect(l.count == e.count, "\(e.file): count")
        #expect((0..<l.count).map { l.day($0).description } == e.dates, "\(e.file): dates")
        #expect(BankFixtureTests.amounts(l) == e.amounts, "\(e.file): amounts")
        #expect(l.count > 0 && l.transaction(0).merchant.lowercased().hasPrefix(e.first.lowercased()),
                "\(e.file): first description '\(l.count > 0 ? l.transaction(0).merchant : "")'")
    }

    @Test func theListCoversEveryNameInIt() {
        #expect(Set(BankFixtureTests.expected.map(\.file)).isSuperset(of: Self.readWithoutOptions))
    }

    /// `Belastung CHF`, `#Kwota`: a currency code after a name, or mBank's `#` before it, leave the name known
    /// (ZKB, mBank), so nothing is guessed; `Saldo CHF` is no name tagsh knows, and stays unused.
    @Test func aNameWithACurrencyCodeOrAHashIsKnown() throws {
        let (s, sink, _) = try Self.opened("z.csv", "Datum;#Empfänger;Belastung CHF;Gutschrift CHF;Saldo CHF\n"
                                            + "01.02.2024;REWE;47.11;;100.00\n03.02.2024;Lohn;;3124.50;3224.50\n")
        #expect(!sink.err.contains("header's names"), "\(sink.err)")
        #expect(s.ledger.map { l in (0..<l.count).map { "\(l.day($0)) \(l.transaction($0).merchant) \(l.amount($0))" } }
                == ["2024-02-01 REWE -47.11", "2024-02-03 Lohn 3124.50"])
    }

    /// Shapes a review found read wrong by the first version of the above (each read right before it): a weak
    /// description name (`Type`, `Label`) beside an unknown payee column, a word after a name that is not a
    /// currency code (`Transaction Ref`, `Transaction Amt`), a signed amount beside a sparse fee or a balance.
    /// Then shapes a second review found read wrong by rules since taken back (the first column with a negative
    /// amount as the amount; a column of Debit/Credit words found by content; any text the same in every record
    /// passed over for the description), which read as they did before the session.
    @Test(arguments: [
        ("Txn Posted,Type,Payee Details,Amount\n01/05/2024,POS,BLUE BOTTLE COFFEE SF,-4.75\n01/06/2024,DD,THAMES WATER,-38.12\n",
         "BLUE BOTTLE COFFEE SF|THAMES WATER", "-4.75 -38.12"),
        ("Booked,Ref,Amount,Label\n01/05/2024,Blue Bottle Coffee Roasters,-4.75,Food\n01/06/2024,Thames Water Utilities,-38.12,Home\n",
         "Blue Bottle Coffee Roasters|Thames Water Utilities", "-4.75 -38.12"),
        ("Date,Transaction Ref,Description,Amount\n2024-01-05,TX123,Blue Bottle Coffee,-4.75\n", "Blue Bottle Coffee", "-4.75"),
        ("Transaction Date,Transaction Amt,Transaction Desc,Balance\n01/05/2024,-4.75,Blue Bottle Coffee,995.25\n"
         + "01/06/2024,-38.12,Thames Water,957.13\n", "Blue Bottle Coffee|Thames Water", "-4.75 -38.12"),
        ("01/05/2024,Coffee,-4.75,\n01/06/2024,Card fee,,-1.50\n01/07/2024,Lunch,-12.00,\n", "Coffee|Card fee|Lunch", "-4.75 0 -12.00"),
        ("01/04/2024,Opening balance,,1000.00\n01/05/2024,Coffee,-4.75,\n01/06/2024,Lunch,-12.00,\n",
         "Opening balance|Coffee|Lunch", "0 -4.75 -12.00"),
        // Unsigned amounts before a balance: the first.
        ("01/05/2024,Coffee,4.75,995.25\n01/06/2024,Lunch,12.00,983.25\n", "Coffee|Lunch", "4.75 12.00"),
        // The same name in every record (a file of rent payments) is still the description.
        ("01/05/2024,RENT LANDLORD,-1000.00,R1\n01/06/2024,RENT LANDLORD,-1000.00,R2\n", "RENT LANDLORD|RENT LANDLORD", "-1000.00 -1000.00"),
        ("2024-01-01,NETFLIX.COM,-15.99,SUB\n2024-02-01,NETFLIX.COM,-15.99,SUBS\n", "NETFLIX.COM|NETFLIX.COM", "-15.99 -15.99"),
        // The account's own number in every record is not the description.
        ("01/05/2024,NL12TRIO0123456789,-4.75,Coffee\n01/06/2024,NL12TRIO0123456789,2850.00,Pay\n", "Coffee|Pay", "-4.75 2850.00"),
        // A second review's shapes: an overdrawn balance after a debit/credit pair (a negative balance did not
        // make it the amount), unsigned amounts before a signed fee, a savings file whose only text column is
        // Deposit/Withdrawal (it opens, with that column as the description).
        ("01/05/2024,Blue Bottle Coffee,4.75,,95.25\n01/09/2024,Safeway,87.32,,7.93\n01/12/2024,Oakwood,1725.00,,-1717.07\n"
         + "01/22/2024,Acme Payroll,,2850.00,1132.93\n", "Blue Bottle Coffee|Safeway|Oakwood|Acme Payroll", "-4.75 -87.32 -1725.00 2850.00"),
        ("2024-01-05,Blue Bottle Coffee,4.75,-0.10\n2024-01-09,Safeway,87.32,0.00\n", "Blue Bottle Coffee|Safeway", "4.75 87.32"),
        ("2024-01-05,Deposit,500.00,1500.00\n2024-01-09,Withdrawal,200.00,1300.00\n", "Deposit|Withdrawal", "500.00 200.00"),
    ])
    func weakNamesSignedAmountsAndBalances(_ text: String, _ merchants: String, _ amounts: String) throws {
        let (s, sink, _) = try Self.opened("w.csv", text)
        #expect(s.ledger.map { l in (0..<l.count).map { l.transaction($0).merchant }.joined(separator: "|") } == merchants, "\(sink.err)")
        #expect(s.ledger.map { l in (0..<l.count).map { l.amount($0).description }.joined(separator: " ") } == amounts, "\(sink.err)")
    }

    /// A header tagsh knows only in part below a statement's title lines is found (the first of the lines that
    /// names a date, a description or an amount with records below it that read), and the title lines are kept.
    @Test func aHeaderKnownInPartBelowTitleLines() throws {
        let text = "Statement for account 1234\n\nTxn Posted,Description,Amount\n01/05/2024,Blue Bottle,-4.75\n13/06/2024,Thames Water,-38.12\n"
        let (s, sink, path) = try Self.opened("t.csv", text)
        #expect(sink.err.contains("read 'Txn Posted' as the date (by what it holds)"), "\(sink.err)")
        #expect(s.ledger.map { l in (0..<l.count).map { "\(l.day($0)) \(l.transaction($0).merchant) \(l.amount($0))" } }
                == ["2024-05-01 Blue Bottle -4.75", "2024-06-13 Thames Water -38.12"])
        #expect(s.execute("tag 1 +x") == .ok && s.execute("save") == .ok)
        let saved = try String(contentsOfFile: path, encoding: .utf8)
        #expect(saved.hasPrefix("Statement for account 1234\n\nTxn Posted,Description,Amount,"), "\(saved)")
        let t = Session(sink: BufferSink())
        t.sourcesSidecar = false
        #expect(t.execute("open \(path)") == .ok)
        #expect(t.ledger?.tagNames(0) == ["x"] && t.ledger?.count == 2)
    }

    /// Title lines that hold a date or an amount, but not both (a statement's date, its opening balance), are not
    /// records: the header below them is still found. Only a line with both stops the search (see
    /// `recordsAreNotTakenForTitleLines`).
    @Test(arguments: ["Statement date,2024-07-01\nOpening balance,1234.56\n\n", "Opening balance,1234.56\nStatement date,2024-07-01\n"])
    func titleLinesWithADateOrAnAmount(_ title: String) throws {
        let text = title + "Txn Posted,Description,Amount\n01/05/2024,Blue Bottle,-4.75\n13/06/2024,Thames Water,-38.12\n"
        let (s, sink, _) = try Self.opened("t.csv", text)
        #expect(sink.err.contains("read 'Txn Posted' as the date (by what it holds)"), "\(sink.err)")
        #expect(s.ledger.map { l in (0..<l.count).map { "\(l.day($0)) \(l.transaction($0).merchant) \(l.amount($0))" } }
                == ["2024-05-01 Blue Bottle -4.75", "2024-06-13 Thames Water -38.12"])
    }

    /// Where the description column a header's names rank first is empty in every sampled record, the next
    /// description column that holds text is read (Nordea's `Mottagare` beside `Rubrik`); a column named for
    /// another role (a `Memo`, notes) is not taken for it.
    @Test func anEmptyFirstDescriptionGivesWayToTheNext() throws {
        let (s, sink, _) = try Self.opened("n.csv", "Date,Payee,Description,Amount\n2024-01-05,,Blue Bottle Coffee,-4.75\n2024-01-06,,Lunch,-9.00\n")
        #expect(s.ledger.map { l in (0..<l.count).map { l.transaction($0).merchant } } == ["Blue Bottle Coffee", "Lunch"])
        #expect(sink.err.contains("n.csv: 'Payee' is empty in the first records: read 'Description' as the description; "
                                  + "--columns description=\"Payee\" to read it otherwise"), "\(sink.err)")
        // A weak name (`Type`) is not moved to: the empty column is said instead.
        let weak = try SmallLedgers.scratch("y.csv", "Date,Name,Amount,Type\n2024-01-05,,-4.75,Card payment\n2024-01-12,,2850.00,Transfer\n")
        sink.reset()
        #expect(s.execute("open \(weak)") == .ok)
        #expect(s.ledger.map { l in (0..<l.count).map { l.transaction($0).merchant } } == ["", ""])
        #expect(sink.err.contains("the description column 'Name' is empty in every record"), "\(sink.err)")
        // One record filling the first is enough to keep it.
        let kept = try SmallLedgers.scratch("k.csv", "Date,Payee,Description,Amount\n2024-01-05,,Blue Bottle Coffee,-4.75\n2024-01-06,Pret,Lunch,-9.00\n")
        #expect(s.execute("open \(kept)") == .ok)
        #expect(s.ledger.map { l in (0..<l.count).map { l.transaction($0).merchant } } == ["", "Pret"])
    }

    /// Lines above a header-like line that read as records are not left out: the file is refused as before (no
    /// header row), and a record is not taken for a header because it holds a header's word (`To`).
    @Test(arguments: [
        "2024-01-03,Blue Bottle Coffee,-4.75,PENDING\n2024-01-04,Safeway,-87.32,PENDING\nPosted,Payee,Sum,Status\n"
            + "2024-01-01,Acme Payroll,2850.00,POSTED\n2024-01-02,Oakwood,-1725.00,POSTED\n",
        "Booked,Dir,Who,Sum\nPending,To,Blue Bottle,-4.75\n2024-01-05,To,Safeway,-87.32\n2024-01-09,From,Acme,2850.00\n",
    ])
    func recordsAreNotTakenForTitleLines(_ text: String) throws {
        let path = try SmallLedgers.scratch("r.csv", text)
        let sink = BufferSink()
        let s = Session(sink: sink)
        s.sourcesSidecar = false
        #expect(s.execute("open \(path)") == .failed(65), "\(sink.err)")
        #expect(sink.err.contains("no header row"), "\(sink.err)")
    }

    /// A description column no record fills is said at open (the merchants would show blank).
    @Test func anEmptyDescriptionColumnIsSaid() throws {
        let (s, sink, _) = try Self.opened("e.csv", "Date,Payee,Memo,Amount\n2024-01-05,,Blue Bottle Coffee,-4.75\n2024-01-06,,Lunch,-9.00\n")
        #expect(sink.err.contains("e.csv: the description column 'Payee' is empty in every record; --columns description=COLUMN reads another"),
                "\(sink.err)")
        let filled = try SmallLedgers.scratch("f.csv", "Date,Payee,Memo,Amount\n2024-01-05,,Blue Bottle Coffee,-4.75\n2024-01-06,Pret,Lunch,-9.00\n")
        sink.reset()
        #expect(s.execute("open \(filled)") == .ok)
        #expect(!sink.err.contains("is empty in every record"), "\(sink.err)")
    }

    /// Two amount columns are a debit and a credit only when every record has an amount in exactly one of them:
    /// an amount beside a balance is not.
    @Test(arguments: [
        ("01/05/2024,Coffee,4.75,,1000.00\n01/09/2024,Pay,,2850.00,3850.00\n", "-4.75 2850.00", "3 as the debit and 4 as the credit"),
        ("01/05/2024,Coffee,-4.75,1000.00\n01/09/2024,Pay,2850.00,3850.00\n", "-4.75 2850.00", "3 as the amount"),
        ("01/05/2024,Coffee,4.75,\n01/09/2024,Pay,2.00,\n", "4.75 2.00", "3 as the amount"),
        ("01/05/2024,Coffee,4.75,1.00\n01/09/2024,Pay,,2850.00\n", "4.75 0", "3 as the amount"),
    ])
    func debitAndCreditSideBySide(_ text: String, _ amounts: String, _ said: String) throws {
        let (s, sink, _) = try Self.opened("h.csv", text)
        #expect(s.ledger.map { l in (0..<l.count).map { l.amount($0).description }.joined(separator: " ") } == amounts)
        #expect(sink.err.contains(said), "\(sink.err)")
    }
}

/// The first save that adds tagsh's columns writes every record again, and works out the new file's layout as it
/// writes it (where it read the file back whole): on every real-shaped export, that layout is the one reading the
/// written bytes back gives, field for field.
struct AddedColumnsLayoutTests {
    static let files: [(String, String)] = BankFixtureTests.expected.map { (BankFixtureTests.folder.appendingPathComponent($0.file).path, $0.options) }
        + ((try? FileManager.default.contentsOfDirectory(atPath: fixtureFolder.path)) ?? []).sorted()
        .filter { $0.hasSuffix(".csv") || $0.hasSuffix(".tsv") }.map { (fixtureFolder.appendingPathComponent($0).path, "") }

    @Test func theLayoutWrittenIsTheLayoutReadBack() throws {
        var checked = 0
        let folder = try scratchFolder("added-columns")
        for (source, options) in Self.files {
            // A copy: a session journals its changes beside the file.
            let name = (source as NSString).lastPathComponent
            let path = folder.appendingPathComponent(name).path
            try FileManager.default.copyItem(atPath: source, toPath: path)
            let sink = BufferSink()
            let s = Session(sink: sink)
            s.sourcesSidecar = false
            guard s.execute("open \(Lexer.quote(path)) \(options)") == .ok, let count = s.ledger?.count, count > 0 else { continue }
            // A tag, an intent, and a note that must be quoted: on the first, the second and the last record.
            _ = s.execute("tag 1 +checked")
            _ = s.execute("intent \(min(2, count)) need")
            _ = s.execute("note \(count) 'a note, with \"quotes\"'")
            let ledger = try #require(s.ledger)
            let document = s.files[0].document
            let changed = Array(Set([0, min(1, count - 1), count - 1])).sorted()
            let added = document.columnsAdded(ledger, changedRows: changed)
            guard !added.isEmpty else { continue }
            var rendered = try document.renderForSave(ledger, changedRows: changed)
            let bytes = rendered.main.bytes
            let readBack = try document.reread(bytes, fileName: path, addedColumns: added)
            var base = document
            let next = rendered.nextDocument(from: &base)
            let written = try #require(next, "\(name): no layout worked out")
            #expect(written.bytes == bytes, "\(name): bytes")
            guard case .csv(let a) = written.layout, case .csv(let b) = readBack.layout else {
                Issue.record("\(name): not a CSV layout")
                continue
            }
            #expect(a.header == b.header, "\(name): header \(a.header) read back as \(b.header)")
            #expect(a.headerRange == b.headerRange && a.headerLine == b.headerLine && a.hasHeader == b.hasHeader, "\(name): header place")
            #expect(a.columns == b.columns, "\(name): columns")
            #expect(a.columnMap == b.columnMap, "\(name): mapping \(String(describing: a.columnMap)) read back as \(String(describing: b.columnMap))")
            #expect(a.records == b.records, "\(name): records")
            #expect(a.delimiter == b.delimiter && a.lineEnding == b.lineEnding && a.hasBOM == b.hasBOM && a.encoding == b.encoding,
                    "\(name): delimiter, line ending, BOM or encoding")
            #expect(a.decimalComma == b.decimalComma && a.dateFormat == b.dateFormat && a.dateFormatGiven == b.dateFormatGiven, "\(name): dates and amounts")
            #expect(a.guesses == b.guesses, "\(name): guesses")
            // What the reader noticed (a footer, a line above the first transaction), as an open of the written file
            // notices it (a read-back skips bad records, and said nothing of a line above the first transaction).
            let opened = try LedgerDocument.read(bytes, fileName: path, format: .csv, options: ReadOptions(dateFormat: b.dateFormat, columns: b.columnMap)).document
            if case .csv(let c) = opened.layout { #expect(a.notes == c.notes, "\(name): notes \(a.notes), on opening \(c.notes)") }
            checked += 1
        }
        // Most exports have none of tagsh's columns (the count seen when this test was written: 110).
        #expect(checked >= 100, "\(checked) files took the first save's path")
    }
}

/// A money column's name that gives a currency (`Betrag (EUR)`, `Amount (GBP)`, `Umsatz in EUR`) is the currency of
/// every amount that gives none of its own, where no currency column is mapped: DKB's amounts had no currency.
struct HeaderCurrencyTests {
    static let names: [(String, String?)] = [
        ("Betrag (EUR)", "EUR"), ("Amount (GBP)", "GBP"), ("Betrag (€)", "€"), ("Amount ($)", "$"), ("Debit [usd]", "USD"),
        ("Umsatz in EUR", "EUR"), ("Bedrag (EUR) ", "EUR"), ("Belastung CHF", "CHF"), ("Amount in eur", "EUR"),
        ("Amount (NET)", nil), ("Amount (total)", nil), ("Amount", nil), ("(EUR)", nil), ("Amount (Foreign Currency)", nil),
        ("Wertstellung (Valuta)", nil), ("Paid in", nil), ("Amount in NET", nil), ("Amount eur", nil),
        ("CHF", nil),
    ]

    @Test(arguments: names)
    func theNameGivesACurrency(_ name: String, _ currency: String?) {
        #expect(HeaderVocabulary.currency(inName: name) == currency, "\(name)")
    }

    /// Each bank fixture whose money column names a currency, and the currencies its rows have.
    static let banks: [(String, Set<String>)] = [
        ("dkb-giro.csv", ["EUR"]), ("dkb-visa.csv", ["EUR"]), ("dkb-giro-2023.csv", ["€"]), ("n26.csv", ["EUR"]),
        ("ing-nl.csv", ["EUR"]), ("starling.csv", ["GBP"]), ("apple-card.csv", ["USD"]), ("comdirect.csv", ["EUR"]), ("zkb.csv", ["CHF"]),
        // `Amount ($)`; and a file whose name gives none keeps its amounts' own (none here).
        ("fidelity-cma.csv", ["$"]), ("venmo.csv", ["$"]), ("chase-credit.csv", [""]),
    ]

    @Test(arguments: banks)
    func theBankFixturesRowsHaveIt(_ file: String, _ currencies: Set<String>) throws {
        let e = try #require(BankFixtureTests.expected.first { $0.file == file })
        let sink = BufferSink()
        let s = Session(sink: sink)
        let path = BankFixtureTests.folder.appendingPathComponent(file).path
        try #require(s.execute("open \(Lexer.quote(path)) \(e.options)") == .ok, "\(file): \(sink.err)")
        let l = try #require(s.ledger)
        #expect(Set((0..<l.count).map { l.transaction($0).currency }) == currencies, "\(file)")
    }

    /// `columns` names the column whose name gives the currency: the credit's, beside a debit whose name gives none.
    @Test func columnsNamesTheColumnTheCurrencyComesFrom() throws {
        let path = try SmallLedgers.scratch("dc.csv", "Date,Description,Debit,Credit (EUR)\n2025-01-02,A,1.00,\n")
        let sink = BufferSink()
        let s = Session(sink: sink)
        try #require(s.execute("open \(Lexer.quote(path))") == .ok, "\(sink.err)")
        sink.reset()
        #expect(s.execute("columns") == .ok)
        #expect(sink.out.contains("currency: EUR, from the name of the column Credit (EUR), for every amount that does not give its own"),
                "\(sink.out)")
    }

    /// A currency column, and an amount's own symbol, come before the name's.
    @Test func aCurrencyColumnOrSymbolComesFirst() throws {
        func currencies(_ text: String) throws -> [String] {
            let l = try LedgerDocument.read(Array(text.utf8), fileName: "h.csv", format: .csv, options: ReadOptions()).ledger
            return (0..<l.count).map { l.transaction($0).currency }
        }
        #expect(try currencies("Date,Description,Amount (EUR)\n2025-01-02,A,-1.00\n2025-01-03,B,-$2.00\n") == ["EUR", "$"])
        #expect(try currencies("Date,Description,Amount (EUR),Currency\n2025-01-02,A,-1.00,CHF\n2025-01-03,B,-2.00,\n") == ["CHF", ""])
        #expect(try currencies("Date,Description,Debit (GBP),Credit (GBP)\n2025-01-02,A,1.00,\n") == ["GBP"])
    }
}
