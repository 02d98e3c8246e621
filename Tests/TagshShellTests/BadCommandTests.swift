import Foundation
import Testing
@testable import TagshShell

/// Malformed arguments, unknown options, out-of-range ids, an empty
/// selection and quotes left open, for every command: each is an error with
/// a message and a failing status, and the session goes on.
struct BadCommandTests {
    /// Per command, lines that must fail (a demo ledger is open; the selection @ is empty).
    static let table: [String: [String]] = [
        "open": ["open", "open a b", "open /nonexistent.csv", "open demo.csv --format bogus"],
        "save": ["save a b", "save"],
        "export": ["export", "export x.txt --format bogus", "export /nonexistent-dir/x.csv"],
        "info": ["info x"],
        "import": ["import", "import a b", "import /nonexistent.csv", "import x.csv --window 99", "import x.csv --into nosuch.csv"],
        "transfers": ["transfers confirm", "transfers confirm 1", "transfers reject x", "transfers confirm 1 2"],
        "include": ["include", "include a b"],
        "edit": ["edit x", "edit"],
        "columns": ["columns x", "columns set", "columns set bogus", "columns set date=1,description=2,amount=3"],
        "ls": ["ls --limit x", "ls --limit", "ls --sort bogus", "ls tag:"],
        "select": ["select", "select amt:>>1", "select (a"],
        "count": ["count (", "count a or", "count id:0"],
        "show": ["show", "show 0", "show 9999", "show x", "show 1 2"],
        "tags": ["tags rename", "tags rename nosuch x", "tags delete nosuch", "tags '/(/'", "tags a b"],
        "merchants": ["merchants foo:bar"],
        "categories": ["categories x"],
        "intents": ["intents x"],
        "summary": ["summary by", "summary by nothing", "summary date:20", "summary by tag by month by day", "summary by month by month",
                    "summary --depth 0", "summary by month --depth 1", "summary --limit 0", "summary by tag --depth"],
        "chart": ["chart by", "chart by category", "chart --in --out", "chart date:20", "chart by month by year"],
        "tag": ["tag", "tag 1", "tag 9999 +x", "tag @ +x", "tag 1 x", "tag 1 +a;b", "tag 0-3 +x"],
        "intent": ["intent", "intent 1", "intent 1 maybe", "intent 0 want", "intent @ want"],
        "category": ["category", "category 1 nosuch", "category delete Food", "category rename Food X", "category new Food",
                     "category 9999 Food", "category 1 Food --color red", "category 1 Food --icon x", "category 1 Food --reassign none"],
        "note": ["note", "note 1", "note 9999 x", "note @ x"],
        "rule": ["rule", "rule x desc:y", "rule x desc:y =>", "rule show nosuch", "rule delete nosuch", "rule show"],
        "rules": ["rules x", "rules check x"],
        "preview": ["preview", "preview nosuch", "preview desc:x => colour red"],
        "apply": ["apply nosuch", "apply", "apply --all x"],
        "suggest": ["suggest", "suggest 0", "suggest x y"],
        "review": ["review", "review desc:x", "review --sort size", "review date:notadate"],
        "undo": ["undo x", "undo", "undo 0"],
        "redo": ["redo 0", "redo", "redo x"],
        "history": ["history x"],
        "blame": ["blame", "blame 0", "blame x"],
        "source": ["source", "source /nonexistent.tagsh", "source a b"],
        "record": ["record off", "record a b", "record /nonexistent-dir/x.tagsh"],
        "recover": ["recover", "recover x"],
        "discard": ["discard", "discard x"],
        "set": ["set x", "set max-tags -1", "set max-tags", "set nothing 1", "set width 5"],
        "echo": ["echo 'x", "echo \"x", "echo x\\"],
        "help": ["help nosuch", "help ls show"],
        "quit": ["quit now"],
    ]

    /// A mistyped command name gets the nearest one; two neighbours swapped is one slip, not two.
    @Test(arguments: [("tga", "tag"), ("lss", "ls"), ("saev", "save"), ("ntoe", "note"), ("udno", "undo"), ("xyzzy", nil)])
    func aMistypedCommandGetsTheNearestName(typed: String, expected: String?) {
        #expect(Session(sink: BufferSink()).registry.suggestion(for: typed) == expected)
    }

    @Test func everyCommandHasCases() {
        #expect(Set(Self.table.keys) == Set(CommandRegistry.standard.commands.map(\.name)))
    }

    static var cases: [String] {
        Self.table.values.flatMap { $0 } + CommandRegistry.standard.commands.flatMap { ["\($0.name) --no-such-option", "\($0.name) 'unclosed"] }
    }

    @Test(arguments: cases)
    func failsWithAMessageAndTheSessionGoesOn(_ line: String) {
        let sink = BufferSink()
        let session = Session(sink: sink)
        session.sourcesSidecar = false
        session.openDemo()
        session.execute("select nosuchmerchantzzz") // an empty selection
        sink.reset()
        let status = session.execute(line)
        guard case .failed(let code) = status else {
            Issue.record("`\(line)` did not fail: \(status)\n\(sink.combined)")
            return
        }
        #expect(code != 0)
        #expect(sink.err.contains("error:"), "`\(line)` printed no error: \(sink.combined)")
        #expect(!sink.err.contains("\u{1B}"))
        // The session goes on.
        sink.reset()
        #expect(session.execute("count") == .ok)
        #expect(sink.out == "542\n")
    }

    /// An unknown option one slip from one the command has is named, before the list of its options; one far from
    /// every option gets the list only.
    @Test(arguments: [("ls --limti 3", "unknown option --limti for ls: did you mean --limit? (options: "),
                      ("summary --trnd", "unknown option --trnd for summary: did you mean --trend? (options: "),
                      ("ls --color", "unknown option --color for ls (options: "),
                      ("ls --l 3", "unknown option --l for ls (options: ")])
    func anUnknownOptionNearAnotherIsNamed(_ line: String, _ message: String) {
        let sink = BufferSink()
        let session = Session(sink: sink)
        session.openDemo()
        #expect(session.execute(line) != .ok)
        #expect(sink.err.hasPrefix("error: " + message), "\(sink.err)")
    }

    /// `ls -l 3` (a shell's habit) is a query for what holds no `l`: it runs, with a note that an option takes two
    /// dashes (naming the option the letter begins, if any). A longer word, a quoted one, or a command without
    /// options gets none.
    @Test(arguments: [("ls -l 3", "note: '-l' finds the transactions without 'l'; an option takes two dashes (--limit)\n"),
                      ("ls -n 3", "note: '-n' finds the transactions without 'n'; an option takes two dashes (`help ls` lists them)\n"),
                      ("ls -uber", ""), ("ls '-l'", ""), ("count -n", "")])
    func aOneLetterNegationNotesThatOptionsTakeTwoDashes(_ line: String, _ note: String) {
        let sink = BufferSink()
        let session = Session(sink: sink)
        session.openDemo()
        sink.reset()
        #expect(session.execute(line) == .ok)
        #expect(sink.err == note, "\(sink.err)")
    }

    /// `apply` alone twice: the second says the preview was applied already, not that nothing was previewed;
    /// a new preview, or a file opened, forgets it.
    /// A new tag one slip from a tag the ledger has gets a "did you mean" after the step, and is kept (a new tag is
    /// often meant: `undo` takes it back); a tag the ledger has (in any case), a name that differs only in its digits,
    /// and a name far from every tag get none. (`+cofee` beside coffee was taken silently.)
    @Test(arguments: [("tag 2 +cofee", "coffee"), ("tag 2 +grocereis", "groceries"), ("tag 2 +wrok", "work"),
                      ("tag 2 +trip/lisbn", "trip/lisbon"), ("tag 2 +Coffee", nil), ("tag 2 +work2", nil),
                      ("tag 2 +trip/rome2", nil), ("tag 2 +brand-new", nil), ("tag 2 +tx", nil), ("tag 2 +cars", nil)] as [(String, String?)])
    func aNewTagOneSlipFromAnotherGetsADidYouMean(_ line: String, _ near: String?) throws {
        let sink = BufferSink()
        let session = Session(sink: sink)
        session.openDemo()
        // `cars`, one from the demo's `car`, is a tag the ledger has from here on.
        #expect(session.execute("tag 3 +cars") == .ok && sink.err.contains("did you mean 'car'?"))
        sink.reset()
        #expect(session.execute(line) == .ok, "\(sink.err)")
        let typed = String(line.split(separator: "+").last ?? "")
        #expect(session.ledger?.transaction(1).tags.contains { $0.lowercased() == typed.lowercased() } == true, "\(line): not tagged")
        if let near {
            #expect(sink.err.hasSuffix("note: '\(typed)' is a new tag: did you mean '\(near)'? (`undo` takes this step back)\n"), "\(line): \(sink.err)")
        } else {
            #expect(!sink.err.contains("did you mean"), "\(line): \(sink.err)")
        }
    }

    @Test func applyAloneAgainSaysThePreviewWasApplied() {
        let sink = BufferSink()
        let session = Session(sink: sink)
        session.openDemo()
        #expect(session.execute("apply") != .ok)
        #expect(sink.err.contains("nothing was previewed"))
        #expect(session.execute("preview desc:/uber/ => +ride") == .ok)
        #expect(session.execute("apply") == .ok)
        sink.reset()
        #expect(session.execute("apply") != .ok)
        #expect(sink.err.contains("`preview desc:/uber/ => +ride` was applied already (`undo` takes it back)"), "\(sink.err)")
        #expect(session.execute("undo") == .ok)
        #expect(session.execute("preview suggestions") == .ok)
        #expect(session.execute("apply") == .ok)
        sink.reset()
        #expect(session.execute("apply") != .ok)
        #expect(sink.err.contains("`preview suggestions` was applied already"), "\(sink.err)")
        session.openDemo()
        sink.reset()
        #expect(session.execute("apply") != .ok)
        #expect(sink.err.contains("nothing was previewed"), "\(sink.err)")
        // Undone, it is no longer applied; refused, it never was.
        #expect(session.execute("preview desc:/uber/ => +ride") == .ok)
        #expect(session.execute("apply") == .ok)
        #expect(session.execute("undo") == .ok)
        sink.reset()
        #expect(session.execute("apply") != .ok)
        #expect(!sink.err.contains("applied already"), "\(sink.err)")
        #expect(session.execute("set max-tags 1") == .ok)
        #expect(session.execute("preview suggestions") == .ok)
        #expect(session.execute("apply") != .ok)
        #expect(session.execute("set max-tags 10") == .ok)
        sink.reset()
        #expect(session.execute("apply") != .ok)
        #expect(!sink.err.contains("applied already"), "\(sink.err)")
    }

    /// `tag N -a +a` on a row whose last tag is `a` gives it the set it had: nothing changes, and no step is made.
    @Test func takingATagAwayAndGivingItBackChangesNothing() {
        let sink = BufferSink()
        let session = Session(sink: sink)
        session.openDemo()
        #expect(session.execute("tag 5 +zzlast") == .ok)
        let steps = session.steps.count
        sink.reset()
        #expect(session.execute("tag 5 -zzlast +zzlast") == .ok)
        #expect(session.steps.count == steps, "\(sink.combined)")
        #expect(session.execute("tag 5 -ZZLAST +zzlast") == .ok)
        #expect(session.steps.count == steps, "\(sink.combined)")
    }

    @Test func aScriptStopsAtTheBadCommandWithItsLine() {
        let sink = BufferSink()
        let session = Session(sink: sink)
        session.openDemo()
        #expect(session.runScript("count\nshow 0\necho never\n", name: "bad.tagsh") == .failed(1))
        #expect(sink.err.hasPrefix("bad.tagsh:2:6: error: no transaction 0"))
        #expect(!sink.out.contains("never"))
    }
}
