import TagshModel

/// What a format can keep of a transaction's annotations.
public struct FormatAbilities: OptionSet, Sendable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    public static let tags = FormatAbilities(rawValue: 1)
    public static let intent = FormatAbilities(rawValue: 2)
    public static let note = FormatAbilities(rawValue: 4)
    public static let category = FormatAbilities(rawValue: 8)
    /// Categories of the file's own (CSV: any text; journals: accounts, declared on first use).
    public static let all: FormatAbilities = [.tags, .intent, .note, .category]
}

/// One file format tagsh opens and saves: how to recognise it, read it,
/// check a change against it and write it back. Every format is one entry of
/// `FormatHandlers.all`, which is the only place the formats are listed.
public protocol FormatHandler: Sendable {
    var format: LedgerFormat { get }
    /// File name extensions, lower case, without the dot.
    var extensions: [String] { get }
    var abilities: FormatAbilities { get }
    /// Whether the first lines of a file look like this format (asked in `FormatHandlers.all` order).
    func sniff(_ lines: [Substring]) -> Bool
    func read(_ bytes: [UInt8], path: String, stamp: FileStamp?, options: ReadOptions,
              load: @escaping (String) throws(FileError) -> (bytes: [UInt8], stamp: FileStamp)) throws(Diagnostic) -> LoadedLedger
    /// The files to write with these rows changed, and how the document changes once they are written.
    func render(_ document: LedgerDocument, ledger: Ledger, changedRows: [Int], categoryChanged: Set<Int>?) throws(Diagnostic)
        -> LedgerDocument.Rendered
    /// Why the file cannot hold a change (checked when the command runs), or nil.
    func refusal(_ document: LedgerDocument, changes: ChangeSet, in ledger: Ledger) -> String?
}

extension FormatHandler {
    public func refusal(_ document: LedgerDocument, changes: ChangeSet, in ledger: Ledger) -> String? { nil }
}

public enum FormatHandlers {
    /// Every format tagsh reads, in the order their sniffers are asked; CSV, which takes anything, comes last.
    public static let all: [any FormatHandler] = [BeancountHandler(), JournalHandler(), CSVHandler()]

    public static func handler(for format: LedgerFormat) -> (any FormatHandler)? { all.first { $0.format == format } }

    /// The formats tagsh opens, by name (for `--format` and `open --format`).
    public static var names: [String] { all.map(\.format.rawValue).sorted { a, b in
        LedgerFormat.allCases.firstIndex { $0.rawValue == a }! < LedgerFormat.allCases.firstIndex { $0.rawValue == b }!
    } }
}

struct CSVHandler: FormatHandler {
    var format: LedgerFormat { .csv }
    var extensions: [String] { ["csv", "tsv", "txt"] }
    var abilities: FormatAbilities { .all }
    func sniff(_ lines: [Substring]) -> Bool { true }

    func read(_ bytes: [UInt8], path: String, stamp: FileStamp?, options: ReadOptions,
              load: @escaping (String) throws(FileError) -> (bytes: [UInt8], stamp: FileStamp)) throws(Diagnostic) -> LoadedLedger {
        let (ledger, layout, skipped) = try CSVReader.read(bytes, fileName: path, options: options)
        return LoadedLedger(ledger: ledger, document: LedgerDocument(format: .csv, bytes: bytes, layout: .csv(layout)), skipped: skipped)
    }

    /// What a Windows-1252 file cannot hold: a note, tag or category with a character outside it (`→`, `☕`) is
    /// refused when the command runs, not at save after later steps.
    func refusal(_ document: LedgerDocument, changes: ChangeSet, in ledger: Ledger) -> String? {
        guard case .csv(let layout) = document.layout, layout.encoding == .windows1252 else { return nil }
        var notes = SeenIDs(count: ledger.notes.count, looks: changes.count)
        var sets = SeenIDs(count: ledger.tagSets.count, looks: changes.count)
        var categories = SeenIDs(count: Int(ledger.categories.ids.upperBound), looks: changes.count)
        for k in 0..<changes.count where changes.after[k] != 0 {
            let value = changes.after[k]
            let texts: [String]
            switch changes.fields[k] {
            case .note: guard notes.insert(value) else { continue }; texts = [ledger.notes[value]]
            case .tags: guard sets.insert(value) else { continue }; texts = ledger.tagSets[value].map { ledger.tags[$0] }
            case .category: guard categories.insert(value) else { continue }; texts = [ledger.categories[value].name]
            case .intent: continue
            }
            for text in texts {
                if let why = CSVWriter.windows1252Refusal(text, row: Int(changes.rows[k])) { return why }
            }
        }
        // A category renamed: its name is written in every transaction that has it.
        for case .setCategory(let id, let before, let after) in changes.tableChanges where after.name != before.name {
            if let why = CSVWriter.windows1252Refusal(after.name, row: nil), let row = ledger.category.firstIndex(of: id) {
                return "transaction \(row + 1) is in \(before.name): " + why
            }
        }
        return nil
    }

    func render(_ document: LedgerDocument, ledger: Ledger, changedRows: [Int], categoryChanged: Set<Int>?) throws(Diagnostic)
        -> LedgerDocument.Rendered
    {
        guard case .csv(let csv) = document.layout else { return .init(outputs: [.init(path: nil, bytes: document.bytes)], next: .document(document)) }
        // When the header changes (added columns) the whole file is new, and its layout is worked out as it is
        // written; otherwise the edits are made to the document's own bytes and the records' offsets shifted by them.
        let (splice, added) = try CSVWriter.renderSplice(document.bytes, layout: csv, ledger: ledger, changedRows: changedRows)
        let next: LedgerDocument.Rendered.Next = added.map { .document(LedgerDocument(format: .csv, bytes: splice.base, layout: .csv($0))) }
            ?? .csv(splice.edits)
        return .init(outputs: [LedgerDocument.Output(path: nil, content: splice)], next: next)
    }
}

/// Journals and beancount files share the text writer.
protocol TextFormatHandler: FormatHandler {}

extension TextFormatHandler {
    var abilities: FormatAbilities { .all }

    func render(_ document: LedgerDocument, ledger: Ledger, changedRows: [Int], categoryChanged: Set<Int>?) throws(Diagnostic)
        -> LedgerDocument.Rendered
    {
        guard case .text(let text) = document.layout else { return .init(outputs: [.init(path: nil, bytes: document.bytes)], next: .document(document)) }
        let (outputs, changes) = try TextWriter.render(text, ledger: ledger, changedRows: changedRows, categoryChanged: categoryChanged)
        return .init(outputs: outputs, next: .text(changes))
    }
}

struct JournalHandler: TextFormatHandler {
    var format: LedgerFormat { .journal }
    var extensions: [String] { ["journal", "hledger", "ledger", "j", "dat", "timeclock"] }

    /// A line starting with a digit and no CSV delimiter, and indented lines.
    func sniff(_ lines: [Substring]) -> Bool {
        lines.contains { l in l.first?.isNumber == true && !l.contains(",") && !l.contains(";") && !l.contains("\t") }
            && lines.contains { $0.hasPrefix("    ") || $0.hasPrefix("\t") || $0.hasPrefix("  ") }
    }

    func read(_ bytes: [UInt8], path: String, stamp: FileStamp?, options: ReadOptions,
              load: @escaping (String) throws(FileError) -> (bytes: [UInt8], stamp: FileStamp)) throws(Diagnostic) -> LoadedLedger {
        try JournalFormat.read(bytes, path: path, stamp: stamp, options: options, load: load)
    }

    /// A note is a comment's text, which hledger, ledger and tagsh read trimmed, on one line.
    func refusal(_ document: LedgerDocument, changes: ChangeSet, in ledger: Ledger) -> String? {
        var checked = Set<UInt32>()
        for k in 0..<changes.count where changes.fields[k] == .note && changes.after[k] != 0 && checked.insert(changes.after[k]).inserted {
            let note = ledger.notes[changes.after[k]]
            if note.first?.isWhitespace == true || note.last?.isWhitespace == true {
                return "a journal note cannot begin or end with a space (it is a comment's text, which hledger and ledger trim): '\(note)'"
            }
            if note.contains(where: { $0.isNewline }) { return "a journal note must be one line: it is written as a comment" }
        }
        return nil
    }
}

struct BeancountHandler: TextFormatHandler {
    var format: LedgerFormat { .beancount }
    var extensions: [String] { ["beancount", "bean"] }

    func sniff(_ lines: [Substring]) -> Bool {
        lines.contains { $0.hasPrefix("option \"") || $0.hasPrefix("plugin \"") || $0.contains(" open ") && $0.first?.isNumber == true }
    }

    func read(_ bytes: [UInt8], path: String, stamp: FileStamp?, options: ReadOptions,
              load: @escaping (String) throws(FileError) -> (bytes: [UInt8], stamp: FileStamp)) throws(Diagnostic) -> LoadedLedger {
        try BeancountFormat.read(bytes, path: path, stamp: stamp, options: options, load: load)
    }

    /// What the beancount writer would refuse: a tag it cannot spell, taking off a
    /// `pushtag` tag, an account name beancount does not allow.
    func refusal(_ document: LedgerDocument, changes: ChangeSet, in ledger: Ledger) -> String? {
        guard case .text(let layout) = document.layout else { return nil }
        var checkedSets = SeenIDs(count: ledger.tagSets.count, looks: changes.count)
        var checkedCategories = SeenIDs(count: Int(ledger.categories.ids.upperBound), looks: changes.count)
        // (Most files push no tag: then no row is looked up. A lookup and a `Set` insert per row were a fifth of a
        // `tag all` on a million rows, and for categories a part of `category @ Food` over 900,000 rows.)
        let anyPushed = !layout.pushedTags.isEmpty
        for k in 0..<changes.count {
            let row = Int(changes.rows[k]), value = changes.after[k]
            switch changes.fields[k] {
            case .tags:
                let pushed = anyPushed ? layout.pushedTags[row] ?? [] : []
                guard !pushed.isEmpty || checkedSets.insert(value) else { continue }
                if let why = BeancountWriter.refusal(tags: ledger.tagSets[value].map { ledger.tags[$0] }, pushed: pushed, row: row) { return why }
            case .category:
                if value == 0 {
                    return "transaction \(row + 1): beancount needs an account below Expenses or Income, so its category cannot be none"
                }
                guard checkedCategories.insert(value) else { continue }
                if let why = BeancountWriter.refusal(category: ledger.categories[value].name) { return why }
            case .intent, .note: continue
            }
        }
        return nil
    }
}

/// Ids seen so far: a bit each (a `RowSet` over the ids) when the looks are many beside the ids, else a `Set`.
struct SeenIDs {
    private var bits: RowSet
    private var set = Set<UInt32>()

    init(count: Int, looks: Int) {
        bits = RowSet(rowCount: looks * 64 >= count ? count : 0)
    }

    /// Whether `id` is new, noting it.
    mutating func insert(_ id: UInt32) -> Bool {
        let i = Int(id)
        guard i < bits.rowCount else { return set.insert(id).inserted }
        if bits.contains(i) { return false }
        bits.insert(i)
        return true
    }
}
