import TagshFormats
import TagshModel
import TagshQuery

extension Commands {
    static let show: Command = Command(
        name: "show", group: .exploring, forms: [[.value("ID")]],
        summary: "show every field of one transaction, tags as coloured chips, and a CSV record's own columns",
        options: [.init("json", "the transaction as a JSON object")],
        examples: ["show 42"]
    ) { (inv: inout Invocation) throws(ShellError) in
        let ledger = try inv.requireLedger()
        guard let w = inv.words.first else { throw .usage("usage: show ID", span: nil) }
        try inv.expectAtMost(1)
        let row = try inv.row(w, in: ledger)
        let t = ledger.transaction(row)
        if inv.flag("json") || inv.session.jsonOutput {
            inv.out.line(Export.json(t))
            return
        }
        let s = inv.out.style
        let r = Render(ledger: ledger, style: s)
        var fields: [(String, String)] = [
            ("date", t.day.description),
            ("merchant", TextSafety.sanitize(t.merchant)),
            ("amount", r.amount(row)),
            ("account", TextSafety.sanitize(t.account)),
            ("intent", t.intent.map { s.paint("\($0) (\($0.mark))", $0.color) } ?? s.dim("none")),
            ("category", ledger.category[row] == 0 ? s.dim("none") : r.category(ledger.category[row]).styled),
            ("tags", t.tags.isEmpty ? s.dim("none") : t.tags.map { "[" + r.tagChip($0) + "]" }.joined(separator: " ")),
            ("note", t.note.map(TextSafety.sanitize) ?? s.dim("none")),
        ]
        if let source = inv.session.source(ofRow: row) { fields.append(("source", source)) }
        inv.out.line(s.bold("transaction \(t.id)"))
        for (k, v) in fields { inv.out.line("  " + s.bold(TextSafety.pad(k, 9)) + v) }
        // Every column of the record as the bank wrote it (`col:NAME=VALUE` queries them).
        let original = inv.session.originalFields(row: row)
        if !original.isEmpty {
            inv.out.line(s.bold("  columns"))
            let width = original.map { TextSafety.sanitize($0.name).count }.max() ?? 0
            for (name, value) in original {
                let line = "    " + TextSafety.pad(TextSafety.sanitize(name), width) + "  " + TextSafety.sanitize(value)
                inv.out.line(String(line.reversed().drop { $0 == " " }.reversed()))
            }
        }
        // What `suggest ID` would propose, at suggest-threshold.
        let suggestions = inv.session.suggestions(row: row)
        if !suggestions.isEmpty {
            inv.out.line(s.bold("  suggested"))
            for sug in suggestions {
                inv.out.line("    " + TextSafety.pad(sug.label, 20) + "  " + Settings.decimal(sug.confidence) + "  " + TextSafety.sanitize(sug.evidence))
            }
        }
    }
}

extension Invocation {
    /// The row of a transaction id word, checked against the ledger.
    func row(_ w: Word, in ledger: Ledger) throws(ShellError) -> Int {
        guard let id = Int(w.text) else { throw .usage("'\(w.text)' is not a transaction id", span: w.span) }
        guard id >= 1 && id <= ledger.count else {
            throw .usage("no transaction \(id): ids run from 1 to \(ledger.count)", span: w.span)
        }
        return id - 1
    }
}
