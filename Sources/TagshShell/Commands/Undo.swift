#if canImport(Glibc)
import Glibc
#endif
import TagshModel

/// A step's command as `undo`, `redo`, `history` and `blame` show it. A step replayed from the recovery journal
/// names every id its target took (`intent @ want` is replayed as `intent 2-14,16-29,…`): after `recover`, one
/// `history` printed 185 KB for two steps. Past 100 characters, the middle is left out.
func shownCommand(_ command: String) -> String {
    guard command.count > 100 else { return command }
    return String(command.prefix(60)) + " … " + String(command.suffix(36))
}

extension Commands {
    static let undo: Command = Command(
        name: "undo", group: .undo, forms: [[.optional([.value("N")])]],
        summary: "undo the last N steps (default 1)",
        details: """
            Every change is one step, however many transactions it touched: annotations, categories, rule \
            definitions and deletions, and the settings kept in the sidecar (max-tags, sample). `redo` brings \
            undone steps back until a new change is made. Steps of earlier sessions, kept by `save` in \
            LEDGER.tagsh-history, can be undone too while the file is the one tagsh saved. With N beyond \
            the steps there are, undoes them all and says how many that was.
            """,
        examples: ["undo", "undo 3"]
    ) { (inv: inout Invocation) throws(ShellError) in
        let n = try inv.count(default: 1)
        let steps = try inv.session.undo(n, line: inv.line.trimmingCharacters(in: " \t"))
        for step in steps { inv.out.note("undid: \(shownCommand(step.command))  [\(step.summary)]") }
        if steps.count < n { inv.out.note("(\(plural(steps.count, "step")) undone, not \(n): there are no more)") }
    }

    static let redo: Command = Command(
        name: "redo", group: .undo, forms: [[.optional([.value("N")])]],
        summary: "redo the last N undone steps (default 1)",
        details: "With N beyond the undone steps there are, redoes them all and says how many that was.",
        examples: ["redo", "redo 2"]
    ) { (inv: inout Invocation) throws(ShellError) in
        let n = try inv.count(default: 1)
        let steps = try inv.session.redo(n, line: inv.line.trimmingCharacters(in: " \t"))
        for step in steps { inv.out.note("redid: \(shownCommand(step.command))  [\(step.summary)]") }
        if steps.count < n { inv.out.note("(\(plural(steps.count, "step")) redone, not \(n): there are no more)") }
    }

    static let history: Command = Command(
        name: "history", group: .undo, forms: [[]],
        summary: "list the steps: what each did, how many transactions, where you are and what is saved",
        details: """
            With --script, prints the session's effective changes as a replayable script: the steps that are \
            applied (undone ones left out), with @ replaced by the ids it stood for, after the settings they \
            depend on. Replaying it on the file as opened, then saving, gives the same file. \
            Steps of earlier sessions (read back from LEDGER.tagsh-history when the file is unchanged since \
            tagsh saved it) are listed first, with the date of their session. A command longer than 100 \
            characters is shown with its middle left out, here and by undo, redo and blame (a step replayed by \
            `recover` names every id its target took); --script prints it whole. A category renamed counts the \
            transactions in it now: none has its category changed, but each reads, and is saved, with the new name.
            """,
        options: [.init("script", "print the effective steps as a script")],
        examples: ["history", "history --script > cleanup.tagsh"]
    ) { (inv: inout Invocation) throws(ShellError) in
        try inv.expectAtMost(0)
        let session = inv.session
        if inv.flag("script") {
            // This session's effect on the file as it was opened: earlier sessions' steps it undid, then its own.
            let base = min(session.lowestEarlierPosition, session.position)
            let undone = session.earlierStepsAtOpen - base
            inv.out.line("# tagsh script: \(plural(session.position - base + (undone > 0 ? 1 : 0), "step")) from `history --script`")
            if session.settings.maxTags != Settings().maxTags { inv.out.line("set max-tags \(session.settings.maxTags)") }
            if undone > 0 { inv.out.line("undo \(undone)") }
            for step in session.steps[base..<session.position] { inv.out.line(step.replay) }
            return
        }
        let s = inv.out.style
        if let note = session.historyNote { inv.out.note(note) }
        if session.steps.isEmpty {
            inv.out.line("no changes yet")
            return
        }
        let earlier = session.steps.contains { $0.isEarlier }
        var table = Table([
            .init(header: ""), .init(header: "#", alignRight: true), .init(header: "COMMAND", shrinkable: true, minWidth: 12),
            .init(header: "TRANSACTIONS", alignRight: true), .init(header: ""),
        ] + (earlier ? [.init(header: "SESSION")] : []))
        if session.savedPosition == 0 {
            table.add([.init(""), .init("0"), .init("(as opened)"), .init(""), .init("saved")] + (earlier ? [.init("")] : []))
        }
        for (i, step) in session.steps.enumerated() {
            let n = i + 1
            var marks: [String] = []
            if n == session.savedPosition { marks.append("saved") }
            if n > session.position { marks.append("undone") }
            var row: [Table.Cell] = [
                .init(n == session.position ? ">" : ""), .init(String(n)), .init(TextSafety.sanitize(shownCommand(step.command))),
                .init(String(step.shownCount(in: session.ledger))), .init(marks.joined(separator: ", ")),
            ]
            if earlier { row.append(.init(step.isEarlier ? localTime(step.time) : "this one")) }
            table.add(row)
        }
        inv.out.text(table.render(width: session.tableWidth, style: s))
        if session.position == 0 { inv.out.line(s.dim("(every step is undone)")) }
    }

    static let blame: Command = Command(
        name: "blame", group: .undo, forms: [[.value("ID")]],
        summary: "show which step set each annotation of a transaction",
        examples: ["blame 412"]
    ) { (inv: inout Invocation) throws(ShellError) in
        let ledger = try inv.requireLedger()
        guard let w = inv.words.first else { throw .usage("usage: blame ID", span: nil) }
        try inv.expectAtMost(1)
        let row = try inv.row(w, in: ledger)
        let session = inv.session
        let r = Render(ledger: ledger, style: inv.out.style)
        let t = ledger.transaction(row)
        let values: [ChangeSet.Field: String] = [
            .intent: t.intent?.description ?? "none",
            .category: ledger.category[row] == 0 ? "none" : r.category(ledger.category[row]).plain,
            .tags: t.tags.isEmpty ? "none" : t.tags.map(TextSafety.sanitize).joined(separator: " "),
            .note: t.note.map(TextSafety.sanitize) ?? "none",
        ]
        inv.out.line(inv.out.style.bold("transaction \(t.id)") + "  " + TextSafety.sanitize(t.merchant))
        for field in ChangeSet.Field.allCases {
            var origin = "from the file"
            for n in stride(from: session.position - 1, through: 0, by: -1) {
                let c = session.steps[n].changes
                if (0..<c.count).contains(where: { Int(c.rows[$0]) == row && c.fields[$0] == field }) {
                    origin = "step \(n + 1): \(TextSafety.sanitize(shownCommand(session.steps[n].command)))"
                    break
                }
            }
            inv.out.line("  " + TextSafety.pad(field.description, 9) + TextSafety.pad(values[field] ?? "", 24) + "  " + origin)
        }
    }
}

/// `2026-11-23 14:05`, in the local time zone.
func localTime(_ seconds: Int) -> String {
    var t = time_t(seconds)
    var parts = tm()
    localtime_r(&t, &parts)
    var buffer = [CChar](repeating: 0, count: 32)
    let n = strftime(&buffer, buffer.count, "%Y-%m-%d %H:%M", &parts)
    return String(decoding: buffer.prefix(n).map { UInt8(bitPattern: $0) }, as: UTF8.self)
}

extension Invocation {
    /// The optional count argument of undo and redo.
    func count(default d: Int) throws(ShellError) -> Int {
        try expectAtMost(1)
        guard let w = words.first else { return d }
        guard let n = Int(w.text), n >= 1 else { throw .usage("'\(w.text)' is not a number of steps", span: w.span) }
        return n
    }
}
