import Foundation
import Testing
import TagshFormats
import TagshModel
import TagshRules
@testable import TagshShell
import TagshTestSupport

/// The monthly loop: several files in one session, one rules file, and next
/// month's export imported without duplicates.
@Suite(.serialized)
struct MonthlyLoopTests {
    /// A folder for one test, removed afterwards.
    static func folder() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("tagsh-monthly-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }

    static func session(_ sink: BufferSink = BufferSink()) -> Session {
        let s = Session(sink: sink)
        s.clock = { 1_700_000_000 }
        return s
    }

    static let checking = "Date,Description,Amount\n2025-03-01,STARBUCKS 1234,-4.75\n2025-03-02,SALARY ACME,3200.00\n2025-03-05,TO SAVINGS,-500.00\n"
    static let savings = "Date,Description,Amount\n2025-03-06,FROM CHECKING,500.00\n2025-03-31,INTEREST,1.20\n"
    static let card = "Date,Description,Amount\n2025-03-03,AMAZON,-12.00\n"

    func write(_ dir: URL, _ files: [String: String]) throws {
        for (name, text) in files { try text.write(to: dir.appendingPathComponent(name), atomically: true, encoding: .utf8) }
    }

    func read(_ dir: URL, _ name: String) throws -> String { try String(contentsOf: dir.appendingPathComponent(name), encoding: .utf8) }

    @Test func severalFilesAreOneLedgerWithIdsAcrossThem() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        try write(dir, ["checking.csv": Self.checking, "savings.csv": Self.savings, "card.csv": Self.card])
        let sink = BufferSink()
        let s = Self.session(sink)
        let p = { (n: String) in dir.appendingPathComponent(n).path }
        #expect(s.execute("open \(p("checking.csv")) \(p("savings.csv")) \(p("card.csv"))") == .ok, "\(sink.err)")
        #expect(s.ledger?.count == 6)
        #expect(s.files.map(\.segments) == [[0..<3], [3..<5], [5..<6]])
        sink.reset()
        s.execute("count file:savings")
        #expect(sink.out == "2\n")
        sink.reset()
        s.execute("info")
        #expect(sink.out.contains("savings.csv (2 transactions, ids 4-5)"), "\(sink.out)")
        sink.reset()
        s.execute("summary by file --csv")
        #expect(sink.out.contains("savings.csv,2,,501.20,0.00,501.20"), "\(sink.out)")
        #expect(sink.out.contains("card.csv,1,,0.00,-12.00,-12.00"), "\(sink.out)")
        // Undo works across files; save writes only the files that changed.
        s.execute("tag 6 +online")
        s.execute("tag 1 +coffee")
        s.execute("undo")
        let savingsStamp = FileIO.stamp(of: p("savings.csv"))
        sink.reset()
        #expect(s.execute("save") == .ok, "\(sink.err)")
        #expect(sink.err.contains("card.csv (1 changed transaction"), "\(sink.err)")
        #expect(!sink.err.contains("checking.csv ("), "\(sink.err)")
        #expect(try read(dir, "checking.csv") == Self.checking)
        #expect(try read(dir, "savings.csv") == Self.savings)
        #expect(FileIO.stamp(of: p("savings.csv")) == savingsStamp)
        #expect(try read(dir, "card.csv").contains("AMAZON,-12.00,,,online,"))
        // Reopened together: clean, and the history comes back.
        let t = Self.session()
        #expect(t.execute("open \(p("checking.csv")) \(p("savings.csv")) \(p("card.csv"))") == .ok)
        #expect(!t.hasUnsavedChanges)
        #expect(t.ledger?.transaction(5).tags == ["online"])
        #expect(t.execute("undo") == .ok)
        #expect(t.ledger?.transaction(5).tags == [])
    }

    @Test func aSaveThatFailsOnTheSecondOfThreeFilesReplacesNone() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        try write(dir, ["a.csv": Self.checking, "b.csv": Self.savings, "c.csv": Self.card])
        let sink = BufferSink()
        let s = Self.session(sink)
        let p = { (n: String) in dir.appendingPathComponent(n).path }
        s.execute("open \(p("a.csv")) \(p("b.csv")) \(p("c.csv"))")
        s.execute("tag all +x")
        FileIO.injectWriteFault(forPathContaining: dir.lastPathComponent + "/b.csv", afterBytes: 10)
        defer { FileIO.clearWriteFault(forPathContaining: dir.lastPathComponent + "/b.csv") }
        #expect(s.execute("save") == .failed(74))
        #expect(sink.err.contains("b.csv: cannot write"), "\(sink.err)")
        #expect(sink.err.contains("nothing was saved"), "\(sink.err)")
        #expect(try read(dir, "a.csv") == Self.checking)
        #expect(try read(dir, "b.csv") == Self.savings)
        #expect(try read(dir, "c.csv") == Self.card)
        let left = try FileManager.default.contentsOfDirectory(atPath: dir.path)
        #expect(left.filter { ($0.hasPrefix(".") && $0.contains(".tagsh-")) || $0.hasSuffix(".bak") }.isEmpty, "\(left)")
        #expect(s.hasUnsavedChanges)
        FileIO.clearWriteFault(forPathContaining: dir.lastPathComponent + "/b.csv")
        #expect(s.execute("save") == .ok)
        #expect(try read(dir, "b.csv").contains(",x"))
    }

    @Test func importSkipsWhatIsThereAndWritesTheFilesOwnLayout() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        // The ledger writes dates day first with dots and a decimal comma; the export is ISO with points.
        let ledger = "Datum;Omschrijving;Bedrag\n01.03.2025;STARBUCKS 1234;-4,75\n02.03.2025;SALARIS;3200,00\n"
        let export = "Date,Description,Amount\n2025-03-01,STARBUCKS 1234,-4.75\n2025-03-01,STARBUCKS 1234,-4.75\n2025-03-02,SALARIS,3200.00\n2025-03-04,ALBERT HEIJN,-23.40\n"
        try write(dir, ["bank.csv": ledger, "export.csv": export])
        let sink = BufferSink()
        let s = Self.session(sink)
        let p = { (n: String) in dir.appendingPathComponent(n).path }
        s.execute("open \(p("bank.csv"))")
        sink.reset()
        #expect(s.execute("import \(p("export.csv")) --dry-run") == .ok, "\(sink.err)")
        #expect(sink.out.contains("duplicate  2025-03-01  STARBUCKS 1234"), "\(sink.out)")
        #expect(sink.err.contains("2 to import (0 of them doubtful), 2 already in the ledger"), "\(sink.err)")
        #expect(s.ledger?.count == 2 && !s.hasUnsavedChanges)
        sink.reset()
        #expect(s.execute("import \(p("export.csv"))") == .ok, "\(sink.err)")
        #expect(sink.err.contains("imported 2 transactions into bank.csv (ids 3-4); skipped 2 already in the ledger"), "\(sink.err)")
        // The second of the two identical coffees is new: each transaction already there stands for one row.
        #expect(s.ledger?.transaction(2).merchant == "STARBUCKS 1234")
        #expect(s.execute("save") == .ok)
        #expect(try read(dir, "bank.csv") == ledger + "01.03.2025;STARBUCKS 1234;-4,75\n04.03.2025;ALBERT HEIJN;-23,40\n")
        // One undo step, and a second import of the same export adds nothing.
        #expect(s.execute("import \(p("export.csv"))") == .ok)
        #expect(s.ledger?.count == 4 && !s.hasUnsavedChanges)
    }

    /// An export whose amount column names its currency (`Betrag (EUR)`) into a file whose rows have none: the
    /// currency only the name gives is not compared, so what is there is still found (it was all imported again).
    @Test func aCurrencyOnlyTheExportsColumnNameGivesIsNotCompared() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        try write(dir, ["mine.csv": "Date,Description,Amount\n2025-03-01,REWE MARKT,-47.11\n",
                        "dkb.csv": "Buchungstag;Empfänger;Betrag (EUR)\n01.03.2025;REWE MARKT;-47,11\n02.03.2025;EDEKA;-12,00\n",
                        "giro.csv": "Buchungstag;Empfänger;Betrag (EUR)\n01.03.2025;REWE MARKT;-47,11\n"])
        /// `import dkb.csv --dry-run` into `file`: what it said, and the first transaction's currency.
        func dryRun(into file: String) -> (err: String, currency: String?) {
            let sink = BufferSink()
            let s = Self.session(sink)
            s.execute("open \(dir.appendingPathComponent(file).path)")
            sink.reset()
            #expect(s.execute("import \(dir.appendingPathComponent("dkb.csv").path) --dry-run") == .ok, "\(sink.err)")
            return (sink.err, s.ledger?.transaction(0).currency)
        }
        let mine = dryRun(into: "mine.csv")
        #expect(mine.err.contains("1 to import (0 of them doubtful), 1 already in the ledger"), "\(mine.err)")
        // The same export into a file of the same header: both have EUR, and match.
        let giro = dryRun(into: "giro.csv")
        #expect(giro.err.contains("1 to import (0 of them doubtful), 1 already in the ledger"), "\(giro.err)")
        #expect(giro.currency == "EUR")
    }

    /// The descriptions completion offers are kept across annotations (they do not change how often a description
    /// is used) and follow the rows when an import adds some and its undo takes them away.
    @Test func descriptionCompletionFollowsImportsAndTheirUndo() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let ledger = "Date,Description,Amount\n2025-03-01,STARBUCKS 1234,-4.75\n2025-03-02,SALARIS,3200.00\n"
        let export = "Date,Description,Amount\n2025-03-04,ALBERT HEIJN,-23.40\n2025-03-05,ALBERT HEIJN,-9.10\n"
        try write(dir, ["bank.csv": ledger, "export.csv": export])
        let sink = BufferSink()
        let s = Self.session(sink)
        let p = { (n: String) in dir.appendingPathComponent(n).path }
        s.execute("open \(p("bank.csv"))")
        #expect(s.completionData()?.merchants == ["STARBUCKS 1234", "SALARIS"])
        s.execute("tag 1 +coffee")
        #expect(s.completionData()?.merchants == ["STARBUCKS 1234", "SALARIS"])
        #expect(s.completionData()?.tags == ["coffee"])
        #expect(s.execute("import \(p("export.csv"))") == .ok, "\(sink.err)")
        #expect(s.completionData()?.merchants == ["ALBERT HEIJN", "STARBUCKS 1234", "SALARIS"])
        #expect(s.execute("undo") == .ok)
        #expect(s.completionData()?.merchants == ["STARBUCKS 1234", "SALARIS"])
        #expect(s.execute("redo") == .ok)
        #expect(s.completionData()?.merchants.first == "ALBERT HEIJN")
    }

    @Test func bankIDsDecideWhenBothSidesHaveThem() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        // The ledger holds one coffee (bank id T1) and a rent the bank has since renamed and moved a day (T2).
        let ledger = "Date,Description,Amount,Transaction ID\n2025-03-01,STARBUCKS 1234,-4.75,T1\n2025-03-03,RENT MARCH,-900.00,T2\n"
        // The export: T1 again; a second coffee that looks the same but is another transaction (T9); T2 renamed
        // and a day later (nothing alike but the id); and a row without an id, matched by its words.
        let export = "Date,Description,Amount,Transaction ID\n2025-03-01,STARBUCKS 1234,-4.75,T1\n2025-03-01,STARBUCKS 1234,-4.75,T9\n"
            + "2025-03-04,SEPA DD LANDLORD GMBH,-900.00,T2\n2025-03-05,BAKERY,-3.10,T7\n"
        try write(dir, ["bank.csv": ledger, "export.csv": export])
        let sink = BufferSink()
        let s = Self.session(sink)
        let p = { (n: String) in dir.appendingPathComponent(n).path }
        s.execute("open \(p("bank.csv"))")
        sink.reset()
        #expect(s.execute("import \(p("export.csv")) --dry-run") == .ok, "\(sink.err)")
        #expect(sink.out.contains("id 1: the same bank id T1"), "\(sink.out)")
        #expect(sink.out.contains("id 2: the same bank id T2"), "\(sink.out)")
        #expect(sink.err.contains("2 to import (0 of them doubtful), 2 already in the ledger"), "\(sink.err)")
        sink.reset()
        #expect(s.execute("import \(p("export.csv"))") == .ok, "\(sink.err)")
        #expect(s.execute("save") == .ok)
        // The new rows keep their bank ids, so next month's export finds them by id.
        #expect(try read(dir, "bank.csv") == ledger + "2025-03-01,STARBUCKS 1234,-4.75,T9\n2025-03-05,BAKERY,-3.10,T7\n")
        sink.reset()
        #expect(s.execute("import \(p("export.csv"))") == .ok)
        #expect(sink.err.contains("nothing new (4 transactions already in the ledger)"), "\(sink.err)")
    }

    @Test func importedRowsKeepTheBanksOtherColumns() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        // Chase's layout: Details, Type and Balance are columns tagsh does not read; the export's rows bring them.
        let header = "Details,Posting Date,Description,Amount,Type,Balance,Check or Slip #\n"
        let ledger = header + "DEBIT,02/01/2024,Blue Bottle Coffee,-5.25,DEBIT_CARD,1200.00,\n"
        // The export names the columns in another order and case, and has one the file lacks.
        let export = "Posting Date,Description,Amount,type,Details,Balance,Memo\n"
            + "02/01/2024,Blue Bottle Coffee,-5.25,DEBIT_CARD,DEBIT,1200.00,x\n02/05/2024,Trader Joes #552,-61.40,DEBIT_CARD,DEBIT,1138.60,y\n"
        try write(dir, ["chase.csv": ledger, "export.csv": export])
        let sink = BufferSink()
        let s = Self.session(sink)
        let p = { (n: String) in dir.appendingPathComponent(n).path }
        s.execute("open \(p("chase.csv"))")
        #expect(s.execute("import \(p("export.csv"))") == .ok, "\(sink.err)")
        #expect(s.execute("save") == .ok, "\(sink.err)")
        #expect(try read(dir, "chase.csv") == ledger + "DEBIT,02/05/2024,Trader Joes #552,-61.40,DEBIT_CARD,1138.60,\n")
    }

    /// Two saves in one session of a journal whose declarations follow a transaction: the first save lengthens that
    /// transaction (a note) and declares a new account; the second declares another. Before the save kept its
    /// layout by editing it in place (ByteSplice), the second declaration went where the first save had left the
    /// old offset, in the middle of a line (`account Expenses:La` / `account Expenses:Gifts` / `te`).
    @Test func aSecondSaveDeclaresWhereTheFirstLeftTheDeclarations() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let journal = """
            account Assets:Checking
            account Expenses:Food

            2024-01-02 REWE
                Expenses:Food  12.50 EUR
                Assets:Checking

            account Expenses:Late

            2024-01-04 UBER
                Expenses:Food  9.00 EUR
                Assets:Checking

            """
        try write(dir, ["t.journal": journal])
        let sink = BufferSink()
        let s = Self.session(sink)
        let path = dir.appendingPathComponent("t.journal").path
        for line in ["open \(path)", "category new Fees", "category 1 Fees", "note 1 \"paid by card\"", "save",
                     "category new Gifts", "category 2 Gifts", "save", "tag 1 +card", "save"] {
            #expect(s.execute(line) == .ok, "\(line): \(sink.err)")
        }
        #expect(try read(dir, "t.journal") == """
            account Assets:Checking
            account Expenses:Food

            2024-01-02 REWE
                ; note: paid by card
                ; card:
                Expenses:Fees  12.50 EUR
                Assets:Checking

            account Expenses:Late
            account Expenses:Fees
            account Expenses:Gifts

            2024-01-04 UBER
                Expenses:Gifts  9.00 EUR
                Assets:Checking

            """)
        // The session's document is the file: a new session reads the same.
        let t = Self.session()
        #expect(t.execute("open \(path)") == .ok)
        #expect(LedgerState(t).transactions == LedgerState(s).transactions)
    }

    /// `save FILE` of a journal that includes files by relative paths: a copy in another folder would not find
    /// them, so it is refused (nothing written); beside the original, or with only absolute includes, it is written.
    @Test func aCopyElsewhereOfAJournalWithRelativeIncludesIsRefused() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("sub"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("out"), withIntermediateDirectories: true)
        let included = "2024-01-03 SUB SHOP\n    Expenses:Food  2.00 EUR\n    Assets:Checking\n"
        try write(dir, ["sub/sub.journal": included,
                        "top.journal": "include sub/sub.journal\n\n2024-01-04 TOP SHOP\n    Expenses:Food  3.00 EUR\n    Assets:Checking\n",
                        "abs.journal": "include \(dir.appendingPathComponent("sub/sub.journal").path)\n"])
        let sink = BufferSink()
        let s = Self.session(sink)
        let p = { (n: String) in dir.appendingPathComponent(n).path }
        #expect(s.execute("open \(p("top.journal"))") == .ok)
        #expect(s.execute("tag 2 +copy") == .ok)
        #expect(s.execute("save \(p("out/copy.journal"))") == .failed(1))
        #expect(sink.err.contains("top.journal includes sub/sub.journal by a path relative to its own folder"), "\(sink.err)")
        #expect(!FileManager.default.fileExists(atPath: p("out/copy.journal")))
        #expect(s.execute("save \(p("copy.journal"))") == .ok, "\(sink.err)")
        #expect(try read(dir, "copy.journal").hasPrefix("include sub/sub.journal\n"))
        // Named through another path to the same folder, it is beside the original.
        #expect(s.execute("save \(dir.path)/out/../copy2.journal") == .ok, "\(sink.err)")
        let t = Self.session(sink)
        #expect(t.execute("open \(p("abs.journal"))") == .ok)
        #expect(t.execute("save \(p("out/abs.journal"))") == .ok, "\(sink.err)")
    }

    /// An included file changed on disk: the hint does not offer `save OTHER-FILE`, which included files refuse.
    @Test func anIncludedFileChangedOnDiskHasItsOwnHint() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        try write(dir, ["sub.journal": "2024-01-03 SUB SHOP\n    Expenses:Food  2.00 EUR\n    Assets:Checking\n",
                        "top.journal": "include sub.journal\n"])
        let sink = BufferSink()
        let s = Self.session(sink)
        let p = { (n: String) in dir.appendingPathComponent(n).path }
        #expect(s.execute("open \(p("top.journal"))") == .ok)
        #expect(s.execute("tag 1 +x") == .ok)
        try write(dir, ["sub.journal": "2024-01-03 SUB SHOP\n    Expenses:Food  2.00 EUR\n    Assets:Checking\n\n; edited elsewhere\n"])
        #expect(s.execute("save") != .ok)
        #expect(sink.err.contains("sub.journal: changed on disk since it was opened or last saved; not saved"), "\(sink.err)")
        #expect(sink.err.contains("an included file is only saved in place"), "\(sink.err)")
        #expect(!sink.err.contains("save OTHER-FILE"), "\(sink.err)")
    }

    /// A save that rewrites an included file says so (it named only the main file).
    @Test func aSaveNamesTheIncludedFilesItWrote() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("sub"), withIntermediateDirectories: true)
        try write(dir, ["sub/sub.journal": "2024-01-03 SUB SHOP\n    Expenses:Food  2.00 EUR\n    Assets:Checking\n",
                        "top.journal": "include sub/sub.journal\n\n2024-01-04 TOP SHOP\n    Expenses:Food  3.00 EUR\n    Assets:Checking\n"])
        let sink = BufferSink()
        let s = Self.session(sink)
        let top = dir.appendingPathComponent("top.journal").path
        #expect(s.execute("open \(top)") == .ok)
        #expect(s.execute("tag 1,2 +x") == .ok)
        sink.reset()
        #expect(s.execute("save") == .ok)
        #expect((sink.out + sink.err).contains("saved \(top) (2 changed transactions), with the included file sub/sub.journal\n"),
                "\(sink.out)\(sink.err)")
        #expect(s.execute("tag 2 +y") == .ok)
        sink.reset()
        #expect(s.execute("save") == .ok)
        // Only the main file's transaction changed: the included file is not written, nor named.
        #expect((sink.out + sink.err).contains("saved \(top) (1 changed transaction)\n"), "\(sink.out)\(sink.err)")
    }

    @Test func importIsOneUndoStepAndRulesRunOnIt() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let journal = "2025-02-27 STARBUCKS 1234\n    Expenses:Food        4.75 EUR\n    Assets:Checking\n"
        try write(dir, ["2025.journal": journal, "march.csv": "Date,Description,Amount\n2025-03-03,ZALANDO,-19.99\n2025-03-04,SALARY,100.00\n"])
        let sink = BufferSink()
        let s = Self.session(sink)
        let p = { (n: String) in dir.appendingPathComponent(n).path }
        s.execute("open \(p("2025.journal"))")
        s.execute("rule z zalando => +clothes, category Shopping")
        #expect(s.execute("import \(p("march.csv"))") == .failed(1)) // no account yet
        #expect(sink.err.contains("--account"), "\(sink.err)")
        #expect(s.execute("import \(p("march.csv")) --account Assets:Checking") == .ok, "\(sink.err)")
        #expect(s.ledger?.transaction(1).tags == ["clothes"])
        #expect(s.ledger?.transaction(1).category == "Shopping")
        // history counts the two transactions the step added, not only the one the rule annotated.
        #expect(s.steps.last?.transactionCount == 2)
        #expect(s.execute("undo") == .ok)
        #expect(s.ledger?.count == 1)
        #expect(s.execute("redo") == .ok)
        #expect(s.ledger?.count == 3)
        #expect(s.execute("save") == .ok)
        let saved = try read(dir, "2025.journal")
        #expect(saved.contains(journal + "\n2025-03-03 ZALANDO\n"), "\(saved)")
        #expect(saved.contains("    Expenses:Shopping\n"), "\(saved)")
        #expect(saved.contains("    Assets:Checking  100.00 EUR\n    Income:Unknown\n"), "\(saved)")
        // After the save, the import is part of the file: undo stops at it.
        #expect(s.execute("undo") == .failed(1))
        let t = Self.session()
        t.execute("open \(p("2025.journal"))")
        #expect(t.ledger?.count == 3 && !t.hasUnsavedChanges)
        #expect(LedgerState(t).transactions == LedgerState(s).transactions)
    }

    @Test func transfersBetweenTwoCSVsArePaired() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        try write(dir, ["checking.csv": Self.checking, "savings.csv": Self.savings])
        let sink = BufferSink()
        let s = Self.session(sink)
        let p = { (n: String) in dir.appendingPathComponent(n).path }
        s.execute("open \(p("checking.csv")) \(p("savings.csv"))")
        sink.reset()
        #expect(s.execute("transfers") == .ok)
        #expect(sink.out.contains("1    3   4  2025-03-05..03-06"), "\(sink.out)")
        #expect(s.execute("transfers confirm 1") == .ok)
        #expect(s.ledger?.transaction(2).category == "Transfer" && s.ledger?.transaction(3).category == "Transfer")
        #expect(s.steps.last?.replay == "category 3,4 Transfer")
        sink.reset()
        s.execute("transfers")
        #expect(sink.err.contains("no transfers found"), "\(sink.err)")
        s.execute("undo")
        s.execute("transfers")
        s.execute("transfers reject 1")
        sink.reset()
        s.execute("transfers")
        #expect(sink.err.contains("no transfers found"), "\(sink.err)")
    }

    @Test func aRulesFileIsSharedAcrossLedgersAndMonths() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        try write(dir, ["march.csv": Self.checking, "april.csv": Self.checking])
        let p = { (n: String) in dir.appendingPathComponent(n).path }
        let sink = BufferSink()
        let s = Self.session(sink)
        s.rulesFiles = [p("rules.tagsh")]
        s.execute("open \(p("march.csv"))")
        sink.reset()
        s.execute("rule coffee starbucks => +coffee")
        #expect(sink.err.contains("defined rule coffee (kept in \(p("rules.tagsh")) at `save`)"), "\(sink.err)")
        s.execute("apply coffee")
        #expect(s.execute("save") == .ok, "\(sink.err)")
        #expect(try read(dir, "rules.tagsh").contains("rule coffee starbucks => +coffee"))
        #expect(!FileManager.default.fileExists(atPath: p("march.csv.tagsh")))
        // April's session has March's rule.
        let t = Self.session()
        t.rulesFiles = [p("rules.tagsh")]
        t.execute("open \(p("april.csv"))")
        #expect(t.rules.map(\.name) == ["coffee"] && !t.hasUnsavedChanges)
        // A sidecar that includes the rules file needs no --rules.
        try "include \(p("rules.tagsh"))\n".write(toFile: p("april.csv.tagsh"), atomically: true, encoding: .utf8)
        let u = Self.session()
        u.execute("open \(p("april.csv"))")
        #expect(u.rules.map(\.name) == ["coffee"])
        u.execute("rule delete coffee")
        u.execute("save")
        #expect(try !read(dir, "rules.tagsh").contains("rule coffee"))
        #expect(try read(dir, "april.csv.tagsh") == "include \(p("rules.tagsh"))\n")
    }
}

/// Two overlapping monthly exports imported in either order give the same ledger: no duplicates, nothing lost.
struct ImportOrderPropertyTests {
    struct Row: Hashable, Comparable {
        var day: Int, desc: String, cents: Int
        static func < (a: Row, b: Row) -> Bool { (a.day, a.desc, a.cents) < (b.day, b.desc, b.cents) }
    }

    static func csv(_ rows: [Row]) -> String {
        "Date,Description,Amount\n" + rows.map { r in
            let d = Day(daysSinceEpoch: Int32(20_000 + r.day)).description
            let amount = Amount(units: Int64(r.cents), scale: 2).description
            return "\(d),\(r.desc),\(amount)\n"
        }.joined()
    }

    @Test(arguments: 0..<40)
    func eitherOrderGivesTheSameLedger(seed: Int) throws {
        var rng = SplitMix(seed: UInt64(seed) &+ 7)
        // The bank's truth: a month of transactions, with repeated identical rows (two coffees on one day).
        let merchants = ["STARBUCKS 1234", "REWE MARKT", "SHELL 22", "AMAZON MKTPLACE", "RENT"]
        var truth: [Row] = []
        for day in 0..<40 {
            for _ in 0..<Int(rng.next() % 3) {
                let m = merchants[Int(rng.next() % UInt64(merchants.count))]
                let cents: Int = 0 - [475, 1210, 5000, 999][Int(rng.next() % 4)]
                let n = 1 + Int(rng.next() % 2)
                for _ in 0..<n { truth.append(Row(day: day, desc: m, cents: cents)) }
            }
        }
        truth.sort()
        // Two exports covering overlapping day ranges, each holding every truth row of its range.
        let cut1 = 10 + Int(rng.next() % 15), cut2 = cut1 + 1 + Int(rng.next() % 10)
        let a = truth.filter { $0.day < cut2 }, b = truth.filter { $0.day >= cut1 }
        let expected = truth.filter { $0.day < cut2 || $0.day >= cut1 }
        let dir = try MonthlyLoopTests.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let p = { (n: String) in dir.appendingPathComponent(n).path }
        try Self.csv([]).write(toFile: p("ab.csv"), atomically: true, encoding: .utf8)
        try Self.csv([]).write(toFile: p("ba.csv"), atomically: true, encoding: .utf8)
        try Self.csv(a).write(toFile: p("a-export.csv"), atomically: true, encoding: .utf8)
        try Self.csv(b).write(toFile: p("b-export.csv"), atomically: true, encoding: .utf8)
        var results: [[Row]] = []
        for (ledger, order) in [("ab.csv", ["a-export.csv", "b-export.csv"]), ("ba.csv", ["b-export.csv", "a-export.csv"])] {
            let sink = BufferSink()
            let s = MonthlyLoopTests.session(sink)
            s.sourcesSidecar = false
            #expect(s.execute("open \(p(ledger))") == .ok)
            for e in order { #expect(s.execute("import \(p(e))") == .ok, "\(sink.err)") }
            // Importing either again adds nothing.
            for e in order { s.execute("import \(p(e))") }
            #expect(s.execute("save") == .ok, "\(sink.err)")
            let t = MonthlyLoopTests.session()
            t.sourcesSidecar = false
            t.execute("open \(p(ledger))")
            let l = try #require(t.ledger)
            results.append((0..<l.count).map {
                Row(day: Int(l.days[$0]) - 20_000, desc: l.merchants[l.merchant[$0]], cents: Int(l.amount($0).units(atScale: 2)))
            }.sorted())
        }
        #expect(results[0] == expected, "seed \(seed): a then b")
        #expect(results[1] == expected, "seed \(seed): b then a")
    }
}

extension MonthlyLoopTests {
    @Test func importReviewOpensReviewOnTheNewTransactions() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        try write(dir, ["bank.csv": Self.checking, "next.csv": "Date,Description,Amount\n2025-03-09,BOOK SHOP,-15.00\n2025-03-10,CINEMA,-11.00\n"])
        let sink = BufferSink()
        let s = Self.session(sink)
        let p = { (n: String) in dir.appendingPathComponent(n).path }
        s.execute("open \(p("bank.csv"))")
        // The keys: intent culture on the first new transaction, then leave.
        s.console = ScriptedConsole("c q")
        #expect(s.execute("import \(p("next.csv")) --review") == .ok, "\(sink.err)")
        #expect(s.ledger?.count == 5)
        #expect(s.ledger?.transaction(3).intent == .culture, "\(sink.out)")
        #expect(s.ledger?.transaction(4).intent == nil)
        #expect(s.steps.map(\.command).last == "intent 4 culture")
    }
}

extension MonthlyLoopTests {
    /// The text an import appends, in each format's own style: a golden comparison per format.
    @Test(arguments: [
        ("ledger.beancount", """
            option "operating_currency" "EUR"
            2024-01-01 open Assets:Bank EUR
            2024-01-01 open Expenses:Food

            2024-01-02 * "CAFE"
              Expenses:Food  3.00 EUR
              Assets:Bank

            """, """

            2024-01-09 open Expenses:Unknown
            2024-01-09 open Income:Unknown

            2024-01-09 * "BAKERY \\"NORD\\""
              Assets:Bank  -2.40 EUR
              Expenses:Unknown

            2024-01-10 * "REFUND"
              Assets:Bank  5.00 EUR
              Income:Unknown

            """),
        ("ledger.journal", """
            2024/01/02 CAFE
              Expenses:Food   €3.00
              Assets:Bank
            """, """


            2024/01/09 BAKERY "NORD"
              Assets:Bank  -€2.40
              Expenses:Unknown

            2024/01/10 REFUND
              Assets:Bank  €5.00
              Income:Unknown

            """),
        ("comma.journal", """
            commodity EUR
                format 1.000,00 EUR

            2024-01-02 CAFE
                Expenses:Food  3,00 EUR
                Assets:Bank
            """, """


            2024-01-09 BAKERY "NORD"
                Assets:Bank  -2,40 EUR
                Expenses:Unknown

            2024-01-10 REFUND
                Assets:Bank  5,00 EUR
                Income:Unknown

            """),
        ("ledger.csv", "Date;Text;Betrag\n02.01.2024;CAFE;-3,00\n", "09.01.2024;\"BAKERY \"\"NORD\"\"\";-2,40\n10.01.2024;REFUND;5,00\n"),
    ])
    func importAppendsInTheFilesOwnStyle(name: String, original: String, appended: String) throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        try write(dir, [name: original, "export.csv": "Date,Description,Amount\n2024-01-02,CAFE,-3.00\n2024-01-09,\"BAKERY \"\"NORD\"\"\",-2.40\n2024-01-10,REFUND,5.00\n"])
        let sink = BufferSink()
        let s = Self.session(sink)
        s.sourcesSidecar = false
        let p = { (n: String) in dir.appendingPathComponent(n).path }
        #expect(s.execute("open \(p(name))") == .ok, "\(sink.err)")
        #expect(s.execute("import \(p("export.csv")) --account Assets:Bank") == .ok, "\(sink.err)")
        #expect(sink.err.contains("imported 2 transactions"), "\(sink.err)")
        #expect(s.execute("save") == .ok, "\(sink.err)")
        #expect(try read(dir, name) == original + appended)
    }
}
