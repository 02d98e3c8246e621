import TagshFormats
import TagshModel
import TagshQuery

extension Commands {
    static let chart: Command = Command(
        name: "chart", group: .exploring,
        forms: [[.optional([.query]), .optional([.keyword("by"), .choice(Dimension.periods.map(\.rawValue))])]],
        summary: "chart the matching transactions' net total over time, a bar per period",
        details: """
            Draws one row per period (month unless told otherwise) from the first matching transaction's \
            period to the last, empty periods included: the period, its net total written exactly, and a bar \
            proportional to the total's size (`█` for money out, `░` for money in, so the sign reads at a \
            glance without colour). Weeks are ISO 8601 weeks, Monday to Sunday. `--out` charts only money out \
            and `--in` only money in. Ctrl-C stops a long chart.
            """,
        options: [
            .init("in", "only money in (positive amounts)"),
            .init("out", "only money out (negative amounts)"),
            .init("json", "one JSON object per period"),
            .init("csv", "CSV with a header line: one line per period and currency"),
        ],
        examples: ["chart", "chart cat:Groceries", "chart tag:coffee by quarter", "chart date:2025-03 by week --out", "chart by year --in"]
    ) { (inv: inout Invocation) throws(ShellError) in
        let ledger = try inv.requireLedger()
        var words = inv.words
        var period = Dimension.month
        if let i = words.firstIndex(where: { $0.text.lowercased() == "by" && !$0.isQuoted }) {
            let names = Dimension.periods.map(\.rawValue).joined(separator: ", ")
            guard i + 1 < words.count else { throw .usage("'by' needs a period: \(names)", span: words[i].span) }
            let w = words[i + 1]
            guard let d = Dimension(rawValue: w.text.lowercased()), d.isPeriod else {
                throw .usage("cannot chart by '\(w.text)': use \(names)", span: w.span)
            }
            period = d
            words.removeSubrange(i...(i + 1))
            if let again = words.first(where: { $0.text.lowercased() == "by" && !$0.isQuoted }) {
                throw .usage("chart takes one period", span: again.span)
            }
        }
        if inv.flag("in") && inv.flag("out") { throw .usage("give --in or --out, not both", span: nil) }
        var rows = inv.rows(matching: try inv.query(words), in: ledger).rows
        var series = Chart.Series()
        let onlyIn = inv.flag("in"), onlyOut = inv.flag("out")
        if onlyIn || onlyOut { rows.removeAll { (ledger.amountUnits[$0] < 0) != onlyOut } }
        // In one currency, summed in arrays by period (`SummaryReport.singleCurrencyLines`, as `summary by month`).
        if let fast = try SummaryReport.singleCurrencyLines(rows, Grouping(period, ledger: ledger, depth: nil), ledger, session: inv.session) {
            series.all = fast.all.group
            for line in fast.lines { if let k = line.key { series.groups[k] = line.group } }
        } else {
            try Chart.sum(rows, by: period, ledger, into: &series, session: inv.session)
        }
        let keys = series.keys(period)
        let scales = Render.displayScales(ledger)
        if inv.flag("json") || inv.session.jsonOutput {
            for k in keys {
                let g = series.groups[k] ?? .init()
                inv.out.line("{\"\(period.rawValue)\": \"\(Period.label(period, k))\", \"count\": \(g.count), \"total\": \(Groups.json(g.totals, ledger))}")
            }
            return
        }
        if inv.flag("csv") {
            inv.out.line("\(period.rawValue),count,currency,total")
            for k in keys {
                let g = series.groups[k] ?? .init()
                // An empty period is zero in the main currency, as in the table.
                if g.totals.entries.isEmpty, let main = series.all.totals.entries.first?.currency {
                    inv.out.line("\(Period.label(period, k)),0,\(Render.csvField(ledger.currencies[main])),\(Amount(units: 0, scale: scales[Int(main)]))")
                }
                for e in g.totals.entries {
                    inv.out.line("\(Period.label(period, k)),\(g.count(in: e.currency)),\(Render.csvField(ledger.currencies[e.currency])),\(e.amount)")
                }
            }
            return
        }
        guard !keys.isEmpty else { inv.out.line(inv.out.style.dim("(no transactions)")); return }
        let s = inv.out.style
        var table = Table([.init(header: period.rawValue.uppercased()), .init(header: "TOTAL", alignRight: true), .init(header: "")])
        let main = series.all.totals.entries.first?.currency
        for k in keys {
            // An empty period's total is zero, written in the main currency.
            var totals = series.groups[k]?.totals ?? .init()
            if totals.entries.isEmpty, let main { totals.add(.zero, currency: main) }
            table.add([.init(Period.label(period, k)), .init(Groups.text(totals, ledger, scales: scales)), .init("")])
        }
        // The bar takes the width left beside the period and its total.
        let widths = table.widths(fitting: nil)
        let barWidth = max(10, min(60, (inv.session.tableWidth ?? 80) - widths[0] - widths[1] - 5))
        let sizes = keys.map { k in main.map { series.groups[k]?.totals.magnitude(of: $0) ?? 0 } ?? 0 }
        let biggest = sizes.max() ?? 0
        for (i, k) in keys.enumerated() {
            let negative = main.map { (series.groups[k]?.totals.units(of: $0) ?? 0) < 0 } ?? false
            let bar = Chart.bar(sizes[i], of: biggest, width: barWidth, negative: negative)
            table.rows[i][2] = .init(bar, paint: { negative ? s.red($0) : s.green($0) })
        }
        try table.write(to: inv.out, width: inv.session.tableWidth, session: inv.session)
    }
}

enum Chart {
    /// `rows` summed into `series` by `period`, in any currencies. A period key is worked out once a day, and rows
    /// in a run of one period are summed apart and added to their period's totals when the run ends (rows mostly
    /// come in date order): a key and a dictionary look-up a row were half of a chart of a million rows (53 ms).
    static func sum(_ rows: [Int], by period: Dimension, _ ledger: Ledger, into series: inout Series, session: Session) throws(ShellError) {
        var keyOfDay: [Int: Int] = [:]
        var lastDay = Int32.min, lastKey = 0, run = Groups.Group(), runKey: Int?
        for (i, row) in rows.enumerated() {
            if i % 4096 == 0 { try session.checkInterrupted() }
            let amount = ledger.amount(row)
            let d = ledger.days[row]
            if d != lastDay {
                lastDay = d
                if let k = keyOfDay[Int(d)] { lastKey = k } else {
                    lastKey = Period.key(period, ledger.day(row))
                    keyOfDay[Int(d)] = lastKey
                }
            }
            if runKey != lastKey {
                if let k = runKey { series.add(k, run) }
                run = Groups.Group()
                runKey = lastKey
            }
            run.add(amount, currency: ledger.currency[row])
            series.all.add(amount, currency: ledger.currency[row])
        }
        if let k = runKey { series.add(k, run) }
    }

    /// Totals by period key.
    struct Series {
        var groups: [Int: Groups.Group] = [:]
        var all = Groups.Group()

        /// Adds a run of rows of one period to its totals (`all` is kept row by row by the caller).
        mutating func add(_ key: Int, _ run: Groups.Group) { groups[key, default: .init()].add(run) }

        /// Every period from the first to the last, empty ones included.
        func keys(_ period: Dimension) -> [Int] {
            guard let lo = groups.keys.min(), let hi = groups.keys.max() else { return [] }
            return Array(sequence(first: lo) { Period.next(period, $0) }.prefix { $0 <= hi })
        }
    }

    /// `Summary.bar` for money out; for money in, the same length in `░`.
    static func bar(_ value: Int128, of max: Int128, width: Int, negative: Bool) -> String {
        if negative { return Summary.bar(value, of: max, width: width) }
        guard max > 0, value > 0 else { return "" }
        return String(repeating: "░", count: Swift.max(1, Summary.cells(value, of: max, in: width)))
    }
}
