import TagshModel
import TagshQuery
import TagshRules

extension Commands {
    static let transfers: Command = Command(
        name: "transfers", group: .annotating,
        forms: [[.optional([.query])], [.keyword("confirm"), .value("N|all")], [.keyword("reject"), .value("N|all")]],
        summary: "pair an outflow in one account with an equal inflow in another: transfers between your accounts",
        details: """
            Lists, numbered, each outflow matched with an inflow of the same amount and currency in another \
            account at most 3 days apart (among the transactions QUERY matches, default all), leaving out \
            transactions already in the Transfer category and pairs rejected this session. `transfers confirm N` \
            (or a list 1,3, or all) puts both transactions of each pair in the Transfer category, as one step; \
            `transfers reject N` stops proposing them. `import` says when it brought in new pairs.
            """,
        examples: ["transfers", "transfers date:2024", "transfers confirm 1", "transfers reject all"]
    ) { (inv: inout Invocation) throws(ShellError) in
        let ledger = try inv.requireLedger()
        let session = inv.session
        if let first = inv.words.first, !first.isQuoted, ["confirm", "reject"].contains(first.text.lowercased()) {
            guard inv.words.count == 2 else { throw .usage("usage: transfers \(first.text.lowercased()) N|all", span: first.span) }
            let listed = session.listedTransfers
            guard !listed.isEmpty else { throw .failed("no transfers listed: `transfers` lists them first") }
            let w = inv.words[1]
            var chosen: [Int] = []
            if w.text.lowercased() == "all" { chosen = Array(listed.indices) } else {
                for part in w.text.split(separator: ",") {
                    guard let n = Int(part), n >= 1, n <= listed.count else {
                        throw .usage("transfers are numbered 1 to \(listed.count), as `transfers` listed them", span: w.span)
                    }
                    chosen.append(n - 1)
                }
            }
            let rows = chosen.flatMap { [listed[$0].out, listed[$0].in] }
            if first.text.lowercased() == "reject" {
                session.rejectedTransfers.formUnion(rows)
                inv.out.note("\(plural(chosen.count, "pair")) will not be proposed again this session")
                return
            }
            guard let transfer = ledger.categories.id(of: "Transfer") else { throw .failed("there is no Transfer category") }
            var changes = ChangeSet()
            for row in Set(rows).sorted() where ledger.category[row] != transfer {
                changes.record(row: row, field: .category, before: ledger.category[row], after: transfer)
            }
            // The step replays without the listing: by its ids.
            inv.replayLine = "category \(Set(rows).sorted().map { String($0 + 1) }.joined(separator: ",")) Transfer"
            try inv.reportCommit(Change(ledger: changes), summary: "category Transfer")
            return
        }
        let rows = inv.rows(matching: try inv.query(), in: ledger).rows
        let pairs = ImportMatcher.transferPairs(in: ledger, rows: rows, among: rows, excluded: session.transferExclusions(ledger))
        session.listedTransfers = pairs
        if pairs.isEmpty {
            inv.out.note("no transfers found: no outflow has an equal inflow in another account within 3 days")
            return
        }
        let r = Render(ledger: ledger, style: inv.out.style)
        var table = Table([
            .init(header: "#", alignRight: true), .init(header: "OUT", alignRight: true), .init(header: "IN", alignRight: true),
            .init(header: "DATES"), .init(header: "AMOUNT", alignRight: true), .init(header: "FROM", shrinkable: true, minWidth: 8),
            .init(header: "TO", shrinkable: true, minWidth: 8),
        ])
        for (i, p) in pairs.enumerated() {
            let d1 = ledger.day(p.out).description, d2 = ledger.day(p.in).description
            table.add([.init(String(i + 1)), .init(String(p.out + 1)), .init(String(p.in + 1)), .init(d1 == d2 ? d1 : d1 + ".." + String(d2.suffix(5))),
                       .init(r.amount(p.in)), .init(TextSafety.sanitize(ledger.accounts[ledger.account[p.out]])),
                       .init(TextSafety.sanitize(ledger.accounts[ledger.account[p.in]]))])
        }
        inv.out.text(table.render(width: session.tableWidth, style: inv.out.style))
        inv.out.note("`transfers confirm N|all` puts both in the Transfer category; `transfers reject N` stops proposing a pair")
    }
}
