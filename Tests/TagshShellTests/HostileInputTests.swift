import Foundation
import Testing
import TagshFormats
import TagshModel
@testable import TagshShell

/// Bad files: each gets a clear error or the right handling, never a crash
/// or a half-written file.
struct HostileFileTests {
    func session(_ name: String) throws -> (URL, String, BufferSink, Session) {
        let (dir, path) = try scratchCopy(of: name)
        let sink = BufferSink()
        let s = Session(sink: sink)
        s.sourcesSidecar = false
        return (dir, path, sink, s)
    }

    @Test func windows1252IsDetectedDecodedAndSavedBackInIt() throws {
        let (dir, path, sink, s) = try session("windows1252.csv")
        defer { try? FileManager.default.removeItem(at: dir) }
        #expect(s.execute("open \(path)") == .ok)
        #expect(s.ledger?.transaction(0).merchant == "Bäckerei Müller")
        #expect(s.ledger?.transaction(1).merchant == "Café €uro")
        s.execute("info")
        #expect(sink.out.contains("Windows-1252"))
        s.execute("note 2 'Kaffee für 2 €'")
        #expect(s.execute("save") == .ok)
        let saved = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        // The new note in Windows-1252 bytes (ü = 0xFC, € = 0x80); the rows before keep their bytes.
        #expect(saved.starts(with: Array(try Data(contentsOf: fixtureFolder.appendingPathComponent("windows1252.csv"))).prefix(60)))
        let expectedTail: [UInt8] = Array(";Kaffee f".utf8) + [0xFC] + Array("r 2 ".utf8) + [0x80] + [0x0D, 0x0A]
        #expect(Array(saved.suffix(expectedTail.count)) == expectedTail)
        // A character Windows-1252 cannot hold is refused, naming the transaction; the file stays as saved.
        sink.reset()
        s.execute("note 1 'emoji ☕'")
        #expect(s.execute("save") != .ok)
        #expect(sink.err.contains("transaction 1: the file is Windows-1252, which cannot hold '☕'"))
        #expect(Array(try Data(contentsOf: URL(fileURLWithPath: path))) == saved)
    }

    @Test func unchangedWindows1252SaveIsByteIdentical() throws {
        let (dir, path, _, s) = try session("windows1252.csv")
        defer { try? FileManager.default.removeItem(at: dir) }
        s.execute("open \(path)")
        #expect(s.execute("save") == .ok)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Data(contentsOf: fixtureFolder.appendingPathComponent("windows1252.csv")))
    }

    @Test(arguments: [
        ("nul.csv", "nul.csv:2:15: error: the file holds a NUL byte, so it is not a text file"),
        ("latin1.journal", "latin1.journal:1:15: error: the file is not valid UTF-8 here (byte 0xE9); journal files are UTF-8"),
    ])
    func notTextIsRefusedWithLineAndColumn(_ name: String, _ message: String) throws {
        let sink = BufferSink()
        let s = Session(sink: sink)
        #expect(s.execute("open \(fixtureFolder.appendingPathComponent(name).path)") == .failed(65))
        #expect(sink.err.contains(message), "\(sink.err)")
        #expect(s.ledger == nil)
    }

    /// A single huge line (10 MB here, for the debug build; scripts/cli-test runs 100 MB against the binary).
    @Test func aSingleHugeLine() throws {
        var csv = Array("Date,Description,Amount\n2024-01-01,".utf8)
        let size = 10 << 20
        csv += [UInt8](repeating: 0x41, count: size)
        csv += Array(",-1.00".utf8)
        let loaded = try LedgerDocument.read(csv, fileName: "big.csv", format: .csv, options: ReadOptions())
        #expect(loaded.ledger.count == 1)
        #expect(loaded.ledger.transaction(0).merchant.utf8.count == size)
        // No line break at all: not a ledger, and the message quotes a window of it, not all of it.
        let noLines = [UInt8](repeating: 0x61, count: size)
        do {
            _ = try LedgerDocument.read(noLines, fileName: "x.csv", format: .csv, options: ReadOptions())
            Issue.record("read a file with no header")
        } catch let d as Diagnostic {
            #expect(DiagnosticRenderer.render(d, style: .plain).count < 1000)
        }
        var journal = Array("2024-01-01 ".utf8) + [UInt8](repeating: 0x42, count: size)
        journal += Array("\n    Expenses:Food  $1\n    Assets:Cash\n".utf8)
        let j = try LedgerDocument.read(journal, fileName: "big.journal", format: .journal, options: ReadOptions())
        #expect(j.ledger.count == 1)
        #expect(try j.document.renderMain(j.ledger, changedRows: []) == journal)
    }

    @Test(arguments: ["", "; only a comment\n", "option \"title\" \"x\"\n"])
    func emptyTextLedgersOpenWithNoTransactions(_ text: String) throws {
        for format in [LedgerFormat.journal, .beancount] {
            let loaded = try LedgerDocument.read(Array(text.utf8), fileName: "e", format: format, options: ReadOptions())
            #expect(loaded.ledger.count == 0)
            #expect(try loaded.document.renderMain(loaded.ledger, changedRows: []) == Array(text.utf8))
        }
    }

    @Test func anUnreadableFileIsAnErrorNamingIt() {
        // Reading /proc/self/mem at offset 0 fails with EIO, even for root.
        let sink = BufferSink()
        let s = Session(sink: sink)
        #expect(s.execute("open /proc/self/mem --format csv") == .failed(66))
        #expect(sink.err.contains("/proc/self/mem: Input/output error"), "\(sink.err)")
    }

    @Test func aSymlinkedLedgerIsSavedThroughTheLink() throws {
        let (dir, path, _, s) = try session("basic.csv")
        defer { try? FileManager.default.removeItem(at: dir) }
        let link = dir.appendingPathComponent("link.csv").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: path)
        s.execute("open \(link)")
        s.execute("tag 1 +linked")
        #expect(s.execute("save") == .ok)
        #expect((try FileManager.default.attributesOfItem(atPath: link)[.type] as? FileAttributeType) == .typeSymbolicLink)
        #expect(try String(contentsOfFile: path, encoding: .utf8).contains("linked"))
    }

    @Test func aWriteFailingHalfwayLeavesTheOriginalIntact() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("tagsh-fault-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("ledger.csv").path
        try DemoLedger.csv.write(toFile: path, atomically: true, encoding: .utf8)
        let sink = BufferSink()
        let s = Session(sink: sink)
        s.sourcesSidecar = false
        s.execute("open \(path)")
        s.execute("tag all +x")
        FileIO.injectWriteFault(forPathContaining: dir.lastPathComponent, afterBytes: 1000)
        defer { FileIO.clearWriteFault(forPathContaining: dir.lastPathComponent) }
        #expect(s.execute("save") == .failed(74))
        #expect(sink.err.contains("cannot write: Input/output error"), "\(sink.err)")
        #expect(try String(contentsOfFile: path, encoding: .utf8) == DemoLedger.csv)
        // No temporary file is left, and the changes are still there to save.
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasPrefix(".") && $0.contains(".tagsh-") }.isEmpty)
        #expect(s.hasUnsavedChanges)
        FileIO.clearWriteFault(forPathContaining: dir.lastPathComponent)
        #expect(s.execute("save") == .ok)
        #expect(try String(contentsOfFile: path, encoding: .utf8).contains(";x"))
    }

    /// The history is written beside the file while the file is (`save`); a save whose file cannot be written leaves
    /// the history as it was and no temporary of either, and a history that cannot be written is reported as before.
    @Test func theHistoryWrittenAlongsideIsKeptOnlyWithTheFile() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("tagsh-fault-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("ledger.csv").path
        try DemoLedger.csv.write(toFile: path, atomically: true, encoding: .utf8)
        let history = HistoryFile.path(for: path)
        func temporaries() throws -> [String] {
            try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasPrefix(".") && $0.contains(".tagsh-") }
        }
        let sink = BufferSink()
        let s = Session(sink: sink)
        s.sourcesSidecar = false
        s.execute("open \(path)")
        s.execute("tag 1 +first")
        #expect(s.execute("save") == .ok)
        let saved = try Data(contentsOf: URL(fileURLWithPath: history))
        #expect(String(decoding: saved, as: UTF8.self).contains("tag 1 +first"))
        // The file (thousands of bytes) fails; its history (a few hundred) would not.
        s.execute("tag 2 +second")
        let key = dir.lastPathComponent + "/ledger.csv"
        FileIO.injectWriteFault(forPathContaining: key, afterBytes: 1_500)
        defer { FileIO.clearWriteFault(forPathContaining: key) }
        #expect(s.execute("save") == .failed(74))
        #expect(try Data(contentsOf: URL(fileURLWithPath: history)) == saved)
        #expect(try temporaries() == [String]())
        // The history fails: named as it was when it was written after the file.
        FileIO.clearWriteFault(forPathContaining: key)
        let historyKey = dir.lastPathComponent + "/ledger.csv.tagsh-history"
        FileIO.injectWriteFault(forPathContaining: historyKey, afterBytes: 10)
        defer { FileIO.clearWriteFault(forPathContaining: historyKey) }
        sink.reset()
        #expect(s.execute("save") == .failed(74))
        #expect(sink.err.contains("ledger.csv.tagsh-history"), "\(sink.err)")
        #expect(try temporaries() == [String]())
        FileIO.clearWriteFault(forPathContaining: historyKey)
        // Saved again: the history holds both steps, read back by a second session.
        s.execute("tag 3 +third")
        #expect(s.execute("save") == .ok)
        #expect(try temporaries() == [String]())
        let t = Session(sink: BufferSink())
        t.sourcesSidecar = false
        t.execute("open \(path)")
        #expect(t.steps.count == 3, "\(t.steps.map(\.command))")
        // Every step undone and saved: no history is left beside the file (`writesHistory`).
        for _ in 0..<3 { s.execute("undo") }
        #expect(s.execute("save") == .ok)
        #expect(!FileManager.default.fileExists(atPath: history))
        #expect(try temporaries() == [String]())
    }
}
