import Foundation
import Testing
@testable import TagshShell
import TagshModel

/// Ctrl-C reaches commands through `Session.interrupted`: a long command that
/// sees it fails with `interrupted` and changes nothing.
struct InterruptTests {
    /// A CSV ledger of `count` transactions, big enough that the loops over it
    /// ask `interrupted` more than once (every 4096 rows, every 512 lines written).
    static func ledgerFile(rows count: Int) throws -> (folder: URL, path: String) {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("tagsh-interrupt-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        var text = "Date,Description,Amount,Tags\n"
        let merchants = ["STARBUCKS 1234", "REWE", "UBER TRIP", "AMAZON", "SHELL"]
        for i in 0..<count {
            let day = i % 28 + 1
            text += "2025-03-\(day < 10 ? "0" : "")\(day),\(merchants[i % merchants.count]),-\(i % 90 + 1).\(i % 10)0,"
            text += (i % 3 == 0 ? "coffee" : "") + "\n"
        }
        let path = dir.appendingPathComponent("big.csv").path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return (dir, path)
    }

    /// The session's observable state that an interrupted command must leave alone.
    struct Snapshot: Equatable {
        var selection: [Int]?
        var steps: Int
        var position: Int
        var ledgerVersion: Int
        /// The transactions' tag sets, folded into one number (a failure prints the snapshot).
        var tagSets: Int
        var hasPreview: Bool
        var unsaved: Bool

        init(_ s: Session) {
            selection = s.selection
            steps = s.steps.count
            position = s.position
            ledgerVersion = s.ledgerVersion
            tagSets = (s.ledger?.tagSet ?? []).reduce(0) { $0 &* 31 &+ Int($1) }
            hasPreview = s.lastPreview != nil
            unsaved = s.hasUnsavedChanges
        }
    }

    static let longCommands = [
        "ls", "ls --json", "ls -uber --sort amount", "summary", "summary by merchant", "summary by tag --json",
        "merchants", "tags", "preview amt:<0 => +ride", "apply amt:<0 => +ride", "suggest rules",
        "preview suggestions --min-confidence 0.3", "apply suggestions --min-confidence 0.3",
    ]

    /// With Ctrl-C already pressed, each long command fails at once: no output, no change.
    @Test(arguments: longCommands)
    func interruptedBeforeItStarts(_ line: String) throws {
        let (dir, path) = try Self.ledgerFile(rows: 100)
        defer { try? FileManager.default.removeItem(at: dir) }
        let sink = BufferSink()
        let session = Session(sink: sink)
        #expect(session.execute("open \(path)") == .ok)
        #expect(session.execute("select id:1..5") == .ok)
        #expect(session.execute("tag 1 +x") == .ok)
        let before = Snapshot(session)
        sink.reset()
        session.interrupted = { true }
        #expect(session.execute(line) == .failed(1))
        #expect(sink.out == "")
        #expect(sink.err == "error: interrupted\n")
        #expect(Snapshot(session) == before)
        // Nothing is left half done: the next command runs normally.
        session.interrupted = { false }
        #expect(session.execute("undo") == .ok)
        #expect(session.steps.count == 1 && session.position == 0)
    }

    /// Ctrl-C pressed while the command runs (the closure says yes only from
    /// its `n`th call on): the loops ask again as they go, and the command
    /// still changes nothing. An interrupted ls prints no count line and leaves @.
    @Test(arguments: longCommands, [2, 3, 5])
    func interruptedWhileRunning(_ line: String, _ n: Int) throws {
        let (dir, path) = try Self.ledgerFile(rows: 20_000)
        defer { try? FileManager.default.removeItem(at: dir) }
        let sink = BufferSink()
        let session = Session(sink: sink)
        #expect(session.execute("open \(path)") == .ok)
        #expect(session.execute("select id:1..5") == .ok)
        let before = Snapshot(session)
        sink.reset()
        var calls = 0
        session.interrupted = { calls += 1; return calls >= n }
        #expect(session.execute(line) == .failed(1))
        #expect(calls >= n, "interrupted was asked \(calls) times")
        #expect(sink.err == "error: interrupted\n")
        #expect(!sink.out.contains("transactions)"))
        #expect(Snapshot(session) == before)
    }

    /// Ctrl-C pressed once the listing has begun to appear: writing stops
    /// within a few hundred lines (to a terminal, writing is the slow part).
    @Test(arguments: ["ls", "ls --json", "ls -uber --sort amount"])
    func interruptedWhileWriting(_ line: String) throws {
        let (dir, path) = try Self.ledgerFile(rows: 20_000)
        defer { try? FileManager.default.removeItem(at: dir) }
        let sink = BufferSink()
        let session = Session(sink: sink)
        #expect(session.execute("open \(path)") == .ok)
        #expect(session.execute("select id:1..5") == .ok)
        let before = Snapshot(session)
        sink.reset()
        session.interrupted = { !sink.out.isEmpty }
        #expect(session.execute(line) == .failed(1))
        #expect(sink.out.split(separator: "\n").count <= 600)
        #expect(sink.err == "error: interrupted\n")
        #expect(Snapshot(session) == before)
    }

    /// Without Ctrl-C the same commands run, so the tests above fail for the right reason.
    @Test(arguments: longCommands)
    func uninterruptedTheyRun(_ line: String) throws {
        let (dir, path) = try Self.ledgerFile(rows: 20_000)
        defer { try? FileManager.default.removeItem(at: dir) }
        let sink = BufferSink()
        let session = Session(sink: sink)
        #expect(session.execute("open \(path)") == .ok)
        #expect(session.execute(line) == .ok, "\(sink.err)")
    }

    /// `save` looks for Ctrl-C after working out the new file and before
    /// writing anything: the file, its .bak and the unsaved state stay.
    @Test func interruptedSaveWritesNothing() throws {
        let (dir, path) = try scratchCopy(of: "basic.csv")
        defer { try? FileManager.default.removeItem(at: dir) }
        let original = try Data(contentsOf: URL(fileURLWithPath: path))
        let sink = BufferSink()
        let session = Session(sink: sink)
        #expect(session.execute("open \(path)") == .ok)
        #expect(session.execute("tag 1 +x") == .ok)
        session.interrupted = { true }
        #expect(session.execute("save") == .failed(1))
        #expect(sink.err.hasSuffix("error: interrupted\n"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == original)
        #expect(!FileManager.default.fileExists(atPath: path + ".bak"))
        #expect(session.hasUnsavedChanges)
        session.interrupted = { false }
        #expect(session.execute("save") == .ok)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) != original)
    }
}
