import TagshModel

/// The file formats tagsh reads and writes.
public enum LedgerFormat: String, Sendable, CaseIterable, CustomStringConvertible {
    case csv, journal, beancount, json

    public var description: String { rawValue }

    /// The format named by a file's extension, if it names one (`.json` names what `export` writes).
    public init?(extensionOf path: String) {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        guard let dot = name.lastIndex(of: ".") else { return nil }
        let ext = name[name.index(after: dot)...].lowercased()
        if ext == "json" { self = .json; return }
        guard let handler = FormatHandlers.all.first(where: { $0.extensions.contains(ext) }) else { return nil }
        self = handler.format
    }

    /// Guesses the format from the first bytes of a file.
    public init(sniffing bytes: [UInt8]) {
        let head = String(decoding: bytes.prefix(4096), as: UTF8.self)
        let trimmed = head.drop { $0 == "\u{FEFF}" || $0 == " " || $0 == "\n" || $0 == "\r" || $0 == "\t" }
        if trimmed.hasPrefix("{") { self = .json; return }
        let lines = Array(head.split(whereSeparator: { $0 == "\n" || $0 == "\r\n" }).prefix(40))
        self = FormatHandlers.all.first { $0.sniff(lines) }?.format ?? .csv
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
            if !TextEncoding.isCleanUTF8(bytes) {
                if let nul = TextEncoding.firstNUL(bytes) {
                    throw Diagnostic("the file holds a NUL byte, so it is not a text file", file: fileName, line: nul.line, column: nul.column)
                }
                if let bad = TextEncoding.firstInvalidUTF8(bytes) {
                    throw Diagnostic("the file is not valid UTF-8 here (byte 0x\(String(bytes[bad.offset], radix: 16, uppercase: true))); "
                                     + "\(format) files are UTF-8", file: fileName, line: bad.line, column: bad.column)
                }
            }
        }
        guard let handler = FormatHandlers.handler(for: format) else {
            throw Diagnostic("\(fileName): tagsh does not open \(format) files; JSON is what `export` writes for other programs",
                             notes: ["hint: tagsh opens " + FormatHandlers.names.joined(separator: ", ") + " files; --format csv reads the file as CSV"])
        }
        return try handler.read(bytes, path: fileName, stamp: stamp, options: options, load: load)
    }

    /// How many transactions the file holds.
    public var recordCount: Int {
        switch layout {
        case .csv(let l): l.records.count
        case .text(let t): t.rowFile.count
        }
    }

    /// The line ending the file uses (CRLF or LF).
    public var lineEnding: [UInt8] {
        switch layout {
        case .text(let t): t.lineEnding
        case .csv(let l): l.lineEnding
        }
    }

    /// A CSV record's fields as the file has them, each with its column's header name (or position), for `show`
    /// and `columns`; empty for other formats.
    public func originalFields(row: Int) -> [(name: String, value: String)] {
        guard case .csv(let layout) = layout, row < layout.records.count else { return [] }
        let values = bytes.withUnsafeBufferPointer { buffer in
            CSVReader(bytes: buffer, fileName: "", options: ReadOptions(), encoding: layout.encoding)
                .fieldTexts(layout.records[row], delimiter: layout.delimiter)
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
        ids.reserveCapacity(layout.records.count)
        bytes.withUnsafeBufferPointer { buffer in
            let reader = CSVReader(bytes: buffer, fileName: "", options: ReadOptions(), encoding: layout.encoding)
            var scratch: [UInt8] = []
            for r in layout.records.indices {
                ids.append(reader.field(index, of: layout.records[r], delimiter: layout.delimiter,
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
        FormatHandlers.handler(for: format)?.refusal(self, changes: changes, in: ledger)
    }

    /// A file to write: its path (nil for the main file) and its new bytes, as a splice of its old ones.
    public struct Output: Sendable {
        public var path: String?
        public var content: ByteSplice
        /// The new bytes, built in a new array (a save writes `content` part by part instead).
        public var bytes: [UInt8] { content.bytes }

        public init(path: String?, content: ByteSplice) {
            self.path = path
            self.content = content
        }

        public init(path: String?, bytes: [UInt8]) { self.init(path: path, content: ByteSplice(bytes)) }
    }

    /// What a save of a document writes, and how the document changes once it is written.
    public struct Rendered: Sendable {
        enum Next: Sendable {
            /// A whole new document (a CSV file's first save that adds tagsh's columns, its layout worked out as it
            /// was written).
            case document(LedgerDocument)
            /// A journal's or beancount file's edits, made to the rendered document's own bytes and layout.
            case text(TextWriter.Changes)
            /// A CSV file's edits (one per rewritten record), made the same way.
            case csv([ByteSplice.Edit])
        }

        /// The main file first, then the included files that changed.
        public private(set) var outputs: [Output]
        var next: Next

        /// The main file's splice (empty once `nextDocument` has let go of the outputs).
        public var main: ByteSplice { outputs.first?.content ?? ByteSplice([]) }
        public var included: [Output] { Array(outputs.dropFirst()) }
        /// The edits `nextDocument` makes to a CSV file's bytes where they are (each range of the old bytes
        /// replaced by `count` bytes, in order), for what names texts in those bytes to follow them; nil when it
        /// makes a new document or edits a text file's.
        public var csvEdits: [(start: Int, end: Int, count: Int)]? {
            guard case .csv(let edits) = next else { return nil }
            return edits.map { ($0.start, $0.end, $0.bytes.count) }
        }

        /// Whether `nextDocument` edits a CSV file's bytes where they are (`csvEdits` lists the edits).
        public var editsCSVInPlace: Bool { if case .csv = next { true } else { false } }

        /// The document once the outputs are written, made from `old`, the document this was rendered from
        /// (left empty). Its bytes and row offsets are edited in place, not copied, when nothing else holds them:
        /// the outputs are let go first. Nil when `old` is not the document this was rendered from.
        public mutating func nextDocument(from old: inout LedgerDocument) -> LedgerDocument? {
            outputs = []
            switch next {
            case .document(let document): return document
            case .text(let changes):
                var taken = LedgerDocument.empty(old.format)
                swap(&taken, &old)
                guard case .text(var layout) = taken.layout else { return nil }
                // The document's own hold on its bytes and layout goes, so they are edited where they are.
                taken = .empty(taken.format)
                TextWriter.apply(changes, to: &layout)
                return LedgerDocument(format: old.format, bytes: layout.files.first?.bytes ?? [], layout: .text(layout))
            case .csv(let edits):
                var taken = LedgerDocument.empty(old.format)
                swap(&taken, &old)
                guard case .csv(var layout) = taken.layout else { return nil }
                var bytes = taken.bytes
                taken = .empty(taken.format)
                ByteSplice.apply(edits, to: &bytes)
                layout.records.shift(by: edits)
                return LedgerDocument(format: .csv, bytes: bytes, layout: .csv(layout))
            }
        }
    }

    /// A document of no file and no bytes (what `Rendered.nextDocument` leaves behind).
    public static func empty(_ format: LedgerFormat) -> LedgerDocument {
        LedgerDocument(format: format, bytes: [], layout: .text(TextLayout(dialect: .journal, files: [])))
    }

    /// The files with the ledger's current state written in: the main file
    /// always, included files only when they changed. With no changed rows the
    /// main file is the original, byte for byte.
    public func render(_ ledger: Ledger, changedRows: [Int]) throws(Diagnostic) -> [Output] {
        try renderForSave(ledger, changedRows: changedRows).outputs
    }

    /// The files to write, and how the document changes once they are written.
    /// `categoryChanged` names the rows whose category may differ from the
    /// file (nil: any); the others skip re-reading their postings.
    public func renderForSave(_ ledger: Ledger, changedRows: [Int], categoryChanged: Set<Int>? = nil) throws(Diagnostic)
        -> Rendered
    {
        guard let handler = FormatHandlers.handler(for: format) else {
            return Rendered(outputs: [Output(path: nil, bytes: bytes)], next: .document(self))
        }
        return try handler.render(self, ledger: ledger, changedRows: changedRows, categoryChanged: categoryChanged)
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
            // The added columns begin after the widest record (`CSVWriter.recordShapes`); the fields before
            // them that the header does not name have no name in the new header either.
            let from = addedColumns.isEmpty ? old.header.count : CSVWriter.addedColumnsStart(bytes, layout: old)
            let newHeader = old.header + Array(repeating: "", count: from - old.header.count) + addedColumns
            let map = CSVWriter.columnsAdding(titles: addedColumns, from: from, to: old, newHeader: newHeader).1
            var (_, layout, _) = try CSVReader.read(newBytes, fileName: fileName,
                                                    options: ReadOptions(skipBad: true, dateFormat: old.dateFormat, columns: map))
            layout.dateFormatGiven = old.dateFormatGiven
            layout.guesses = old.guesses
            return LedgerDocument(format: format, bytes: newBytes, layout: .csv(layout))
        }
    }
}
