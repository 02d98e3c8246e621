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

    /// A record of more than `CSVReader.mostFields` fields (ten thousand, and the four columns a save may add) is
    /// refused, naming its line and the column of the first field past the limit; `--skip-bad` skips it, and the
    /// save keeps its line as it was. A file whose records have ten thousand fields gets the annotation columns on
    /// save, and reads back.
    @Test func aRecordOfTooManyFieldsIsRefusedAndAFileTagshWroteReadsBack() throws {
        let most = 10_004
        let header = "Date,Description,Amount" + String(repeating: ",x", count: 9_997)
        let row = "2024-01-01,SHOP,-1.00" + String(repeating: ",", count: 9_997)
        #expect(header.split(separator: ",", omittingEmptySubsequences: false).count == 10_000)
        let (folder, path) = try scratchFile("wide.csv", prefix: "tagsh-fields")
        defer { try? FileManager.default.removeItem(at: folder) }
        // Ten thousand fields: read, tagged, saved with four more, read back.
        try (header + "\n" + row + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        let sink = BufferSink()
        var s = Session(sink: sink)
        s.sourcesSidecar = false
        #expect(s.execute("open \(path)") == .ok, "\(sink.err)")
        #expect(s.execute("tag 1 +x") == .ok && s.execute("save") == .ok, "\(sink.err)")
        let saved = try String(contentsOfFile: path, encoding: .utf8)
        #expect(saved.split(separator: "\n").first?.split(separator: ",", omittingEmptySubsequences: false).count == most)
        s = Session(sink: sink)
        s.sourcesSidecar = false
        #expect(s.execute("open \(path)") == .ok, "\(sink.err)")
        #expect(s.ledger?.count == 1 && s.execute("count tag:x") == .ok)
        // One more field on the second line: refused, naming line 2 and the field past the limit.
        let over = "2024-01-02,OVER,-2.00" + String(repeating: ",", count: most - 2)
        let text = header + "\n" + row + "\n" + over + "\n" + row + "\n"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        sink.reset()
        s = Session(sink: sink)
        s.sourcesSidecar = false
        #expect(s.execute("open \(path)") != .ok)
        let column = "2024-01-02,OVER,-2.00".count + (most - 2) + 1
        #expect(sink.err.contains("wide.csv:3:\(column): error: more than \(most) fields in one record"), "\(sink.err.prefix(300))")
        #expect(sink.err.utf8.count < 2_000)
        // --skip-bad: the other two load, and a save keeps the line as it was.
        sink.reset()
        s = Session(sink: sink)
        s.sourcesSidecar = false
        #expect(s.execute("open \(path) --skip-bad") == .ok, "\(sink.err.prefix(300))")
        #expect(s.ledger?.count == 2)
        #expect(s.execute("tag 2 +y") == .ok && s.execute("save") == .ok, "\(sink.err.prefix(300))")
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == 5 && lines[2] == Substring(over))
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
        // A character Windows-1252 cannot hold is refused, naming the transaction (when the command runs:
        // whatWindows1252CannotHoldIsRefusedWhenTheCommandRuns); the file stays as saved.
        sink.reset()
        #expect(s.execute("note 1 'emoji ☕'") != .ok)
        #expect(sink.err.contains("transaction 1: the file is Windows-1252, which cannot hold '☕'"))
        #expect(s.execute("save") == .ok)
        #expect(Array(try Data(contentsOf: URL(fileURLWithPath: path))) == saved)
    }

    /// What a Windows-1252 file cannot hold is refused when the command runs, as the journal and beancount
    /// refusals are, not at save after later steps (`note 4 "a → b"` was accepted and only `save` refused it):
    /// a note, a tag, a category given to a transaction, a category in use renamed. Nothing changes, and the
    /// save after them is byte-identical. A category no transaction has yet may be called anything.
    @Test func whatWindows1252CannotHoldIsRefusedWhenTheCommandRuns() throws {
        let (dir, path, sink, s) = try session("windows1252.csv")
        defer { try? FileManager.default.removeItem(at: dir) }
        #expect(s.execute("open \(path)") == .ok)
        let original = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(s.execute("category new 'Café → Bar'") == .ok, "\(sink.err)")
        #expect(s.execute("category new Pubs") == .ok && s.execute("category 2 Pubs") == .ok, "\(sink.err)")
        #expect(s.execute("undo") == .ok)
        let before = try #require(s.ledger)
        for (line, message) in [("note 1 'a → b'", "transaction 1: the file is Windows-1252, which cannot hold '→' (U+2192)"),
                                ("tag 1-2 +ok +łódź", "transaction 1: the file is Windows-1252, which cannot hold 'ł' (U+0142)"),
                                ("category 2 'Café → Bar'", "transaction 2: the file is Windows-1252, which cannot hold '→' (U+2192)")] {
            sink.reset()
            #expect(s.execute(line) != .ok, "\(line)")
            #expect(sink.err.contains("error: " + message + "\n"), "\(line): \(sink.err)")
            let now = try #require(s.ledger)
            #expect(now.note == before.note && now.tagSet == before.tagSet && now.category == before.category, "\(line) changed something")
        }
        #expect(s.execute("category 2 Pubs") == .ok)
        sink.reset()
        #expect(s.execute("category rename Pubs 'Pubs → Bars'") != .ok)
        #expect(sink.err.contains("error: transaction 2 is in Pubs: the file is Windows-1252, which cannot hold '→' (U+2192)\n"), "\(sink.err)")
        #expect(s.execute("category rename Pubs 'Pubs & Bars €'") == .ok, "\(sink.err)")
        #expect(s.execute("undo 2") == .ok && s.execute("save") == .ok, "\(sink.err)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == original)
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

    /// A caret at or past the end of a line too long to show whole is drawn at the end of the window shown: a span
    /// past the end crashed the renderer. A diagnostic holds at most 4 KB of its line, so any error further into a
    /// line was one: text after a closing quote 5,000 characters in crashed the last stop's build (exit 132).
    @Test func anErrorFarIntoALongLineIsShown() throws {
        let (folder, path) = try scratchFile("late.csv", prefix: "tagsh-late")
        defer { try? FileManager.default.removeItem(at: folder) }
        try ("Date,Description,Amount\n2024-01-01," + String(repeating: "x", count: 5_000) + ",\"1.00\"z\n")
            .write(toFile: path, atomically: true, encoding: .utf8)
        let sink = BufferSink()
        let s = Session(sink: sink)
        s.sourcesSidecar = false
        #expect(s.execute("open \(path)") != .ok)
        #expect(sink.err.contains("late.csv:2:5019: error: unexpected text after a closing quote"), "\(sink.err.prefix(300))")
        #expect(sink.err.split(separator: "\n").count == 3 && sink.err.utf8.count < 1_000)
    }

    /// A bad value is quoted in its error by its first 48 characters and "…" when longer: a 50 MB field in the date
    /// column made a 50 MB message (the line under it was already shown as a window).
    @Test(arguments: [
        ("date.csv", "Date,Description,Amount\n2024-01-01,A,-1.00\n{}9,B,-2.00\n2024-01-03,C,-3.00\n", "date.csv:3:1: error: cannot read date '"),
        ("amount.csv", "Date,Description,Amount\n2024-01-01,A,-1.00\n2024-01-02,B,{}x\n2024-01-03,C,-3.00\n", "amount.csv:3:14: error: cannot read amount '"),
        ("date.journal", "{}9 shop\n    Expenses:Food  1.00 EUR\n    Assets:Bank\n", "date.journal:1:1: error: cannot read the date '"),
    ])
    func aLongBadValueIsQuotedShort(_ name: String, _ template: String, _ message: String) throws {
        let (folder, path) = try scratchFile(name, prefix: "tagsh-long-value")
        defer { try? FileManager.default.removeItem(at: folder) }
        try template.replacingAll("{}", with: String(repeating: "1", count: 100_000)).write(toFile: path, atomically: true, encoding: .utf8)
        let sink = BufferSink()
        let s = Session(sink: sink)
        s.sourcesSidecar = false
        #expect(s.execute("open \(path)") != .ok)
        #expect(sink.err.contains(message + String(repeating: "1", count: 48) + "…'"), "\(sink.err.prefix(300))")
        #expect(sink.err.utf8.count < 1_000, "\(sink.err.utf8.count) bytes")
    }

    /// The renderer on its own, with the caret before, at and past the end of a 500-character line.
    @Test(arguments: [(0, 0), (250, 41), (499, 160), (500, 161), (501, 161), (520, 161)])
    func aCaretAtOrPastTheEndOfALongLine(at: Int, shown: Int) {
        let line = String(repeating: "a", count: 500)
        let d = Diagnostic("m", file: "f.csv", line: 3, column: at + 1, sourceLine: line, span: at..<(at + 1))
        let out = DiagnosticRenderer.render(d, style: .plain).split(separator: "\n")
        #expect(out.count == 3)
        #expect(out.last.map { $0.count - 1 - "3 | ".count } == shown, "\(out.last ?? "")")
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
