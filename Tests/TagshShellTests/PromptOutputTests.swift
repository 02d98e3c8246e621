import Foundation
import Testing
@testable import TagshShell

/// `COMMAND | SHELL-COMMAND` and the pager at the prompt.
struct PipeAndPagerTests {
    @Test func aPipeHandsTheOutputToAShellCommand() {
        let (s, sink) = DocExamplesTests.demoSession()
        #expect(s.execute("ls starbucks | wc -l") == .ok, "\(sink.err)")
        #expect(sink.out.trimmingCharacters(in: .whitespaces) == "56\n")
        sink.reset()
        #expect(s.execute("count 'desc:/starbucks|rewe/'") == .ok)
        #expect(sink.out == "98\n")
        sink.reset()
        #expect(s.execute("echo a '|' b") == .ok)
        #expect(sink.out == "a | b\n")
        #expect(s.execute("ls | exit 3") == .failed(1))
        #expect(s.execute("ls |") == .failed(1) && sink.err.contains("a pipe is"))
        // The undo step and history keep the command without the pipe.
        s.execute("tag 1 +x | cat")
        #expect(s.steps.last?.command == "tag 1 +x")
    }

    @Test func outputLongerThanTheScreenGoesThroughThePager() {
        let (s, sink) = DocExamplesTests.demoSession()
        var paged: [String] = []
        s.pager = { paged.append($0); return true }
        s.terminalHeight = { 24 }
        s.execute("ls")
        #expect(paged.isEmpty, "not at the prompt: no pager")
        s.isInteractive = true
        sink.reset()
        s.execute("ls")
        #expect(paged.count == 1 && paged[0].contains("(542 transactions)") && !sink.out.contains("STARBUCKS"))
        s.execute("ls --limit 5")
        #expect(paged.count == 1 && sink.out.contains("(5 of 542 transactions)"))
        s.execute("ls > /dev/null")
        #expect(paged.count == 1)
        s.execute("set pager off")
        s.execute("ls")
        #expect(paged.count == 1 && sink.out.contains("(542 transactions)"))
    }

    @Test func aRedirectionToADeviceWritesItAndNeverReplacesIt() throws {
        let (s, sink) = DocExamplesTests.demoSession()
        #expect(s.execute("ls > /dev/null") == .ok, "\(sink.err)")
        let attributes = try FileManager.default.attributesOfItem(atPath: "/dev/null")
        #expect(attributes[.type] as? FileAttributeType == .typeCharacterSpecial, "/dev/null was replaced: \(attributes)")
        sink.reset()
        #expect(s.execute("save /dev/null") == .failed(74))
        #expect(sink.err.contains("not a regular file"), "\(sink.err)")
        #expect(try FileManager.default.attributesOfItem(atPath: "/dev/null")[.type] as? FileAttributeType == .typeCharacterSpecial)
    }
}
