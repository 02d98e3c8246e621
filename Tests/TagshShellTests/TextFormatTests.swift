import Foundation
import Testing
@testable import TagshFormats
import TagshModel
@testable import TagshShell

/// Journals and beancount files through the session: byte-identical when
/// unchanged, golden files after a fixed set of edits, includes, refusals.
struct TextFormatTests {
    func run(_ file: String, extra: [String] = [], _ commands: [String]) throws -> (dir: URL, sink: BufferSink, session: Session) {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("tagsh-text-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        for f in [file] + extra {
            try FileManager.default.copyItem(at: fixtureFolder.appendingPathComponent(f), to: dir.appendingPathComponent(f))
        }
        let sink = BufferSink()
        let session = Session(sink: sink)
        session.sourcesSidecar = false
        session.execute("open \(dir.appendingPathComponent(file).path)")
        for c in commands { session.execute(c) }
        return (dir, sink, session)
    }

    func bytes(_ url: URL) throws -> Data { try Data(contentsOf: url) }

    @Test(arguments: ["edge.journal", "edge.beancount", "main.journal"])
    func unchangedSaveIsByteIdentical(_ name: String) throws {
        let (dir, sink, _) = try run(name, extra: name == "main.journal" ? ["included.journal"] : [], ["save"])
        defer { try? FileManager.default.removeItem(at: dir) }
        #expect(sink.err.contains("saved"), "\(sink.err)")
        #expect(try bytes(dir.appendingPathComponent(name)) == bytes(fixtureFolder.appendingPathComponent(name)))
    }

    @Test func journalReadsTagsIntentNoteAndCategory() throws {
        let (dir, _, session) = try run("edge.journal", [])
        defer { try? FileManager.default.removeItem(at: dir) }
        let l = try #require(session.ledger)
        #expect(l.count == 7)
        let starbucks = l.transaction(1)
        #expect(starbucks.merchant == "STARBUCKS 1234")
        #expect(starbucks.tags == ["coffee", "place:downtown"])
        #expect(starbucks.category == "Food:Coffee")
        #expect(starbucks.amount == Amount(units: -475, scale: 2))
        #expect(starbucks.account == "Assets:Checking")
        #expect(l.transaction(3).tags == ["groceries", "cash"], "ledger-style :a:b: tags")
        #expect(l.transaction(6).intent == .culture)
        #expect(l.transaction(6).note == "a gift for Anna")
        #expect(l.transaction(4).category == "Salary")
        #expect(l.categoryRefusal(3) != nil, "three postings: no single category")
        #expect(l.categoryRefusal(5) != nil, "no expense or income posting")
        #expect(l.categoryRefusal(1) == nil)
    }

    @Test func beancountReadsTagsMetadataAndPushtag() throws {
        let (dir, _, session) = try run("edge.beancount", [])
        defer { try? FileManager.default.removeItem(at: dir) }
        let l = try #require(session.ledger)
        #expect(l.count == 5)
        #expect(l.transaction(0).merchant == "STARBUCKS 1234")
        #expect(l.transaction(0).tags == ["coffee", "morning"])
        #expect(l.transaction(1).intent == .need)
        #expect(l.transaction(3).note == "January, with bonus")
        #expect(l.transaction(4).tags == ["trip"], "from pushtag")
    }

    @Test func journalEditsMatchTheGoldenFile() throws {
        let (dir, sink, _) = try run("edge.journal", [
            "tag all +reviewed", "tag 2 -coffee +trip:paris", "tag 4 -cash", "intent 2-3 need", "note 3 monthly rent",
            "category 2 Food", "category new Dining", "category 7 Dining", "save",
        ])
        defer { try? FileManager.default.removeItem(at: dir) }
        #expect(!sink.err.contains("error"), "\(sink.err)")
        #expect(try bytes(dir.appendingPathComponent("edge.journal")) == bytes(fixtureFolder.appendingPathComponent("edge.after.journal")))
    }

    /// The tag-style transitions: what tagsh adds beside each spelling found in the
    /// wild (scripts/peer-test checks hledger and ledger see the same on this file).
    static let tagStyleCommands = ["tag 1,2 +work", "intent 3 culture", "tag 4 +coffee", "tag 5 -coffee +work",
                                   "note 5 'split, paid; \"later\"'", "tag 6 -groceries +market", "tag 7 +bread",
                                   "note 7 'one; two, three'", "save"]

    @Test func tagStylesMatchTheGoldenFile() throws {
        let (dir, sink, session) = try run("tagstyles.journal", Self.tagStyleCommands)
        defer { try? FileManager.default.removeItem(at: dir) }
        #expect(!sink.err.contains("error"), "\(sink.err)")
        #expect(try bytes(dir.appendingPathComponent("tagstyles.journal")) == bytes(fixtureFolder.appendingPathComponent("tagstyles.after.journal")))
        // Read back, every annotation is what was set.
        session.execute("open \(dir.appendingPathComponent("tagstyles.journal").path)")
        let l = try #require(session.ledger)
        #expect(l.transaction(0).tags == ["coffee", "work"])
        #expect(l.transaction(2).intent == .culture && l.transaction(2).tags == ["date-night"])
        #expect(l.transaction(3).tags == ["coffee"])
        #expect(l.transaction(4).tags == ["trip:paris", "work"] && l.transaction(4).note == #"split, paid; "later""#)
        #expect(l.transaction(5).tags == ["market"])
        #expect(l.transaction(6).note == "one; two, three")
        // Taking everything off again gives back the original bytes.
        for c in ["tag 1,2 -work", "intent 3 none", "tag 4 -coffee", "tag 5 +coffee -work", "note 5 ''", "tag 6 +groceries -market",
                  "tag 7 -bread", "note 7 ''", "save"] { session.execute(c) }
        let back = String(decoding: try bytes(dir.appendingPathComponent("tagstyles.journal")), as: UTF8.self)
        let original = String(decoding: try bytes(fixtureFolder.appendingPathComponent("tagstyles.journal")), as: UTF8.self)
        // Two tags differ by design: a tag put back is spelled the way both tools read it.
        let expected = original
            .replacingOccurrences(of: "2024-03-05 Trip lunch  ; coffee:, trip:paris\n", with: "2024-03-05 Trip lunch  ; trip:paris\n    ; coffee:\n")
            .replacingOccurrences(of: "    ; :groceries:\n", with: "    ; groceries:\n")
        #expect(back == expected)
    }

    /// A changed note or intent is edited where it stands, in the file's spelling, when it is alone in its comment;
    /// undone in a second session, the file is byte-identical (ledger's tests write `; Note: ...`).
    @Test func aChangedNoteIsEditedInPlace() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("tagsh-note-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let original = "2024-01-01 Test\n    ; Note: some note value\n    ; intent:need\n    ; :a:\n    Expenses:Food  $10\n    Assets:Cash\n"
        let file = dir.appendingPathComponent("n.journal")
        try original.write(to: file, atomically: true, encoding: .utf8)
        let sink = BufferSink()
        let session = Session(sink: sink)
        session.execute("open \(file.path)")
        for c in ["note 1 'new, with; marks'", "intent 1 want", "save"] { session.execute(c) }
        #expect(try String(contentsOf: file, encoding: .utf8)
                == "2024-01-01 Test\n    ; Note: new, with; marks\n    ; intent:want\n    ; :a:\n    Expenses:Food  $10\n    Assets:Cash\n")
        let second = Session(sink: sink)
        second.execute("open \(file.path)")
        second.execute("undo 2")
        second.execute("save")
        #expect(try String(contentsOf: file, encoding: .utf8) == original, "\(sink.err)")
    }

    @Test func beancountEditsMatchTheGoldenFile() throws {
        let (dir, sink, _) = try run("edge.beancount", [
            "tag all +reviewed", "tag 1 -morning +trip-paris", "intent 1,4 want", "intent 2 none",
            "note 1 \"said \\\"hi\\\", twice\"", "note 4 \"\"", "category 1 Food", "category new Dining", "category 2 Dining", "save",
        ])
        defer { try? FileManager.default.removeItem(at: dir) }
        #expect(!sink.err.contains("error"), "\(sink.err)")
        #expect(try bytes(dir.appendingPathComponent("edge.beancount")) == bytes(fixtureFolder.appendingPathComponent("edge.after.beancount")))
    }

    /// The golden edits on the same files with CRLF line ends: each rewritten block's lines are joined with CRLF
    /// again (the writer joins them as bytes), and the result is the golden file with CRLF line ends.
    @Test(arguments: [
        ("edge.journal", "edge.after.journal", ["tag all +reviewed", "tag 2 -coffee +trip:paris", "tag 4 -cash", "intent 2-3 need",
                                                "note 3 monthly rent", "category 2 Food", "category new Dining", "category 7 Dining"]),
        ("edge.beancount", "edge.after.beancount", ["tag all +reviewed", "tag 1 -morning +trip-paris", "intent 1,4 want", "intent 2 none",
                                                    "note 1 \"said \\\"hi\\\", twice\"", "note 4 \"\"", "category 1 Food",
                                                    "category new Dining", "category 2 Dining"]),
    ])
    func crlfEditsMatchTheGoldenFile(_ name: String, _ golden: String, _ commands: [String]) throws {
        func crlf(_ data: Data) -> Data {
            Data(String(decoding: data, as: UTF8.self).replacingOccurrences(of: "\n", with: "\r\n").utf8)
        }
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("tagsh-crlf-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent(name)
        try crlf(bytes(fixtureFolder.appendingPathComponent(name))).write(to: file)
        let sink = BufferSink()
        let session = Session(sink: sink)
        session.sourcesSidecar = false
        session.execute("open \(file.path)")
        for c in commands + ["save"] { session.execute(c) }
        #expect(!sink.err.contains("error"), "\(sink.err)")
        let saved = String(decoding: try bytes(file), as: UTF8.self)
        let expected = String(decoding: crlf(try bytes(fixtureFolder.appendingPathComponent(golden))), as: UTF8.self)
        #expect(saved == expected)
    }

    @Test func aChangeIsSavedIntoTheFileItCameFrom() throws {
        let (dir, sink, session) = try run("main.journal", extra: ["included.journal"], [])
        defer { try? FileManager.default.removeItem(at: dir) }
        #expect(session.ledger?.transaction(0).merchant == "Included shop")
        session.execute("tag 1 +from-include")
        session.execute("save")
        #expect(!sink.err.contains("error"), "\(sink.err)")
        let included = String(decoding: try bytes(dir.appendingPathComponent("included.journal")), as: UTF8.self)
        #expect(included.contains("2024-01-15 Included shop\n    ; from-include:\n    Expenses:Food"))
        #expect(try bytes(dir.appendingPathComponent("main.journal")) == bytes(fixtureFolder.appendingPathComponent("main.journal")))
        #expect(FileManager.default.fileExists(atPath: dir.appendingPathComponent("included.journal.bak").path))
    }

    @Test func refusals() throws {
        // A category on a transaction with three postings is refused when it is set, not at save.
        let (dir, sink, session) = try run("edge.journal", ["category 4 Food"])
        defer { try? FileManager.default.removeItem(at: dir) }
        #expect(sink.err.contains("transaction 4 has more than two postings"))
        #expect(session.steps.isEmpty)
        // Beancount cannot spell a tag with ':': the command is refused when it runs, and names it.
        let (dir2, sink2, session2) = try run("edge.beancount", ["tag 1 +trip:paris"])
        defer { try? FileManager.default.removeItem(at: dir2) }
        #expect(sink2.err.contains("beancount cannot spell the tag 'trip:paris'"), "\(sink2.err)")
        #expect(session2.steps.isEmpty)
        // Nor an account with no part below Expenses (category none).
        sink2.reset()
        #expect(session2.execute("category 1 none") != .ok)
        #expect(sink2.err.contains("beancount needs an account below Expenses or Income, so its category cannot be none"), "\(sink2.err)")
        // Nor taking off a tag a pushtag directive gives.
        sink2.reset()
        #expect(session2.execute("tag 5 -trip") != .ok)
        #expect(sink2.err.contains("the tag 'trip' comes from a pushtag directive; remove it there"), "\(sink2.err)")
        #expect(session2.steps.isEmpty)
        #expect(session2.execute("save") == .ok)
        #expect(try bytes(dir2.appendingPathComponent("edge.beancount")) == bytes(fixtureFolder.appendingPathComponent("edge.beancount")))
        // Nor a category whose name is no beancount account (a part starting in lower case), however many
        // transactions take it: checked once per category, on all of them.
        sink2.reset()
        #expect(session2.execute("category new coffee-runs") == .ok, "\(sink2.err)")
        let stepsBefore = session2.steps.count
        sink2.reset()
        #expect(session2.execute("category 1,2 coffee-runs") != .ok)
        #expect(sink2.err.contains("category 'coffee-runs' cannot be a beancount account name"), "\(sink2.err)")
        #expect(session2.steps.count == stepsBefore)
    }

    /// A note of any text (commas, semicolons, quotes) is written where ledger reads it whole, and reads back the same.
    @Test(arguments: ["edge.journal", "edge.beancount"])
    func notesOfAnyTextRoundTrip(_ name: String) throws {
        let text = #"paid half, rest later; ask "Sam": 12:30"#
        let (dir, sink, session) = try run(name, ["note 2 '\(text)'", "save"])
        defer { try? FileManager.default.removeItem(at: dir) }
        #expect(!sink.err.contains("error"), "\(sink.err)")
        session.execute("open \(dir.appendingPathComponent(name).path)")
        #expect(session.ledger?.transaction(1).note == text)
    }

    /// Saving twice in one session (the second save works on offsets shifted
    /// by the first) gives the same bytes as reopening the file between the saves.
    @Test(arguments: [("edge.journal", "Dining"), ("edge.beancount", "Dining"), ("main.journal", "Dining")])
    func secondSaveEditsTheRightBytes(_ name: String, _ category: String) throws {
        let extra = name == "main.journal" ? ["included.journal"] : []
        let first = ["tag 2 +alpha", "intent 1 want", "note 2 first"]
        let second = ["tag 1 +beta", "tag 2 -alpha +gamma", "category new \(category)", "category 2 \(category)", "note 2 second"]
        let (twice, s1, _) = try run(name, extra: extra, first + ["save"] + second + ["save"])
        let (once, s2, fresh) = try run(name, extra: extra, first + ["save"])
        fresh.execute("open \(once.appendingPathComponent(name).path)")
        for c in second + ["save"] { fresh.execute(c) }
        defer { try? FileManager.default.removeItem(at: twice); try? FileManager.default.removeItem(at: once) }
        #expect(!s1.err.contains("error") && !s2.err.contains("error"), "\(s1.err)\n\(s2.err)")
        for f in [name] + extra {
            #expect(try bytes(twice.appendingPathComponent(f)) == bytes(once.appendingPathComponent(f)), "\(f)")
        }
        // And the file reads back with the annotations of both steps.
        let reopened = Session(sink: BufferSink())
        reopened.sourcesSidecar = false
        reopened.execute("open \(twice.appendingPathComponent(name).path)")
        let t = try #require(reopened.ledger?.transaction(1))
        #expect(t.tags.contains("gamma") && !t.tags.contains("alpha"))
        #expect(t.note == "second")
        #expect(t.category == category)
    }

    @Test func includeCyclesAreRefused() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("tagsh-cycle-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        try "include b.journal\n".write(to: dir.appendingPathComponent("a.journal"), atomically: true, encoding: .utf8)
        try "include a.journal\n".write(to: dir.appendingPathComponent("b.journal"), atomically: true, encoding: .utf8)
        let sink = BufferSink()
        let session = Session(sink: sink)
        #expect(session.execute("open \(dir.appendingPathComponent("a.journal").path)") == .failed(65))
        #expect(sink.err.contains("include cycle"))
    }

    /// Timeclock lines (ledger's regression suite has 40 files of them: found by `scripts/wild-check`) are hours,
    /// not money: they are kept as they are, left out of the transactions, and `open` and `info` say so. (A line
    /// that only starts with `i` or `o`, an `include` or an `o` without a date, is not one.)
    /// An `alias` line that defines nothing tagsh reads (no `=`, a regex that does not compile) is kept as it is and
    /// not applied, and `open` and `info` say where it is.
    @Test func anAliasNotReadIsKeptAndSaid() throws {
        let text = "alias food = Expenses:Food\nalias /(unclosed/ = Expenses:X\nalias nothing\n\n"
            + "2013/04/04 Coffee\n    food   3.00 EUR\n    Assets:Cash\n"
        let (s, sink, path, status) = try SmallLedgers.opened("al.ledger", text)
        #expect(status == .ok, "\(sink.err)")
        #expect(s.ledger.map { $0.transaction(0).category } == "Food")
        #expect(sink.err.contains("al.ledger: line 2: `alias /(unclosed/ = Expenses:X` is not an alias tagsh reads"), "\(sink.err)")
        #expect(sink.err.contains("al.ledger: line 3: `alias nothing` is not an alias tagsh reads"), "\(sink.err)")
        sink.reset()
        s.execute("info")
        #expect(sink.out.contains("line 2: `alias /(unclosed/"), "\(sink.out)")
        #expect(s.execute("tag all +x") == .ok && s.execute("save") == .ok)
        #expect(try String(contentsOfFile: path, encoding: .utf8).hasPrefix("alias food = Expenses:Food\nalias /(unclosed/ = Expenses:X\nalias nothing\n"))
    }

    @Test func timeclockLinesAreKeptAndSaid() throws {
        let text = "2013/04/04 Coffee\n    Expenses:Food   3.00 EUR\n    Assets:Cash\n\n"
            + "i 2013/04/05 09:30:00 Internal:Meeting\no 2013/04/05 10:00:00\nI\t2013/04/06 09:00:00 A\nO 2013/04/06 10:00:00\n"
            + "2013/04/07 Lunch\n    Expenses:Food   9.00 EUR\n    Assets:Cash\n; i 2013/04/05 not a line of its own\n"
        let (s, sink, path, status) = try SmallLedgers.opened("tl.ledger", text)
        #expect(status == .ok, "\(sink.err)")
        #expect(s.ledger?.count == 2)
        #expect(sink.err.contains("tl.ledger: 4 timeclock lines (i/o) kept as they are: ledger makes each check-in and its check-out "
                                  + "a transaction of hours, tagsh leaves them out"), "\(sink.err)")
        sink.reset()
        s.execute("info")
        #expect(sink.out.contains("note          4 timeclock lines"), "\(sink.out)")
        #expect(s.execute("tag all +x") == .ok && s.execute("save") == .ok)
        let saved = try String(contentsOfFile: path, encoding: .utf8)
        #expect(saved.contains("i 2013/04/05 09:30:00 Internal:Meeting\no 2013/04/05 10:00:00\nI\t2013/04/06 09:00:00 A\nO 2013/04/06 10:00:00\n"))
        for line in ["i 2013/04/05", "o 2013/04/05 10:00:00", "O 2013", "I\t2013"] { #expect(JournalFormat.isTimeclock(line), "\(line)") }
        for line in ["include x.journal", "o", "i x", "input 2013", "io 2013/01/01", "o  ", "O"] { #expect(!JournalFormat.isTimeclock(line), "\(line)") }
    }
}
