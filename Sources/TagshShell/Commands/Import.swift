import TagshFormats
import TagshModel
import TagshQuery
import TagshRules

extension Commands {
    static let importCommand: Command = Command(
        name: "import", group: .files, forms: [[.file]],
        summary: "append a bank export's new transactions to an open file, skipping those already there",
        details: """
            Reads FILE as a bank export (CSV, read as `open` reads it: --date-format and --columns help) and \
            appends the transactions that are not in the ledger yet to an open file, as one undo step. When the \
            export and the CSV file it goes into both have a bank id column (Transaction ID, ID, FITID, Reference \
            number), a row with an id the file already has is already there, and rows whose ids differ are never \
            taken for one another; new rows keep their id. Otherwise a transaction is already there when \
            a transaction of the same account has the same amount and currency, \
            a date at most --window days away (default 4) and a similar description (the same words, ignoring \
            digits and case); each one already there stands for one row only, so two identical coffees on one day \
            stay two. A row with the same amount near that date but another description is doubtful: it is \
            imported and listed. --dry-run lists every row as new, duplicate or doubtful with the reason, says how many \
            of the new ones the rules would annotate, and changes nothing. \
            The transactions go to the first open file, or to the one --into names. In a CSV file they are \
            written in its own columns, date form and decimal mark, and the export's fields for the file's other \
            columns of the same name (Details, Type, Balance) come along; in a journal or beancount file they become \
            transactions with the account --account names (remembered for the next export with the same header, \
            in $XDG_CONFIG_HOME/tagsh/accounts) and a counter-posting Expenses:Unknown or Income:Unknown, in the \
            file's own style, appended at its end when it is saved. The rules run on them in the same step; \
            `transfers` then lists inflows and outflows of equal amount in two accounts, and --review opens \
            `review` on them at the prompt. After a save, an import is part of the file: `undo` goes back to it, \
            not past it.
            """,
        options: [
            .init("account", .text("NAME"), "the account the export's money moves in (journal and beancount)"),
            .init("into", .text("FILE"), "the open file the transactions go to (default: the first)"),
            .init("dry-run", "list new, duplicate and doubtful rows and how many the rules would annotate, and change nothing"),
            .init("review", "open `review` on the imported transactions"),
            .init("window", .integer("DAYS", 0...31), "how many days apart a duplicate's date may be (default 4)"),
            .init("date-format", .dateFormat, "how the export writes dates, e.g. %d/%m/%Y"),
            .init("columns", .text("MAP"), "which export column holds what: date=1,description=Details,amount=5"),
        ],
        examples: ["import export.csv --dry-run", "import export.csv --into checking.csv", "import export.csv --into 2025.journal --account Assets:Checking"]
    ) { (inv: inout Invocation) throws(ShellError) in
        guard let path = inv.words.first else { throw .usage("usage: \(inv.command.synopsis)", span: nil) }
        try inv.expectAtMost(1)
        _ = try inv.requireLedger()
        var options = ReadOptions()
        if let w = inv.values["date-format"] {
            guard let f = DateFormat(pattern: w.text) else { throw .usage("unknown date format '\(w.text)'", span: w.span) }
            options.dateFormat = f
        }
        if let w = inv.values["columns"] {
            do throws(ColumnMap.MapError) { options.columns = try ColumnMap(parsing: w.text) } catch {
                throw .usage("--columns: " + error.message, span: w.span)
            }
        }
        try inv.session.importExport(path: path.text, options: options, account: inv.values["account"]?.text,
                                     into: inv.values["into"], window: inv.intValue("window") ?? 4,
                                     dryRun: inv.flag("dry-run"), line: inv.line)
        if inv.flag("review"), !inv.flag("dry-run"), let range = inv.session.lastImport, !range.isEmpty {
            guard inv.session.console != nil else {
                inv.out.note("--review needs a terminal: `review id:\(range.lowerBound + 1)..\(range.upperBound)` at the prompt")
                return
            }
            inv.session.execute("review id:\(range.lowerBound + 1)..\(range.upperBound)")
        }
    }
}

extension Session {
    /// Reads a bank export and appends what is new to an open file (see `help import`).
    func importExport(path: String, options: ReadOptions, account given: String?, into: Word?, window: Int, dryRun: Bool,
                      line: String) throws(ShellError) {
        guard let ledger else { throw .noLedger }
        lastImport = nil
        // The file the transactions go to.
        var target = 0
        if let into {
            let wanted = FileIO.resolvingLinks(into.text)
            guard let i = files.firstIndex(where: { $0.displayName == into.text || $0.path.map(FileIO.resolvingLinks) == wanted }) else {
                throw .usage("--into names no open file (open: \(files.map { TextSafety.sanitize($0.displayName) }.joined(separator: ", ")))",
                             span: into.span)
            }
            target = i
        }
        let file = files[target]
        if files.contains(where: { $0.path.map(FileIO.resolvingLinks) == FileIO.resolvingLinks(path) }) {
            throw .failed("\(TextSafety.sanitize(path)) is open: import reads a new export into an open file")
        }
        let (loaded, _) = try read(path: path, format: .csv, options: options)
        let export = loaded.ledger
        guard case .csv(let exportLayout) = loaded.document.layout else { throw .failed("\(path): not a CSV export") }
        let isText = file.document.format != .csv
        // The account: given, remembered for this header, or (CSV into CSV) the target's own.
        let memory = columnMemoryPath.map { AccountMemory(path: String($0.dropLast("columns".count)) + "accounts") }
        var account = given ?? (exportLayout.hasHeader ? memory?.read()[ColumnMap.signature(of: exportLayout.header)] : nil)
        if isText && account == nil {
            if exportLayout.columns.account != nil { account = nil } else {
                throw .failed("name the account \(TextSafety.sanitize(path))'s money moves in: --account Assets:Checking "
                              + "(it is remembered for the next export with the same header)")
            }
        }
        // Compared with: the target file's transactions in that account.
        let accountID = account.flatMap { ledger.accounts.id(of: $0) }
        var candidates = file.rows
        if isText {
            candidates = candidates.filter { accountID == nil ? false : ledger.account[$0] == accountID! }
            if account == nil { candidates = file.rows }
        } else if case .csv(let l) = file.document.layout, l.columns.account != nil, let accountID {
            candidates = candidates.filter { ledger.account[$0] == accountID }
        }
        var currencies: [UInt32: String] = [:]
        // A currency only the export's column name gives (`Betrag (EUR)`) counts as none here: the file's own rows,
        // read without it, would not match the export's.
        for id in export.currencies.ids {
            let given = export.currencies[id]
            currencies[id] = currencyFor(given == exportLayout.headerCurrency?.code ? "" : given, file: file, in: ledger)
        }
        currencies[0] = currencyFor("", file: file, in: ledger)
        // An export with its own account column, into a CSV file with one: each row is compared within its account.
        var perRowAccount = false
        if account == nil, exportLayout.columns.account != nil, case .csv(let l) = file.document.layout, l.columns.account != nil {
            perRowAccount = true
        }
        // Bank ids, when the export and the target CSV file both have a column for them.
        var exportIDs: [String]?
        var bankIDs: (incoming: [String], ledger: (Int) -> String)?
        if let e = exportLayout.bankIDColumn, let (values, ids) = loaded.document.columnValues(named: exportLayout.header[e]) {
            exportIDs = ids.map { values[$0].trimmingCharacters(in: " \t") }
            if case .csv(let l) = file.document.layout, let t = l.bankIDColumn, let (theirs, rowIDs) = columnValues(l.header[t]),
               let exportIDs {
                bankIDs = (exportIDs, { row in row < rowIDs.count ? theirs[rowIDs[row]].trimmingCharacters(in: " \t") : "" })
            }
        }
        let verdicts = ImportMatcher(window: window).match(export, against: ledger, candidates: candidates,
                                                           currency: { currencies[export.currency[$0]] ?? "" }, byAccount: perRowAccount,
                                                           bankIDs: bankIDs)
        let newRows = verdicts.indices.filter { if case .duplicate = verdicts[$0] { false } else { true } }
        let duplicates = verdicts.count - newRows.count
        let doubtful = verdicts.indices.filter { if case .doubtful = verdicts[$0] { true } else { false } }
        // A dry run lists every row first; what the rules would do is said once the new rows are planned below.
        let dryRunSummary = "\(TextSafety.sanitize(path)): \(newRows.count) to import (\(doubtful.count) of them doubtful), "
            + "\(duplicates) already in the ledger"
        if dryRun {
            printImportPlan(export, verdicts: verdicts, currency: { currencies[export.currency[$0]] ?? "" })
            if newRows.isEmpty {
                printer.note(dryRunSummary + "; nothing changed")
                return
            }
        }
        guard !newRows.isEmpty else {
            printer.note("\(TextSafety.sanitize(path)): nothing new (\(plural(duplicates, "transaction")) already in the ledger)")
            return
        }
        // The new transactions in the target file's own layout, and the rows that text reads back as.
        let counterFor: (NewTransaction) -> String = { $0.amount.units < 0 ? "Expenses:Unknown" : "Income:Unknown" }
        let fileAccount: String
        if case .csv = file.document.layout { fileAccount = account ?? file.rows.first.map { ledger.accounts[ledger.account[$0]] } ?? "" } else {
            fileAccount = account ?? ""
        }
        // The export's columns that the file has too, by name, come along with each row (a CSV file only):
        // the export's column index for each such name, worked out once.
        let carried: [(name: String, column: Int)] = {
            guard exportLayout.hasHeader, case .csv(let l) = file.document.layout, l.hasHeader else { return [] }
            let theirs = Set(l.header.indices.filter { !l.columns.used.contains($0) }.map { HeaderVocabulary.normalized(l.header[$0]) })
            var out: [(name: String, column: Int)] = []
            for (i, raw) in exportLayout.header.enumerated() {
                let name = HeaderVocabulary.normalized(raw)
                if theirs.contains(name), !out.contains(where: { $0.name == name }) { out.append((name, i)) }
            }
            return out
        }()
        let transactions = newRows.map { r in
            var t = NewTransaction(day: export.day(r), description: export.merchants[export.merchant[r]], amount: export.amount(r),
                           currency: currencyFor(export.currencies[export.currency[r]], file: file, in: ledger),
                           account: account ?? (fileAccount.isEmpty || perRowAccount ? export.accounts[export.account[r]] : fileAccount),
                           bankID: exportIDs.flatMap { r < $0.count && !$0[r].isEmpty ? $0[r] : nil })
            if !carried.isEmpty {
                let fields = loaded.document.originalFields(row: r)
                for (name, i) in carried where i < fields.count { t.otherFields[name] = fields[i].value }
            }
            return t
        }
        if file.document.format == .beancount, let bad = transactions.first(where: { !Beancount.isCommodity($0.currency) }) {
            throw .failed("beancount needs a commodity for every amount: '\(TextSafety.sanitize(bad.currency))' is not one "
                          + "(the file's transactions use none tagsh could take instead)")
        }
        let text: [UInt8], fragment: Ledger
        do throws(Diagnostic) { (text, fragment) = try file.document.newRecords(transactions, fileName: file.path ?? file.displayName, counterAccount: counterFor) } catch {
            throw .diagnostic(error)
        }
        guard fragment.count == transactions.count else {
            throw .failed("the \(transactions.count) new transactions read back as \(fragment.count) from \(TextSafety.sanitize(file.displayName))'s layout; nothing imported")
        }
        var working = ledger
        let range = working.append(rowsOf: fragment)
        let block = working.block(range)
        // The rules run on the new transactions in the same step.
        var change = Change(ledger: ChangeSet(), tables: working)
        var annotated = 0
        if !rules.isEmpty {
            let ids = Query.term(.id((range.lowerBound + 1)...range.upperBound))
            let scoped = rules.map { r in var r = r; r.query = .and([ids, r.query]); return r }
            do throws(PlanError) {
                let plan = try Planner.plan(scoped, ledger: &working, selection: [], maxTags: settings.maxTags,
                                            interrupted: interrupted, columnValues: { _ in nil })
                change = Change(ledger: plan.changes, tables: working)
                annotated = plan.changedCount
            } catch .interrupted {
                throw .interrupted
            } catch {
                throw .failed(error.message)
            }
        }
        if dryRun {
            // The rules' count, as the import would report it (they see the new rows only).
            printer.note(dryRunSummary + (annotated == 0 ? "" : "; the rules would annotate \(annotated)")
                         + "; nothing changed (`import` without --dry-run imports them)")
            return
        }
        change.imported = ImportedRows(file: target, rows: block, text: text)
        let summary = "import \(newRows.count) into \(file.displayName)"
        try commit(change, command: line, replay: line, summary: summary)
        lastImport = range
        if let account, exportLayout.hasHeader, let memory {
            do throws(FileError) { try memory.remember(account, header: exportLayout.header) } catch { throw .file(error) }
        }
        var message = "imported \(plural(newRows.count, "transaction")) into \(TextSafety.sanitize(file.displayName)) "
            + "(ids \(range.lowerBound + 1)-\(range.upperBound))"
        if duplicates > 0 { message += "; skipped \(duplicates) already in the ledger" }
        if !doubtful.isEmpty { message += "; \(doubtful.count) doubtful (`import --dry-run` says why)" }
        printer.note(message + (annotated == 0 ? "" : "; the rules annotated \(annotated)"))
        // Suggestions are offered, not computed: on a large ledger that would be the index's build, not the import.
        printer.note("`review id:\(range.lowerBound + 1)..\(range.upperBound)` or `preview suggestions id:\(range.lowerBound + 1)..\(range.upperBound)` to annotate them")
        if let current = self.ledger {
            let pairs = ImportMatcher.transferPairs(in: current, rows: Array(range), among: Array(0..<current.count),
                                                    excluded: transferExclusions(current))
            if !pairs.isEmpty { printer.note("\(plural(pairs.count, "possible transfer")) between accounts: `transfers` lists them") }
        }
    }

    /// The export's currency, or where it gives none, the one the target file's transactions use most.
    func currencyFor(_ currency: String, file: OpenFile, in ledger: Ledger) -> String {
        if !currency.isEmpty && (file.document.format != .beancount || Beancount.isCommodity(currency)) { return currency }
        var counts: [UInt32: Int] = [:]
        for r in file.rows.prefix(10_000) { counts[ledger.currency[r], default: 0] += 1 }
        let best = counts.filter { $0.key != 0 }.max { ($0.value, $1.key) < ($1.value, $0.key) }?.key
        return best.map { ledger.currencies[$0] } ?? currency
    }

    func printImportPlan(_ export: Ledger, verdicts: [ImportMatcher.Verdict], currency: (Int) -> String) {
        guard let ledger else { return }
        var table = Table([
            .init(header: "ROW", alignRight: true), .init(header: "STATUS"), .init(header: "DATE"),
            .init(header: "DESCRIPTION", shrinkable: true, minWidth: 12), .init(header: "AMOUNT", alignRight: true),
            .init(header: "WHY", shrinkable: true, minWidth: 10),
        ])
        for (i, v) in verdicts.enumerated() {
            let (status, why): (String, String)
            switch v {
            case .new: (status, why) = ("new", "")
            case .duplicate(let row, let reason): (status, why) = ("duplicate", "id \(row + 1): \(TextSafety.sanitize(reason))")
            case .doubtful(let row, let reason):
                (status, why) = ("doubtful", "id \(row + 1) \(TextSafety.sanitize(ledger.merchants[ledger.merchant[row]])): \(reason)")
            }
            table.add([.init(String(i + 1)), .init(status), .init(export.day(i).description),
                       .init(TextSafety.sanitize(export.merchants[export.merchant[i]])),
                       .init(Render.amount(export.amount(i), currency: currency(i), minimumScale: 2)), .init(why)])
        }
        printer.text(table.render(width: tableWidth, style: style))
    }

    /// Rows not to pair as transfers: those already in the Transfer category, and pairs rejected this session.
    func transferExclusions(_ ledger: Ledger) -> Set<Int> {
        var out = rejectedTransfers
        if let t = ledger.categories.id(of: "Transfer") {
            for r in 0..<ledger.count where ledger.category[r] == t { out.insert(r) }
        }
        return out
    }
}
