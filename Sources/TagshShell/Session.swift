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
    }

    public internal(set) var ledger: Ledger?
    public internal(set) var file: OpenFile?
    /// The current selection `@`: rows listed by the last `ls` or `select`.
    public var selection: [Int]? { didSet { generation += 1 } }
    public var settings = Settings() { didSet { updateStyle() } }
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
    /// Listing commands print JSON (the `--json` command-line option).
    public var jsonOutput = false
    /// Read the sidecar `LEDGER.tagsh` when a ledger is opened.
    public var sourcesSidecar = true
    /// A recovery journal from an earlier session, waiting for `recover` or `discard`.
    public internal(set) var pendingRecovery: String?
    var journalFile: AppendFile?
    /// Where `record` appends every command that succeeds.
    var record: AppendFile?
    /// Whether `quit` was already refused once because of unsaved changes.
    var quitWarned = false
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
        printer = Printer(sink: sink, style: Style(enabled: on, trueColor: trueColor))
    }

    public var style: Style { printer.style }

    /// The width tables should fit, or nil for no limit (output is not a terminal).
    public var tableWidth: Int? { settings.width ?? terminalWidth() }

    /// One undoable step: the command that made it and what it changed.
    public struct Step {
        /// The command as typed.
        public var command: String
        /// The lines that redo this step from a script (`@` resolved, rules defined).
        public var replay: String
        public var summary: String
        public var changes: ChangeSet
    }

    /// Every step of the session; the first `position` of them are applied.
    public internal(set) var steps: [Step] = []
    public internal(set) var position = 0
    /// `position` when the ledger was last opened or saved.
    public internal(set) var savedPosition = 0

    /// Whether there are changes not yet saved.
    public var hasUnsavedChanges: Bool { position != savedPosition || rulesChanged }

    /// Bumped by every change to the ledger or the selection, so caches (completion) know when to refresh.
    public internal(set) var generation = 0
    /// Bumped by every change to the transactions, so `apply` knows whether its preview is stale.
    public internal(set) var ledgerVersion = 0
    /// The rules, in definition order (`apply --all` runs them in this order).
    public internal(set) var rules: [Rule] = [] { didSet { generation += 1 } }
    /// Rules were defined or deleted since the sidecar was written.
    var rulesChanged = false
    /// What the last `preview` showed, for a bare `apply`.
    var lastPreview: (rules: [Rule], version: Int, selection: [Int]?, plan: Plan, line: String)?
    var completionCache: (generation: Int, data: CompletionData)?

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

        /// Rows whose category differs from the file's (a renamed category counts).
        func categoryChangedRows(_ l: Ledger, among rows: [Int]) -> Set<Int> {
            let renamed = Set(l.categories.ids.filter { Int($0) < categoryNames.count && categoryNames[Int($0)] != l.categories[$0].name })
            return Set(rows.filter { l.category[$0] != category[$0] || renamed.contains(l.category[$0]) })
        }

        /// Rows whose annotations differ from the file's (a renamed category counts).
        func changedRows(_ l: Ledger) -> [Int] {
            let renamed = Set(l.categories.ids.filter { Int($0) < categoryNames.count && categoryNames[Int($0)] != l.categories[$0].name })
            return (0..<l.count).filter { r in
                l.intent[r] != intent[r] || l.category[r] != category[r] || l.tagSet[r] != tagSet[r] || l.note[r] != note[r]
                    || (!renamed.isEmpty && renamed.contains(l.category[r]))
            }
        }
    }
    var baseline = Baseline()

    /// Starts the undo history afresh, at a state that counts as saved.
    func forgetHistory() {
        steps = []
        position = 0
        savedPosition = 0
        rulesChanged = false
    }

    /// Applies a change as one undo step, dropping any redo steps.
    /// Returns false (and records nothing) when it changes nothing.
    @discardableResult
    func commit(_ changes: ChangeSet, command: String, replay: String, summary: String) -> Bool {
        guard !changes.isEmpty, ledger != nil else { return false }
        ledger?.apply(changes)
        generation += 1
        ledgerVersion += 1
        if position < steps.count {
            steps.removeSubrange(position...)
            if savedPosition > position { savedPosition = -1 } // the saved state can no longer be reached
        }
        steps.append(Step(command: command, replay: replay, summary: summary, changes: changes))
        position += 1
        return true
    }

    /// The prompt: the file name, `*` when there are unsaved changes.
    public var prompt: String {
        let name = file.map { TextSafety.sanitize($0.displayName) } ?? "tagsh"
        return name + (hasUnsavedChanges ? "*" : "") + "> "
    }

    // MARK: - executing

    /// Runs one line. Errors are printed to the error stream, with a caret
    /// under the offending words and, from a file, `FILE:LINE:` in front.
    @discardableResult
    public func execute(_ line: String, origin: (file: String, line: Int)? = nil) -> Status {
        do {
            return try run(line)
        } catch {
            report(error, line: line, origin: origin)
            return .failed(error.exitStatus)
        }
    }

    func report(_ error: ShellError, line: String, origin: (file: String, line: Int)?) {
        let d = error.diagnostic(line: line)
        sink.write(DiagnosticRenderer.render(d, style: style, origin: origin), to: .err)
    }

    func run(_ line: String) throws(ShellError) -> Status {
        let words: [Word]
        do throws(Lexer.Problem) { words = try Lexer.words(in: line) } catch { throw .lexer(error) }
        guard let first = words.first, !first.raw.hasPrefix("#") else { return .ok } // empty, or a comment line
        guard let command = registry.command(named: first.text) else {
            throw .unknownCommand(first.text, span: first.span, suggestion: registry.suggestion(for: first.text))
        }
        var invocation = try parseOptions(Array(words.dropFirst()), for: command, line: line, nameWord: first)
        if command.name != "quit" { quitWarned = false }
        try command.run(&invocation)
        if let record, sourceStack.isEmpty, command.name != "record", !invocation.quit {
            do throws(FileError) { try record.append(line) } catch { throw .file(error) }
        }
        return invocation.quit ? .quit : .ok
    }

    /// Takes the declared `--options` out of the words; `--` ends options.
    func parseOptions(_ words: [Word], for command: Command, line: String, nameWord: Word) throws(ShellError) -> Invocation {
        var inv = Invocation(session: self, command: command, line: line, nameWord: nameWord, words: [])
        var i = 0
        var optionsDone = false
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
                    throw .usage("unknown option --\(name) for \(command.name)"
                                 + (known.isEmpty ? "" : " (options: \(known.joined(separator: " ")))"), span: w.span)
                }
                if option.value == nil {
                    if inlineValue != nil { throw .usage("--\(name) takes no value", span: w.span) }
                    inv.flags.insert(name)
                } else if let inlineValue {
                    inv.values[name] = Word(text: inlineValue, raw: inlineValue, span: w.span)
                } else {
                    guard i + 1 < words.count else {
                        throw .usage("--\(name) needs a value (\(option.value ?? "VALUE"))", span: w.span)
                    }
                    inv.values[name] = words[i + 1]
                    i += 1
                }
            } else {
                inv.words.append(w)
            }
            i += 1
        }
        return inv
    }

    // MARK: - files

    /// Opens a ledger file, replacing the current one. Nothing changes when it cannot be read.
    public func open(path: String, format: LedgerFormat? = nil, options: ReadOptions = ReadOptions()) throws(ShellError) {
        let bytes: [UInt8], stamp: FileStamp
        do throws(FileError) { (bytes, stamp) = try FileIO.read(path) } catch { throw .file(error) }
        let fmt = format ?? LedgerFormat(extensionOf: path) ?? LedgerFormat(sniffing: bytes)
        let loaded: LoadedLedger
        do { loaded = try LedgerDocument.read(bytes, fileName: path, format: fmt, options: options) } catch {
            throw .diagnostic(error)
        }
        let name = path.split(separator: "/").last.map(String.init) ?? path
        install(loaded, file: OpenFile(path: path, displayName: name, document: loaded.document, stamp: stamp))
        if sourcesSidecar {
            // A broken sidecar does not keep the ledger closed: its errors are shown and the ledger stays open.
            printer.quiet = true
            do throws(ShellError) { try sourceSidecar(for: path) } catch {
                report(error, line: "", origin: nil)
            }
            printer.quiet = false
            // The sidecar describes the file as saved: it is not a change to undo.
            forgetHistory()
        }
        checkForRecovery(path: path)
    }

    /// Opens the built-in sample ledger.
    public func openDemo() {
        let bytes = Array(DemoLedger.csv.utf8)
        do {
            let loaded = try LedgerDocument.read(bytes, fileName: DemoLedger.fileName, format: .csv, options: ReadOptions())
            install(loaded, file: OpenFile(path: nil, displayName: DemoLedger.fileName, document: loaded.document, stamp: nil))
        } catch {
            // The demo is generated and tested; failing here is a build defect.
            preconditionFailure("the built-in demo ledger does not parse: \(error.message)")
        }
    }

    func install(_ loaded: LoadedLedger, file: OpenFile) {
        if pendingRecovery == nil { removeJournal() }
        pendingRecovery = nil
        ledger = loaded.ledger
        self.file = file
        generation += 1
        ledgerVersion += 1
        rules = []
        lastPreview = nil
        selection = nil
        forgetHistory()
        baseline = Baseline(loaded.ledger)
        quitWarned = false
        if !loaded.skipped.isEmpty {
            printer.note("skipped \(loaded.skipped.count) record\(loaded.skipped.count == 1 ? "" : "s") that could not be read:")
            for d in loaded.skipped {
                sink.write(DiagnosticRenderer.render(d, style: style, severity: "skipped"), to: .err)
            }
        }
    }

    /// The sidecar file beside a ledger: `bank.csv` → `bank.csv.tagsh`.
    public static func sidecarPath(for path: String) -> String { path + ".tagsh" }

    /// The sidecar's content: custom categories and settings that differ from
    /// the defaults, as tagsh commands. Empty when there is nothing to keep.
    func sidecarText() -> String {
        guard let ledger else { return "" }
        var lines: [String] = []
        var used = Set<UInt32>()
        for c in ledger.category { used.insert(c) }
        for id in ledger.categories.liveIDs where !ledger.categories[id].isDefault {
            let c = ledger.categories[id]
            // A category the file uses and that has no colour or icon comes back from the file itself.
            if used.contains(id) && c.color == nil && c.icon == nil { continue }
            var line = "category new " + Lexer.quote(c.name)
            if let color = c.color { line += " --color " + Lexer.quote(color.description) }
            if let icon = c.icon { line += " --icon " + Lexer.quote(String(icon)) }
            lines.append(line)
        }
        for rule in rules { lines.append(rule.definition) }
        let defaults = Settings()
        if settings.maxTags != defaults.maxTags { lines.append("set max-tags \(settings.maxTags)") }
        if settings.sample != defaults.sample { lines.append("set sample \(settings.sample)") }
        guard !lines.isEmpty else { return "" }
        return "# tagsh sidecar: custom categories, rules and settings, sourced when the ledger is opened\n"
            + "# and rewritten by `save`.\n" + lines.joined(separator: "\n") + "\n"
    }

    /// Rewrites the sidecar beside `path` (removing nothing the person wrote
    /// when there is nothing to keep and no sidecar exists yet).
    func writeSidecar(for path: String) throws(ShellError) {
        let sidecar = Session.sidecarPath(for: path)
        let text = sidecarText()
        if text.isEmpty && !FileIO.exists(sidecar) { return }
        do throws(FileError) { try FileIO.writeAtomically(Array(text.utf8), to: sidecar) } catch { throw .file(error) }
    }

    func sourceSidecar(for path: String) throws(ShellError) {
        let sidecar = Session.sidecarPath(for: path)
        guard FileIO.exists(sidecar) else { return }
        try source(path: sidecar)
    }

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
