import TagshFormats
import TagshModel
import TagshQuery

extension Commands {
    static let ls: Command = Command(
        name: "ls", aliases: ["list"], group: .exploring,
        forms: [[.optional([.query])]],
        summary: "list matching transactions in a table; sets the selection @",
        details: """
            Lists the transactions the query matches (all when there is no query) in a table fitted to the \
            terminal width: id, date, merchant, amount, intent mark, category and tags, a NOTE column when a \
            listed transaction has a note, and FILE with --file. When the table is too wide, merchants, categories, \
            tags and notes are cut (the last three between words) down to a minimum width; past that, whole columns \
            are left out: notes first, then files, tags, categories and the intent mark. What is listed becomes \
            the selection @ that annotation commands take as a target. \
            Ctrl-C stops a long listing: it says `interrupted`, prints no count and leaves @ as it was. \
            A bare word looks in the descriptions: when one that reads as an id or a range (`ls 1-7`) matches \
            nothing, a hint gives the id term (`ls id:1..7`). See `help query` for the query language.
            """,
        options: [
            .init("limit", .integer("N", 0...Int.max), "list at most N transactions"),
            .init("sort", .choice(["date", "amount", "merchant"]), "order by date (the default; ties in file order), amount or merchant"),
            .init("reverse", "the other way round: newest, largest or last first"),
            .init("json", "one JSON object per transaction"),
            .init("csv", "CSV with a header line, as `export` writes it, after an Id column"),
            .init("file", "a FILE column: the open file each transaction comes from (several files open)"),
        ],
        examples: ["ls", "ls starbucks --limit 10", "ls --file --limit 5", "ls tag:trip date:2025 --sort amount", "ls --reverse --limit 20",
                   "ls 'desc:/^uber/' or cat:Transport"]
    ) { (inv: inout Invocation) throws(ShellError) in
        let ledger = try inv.requireLedger()
        let query = try inv.query()
        let limit = inv.intValue("limit")
        var rows = inv.rows(matching: query, in: ledger).rows
        let total = rows.count
        let reverse = inv.flag("reverse")
        switch inv.values["sort"]?.text.lowercased() ?? "date" {
        case "amount": rows = RowOrder.byAmount(rows, ledger, reverse: reverse, limit: limit)
        case "merchant": rows = RowOrder.byMerchant(rows, ledger, reverse: reverse, limit: limit)
        default:
            // Date order, ties in file order; most files already are in it (or in its reverse).
            rows = dateOrder(rows, ledger.days)
            if reverse { rows.reverse() }
        }
        if let limit, rows.count > limit { rows = Array(rows.prefix(limit)) }
        // @ changes only once the whole listing is out: an interrupted ls leaves it as it was.
        if inv.flag("json") || inv.session.jsonOutput {
            for (i, row) in rows.enumerated() {
                if i % 512 == 0 { try inv.session.checkInterrupted() }
                inv.out.line(Export.json(ledger.transaction(row)))
            }
            try inv.session.checkInterrupted()
            inv.session.selection = rows
            return
        }
        if inv.flag("csv") {
            inv.out.line("Id," + Export.csvHeader)
            for (i, row) in rows.enumerated() {
                if i % 512 == 0 { try inv.session.checkInterrupted() }
                inv.out.line(String(row + 1) + "," + Render.csvLine(ledger.transaction(row)))
            }
            try inv.session.checkInterrupted()
            inv.session.selection = rows
            return
        }
        try transactionTable(ledger, rows: rows, session: inv.session, fileColumn: inv.flag("file")).write(to: inv.out, width: inv.session.tableWidth, session: inv.session)
        inv.session.selection = rows
        if rows.count < total, !query.usesSelection {
            let text = inv.words.map(\.raw).joined(separator: " ")
            inv.session.selectionLimited = (text.isEmpty ? "all" : text, rows.count, total)
        }
        let shown = rows.count == total ? "\(total) transaction\(total == 1 ? "" : "s")" : "\(rows.count) of \(total) transactions"
        inv.out.line(inv.out.style.dim("(\(shown))"))
        if total == 0, let hint = idHint(inv.words, command: "ls") { inv.out.note(hint) }
    }

    /// When a query of one bare word that reads as an id or a range of them (`7`, `1-7`, as a target writes them)
    /// matched nothing: the hint that a bare word looks in the descriptions, and the id term that was likely meant.
    static func idHint(_ words: [Word], command: String) -> String? {
        guard words.count == 1 else { return nil }
        let parts = words[0].text.split(separator: "-", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), parts.allSatisfy({ !$0.isEmpty && $0.count <= 9 && $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) })
        else { return nil }
        let term = parts.count == 1 ? "id:\(parts[0])" : "id:\(parts[0])..\(parts[1])"
        return "hint: a bare word looks in the descriptions; `\(command) \(term)` takes transactions by id"
    }

    static let select: Command = Command(
        name: "select", group: .exploring, forms: [[.query]],
        summary: "set the selection @ to the matching transactions without listing them",
        details: "Prints how many transactions are now selected.",
        examples: ["select starbucks", "select tag:none amt:>100"]
    ) { (inv: inout Invocation) throws(ShellError) in
        let ledger = try inv.requireLedger()
        guard !inv.words.isEmpty else { throw .usage("usage: select QUERY", span: nil) }
        let rows = inv.rows(matching: try inv.query(), in: ledger).rows
        inv.session.selection = rows
        inv.out.line("\(rows.count) selected")
        if rows.isEmpty, let hint = idHint(inv.words, command: "select") { inv.out.note(hint) }
    }

    static let count: Command = Command(
        name: "count", group: .exploring, forms: [[.optional([.query])]],
        summary: "print how many transactions match, as a bare number",
        examples: ["count", "count tag:coffee", "count 'desc:/star(bucks)?/' amt:<-5"]
    ) { (inv: inout Invocation) throws(ShellError) in
        let ledger = try inv.requireLedger()
        inv.out.line(String(inv.rows(matching: try inv.query(), in: ledger).count))
    }
}

/// The transaction table of `ls`.
func transactionTable(_ ledger: Ledger, rows: [Int], session: Session, fileColumn: Bool = false) throws(ShellError) -> Table {
    let r = Render(ledger: ledger, style: session.style)
    // The notes column when a listed transaction has a note. On a narrow terminal whole columns go, notes
    // first, then files, tags and categories, before the merchant is cut: a cut header or tag helps nobody.
    let notes = rows.contains { ledger.note[$0] != 0 }
    var table = Table([
        .init(header: "ID", alignRight: true),
        .init(header: "DATE"),
        .init(header: "MERCHANT", shrinkable: true, minWidth: 10),
        .init(header: "AMOUNT", alignRight: true),
        .init(header: "I", drop: 0),
        .init(header: "CATEGORY", shrinkable: true, minWidth: 8, drop: 1, cutAtWords: true),
        .init(header: "TAGS", shrinkable: true, minWidth: 8, drop: 2, cutAtWords: true),
    ] + (notes ? [.init(header: "NOTE", shrinkable: true, minWidth: 12, drop: 4, cutAtWords: true)] : [])
      + (fileColumn ? [.init(header: "FILE", shrinkable: true, minWidth: 6, drop: 3)] : []))
    let style = session.style
    let files = fileColumn ? session.fileValues() : nil
    // A value shown in many rows (a merchant, a day, a category, a tag set) is made into a cell once and shared:
    // a listing of 70,000 rows made a `String` and a painting closure per cell, and most of its time and memory went there.
    var merchants: [UInt32: Table.Cell] = [:], days: [Int32: Table.Cell] = [:], tagSets: [UInt32: Table.Cell] = [:]
    var categories = [Table.Cell?](repeating: nil, count: Int(ledger.categories.ids.upperBound))
    let intents: [Table.Cell] = [.init("")] + Intent.allCases.map { i in .init(String(i.mark), paint: { style.paint($0, i.color) }) }
    let green: (String) -> String = { style.green($0) }
    let chips: (String) -> String = { text in text.split(separator: " ").map { r.tagChip(String($0)) }.joined(separator: " ") }
    for (i, row) in rows.enumerated() {
        if i % 4096 == 0 { try session.checkInterrupted() }
        let catID = ledger.category[row], m = ledger.merchant[row], set = ledger.tagSet[row], d = ledger.days[row]
        let amount = ledger.amount(row)
        let category = categories[Int(catID)] ?? {
            let c = Table.Cell(r.category(catID).plain, paint: catID == 0 ? nil : { style.paint($0, ledger.categories[catID].color) })
            categories[Int(catID)] = c
            return c
        }()
        let merchant = merchants[m] ?? { let c = Table.Cell(r.merchant(row)); merchants[m] = c; return c }()
        let day = days[d] ?? { let c = Table.Cell(ledger.day(row).description); days[d] = c; return c }()
        let tags = tagSets[set] ?? { let c = Table.Cell(r.tags(row), paint: chips); tagSets[set] = c; return c }()
        table.add([
            .init(String(row + 1)),
            day,
            merchant,
            .init(r.amount(row), paint: amount.isNegative ? nil : green),
            intents[Int(ledger.intentValue(row)?.rawValue ?? 0)],
            category,
            tags,
        ] + (notes ? [.init(ledger.note[row] == 0 ? "" : TextSafety.sanitize(ledger.notes[ledger.note[row]]))] : [])
          + (files.map { [.init(TextSafety.sanitize($0.values[$0.ids[row]]))] } ?? []))
    }
    return table
}

/// Rows in date order, ties in file order, without sorting when they already are (or are exactly reversed).
func dateOrder(_ rows: [Int], _ days: [Int32]) -> [Int] {
    var ascending = true, descending = true
    for i in rows.indices.dropFirst() {
        let a = days[rows[i - 1]], b = days[rows[i]]
        if a > b { ascending = false }
        if a <= b { descending = false }
        if !ascending && !descending { break }
    }
    if ascending { return rows }
    if descending { return rows.reversed() }
    // (day, row) packed in one integer sorts fast and stably.
    var keys = rows.map { (Int64(days[$0]) << 32) | Int64($0) }
    keys.sort()
    return keys.map { Int($0 & 0xFFFF_FFFF) }
}
