import TagshModel

/// The file formats tagsh reads and writes.
public enum LedgerFormat: String, Sendable, CaseIterable, CustomStringConvertible {
    case csv, journal, beancount, json

    public var description: String { rawValue }

    /// The format named by a file's extension, if it names one.
    public init?(extensionOf path: String) {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        guard let dot = name.lastIndex(of: ".") else { return nil }
        switch name[name.index(after: dot)...].lowercased() {
        case "csv", "tsv", "txt": self = .csv
        case "journal", "hledger", "ledger", "j", "dat", "timeclock": self = .journal
        case "beancount", "bean": self = .beancount
        case "json": self = .json
        default: return nil
        }
    }

    /// Guesses the format from the first bytes of a file.
    public init(sniffing bytes: [UInt8]) {
        let head = String(decoding: bytes.prefix(4096), as: UTF8.self)
        let trimmed = head.drop { $0 == "\u{FEFF}" || $0 == " " || $0 == "\n" || $0 == "\r" || $0 == "\t" }
        if trimmed.hasPrefix("{") { self = .json; return }
        let lines = head.split(whereSeparator: { $0 == "\n" || $0 == "\r\n" }).prefix(40)
        if lines.contains(where: { $0.hasPrefix("option \"") || $0.hasPrefix("plugin \"") || $0.contains(" open ") && $0.first?.isNumber == true }) {
            self = .beancount
            return
        }
        if lines.contains(where: { l in l.first?.isNumber == true && !l.contains(",") && !l.contains(";") && !l.contains("\t") })
            && lines.contains(where: { $0.hasPrefix("    ") || $0.hasPrefix("\t") }) {
            self = .journal
            return
        }
        self = .csv
    }
}

/// A ledger read from a file, with what is needed to write it back.
public struct LoadedLedger: Sendable {
    public var ledger: Ledger
    public var document: LedgerDocument
    /// Records that `--skip-bad` left out, each with its reason.
    public var skipped: [Diagnostic]
}

/// The source of a ledger: its original bytes and format-specific layout.
public struct LedgerDocument: Sendable {
    public enum Layout: Sendable {
        case csv(CSVLayout)
        case text(TextLayout)
    }
    public var format: LedgerFormat
    public var bytes: [UInt8]
    public var layout: Layout

    /// Reads a ledger from bytes in the given format; `load` reads included files.
    public static func read(_ bytes: [UInt8], fileName: String, format: LedgerFormat, options: ReadOptions,
                            stamp: FileStamp? = nil,
                            load: @escaping (String) throws(FileError) -> (bytes: [UInt8], stamp: FileStamp) = { p throws(FileError) in try FileIO.read(p) })
        throws(Diagnostic) -> LoadedLedger
    {
        if format == .journal || format == .beancount {
            // Journals and beancount files are UTF-8 text: say exactly where they are not.
            if let nul = TextEncoding.firstNUL(bytes) {
                throw Diagnostic("the file holds a NUL byte, so it is not a text file", file: fileName, line: nul.line, column: nul.column)
            }
            if let bad = TextEncoding.firstInvalidUTF8(bytes) {
                throw Diagnostic("the file is not valid UTF-8 here (byte 0x\(String(bytes[bad.offset], radix: 16, uppercase: true))); "
                                 + "\(format) files are UTF-8", file: fileName, line: bad.line, column: bad.column)
            }
        }
        switch format {
        case .journal:
            return try JournalFormat.read(bytes, path: fileName, stamp: stamp, options: options, load: load)
        case .beancount:
            return try BeancountFormat.read(bytes, path: fileName, stamp: stamp, options: options, load: load)
        case .csv:
            let (ledger, layout, skipped) = try CSVReader.read(bytes, fileName: fileName, options: options)
            return LoadedLedger(ledger: ledger, document: LedgerDocument(format: .csv, bytes: bytes, layout: .csv(layout)),
                                skipped: skipped)
        case .json:
            throw Diagnostic("\(fileName): reading \(format) files is not supported yet; tagsh reads CSV exports",
                             notes: ["hint: --format csv reads the file as CSV"])
        }
    }

    /// A CSV record's fields as the file has them, each with its column's header name (or position), for `show`
    /// and `columns`; empty for other formats.
    public func originalFields(row: Int) -> [(name: String, value: String)] {
        guard case .csv(let layout) = layout, row < layout.recordStarts.count else { return [] }
        let values = bytes.withUnsafeBufferPointer { buffer in
            CSVReader(bytes: buffer, fileName: "", options: ReadOptions(), encoding: layout.encoding)
                .fieldTexts(layout.recordStarts[row]..<layout.recordEnds[row], delimiter: layout.delimiter)
        }
        return values.enumerated().map { (i, v) in (i < layout.header.count && layout.hasHeader ? layout.header[i] : String(i + 1), v) }
    }

    /// The index of a CSV column by header name (ignoring case) or 1-based position.
    public func columnIndex(named name: String) -> Int? {
        guard case .csv(let layout) = layout else { return nil }
        if let i = layout.header.firstIndex(where: { HeaderVocabulary.normalized($0) == HeaderVocabulary.normalized(name) }),
           layout.hasHeader {
            return i
        }
        if let p = Int(name), p >= 1, p <= layout.header.count { return p - 1 }
        return nil
    }

    /// One column of every CSV record: its distinct texts and each record's id into them (`col:NAME=...`).
    public func columnValues(named name: String) -> (values: StringTable, ids: [UInt32])? {
        guard case .csv(let layout) = layout, let index = columnIndex(named: name) else { return nil }
        var values = StringTable()
        var ids: [UInt32] = []
        ids.reserveCapacity(layout.recordStarts.count)
        bytes.withUnsafeBufferPointer { buffer in
            let reader = CSVReader(bytes: buffer, fileName: "", options: ReadOptions(), encoding: layout.encoding)
            var scratch: [UInt8] = []
            for r in 0..<layout.recordStarts.count {
                ids.append(reader.field(index, of: layout.recordStarts[r]..<layout.recordEnds[r], delimiter: layout.delimiter,
                                        into: &values, scratch: &scratch))
            }
        }
        return (values, ids)
    }

    /// The annotation columns a save of these rows adds to a CSV file's header (every record gets their fields).
    public func columnsAdded(_ ledger: Ledger, changedRows: [Int]) -> [String] {
        guard case .csv(let layout) = layout else { return [] }
        return CSVWriter.addedColumns(layout: layout, ledger: ledger, changedRows: changedRows)
    }

    /// Why this file cannot hold a change, checked when the command runs rather
    /// than at save (nil when it can): what the writer would have to refuse.
    public func refusal(_ changes: ChangeSet, in ledger: Ledger) -> String? {
        guard case .text(let layout) = layout, layout.dialect == .beancount else { return nil }
        var checkedSets = Set<UInt32>(), checkedCategories = Set<UInt32>()
        for k in 0..<changes.count {
            let row = Int(changes.rows[k]), value = changes.after[k]
            switch changes.fields[k] {
            case .tags:
                let pushed = layout.pushedTags[row] ?? []
                guard !pushed.isEmpty || checkedSets.insert(value).inserted else { continue }
                if let why = BeancountWriter.refusal(tags: ledger.tagSets[value].map { ledger.tags[$0] }, pushed: pushed, row: row) { return why }
            case .category:
                if value == 0 {
                    return "transaction \(row + 1): beancount needs an account below Expenses or Income, so its category cannot be none"
                }
                guard checkedCategories.insert(value).inserted else { continue }
                if let why = BeancountWriter.refusal(category: ledger.categories[value].name) { return why }
            case .intent, .note: continue
            }
        }
        return nil
    }

    /// A file to write: its path (nil for the main file) and new bytes.
    public struct Output: Sendable {
        public var path: String?
        public var bytes: [UInt8]
    }

    /// The files with the ledger's current state written in: the main file
    /// always, included files only when they changed. With no changed rows the
    /// main file is the original, byte for byte.
    public func render(_ ledger: Ledger, changedRows: [Int]) throws(Diagnostic) -> [Output] {
        switch layout {
        case .csv(let csv): return [Output(path: nil, bytes: try CSVWriter.render(bytes, layout: csv, ledger: ledger, changedRows: changedRows))]
        case .text(let text): return try TextWriter.render(text, ledger: ledger, changedRows: changedRows)
        }
    }

    /// The files to write, and the document as it will be once they are written
    /// (nil when it must be read back: CSV, whose header can change).
    /// `categoryChanged` names the rows whose category may differ from the
    /// file (nil: any); the others skip re-reading their postings.
    public func renderForSave(_ ledger: Ledger, changedRows: [Int], categoryChanged: Set<Int>? = nil) throws(Diagnostic)
        -> (outputs: [Output], next: LedgerDocument?)
    {
        switch layout {
        case .csv: return (try render(ledger, changedRows: changedRows), nil)
        case .text(let text):
            let (outputs, nextLayout) = try TextWriter.renderWithLayout(text, ledger: ledger, changedRows: changedRows,
                                                                        categoryChanged: categoryChanged)
            let main = outputs.first { $0.path == nil }?.bytes ?? bytes
            return (outputs, LedgerDocument(format: format, bytes: main, layout: .text(nextLayout)))
        }
    }

    /// The document with every file's stamp read again (after a save wrote them).
    public func restamped() -> LedgerDocument {
        guard case .text(var text) = layout else { return self }
        for i in text.files.indices { text.files[i].stamp = FileIO.stamp(of: FileIO.resolvingLinks(text.files[i].path)) }
        return LedgerDocument(format: format, bytes: bytes, layout: .text(text))
    }

    /// The main file's bytes as `render` would write them (for tests and `export`-like uses).
    public func renderMain(_ ledger: Ledger, changedRows: [Int]) throws(Diagnostic) -> [UInt8] {
        try render(ledger, changedRows: changedRows).first { $0.path == nil }?.bytes ?? bytes
    }

    /// The document for bytes this document rendered: same format, new layout.
    public func reread(_ newBytes: [UInt8], fileName: String, stamp: FileStamp? = nil, addedColumns: [String] = [])
        throws(Diagnostic) -> LedgerDocument
    {
        switch layout {
        case .text:
            let loaded = try LedgerDocument.read(newBytes, fileName: fileName, format: format, options: ReadOptions(skipBad: true),
                                                 stamp: stamp)
            return loaded.document
        case .csv(let old):
            // A mapping keeps describing the file: annotation columns a save added are named in it by position.
            var map = old.columnMap
            var columns = old.columns
            var next = old.header.count
            for title in addedColumns {
                switch title {
                case "Intent": columns.intent = next
                case "Category", "Category (tagsh)": columns.category = next
                case "Tags": columns.tags = next
                default: columns.notes = next
                }
                next += 1
            }
            if map != nil {
                map = addedColumns.isEmpty ? old.columnMap
                    : old.hasHeader ? ColumnMap(namesOf: columns, header: old.header + addedColumns) : ColumnMap(positionsOf: columns)
            } else if !addedColumns.isEmpty, old.hasHeader {
                // When the new header alone would name the annotation columns otherwise (a bank's own Category column
                // beside tagsh's new Tags column, or tagsh's Category column alone), a mapping keeps them as they are.
                let alone = CSVColumns(header: old.header + addedColumns)
                if alone?.category != columns.category || alone?.tags != columns.tags || alone?.intent != columns.intent
                    || alone?.notes != columns.notes {
                    map = ColumnMap(namesOf: columns, header: old.header + addedColumns)
                }
            }
            var (_, layout, _) = try CSVReader.read(newBytes, fileName: fileName,
                                                    options: ReadOptions(skipBad: true, dateFormat: old.dateFormat, columns: map))
            layout.dateFormatGiven = old.dateFormatGiven
            layout.guesses = old.guesses
            return LedgerDocument(format: format, bytes: newBytes, layout: .csv(layout))
        }
    }
}
