import TagshModel

/// Writes annotations back into a CSV file's bytes, changing only the
/// records of changed transactions (and the header, when an annotation
/// column has to be added). Every other byte is copied as it was.
enum CSVWriter {
    /// The annotation columns, in the order they are added when missing.
    enum Column: CaseIterable {
        case intent, category, tags, notes

        var title: String {
            switch self {
            case .intent: "Intent"
            case .category: "Category"
            case .tags: "Tags"
            case .notes: "Notes"
            }
        }

        /// The header title a save gives the column: beside a bank's own Category column, tagsh's is named apart.
        func title(in layout: CSVLayout) -> String {
            guard self == .category, layout.hasHeader,
                  layout.header.contains(where: { HeaderVocabulary.normalized($0) == "category" }) else { return title }
            return "Category (tagsh)"
        }

        func index(in c: CSVColumns) -> Int? {
            switch self {
            case .intent: c.intent
            case .category: c.category
            case .tags: c.tags
            case .notes: c.notes
            }
        }

        func value(_ ledger: Ledger, _ row: Int) -> String {
            switch self {
            case .intent: ledger.intentValue(row)?.description ?? ""
            case .category: ledger.category[row] == 0 ? "" : ledger.categories[ledger.category[row]].name
            case .tags: ledger.tagNames(row).joined(separator: ";")
            case .notes: ledger.note[row] == 0 ? "" : ledger.notes[ledger.note[row]]
            }
        }
    }

    static func render(_ bytes: [UInt8], layout: CSVLayout, ledger: Ledger, changedRows: [Int]) throws(Diagnostic) -> [UInt8] {
        try renderWithLayout(bytes, layout: layout, ledger: ledger, changedRows: changedRows).bytes
    }

    /// The new bytes, and the layout of the file once written when the header stays as it is (the records'
    /// offsets shifted by the edits), so a save need not read a million records again; nil when columns were added.
    static func renderWithLayout(_ bytes: [UInt8], layout: CSVLayout, ledger: Ledger, changedRows: [Int]) throws(Diagnostic)
        -> (bytes: [UInt8], layout: CSVLayout?)
    {
        guard !changedRows.isEmpty else { return (bytes, layout) }
        // Where each annotation goes: its column, or a new one at the end.
        var indexOf: [Column: Int] = [:]
        var added: [Column] = []
        var next = layout.header.count
        let addsColumns = !addedColumns(layout: layout, ledger: ledger, changedRows: changedRows).isEmpty
        for column in Column.allCases {
            if let i = column.index(in: layout.columns) {
                indexOf[column] = i
            } else if addsColumns {
                indexOf[column] = next
                added.append(column)
                next += 1
            }
        }
        let lowercaseHeader = layout.header.allSatisfy { $0 == $0.lowercased() }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + changedRows.count * 32)
        var copied = 0
        func copy(upTo end: Int) {
            if end > copied { out.append(contentsOf: bytes[copied..<end]) }
            copied = max(copied, end)
        }
        if !added.isEmpty && layout.hasHeader {
            copy(upTo: layout.headerRange.upperBound)
            let (_, headerQuoted) = bytes.withUnsafeBufferPointer { fieldShape($0, layout.headerRange, layout: layout) }
            for title in added.map({ $0.title(in: layout) }) {
                out.append(layout.delimiter)
                out.append(contentsOf: try field(lowercaseHeader ? title.lowercased() : title, layout, quoteAll: headerQuoted, row: nil))
            }
        }
        // When columns are added, every record gets their fields, so the file stays rectangular.
        let rows = added.isEmpty ? changedRows.sorted() : Array(0..<layout.recordStarts.count)
        var changed = [Bool](repeating: false, count: layout.recordStarts.count)
        for r in changedRows { changed[r] = true }
        // The new length of each rewritten record (for the next layout).
        var newLength: [Int: Int] = [:]
        for row in rows {
            let start = layout.recordStarts[row], end = layout.recordEnds[row]
            copy(upTo: start)
            if changed[row] {
                let rewritten = try bytes.withUnsafeBufferPointer { buffer throws(Diagnostic) in
                    try record(buffer, start..<end, layout: layout, ledger: ledger, row: row, indexOf: indexOf)
                }
                out.append(contentsOf: rewritten)
                if added.isEmpty { newLength[row] = rewritten.count }
            } else {
                copy(upTo: end)
                let (count, quoteAll) = bytes.withUnsafeBufferPointer { fieldShape($0, start..<end, layout: layout) }
                for _ in min(count, next)..<next {
                    out.append(layout.delimiter)
                    if quoteAll { out.append(contentsOf: [0x22, 0x22]) }
                }
            }
            copied = end
        }
        copy(upTo: bytes.count)
        guard added.isEmpty else { return (out, nil) }
        var shifted = layout
        var delta = 0
        for r in 0..<layout.recordStarts.count {
            shifted.recordStarts[r] = layout.recordStarts[r] + delta
            if let n = newLength[r] {
                delta += n - (layout.recordEnds[r] - layout.recordStarts[r])
                shifted.recordEnds[r] = shifted.recordStarts[r] + n
            } else {
                shifted.recordEnds[r] = layout.recordEnds[r] + delta
            }
        }
        return (out, shifted)
    }

    /// How many fields a record has, and whether it quotes every one.
    static func fieldShape(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, layout: CSVLayout) -> (Int, Bool) {
        var scanner = CSVReader.Scanner(bytes: UnsafeBufferPointer(rebasing: bytes[..<range.upperBound]), pos: range.lowerBound,
                                        line: 0, delimiter: layout.delimiter)
        var refs: [FieldRef] = []
        var recordEnd = 0
        _ = try? scanner.next(into: &refs, recordEnd: &recordEnd)
        return (refs.count, !refs.isEmpty && refs.allSatisfy(\.quoted))
    }

    /// The annotation columns a save would add to the header: when a changed row has an annotation the file
    /// has no column for, every missing one at once (Intent, Category, Tags, Notes), so the records are rewritten
    /// whole only on that first save, never again by a later one that needs another column.
    static func addedColumns(layout: CSVLayout, ledger: Ledger, changedRows: [Int]) -> [String] {
        let missing = Column.allCases.filter { $0.index(in: layout.columns) == nil }
        guard missing.contains(where: { c in changedRows.contains { !c.value(ledger, $0).isEmpty } }) else { return [] }
        return missing.map { $0.title(in: layout) }
    }

    /// One record with its annotation fields replaced; other fields keep their bytes.
    static func record(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, layout: CSVLayout, ledger: Ledger, row: Int,
                       indexOf: [Column: Int]) throws(Diagnostic) -> [UInt8] {
        var scanner = CSVReader.Scanner(bytes: UnsafeBufferPointer(rebasing: bytes[..<range.upperBound]), pos: range.lowerBound,
                                        line: 0, delimiter: layout.delimiter)
        var refs: [FieldRef] = []
        var recordEnd = 0
        _ = try? scanner.next(into: &refs, recordEnd: &recordEnd)
        var fields: [[UInt8]] = refs.map { f in
            f.quoted ? Array(bytes[(f.start - 1)..<(f.end + 1)]) : Array(bytes[f.start..<f.end])
        }
        let quoteAll = !refs.isEmpty && refs.allSatisfy(\.quoted)
        let needed = (indexOf.values.max() ?? 0) + 1
        while fields.count < needed { fields.append(quoteAll ? [0x22, 0x22] : []) }
        for (column, i) in indexOf {
            fields[i] = try field(column.value(ledger, row), layout, quoteAll: quoteAll, row: row)
        }
        var out: [UInt8] = []
        for (i, f) in fields.enumerated() {
            if i > 0 { out.append(layout.delimiter) }
            out.append(contentsOf: f)
        }
        return out
    }

    /// A field's bytes in the file's encoding, quoted when it must be (or when
    /// the record quotes every field). A character Windows-1252 cannot hold is refused.
    static func field(_ text: String, _ layout: CSVLayout, quoteAll: Bool, row: Int?) throws(Diagnostic) -> [UInt8] {
        let delimiter = layout.delimiter
        var utf8 = Array(text.utf8)
        if layout.encoding == .windows1252 {
            switch TextEncoding.windows1252(from: text) {
            case .success(let bytes): utf8 = bytes
            case .failure(let f):
                throw Diagnostic("\(row.map { "transaction \($0 + 1): " } ?? "")the file is Windows-1252, which cannot hold '\(f.character)' "
                                 + "(U+\(f.character.unicodeScalars.first.map { String($0.value, radix: 16, uppercase: true) } ?? "?"))")
            }
        }
        let needs = quoteAll || utf8.contains { $0 == delimiter || $0 == 0x22 || $0 == 0x0A || $0 == 0x0D }
            || utf8.first == 0x20 || utf8.last == 0x20
        guard needs else { return utf8 }
        var out: [UInt8] = [0x22]
        for b in utf8 {
            out.append(b)
            if b == 0x22 { out.append(0x22) }
        }
        out.append(0x22)
        return out
    }
}
