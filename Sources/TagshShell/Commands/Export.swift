import TagshFormats
import TagshModel

extension Commands {
    static let export: Command = Command(
        name: "export", group: .files, forms: [[.file]],
        summary: "write the whole ledger to another file in a fresh layout",
        details: """
            Unlike save, export writes every transaction anew: CSV with the columns Date, Description, \
            Amount, Currency, Account, Category, Tags (joined by ;), Notes and Intent, or JSON with the \
            whole model (amounts as exact decimal strings). The format comes from --format, else the \
            file's extension. The open file and its unsaved state are not affected.
            """,
        options: [.init("format", .choice(["csv", "json"]), "csv or json")],
        examples: ["export all.json", "export copy.csv --format csv"]
    ) { (inv: inout Invocation) throws(ShellError) in
        guard let path = inv.words.first else { throw .usage("usage: \(inv.command.synopsis)", span: nil) }
        try inv.expectAtMost(1)
        let ledger = try inv.requireLedger()
        let format = inv.formatOption() ?? LedgerFormat(extensionOf: path.text) ?? .csv
        let bytes: [UInt8]
        do throws(Diagnostic) { bytes = try Export.render(ledger, as: format) } catch { throw .diagnostic(error) }
        do throws(FileError) { try FileIO.writeAtomically(bytes, to: path.text) } catch { throw .file(error) }
        inv.out.note("exported \(ledger.count) transactions to \(TextSafety.sanitize(path.text)) (\(format))")
    }
}
