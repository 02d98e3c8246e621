import TagshFormats
import TagshModel

extension Commands {
    static let info: Command = Command(
        name: "info", group: .files, forms: [[]],
        summary: "describe the open ledger: file, format, size, dates, currencies",
        options: [.init("json", "machine-readable output")],
        examples: ["info"]
    ) { (inv: inout Invocation) throws(ShellError) in
        try inv.expectAtMost(0)
        let ledger = try inv.requireLedger()
        let session = inv.session
        var fields: [(String, String)] = []
        for file in session.files {
            var where_ = file.path ?? "\(file.displayName) (built-in demo)"
            if session.files.count > 1 {
                let ids = file.segments.filter { !$0.isEmpty }.map { "\($0.lowerBound + 1)-\($0.upperBound)" }.joined(separator: ", ")
                where_ += " (\(plural(file.rowCount, "transaction"))\(ids.isEmpty ? "" : ", ids " + ids))"
            }
            if !file.imports.isEmpty { where_ += ", with imported transactions not saved yet" }
            fields.append(("file", where_))
            var format = file.document.format.rawValue
            if case .csv(let layout) = file.document.layout {
                let delimiter = layout.delimiter == 0x09 ? "tab" : "'\(Character(UnicodeScalar(layout.delimiter)))'"
                format += ", delimiter \(delimiter), \(layout.lineEnding == [0x0D, 0x0A] ? "CRLF" : "LF")"
                format += layout.hasBOM ? ", BOM" : ""
                format += layout.encoding == .utf8 ? "" : ", \(layout.encoding.rawValue)"
                format += layout.decimalComma ? ", decimal comma" : ""
                format += ", dates \(layout.dateFormat)"
            }
            fields.append(("format", format))
            if case .csv(let layout) = file.document.layout {
                for guess in layout.guesses { fields.append(("guessed", guess)) }
                for note in layout.notes { fields.append(("note", note)) }
            }
            if case .text(let layout) = file.document.layout {
                for note in layout.notes { fields.append(("note", note)) }
            }
            if !file.skipped.isEmpty {
                // Where, by line: the records stay in the file as they are, and `open` listed why.
                let lines = file.skipped.compactMap(\.line)
                let shown = lines.prefix(5).map(String.init).joined(separator: ", ") + (lines.count > 5 ? ", …" : "")
                fields.append(("skipped", "\(plural(file.skipped.count, "record")) that could not be read (--skip-bad)"
                                          + (lines.isEmpty ? "" : ": line\(lines.count == 1 ? "" : "s") \(shown)")))
            }
            fields.append(("size", "\(file.document.bytes.count) bytes"))
        }
        fields.append(("transactions", String(ledger.count)))
        if ledger.count > 0 {
            let days = ledger.days
            let lo = days.min().map { Day(daysSinceEpoch: $0) }, hi = days.max().map { Day(daysSinceEpoch: $0) }
            fields.append(("dates", "\(lo.map(\.description) ?? "") .. \(hi.map(\.description) ?? "")"))
        }
        fields.append(("merchants", String(ledger.merchants.count)))
        fields.append(("accounts", ledger.accounts.ids.map { TextSafety.sanitize(ledger.accounts[$0]) }.joined(separator: ", ")))
        let currencies = ledger.currencies.ids.map { TextSafety.sanitize(ledger.currencies[$0]) }
        fields.append(("currencies", currencies.isEmpty ? "(none given)" : currencies.joined(separator: ", ")))
        let custom = ledger.categories.liveIDs.filter { !ledger.categories[$0].isDefault }.count
        fields.append(("categories", "\(ledger.categories.liveIDs.count - custom) default, \(custom) custom"))
        fields.append(("tags", String(ledger.usedTagIDs().count)))
        let annotated = (0..<ledger.count).filter {
            ledger.intent[$0] != 0 || ledger.category[$0] != 0 || ledger.tagSet[$0] != 0 || ledger.note[$0] != 0
        }.count
        fields.append(("annotated", "\(annotated) of \(ledger.count)"))
        fields.append(("unsaved", session.hasUnsavedChanges ? "yes" : "no"))
        if inv.flag("json") || session.jsonOutput {
            inv.out.line("{" + fields.map { Export.jsonString($0.0) + ": " + Export.jsonString($0.1) }.joined(separator: ", ") + "}")
            return
        }
        let width = fields.map { $0.0.count }.max() ?? 0
        for (k, v) in fields { inv.out.line(inv.out.style.bold(TextSafety.pad(k, width)) + "  " + v) }
    }
}
