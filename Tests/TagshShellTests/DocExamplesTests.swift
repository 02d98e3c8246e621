import Foundation
import Testing
@testable import TagshShell
import TagshQuery

/// Docs that run: every example the README shows at a prompt and every example
/// `help COMMAND` shows is run against the demo ledger. An example the README
/// shows with an `error:` after it must fail; every other one must succeed, and
/// the output the README shows under a command must be what tagsh prints
/// (`…` stands for lines left out).
///
/// The examples run in a scratch folder holding the files they name, with the
/// working folder changed, under the lock the transcripts take too.
@Suite(.serialized)
struct DocExamplesTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// A README session: the prompt lines of one fenced block, each with the output shown under it.
    struct Step {
        var command: String
        var shown: [String]
        var line: Int
    }

    static func readmeSessions() throws -> [[Step]] {
        let text = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        var sessions: [[Step]] = []
        var current: [Step]?
        let prompt = /^[A-Za-z0-9._-]+\*?> (.*)$/
        for (n, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            if line.hasPrefix("```") {
                if let c = current, !c.isEmpty { sessions.append(c) }
                current = current == nil ? [] : nil
                continue
            }
            guard current != nil else { continue }
            if let m = line.wholeMatch(of: prompt) {
                current?.append(Step(command: String(m.1), shown: [], line: n + 1))
            } else if var last = current?.popLast() {
                last.shown.append(String(line))
                current?.append(last)
            }
        }
        return sessions
    }

    /// A folder holding every file the examples name, as the current directory while `body` runs.
    static func inScratchFolder(_ body: () throws -> Void) throws {
        let fm = FileManager.default
        let work = fm.temporaryDirectory.appendingPathComponent("tagsh-docs-\(UUID().uuidString)")
        try fm.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? fm.removeItem(at: work) }
        let fixtures = root.appendingPathComponent("Tests/TagshFormatsTests/Fixtures")
        for (name, fixture) in [("checking.csv", "basic.csv"), ("card.csv", "debit-credit.csv"), ("2025.journal", "edge.journal"),
                                 ("main.beancount", "edge.beancount")] {
            try fm.copyItem(at: fixtures.appendingPathComponent(fixture), to: work.appendingPathComponent(name))
        }
        try "Date,Description,Amount\n05/03/2024,SHOP,-1.00\n13/03/2024,CAFE,-2.00\n".write(to: work.appendingPathComponent("export.csv"), atomically: true, encoding: .utf8)
        try ColumnMappingTests.wellsFargo.write(to: work.appendingPathComponent("wellsfargo.csv"), atomically: true, encoding: .utf8)
        try "count\n".write(to: work.appendingPathComponent("cleanup.tagsh"), atomically: true, encoding: .utf8)
        // Next month's export for 2025.journal (edge.journal): two rows already there, two identical coffees and a new shop.
        try "Date,Description,Amount\n01/02/2024,STARBUCKS #1234,-4.75\n01/03/2024,RENT JANUARY,-1200.00\n01/08/2024,STARBUCKS #1234,-4.75\n01/08/2024,STARBUCKS #1234,-4.75\n01/09/2024,REWE MARKT,-52.10\n"
            .write(to: work.appendingPathComponent("march.csv"), atomically: true, encoding: .utf8)
        // A savings account the checking account (basic.csv) moved money to.
        try "Date,Description,Amount\n2024-01-08,FROM CHECKING,52.10\n".write(to: work.appendingPathComponent("savings.csv"), atomically: true, encoding: .utf8)
        workingFolderLock.lock()
        let previous = fm.currentDirectoryPath
        fm.changeCurrentDirectoryPath(work.path)
        defer {
            fm.changeCurrentDirectoryPath(previous)
            workingFolderLock.unlock()
        }
        try body()
    }

    static func demoSession() -> (Session, BufferSink) {
        let sink = BufferSink()
        let session = Session(sink: sink)
        session.openDemo()
        return (session, sink)
    }

    @Test func everyReadmeExampleRunsAndPrintsWhatTheReadmeShows() throws {
        let sessions = try Self.readmeSessions()
        #expect(sessions.count >= 2)
        #expect(sessions.map(\.count).reduce(0, +) >= 15)
        try Self.inScratchFolder {
            for steps in sessions {
                let (session, sink) = Self.demoSession()
                for step in steps {
                    sink.reset()
                    // `review ...  # keys: w n <Enter>` plays those keys on an 80-column console, as the capture shows them.
                    if let keys = step.command.range(of: "# keys: ") {
                        session.console = ScriptedConsole(String(step.command[keys.upperBound...]), columns: 80)
                    }
                    defer { session.console = nil }
                    let status = session.execute(step.command)
                    let expectsError = step.shown.first?.hasPrefix("error:") == true
                    if expectsError {
                        #expect(status != .ok, "README.md:\(step.line): `\(step.command)` should fail")
                    } else {
                        #expect(status == .ok, "README.md:\(step.line): `\(step.command)` failed: \(sink.err)")
                    }
                    // The shown lines appear in the output, in order.
                    // The rate review shows (`36/min`) depends on the clock.
                    func steady(_ line: String) -> String { line.replacing(/[0-9–]+\/min/, with: "N/min") }
                    let actual = sink.combined.split(separator: "\n", omittingEmptySubsequences: false).map {
                        steady(String($0.reversed().drop { $0 == " " }.reversed()))
                    }
                    var at = 0
                    for shown in step.shown where !shown.trimmingCharacters(in: .whitespaces).hasPrefix("…") && !shown.isEmpty {
                        let want = steady(String(shown.reversed().drop { $0 == " " }.reversed()))
                        guard let found = actual[at...].firstIndex(of: want) else {
                            Issue.record("README.md:\(step.line): `\(step.command)` does not print\n  \(want)\nit prints:\n\(sink.combined)")
                            break
                        }
                        at = found + 1
                    }
                }
            }
        }
    }

    /// The lines of the README's `sh` blocks (a heredoc kept whole, with its body), with their line numbers.
    static func shellLines() throws -> [(line: Int, text: String, heredoc: String?)] {
        let text = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        var out: [(Int, String, String?)] = []
        var inShell = false
        var heredoc: (line: Int, text: String, end: String, body: [String])?
        for (n, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = String(raw)
            if var h = heredoc {
                if line == h.end { out.append((h.line, h.text, h.body.joined(separator: "\n") + "\n")); heredoc = nil } else {
                    h.body.append(line)
                    heredoc = h
                }
                continue
            }
            if line.hasPrefix("```") { inShell = line == "```sh"; continue }
            guard inShell, !line.trimmingCharacters(in: .whitespaces).isEmpty else { continue }
            if let m = line.firstMatch(of: /<<'([A-Z]+)'/) { heredoc = (n + 1, line, String(m.1), []) } else { out.append((n + 1, line, nil)) }
        }
        return out
    }

    /// Every README shell line that runs tagsh runs, in process: `tagsh LEDGER -c CMD -f FILE`, `echo 'CMD' | tagsh
    /// LEDGER`, a `cat > FILE <<'END'` script and `./SCRIPT LEDGER`. A line that runs tagsh in a way this test does
    /// not know fails it; the set-up, test and tool scripts are left to CI.
    @Test func everyReadmeShellLineRuns() throws {
        let lines = try Self.shellLines()
        var ran = 0
        try Self.inScratchFolder {
            try FileManager.default.createDirectory(atPath: "home/finance", withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: "2025.journal", toPath: "home/finance/2025.journal")
            try FileManager.default.copyItem(atPath: "main.beancount", toPath: "home/finance/main.beancount")
            try DemoLedger.csv.write(toFile: "march.csv", atomically: true, encoding: .utf8)
            for (number, line, body) in lines {
                let what = "README.md:\(number): \(line)"
                let words = (try? Lexer.words(in: line)) ?? []
                guard let first = words.first?.text else { continue }
                if let body {
                    guard first == "cat", words.count >= 3, words[1].raw == ">" else { Issue.record("\(what): not understood"); continue }
                    try body.write(toFile: words[2].text, atomically: true, encoding: .utf8)
                    continue
                }
                if first.hasPrefix("scripts/") || first == ".ci/run" || first == "chmod" { continue }
                var ledger: String?, sources: [(script: Bool, text: String)] = [], stdin: String?
                var tagshWords: ArraySlice<Word> = []
                if first == "tagsh" {
                    tagshWords = words.dropFirst()
                } else if first == "echo", words.count > 3, words[2].raw == "|", words[3].text == "tagsh" {
                    stdin = words[1].text
                    tagshWords = words.dropFirst(4)
                } else if first.hasPrefix("./"), words.count >= 2 {
                    let script = String(first.dropFirst(2))
                    #expect((try? String(contentsOfFile: script, encoding: .utf8))?.hasPrefix("#!/usr/bin/env -S tagsh -f") == true, "\(what)")
                    sources = [(true, script)]
                    tagshWords = words[1...1]
                } else {
                    Issue.record("\(what): a shell line this test does not know how to run")
                    continue
                }
                var i = tagshWords.startIndex
                while i < tagshWords.endIndex {
                    let w = tagshWords[i].text
                    if (w == "-c" || w == "-f") && i + 1 < tagshWords.endIndex {
                        sources.append((w == "-f", tagshWords[i + 1].text))
                        i += 2
                    } else {
                        ledger = w.hasPrefix("~/") ? "home/" + w.dropFirst(2) : w
                        i += 1
                    }
                }
                let sink = BufferSink()
                let shell = Session(sink: sink)
                if let ledger { #expect(shell.execute("open " + Lexer.quote(ledger)) == .ok, "\(what): \(sink.err)") }
                for source in sources {
                    let status = source.script
                        ? shell.runScript((try? String(contentsOfFile: source.text, encoding: .utf8)) ?? "", name: source.text)
                        : shell.execute(source.text)
                    #expect(status == .ok || status == .quit, "\(what): \(sink.err)")
                }
                if let stdin { #expect(shell.runScript(stdin, name: "<stdin>") == .ok, "\(what): \(sink.err)") }
                shell.close()
                ran += 1
            }
        }
        #expect(ran >= 5)
    }

    /// What an example needs before it can run (a rule to preview, steps to undo, a file of its own).
    static let preludes: [String: [String]] = [
        "save": ["open checking.csv"],
        "import": ["open checking.csv 2025.journal"],
        "transfers": ["open checking.csv savings.csv"],
        "columns": ["open wellsfargo.csv"],
        "category": ["select starbucks"],
        "preview": ["rule coffee starbucks => +coffee", "rule groceries desc:rewe => category Groceries"],
        "apply": ["rule coffee starbucks => +coffee", "preview coffee"],
        "undo": ["tag 1 +a", "tag 2 +b", "tag 3 +c", "tag 4 +d"],
        "redo": ["tag 1 +a", "tag 2 +b", "tag 3 +c", "undo 3"],
        "tag": ["select starbucks"], "intent": ["select starbucks"], "note": ["select starbucks"],
        "tags": ["tag 1 +trip/lisbon", "tag 2 +cofee", "tag 3 +old-tag"],
    ]

    @Test(arguments: CommandRegistry.standard.commands.map(\.name))
    func everyHelpExampleRuns(_ name: String) throws {
        let command = try #require(CommandRegistry.standard.command(named: name))
        try Self.inScratchFolder {
            let (session, sink) = Self.demoSession()
            for line in Self.preludes[name] ?? [] {
                try #require(session.execute(line) == .ok, "prelude `\(line)`: \(sink.err)")
            }
            if name == "recover" || name == "discard" {
                // A session that ended abruptly left a journal.
                try "tag 1 +recovered\n".write(toFile: "checking.csv.tagsh-recover", atomically: true, encoding: .utf8)
                try #require(session.execute("open checking.csv") == .ok)
            }
            // review needs a console: each example runs with one that leaves at once (q).
            if name == "review" { session.console = ScriptedConsole("q q q") }
            // edit runs what the editor returns.
            if name == "edit" {
                let console = ScriptedConsole("")
                console.edited = "count"
                session.console = console
            }
            for example in command.examples {
                sink.reset()
                if name == "review" { session.console = ScriptedConsole("q") }
                #expect(session.execute(example) != .failed(1) && session.execute("count") == .ok,
                        "help \(name): `\(example)` failed: \(sink.err)")
            }
        }
    }
}
