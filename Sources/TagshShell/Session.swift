#if canImport(Glibc)
import Glibc
#endif
import TagshFormats
import TagshModel
import TagshQuery
import TagshRules

/// The state of one tagsh session and the single entry point for commands.
///
/// The prompt, `-c`, `-f`, standard input, `source`, the sidecar file and the
/// tests all call `execute(_:)`; they differ only in where lines come from and
/// which sink receives the output.
public final class Session {
    /// What became of a command.
    public enum Status: Equatable, Sendable {
        case ok
        /// It failed; the exit status the command line should end with.
        case failed(Int32)
        /// The person asked to leave.
        case quit
    }

    /// The open file, if the ledger came from one.
    public struct OpenFile {
        /// Path as given; nil for the built-in demo.
        public var path: String?
        public var displayName: String
        public var document: LedgerDocument
        public var stamp: FileStamp?
        /// Whether `FILE.bak` was already written this session.
        public var backedUp = false
        /// Included files whose `.bak` was already written this session.
        public var backedUpPaths: Set<String> = []
        /// The ledger rows of this file's records, in the file's order: one range, and one more per
        /// `import` into it (several files share one ledger, and ids run across them).
        public var segments: [Range<Int>]
        /// Transactions imported into this file and not saved yet: the text each import appends.
        var imports: [[UInt8]] = []
        /// The records `--skip-bad` skipped when the file was opened (`info` lists where).
        public var skipped: [Diagnostic] = []

        /// The rows of this file, in the file's order.
        public var rows: [Int] { segments.flatMap { Array($0) } }
        public var rowCount: Int { segments.reduce(0) { $0 + $1.count } }
        /// Whether the file's records map to the ledger's rows one for one, from row 0.
        var isWholeLedger: Bool { segments.count == 1 && segments[0].lowerBound == 0 }
    }

    public internal(set) var ledger: Ledger?
    /// The open files, in the order they were named; their transactions form one ledger.
    public internal(set) var files: [OpenFile] = []
    /// The first open file (the one whose name the prompt shows, and whose sidecar keeps the session's declarations).
    public internal(set) var file: OpenFile? {
        get { files.first }
        set {
            if let newValue { if files.isEmpty { files = [newValue] } else { files[0] = newValue } } else { files = [] }
        }
    }

    /// Where a row comes from, for `show`: a CSV record's file and line; with several files, the file's name;
    /// for a transaction imported and not saved yet, the file it goes to.
    public func source(ofRow row: Int) -> String? {
        guard let (i, record) = fileRecord(ofRow: row) else { return nil }
        let f = files[i]
        let name = TextSafety.sanitize(f.displayName)
        if record >= f.document.recordCount { return name + " (imported, not saved yet)" }
        if case .csv(let layout) = f.document.layout {
            // (Counted on a buffer, eight bytes at a time: a `reduce` over the bytes took most of a `show` of a row
            // half-way down a 1M-row file, 10-60 ms.)
            let line = 1 + f.document.bytes.lineFeeds(before: layout.records[record].lowerBound)
            return "\(name):\(line)"
        }
        return files.count > 1 ? name : nil
    }

    /// A CSV record's own columns as the bank wrote them (none for other formats and for imported rows not saved yet).
    public func originalFields(row: Int) -> [(name: String, value: String)] {
        guard let (i, record) = fileRecord(ofRow: row), record < files[i].document.recordCount else { return [] }
        return files[i].document.originalFields(row: record)
    }

    /// The index of the file a row belongs to.
    public func fileIndex(ofRow row: Int) -> Int? {
        files.firstIndex { f in f.segments.contains { $0.contains(row) } }
    }

    /// A row's file and its position among that file's records.
    public func fileRecord(ofRow row: Int) -> (file: Int, record: Int)? {
        for (i, f) in files.enumerated() {
            var base = 0
            for s in f.segments {
                if s.contains(row) { return (i, base + row - s.lowerBound) }
                base += s.count
            }
        }
        return nil
    }
    /// The current selection `@`: rows listed by the last `ls` or `select`.
    public var selection: [Int]? { didSet { generation += 1; selectionLimited = nil } }
    /// When `@` is a listing cut by --limit: its query, how many it showed and how many the query matched.
    var selectionLimited: (query: String, shown: Int, total: Int)?
    public internal(set) var settings = Settings() { didSet { updateStyle() } }

    /// Sets a display preference (colour, width): not a change to the ledger, so not an undo step.
    public func setDisplay(_ name: String, _ value: String) -> String? {
        precondition(!SettingEdit.persisted.contains(name), "\(name) is a persisted setting: commit a SettingEdit")
        return settings.set(name, value)
    }
    public let registry: CommandRegistry

    let sink: OutputSink
    /// Whether colour is on when `color` is `auto` (the front end knows if
    /// output is a terminal and whether NO_COLOR is set).
    public var colorWhenAuto: Bool { didSet { updateStyle() } }
    public var trueColor = false { didSet { updateStyle() } }
    public private(set) var printer: Printer
    /// The terminal's width, asked each time a table is drawn.
    public var terminalWidth: () -> Int? = { nil }
    /// Whether Ctrl-C was pressed since the command began.
    public var interrupted: () -> Bool = { false }
    /// Today, for relative dates in queries (`date:lastmonth`); `TAGSH_TODAY=YYYY-MM-DD` fixes it, as hledger's --today does.
    public var today: () -> Day = { .today }
    /// The time a step is stamped with, in seconds since 1970 (tests fix it).
    public var clock: () -> Int = { Int(time(nil)) }
    /// Listing commands print JSON (the `--json` command-line option).
    public var jsonOutput = false
    /// Read the sidecar `LEDGER.tagsh` when a ledger is opened.
    public var sourcesSidecar = true
    /// A recovery journal from an earlier session, waiting for `recover` or `discard`.
    public internal(set) var pendingRecovery: String?
    var journalFile: AppendFile?
    /// Where `record` appends every command that succeeds.
    var record: AppendFile?
    /// The command (`quit`, `open`) that was just refused once because it would discard unsaved changes.
    var discardWarned: String?
    /// Files being sourced, innermost last, to refuse cycles.
    var sourceStack: [String] = []

    public init(sink: OutputSink, colorWhenAuto: Bool = false) {
        self.sink = sink
        self.colorWhenAuto = colorWhenAuto
        self.registry = CommandRegistry.standard
        self.printer = Printer(sink: sink, style: .plain)
        updateStyle()
    }

    func updateStyle() {
        let on: Bool
        switch settings.color {
        case .auto: on = colorWhenAuto
        case .always: on = true
        case .never: on = false
        }
        printer = Printer(sink: redirect ?? paging ?? sink, style: Style(enabled: on && redirect == nil, trueColor: trueColor))
        printer.quiet = loading == .sidecar
    }

    /// The suggestion counts of the open ledger: built at the first suggestion, then kept current by every
    /// change, undo and redo (`Session.forward` / `backward`).
    var suggestIndex: SuggestIndex?
    /// The open ledger's names grouped for suggestions (`NameGroups`) and its suggestion index, worked out on
    /// another thread while the prompt waits (`completionData`), for the first suggestion to use; forgotten with
    /// `suggestIndex`, and once taken.
    var preparedSuggestions: Pending<PreparedSuggestions>?
    struct PreparedSuggestions: Sendable {
        let nameGroups: NameGroups
        let index: SuggestIndex
        /// The `ledgerVersion` the index was built at: the index is of the transactions as they were then.
        let ledgerVersion: Int
    }

    /// Scored suggestions for one row at the threshold (default: the `suggest-threshold` setting).
    public func suggestions(row: Int, threshold: Double? = nil, fields: Set<SuggestIndex.Field> = Set(SuggestIndex.Field.allCases))
        -> [ScoredSuggestion]
    {
        withSuggestIndex { index, ledger in
            index.suggest(row: row, ledger: ledger, threshold: threshold ?? settings.suggestThreshold, fields: fields)
        } ?? []
    }

    /// The best candidate per field whatever its confidence (what `suggest ID` shows when it abstains).
    public func bestCandidates(row: Int) -> [ScoredSuggestion] {
        withSuggestIndex { index, ledger in
            SuggestIndex.Field.allCases.compactMap { index.candidates(row: row, field: $0, ledger: ledger, limit: 1).first }
        } ?? []
    }

    /// Runs `body` on the suggestion index of the open ledger, building it the first time; nil with no ledger.
    func withSuggestIndex<T>(_ body: (inout SuggestIndex, Ledger) -> T) -> T? {
        guard let ledger else { return nil }
        var index = suggestIndex ?? takePreparedIndex(ledger)
        suggestIndex = nil // `body` changes the only copy (no copy-on-write of the tallies)
        defer { suggestIndex = index }
        return body(&index, ledger)
    }

    /// The index prepared while the prompt waited, when no transaction has changed since; otherwise one built now,
    /// with the names it grouped (names change only with rows, which forget it). Let go of here: the index is
    /// changed in place from now on, and a second reference would make its first change copy it.
    private func takePreparedIndex(_ ledger: Ledger) -> SuggestIndex {
        guard let prepared = preparedSuggestions?.value else { return SuggestIndex(ledger: ledger) }
        preparedSuggestions = nil
        if prepared.ledgerVersion == ledgerVersion { return prepared.index }
        return SuggestIndex(ledger: ledger, nameGroups: prepared.nameGroups)
    }

    /// The terminal, for interactive commands (`review`); nil in scripts, tests and pipes.
    public var console: Console?

    /// Runs a line with its output and its errors collected instead of printed (an interactive
    /// loop shows them in its status line): the status, standard output, and errors.
    func executeCaptured(_ line: String) -> (Status, String, String) {
        let errors = BufferSink()
        let capture = CaptureSink(errors: errors)
        let outer = redirect
        redirect = capture
        capturedErrors = errors
        defer { redirect = outer; capturedErrors = nil }
        let status = execute(line)
        return (status, capture.text, errors.err)
    }

    /// Where errors go while `executeCaptured` runs.
    var capturedErrors: BufferSink?

    /// Hands buffered output to the terminal (before waiting for a key).
    func sinkFlush() { sink.flush() }

    /// Where output goes while a command's output is redirected to a file.
    var redirect: CaptureSink? { didSet { updateStyle() } }
    /// Where output goes while it is kept for the pager (colours and width as on the screen).
    var paging: CaptureSink? { didSet { updateStyle() } }
    /// Shows text through `$PAGER` (the front end sets it at a terminal); false when that failed.
    public var pager: ((String) -> Bool)?
    /// The terminal's height in rows, asked when output may need the pager.
    public var terminalHeight: () -> Int? = { nil }
    /// Commands that draw on the terminal themselves, or only say a line.
    static let unpaged: Set<String> = ["review", "edit", "quit", "open", "save", "source"]

    public var style: Style { printer.style }

    /// The width tables should fit, or nil for no limit (output is not a terminal).
    public var tableWidth: Int? { redirect != nil ? nil : settings.width ?? terminalWidth() }

    /// Every step of the session; the first `position` of them are applied.
    public internal(set) var steps: [Step] = []
    public internal(set) var position = 0
    /// `position` when the ledger was last opened or saved.
    public internal(set) var savedPosition = 0

    /// Whether there are changes not yet saved.
    public var hasUnsavedChanges: Bool { position != savedPosition }

    /// What is being replayed without a person typing it: no journal, and for the sidecar no output.
    enum Loading { case sidecar, recovery }
    var loading: Loading? { didSet { updateStyle() } }
    /// Why the steps of earlier sessions were not read back, if they were not.
    var historyNote: String?
    /// How many steps of earlier sessions were read back at open, and the fewest of them applied since
    /// (for `history --script`, which replays this session's effect on the file as opened).
    var earlierStepsAtOpen = 0
    var lowestEarlierPosition = 0

    /// Bumped by every change to the ledger or the selection, so caches (completion) know when to refresh.
    public internal(set) var generation = 0
    /// Bumped by every change to the transactions, so `apply` knows whether its preview is stale.
    public internal(set) var ledgerVersion = 0
    /// The rules, in definition order (`apply --all` runs them in this order).
    public internal(set) var rules: [Rule] = [] { didSet { generation += 1 } }
    typealias Preview = (rules: [Rule], version: Int, selection: [Int]?, maxTags: Int, columns: Int, plan: Plan, tables: Ledger?,
                         line: String)
    /// What the last `preview` worked out, for `apply` alone, and for `apply` of the same rules. `tables` is the working
    /// copy a plan of suggestions interned into; a plan of rules interned into the session's own (`withLentTables`), and
    /// has none. `maxTags` is the limit its overflow was found with; `columns`, the `columnsVersion` its `col:` read.
    var lastPreview: Preview? {
        didSet { if lastPreview != nil { appliedPreview = nil } }
    }
    /// The tag sets the last preview of rules interned (ids `from..<to`), at `ledgerVersion` `version`. The next
    /// preview drops them (`droppablePreviewSets`): a preview's sets no row holds, and a session that previewed
    /// ten rules over the 1M `wide` shape had half a million such sets, 100 MB, and every pass over the sets
    /// (`summary by tag`, `tag:` queries) took twice as long.
    var previewSets: (from: Int, to: Int, version: Int)?

    /// The first of the tag sets the last preview of rules interned, when nothing can name them any more but that
    /// preview (which the next one replaces): nothing changed since (an `apply` of it, an undo: the history may name
    /// them) and no set was interned after them. Nil otherwise.
    func droppablePreviewSets() -> Int? {
        guard let p = previewSets, p.version == ledgerVersion, p.from < p.to, ledger?.tagSets.count == p.to else { return nil }
        return p.from
    }

    /// The line of the last preview an `apply` alone applied, until the next preview or file: a second `apply`
    /// alone says so, rather than that nothing was previewed.
    var appliedPreview: String?
    var completionCache: (generation: Int, data: CompletionData)?
    /// The descriptions most used first, for completion: kept across changes that leave the rows as they are
    /// (an annotation does not change how often a description is used), and dropped when rows come or go.
    /// With a million distinct descriptions, making it again after every `tag` held the prompt 0.1–0.2 s.
    var merchantNames: MerchantNames?
    /// How many transactions carry each tag and category, for completion: updated by each step done or undone
    /// (`forward`, `backward`), and dropped when rows come or go or another ledger is opened.
    var annotationUse: AnnotationUse?
    /// Original CSV columns read for `col:` queries, by name; cleared when the file is opened or saved.
    var columnCache: [String: (values: StringTable, ids: [UInt32])] = [:] { didSet { if columnCache.isEmpty { columnsVersion += 1 } } }
    /// Bumped whenever what `col:` reads may have changed (the cache is cleared: a save reads the file back, rows
    /// come or go, another file is opened), so `apply RULES` knows whether the preview's plan still holds.
    var columnsVersion = 0

    /// One original column of the open CSV files, read once: its texts and each row's id into them
    /// (0 for rows of files without that column, and for imported rows not saved yet).
    func columnValues(_ name: String) -> (values: StringTable, ids: [UInt32])? {
        if name == Query.fileColumn { return fileValues() }
        let key = name.lowercased()
        if let cached = columnCache[key] { return cached }
        guard let ledger else { return nil }
        var found: (values: StringTable, ids: [UInt32])?
        if files.count == 1, let f = files.first, f.isWholeLedger, f.rowCount == ledger.count {
            found = f.document.columnValues(named: name)
        } else {
            var values = StringTable()
            var ids = [UInt32](repeating: 0, count: ledger.count)
            for f in files {
                guard let (theirs, theirIDs) = f.document.columnValues(named: name) else { continue }
                var map = [UInt32](repeating: 0, count: theirs.count + 1)
                for id in theirs.ids { map[Int(id)] = values.intern(theirs[id]) }
                var record = 0
                for s in f.segments {
                    for row in s where record < theirIDs.count {
                        ids[row] = map[Int(theirIDs[record])]
                        record += 1
                    }
                }
                found = (values, ids)
            }
            if found != nil { found = (values, ids) }
        }
        guard let found else { return nil }
        columnCache[key] = found
        return found
    }

    /// The file of each row, as ids into a table of the files' names (for `file:NAME`); built once per open or import.
    var fileColumn: (values: StringTable, ids: [UInt32])?

    func fileValues() -> (values: StringTable, ids: [UInt32])? {
        guard let ledger else { return nil }
        if let fileColumn, fileColumn.ids.count == ledger.count { return fileColumn }
        var values = StringTable()
        var ids = [UInt32](repeating: 0, count: ledger.count)
        for f in files {
            let id = values.intern(f.displayName)
            for s in f.segments { for row in s where row < ids.count { ids[row] = id } }
        }
        fileColumn = (values, ids)
        return fileColumn
    }

    /// The last line typed (or given with -c), for `edit`: failed ones too, which are the ones to fix.
    public internal(set) var lastCommandLine: String?

    /// Whether a person is at the prompt: only then does `quit` warn about unsaved changes.
    public var isInteractive = false

    /// The annotations as the file holds them (at open, or the last save), to
    /// find the rows a save must rewrite. Copy-on-write: free until changed.
    struct Baseline {
        var intent: [UInt8] = []
        var category: [UInt32] = []
        var tagSet: [UInt32] = []
        var note: [UInt32] = []
        var categoryNames: [String] = []

        init() {}

        init(_ l: Ledger) {
            intent = l.intent
            category = l.category
            tagSet = l.tagSet
            note = l.note
            categoryNames = [""] + l.categories.ids.map { l.categories[$0].name }
        }

        /// Rows whose category differs from the file's (a renamed category counts; so does every row added since).
        func categoryChangedRows(_ l: Ledger, among rows: [Int]) -> Set<Int> {
            let renamed = Set(l.categories.ids.filter { Int($0) < categoryNames.count && categoryNames[Int($0)] != l.categories[$0].name })
            return Set(rows.filter { $0 >= category.count || l.category[$0] != category[$0] || renamed.contains(l.category[$0]) })
        }

        /// Rows whose annotations differ from the file's (a renamed category counts), and rows added since.
        func changedRows(_ l: Ledger) -> [Int] {
            let renamed = Set(l.categories.ids.filter { Int($0) < categoryNames.count && categoryNames[Int($0)] != l.categories[$0].name })
            let known = min(l.count, intent.count)
            let changed: [Int] = (0..<known).filter { r in
                if l.intent[r] != intent[r] || l.category[r] != category[r] { return true }
                if l.tagSet[r] != tagSet[r] || l.note[r] != note[r] { return true }
                return !renamed.isEmpty && renamed.contains(l.category[r])
            }
            return changed + Array(known..<l.count)
        }
    }
    var baseline = Baseline()
    /// Where column mappings are remembered across files (`$XDG_CONFIG_HOME/tagsh/columns`); nil: nowhere.
    public var columnMemoryPath: String?
    /// A mapping given with --columns or `columns set` for a file with a header row, remembered when it is saved.
    var mappingToRemember: (map: ColumnMap, header: [String])?

    /// The custom categories the ledger's file brought by itself (they need no `category new` in the sidecar).
    var fileCategories = Set<UInt32>()
    /// Those found only in postings no row's category stands for (multi-posting transactions): they stay in the file.
    var postingOnlyCategories = Set<UInt32>()
    /// Where declarations are kept: each open file's sidecar, then the rules files.
    var stores: [DeclarationStore] = []
    /// Which store each declaration (by key) was read from; a new one goes where `defaultStore(for:)` says.
    var owners: [String: Int] = [:]
    /// The rows the last `import` added (for `--review`).
    var lastImport: Range<Int>?
    /// Transfer pairs rejected this session (their rows are not proposed again), and the pairs `transfers` listed last.
    var rejectedTransfers = Set<Int>()
    var listedTransfers: [(out: Int, in: Int)] = []
    /// Rules files sourced after the ledgers (`--rules FILE`, else `$XDG_CONFIG_HOME/tagsh/rules.tagsh` when it exists).
    public var rulesFiles: [String] = []

    /// Starts the undo history afresh, at a state that counts as saved.
    func forgetHistory() {
        steps = []
        position = 0
        savedPosition = 0
        historyNote = nil
        earlierStepsAtOpen = 0
        lowestEarlierPosition = 0
    }

    /// Refuses, once, a command that would throw away unsaved changes (at the prompt; a script means it).
    func warnBeforeDiscarding(_ command: String, again: String) throws(ShellError) {
        guard hasUnsavedChanges, let file else { return }
        if isInteractive && discardWarned != command {
            discardWarned = command
            // The demo has no file of its own: `save` alone would refuse.
            let keep = file.path == nil ? "`save FILE` keeps them in a file" : "`save` keeps them"
            throw .failed("\(TextSafety.sanitize(file.displayName)) has unsaved changes: \(keep); \(again) to discard them")
        }
        if !isInteractive { printer.note("discarded the unsaved changes to \(TextSafety.sanitize(file.displayName))") }
    }

    /// The prompt: the file name, `*` when there are unsaved changes.
    public var prompt: String {
        let name = file.map { TextSafety.sanitize($0.displayName) } ?? "tagsh"
        return name + (hasUnsavedChanges ? "*" : "") + "> "
    }

    // MARK: - executing

    /// Runs one line. Errors are printed to the error stream, with a caret
    /// under the offending words and, from a file, `FILE:LINE:` in front.
    /// psql's backslash commands: `\q` quits, `\?` is help, `\h COMMAND` is help COMMAND, `\e` is edit;
    /// `\o FILE` is handled by `execute`. Other lines are returned as they are.
    static func expandingBackslash(_ line: String) -> String {
        let trimmed = line.drop { $0 == " " || $0 == "\t" }
        guard trimmed.hasPrefix("\\") else { return line }
        let word = trimmed.prefix { $0 != " " && $0 != "\t" }
        let rest = trimmed.dropFirst(word.count)
        switch word {
        case "\\q": return "quit" + rest
        case "\\?": return "help" + rest
        case "\\h": return "help" + rest
        case "\\e": return "edit" + rest
        default: return line
        }
    }

    /// Where `\o FILE` sends every command's output (psql's \o); nil: the screen.
    public internal(set) var outputFile: String?

    @discardableResult
    public func execute(_ typed: String, origin: (file: String, line: Int)? = nil) -> Status {
        let line = Session.expandingBackslash(typed)
        if let o = Session.outputCommand(line) {
            do throws(ShellError) {
                try setOutput(o)
                return .ok
            } catch {
                report(error, line: line, origin: origin)
                return .failed(error.exitStatus)
            }
        }
        if sourceStack.isEmpty, loading == nil, origin == nil, capturedErrors == nil,
           let first = line.split(whereSeparator: { $0 == " " || $0 == "\t" }).first, first != "edit", first != "\\e" {
            lastCommandLine = line
        }
        do {
            return try run(line)
        } catch {
            report(error, line: line, origin: origin)
            return .failed(error.exitStatus)
        }
    }

    /// `\o` and `\o FILE`: the file, or "" for the screen; nil when the line is something else.
    static func outputCommand(_ line: String) -> String? {
        let trimmed = line.drop { $0 == " " || $0 == "\t" }
        guard trimmed == "\\o" || trimmed.hasPrefix("\\o ") || trimmed.hasPrefix("\\o\t") else { return nil }
        return String(trimmed.dropFirst(2)).trimmingCharacters(in: " \t")
    }

    /// Starts (with a file) or ends (with "") sending every command's output to a file; the file starts empty.
    func setOutput(_ path: String) throws(ShellError) {
        guard !path.isEmpty else {
            if let outputFile { printer.note("output goes to the screen again (it went to \(TextSafety.sanitize(outputFile)))") }
            outputFile = nil
            return
        }
        var name = path
        if let words = try? Lexer.words(in: path), words.count == 1 { name = words[0].text }
        do throws(FileError) {
            if FileIO.isSpecial(name) { try FileIO.writeInPlace([], to: name) } else { try FileIO.writeAtomically([], to: name) }
        } catch {
            throw .file(error)
        }
        outputFile = name
        printer.note("output goes to \(TextSafety.sanitize(name)) until `\\o` alone")
    }

    func report(_ error: ShellError, line: String, origin: (file: String, line: Int)?) {
        let d = error.diagnostic(line: line)
        (capturedErrors ?? sink).write(DiagnosticRenderer.render(d, style: style, origin: origin), to: .err)
    }

    func run(_ line: String) throws(ShellError) -> Status {
        let lexed: [Word]
        do throws(Lexer.Problem) { lexed = try Lexer.words(in: line) } catch { throw .lexer(error) }
        guard let first = lexed.first, !first.raw.hasPrefix("#") else { return .ok } // empty, or a comment line
        guard let command = registry.command(named: first.text) else {
            throw .unknownCommand(first.text, span: first.span, suggestion: registry.suggestion(for: first.text))
        }
        let words = try Session.joiningBraces(lexed, line: line)
        // Undo steps and the journal keep the command without a trailing comment.
        let chars = Array(line)
        let effective = words.last.map { String(chars[..<min(chars.count, $0.span.upperBound)]) } ?? line
        let (commandWords, typedRedirection) = try Redirection.split(words, line: effective)
        let commandLine = typedRedirection?.pipe == nil ? effective
            : String(chars[..<min(chars.count, commandWords.last?.span.upperBound ?? 0)])
        var invocation = try parseOptions(Array(commandWords.dropFirst()), for: command, line: commandLine, nameWord: first)
        if command.name != discardWarned { discardWarned = nil }
        var redirection = typedRedirection
        if redirection == nil, let outputFile, !Session.unpaged.contains(command.name) {
            // `\o FILE`: every command's output goes to FILE until `\o` alone.
            redirection = Redirection(path: outputFile, append: true)
        }
        if let redirection {
            let capture = CaptureSink(errors: sink)
            redirect = capture
            defer { redirect = nil }
            try command.run(&invocation)
            try redirection.write(capture.text, sink: sink)
        } else if let pager, settings.pager, isInteractive, paging == nil, redirect == nil, !Session.unpaged.contains(command.name) {
            // At the prompt, output longer than the screen goes through the pager.
            let capture = CaptureSink(errors: sink)
            paging = capture
            do throws(ShellError) {
                try command.run(&invocation)
            } catch {
                // A failed or interrupted command shows what it printed as it is.
                paging = nil
                sink.write(capture.text, to: .out)
                throw error
            }
            paging = nil
            let lines = capture.text.reduce(0) { $0 + ($1 == "\n" ? 1 : 0) }
            if lines >= max(2, (terminalHeight() ?? Int.max) - 1) {
                sink.flush()
                if !pager(capture.text) { sink.write(capture.text, to: .out) }
            } else {
                sink.write(capture.text, to: .out)
            }
        } else {
            try command.run(&invocation)
        }
        if let record, sourceStack.isEmpty, loading == nil, command.name != "record", command.name != "edit", !invocation.quit {
            do throws(FileError) { try record.append(line) } catch { throw .file(error) }
        }
        return invocation.quit ? .quit : .ok
    }

    /// `{uber eats}` typed as words: one word holding the query as typed, braces included (a TARGET).
    /// Braces nest: `{{rewe} or {edeka}}` is one word.
    static func joiningBraces(_ words: [Word], line: String) throws(ShellError) -> [Word] {
        guard words.contains(where: { $0.raw.hasPrefix("{") }) else { return words }
        let chars = Array(line)
        return try joining(words) { w, j in String(chars[w.span.lowerBound..<j.span.upperBound]) }
    }

    /// The same for words lexed from inside braces, whose spans are offsets in the whole line, not in their text.
    static func joiningBracesInWords(_ words: [Word]) throws(ShellError) -> [Word] {
        guard words.contains(where: { $0.raw.hasPrefix("{") }) else { return words }
        return try joining(words) { _, _ in nil }
    }

    /// Joins each run of words from one opening with `{` to the one that closes its braces (counted in the raw
    /// words, quotes aside). `text` gives the run as typed, or nil to join the raw words with spaces.
    private static func joining(_ words: [Word], text: (Word, Word) -> String?) throws(ShellError) -> [Word] {
        func depth(_ raw: String) -> Int {
            var d = 0, quote: Character?
            for c in raw {
                if let q = quote { if c == q { quote = nil }; continue }
                if c == "'" || c == "\"" { quote = c } else if c == "{" { d += 1 } else if c == "}" { d -= 1 }
            }
            return d
        }
        var out: [Word] = []
        var i = 0
        while i < words.count {
            let w = words[i]
            guard w.raw.hasPrefix("{") else { out.append(w); i += 1; continue }
            var j = i
            var open = depth(w.raw)
            while open > 0 && j + 1 < words.count { j += 1; open += depth(words[j].raw) }
            guard open <= 0 else { throw .usage("a { has no closing }: a query in braces is {QUERY}", span: w.span) }
            let span = w.span.lowerBound..<words[j].span.upperBound
            let joined = text(w, words[j]) ?? words[i...j].map(\.raw).joined(separator: " ")
            out.append(Word(text: joined, raw: joined, span: span))
            i = j + 1
        }
        return out
    }

    /// Takes the declared `--options` out of the words; `--` ends options.
    func parseOptions(_ words: [Word], for command: Command, line: String, nameWord: Word) throws(ShellError) -> Invocation {
        var inv = Invocation(session: self, command: command, line: line, nameWord: nameWord, words: [])
        var i = 0
        var optionsDone = false
        // Options that go with one form, and where they were given (the option and its value).
        var formBound: [(option: Command.Option, span: Range<Int>)] = []
        while i < words.count {
            let w = words[i]
            if !optionsDone, w.raw == "--" { optionsDone = true; i += 1; continue }
            if !optionsDone, w.text.hasPrefix("--"), w.text.count > 2, !w.isQuoted {
                var name = String(w.text.dropFirst(2))
                var inlineValue: String?
                if let eq = name.firstIndex(of: "=") {
                    inlineValue = String(name[name.index(after: eq)...])
                    name = String(name[..<eq])
                }
                guard let option = command.options.first(where: { $0.name == name }) else {
                    let known = command.options.map { "--" + $0.name }
                    // A slip (`--limti`, `--sotr`) is named, as a mistyped command is.
                    let near = nearestName(to: name, among: command.options.map(\.name))
                    throw .usage("unknown option --\(name) for \(command.name)"
                                 + (near.map { ": did you mean --\($0)?" } ?? "")
                                 + (known.isEmpty ? "" : " (options: \(known.joined(separator: " ")))"), span: w.span)
                }
                if option.value == .flag {
                    if inlineValue != nil { throw .usage("--\(name) takes no value", span: w.span) }
                    inv.flags.insert(name)
                    if option.form != nil { formBound.append((option, w.span)) }
                } else {
                    let value: Word
                    if let inlineValue {
                        value = Word(text: inlineValue, raw: inlineValue, span: w.span)
                    } else {
                        guard i + 1 < words.count else {
                            throw .usage("--\(name) needs a value (\(option.value.placeholder ?? "VALUE"))", span: w.span)
                        }
                        value = words[i + 1]
                        i += 1
                    }
                    try check(value, for: option)
                    inv.values[name] = value
                    if option.form != nil { formBound.append((option, w.span.lowerBound..<max(w.span.upperBound, value.span.upperBound))) }
                }
            } else {
                inv.words.append(w)
            }
            i += 1
        }
        // An option given with a form it does not go with is refused, not ignored (`category 1 Food --color red`
        // changed the transaction and left Food's colour as it was; `columns --date-format X` listed the columns).
        let first = inv.words.first?.text.lowercased()
        let firstForm = first.flatMap { command.formKeywords.contains($0) ? "`\(command.name) \($0)`" : nil }
        for (option, span) in formBound where !command.takes(option, firstWord: first) {
            let not = firstForm.map { ", not " + $0 } ?? ""
            switch option.form {
            case .keyword(let k): throw .usage("--\(option.name) goes with `\(command.name) \(k)`" + not, span: span)
            case .alone: throw .usage("--\(option.name) goes with `\(command.name)` alone" + not, span: span)
            case .withoutKeyword, nil:
                // Named as the forms it goes with read: `tags [NAME]`.
                let forms = command.forms.filter { if case .keyword = $0.first { false } else { true } }
                    .map { "`" + ([command.name] + $0.map(\.synopsis)).joined(separator: " ") + "`" }
                throw .usage("--\(option.name) goes with \(forms.joined(separator: " or "))" + not, span: span)
            }
        }
        return inv
    }

    /// Checks an option's value against its declaration, before the command runs.
    func check(_ value: Word, for option: Command.Option) throws(ShellError) {
        switch option.value {
        case .integer(_, let range):
            guard let n = Int(value.text), range.contains(n) else {
                let bounds = range.upperBound == .max ? "of \(range.lowerBound) or more" : "from \(range.lowerBound) to \(range.upperBound)"
                throw .usage("--\(option.name) takes a whole number \(bounds)", span: value.span)
            }
        case .choice(let words):
            guard words.contains(value.text.lowercased()) else {
                throw .usage("--\(option.name) takes \(words.dropLast().joined(separator: ", ")) or \(words.last ?? ""), not '\(TextSafety.sanitize(value.text))'",
                             span: value.span)
            }
        case .flag, .category, .color, .dateFormat, .text:
            break
        }
    }

    // MARK: - files

    /// Opens a ledger file, replacing the current one. Nothing changes when it cannot be read.
    public func open(path: String, format: LedgerFormat? = nil, options: ReadOptions = ReadOptions()) throws(ShellError) {
        try open(paths: [path], format: format, options: options)
    }

    /// Opens several ledger files as one session (ids run across them, in the order given),
    /// replacing the current ledger. Nothing changes when any of them cannot be read.
    public func open(paths: [String], format: LedgerFormat? = nil, options: ReadOptions = ReadOptions()) throws(ShellError) {
        var seen = Set<String>()
        for path in paths where !seen.insert(FileIO.resolvingLinks(path)).inserted {
            throw .failed("\(TextSafety.sanitize(path)) is named twice: each file is opened once")
        }
        var opened: [(loaded: LoadedLedger, file: OpenFile, mapping: ColumnMap?)] = []
        for path in paths {
            let (loaded, file) = try read(path: path, format: format, options: options)
            opened.append((loaded, file, options.columns))
        }
        guard var combined = opened.first?.loaded else { return }
        var files: [OpenFile] = []
        for (i, o) in opened.enumerated() {
            var f = o.file
            f.segments = [i == 0 ? 0..<o.loaded.ledger.count : combined.ledger.append(rowsOf: o.loaded.ledger)]
            f.skipped = o.loaded.skipped
            if i > 0 { combined.skipped += o.loaded.skipped }
            files.append(f)
        }
        install(combined, files: files)
        // A mapping given for a header row is remembered (at the next save) for the next file with that header.
        if let givenMapping = options.columns, paths.count == 1, case .csv(let layout) = combined.document.layout, layout.hasHeader {
            mappingToRemember = (givenMapping, layout.header)
        }
        loadDeclarations()
        loadHistory()
        checkForRecovery(path: paths[0])
        if combined.ledger.count >= 100_000 { Session.returnFreedMemory() }
    }

    /// Runs `body` with the open ledger's tag and tag-set tables moved out of it, so that what `body` interns
    /// grows them in place instead of copying them first (a million tag sets are tens of megabytes). They only
    /// ever grow, and old ids keep their meaning, so they go back into the ledger whatever `body` adds. The
    /// completion lists, which hold the tables, are dropped first (they are made again after any change).
    func withTagTables<T>(_ body: (inout StringTable, inout TagSetTable) -> T) -> T {
        if let result = withLentTables({ (working: inout Ledger) throws(Never) in body(&working.tags, &working.tagSets) }) {
            return result
        }
        var t = StringTable(caseInsensitive: true), s = TagSetTable()
        return body(&t, &s)
    }

    /// Runs `body` on a working copy of the ledger that holds the only reference to its name tables (tags, tag
    /// sets, notes), and gives the tables back to the session as `body` left them. A plan interns what its rules
    /// name into them in place, as `tag` does: the tables only ever grow, and a name or set that no transaction
    /// uses is never shown. Planned into a copy, a preview of a rule over a million distinct tag sets copied them
    /// all, and the next preview copied them again.
    func withLentTables<T, E: Error>(_ body: (inout Ledger) throws(E) -> T) throws(E) -> T? {
        guard var working = ledger else { return nil }
        completionCache = nil // (its closures hold the tables too)
        ledger!.tags = StringTable()
        ledger!.tagSets = TagSetTable()
        ledger!.notes = StringTable()
        defer {
            ledger!.tags = working.tags
            ledger!.tagSets = working.tagSets
            ledger!.notes = working.notes
        }
        return try body(&working)
    }

    /// Hands the heap's free pages back to the system. Reading a large file frees as much as it keeps (the second
    /// half's tables once merged, the lookup tables of raw fields), and glibc would otherwise hold on to it: after
    /// a million-row CSV, 30 MB of a 270 MB process. A few milliseconds, once per large file.
    static func returnFreedMemory() {
        #if canImport(Glibc)
        _ = mallocTrim(0)
        #endif
    }

    /// Reads one ledger file (with the column mapping its sidecar keeps).
    func read(path: String, format: LedgerFormat?, options: ReadOptions) throws(ShellError) -> (LoadedLedger, OpenFile) {
        let bytes: [UInt8], stamp: FileStamp
        do throws(FileError) { (bytes, stamp) = try FileIO.read(path) } catch { throw .file(error) }
        let fmt = format ?? LedgerFormat(extensionOf: path) ?? LedgerFormat(sniffing: bytes)
        // A column mapping kept in the sidecar is needed before the file is read. It says how the file is laid out
        // (where a headerless file keeps the columns tagsh added to it), not what the session declares, so it is
        // read with --no-init too: without it, a second session read a headerless file's annotations as unknown
        // columns, and its save added them again.
        var options = options
        let kept = Sidecar(path: Session.sidecarPath(for: path)).reading
        if options.columns == nil { options.columns = kept.map }
        if options.dateFormat == nil { options.dateFormat = kept.dateFormat }
        if let memory = columnMemoryPath { options.rememberedMappings = ColumnMemory(path: memory).read() }
        let loaded: LoadedLedger
        do { loaded = try LedgerDocument.read(bytes, fileName: path, format: fmt, options: options) } catch {
            // A file that looks like another format than the one tried: say which --format to try.
            var d = error
            let sniffed = LedgerFormat(sniffing: bytes)
            if format == nil, sniffed != fmt, sniffed != .json {
                d.notes.append("hint: the file looks like a \(sniffed) file: --format \(sniffed) reads it as one")
            }
            throw .diagnostic(d)
        }
        let name = path.split(separator: "/").last.map(String.init) ?? path
        return (loaded, OpenFile(path: path, displayName: name, document: loaded.document, stamp: stamp,
                                 segments: [0..<loaded.ledger.count]))
    }

    /// Sources each file's sidecar, then the rules files: quietly, and as the state the files are saved in.
    /// With --no-init the sidecars are not read (their lines are kept, and what the session declares is added);
    /// rules files named with --rules still are.
    func loadDeclarations() {
        stores = []
        owners = [:]
        for f in files {
            guard let path = f.path else { continue }
            stores.append(DeclarationStore(sidecar: Sidecar(path: Session.sidecarPath(for: path)), kind: .sidecar))
        }
        for path in rulesFiles { addRulesStore(path) }
        var k = 0
        while k < stores.count { // `include` in a sidecar adds a store as it loads
            // A bad line does not keep the ledger closed, nor the lines after it from loading.
            if sourcesSidecar || stores[k].kind == .rules { load(store: k) }
            k += 1
        }
        // The sidecars describe the files as saved: not a change to undo.
        forgetHistory()
        for i in stores.indices where sourcesSidecar || stores[i].kind == .rules {
            stores[i].baseline = Sidecar.byKey(declarations(forStore: i))
        }
    }

    /// Opens the built-in sample ledger.
    public func openDemo() {
        let bytes = Array(DemoLedger.csv.utf8)
        do {
            let loaded = try LedgerDocument.read(bytes, fileName: DemoLedger.fileName, format: .csv, options: ReadOptions())
            install(loaded, files: [OpenFile(path: nil, displayName: DemoLedger.fileName, document: loaded.document, stamp: nil,
                                             segments: [0..<loaded.ledger.count])])
        } catch {
            // The demo is generated and tested; failing here is a build defect.
            preconditionFailure("the built-in demo ledger does not parse: \(error.message)")
        }
    }

    func install(_ loaded: LoadedLedger, files: [OpenFile]) {
        suggestIndex = nil
        preparedSuggestions = nil
        if pendingRecovery == nil { removeJournal() }
        journalFile = nil
        pendingRecovery = nil
        ledger = loaded.ledger
        // Settings that belong to a ledger come from its sidecar, not from the ledger open before.
        settings.maxTags = Settings().maxTags
        settings.sample = Settings().sample
        fileCategories = Set(loaded.ledger.categories.liveIDs.filter { !loaded.ledger.categories[$0].isDefault })
        postingOnlyCategories = fileCategories.subtracting(loaded.ledger.usedCategories)
        stores = []
        owners = [:]
        columnCache = [:]
        forgetCompletionCounts()
        fileColumn = nil
        mappingToRemember = nil
        self.files = files
        generation += 1
        ledgerVersion += 1
        rules = []
        lastPreview = nil
        previewSets = nil
        appliedPreview = nil
        selection = nil
        forgetHistory()
        baseline = Baseline(loaded.ledger)
        discardWarned = nil
        for file in files {
            if case .csv(let layout) = file.document.layout {
                for guess in layout.guesses { printer.note(TextSafety.sanitize(file.displayName) + ": " + guess) }
            }
            if case .text(let layout) = file.document.layout {
                for note in layout.notes { printer.note(TextSafety.sanitize(file.displayName) + ": " + note) }
            }
        }
        if !loaded.skipped.isEmpty {
            printer.note("skipped \(loaded.skipped.count) record\(loaded.skipped.count == 1 ? "" : "s") that could not be read:")
            for d in loaded.skipped {
                sink.write(DiagnosticRenderer.render(d, style: style, severity: "skipped"), to: .err)
            }
        }
    }

    /// The sidecar file beside a ledger: `bank.csv` → `bank.csv.tagsh`.
    public static func sidecarPath(for path: String) -> String { path + ".tagsh" }

    /// Runs every command in a file; errors name FILE:LINE. Cycles are refused.
    public func source(path: String, keepGoing: Bool = false, echo: Bool = false) throws(ShellError) {
        let resolved = FileIO.resolvingLinks(path)
        if sourceStack.contains(resolved) {
            throw .failed("\(path): already being sourced (a file that sources itself, directly or not, would never end)")
        }
        let bytes: [UInt8]
        do throws(FileError) { bytes = try FileIO.read(path).bytes } catch { throw .file(error) }
        sourceStack.append(resolved)
        defer { sourceStack.removeLast() }
        let status = runScript(String(decoding: bytes, as: UTF8.self), name: path, keepGoing: keepGoing, echo: echo)
        if case .failed = status { throw .failed("\(path): stopped at the first failing command") }
    }

    /// Runs a script's text: `#` comment lines, trailing `\` continuations.
    /// Stops at the first failure unless `keepGoing`.
    @discardableResult
    public func runScript(_ text: String, name: String, keepGoing: Bool = false, echo: Bool = false) -> Status {
        runScript(lines: text.split(separator: "\n", omittingEmptySubsequences: false).lazy.map(String.init),
                  name: name, keepGoing: keepGoing, echo: echo)
    }

    /// The one script loop, for `-c`, `-f`, standard input and `source`: reads
    /// lines as they come, runs each command, and flushes the output after it.
    @discardableResult
    public func runScript<Lines: Sequence<String>>(lines: Lines, name: String, keepGoing: Bool = false, echo: Bool = false) -> Status {
        var reader = ScriptReader()
        var failed: Status?
        var lineNumber = 0
        for raw in lines {
            lineNumber += 1
            guard let (command, startLine) = reader.feed(raw, lineNumber: lineNumber) else { continue }
            if echo { printer.line(style.dim("> " + command)) }
            let status = execute(command, origin: (name, startLine))
            sink.flush()
            switch status {
            case .ok: continue
            case .quit: return .quit
            case .failed:
                if !keepGoing { return status }
                failed = status
            }
        }
        if let (command, startLine) = reader.finish() {
            let status = execute(command, origin: (name, startLine))
            sink.flush()
            if status == .quit { return .quit }
            if case .failed = status { return status }
        }
        return failed ?? .ok
    }
}

/// Joins a script's physical lines into commands: skips blank and `#`
/// comment lines, and joins a line ending in `\` with the next.
public struct ScriptReader {
    var pending: String?
    var pendingStart = 0

    public init() {}

    /// The command completed by this line and the line it started on, if any.
    public mutating func feed(_ rawLine: String, lineNumber: Int) -> (String, Int)? {
        var line = rawLine
        if line.hasSuffix("\r") { line.removeLast() }
        if pending == nil {
            let trimmed = line.drop { $0 == " " || $0 == "\t" }
            if trimmed.isEmpty || trimmed.hasPrefix("#") { return nil }
            pendingStart = lineNumber
        }
        let trailing = line.reversed().prefix { $0 == "\\" }.count
        if trailing % 2 == 1 {
            line.removeLast()
            pending = (pending ?? "") + line
            return nil
        }
        let command = (pending ?? "") + line
        pending = nil
        return (command, pendingStart)
    }

    /// A command left open by a final `\`.
    public mutating func finish() -> (String, Int)? {
        defer { pending = nil }
        return pending.map { ($0, pendingStart) }
    }
}

#if canImport(Glibc)
/// glibc's `malloc_trim`, which the Glibc module does not export.
@_silgen_name("malloc_trim") private func mallocTrim(_ pad: Int) -> Int32
#endif
