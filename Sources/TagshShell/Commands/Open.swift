import TagshFormats
import TagshModel

extension Commands {
    static let open: Command = Command(
        name: "open", group: .files,
        forms: [[.files]],
        summary: "open ledger files, replacing the current ledger",
        details: """
            Reads the whole file into memory. Several files (a checking account's CSV, a card's CSV, last year's \
            journal) open as one ledger: ids run across them in the order given, `info` and `show` say which file \
            a transaction comes from, `file:NAME` selects by file, and `save` writes each changed file back (all of \
            them or, when one cannot be written, none). Each file keeps its own sidecar. The format comes from --format, else the file's extension, \
            else its content. A file that cannot be read is not opened at all: the error names the line and \
            column. A CSV record may have at most 10,004 fields. With --skip-bad the readable records are loaded \
            and the others are listed (`info` lists their lines too). \
            --date-format says how CSV dates are written (%d %m %y %Y %b %B %H %M %S %z and literal text); without it \
            the order of day and month is settled by the dates themselves, and a guess is reported. --columns says \
            which column holds what (see `help columns`); a file without a header row is read by what its columns \
            hold in the first 50 records (two amount columns side by side, neither negative, with exactly one \
            filled in each row, are debit then credit), a header row whose names tagsh knows only in part by the \
            names it knows and, for the rest, by what the columns hold; the guess is reported. \
            The sidecar FILE.tagsh, if present, is sourced quietly after opening (unless tagsh was started with \
            --no-init); a line that fails is reported as FILE.tagsh:LINE and the others still load. With unsaved \
            changes, open at the prompt warns once; a second open discards them.
            """,
        options: [
            .init("format", .choice(FormatHandlers.names), "read the file as " + FormatHandlers.names.dropLast().joined(separator: ", ")
              + " or " + (FormatHandlers.names.last ?? "")),
            .init("skip-bad", "load what can be read and list the records skipped"),
            .init("date-format", .dateFormat, "how CSV dates are written, e.g. %d/%m/%Y or %d %b %Y"),
            .init("columns", .text("MAP"), "which CSV column holds what: date=1,description=Details,amount=5"),
        ],
        examples: ["open checking.csv", "open export.csv --date-format %d/%m/%Y --skip-bad", "open wellsfargo.csv --columns date=1,amount=2,description=5",
                   "open 2025.journal", "open main.beancount", "open checking.csv card.csv"]
    ) { (inv: inout Invocation) throws(ShellError) in
        guard !inv.words.isEmpty else { throw .usage("usage: \(inv.command.synopsis)", span: nil) }
        let format = inv.formatOption()
        var options = ReadOptions(skipBad: inv.flag("skip-bad"))
        if let w = inv.values["date-format"] {
            guard let f = DateFormat(pattern: w.text) else {
                throw .usage("unknown date format '\(w.text)': write it with %d %m %y %Y %b %B (and %H %M %S %z), e.g. %d/%m/%Y or %d %b %Y", span: w.span)
            }
            options.dateFormat = f
        }
        if let w = inv.values["columns"] {
            do throws(ColumnMap.MapError) { options.columns = try ColumnMap(parsing: w.text) } catch {
                throw .usage("--columns: " + error.message, span: w.span)
            }
        }
        try inv.session.warnBeforeDiscarding("open", again: "`open` again")
        try inv.session.open(paths: inv.words.map(\.text), format: format, options: options)
        if let ledger = inv.session.ledger {
            let files = inv.session.files
            if files.count == 1 {
                inv.out.note("opened \(TextSafety.sanitize(inv.words[0].text)): \(plural(ledger.count, "transaction"))")
            } else {
                inv.out.note("opened \(files.count) files: \(plural(ledger.count, "transaction")) ("
                             + files.map { "\(TextSafety.sanitize($0.displayName)) \($0.rowCount)" }.joined(separator: ", ") + ")")
            }
        }
    }
}

extension Invocation {
    /// The `--format` option (its value was checked against the declared choices before the command ran).
    func formatOption() -> LedgerFormat? {
        values["format"].flatMap { LedgerFormat(rawValue: $0.text.lowercased()) }
    }
}
