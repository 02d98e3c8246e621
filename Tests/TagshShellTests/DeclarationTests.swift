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
        #expect(sink.out.contains("usage: category TARGET NAME|none [--color C]"))
        #expect(sink.out.contains("       category rename NAME NEW [--color C]"))
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
