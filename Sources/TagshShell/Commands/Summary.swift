import TagshFormats
import TagshModel
import TagshQuery

extension Commands {
    static let summary = Command(
        name: "summary", group: .exploring, forms: [[.optional([.query]), .optional([.keyword("by"), .choice(["category", "intent", "tag", "merchant", "month"])])]],
        summary: "totals of the matching transactions by a field, with a bar chart",
        details: """
            Groups the matching transactions (by category unless told otherwise) and prints each group's \
            count and total with a horizontal bar proportional to the total's size. By tag, a transaction \
            counts once in each of its tags. Months are listed in date order, other groups largest first. \
            Ctrl-C stops a long summary (it says `interrupted`).
            """,
        options: [.init("json", "one JSON object per group")],
        examples: ["summary", "summary date:2025 by month", "summary tag:trip by tag", "summary amt:<0 by merchant"]
    ) { (inv: inout Invocation) throws(ShellError) in
        let ledger = try inv.requireLedger()
        var words = inv.words
        var by = "category"
        if let i = words.firstIndex(where: { $0.text.lowercased() == "by" && !$0.isQuoted }) {
            guard i + 1 < words.count else {
                throw .usage("'by' needs a field: category, intent, tag, merchant or month", span: words[i].span)
            }
            let w = words[i + 1]
            by = w.text.lowercased()
            guard ["category", "intent", "tag", "merchant", "month"].contains(by) else {
                throw .usage("cannot summarise by '\(w.text)': use category, intent, tag, merchant or month", span: w.span)
            }
            words.removeSubrange(i...(i + 1))
        }
        let rows = inv.rows(matching: try inv.query(words), in: ledger).rows
        var groups = Groups()
        var all = Groups.Group()
        for (i, row) in rows.enumerated() {
            if i % 4096 == 0 { try inv.session.checkInterrupted() }
            all.count += 1
            all.totals.add(ledger.amount(row), currency: ledger.currency[row])
            switch by {
            case "intent": groups.add(key: Int(ledger.intent[row]), row: row, ledger: ledger)
            case "merchant": groups.add(key: Int(ledger.merchant[row]), row: row, ledger: ledger)
            case "month":
                let (y, m, _) = ledger.day(row).components
                groups.add(key: y * 12 + m - 1, row: row, ledger: ledger)
            case "tag":
                let set = ledger.tagSets[ledger.tagSet[row]]
                if set.isEmpty { groups.add(key: 0, row: row, ledger: ledger) }
                for t in set { groups.add(key: Int(t), row: row, ledger: ledger) }
            default: groups.add(key: Int(ledger.category[row]), row: row, ledger: ledger)
            }
        }
        let s = inv.out.style
        let r = Render(ledger: ledger, style: s)
        func label(_ k: Int) -> (String, Color?) {
            switch by {
            case "intent": return Intent(rawValue: UInt8(k)).map { ($0.description, $0.color) } ?? ("(none)", nil)
            case "merchant": return (TextSafety.sanitize(ledger.merchants[UInt32(k)]), nil)
            case "month": return (String(k / 12) + "-" + (k % 12 + 1 < 10 ? "0" : "") + String(k % 12 + 1), nil)
            case "tag": return k == 0 ? ("(none)", nil) : (TextSafety.sanitize(ledger.tags[UInt32(k)]), nil)
            default: return k == 0 ? ("(none)", nil) : (r.category(UInt32(k)).plain, ledger.categories[UInt32(k)].color)
            }
        }
        func magnitude(_ k: Int) -> Int128 {
            guard let first = groups[k].totals.entries.first else { return 0 }
            let v = first.amount.units(atScale: 18)
            return v < 0 ? -v : v
        }
        let keys = by == "month" ? groups.keys.sorted() : groups.keys.sorted { (magnitude($0), $1) > (magnitude($1), $0) }
        if inv.flag("json") || inv.session.jsonOutput {
            for k in keys {
                inv.out.line("{\"\(by)\": \(Export.jsonString(label(k).0)), \"count\": \(groups[k].count), \"total\": \(groups[k].totalsJSON(ledger))}")
            }
            return
        }
        var table = Table([
            .init(header: by.uppercased(), shrinkable: true, minWidth: 10), .init(header: "COUNT", alignRight: true),
            .init(header: "TOTAL", alignRight: true), .init(header: ""),
        ])
        for k in keys {
            let (name, color) = label(k)
            table.add([.init(name, paint: { s.paint($0, color) }), .init(String(groups[k].count)), .init(groups[k].totalsText(ledger, scales: r.scales)), .init("")])
        }
        table.add([.init("total"), .init(String(all.count)), .init(all.totalsText(ledger, scales: r.scales)), .init("")])
        // Bars take the width left beside the other columns.
        let widths = table.widths(fitting: inv.session.tableWidth.map { $0 - 12 })
        let used = widths.dropLast().reduce(0, +) + 6
        let barWidth = max(10, min(40, (inv.session.tableWidth ?? 80) - used - 2))
        let biggest = keys.map(magnitude).max() ?? 0
        for (i, k) in keys.enumerated() {
            let bar = Summary.bar(magnitude(k), of: biggest, width: barWidth)
            table.rows[i][3] = .init(bar, paint: { s.paint($0, label(k).1 ?? .named(.cyan)) })
        }
        try table.write(to: inv.out, width: inv.session.tableWidth, session: inv.session)
    }
}

enum Summary {
    /// A bar of `value / max × width` cells, drawn with eighth blocks.
    static func bar(_ value: Int128, of max: Int128, width: Int) -> String {
        guard max > 0, value > 0 else { return "" }
        let eighths = Int((value * Int128(width * 8) + max / 2) / max)
        let blocks = ["", "▏", "▎", "▍", "▌", "▋", "▊", "▉"]
        let full = String(repeating: "█", count: eighths / 8) + blocks[eighths % 8]
        return full.isEmpty ? "▏" : full
    }
}
