import TagshModel
import TagshQuery
import TagshRules

/// Renders a plan for `preview`: counts, per-field deltas, per-rule effects,
/// overrides, max-tags problems and a before → after sample.
enum PreviewText {
    static func render(_ plan: Plan, ledger: Ledger, style: Style, limit: Int, maxTags: Int, width: Int? = nil) -> String {
        var out = style.bold("preview " + plan.rules.map(\.name).joined(separator: " ")) + "\n"
        out += "matches \(plural(plan.matched, "transaction")); \(plan.changedCount) would change\n"
        for field in ChangeSet.Field.allCases {
            guard let d = plan.deltas[field], !d.isEmpty else { continue }
            let shown = d.prefix(8).map { TextSafety.sanitize($0.0) + " ×\($0.1)" }.joined(separator: ", ")
            out += "  " + TextSafety.pad(field.description, 9) + shown + (d.count > 8 ? ", … (\(d.count - 8) more)" : "") + "\n"
        }
        if plan.rules.count > 1 {
            out += "rules, in order:\n"
            for s in plan.stats {
                let sets = ChangeSet.Field.allCases.compactMap { f in s.sets[f].map { "\(f) on \($0)" } }
                out += "  \(s.name): matches \(s.matched)" + (sets.isEmpty ? "; changes nothing itself" : "; sets " + sets.joined(separator: ", ")) + "\n"
            }
            for o in plan.overrides {
                out += "  \(o.later) overrides \(o.earlier) on \(o.field) for \(plural(o.count, "transaction"))\n"
            }
        }
        if !plan.overflow.isEmpty {
            out += style.red("would exceed max-tags (\(maxTags)): ") + idList(plan.overflow) + " — apply would refuse\n"
        }
        if !plan.noCategory.isEmpty {
            out += style.red("cannot take a category (more than two postings, or no expense or income posting): ")
                + idList(plan.noCategory) + " — apply would refuse\n"
        }
        guard plan.changedCount > 0, limit > 0 else { return out }
        let sample = plan.changedRows(upTo: limit)
        out += "sample (\(sample.count) of \(plan.changedCount)):\n"
        // Before values come from the change set; after values too.
        var changesByRow: [Int: [(ChangeSet.Field, UInt32, UInt32)]] = [:]
        let wanted = Set(sample), last = Int32(sample.max() ?? 0)
        // (Rows past the sample's are skipped by a comparison: a set lookup per change cost a fifth of a preview
        // that changes a million rows.)
        for i in 0..<plan.changes.count where plan.changes.rows[i] <= last && wanted.contains(Int(plan.changes.rows[i])) {
            changesByRow[Int(plan.changes.rows[i]), default: []].append((plan.changes.fields[i], plan.changes.before[i], plan.changes.after[i]))
        }
        let r = Render(ledger: ledger, style: style)
        // One row per transaction, aligned as a table; the change, which is the point, is never cut. When it
        // does not fit beside the transaction, it goes on the line below, under the merchant.
        let changes = sample.map { row in
            (changesByRow[row] ?? []).map { f, b, a in "\(f) " + value(f, b, ledger) + " → " + value(f, a, ledger) }.joined(separator: "; ")
        }
        var table = Table([
            .init(header: "ID", alignRight: true), .init(header: "DATE"),
            .init(header: "MERCHANT", shrinkable: true, minWidth: 10), .init(header: "AMOUNT", alignRight: true),
        ])
        for row in sample {
            table.add([.init(String(row + 1)), .init(ledger.day(row).description), .init(r.merchant(row)), .init(r.amount(row))])
        }
        let widest = changes.map(TextSafety.displayWidth).max() ?? 0
        let beside = width.map { w in table.widths(fitting: nil).enumerated().map { $0.offset == 2 ? 10 : $0.element }.reduce(0, +) + 8 + widest <= w } ?? true
        if beside {
            table.columns.append(.init(header: "CHANGE"))
            for i in table.rows.indices { table.rows[i].append(.init(changes[i])) }
        }
        let lines = table.render(width: width, style: style).split(separator: "\n").map(String.init)
        let indent = (table.widths(fitting: width).prefix(2).reduce(0, +)) + 4
        for (i, line) in lines.enumerated() {
            out += "  " + line + "\n"
            if !beside && i > 0 { out += "  " + String(repeating: " ", count: indent) + changes[i - 1] + "\n" }
        }
        return out
    }

    static func value(_ field: ChangeSet.Field, _ v: UInt32, _ l: Ledger) -> String {
        switch field {
        case .intent: return Intent(rawValue: UInt8(v))?.description ?? "none"
        case .category: return v == 0 ? "none" : TextSafety.sanitize(l.categories[v].name)
        case .tags:
            let names = l.tagSets[v].map { TextSafety.sanitize(l.tags[$0]) }
            return names.isEmpty ? "none" : names.joined(separator: " ")
        case .note: return v == 0 ? "none" : "\"" + TextSafety.sanitize(l.notes[v]) + "\""
        }
    }
}

/// `rules check`: rules that match nothing, rules shadowed by an earlier
/// rule, and transactions on which two rules set different values.
enum RuleCheck {
    static func report(_ rules: [Rule], ledger: Ledger, selection: [Int],
                       columnValues: @escaping (String) -> (values: StringTable, ids: [UInt32])? = { _ in nil }) -> String {
        guard !rules.isEmpty else { return "no rules to check\n" }
        var evaluator = QueryEvaluator(ledger: ledger, selection: selection)
        evaluator.columnValues = columnValues
        let matches = rules.map { evaluator.rows(matching: $0.query) }
        var lines: [String] = []
        for (i, rule) in rules.enumerated() where matches[i].isEmpty {
            lines.append("\(rule.name): matches nothing")
        }
        for (j, later) in rules.enumerated() where !matches[j].isEmpty {
            for i in 0..<j {
                var inter = matches[j]
                inter.formIntersection(matches[i])
                if inter == matches[j] && later.actions.allSatisfy({ rules[i].actions.contains($0) }) {
                    lines.append("\(later.name): fully shadowed by \(rules[i].name) (it matches nothing \(rules[i].name) does not, and does nothing \(rules[i].name) does not)")
                    break
                }
            }
        }
        for j in rules.indices {
            for i in 0..<j {
                var both = matches[i]
                both.formIntersection(matches[j])
                guard !both.isEmpty else { continue }
                for conflict in conflicts(rules[i], rules[j]) {
                    let rows = both.rows
                    lines.append("\(rules[i].name) and \(rules[j].name) set different \(conflict) on \(plural(rows.count, "transaction")): "
                                 + idList(rows.map { $0 + 1 }))
                }
            }
        }
        return lines.isEmpty ? "no problems in \(plural(rules.count, "rule"))\n" : lines.joined(separator: "\n") + "\n"
    }

    /// The fields two rules set to different values (a tag one adds and the other removes counts).
    static func conflicts(_ a: Rule, _ b: Rule) -> [String] {
        var out: [String] = []
        func values(_ r: Rule, _ pick: (Action) -> String?) -> String? { r.actions.compactMap(pick).last }
        let fields: [(String, (Action) -> String?)] = [
            ("categories", { if case .category(let c) = $0 { return c ?? "none" } else { return nil } }),
            ("intents", { if case .intent(let i) = $0 { return i?.description ?? "none" } else { return nil } }),
            ("notes", { if case .note(let n) = $0 { return n ?? "" } else { return nil } }),
        ]
        for (name, pick) in fields {
            if let x = values(a, pick), let y = values(b, pick), x.lowercased() != y.lowercased() { out.append(name) }
        }
        let addsA = Set(a.actions.compactMap { if case .addTag(let t) = $0 { return t.lowercased() } else { return nil } })
        let removesA = Set(a.actions.compactMap { if case .removeTag(let t) = $0 { return t.lowercased() } else { return nil } })
        let addsB = Set(b.actions.compactMap { if case .addTag(let t) = $0 { return t.lowercased() } else { return nil } })
        let removesB = Set(b.actions.compactMap { if case .removeTag(let t) = $0 { return t.lowercased() } else { return nil } })
        if !addsA.isDisjoint(with: removesB) || !removesA.isDisjoint(with: addsB) { out.append("tags") }
        return out
    }
}
