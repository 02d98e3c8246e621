import Testing
import TagshModel
@testable import TagshFormats

/// A large journal or beancount file is read in two halves at once (`TextReader.readInHalves`); whatever the
/// file holds around the split (a `comment` block, a year directive, a pushed tag, an include, an error), the
/// result must be what reading it on one core gives, or the same error.
struct TextParallelReadTests {
    /// From how many bytes these tests read a file on two cores (`ReadOptions.parallelFrom`): the split is the same
    /// at any size, and files of 6 MB, past the 4 MB the shell reads them from, took a debug build two minutes.
    static let threshold = 1 << 18

    /// About `threshold` × 1.5 of transactions, with `special` text placed at `fraction` of them.
    static func file(prologue: String = "", special: [String] = [], at fraction: Double = 0.5,
                     block: (Int) -> String) -> [UInt8] {
        var blocks: [String] = []
        var size = 0, i = 0
        while size < threshold * 3 / 2 {
            let b = block(i)
            blocks.append(b)
            size += b.utf8.count + 1
            i += 1
        }
        blocks.insert(contentsOf: special, at: Int(Double(blocks.count) * fraction))
        return Array((prologue + blocks.joined(separator: "\n")).utf8)
    }

    static let payees = ["STARBUCKS 1234", "REWE", "Café Zoë", "UBER *TRIP", "AMAZON MKTPLACE"]
    static let categories = ["Food:Coffee", "Groceries", "Transport:Taxi", "Shopping"]

    static func date(_ i: Int) -> String { "2024-\(1 + i % 12 < 10 ? "0" : "")\(1 + i % 12)-\(10 + i % 18)" }

    static func journal(_ i: Int, date: (Int) -> String = date) -> String {
        let comment = [" ; coffee:", " ; trip:paris, intent: want", "", " ; note: paid late"][i % 4]
        let extra = i % 9 == 0 ? "    Assets:Cash  -1.00 EUR\n" : ""
        return "\(date(i)) \(payees[i % 5])\(comment)\n    Expenses:\(categories[i % 4])  \(i % 97).\(10 + i % 89) EUR\n"
            + extra + "    Assets:Checking\n"
    }

    /// A journal transaction whose amount has one comma and three digits after it: `1,234 EUR` is 1234 unless a
    /// decimal comma is declared, then 1.234.
    static func commaJournal(_ i: Int) -> String {
        "\(date(i)) \(payees[i % 5])\n    Expenses:\(categories[i % 4])  \(i % 97),\(100 + i % 899) EUR\n    Assets:Checking\n"
    }

    static func beancount(_ i: Int) -> String {
        let tags = ["", " #coffee", " #trip-paris #work", ""][i % 4]
        let meta = i % 7 == 0 ? "  intent: \"want\"\n" : ""
        return "\(date(i)) * \"\(payees[i % 5])\" \"\"\(tags)\n\(meta)  Expenses:\(categories[i % 4])  \(i % 97).\(10 + i % 89) EUR\n"
            + "  Assets:Checking  -\(i % 97).\(10 + i % 89) EUR\n"
    }

    static let others: [String: [UInt8]] = [
        "/ledgers/other.journal": Array("2023-01-05 INCLUDED\n    Expenses:Fees  2.00 EUR\n    Assets:Checking\n".utf8),
        "/ledgers/aliases.journal": Array("alias Expenses:Shopping = Expenses:Gifts\n\n2023-01-06 INSIDE\n    Expenses:Shopping  2.00 EUR\n    Assets:Checking\n".utf8),
    ]

    static func read(_ bytes: [UInt8], format: LedgerFormat, parallel: Bool) -> Result<LoadedLedger, Diagnostic> {
        var options = ReadOptions()
        options.readsInParallel = parallel
        options.parallelFrom = threshold
        do throws(Diagnostic) {
            return .success(try LedgerDocument.read(bytes, fileName: "/ledgers/big.\(format)", format: format, options: options) {
                path throws(FileError) in
                guard let b = others[path] else { throw FileError(path: path, kind: .notFound, whileWriting: false) }
                return (b, FileStamp(device: 0, inode: 0, size: Int64(b.count), modified: 0, modifiedNanos: 0, mode: 0o100644))
            })
        } catch {
            return .failure(error)
        }
    }

    static let cases: [(String, LedgerFormat, [UInt8])] = [
        ("a plain journal", .journal, file { journal($0) }),
        // Lines inside a comment block that read as transactions when read from the split.
        ("a comment block over the split", .journal,
         file(special: ["comment\n" + (0..<300).map { journal($0) }.joined(separator: "\n") + "end comment\n"]) { journal($0) }),
        // A year in force at the split: year-less dates after it take it.
        ("a year directive before the split", .journal,
         file(special: ["Y 2019\n"], at: 0.3) { journal($0, date: { i in "\(1 + i % 12)/\(1 + i % 28)" }) }),
        ("a year directive after the split", .journal,
         file(special: ["year 2019\n"], at: 0.7) { journal($0, date: { i in i % 2 == 0 ? "\(1 + i % 12)-\(1 + i % 28)" : date(i) }) }),
        ("an account declared after the split", .journal,
         file(prologue: "account Assets:Checking\n\n", special: ["account Expenses:Late\n"], at: 0.8) { journal($0) }),
        ("an include after the split", .journal, file(special: ["include other.journal\n"], at: 0.75) { journal($0) }),
        ("ledger-style tags after the split", .journal,
         file(special: (0..<50).map { _ in "2024-02-02 TAGGED ; :a:b:\n    Expenses:Fees  1.00 EUR\n    Assets:Checking\n" }, at: 0.9) { journal($0) }),
        ("a bad date after the split (an error)", .journal, file(special: ["2024-13-45 BAD\n    Expenses:Fees  1 EUR\n    Assets:Checking\n"], at: 0.8) { journal($0) }),
        ("a bad amount before the split (an error)", .journal, file(special: ["2024-01-02 BAD\n    Expenses:Fees  1..2 EUR\n    Assets:Checking\n"], at: 0.2) { journal($0) }),
        ("a plain beancount file", .beancount,
         file(prologue: "option \"operating_currency\" \"EUR\"\n2000-01-01 open Assets:Checking\n\n") { beancount($0) }),
        ("a tag pushed over the split", .beancount, file(special: ["pushtag #holiday\n"], at: 0.4) { beancount($0) }),
        ("a tag pushed and popped after the split", .beancount,
         file(special: ["pushtag #holiday\n", "2024-03-03 * \"PUSHED\" \"\"\n  Expenses:Fees  1.00 EUR\n  Assets:Checking\n", "poptag #holiday\n"], at: 0.7) {
             beancount($0)
         }),
        ("an open directive after the split", .beancount,
         file(prologue: "2000-01-01 open Assets:Checking\n\n", special: ["2001-01-01 open Expenses:Late\n"], at: 0.8) { beancount($0) }),
        // Decimal marks declared: before the transactions (both halves read with them), after the split (the second
        // half reads its later lines with it), and between transactions before the split (read on one core).
        ("a decimal comma declared before the transactions", .journal,
         file(prologue: "commodity EUR\r\n    format 1.000,00 EUR\r\n\r\n") { commaJournal($0) }),
        ("a decimal comma declared after the split", .journal, file(special: ["decimal-mark ,\n"], at: 0.7) { commaJournal($0) }),
        ("a decimal comma declared before the split", .journal, file(special: ["commodity 1.000,00 EUR\n"], at: 0.3) { commaJournal($0) }),
        // Aliases: in force at the split (read on one core from there), defined after it, ended before it, and
        // defined in an included file (in force to its end only).
        ("an alias before the split", .journal, file(special: ["alias Expenses:Shopping = Expenses:Gifts\n"], at: 0.3) { journal($0) }),
        ("an alias after the split", .journal, file(special: ["alias Expenses:Shopping = Expenses:Gifts\n"], at: 0.7) { journal($0) }),
        ("aliases ended before the split", .journal,
         file(prologue: "alias Expenses:Shopping = Expenses:Gifts\n\n", special: ["end aliases\n"], at: 0.3) { journal($0) }),
        ("an alias in an included file", .journal, file(special: ["include aliases.journal\n"], at: 0.3) { journal($0) }),
        // A balance assignment after the split: the whole file is read again, keeping every account's balance.
        ("a balance assignment after the split", .journal,
         file(special: ["2024-02-02 RECONCILED\n    Assets:Cash  = 0.00 EUR\n    Equity:Adjust\n"], at: 0.8) { journal($0) }),
    ]

    @Test(arguments: cases.map(\.0))
    func twoHalvesReadAsOne(_ name: String) throws {
        let (_, format, bytes) = try #require(Self.cases.first { $0.0 == name })
        #expect(bytes.count > Self.threshold)
        switch (Self.read(bytes, format: format, parallel: false), Self.read(bytes, format: format, parallel: true)) {
        case (.success(let a), .success(let b)):
            let (one, two) = (a.ledger, b.ledger)
            #expect(one.count == two.count)
            #expect((0..<one.count).allSatisfy { one.transaction($0) == two.transaction($0) })
            // Interned in the same order: the same ids, so tag, account and category order and spelling are the same.
            #expect(one.merchant == two.merchant && one.tagSet == two.tagSet && one.category == two.category && one.account == two.account)
            #expect(one.tags.ids.map { one.tags[$0] } == two.tags.ids.map { two.tags[$0] })
            #expect(one.categoryLock == two.categoryLock)
            guard case .text(let l1) = a.document.layout, case .text(let l2) = b.document.layout else {
                Issue.record("not a text layout")
                return
            }
            #expect(l1.rowFile == l2.rowFile && l1.rowStart == l2.rowStart && l1.rowEnd == l2.rowEnd)
            #expect(l1.files.map(\.path) == l2.files.map(\.path))
            #expect(l1.declaredAccounts == l2.declaredAccounts && l1.declarationInsertAt == l2.declarationInsertAt)
            #expect(l1.tagStyle == l2.tagStyle && l1.pushedTags == l2.pushedTags && l1.decimalComma == l2.decimalComma)
            #expect(l1.aliasScopes.map(\.from) == l2.aliasScopes.map(\.from) && l1.aliasScopes.map(\.aliases.rules.count) == l2.aliasScopes.map(\.aliases.rules.count))
        case (.failure(let e1), .failure(let e2)):
            #expect(e1 == e2)
        case (let a, let b):
            Issue.record("one core: \(a), two: \(b)")
        }
    }

    /// The marks declared before the transactions, which the second half starts from, are the ones the first half
    /// reads there, with either line ending (were they not, the second half would be read again on one core).
    @Test(arguments: ["\n", "\r\n"]) func marksBeforeTheTransactionsAreTheFirstHalfs(_ eol: String) throws {
        let head = ["; prices", "commodity EUR", "    format 1.000,00 EUR", "commodity $1,000.00", "decimal-mark ,", "", ""].joined(separator: eol)
        let bytes = Array((head + Self.commaJournal(1)).utf8)
        let marks = bytes.withUnsafeBufferPointer { TextReader.declaredMarks(beforeTransactionsOf: $0) }
        #expect(marks.byCommodity == ["EUR": ",", "$": "."] && marks.all == ",")
        var options = ReadOptions()
        options.readsInParallel = false
        var reader = TextReader(dialect: .journal, options: options) { path throws(FileError) in throw FileError(path: path, kind: .notFound, whileWriting: false) }
        try reader.readFile(bytes, path: "t.journal", stamp: nil)
        #expect(reader.marks == marks)
    }

    /// The cases do what their names say: each special case is read, and the error cases fail.
    @Test func casesCoverWhatTheySay() throws {
        for (name, format, bytes) in Self.cases {
            let result = Self.read(bytes, format: format, parallel: true)
            if name.hasSuffix("(an error)") {
                if case .success = result { Issue.record("\(name): read without an error") }
            } else if case .failure(let e) = result {
                Issue.record("\(name): \(e.message)")
            }
        }
        // A tag pushed before the split reaches rows after it.
        if case .success(let loaded) = Self.read(Self.cases[10].2, format: .beancount, parallel: true) {
            #expect(loaded.ledger.tagNames(loaded.ledger.count - 1).contains("holiday"))
        }
        // Each declaration reads the amounts after it as decimals, and only those.
        for (name, declaredFrom) in [("before the transactions", 0.0), ("after the split", 0.7), ("before the split", 0.3)] {
            let found = Self.cases.first { $0.0 == "a decimal comma declared " + name }
            guard let found, case .success(let loaded) = Self.read(found.2, format: .journal, parallel: true) else {
                Issue.record("no case \(name)")
                continue
            }
            let l = loaded.ledger
            let decimals = (0..<l.count).filter { l.amountScale[$0] == 3 }.count
            let expected = Double(l.count) * (1 - declaredFrom)
            #expect(abs(Double(decimals) - expected) < Double(l.count) * 0.01, "\(name): \(decimals) of \(l.count) read as decimals")
        }
        // Shopping reads as Gifts where an alias is in force, and only there.
        for (name, from, to) in [("an alias before the split", 0.3, 1.0), ("an alias after the split", 0.7, 1.0),
                                 ("aliases ended before the split", 0.0, 0.3), ("an alias in an included file", 0.0, 0.0)] {
            let found = Self.cases.first { $0.0 == name }
            guard let found, case .success(let loaded) = Self.read(found.2, format: .journal, parallel: true) else {
                Issue.record("no case \(name)")
                continue
            }
            let l = loaded.ledger
            let shopping = (0..<l.count).filter { ["Shopping", "Gifts"].contains(l.transaction($0).category) && l.merchants[l.merchant[$0]] != "INSIDE" }
            let gifts = shopping.filter { l.transaction($0).category == "Gifts" }
            let expected = Double(shopping.count) * (to - from)
            #expect(abs(Double(gifts.count) - expected) < Double(shopping.count) * 0.01, "\(name): \(gifts.count) of \(shopping.count) read as Gifts")
            if name.contains("included") {
                #expect((0..<l.count).contains { l.merchants[l.merchant[$0]] == "INSIDE" && l.transaction($0).category == "Gifts" })
            }
        }
        // The assignment's amount brings Assets:Cash back to 0: it is what the rows before it took out (their money side).
        if let found = Self.cases.first(where: { $0.0 == "a balance assignment after the split" }),
           case .success(let loaded) = Self.read(found.2, format: .journal, parallel: true) {
            let l = loaded.ledger
            let row = try #require((0..<l.count).first { l.merchants[l.merchant[$0]] == "RECONCILED" })
            var before = Total()
            for r in 0..<row where l.transaction(r).account == "Assets:Cash" { before.add(l.transaction(r).amount) }
            var after = before
            after.add(l.transaction(row).amount)
            #expect(before != Total() && after == Total(), "\(l.transaction(row).amount) after \(before)")
        } else {
            Issue.record("no assignment case")
        }
        // The included file's transaction is read where the include stands.
        if case .success(let loaded) = Self.read(Self.cases[5].2, format: .journal, parallel: true) {
            #expect((0..<loaded.ledger.count).contains { loaded.ledger.merchants[loaded.ledger.merchant[$0]] == "INCLUDED" })
        }
    }
}

/// A save rewrites many changed blocks in two halves at once (`TextWriter.renderWithLayout`); the bytes must be
/// what rewriting them a few at a time, on one core, gives.
struct TextParallelWriteTests {
    @Test(arguments: [LedgerFormat.journal, .beancount])
    func twoHalvesWriteAsOne(_ format: LedgerFormat) throws {
        let blocks = (0..<5_000).map { format == .journal ? TextParallelReadTests.journal($0) : TextParallelReadTests.beancount($0) }
        let prologue = format == .journal ? "account Assets:Checking\n\n" : "2000-01-01 open Assets:Checking\n\n"
        let bytes = Array((prologue + blocks.joined(separator: "\n")).utf8)
        var loaded = try LedgerDocument.read(bytes, fileName: "many.\(format)", format: format, options: ReadOptions())
        var ledger = loaded.ledger
        let bulk = ledger.internTagSet(["bulk"])
        for row in 0..<ledger.count { ledger.tagSet[row] = bulk }
        // A new category in each half: its account is declared once, where one loop would put it.
        let late = ledger.categories.intern("Late")
        for row in [10, 4_000] { ledger.category[row] = late }
        let all = Array(0..<ledger.count)
        let whole = try loaded.document.renderForSave(ledger, changedRows: all, categoryChanged: [10, 4_000])
        // 1,000 rows at a time stays below the two-core threshold.
        for start in stride(from: 0, to: all.count, by: 1_000) {
            let rows = Array(all[start..<min(all.count, start + 1_000)])
            var part = try loaded.document.renderForSave(ledger, changedRows: rows, categoryChanged: Set([10, 4_000]).intersection(rows))
            let written = part.main.bytes
            let next = part.nextDocument(from: &loaded.document)
            loaded.document = try #require(next)
            // The document the save leaves describes the file it wrote.
            #expect(loaded.document.bytes == written)
        }
        #expect(whole.outputs.count == 1)
        #expect(whole.outputs[0].bytes == loaded.document.bytes)
        let text = String(decoding: whole.outputs[0].bytes, as: UTF8.self)
        // The declaration and the two postings.
        #expect(text.split(separator: "Late", omittingEmptySubsequences: false).count - 1 == 3)
    }
}
