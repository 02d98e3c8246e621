import Foundation
import Testing
import TagshModel
@testable import TagshShell

/// Held by every test that changes the process's working folder (suites run in parallel).
let workingFolderLock = NSLock()

/// Transcript tests: each `Transcripts/*.t` file is a session. A line
/// `$ COMMAND` runs COMMAND through `Session.execute`; the lines after it,
/// up to the next `$`, are the output expected (stdout and stderr as
/// written). Lines starting with `#` before the first command are comments.
/// A line `< KEYS` gives the next command a scripted console (`review`'s keys and prompt answers, as
/// `ScriptedConsole` reads them: `w n <Space> <Backspace> + "cof\t" q`); `<60 KEYS` makes the screen 60 columns wide.
/// The session starts with no ledger, colour off and tables 100 columns wide;
/// the working folder is a fresh temporary one holding copies of the CSV
/// fixtures, so `open`, `save` and `export` work on real files.
///
/// `TAGSH_RECORD=1 swift test` rewrites the files with the actual output, and
/// still fails, so that recording is never mistaken for passing.
@Suite(.serialized)
struct TranscriptTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Transcripts")
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("TagshFormatsTests/Fixtures")

    static var files: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter { $0.hasSuffix(".t") }.sorted()
    }

    @Test(arguments: files)
    func transcript(_ name: String) throws {
        let url = Self.folder.appendingPathComponent(name)
        let text = try String(contentsOf: url, encoding: .utf8)
        let (actual, expected) = try Self.run(text)
        if ProcessInfo.processInfo.environment["TAGSH_RECORD"] == "1" {
            try actual.write(to: url, atomically: true, encoding: .utf8)
            Issue.record("recorded \(name); check the diff and run again without TAGSH_RECORD")
            return
        }
        #expect(actual == expected, "\(name) differs:\n\(Self.diff(expected, actual))")
    }

    /// Runs a transcript; returns the transcript as it should read with the
    /// actual output, and the transcript as written.
    static func run(_ text: String) throws -> (String, String) {
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("tagsh-transcript-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        for f in (try? FileManager.default.contentsOfDirectory(atPath: fixtures.path)) ?? [] where !f.hasPrefix(".") {
            try FileManager.default.copyItem(at: fixtures.appendingPathComponent(f), to: work.appendingPathComponent(f))
        }
        workingFolderLock.lock()
        let previous = FileManager.default.currentDirectoryPath
        FileManager.default.changeCurrentDirectoryPath(work.path)
        defer {
            FileManager.default.changeCurrentDirectoryPath(previous)
            workingFolderLock.unlock()
        }

        let sink = BufferSink()
        let session = Session(sink: sink)
        session.settings.width = 100
        // A fixed clock: what review says of time and rate must not depend on how fast the machine is.
        session.clock = { 1_790_000_000 }
        // And a fixed today, for relative dates (`date:lastmonth`): a day inside the demo's range (which runs to 2026-10-31).
        session.today = { Day(year: 2026, month: 6, day: 30)! }
        try DemoLedger.csv.write(to: work.appendingPathComponent("demo.csv"), atomically: true, encoding: .utf8)
        var actual = ""
        var seenCommand = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("<"), let space = line.firstIndex(of: " "), line.dropFirst().prefix(while: \.isNumber).count == line.distance(from: line.index(after: line.startIndex), to: space) {
                // Keys and lines for the next command's console (`review`), as `ScriptedConsole` reads them;
                // `<60 KEYS` gives the console 60 columns (default 100).
                let columns = Int(line[line.index(after: line.startIndex)..<space]) ?? 100
                session.console = ScriptedConsole(String(line[line.index(after: space)...]), columns: columns)
                actual += line + "\n"
            } else if line.hasPrefix("$ ") {
                seenCommand = true
                let command = String(line.dropFirst(2))
                actual += line + "\n"
                sink.reset()
                session.execute(command)
                session.console = nil
                actual += sink.combined
            } else if !seenCommand {
                actual += line + "\n"
            }
        }
        var expected = text
        if !expected.hasSuffix("\n") { expected += "\n" }
        while actual.hasSuffix("\n\n") { actual.removeLast() }
        while expected.hasSuffix("\n\n") { expected.removeLast() }
        return (actual, expected)
    }

    static func diff(_ expected: String, _ actual: String) -> String {
        let e = expected.split(separator: "\n", omittingEmptySubsequences: false)
        let a = actual.split(separator: "\n", omittingEmptySubsequences: false)
        var out = ""
        for i in 0..<max(e.count, a.count) {
            let x = i < e.count ? String(e[i]) : "<none>", y = i < a.count ? String(a[i]) : "<none>"
            if x != y { out += "line \(i + 1):\n  expected: \(x)\n  actual:   \(y)\n" }
            if out.count > 3000 { break }
        }
        return out
    }
}
