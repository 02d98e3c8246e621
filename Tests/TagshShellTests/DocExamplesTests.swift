import Foundation
import Testing
@testable import TagshShell

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
        for (name, fixture) in [("checking.csv", "basic.csv"), ("2025.journal", "edge.journal"), ("main.beancount", "edge.beancount")] {
            try fm.copyItem(at: fixtures.appendingPathComponent(fixture), to: work.appendingPathComponent(name))
        }
        try "Date,Description,Amount\n05/03/2024,SHOP,-1.00\n13/03/2024,CAFE,-2.00\n".write(to: work.appendingPathComponent("export.csv"), atomically: true, encoding: .utf8)
        try ColumnMappingTests.wellsFargo.write(to: work.appendingPathComponent("wellsfargo.csv"), atomically: true, encoding: .utf8)
        try "count\n".write(to: work.appendingPathComponent("cleanup.tagsh"), atomically: true, encoding: .utf8)
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
                    let status = session.execute(step.command)
                    let expectsError = step.shown.first?.hasPrefix("error:") == true
                    if expectsError {
                        #expect(status != .ok, "README.md:\(step.line): `\(step.command)` should fail")
                    } else {
                        #expect(status == .ok, "README.md:\(step.line): `\(step.command)` failed: \(sink.err)")
                    }
                    // The shown lines appear in the output, in order.
                    let actual = sink.combined.split(separator: "\n", omittingEmptySubsequences: false).map {
                        String($0.reversed().drop { $0 == " " }.reversed())
                    }
                    var at = 0
                    for shown in step.shown where !shown.trimmingCharacters(in: .whitespaces).hasPrefix("…") && !shown.isEmpty {
                        let want = String(shown.reversed().drop { $0 == " " }.reversed())
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

    /// What an example needs before it can run (a rule to preview, steps to undo, a file of its own).
    static let preludes: [String: [String]] = [
        "save": ["open checking.csv"],
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
            for example in command.examples {
                sink.reset()
                #expect(session.execute(example) != .failed(1) && session.execute("count") == .ok,
                        "help \(name): `\(example)` failed: \(sink.err)")
            }
        }
    }
}
