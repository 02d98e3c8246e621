import TagshModel
import TagshQuery
import TagshRules

extension Commands {
    static let suggest = Command(
        name: "suggest", group: .rules, forms: [[.value("ID")], [.keyword("rules"), .optional([.query])]],
        summary: "suggest annotations for a transaction, or rules learned from the ledger",
        details: """
            `suggest ID` proposes tags, a category and an intent for one transaction, each with its reason: \
            what most of the merchant's other transactions carry, or, for a merchant seen for the first time, \
            what merchants sharing a word of its name carry. `suggest rules` proposes one rule per merchant \
            whose transactions mostly share an annotation that some lack, with the preview counts, printed \
            as `rule` commands ready to run. Ctrl-C stops a long `suggest rules` (it says `interrupted`).
            """,
        examples: ["suggest 412", "suggest rules", "suggest rules date:2025"]
    ) { (inv: inout Invocation) throws(ShellError) in
        guard var ledger = inv.session.ledger else { throw .noLedger }
        guard let first = inv.words.first else { throw .usage("usage: suggest ID | suggest rules [QUERY]", span: nil) }
        if first.text.lowercased() == "rules" && !first.isQuoted {
            let scopeWords = Array(inv.words.dropFirst())
            let query = try inv.query(scopeWords)
            if query.usesSelection { throw .usage("a suggested rule cannot depend on the selection @", span: nil) }
            let rows = inv.rows(matching: query, in: ledger).rows
            let proposals: [ProposedRule]
            do throws(PlanError) {
                proposals = try Suggester.proposeRules(ledger: &ledger, rows: rows, scope: scopeWords.map(\.raw).joined(separator: " "),
                                                       existing: inv.session.rules, maxTags: inv.session.settings.maxTags,
                                                       interrupted: inv.session.interrupted)
            } catch {
                throw error == .interrupted ? .interrupted : .failed(error.message)
            }
            if proposals.isEmpty {
                inv.out.line("no rules to suggest: no merchant's transactions mostly share an annotation that some lack")
                return
            }
            for p in proposals {
                inv.out.line(inv.out.style.dim("# " + TextSafety.sanitize(p.reason) + " — matches \(p.matched), would change \(p.wouldChange)"))
                inv.out.line(TextSafety.sanitize(p.rule.definition))
            }
            return
        }
        try inv.expectAtMost(1)
        let row = try inv.row(first, in: ledger)
        let suggestions = Suggester.suggest(row: row, ledger: ledger)
        let t = ledger.transaction(row)
        inv.out.line(inv.out.style.bold("transaction \(t.id)") + "  " + TextSafety.sanitize(t.merchant))
        if suggestions.isEmpty {
            inv.out.line("  nothing to suggest: no annotation it lacks is shared by most similar transactions")
            return
        }
        for s in suggestions {
            inv.out.line("  " + TextSafety.pad(s.command(for: t.id), 34) + "  " + TextSafety.sanitize(s.reason))
        }
    }
}
