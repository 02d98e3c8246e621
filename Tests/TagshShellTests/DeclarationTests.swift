import Foundation
import Testing
import TagshQuery
@testable import TagshShell

/// The command declarations are the single source of usage, option checks,
/// completion and the man page; these tests hold the registry and the
/// declarations to that.
struct DeclarationTests {
    static let commandsFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Sources/TagshShell/Commands")

    /// A command declared in `Commands/` but left out of the registry would exist for nobody.
    @Test func everyDeclaredCommandIsRegistered() throws {
        var declared: [String] = []
        for f in try FileManager.default.contentsOfDirectory(atPath: Self.commandsFolder.path) where f.hasSuffix(".swift") {
            let text = try String(contentsOf: Self.commandsFolder.appendingPathComponent(f), encoding: .utf8)
            for m in text.matches(of: /static let \w+(?:: Command)? = Command\(\s*name: "([a-z-]+)"/) { declared.append(String(m.1)) }
        }
        #expect(declared.count > 30)
        #expect(Set(declared) == Set(CommandRegistry.standard.commands.map(\.name)))
        #expect(declared.count == Set(declared).count, "a command is declared twice")
    }

    static let examples: [(String, String)] = CommandRegistry.standard.commands.flatMap { c in c.examples.map { (c.name, $0) } }

    /// Every example a command shows fits one of the forms its usage is derived from.
    @Test(arguments: examples)
    func everyExampleFitsTheDeclaredForms(_ name: String, _ example: String) throws {
        let command = try #require(CommandRegistry.standard.command(named: name))
        var words = try Session.joiningBraces(Lexer.words(in: example), line: example).map(\.text).dropFirst().map { $0 }
        if let cut = words.firstIndex(of: ">") { words = Array(words[..<cut]) } // a redirection is not the command's
        var positional: [String] = []
        var skip = false
        for w in words {
            if skip { skip = false; continue }
            if let o = command.options.first(where: { "--" + $0.name == w }) { skip = o.value != .flag; continue }
            positional.append(w)
        }
        #expect(command.forms.contains { Grammar.accepts($0, words: positional) },
                "`\(example)` does not fit: \(command.synopsis)")
        // Its options go with the form it is (`category new X --color red`, not `category 1 X --color red`).
        var lexed = try Session.joiningBraces(Lexer.words(in: example), line: example)
        if let cut = lexed.firstIndex(where: { $0.raw == ">" }) { lexed = Array(lexed[..<cut]) }
        let session = Session(sink: BufferSink())
        #expect(throws: Never.self, "`\(example)`") {
            try session.parseOptions(Array(lexed.dropFirst()), for: command, line: example, nameWord: lexed[0])
        }
    }

    /// An option that goes with one form is refused with any other before the command runs, naming the form it goes
    /// with, and nothing changes (`category 1 Food --color red` changed transaction 1 and left Food's colour as it was;
    /// `columns --date-format X` listed the columns; `apply suggestions --all` applied the suggestions). Every option
    /// declared with a form has a line here.
    static let otherForms: [(command: String, option: String, line: String, message: String)] = [
        ("category", "color", "category 1 Food --color red", "--color goes with `category new`"),
        ("category", "icon", "category 1 Fitness --icon x", "--icon goes with `category new`"),
        ("category", "reassign", "category 1 none --reassign Food", "--reassign goes with `category delete`"),
        ("category", "color", "category delete Fitness --color red", "--color goes with `category new`, not `category delete`"),
        ("category", "icon", "category rename Fitness Gym --icon x", "--icon goes with `category new`, not `category rename`"),
        ("category", "reassign", "category new Snacks --reassign Food", "--reassign goes with `category delete`, not `category new`"),
        ("columns", "date-format", "columns --date-format %d/%m/%Y", "--date-format goes with `columns set`"),
        ("preview", "min-confidence", "preview desc:rewe => +x --min-confidence 0.5", "--min-confidence goes with `preview suggestions`"),
        ("preview", "fields", "preview gym --fields category", "--fields goes with `preview suggestions`"),
        ("apply", "min-confidence", "apply desc:rewe => +x --min-confidence 0.5", "--min-confidence goes with `apply suggestions`"),
        ("apply", "fields", "apply gym --fields category", "--fields goes with `apply suggestions`"),
        ("apply", "all", "apply suggestions --all", "--all goes with `apply` alone, not `apply suggestions`"),
        ("apply", "all", "apply desc:rewe => +x --all", "--all goes with `apply` alone"),
        ("rules", "json", "rules check --json", "--json goes with `rules` alone, not `rules check`"),
        ("rules", "csv", "rules check --csv", "--csv goes with `rules` alone, not `rules check`"),
        ("tags", "limit", "tags rename coffee cafe --limit 3", "--limit goes with `tags [NAME]`, not `tags rename`"),
        ("tags", "json", "tags delete coffee --json", "--json goes with `tags [NAME]`, not `tags delete`"),
        ("tags", "csv", "tags delete coffee --csv", "--csv goes with `tags [NAME]`, not `tags delete`"),
        ("suggest", "backtest", "suggest rules --backtest", "--backtest goes with `suggest ID` or `suggest [QUERY]`, not `suggest rules`"),
    ]

    @Test func optionsOfAnotherFormAreRefused() throws {
        let declared = CommandRegistry.standard.commands.flatMap { c in c.options.filter { $0.form != nil }.map { c.name + " --" + $0.name } }
        #expect(Set(declared) == Set(Self.otherForms.map { $0.command + " --" + $0.option }), "an option with a form has no line here")
        let sink = BufferSink()
        let session = Session(sink: sink)
        session.sourcesSidecar = false
        session.openDemo()
        for line in ["category new Fitness", "rule gym desc:gym => category Fitness"] { try #require(session.execute(line) == .ok) }
        let version = session.ledgerVersion
        let categories = try #require(session.ledger).categories.liveIDs.map { try #require(session.ledger).categories[$0] }
        for (_, option, line, message) in Self.otherForms {
            sink.reset()
            #expect(session.execute(line) == .failed(1), "\(line)")
            #expect(sink.err.contains("error: " + message + "\n"), "\(line): \(sink.err)")
            // The caret is under the option.
            let column = try #require(line.range(of: "--" + option)).lowerBound.utf16Offset(in: line)
            #expect(sink.err.contains("\n" + String(repeating: " ", count: column + 2) + "^"), "\(line): \(sink.err)")
            let now = try #require(session.ledger)
            #expect(session.ledgerVersion == version && now.categories.liveIDs.map { now.categories[$0] } == categories, "\(line) changed something")
        }
        // With their own forms they are taken.
        for line in ["category new Fitness --color red --icon F", "apply --all", "category 1 Fitness", "category delete Fitness --reassign Food",
                     "preview suggestions --min-confidence 0.9 --fields category", "rules --json", "rules --csv",
                     "tags coffee --limit 1", "tags --json", "tags --csv", "suggest --backtest desc:rewe"] {
            #expect(session.execute(line) == .ok, "\(line): \(sink.err)")
        }
    }

    /// Tab offers the options of the form begun, and every option before the form's first word.
    @Test(arguments: [
        ("category new Pets --", ["--color", "--icon"]), ("category delete Pets --", ["--reassign"]), ("category 1 Food --", []),
        ("category --", ["--color", "--icon", "--reassign"]), ("apply coffee --", []), ("apply --", ["--all", "--min-confidence", "--fields"]),
        ("apply suggestions --", ["--min-confidence", "--fields"]), ("tags rename a b --", []), ("tags coffee --", ["--limit", "--json", "--csv"]),
    ])
    func tabOffersTheOptionsOfTheForm(_ line: String, _ options: [String]) {
        let completer = Completer(data: { CompletionData() }, listDirectory: { _ in [] })
        #expect(completer.complete(line).candidates.sorted() == options.sorted(), "\(line)")
    }

    static let choiceOptions: [(String, String, [String])] = CommandRegistry.standard.commands.flatMap { c in
        c.options.compactMap { o in if case .choice(let words) = o.value { (c.name, o.name, words) } else { nil } }
    }

    /// An option's choices are what Tab offers and what the option accepts; anything else is refused with a caret.
    @Test(arguments: choiceOptions)
    func choiceOptionsCompleteAndRefuseOthers(_ name: String, _ option: String, _ words: [String]) {
        let completer = Completer(data: { CompletionData() }, listDirectory: { _ in [] })
        #expect(completer.complete("\(name) x --\(option) ").candidates == words)
        let sink = BufferSink()
        let session = Session(sink: sink)
        session.openDemo()
        #expect(session.execute("\(name) x --\(option) no-such-choice") == .failed(1))
        #expect(sink.err.contains("--\(option) takes"), "\(sink.err)")
    }

    /// Help shows each form on its own usage line, with the options.
    @Test func helpShowsEveryForm() {
        let sink = BufferSink()
        let session = Session(sink: sink)
        session.execute("help category")
        // Each with the options it takes.
        #expect(sink.out.contains("""
            usage: category TARGET NAME|none
                   category new NAME [--color C] [--icon I]
                   category delete NAME [--reassign OTHER|none]
                   category rename NAME NEW

            """), "\(sink.out)")
    }

    @Test(arguments: [
        ("apply", ["coffee", "groceries"], true), ("apply", ["desc:x", "=>", "+y"], true), ("apply", ["desc:x", "+y"], false),
        ("intent", ["1", "want"], true), ("intent", ["1", "maybe"], false), ("intent", ["1"], false),
        ("category", ["delete", "Cafes"], true), ("category", ["rename", "A"], false), ("summary", ["date:2025", "by", "month"], true),
        ("summary", ["by", "week"], true), ("summary", ["by", "colour"], false), ("summary", ["by", "tag", "by", "month"], true), ("rule", ["show", "x"], true), ("rule", ["x", "desc:y"], false), ("undo", ["1", "2"], false),
    ])
    func formsAcceptExactlyTheirWords(_ name: String, _ words: [String], _ accepted: Bool) throws {
        let command = try #require(CommandRegistry.standard.command(named: name))
        #expect(command.forms.contains { Grammar.accepts($0, words: words) } == accepted)
    }
}
