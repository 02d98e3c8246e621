import TagshFormats
import TagshModel
import TagshQuery

extension Commands {
    static let columns: Command = Command(
        name: "columns", group: .files, forms: [[], [.keyword("set"), .optional([.value("MAP")])]],
        summary: "show which CSV column holds what, or read the file again with another mapping",
        details: """
            `columns` lists the roles tagsh reads from the open CSV file (date, description, amount, debit, credit, \
            direction, fee, currency, account and the annotation columns), each with its column and the first \
            transaction's value, and the currency a money column's name gives (`Betrag (EUR)`) to amounts without \
            one. `columns set MAP` reads the file again with MAP, the same as --columns: \
            ROLE=COLUMN pairs separated by commas, COLUMN a position from 1 or a header name \
            (`date=1,description=Details,amount=5`). The mapping is kept in the sidecar when the ledger is saved, \
            so the next open reads the same way; a mapping given for a file with a header row is also remembered \
            (in $XDG_CONFIG_HOME/tagsh/columns) for the next file with the same header, such as next month's export. \
            --date-format, given with `columns set`, is kept the same way. With unsaved changes, save first.
            """,
        options: [.init("date-format", .dateFormat, "how dates are written, e.g. %d/%m/%Y or %d %b %Y", form: .keyword("set"))],
        examples: ["columns", "columns set date=1,description=5,amount=2"]
    ) { (inv: inout Invocation) throws(ShellError) in
        let session = inv.session
        guard let file = session.file, let ledger = session.ledger else { throw .noLedger }
        guard case .csv(let layout) = file.document.layout else {
            throw .failed("\(TextSafety.sanitize(file.displayName)) is a \(file.document.format) file: columns are for CSV files")
        }
        if let first = inv.words.first {
            guard first.text.lowercased() == "set", inv.words.count <= 2, inv.words.count == 2 || inv.values["date-format"] != nil else {
                throw .usage("usage: \(inv.command.synopsis)", span: first.span)
            }
            // The sidecar's mapping was applied before the file was read.
            if session.loading == .sidecar { return }
            var map = layout.columnMap
            if inv.words.count == 2 {
                do throws(ColumnMap.MapError) { map = try ColumnMap(parsing: inv.words[1].text) } catch {
                    throw .usage(error.message, span: inv.words[1].span)
                }
            }
            var dateFormat = layout.dateFormat
            if let w = inv.values["date-format"] {
                guard let f = DateFormat(pattern: w.text) else { throw .usage("unknown date format '\(w.text)'", span: w.span) }
                dateFormat = f
            }
            guard let path = file.path else { throw .failed("the demo ledger has no file to read again") }
            if session.hasUnsavedChanges {
                throw .failed("\(TextSafety.sanitize(file.displayName)) has unsaved changes: `save` first, then `columns set`")
            }
            let given = inv.values["date-format"] != nil || layout.dateFormatGiven
            try session.open(path: path, format: .csv, options: ReadOptions(dateFormat: given ? dateFormat : nil, columns: map))
            inv.out.note("read \(TextSafety.sanitize(file.displayName)) again\(map.map { " with \($0)" } ?? ""): "
                         + "\(plural(session.ledger?.count ?? 0, "transaction")); `save` keeps how it is read in the sidecar")
            return
        }
        let sample = file.document.originalFields(row: 0)
        let c = layout.columns
        let roles: [(String, Int?)] = [("date", c.date), ("description", c.description), ("amount", c.amount), ("debit", c.debit),
                                       ("credit", c.credit), ("direction", c.direction), ("fee", c.fee), ("currency", c.currency),
                                       ("account", c.account), ("category", c.category), ("tags", c.tags), ("notes", c.notes),
                                       ("intent", c.intent)]
        var table = Table([.init(header: "ROLE"), .init(header: "COLUMN", alignRight: true), .init(header: "NAME"),
                           .init(header: "FIRST TRANSACTION", shrinkable: true, minWidth: 10)])
        for (role, index) in roles {
            guard let index else { continue }
            let name = layout.hasHeader && index < layout.header.count ? layout.header[index] : "(no header)"
            let value = ledger.count > 0 && index < sample.count ? sample[index].value : ""
            table.add([.init(role), .init(String(index + 1)), .init(TextSafety.sanitize(name)), .init(TextSafety.sanitize(value))])
        }
        inv.out.text(table.render(width: session.tableWidth, style: inv.out.style))
        let others = (0..<max(layout.header.count, sample.count)).filter { !c.used.contains($0) }
        if !others.isEmpty {
            inv.out.line("other columns (query them with col:NAME=VALUE): "
                         + others.map { layout.hasHeader && $0 < layout.header.count && !layout.header[$0].allSatisfy { $0 == " " }
                                            ? TextSafety.sanitize(layout.header[$0]) : String($0 + 1) }
                            .joined(separator: ", "))
        }
        if let currency = layout.headerCurrency, currency.column < layout.header.count {
            inv.out.line("currency: \(TextSafety.sanitize(currency.code)), from the name of the column "
                         + "\(TextSafety.sanitize(layout.header[currency.column])), "
                         + "for every amount that does not give its own")
        }
        inv.out.line("mapping: " + (layout.columnMap.map { "\($0) (kept in the sidecar when the ledger is saved)" } ?? "from the header names"))
    }
}
