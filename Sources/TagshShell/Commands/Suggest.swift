import TagshModel
import TagshQuery
import TagshRules

extension Commands {
    static let suggest: Command = Command(
        name: "suggest", group: .rules, forms: [[.value("ID")], [.keyword("rules"), .optional([.query])], [.optional([.query])]],
        summary: "suggest annotations for a transaction, or rules learned from the ledger",
        details: """
            `suggest ID` proposes tags, a category and an intent for one transaction, each with a confidence \
            from 0 to 1 and its evidence: what the merchant's other transactions carry, and those of \
            merchants alike for the same amount (what recurs); else what merchants named alike carry (store \
            numbers and codes aside: STARBUCKS 1234 and STARBUCKS 0567), else merchants sharing a word of its name. The confidence is the share that agrees, with two \
            transactions' worth of prior evidence at the field's usual consistency in this ledger ((agreeing + 2 × \
            consistency) / (all + 2): 3 of 3 counts for more on categories, which merchants rarely vary on, than on \
            intents), less for merchants only alike (×0.9) or sharing a word (×0.75). Below `set suggest-threshold` \
            (default 0.80) nothing is suggested. \
            `suggest --backtest [QUERY]` replays the annotated transactions in date order, each suggested \
            from only those before it, and prints per field how many it would act on and how many of those \
            are right at several thresholds, beside the baseline "the merchant's most frequent category among \
            at least 3 earlier transactions", and the most common mistakes. `suggest rules` proposes one rule per merchant \
            whose annotated transactions agree on an annotation that some lack, when the rule's precision \
            over the merchant's history (the share of its annotated transactions that already agree) clears \
            suggest-threshold; it shows that precision and the preview counts, and prints the rules as \
            `rule` commands ready to run. Ctrl-C stops a long `suggest rules` (it says `interrupted`).
            """,
        options: [.init("backtest", .flag, "replay the annotated transactions in date order, each suggested from the ones before it, "
                        + "and print coverage and accuracy per field at several thresholds", form: .withoutKeyword)],
        examples: ["suggest 412", "suggest rules", "suggest rules date:2025", "suggest --backtest", "suggest --backtest date:2025"]
    ) { (inv: inout Invocation) throws(ShellError) in
        guard var ledger = inv.session.ledger else { throw .noLedger }
        if inv.flag("backtest") {
            try backtest(&inv, ledger: ledger)
            return
        }
        guard let first = inv.words.first else { throw .usage("usage: suggest ID | suggest rules [QUERY] | suggest --backtest [QUERY]", span: nil) }
        if first.text.lowercased() == "rules" && !first.isQuoted {
            let scopeWords = Array(inv.words.dropFirst())
            let query = try inv.query(scopeWords)
            if query.usesSelection { throw .usage("a suggested rule cannot depend on the selection @", span: nil) }
            let rows = inv.rows(matching: query, in: ledger).rows
            let proposals: [ProposedRule]
            do throws(PlanError) {
                proposals = try Suggester.proposeRules(ledger: &ledger, rows: rows, scope: scopeWords.map(\.raw).joined(separator: " "),
                                                       existing: inv.session.rules, maxTags: inv.session.settings.maxTags,
                                                       minimumPrecision: inv.session.settings.suggestThreshold,
                                                       interrupted: inv.session.interrupted)
            } catch {
                throw error == .interrupted ? .interrupted : .failed(error.message)
            }
            if proposals.isEmpty {
                inv.out.line("no rules to suggest: no merchant's annotated transactions agree, at suggest-threshold, on an annotation that some lack")
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
        let t = ledger.transaction(row)
        inv.out.line(inv.out.style.bold("transaction \(t.id)") + "  " + TextSafety.sanitize(t.merchant))
        let threshold = inv.session.settings.suggestThreshold
        let suggestions = inv.session.suggestions(row: row)
        if suggestions.isEmpty {
            let best = inv.session.bestCandidates(row: row).sorted { $0.confidence > $1.confidence }.first
            inv.out.line("  nothing to suggest at suggest-threshold \(Settings.decimal(threshold))"
                         + (best.map { "; the best, \($0.label) (\(Settings.decimal($0.confidence))): " + TextSafety.sanitize($0.evidence) } ?? ""))
            return
        }
        for s in suggestions {
            inv.out.line("  " + TextSafety.pad(s.command(for: t.id), 30) + "  " + Settings.decimal(s.confidence) + "  " + TextSafety.sanitize(s.evidence))
        }
    }
}

extension Commands {
    static func backtest(_ inv: inout Invocation, ledger: Ledger) throws(ShellError) {
        let rows = inv.rows(matching: try inv.query(), in: ledger).rows
        let session = inv.session
        guard let replays = SuggestIndex.backtest(ledger: ledger, rows: rows, interrupted: session.interrupted) else { throw .interrupted }
        func percent(_ a: Int, _ b: Int) -> String {
            guard b > 0 else { return "–" }
            let permille = (a * 1000 + b / 2) / b
            return "\(permille / 10).\(permille % 10)%"
        }
        inv.out.line("backtest over \(plural(rows.count, "transaction")), each suggested from the ones before it in date order")
        let thresholds = [0.5, 0.6, 0.7, 0.8, 0.9, 0.95]
        var table: [[String]] = []
        for f in SuggestIndex.Field.allCases {
            guard let r = replays[f] else { continue }
            for t in thresholds {
                let (acted, right, of) = r.at(t)
                table.append([f.description, String(of), Settings.decimal(t) + (t == session.settings.suggestThreshold ? " *" : ""),
                              String(acted), percent(acted, of), percent(right, acted)])
            }
            if f == .category {
                let acted = r.baseline.compactMap { $0 }
                table.append(["category", String(r.outcomes.count), "baseline", String(acted.count), percent(acted.count, r.outcomes.count),
                              percent(acted.filter { $0 }.count, acted.count)])
            }
        }
        let headers = ["FIELD", "WITH A VALUE", "THRESHOLD", "ACTED", "COVERAGE", "RIGHT"]
        var widths = headers.map { TextSafety.displayWidth($0) }
        for row in table { for (i, c) in row.enumerated() { widths[i] = max(widths[i], TextSafety.displayWidth(c)) } }
        inv.out.line(headers.enumerated().map { i, h in TextSafety.pad(h, widths[i], alignRight: i > 0) }.joined(separator: "  "))
        for row in table { inv.out.line(row.enumerated().map { i, c in TextSafety.pad(c, widths[i], alignRight: i > 0) }.joined(separator: "  ")) }
        inv.out.line(inv.out.style.dim("* suggest-threshold; baseline: the merchant's most frequent category among at least 3 earlier transactions (Actual's rule)"))
        for f in [SuggestIndex.Field.category, .intent] {
            let top = (replays[f]?.mistakes ?? [:]).sorted { ($0.value, $1.key) > ($1.value, $0.key) }.prefix(5)
            if !top.isEmpty {
                inv.out.line("most common \(f) mistakes (any confidence): " + top.map { "\(TextSafety.sanitize($0.key)) ×\($0.value)" }.joined(separator: ", "))
            }
        }
    }
}

extension ScoredSuggestion {
    /// How the suggestion reads in a list.
    var label: String {
        switch value {
        case .tag(let t): "+" + TextSafety.sanitize(t)
        case .category(let c): "category " + TextSafety.sanitize(c)
        case .intent(let i): "intent \(i)"
        }
    }
}
