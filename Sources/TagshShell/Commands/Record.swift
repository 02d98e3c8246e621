import TagshFormats
import TagshModel

extension Commands {
    static let record: Command = Command(
        name: "record", group: .session, forms: [[.optional([.file])], [.keyword("off")]],
        summary: "append every command that succeeds to FILE, as a replayable script",
        details: "Commands are appended as typed, one per line, as soon as they succeed; `record off` stops. Replay with `source FILE` or `tagsh LEDGER -f FILE`.",
        examples: ["record cleanup.tagsh", "record off"]
    ) { (inv: inout Invocation) throws(ShellError) in
        guard let w = inv.words.first else {
            inv.out.line(inv.session.record.map { "recording to \(TextSafety.sanitize($0.path))" } ?? "not recording")
            return
        }
        try inv.expectAtMost(1)
        if w.text == "off" && !w.isQuoted {
            guard inv.session.record != nil else { throw .failed("not recording") }
            inv.session.record = nil
            return
        }
        do throws(FileError) { inv.session.record = try AppendFile(path: w.text) } catch { throw .file(error) }
        inv.out.note("recording to \(TextSafety.sanitize(w.text))")
    }

    static let recover: Command = Command(
        name: "recover", group: .session, forms: [[]],
        summary: "replay the changes a session that ended abruptly left in the recovery journal",
        details: "When a ledger is opened and LEDGER.tagsh-recover exists, tagsh says so and changes nothing: `recover` replays its commands as unsaved changes, and `save` then writes them (`discard` drops them).",
        examples: ["recover"]
    ) { (inv: inout Invocation) throws(ShellError) in
        try inv.expectAtMost(0)
        let replayed = try inv.session.recover()
        inv.out.note("recovered: replayed \(plural(replayed, "command")) from the recovery journal; `save` keeps what they changed")
    }

    static let discard: Command = Command(
        name: "discard", group: .session, forms: [[]],
        summary: "drop the recovery journal left by a session that ended abruptly",
        examples: ["discard"]
    ) { (inv: inout Invocation) throws(ShellError) in
        try inv.expectAtMost(0)
        try inv.session.discardRecovery()
        inv.out.note("discarded the recovery journal")
    }
}
