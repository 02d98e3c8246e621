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

        /// The value's UTF-8, built from the tables' bytes (tags joined by `;`).
        func appendValue(_ ledger: Ledger, _ row: Int, into out: inout [UInt8]) {
            switch self {
            case .intent: if let i = ledger.intentValue(row) { out.append(contentsOf: i.description.utf8) }
            case .category: if ledger.category[row] != 0 { out.append(contentsOf: ledger.categories[ledger.category[row]].name.utf8) }
            case .tags:
                for (k, t) in ledger.tagSets[ledger.tagSet[row]].enumerated() {
                    if k > 0 { out.append(0x3B) } // ;
                    ledger.tags.withUTF8(t) { out.append(contentsOf: $0) }
                }
            case .notes: if ledger.note[row] != 0 { ledger.notes.withUTF8(ledger.note[row]) { out.append(contentsOf: $0) } }
            }
        }

        /// Whether the row has a value for this column.
        func hasValue(_ ledger: Ledger, _ row: Int) -> Bool {
            var bytes: [UInt8] = []
            appendValue(ledger, row, into: &bytes)
            return !bytes.isEmpty
        }
    }

    /// The new file as a splice of the old: one edit per changed record, or, when annotation columns are added
    /// (every record gets their fields), the whole new file and its layout (`added`: worked out as it is written,
    /// where the file was read back whole).
    static func renderSplice(_ bytes: [UInt8], layout: CSVLayout, ledger: Ledger, changedRows: [Int]) throws(Diagnostic)
        -> (splice: ByteSplice, added: CSVLayout?)
    {
        guard !changedRows.isEmpty else { return (ByteSplice(bytes), nil) }
        // The document and the ledger must describe the same records (a file read back after a save with rows it
        // skipped would not): refuse rather than write a record into another's place.
        if let row = changedRows.first(where: { $0 < 0 || $0 >= layout.records.count }) {
            throw Diagnostic("cannot save transaction \(row + 1): the file holds \(layout.records.count) records that tagsh can place; "
                             + "nothing was written (reopen the file to see what it reads)")
        }
        // Where each annotation goes: its column, or a new one after the header's names and the widest record
        // (fields a record has beyond the header's names stay where they are, under unnamed columns).
        let addsColumns = !addedColumns(layout: layout, ledger: ledger, changedRows: changedRows).isEmpty
        let shapes = addsColumns ? recordShapes(bytes, layout: layout) : nil
        var columnAt: [Column?] = Array(repeating: nil, count: shapes?.widest ?? layout.header.count)
        var added: [Column] = []
        for column in Column.allCases {
            if let i = column.index(in: layout.columns) {
                while columnAt.count <= i { columnAt.append(nil) }
                columnAt[i] = column
            } else if addsColumns {
                columnAt.append(column)
                added.append(column)
            }
        }
        let rows = changedRows.sorted()
        var writer = RecordWriter(layout: layout, ledger: ledger, columnAt: columnAt)
        if let shapes, !added.isEmpty {
            let (whole, next) = try wholeFile(bytes, layout: layout, added: added, shapes: shapes.shapes, rows: rows, writer: &writer)
            return (ByteSplice(whole), next)
        }
        var edits: [ByteSplice.Edit] = []
        edits.reserveCapacity(rows.count)
        try bytes.withUnsafeBufferPointer { buffer throws(Diagnostic) in
            var previous = -1
            for row in rows where row != previous {
                previous = row
                let range = layout.records[row]
                var out: [UInt8] = []
                out.reserveCapacity(range.count + 32)
                try writer.record(buffer, range, row: row, into: &out)
                edits.append((range.lowerBound, range.upperBound, out))
            }
        }
        return (ByteSplice(bytes, sortedEdits: edits), nil)
    }

    /// The first save that adds annotation columns: the new header, and every record with the new fields; and the
    /// layout of what is written, as reading it back would give it.
    private static func wholeFile(_ bytes: [UInt8], layout: CSVLayout, added: [Column], shapes: [UInt32], rows: [Int],
                                  writer: inout RecordWriter) throws(Diagnostic) -> ([UInt8], CSVLayout)
    {
        let lowercaseHeader = layout.header.allSatisfy { $0 == $0.lowercased() }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + layout.records.count * (added.count + 8))
        var copied = 0
        func copy(upTo end: Int) {
            if end > copied { out.append(contentsOf: bytes[copied..<end]) }
            copied = max(copied, end)
        }
        let width = writer.columnAt.count
        var next = layout
        let titles = added.map { lowercaseHeader ? $0.title(in: layout).lowercased() : $0.title(in: layout) }
        if layout.hasHeader {
            copy(upTo: layout.headerRange.upperBound)
            var refs: [FieldRef] = []
            let headerQuoted = bytes.withUnsafeBufferPointer { fieldShape($0, layout.headerRange, layout: layout, refs: &refs) }.1
            // Unnamed columns for the fields records have beyond the header's names, then the new ones.
            for _ in layout.header.count..<(width - added.count) {
                out.append(layout.delimiter)
                if headerQuoted { out.append(contentsOf: [0x22, 0x22]) }
            }
            for title in titles {
                out.append(layout.delimiter)
                out.append(contentsOf: try field(title, layout, quoteAll: headerQuoted, row: nil))
            }
            next.headerRange = layout.headerRange.lowerBound..<out.count
            next.header = layout.header + Array(repeating: "", count: width - added.count - layout.header.count) + titles
        } else {
            next.header = (1...width).map(String.init)
        }
        var changed = [Bool](repeating: false, count: layout.records.count)
        for r in rows { changed[r] = true }
        var records = RecordOffsets()
        records.reserveCapacity(layout.records.count)
        try bytes.withUnsafeBufferPointer { buffer throws(Diagnostic) in
            for row in layout.records.indices {
                let range = layout.records[row]
                let start = range.lowerBound, end = range.upperBound
                copy(upTo: start)
                let newStart = out.count
                if changed[row] {
                    try writer.record(buffer, start..<end, row: row, into: &out)
                } else {
                    copy(upTo: end)
                    let shape = shapes[row]
                    let count = Int(shape & 0x7FFF_FFFF), quoteAll = shape >> 31 != 0
                    for _ in min(count, width)..<width {
                        out.append(layout.delimiter)
                        if quoteAll { out.append(contentsOf: [0x22, 0x22]) }
                    }
                }
                records.append(newStart..<out.count)
                copied = end
            }
        }
        copy(upTo: bytes.count)
        next.records = records
        // The mapping names the added columns as `title(in:)` does, in a header written in lower case too.
        let named = added.map { $0.title(in: layout) }
        (next.columns, next.columnMap) = columnsAdding(titles: named, from: width - added.count, to: layout,
                                                       newHeader: layout.header + Array(repeating: "", count: width - added.count - layout.header.count) + named)
        return (out, next)
    }

    /// Where the columns named `titles` (as `Column.title(in:)` names them) go once a save adds them from position
    /// `from`, and the mapping that keeps describing the file: annotation columns a save added are named in a
    /// mapping by position (or by name, beside a header that alone would name them otherwise).
    static func columnsAdding(titles: [String], from: Int, to old: CSVLayout, newHeader: [String]) -> (CSVColumns, ColumnMap?) {
        var columns = old.columns
        var next = from
        for title in titles {
            switch title {
            case "Intent": columns.intent = next
            case "Category", "Category (tagsh)": columns.category = next
            case "Tags": columns.tags = next
            default: columns.notes = next
            }
            next += 1
        }
        var map = old.columnMap
        if map != nil {
            map = titles.isEmpty ? old.columnMap
                : old.hasHeader ? ColumnMap(namesOf: columns, header: newHeader) : ColumnMap(positionsOf: columns)
        } else if !titles.isEmpty, old.hasHeader {
            // When the new header alone would name the annotation columns otherwise (a bank's own Category column
            // beside tagsh's new Tags column, or tagsh's Category column alone), a mapping keeps them as they are.
            let alone = CSVColumns(header: newHeader)
            if alone?.category != columns.category || alone?.tags != columns.tags || alone?.intent != columns.intent
                || alone?.notes != columns.notes {
                map = ColumnMap(namesOf: columns, header: newHeader)
            }
        }
        return (columns, map)
    }

    /// Each record's number of fields, with bit 31 set when it quotes every one, and the most fields a record has
    /// or the header names: where the columns a save adds begin, so a bank's fields that have no name in the
    /// header (a trailing `,,` on every row, or values) are neither overwritten nor read back as tagsh's.
    static func recordShapes(_ bytes: [UInt8], layout: CSVLayout) -> (shapes: [UInt32], widest: Int) {
        var widest = layout.header.count
        var shapes = [UInt32](repeating: 0, count: layout.records.count)
        var refs: [FieldRef] = []
        bytes.withUnsafeBufferPointer { buffer in
            for r in layout.records.indices {
                let (count, quoteAll) = fieldShape(buffer, layout.records[r], layout: layout, refs: &refs)
                widest = max(widest, count)
                shapes[r] = UInt32(truncatingIfNeeded: min(count, 0x7FFF_FFFF)) | (quoteAll ? 1 << 31 : 0)
            }
        }
        return (shapes, widest)
    }

    /// Where the columns a save adds begin (`recordShapes`).
    static func addedColumnsStart(_ bytes: [UInt8], layout: CSVLayout) -> Int {
        recordShapes(bytes, layout: layout).widest
    }

    /// How many fields a record has, and whether it quotes every one (`refs`: room reused from record to record).
    static func fieldShape(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, layout: CSVLayout, refs: inout [FieldRef]) -> (Int, Bool) {
        var scanner = CSVReader.Scanner(bytes: UnsafeBufferPointer(rebasing: bytes[..<range.upperBound]), pos: range.lowerBound,
                                        line: 0, delimiter: layout.delimiter)
        var recordEnd = 0
        _ = try? scanner.next(into: &refs, recordEnd: &recordEnd)
        return (refs.count, quotesEveryValue(refs))
    }

    /// Whether a record quotes every value, so that the fields a save writes into it are quoted too: every field
    /// that is not empty, and one at least (DKB quotes every value and ends each line with an empty `;`: its added
    /// fields came unquoted beside the bank's quoted ones).
    static func quotesEveryValue(_ refs: [FieldRef]) -> Bool {
        refs.contains(where: \.quoted) && refs.allSatisfy { $0.quoted || $0.start == $0.end }
    }

    /// The annotation columns a save would add to the header: when a changed row has an annotation the file
    /// has no column for, every missing one at once (Intent, Category, Tags, Notes), so the records are rewritten
    /// whole only on that first save, never again by a later one that needs another column.
    static func addedColumns(layout: CSVLayout, ledger: Ledger, changedRows: [Int]) -> [String] {
        let missing = Column.allCases.filter { $0.index(in: layout.columns) == nil }
        guard missing.contains(where: { c in changedRows.contains { c.hasValue(ledger, $0) } }) else { return [] }
        return missing.map { $0.title(in: layout) }
    }

    /// Rewrites records: the annotation fields replaced, every other field's bytes kept.
    struct RecordWriter {
        let layout: CSVLayout
        let ledger: Ledger
        /// The annotation each field position holds (nil: a field of the bank's, kept as it is).
        let columnAt: [Column?]
        /// Every record is written with at least this many fields (up to the last annotation's).
        let needed: Int
        /// Reused from record to record.
        var refs: [FieldRef] = []
        var value: [UInt8] = []

        init(layout: CSVLayout, ledger: Ledger, columnAt: [Column?]) {
            self.layout = layout
            self.ledger = ledger
            self.columnAt = columnAt
            needed = columnAt.lastIndex { $0 != nil }.map { $0 + 1 } ?? 0
        }

        /// Appends the record at `range` with its annotation fields replaced.
        mutating func record(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, row: Int, into out: inout [UInt8])
            throws(Diagnostic)
        {
            var scanner = CSVReader.Scanner(bytes: UnsafeBufferPointer(rebasing: bytes[..<range.upperBound]), pos: range.lowerBound,
                                            line: 0, delimiter: layout.delimiter)
            var recordEnd = 0
            refs.removeAll(keepingCapacity: true)
            _ = try? scanner.next(into: &refs, recordEnd: &recordEnd)
            let quoteAll = CSVWriter.quotesEveryValue(refs)
            for i in 0..<max(refs.count, needed) {
                if i > 0 { out.append(layout.delimiter) }
                if i < columnAt.count, let column = columnAt[i] {
                    value.removeAll(keepingCapacity: true)
                    column.appendValue(ledger, row, into: &value)
                    try CSVWriter.appendField(value, layout, quoteAll: quoteAll, row: row, into: &out)
                } else if i < refs.count {
                    let f = refs[i]
                    out.append(contentsOf: UnsafeBufferPointer(rebasing: f.quoted ? bytes[(f.start - 1)..<(f.end + 1)] : bytes[f.start..<f.end]))
                } else if quoteAll {
                    out.append(contentsOf: [0x22, 0x22])
                }
            }
        }
    }

    /// Appends a field's value (UTF-8) in the file's encoding, quoted when it must be (or when the record quotes
    /// every field). A character Windows-1252 cannot hold is refused.
    static func appendField(_ utf8: [UInt8], _ layout: CSVLayout, quoteAll: Bool, row: Int?, into out: inout [UInt8]) throws(Diagnostic) {
        if layout.encoding == .windows1252 {
            out.append(contentsOf: try field(String(decoding: utf8, as: UTF8.self), layout, quoteAll: quoteAll, row: row))
            return
        }
        let delimiter = layout.delimiter
        let needs = quoteAll || utf8.contains { $0 == delimiter || $0 == 0x22 || $0 == 0x0A || $0 == 0x0D }
            || utf8.first == 0x20 || utf8.last == 0x20
        guard needs else { out.append(contentsOf: utf8); return }
        out.append(0x22)
        for b in utf8 {
            out.append(b)
            if b == 0x22 { out.append(0x22) }
        }
        out.append(0x22)
    }

    /// Why a Windows-1252 file cannot hold a text, or nil when it can.
    static func windows1252Refusal(_ text: String, row: Int?) -> String? {
        if case .failure(let f) = TextEncoding.windows1252(from: text) { windows1252Refusal(f, row: row) } else { nil }
    }

    static func windows1252Refusal(_ f: TextEncoding.EncodingFailure, row: Int?) -> String {
        "\(row.map { "transaction \($0 + 1): " } ?? "")the file is Windows-1252, which cannot hold '\(f.character)' "
            + "(U+\(f.character.unicodeScalars.first.map { hex4($0.value) } ?? "?"))"
    }

    /// A code point as Unicode writes it: at least four hex digits (0142, 1F600).
    static func hex4(_ value: UInt32) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }

    /// A field's bytes in the file's encoding, quoted when it must be (or when
    /// the record quotes every field). A character Windows-1252 cannot hold is refused.
    static func field(_ text: String, _ layout: CSVLayout, quoteAll: Bool, row: Int?) throws(Diagnostic) -> [UInt8] {
        let delimiter = layout.delimiter
        var utf8 = Array(text.utf8)
        if layout.encoding == .windows1252 {
            switch TextEncoding.windows1252(from: text) {
            case .success(let bytes): utf8 = bytes
            case .failure(let f): throw Diagnostic(windows1252Refusal(f, row: row))
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
