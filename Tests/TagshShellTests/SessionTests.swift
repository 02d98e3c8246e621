import Foundation
import Testing
@testable import TagshShell
import TagshModel
import TagshFormats
import TagshTestSupport

let fixtureFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("TagshFormatsTests/Fixtures")

/// The folder this test run's scratch folders are made in, removed when the run ends: a test that leaves its
/// folder (most of the second-session tests did, by design of their one-line helper) or stops half-way leaves
/// nothing behind. Runs had left some 3,500 folders in /tmp.
let scratchRoot: URL = {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent("tagsh-tests-\(getpid())")
    try? FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
    atexit {
        try? FileManager.default.removeItem(at: FileManager.default.temporaryDirectory.appendingPathComponent("tagsh-tests-\(getpid())"))
    }
    return root
}()

/// A new empty folder in `scratchRoot`.
func scratchFolder(_ prefix: String) throws -> URL {
    let dir = scratchRoot.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    return dir
}

/// A new empty temporary folder, and the path of `name` in it.
func scratchFile(_ name: String, prefix: String) throws -> (folder: URL, file: String) {
    let dir = try scratchFolder(prefix)
    return (dir, dir.appendingPathComponent(name).path)
}

/// A temporary folder holding a copy of a fixture.
func scratchCopy(of name: String) throws -> (folder: URL, file: String) {
    let dir = try scratchFolder("tagsh-session")
    let target = dir.appendingPathComponent(name)
    try FileManager.default.copyItem(at: fixtureFolder.appendingPathComponent(name), to: target)
    return (dir, target.path)
}

struct SaveTests {
    static let variants = ["basic.csv", "crlf.csv", "bom.csv", "german.csv", "tab.tsv", "debit-credit.csv", "quoted.csv",
                           "no-final-newline.csv", "amounts.csv", "preamble.csv", "annotated.csv", "us-dates.csv", "spaces.csv"]

    @Test(arguments: variants)
    func openAndSaveIsByteIdentical(_ name: String) throws {
        let (dir, path) = try scratchCopy(of: name)
        defer { try? FileManager.default.removeItem(at: dir) }
        let original = try Data(contentsOf: URL(fileURLWithPath: path))
        let sink = BufferSink()
        let session = Session(sink: sink)
        #expect(session.execute("open \(path)") == .ok)
        #expect(session.execute("save") == .ok, "\(sink.err)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == original)
        // The original is kept once as FILE.bak.
        #expect(try Data(contentsOf: URL(fileURLWithPath: path + ".bak")) == original)
    }

    /// Records with more fields than the header names (Chase's trailing `,,`, or values): the columns a save adds
    /// go after the widest record, so those fields are neither overwritten nor read back as tagsh's.
    @Test func addedColumnsGoAfterFieldsTheHeaderDoesNotName() throws {
        let (dir, path) = try scratchFile("ragged.csv", prefix: "tagsh-ragged")
        defer { try? FileManager.default.removeItem(at: dir) }
        try Data("Date,Description,Amount\n2024-01-01,Shop A,-1.00,extra1\n2024-01-02,Shop B,-2.00,extra2\n2024-01-03,Shop C,-3.00\n".utf8)
            .write(to: URL(fileURLWithPath: path))
        let sink = BufferSink()
        let session = Session(sink: sink)
        session.execute("open \(path)")
        session.execute("tag 1 +x")
        #expect(session.execute("save") == .ok, "\(sink.err)")
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "Date,Description,Amount,,Intent,Category,Tags,Notes\n"
                + "2024-01-01,Shop A,-1.00,extra1,,,x,\n2024-01-02,Shop B,-2.00,extra2,,,,\n2024-01-03,Shop C,-3.00,,,,,\n")
        // The document read back after the first save places the next one's edits.
        session.execute("tag 2 +y")
        session.execute("intent 3 want")
        #expect(session.execute("save") == .ok, "\(sink.err)")
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "Date,Description,Amount,,Intent,Category,Tags,Notes\n"
                + "2024-01-01,Shop A,-1.00,extra1,,,x,\n2024-01-02,Shop B,-2.00,extra2,,,y,\n2024-01-03,Shop C,-3.00,,want,,,\n")
        let again = Session(sink: BufferSink())
        #expect(again.execute("open \(path)") == .ok)
        #expect(again.ledger?.tagNames(0) == ["x"] && again.ledger?.tagNames(1) == ["y"] && again.ledger?.intentValue(2) == .want)
        #expect(again.ledger?.intentValue(1) == nil)
    }

    /// The real shape: every Chase record ends with an empty field the header does not name.
    @Test func aChaseExportKeepsItsTrailingField() throws {
        let (dir, path) = try scratchFile("chase-checking.csv", prefix: "tagsh-chase")
        defer { try? FileManager.default.removeItem(at: dir) }
        try FileManager.default.copyItem(atPath: fixtureFolder.appendingPathComponent("banks/chase-checking.csv").path, toPath: path)
        let session = Session(sink: BufferSink())
        session.execute("open \(path)")
        session.execute("note 1 lunch")
        #expect(session.execute("save") == .ok)
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
        #expect(lines[0] == "Details,Posting Date,Description,Amount,Type,Balance,Check or Slip #,,Intent,Category,Tags,Notes")
        #expect(lines[1].hasSuffix(",,,,,lunch"))
        let again = Session(sink: BufferSink())
        #expect(again.execute("open \(path)") == .ok)
        #expect(again.ledger.map { $0.notes[$0.note[0]] } == "lunch")
    }

    /// An editor that saved the file unchanged, or a checkout that put it back, changes its time, not its bytes.
    @Test func saveGoesAheadWhenTheFileOnDiskStillHoldsWhatWasRead() throws {
        let (dir, path) = try scratchCopy(of: "basic.csv")
        defer { try? FileManager.default.removeItem(at: dir) }
        let sink = BufferSink()
        let session = Session(sink: sink)
        session.execute("open \(path)")
        session.execute("tag 1 +first")
        #expect(session.execute("save") == .ok)
        let saved = try Data(contentsOf: URL(fileURLWithPath: path))
        // Put back byte for byte under a new inode and time (as `git checkout` or an editor's save does).
        try FileManager.default.removeItem(atPath: path)
        try saved.write(to: URL(fileURLWithPath: path))
        session.execute("tag 2 +second")
        #expect(session.execute("save") == .ok, "\(sink.err)")
        #expect(try String(contentsOfFile: path, encoding: .utf8).contains("second"))
        // A real change is still refused, and named as since the last save; one of the same size too.
        let now = try Data(contentsOf: URL(fileURLWithPath: path))
        var sameSize = now
        sameSize[sameSize.count / 2] = sameSize[sameSize.count / 2] == UInt8(ascii: "x") ? UInt8(ascii: "y") : UInt8(ascii: "x")
        try sameSize.write(to: URL(fileURLWithPath: path))
        session.execute("tag 3 +third")
        #expect(session.execute("save") == .failed(74))
        try (saved + Data("2024-02-01,CHANGED ELSEWHERE,-1.00\n".utf8)).write(to: URL(fileURLWithPath: path))
        session.execute("tag 3 +third")
        #expect(session.execute("save") == .failed(74))
        #expect(sink.err.contains("changed on disk since it was opened or last saved; not saved"))
    }

    @Test func saveRefusesWhenTheFileChangedOnDiskUnlessForced() throws {
        let (dir, path) = try scratchCopy(of: "basic.csv")
        defer { try? FileManager.default.removeItem(at: dir) }
        let sink = BufferSink()
        let session = Session(sink: sink)
        session.execute("open \(path)")
        try Data("Date,Description,Amount\n2024-01-01,CHANGED ELSEWHERE,-1.00\n".utf8).write(to: URL(fileURLWithPath: path))
        #expect(session.execute("save") == .failed(74))
        #expect(sink.err.contains("changed on disk since it was opened or last saved; not saved"))
        #expect(try String(contentsOfFile: path, encoding: .utf8).contains("CHANGED ELSEWHERE"))
        #expect(session.execute("save --force") == .ok)
        #expect(try String(contentsOfFile: path, encoding: .utf8).contains("STARBUCKS"))
    }

    @Test func bakIsWrittenOncePerSession() throws {
        let (dir, path) = try scratchCopy(of: "basic.csv")
        defer { try? FileManager.default.removeItem(at: dir) }
        let session = Session(sink: BufferSink())
        session.execute("open \(path)")
        session.execute("save")
        try Data("not the original".utf8).write(to: URL(fileURLWithPath: path + ".bak"))
        session.execute("save")
        #expect(try String(contentsOfFile: path + ".bak", encoding: .utf8) == "not the original")
    }

    @Test func demoSavesOnlyToANamedFile() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("tagsh-demo-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let sink = BufferSink()
        let session = Session(sink: sink)
        session.openDemo()
        #expect(session.execute("save") == .failed(1))
        #expect(sink.err.contains("use `save FILE`"))
        let target = dir.appendingPathComponent("mine.csv").path
        #expect(session.execute("save \(target)") == .ok)
        #expect(try String(contentsOfFile: target, encoding: .utf8) == DemoLedger.csv)
        #expect(session.prompt == "mine.csv> ")
    }

    @Test func failedOpenKeepsTheCurrentLedger() {
        let session = Session(sink: BufferSink())
        session.openDemo()
        #expect(session.execute("open \(fixtureFolder.path)/bad-date.csv") == .failed(65))
        #expect(session.execute("open /nonexistent.csv") == .failed(66))
        #expect(session.ledger?.count == 542)
        #expect(session.prompt == "demo.csv> ")
    }
}

struct ScriptTests {
    @Test func commentsContinuationsAndOrigins() {
        let sink = BufferSink()
        let session = Session(sink: sink)
        session.openDemo()
        let status = session.runScript("# comment\necho a \\\n  b\n\ncount tag:coffee\nls nope:x\necho never\n", name: "t.tagsh")
        #expect(status == .failed(1))
        #expect(sink.out == "a b\n55\n")
        #expect(sink.err.hasPrefix("t.tagsh:6:4: error: unknown query key 'nope:'"))
    }

    @Test func keepGoingRunsEverythingAndStillFails() {
        let sink = BufferSink()
        let session = Session(sink: sink)
        let status = session.runScript("lol\necho after\n", name: "s", keepGoing: true)
        #expect(status == .failed(1))
        #expect(sink.out == "after\n")
    }

    @Test func quitStopsTheScript() {
        let sink = BufferSink()
        let session = Session(sink: sink)
        #expect(session.runScript("echo 1\nquit\necho 2\n", name: "s") == .quit)
        #expect(sink.out == "1\n")
    }
}

struct SafetyTests {
    @Test func ledgerTextCannotDriveTheTerminal() throws {
        let (dir, path) = try scratchFile("evil.csv", prefix: "tagsh-esc")
        defer { try? FileManager.default.removeItem(at: dir) }
        try Data("Date,Description,Amount,Tags\n2024-01-01,\"EVIL\u{1B}[2J\u{07}SHOP\rX\",-1.00,\"t\u{1B}]0;x\u{07}\"\n".utf8)
            .write(to: URL(fileURLWithPath: path))
        for color in [false, true] {
            let sink = BufferSink()
            let session = Session(sink: sink, colorWhenAuto: color)
            session.execute("open \(path)")
            session.execute("ls")
            session.execute("show 1")
            session.execute("merchants")
            session.execute("tags")
            session.execute("summary by tag")
            #expect(!sink.combined.contains("\u{1B}[2J"))
            #expect(!sink.combined.contains("\u{07}"))
            #expect(!sink.combined.contains("\r"))
            #expect(!sink.combined.contains("\u{1B}]"))
            #expect(sink.out.contains("EVIL^[[2J^GSHOP^MX"))
        }
    }

    @Test(arguments: [("abc", 3), ("日本", 4), ("café", 4), ("👍", 2), ("e\u{301}", 1), ("", 0), ("a b~", 4),
                      ("a\u{7}b", 3), ("x\r\ny", 3), ("\u{7F}", 1)])
    func displayWidth(_ text: String, _ width: Int) {
        #expect(TextSafety.displayWidth(text) == width)
    }

    @Test(arguments: [("abc   ", "abc"), ("  ", ""), ("", ""), ("a b", "a b"), ("日本  ", "日本"), ("e\u{301} ", "e\u{301}"),
                      (" x\t ", " x\t")])
    func trailingSpacesAreTrimmed(_ text: String, _ trimmed: String) {
        #expect(text.trimmingTrailingSpaces() == trimmed)
    }

    @Test func truncationUsesAnEllipsisAndKeepsWidth() {
        #expect(TextSafety.truncate("WHOLE FOODS MARKET", toWidth: 8) == "WHOLE F…")
        #expect(TextSafety.truncate("日本語テキスト", toWidth: 5) == "日本…")
        #expect(TextSafety.truncate("short", toWidth: 8) == "short")
    }

    @Test func tablesFitTheWidth() {
        let session = Session(sink: BufferSink())
        session.openDemo()
        session.settings.width = 60
        let sink = BufferSink()
        let s2 = Session(sink: sink)
        s2.openDemo()
        s2.settings.width = 60
        s2.execute("ls --limit 50")
        for line in sink.out.split(separator: "\n") { #expect(TextSafety.displayWidth(String(line)) <= 60, "\(line)") }
        #expect(sink.out.contains("…"))
    }

    @Test func colourOnlyWhenAsked() {
        let plain = BufferSink()
        let s = Session(sink: plain)
        s.openDemo()
        s.execute("ls --limit 3")
        #expect(!plain.out.contains("\u{1B}["))
        let coloured = BufferSink()
        let c = Session(sink: coloured)
        c.openDemo()
        c.execute("set color always")
        c.execute("ls --limit 3")
        #expect(coloured.out.contains("\u{1B}["))
        c.execute("set color never")
        coloured.reset()
        c.execute("ls --limit 3")
        #expect(!coloured.out.contains("\u{1B}["))
    }
}

struct DocumentationTests {
    static let manPath = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("man/tagsh.1")

    @Test func manPageIsGeneratedFromTheDeclarations() throws {
        let committed = try String(contentsOf: Self.manPath, encoding: .utf8)
        #expect(committed == ManPage.render(), "man/tagsh.1 is stale: run scripts/gen-man")
    }

    @Test(arguments: CommandRegistry.standard.commands.map(\.name))
    func everyCommandIsInTheManPageAndHelp(_ name: String) throws {
        let committed = try String(contentsOf: Self.manPath, encoding: .utf8)
        #expect(committed.contains(".B \(ManPage.roff(name))"))
        let sink = BufferSink()
        let session = Session(sink: sink)
        session.execute("help")
        #expect(sink.out.contains("  \(name) "))
        sink.reset()
        #expect(session.execute("help \(name)") == .ok)
        #expect(sink.out.hasPrefix("usage: \(name)"))
    }

    @Test func everyCommandHasAnExampleThatParses() throws {
        for c in CommandRegistry.standard.commands {
            #expect(!c.examples.isEmpty, "\(c.name) has no example")
            for e in c.examples {
                #expect(CommandRegistry.standard.command(named: String(e.split(separator: " ")[0])) != nil, "\(e)")
            }
        }
    }
}

struct CompletionTests {
    static let data = CompletionData(
        tags: ["coffee", "subscription", "Ausgaben-ä", "Ausgaben-öffentlich", "trip/lisbon", "trip/rome"],
        categories: ["Groceries", "Food", "Coffee", "Gifts, etc", "Housing"],
        customCategories: ["Coffee", "Gifts, etc"],
        merchants: ["STARBUCKS 1234", "WHOLE FOODS MARKET", "Whole Earth", "UBER *TRIP", "MC \"QUOTED\" SHOP", "MC\\B", "MID{X", "SAY \"HI\" NOW"],
        ruleNames: ["coffee-shops", "rent"],
        tagsOfTarget: { $0 == "7" ? ["coffee", "trip/rome"] : nil })

    let completer = Completer(data: { CompletionTests.data }, listDirectory: { folder in
        folder == "." ? [("checking.csv", false), ("cheques", true), (".hidden", false)]
            : folder == "cheques/" ? [("jan.csv", false)] : []
    })

    /// The text before the cursor, marked `|` (what follows it is ignored);
    /// how many characters are replaced; the candidates in order.
    static let table: [(String, Int, [String])] = [
        // command names
        ("sum|", 3, ["summary"]),
        ("su|", 2, ["suggest", "summary"]),
        ("S|", 1, ["save", "select", "set", "show", "source", "suggest", "summary"]),
        ("|", 0, ["apply", "blame", "categories", "category", "chart", "columns", "count", "discard", "echo", "edit", "export", "help",
                  "history", "import", "include", "info", "intent", "intents", "ls", "merchants", "note", "open", "preview", "quit", "record",
                  "recover", "redo", "review", "rule", "rules", "save", "select", "set", "show", "source", "suggest", "summary", "tag", "tags",
                  "transfers", "undo"]),
        // a TARGET query: its first term completes as a query term
        ("tag {tag:co|", 7, ["{tag:coffee"]),
        // and a query in braces where a query goes (`count {tag:coffee}` runs as `count tag:coffee`)
        ("count {tag:co|", 7, ["{tag:coffee"]),
        ("ls {-tag:co|", 8, ["{-tag:coffee"]),
        // rule names
        ("preview co|", 2, ["coffee-shops"]),
        ("apply |", 0, ["coffee-shops", "rent"]),
        ("rule show r|", 1, ["rent"]),
        ("nonsense a|", 0, []),
        // help topics
        ("help qu|", 2, ["query", "quit"]),
        // +tag: every tag, most used first; -tag: the tags the target has
        ("tag 12 +|", 1, ["+coffee", "+subscription", "+Ausgaben-ä", "+Ausgaben-öffentlich", "+trip/lisbon", "+trip/rome"]),
        ("tag 12 +COF|", 4, ["+coffee"]),
        ("tag 12 +aus|", 4, ["+Ausgaben-ä", "+Ausgaben-öffentlich"]),
        // a letter beyond ASCII, typed in the other case, in the name or in what is typed
        ("tag 12 +AUSGABEN-Ö|", 11, ["+Ausgaben-öffentlich"]),
        ("tag 12 +ausgaben-Ä|", 11, ["+Ausgaben-ä"]),
        ("tag 12 +ausgaben-x|", 11, []),
        ("tag 7 +coffee -|", 1, ["-coffee", "-trip/rome"]),
        ("tag 7 -t|", 2, ["-trip/rome"]),
        ("tag 8 -|", 1, []),
        // categories and intents
        ("category 12 g|", 1, ["Groceries", "\"Gifts, etc\""]),
        ("category 12 \"gi|", 3, ["\"Gifts, etc\""]),
        ("category 12 n|", 1, ["none"]),
        ("category de|", 2, ["delete"]),
        ("category delete |", 0, ["Coffee", "\"Gifts, etc\""]),
        ("category delete Gifts --reassign f|", 1, ["Food"]),
        ("intent 12 |", 0, ["need", "want", "culture", "unexpected", "none"]),
        ("intent @ w|", 1, ["want"]),
        // query keys and values
        ("ls da|", 2, ["date:"]),
        ("ls -ta|", 3, ["-tag:"]),
        ("count (ca|", 3, ["(cat:"]),
        ("ls tag:tr|", 6, ["tag:trip/lisbon", "tag:trip/rome"]),
        ("ls tag:n|", 5, ["tag:none"]),
        ("ls cat:g|", 5, ["cat:Groceries", "cat:\"Gifts, etc\""]),
        ("select intent:u|", 8, ["intent:unexpected"]),
        ("ls desc:whole|", 10, ["desc:\"WHOLE FOODS MARKET\"", "desc:\"Whole Earth\""]),
        ("ls desc:\"WHOLE F|", 13, ["desc:\"WHOLE FOODS MARKET\""]),
        ("ls merchant:ub|", 11, ["merchant:\"UBER *TRIP\""]),
        // what is typed is read as the lexer reads it: escapes and quotes undone (completion writes them)
        ("ls desc:STARBUCKS\\ 1|", 17, ["desc:\"STARBUCKS 1234\""]),
        ("ls desc:\"MC \\\"Q|", 12, ["desc:\"MC \\\"QUOTED\\\" SHOP\""]),
        ("ls desc:\"MC\\\\|", 10, ["desc:\"MC\\\\B\""]),
        ("ls desc:\"SAY \\\"HI\\\" N|", 18, ["desc:\"SAY \\\"HI\\\" NOW\""]),
        ("ls desc:'MC \"Q|", 11, ["desc:\"MC \\\"QUOTED\\\" SHOP\""]),
        // braces are quoted: a word with a brace outside quotes would be a {QUERY}
        ("ls desc:mid|", 8, ["desc:\"MID{X\""]),
        ("summary date:2025 by m|", 1, ["month", "merchant"]), ("chart by q|", 1, ["quarter"]),
        // options and their values
        ("ls --so|", 4, ["--sort"]),
        ("ls --sort a|", 1, ["amount"]),
        ("set c|", 1, ["color"]),
        ("set color a|", 1, ["auto", "always"]),
        // file paths
        ("open ch|", 2, ["checking.csv", "cheques/"]),
        ("open cheques/|", 8, ["cheques/jan.csv"]),
        ("save |", 0, ["checking.csv", "cheques/"]),
        ("source cheques/j|", 9, ["cheques/jan.csv"]),
        ("record of|", 2, ["off"]),
        // tags subcommands
        ("tags rename s|", 1, ["subscription"]),
        // a rule's actions: their names at an action's start, then what each takes
        ("rule c desc:star => |", 0, ["category", "intent", "note"]),
        ("rule c desc:star => IN|", 2, ["intent"]),
        ("rule c desc:star => category g|", 1, ["Groceries", "\"Gifts, etc\""]),
        ("rule c desc:star => category \"gifts, |", 8, ["\"Gifts, etc\""]),
        ("rule c desc:star => category n|", 1, ["none"]),
        ("rule c desc:star => intent w|", 1, ["want"]),
        ("rule c desc:star => intent |", 0, ["need", "want", "culture", "unexpected", "none"]),
        ("rule c desc:star => +co|", 3, ["+coffee"]),
        ("rule c desc:star => category Food, +tr|", 3, ["+trip/lisbon", "+trip/rome"]),
        ("rule c desc:star => category Food , -s|", 2, ["-subscription"]),
        ("rule c desc:star => +coffee +tr|", 3, ["+trip/lisbon", "+trip/rome"]),
        ("rule c desc:star => +coffee category F|", 1, ["Food"]),
        ("rule c desc:star => +coffee, intent want, c|", 1, ["category"]),
        // nothing once an action has its value, inside a note, or on a word that ends one
        ("rule c desc:star => category Food |", 0, []),
        ("rule c desc:star => category Food, intent want +|", 0, []),
        ("rule c desc:star => note co|", 0, []),
        ("rule c desc:star => +coffee,|", 0, []),
        ("rule c desc:star => nonsense c|", 0, []),
        // the query before `=>` is still a query
        ("rule c tag:co|", 6, ["tag:coffee"]),
        ("preview tag:none => category c|", 1, ["Coffee"]),
        ("apply tag:none => +sub|", 4, ["+subscription"]),
    ]

    @Test(arguments: table)
    func completes(_ marked: String, _ replacing: Int, _ candidates: [String]) {
        let before = String(marked.prefix { $0 != "|" })
        let result = completer.complete(before)
        #expect(result.candidates == candidates)
        if !candidates.isEmpty { #expect(result.replacing == replacing) }
    }

    /// A `tag` refused for max-tags changes nothing a person can see: the tags it would have added are not
    /// listed, matched or offered (the tags table grows in place and keeps the names it interned, as after an
    /// undo; the sets it worked out are not interned at all).
    @Test func aRefusedTagLeavesNothingVisible() throws {
        let sink = BufferSink()
        let s = Session(sink: sink)
        s.openDemo()
        s.execute("tags")
        let before = sink.out
        let tagsOfOne = s.ledger?.tagNames(0)
        s.execute("set max-tags 2")
        sink.reset()
        let sets = s.ledger?.tagSets.count
        #expect(s.execute("tag 1-40 +aa1 +bb1 +cc1") != .ok)
        #expect(s.ledger?.tagSets.count == sets)
        #expect(sink.err.contains("nothing tagged"), "\(sink.err)")
        #expect(s.ledger?.tagNames(0) == tagsOfOne)
        sink.reset()
        s.execute("tags")
        #expect(sink.out == before)
        sink.reset()
        s.execute("count tag:aa1")
        #expect(sink.out == "0\n")
        #expect(s.completionData()?.tags.contains("aa1") == false)
        // And the next tag still works, on the grown tables.
        #expect(s.execute("set max-tags 12") == .ok)
        #expect(s.execute("tag 1 +aa1") == .ok)
        #expect(s.ledger?.tagNames(0).contains("aa1") == true)
    }

    /// max-tags is checked at its edge: the largest set holds three tags, and adding two to it passes max-tags 4 by
    /// one, for `tag` and for a rule alike; adding one does not, and is done. (Neither asks a row's set its size when
    /// no set can pass max-tags: `TagSetTable.largest`.)
    @Test func maxTagsIsCheckedAtItsEdge() throws {
        let (folder, file) = try scratchFile("t.csv", prefix: "tagsh-max-tags")
        defer { try? FileManager.default.removeItem(at: folder) }
        let rows = ["2025-01-02,a,-1.00,x;y;z", "2025-01-03,b,-2.00,x", "2025-01-04,c,-3.00,"]
        try ("Date,Description,Amount,Tags\n" + rows.joined(separator: "\n") + "\n").write(toFile: file, atomically: true, encoding: .utf8)
        let sink = BufferSink()
        let s = Session(sink: sink)
        s.execute("open \(file)")
        #expect(s.ledger?.tagSets.largest == 3)
        s.execute("set max-tags 4")
        #expect(s.execute("tag all +p +q") != .ok)
        #expect(sink.err.contains("nothing tagged: 1 transaction would hold more than max-tags (4) tags: 1 "), "\(sink.err)")
        sink.reset()
        #expect(s.execute("apply all => +p, +q") != .ok)
        #expect(sink.err.contains("nothing applied: 1 transaction would hold more than max-tags (4) tags: 1 "), "\(sink.err)")
        sink.reset()
        #expect(s.execute("tag all +p") == .ok)
        #expect(s.ledger?.tagNames(0) == ["x", "y", "z", "p"])
        #expect(s.execute("apply all => +q") != .ok)
        #expect(sink.err.contains("nothing applied: 1 transaction would hold more than max-tags (4) tags: 1 "), "\(sink.err)")
    }

    /// A preview's tag sets go when the next preview replaces it, if nothing can name them (the table's count says
    /// so); an applied preview's stay (the history names them), and a preview that fails keeps the last one.
    @Test func aPreviewsTagSetsGoWhenTheNextPreviewReplacesIt() throws {
        let (folder, file) = try scratchFile("p.csv", prefix: "tagsh-preview-sets")
        defer { try? FileManager.default.removeItem(at: folder) }
        // Forty rows, each with a tag set of its own: a preview adding a tag to all makes forty sets.
        let rows = (1...40).map { "2025-01-\(String(format: "%02d", $0 % 28 + 1)),shop \($0),-\($0).00,t\($0);common" }
        try ("Date,Description,Amount,Tags\n" + rows.joined(separator: "\n") + "\n").write(toFile: file, atomically: true, encoding: .utf8)
        let sink = BufferSink()
        let s = Session(sink: sink)
        s.execute("open \(file)")
        func sets() -> Int { s.ledger?.tagSets.count ?? -1 }
        let opened = sets()
        #expect(s.execute("preview all => +p1") == .ok)
        #expect(sets() == opened + 40)
        for k in 2...5 {
            #expect(s.execute("preview all => +p\(k), -common") == .ok)
            #expect(sets() == opened + 40, "preview \(k)")
        }
        // A preview that fails before its rows are planned leaves the last one, and its sets.
        sink.reset()
        #expect(s.execute("preview all => category Nope") != .ok)
        #expect(sets() == opened + 40)
        #expect(s.execute("apply") == .ok)
        #expect(s.ledger?.tagNames(0) == ["t1", "p5"] && s.ledger?.tagNames(39) == ["t40", "p5"])
        sink.reset()
        s.execute("count tag:common")
        #expect(sink.out == "0\n")
        // Applied, they are named by the history: the next preview keeps them.
        #expect(s.execute("preview all => +p6") == .ok)
        #expect(sets() == opened + 80)
        // A set interned after a preview's, by whatever holds it, keeps the preview's sets (no command does that
        // without a change today: the sets of `apply RULES` refused for max-tags are interned after them, and go too).
        #expect(s.execute("preview all => +p6b") == .ok)
        #expect(s.droppablePreviewSets() == opened + 40 && sets() == opened + 80)
        s.withTagTables { tags, sets in _ = sets.intern([tags.intern("elsewhere")]) }
        #expect(s.droppablePreviewSets() == nil)
        let held = sets()
        #expect(s.execute("preview all => +p6c") == .ok)
        #expect(sets() == held + 40)
        // A change after a preview names what it likes: its sets stay too.
        #expect(s.execute("tag 1 +x") == .ok)
        #expect(s.droppablePreviewSets() == nil)
        let tagged = sets()
        #expect(s.execute("preview all => +p7") == .ok)
        #expect(sets() == tagged + 40)
        // Undone, the change is redone from the history: the sets a preview made after it still go.
        #expect(s.execute("undo") == .ok)
        #expect(s.execute("preview all => +p8") == .ok)
        let eight = sets()
        #expect(s.execute("preview all => +p9") == .ok)
        #expect(sets() == eight)
        #expect(s.execute("redo") == .ok)
        #expect(s.ledger?.tagNames(0) == ["t1", "p5", "x"])
        #expect(s.execute("apply") == .ok)
        #expect(s.ledger?.tagNames(0) == ["t1", "p5", "x", "p9"] && s.ledger?.tagNames(1) == ["t2", "p5", "p9"])
        // What the tables hold is what a session that only applied these would hold: the same listing.
        sink.reset()
        s.execute("tags")
        let listing = sink.out
        // (A copy: the first session's journal beside the file would have the second offer to recover it.)
        let copy = folder.appendingPathComponent("q.csv").path
        try FileManager.default.copyItem(atPath: file, toPath: copy)
        let fresh = Session(sink: sink)
        fresh.execute("open \(copy)")
        for line in ["apply all => +p5, -common", "tag 1 +x", "apply all => +p9"] { #expect(fresh.execute(line) == .ok) }
        sink.reset()
        fresh.execute("tags")
        #expect(sink.out == listing)
    }

    /// `merchants` lists the most used first and breaks ties by name as `String`s sort (it compares bytes when
    /// both names are ASCII, and `String`s otherwise).
    @Test func merchantsBreakTiesByNameAsStringsSort() throws {
        let (folder, file) = try scratchFile("m.csv", prefix: "tagsh-merchants")
        defer { try? FileManager.default.removeItem(at: folder) }
        // "Cafe\u{301}" (NFD) and "Café" (NFC) are equal as `String`s: they tie, and keep the order they came in.
        let names = ["b", "a", "Ábc", "Z", "ab", "Cafe\u{301}", "Åb", "Caf\u{E9}", "zz", "Ab"]
        let rows = names.map { "2025-01-02,\($0),-1.00" } + ["2025-01-03,c,-2.00", "2025-01-04,c,-3.00"]
        try ("Date,Description,Amount\n" + rows.joined(separator: "\n") + "\n").write(toFile: file, atomically: true, encoding: .utf8)
        let sink = BufferSink()
        let s = Session(sink: sink)
        s.execute("open \(file)")
        s.execute("merchants --csv")
        let listed = sink.out.split(separator: "\n").dropFirst().map { String($0.split(separator: ",")[0]) }
        // Compared as bytes: `String`'s == would take NFD and NFC for the same name.
        #expect(listed.map { Array($0.utf8) } == (["c"] + names.sorted()).map { Array($0.utf8) }, "\(sink.out)")
        // With --limit only the first ones are put in order; the rest are one row, their counts summed.
        for limit in [1, 3, 5, 8] {
            sink.reset()
            s.execute("merchants --csv --limit \(limit)")
            let lines = sink.out.split(separator: "\n").dropFirst().map { $0.split(separator: ",").map(String.init) }
            let expected = Array((["c"] + names.sorted()).prefix(limit)) + ["(\(names.count + 1 - limit) others)"]
            #expect(lines.map { Array($0[0].utf8) } == expected.map { Array($0.utf8) }, "\(sink.out)")
            // c's two transactions and one for each other name.
            #expect(lines.last?[1] == String(names.count + 2 - 2 - (limit - 1)), "\(sink.out)")
        }
    }

    /// `merchants --limit N` in one currency finds the merchants shown from counts and sums the others row by row:
    /// the first N rows of the whole list, then one row whose count and total are those of the rest. (In several
    /// currencies the others are the groups summed, in the order their currencies were first seen.)
    @Test func merchantsWithALimitAreTheWholeListFolded() throws {
        for currencies in [["EUR"], ["EUR", "USD"]] {
            let sink = BufferSink()
            let s = Session(sink: sink)
            s.openDemo()
            if currencies.count > 1 { #expect(s.execute("import \(try demoUSDExport())") == .ok, "\(sink.err)") }
            sink.reset()
            s.execute("merchants --json")
            let whole = sink.out.split(separator: "\n").map(String.init)
            #expect(whole.count > 40)
            #expect(whole.contains { $0.contains("\"USD\"") } == (currencies.count > 1))
            for limit in [1, 2, 5, 17, whole.count - 1, whole.count, whole.count + 3] {
                sink.reset()
                s.execute("merchants --json --limit \(limit)")
                let lines = sink.out.split(separator: "\n").map(String.init)
                #expect(Array(lines.prefix(limit)) == Array(whole.prefix(limit)), "limit \(limit)")
                guard limit < whole.count else { #expect(lines.count == whole.count); continue }
                let rest = whole.dropFirst(limit).map { try! JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any] }
                let folded = try #require(JSONSerialization.jsonObject(with: Data(lines[limit].utf8)) as? [String: Any])
                #expect(folded["others"] as? Int == rest.count && folded["count"] as? Int == rest.reduce(0) { $0 + ($1["count"] as! Int) })
                var sums: [String: Decimal] = [:]
                for r in rest { for (c, v) in r["total"] as! [String: String] { sums[c, default: 0] += Decimal(string: v)! } }
                let totals = (folded["total"] as? [String: String] ?? [:]).mapValues { Decimal(string: $0)! }
                #expect(totals == sums, "limit \(limit) in \(currencies)")
            }
        }
    }

    /// Where the fast `--limit` path could part from the whole list: names equal as `String`s (NFC and NFD) tie and
    /// keep the order first seen in the matching rows, not their ids'; and sums past Int64 (exact, in 128 bits) make
    /// the others' total what their merchants' totals add up to.
    @Test func merchantsWithALimitTieAndOverflowAsTheWholeList() throws {
        let (folder, file) = try scratchFile("m.csv", prefix: "tagsh-merchants-limit")
        defer { try? FileManager.default.removeItem(at: folder) }
        let rows = ["Caf\u{E9},-1", "Cafe\u{301},-2", "Caf\u{E9},-5"]
            + Array(repeating: "A,999999999999999999", count: 10) + Array(repeating: "B,-999999999999999999", count: 10)
            + Array(repeating: "Top,1", count: 11)
        try ("Date,Description,Amount\n" + rows.map { "2025-01-02," + $0 }.joined(separator: "\n") + "\n").write(toFile: file, atomically: true, encoding: .utf8)
        let sink = BufferSink()
        let s = Session(sink: sink)
        s.execute("open \(file)")
        for (query, limit) in [("amt:<-1.5", 1), ("amt:<-1.5", 2), ("", 1), ("", 2), ("", 3)] {
            sink.reset()
            s.execute("merchants --json \(query)")
            let whole = sink.out.split(separator: "\n").map(String.init)
            sink.reset()
            s.execute("merchants --json \(query) --limit \(limit)")
            let lines = sink.out.split(separator: "\n").map(String.init)
            #expect(Array(lines.prefix(limit)).map { Array($0.utf8) } == Array(whole.prefix(limit)).map { Array($0.utf8) }, "\(query) --limit \(limit)")
            if query.isEmpty {
                // Top first; A's and B's totals each pass Int64's end, and they cancel.
                #expect(whole.first?.contains("\"Top\"") == true)
                let others = try #require(lines.last)
                let rest = whole.dropFirst(limit).map { try! JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any] }
                let sum = rest.reduce(Decimal(0)) { $0 + Decimal(string: ($1["total"] as! [String: String])["EUR"] ?? ($1["total"] as! [String: String]).values.first!)! }
                let got = try #require(JSONSerialization.jsonObject(with: Data(others.utf8)) as? [String: Any])
                #expect((got["total"] as? [String: String])?.values.first.flatMap { Decimal(string: $0) } == sum, "\(others)")
            }
        }
    }

    /// A small export in dollars for the demo ledger (a second currency).
    func demoUSDExport() throws -> String {
        let (_, file) = try scratchFile("usd.csv", prefix: "tagsh-usd")
        let rows = (1...30).map { "2026-11-\(String(format: "%02d", $0 % 28 + 1)),\(["LIDL", "NEW PLACE \($0 % 4)", "EDEKA"][$0 % 3]),-\($0).25,USD" }
        try ("Date,Description,Amount,Currency\n" + rows.joined(separator: "\n") + "\n").write(toFile: file, atomically: true, encoding: .utf8)
        return file
    }

    @Test func sessionDataIsMostUsedFirstAndFollowsChanges() throws {
        let session = Session(sink: BufferSink())
        session.openDemo()
        let data = try #require(session.completionData())
        #expect(Array(data.tags.prefix(2)) == ["coffee", "subscription"])
        // The same order as `merchants` (by count): the most frequent merchant first.
        let sink = BufferSink()
        let other = Session(sink: sink)
        other.openDemo()
        other.execute("merchants --json")
        #expect(sink.out.split(separator: "\n").first?.contains("\"merchant\": \"\(data.merchants.first ?? "")\"") == true)
        #expect(data.tagsOfTarget("7") == ["coffee"])
        session.execute("tag 7 +zzz-new")
        #expect(session.completionData()?.tags.contains("zzz-new") == true)
        #expect(session.completionData()?.tagsOfTarget("7") == ["coffee", "zzz-new"])
        session.execute("select id:7")
        #expect(session.completionData()?.tagsOfTarget("@") == ["coffee", "zzz-new"])
        session.execute("undo")
        #expect(session.completionData()?.tags.contains("zzz-new") == false)
    }
}

struct UnsavedStateTests {
    @Test func promptMarksUnsavedChangesAndUndoBackToTheSavedPointClearsIt() throws {
        let (dir, path) = try scratchCopy(of: "basic.csv")
        defer { try? FileManager.default.removeItem(at: dir) }
        let session = Session(sink: BufferSink())
        session.execute("open \(path)")
        #expect(session.prompt == "basic.csv> ")
        session.execute("tag 1 +coffee")
        #expect(session.prompt == "basic.csv*> ")
        session.execute("undo")
        #expect(session.prompt == "basic.csv> ")
        session.execute("redo")
        session.execute("save")
        #expect(session.prompt == "basic.csv> ")
        session.execute("undo")
        #expect(session.prompt == "basic.csv*> ", "undoing past the saved point is a change to save")
    }

    @Test func interactiveQuitWarnsOnceThenQuits() {
        let sink = BufferSink()
        let session = Session(sink: sink)
        session.isInteractive = true
        session.openDemo()
        #expect(session.execute("quit") == .quit)
        session.execute("tag 1 +x")
        #expect(session.execute("quit") == .failed(1))
        // The demo has no file of its own, so the warning names `save FILE` (a bare `save` refuses there).
        #expect(sink.err.contains("demo.csv has unsaved changes: `save FILE` keeps them in a file; quit again to discard them"))
        #expect(session.execute("exit") == .quit)
        // Another command in between makes the next quit warn again.
        session.execute("quit")
        session.execute("count")
        #expect(session.execute("quit") == .failed(1))
    }

    @Test func scriptsQuitWithoutWarning() {
        let session = Session(sink: BufferSink())
        session.openDemo()
        session.execute("tag 1 +x")
        #expect(session.execute("quit") == .quit)
    }

    @Test func undoStepsStoreDeltasNotCopies() {
        let session = Session(sink: BufferSink())
        session.openDemo()
        session.execute("tag all +x")
        session.execute("intent 5 want")
        #expect(session.steps.map(\.changes.count) == [542, 1])
    }
}

struct StyleTests {
    @Test func customColoursUse24BitOnlyWhenTheTerminalSaysSo() {
        let rgb = Color.rgb(0x6f, 0x4e, 0x37)
        #expect(Style(enabled: true, trueColor: true).paint("x", rgb) == "\u{1B}[38;2;111;78;55mx\u{1B}[0m")
        #expect(Style(enabled: true, trueColor: false).paint("x", rgb) == "\u{1B}[38;5;\(Style.nearest256(0x6f, 0x4e, 0x37))mx\u{1B}[0m")
        #expect(Style.nearest256(255, 0, 0) == 196)
        #expect(Style.nearest256(0, 0, 0) == 16)
        #expect(Style(enabled: false, trueColor: true).paint("x", rgb) == "x")
    }

    @Test func intentsAndTagsHaveFixedColours() {
        let s = Style(enabled: true)
        #expect(s.paint("W", Intent.want.color) == "\u{1B}[35mW\u{1B}[0m")
        #expect(s.paint("N", Intent.need.color) == "\u{1B}[34mN\u{1B}[0m")
        #expect(Intent.allCases.map(\.mark) == ["N", "W", "C", "U"])
        let r = Render(ledger: Ledger(), style: s)
        #expect(r.tagChip("coffee") == r.tagChip("Coffee").replacingAll("Coffee", with: "coffee"))
        #expect(r.tagChip("coffee") == "\u{1B}[38;5;\(TagName.palette[1])mcoffee\u{1B}[0m")
    }
}

/// `show`'s source line, and a NUL byte's line, count the line feeds before a place eight bytes at a time
/// (`lineFeeds(before:)`): the same count as one byte at a time, whatever the bytes beside them (0x8A, 0x0B, 0x00, a
/// feed in each place of a word) and wherever it stops.
struct LineEndsTests {
    @Test func countsAsByteByByte() {
        var rng = SplitMix(seed: 81)
        let alphabet: [UInt8] = [0x0A, 0x0A, 0x8A, 0x0B, 0x00, 0xFF, 0x41, 0x0D]
        for length in [0, 1, 7, 8, 9, 15, 16, 17, 63, 64, 65, 1000] {
            let bytes = (0..<length).map { _ in alphabet[Int(rng.next() % UInt64(alphabet.count))] }
            for end in Set([0, length / 2, max(0, length - 1), length, length + 5]) {
                let expected = bytes[0..<min(end, length)].filter { $0 == 0x0A }.count
                #expect(bytes.lineFeeds(before: end) == expected, "length \(length), end \(end)")
            }
        }
        #expect([UInt8](repeating: 0x0A, count: 24).lineFeeds(before: 24) == 24)
    }

    /// From 4 MB the two halves are counted at once: a feed on either side of the split, or at it, is counted once.
    @Test func countsLargeBuffersInTwoHalves() {
        var rng = SplitMix(seed: 82)
        let alphabet: [UInt8] = [0x0A, 0x8A, 0x41, 0x0D, 0x20, 0x30, 0x0B]
        let bytes = (0..<((4 << 20) + 4099)).map { _ in alphabet[rng.below(alphabet.count)] }
        for end in [(4 << 20) - 1, 4 << 20, (4 << 20) + 1, (4 << 20) + 17, bytes.count, bytes.count + 9] {
            let expected = bytes[0..<min(end, bytes.count)].reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }
            #expect(bytes.lineFeeds(before: end) == expected, "end \(end)")
        }
    }
}

/// A chart sums rows in runs of one period (rows mostly come in date order): rows out of date order, months
/// interleaved, two currencies met in different orders in different months, give each month its own rows' totals,
/// currencies in the order the month met them, and a last run is not left out.
struct ChartRunsTests {
    @Test func monthsInterleavedAreEachSummedWhole() throws {
        let (dir, path) = try scratchFile("c.csv", prefix: "tagsh-chart")
        defer { try? FileManager.default.removeItem(at: dir) }
        try """
            Date,Description,Amount,Currency
            2024-02-03,A,-10.00,USD
            2024-01-05,B,-5.00,EUR
            2024-02-01,C,-1.00,EUR
            2024-01-07,D,-2.50,USD
            2024-03-09,E,3.00,USD
            2024-01-05,F,-1.25,EUR
            2024-02-09,G,3.00,USD
            2024-03-01,H,-4.00,EUR

            """.write(toFile: path, atomically: true, encoding: .utf8)
        let sink = BufferSink()
        let s = Session(sink: sink)
        s.sourcesSidecar = false
        #expect(s.execute("open \(path)") == .ok)
        sink.reset()
        #expect(s.execute("chart by month --csv") == .ok)
        #expect(sink.out == """
            month,count,currency,total
            2024-01,2,EUR,-6.25
            2024-01,1,USD,-2.50
            2024-02,2,USD,-7.00
            2024-02,1,EUR,-1.00
            2024-03,1,USD,3.00
            2024-03,1,EUR,-4.00

            """)
        sink.reset()
        #expect(s.execute("chart by month --out --csv") == .ok)
        #expect(sink.out == """
            month,count,currency,total
            2024-01,2,EUR,-6.25
            2024-01,1,USD,-2.50
            2024-02,1,USD,-10.00
            2024-02,1,EUR,-1.00
            2024-03,1,EUR,-4.00

            """)
    }
}

/// `idRanges` writes a TARGET's ids as bytes; here against the `String` it was built from (`oldIdRanges`, kept
/// here), on runs, gaps, single rows, rows out of order and repeated, and ids of every length.
struct IdRangesTests {
    static func oldIdRanges(_ rows: [Int]) -> String {
        guard !rows.isEmpty else { return "none" }
        var parts: [String] = []
        var start = rows[0], last = rows[0]
        for r in rows.dropFirst() {
            if r == last + 1 { last = r; continue }
            parts.append(start == last ? "\(start + 1)" : "\(start + 1)-\(last + 1)")
            start = r
            last = r
        }
        parts.append(start == last ? "\(start + 1)" : "\(start + 1)-\(last + 1)")
        return parts.joined(separator: ",")
    }

    @Test(arguments: 1...200)
    func writesWhatTheStringsDid(seed: Int) {
        var rng = SplitMix(seed: UInt64(seed) &* 2_654_435_761)
        var rows: [Int] = []
        var row = rng.pick([0, 8, 98, 998, 99_998, 999_999_998, Int.max / 2])
        for _ in 0..<rng.below(40) {
            rows.append(row)
            row += rng.pick([1, 1, 1, 2, 9, 90, 12_345])
            if rng.chance(5) { row = rng.below(1000) } // out of order, or repeated
        }
        #expect(idRanges(rows) == Self.oldIdRanges(rows), "seed \(seed): \(rows)")
    }

    @Test func examples() {
        #expect(idRanges([]) == "none")
        #expect(idRanges([0]) == "1")
        #expect(idRanges([0, 1, 2, 6, 8, 9, 10, 11]) == "1-3,7,9-12")
        #expect(idRanges([9, 99, 100, 999_999]) == "10,100-101,1000000")
    }
}

/// A step's command past 100 characters is shown with its middle left out (`shownCommand`): one replayed from the
/// recovery journal names every id its target took, and `history` printed all of them.
struct LongStepCommandTests {
    @Test func historyUndoRedoAndBlameShowItShort() throws {
        let sink = BufferSink()
        let s = Session(sink: sink)
        s.openDemo()
        let ids = stride(from: 1, through: 401, by: 2).map(String.init).joined(separator: ",")
        let command = "intent \(ids) want"
        #expect(s.execute(command) == .ok, "\(sink.err)")
        #expect(s.steps.last?.command == command)
        let expected = String(command.prefix(60)) + " … " + String(command.suffix(36))
        for line in ["history", "blame 1", "undo", "redo"] {
            sink.reset()
            s.execute(line)
            let all = sink.out + sink.err
            #expect(all.contains(expected) && !all.contains(command), "\(line): \(all)")
        }
        sink.reset()
        s.execute("history --script")
        #expect(sink.out.contains(command), "--script prints it whole")
        #expect(shownCommand("intent 1-3 want") == "intent 1-3 want")
        #expect(shownCommand(String(repeating: "x", count: 100)) == String(repeating: "x", count: 100))
        #expect(shownCommand(String(repeating: "x", count: 101)).count == 99)
    }
}
