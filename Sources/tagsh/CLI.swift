import ArgumentParser
import FoundationEssentials
import Glibc
import Synchronization
import TagshFormats
import TagshModel
import TagshQuery
import TagshShell
import TagshTerminal

@main
struct TagshCLI: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tagsh",
        abstract: "Explore and annotate a ledger of money transactions.",
        discussion: "LEDGER is a bank CSV export, an hledger/ledger journal or a beancount file. Type `help` at the prompt for the commands; `tagsh help COMMAND` prints one command's help.",
        version: TagshVersion.string
    )

    @Option(name: [.customShort("c"), .customLong("command")], help: ArgumentHelp("Run CMD (repeatable, in order with -f), then exit.", valueName: "CMD"))
    var commands: [ScriptArgument] = []

    @Option(name: [.customShort("f"), .customLong("file")], help: ArgumentHelp("Run the commands in SCRIPT (repeatable, in order with -c), then exit.", valueName: "SCRIPT"),
            completion: .file())
    var scripts: [ScriptArgument] = []

    @Flag(name: .shortAndLong, help: "Stay at the prompt after -c/-f (standard input that is not a terminal: read it after them).")
    var interactive = false

    @Flag(name: .customLong("keep-going"), help: "In scripts, go on after a failing command.")
    var keepGoing = false

    @Flag(help: "Print each script command before its output.")
    var echo = false

    @Option(help: ArgumentHelp("csv | journal | beancount (default: from the file's extension, then its content).", valueName: "FMT"),
            completion: .list(["csv", "journal", "beancount"]))
    var format: String?

    @Flag(name: .customLong("no-init"), help: "Do not source LEDGER's sidecar file LEDGER.tagsh (its categories, rules and settings; the columns it says a CSV file has are still read).")
    var noInit = false

    @Option(help: ArgumentHelp("auto | always | never (NO_COLOR is honoured).", valueName: "WHEN"), completion: .list(["auto", "always", "never"]))
    var color: String = "auto"

    @Flag(help: "Machine-readable output from listing commands.")
    var json = false

    @Flag(help: "Open the built-in sample ledger.")
    var demo = false

    @Flag(name: .customLong("skip-bad"), help: "Load the readable records of a damaged file and list the others.")
    var skipBad = false

    @Option(name: .customLong("date-format"), help: ArgumentHelp("Force the order of CSV dates, e.g. %d/%m/%Y.", valueName: "FMT"))
    var dateFormat: String?

    @Option(help: ArgumentHelp("CSV column roles: date=1,description=Details,amount=5.", valueName: "MAP"))
    var columns: String?

    @Flag(name: .customLong("man-page"), help: .hidden)
    var manPage = false

    @Option(name: .customLong("rules"), help: ArgumentHelp("A rules file shared across ledgers (repeatable; default: $XDG_CONFIG_HOME/tagsh/rules.tagsh when it exists).", valueName: "FILE"),
            completion: .file(extensions: ["tagsh"]))
    var rules: [String] = []

    @Argument(help: "The ledger files to open (several form one session).",
              completion: .file(extensions: ["csv", "tsv", "txt", "journal", "hledger", "ledger", "j", "dat", "beancount", "bean"]))
    var ledgers: [String] = []

    static func main() {
        let cli: TagshCLI
        do {
            cli = try parse()
        } catch {
            let code = exitCode(for: error)
            if code == .success {
                print(fullMessage(for: error))
                Glibc.exit(0)
            }
            let message = Array((fullMessage(for: error) + "\n").utf8)
            _ = message.withUnsafeBytes { Glibc.write(2, $0.baseAddress, $0.count) }
            Glibc.exit(2)
        }
        Glibc.exit(cli.start())
    }

    /// Runs the session; returns the exit status.
    func start() -> Int32 {
        if manPage {
            print(ManPage.render(), terminator: "")
            return 0
        }
        setlocale(LC_CTYPE, "")
        if String(cString: nl_langinfo(nl_item(CODESET))) != "UTF-8" { setlocale(LC_CTYPE, "C.UTF-8") }

        let stdinIsTTY = isatty(0) == 1, stdoutIsTTY = isatty(1) == 1
        let sink = StandardSink()
        let env = ProcessInfo.processInfo.environment
        let session = Session(sink: sink, colorWhenAuto: stdoutIsTTY && (env["NO_COLOR"] ?? "").isEmpty)
        session.trueColor = ["truecolor", "24bit"].contains(env["COLORTERM"] ?? "")
        session.jsonOutput = json
        if let fixed = env["TAGSH_TODAY"], !fixed.isEmpty {
            guard let day = DateFormat.ymd.parse(fixed) else {
                sink.error("tagsh: TAGSH_TODAY takes a date YYYY-MM-DD, not '\(fixed)'\n")
                return 2
            }
            session.today = { day }
        }
        session.sourcesSidecar = !noInit
        let configFolder: String?
        if let config = env["XDG_CONFIG_HOME"], config.hasPrefix("/") {
            configFolder = config + "/tagsh"
        } else if let home = env["HOME"], !home.isEmpty {
            configFolder = home + "/.config/tagsh"
        } else {
            configFolder = nil
        }
        session.columnMemoryPath = configFolder.map { $0 + "/columns" }
        if !rules.isEmpty {
            session.rulesFiles = rules
        } else if !noInit, let configFolder, FileIO.exists(configFolder + "/rules.tagsh") {
            session.rulesFiles = [configFolder + "/rules.tagsh"]
        }
        session.terminalWidth = { stdoutIsTTY ? Terminal.columns() : nil }
        session.terminalHeight = { stdoutIsTTY ? Terminal.rows() : nil }
        // A pager quit before it read everything must not end tagsh.
        signal(SIGPIPE, SIG_IGN)
        session.interrupted = { Interrupt.wasRequested }
        guard let mode = Settings.ColorMode(rawValue: color.lowercased()) else {
            sink.error("tagsh: --color takes auto, always or never\n")
            return 2
        }
        _ = session.setDisplay("color", mode.rawValue)

        var readOptions = ReadOptions(skipBad: skipBad)
        if let dateFormat {
            guard let f = DateFormat(pattern: dateFormat) else {
                sink.error("tagsh: unknown --date-format '\(dateFormat)': write it with %d %m %y %Y %b %B (and %H %M %S %z), e.g. %d/%m/%Y or %d %b %Y\n")
                return 2
            }
            readOptions.dateFormat = f
        }
        if let columns {
            do { readOptions.columns = try ColumnMap(parsing: columns) } catch {
                sink.error("tagsh: --columns: \(error.message)\n")
                return 2
            }
        }
        var ledgerFormat: LedgerFormat?
        if let format {
            guard let f = LedgerFormat(rawValue: format.lowercased()), FormatHandlers.handler(for: f) != nil else {
                sink.error("tagsh: unknown --format '\(format)': use \(FormatHandlers.names.joined(separator: ", "))\n")
                return 2
            }
            ledgerFormat = f
        }
        if demo && !ledgers.isEmpty {
            sink.error("tagsh: give either --demo or a LEDGER file, not both\n")
            return 2
        }

        // `tagsh help [COMMAND]`, as `git help` reads: where no file is named help (a LEDGER named so opens as one).
        if !demo, ledgers.first == "help", !FileIO.exists("help") {
            let status = session.execute((["help"] + ledgers.dropFirst().map(Lexer.quote)).joined(separator: " "))
            sink.flush()
            if case .failed(let code) = status { return code }
            return 0
        }
        if demo {
            session.openDemo()
        } else if !ledgers.isEmpty {
            do {
                try session.open(paths: ledgers, format: ledgerFormat, options: readOptions)
            } catch {
                sink.error(DiagnosticRenderer.render(error.diagnostic(line: ""), style: session.style))
                sink.flush()
                return error.exitStatus
            }
        }
        sink.flush()

        // A normal exit discards unsaved changes on purpose, so the recovery journal goes too.
        defer { session.close() }
        // Standard input that is not a terminal is one more script, after -c and -f
        // (with -i, or when there are none); a terminal gets the prompt instead.
        var sources = scriptSources()
        let stdinIsScript = !(stdinIsTTY && stdoutIsTTY) && !(interactive && stdinIsTTY)
        let staysAfterScripts = sources.isEmpty || interactive
        if staysAfterScripts && stdinIsScript { sources.append(.standardInput) }
        var sawFailure = false
        for source in sources {
            let status: Session.Status
            switch source {
            case .command(let text, let name):
                status = session.runScript(text, name: name, keepGoing: keepGoing, echo: echo)
            case .file(let path):
                do {
                    let bytes = try FileIO.read(path).bytes
                    status = session.runScript(String(decoding: bytes, as: UTF8.self), name: path, keepGoing: keepGoing, echo: echo)
                } catch {
                    sink.error(DiagnosticRenderer.render(error.diagnostic, style: session.style))
                    sink.flush()
                    return 66
                }
            case .standardInput:
                let lines = AnyIterator { Swift.readLine(strippingNewline: true) }
                status = session.runScript(lines: IteratorSequence(lines), name: "<stdin>", keepGoing: keepGoing, echo: echo)
            }
            sink.flush()
            if status == .quit { return sawFailure ? 1 : 0 }
            if case .failed(let code) = status {
                if !keepGoing { return code == 65 || code == 66 || code == 74 ? code : 1 }
                sawFailure = true
            }
        }
        if !staysAfterScripts || stdinIsScript { return sawFailure ? 1 : 0 }
        return runInteractive(session, sink: sink)
    }

    /// Where script lines come from: `-c` and `-f` in command-line order, then standard input.
    enum ScriptSource: Equatable {
        /// One `-c` command and the name its errors carry (`-c`, or `-c#2` when there are several).
        case command(String, name: String)
        case file(String)
        case standardInput
    }

    /// `-c` and `-f` in the order ArgumentParser read them from the command line.
    func scriptSources() -> [ScriptSource] {
        let numbered = commands.enumerated().map { i, c in
            (c.order, ScriptSource.command(c.text, name: commands.count == 1 ? "-c" : "-c#\(i + 1)"))
        }
        return (numbered + scripts.map { ($0.order, ScriptSource.file($0.text)) })
            .sorted { $0.0 < $1.0 }
            .map(\.1)
    }

    func runInteractive(_ session: Session, sink: StandardSink) -> Int32 {
        session.isInteractive = true
        if isatty(1) == 1 {
            // psql's way: $PAGER, else less that quits when all fits (-F), keeps colours (-R) and the screen (-X).
            let env = ProcessInfo.processInfo.environment
            let pager = env["PAGER"].flatMap { $0.isEmpty ? nil : $0 } ?? "less -RFX"
            session.pager = { text in
                sink.flush()
                return Subprocess.page(text, with: pager)
            }
        }
        Interrupt.installHandler()
        let completer = Completer(registry: session.registry, data: { session.completionData() },
                                  listDirectory: Terminal.listDirectory)
        let editor = LineEditor(
            programName: "tagsh", historyPath: Terminal.historyPath(),
            prompt: { session.prompt },
            complete: { text in
                let r = completer.complete(text)
                return CompletionOffer(replacing: r.replacing, candidates: r.words)
            })
        let console = TerminalConsole(editor: editor, sink: sink)
        session.console = console
        editor.editLine = { console.edit($0) }
        if let ledger = session.ledger, let file = session.file {
            sink.write("tagsh \(TagshVersion.string): \(file.displayName), \(ledger.count) transactions. `help` lists the commands; Ctrl-D quits.\n", to: .out)
        } else {
            sink.write("tagsh \(TagshVersion.string): no ledger open (`open FILE`). `help` lists the commands; Ctrl-D quits.\n", to: .out)
        }
        sink.flush()
        // What Tab offers, as after each command below (the descriptions are then sorted on the other core).
        _ = session.completionData()
        while true {
            switch editor.readLine() {
            case .endOfInput:
                sink.write("\n", to: .out)
                let status = session.execute("quit")
                sink.flush()
                if status == .quit { return 0 }
            case .interrupted:
                sink.write("^C\n", to: .out)
                sink.flush()
            case .line(let text):
                // A pasted or edited block holds line breaks: each line runs as if typed, in order.
                for line in text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
                    if !line.allSatisfy({ $0 == " " || $0 == "\t" }) { editor.addHistory(line) }
                    Interrupt.reset()
                    let status = session.execute(line)
                    sink.flush()
                    if status == .quit { return 0 }
                }
                // Rebuild what Tab offers now, while the person reads, so the first Tab after a change is fast.
                _ = session.completionData()
            }
        }
    }
}

/// The value of one `-c CMD` or `-f SCRIPT`, numbered in the order
/// ArgumentParser reads it, so that ArgumentParser alone decides the order
/// in which `-c` and `-f` run: it reads argv left to right and makes each
/// value once (checked by scripts/cli-test with interleaved `-c`/`-f`).
struct ScriptArgument: ExpressibleByArgument, Sendable {
    let text: String
    /// Position among every `-c` and `-f` value read by this process.
    let order: Int

    init(argument: String) {
        text = argument
        order = ScriptArgument.counter.add(1, ordering: .relaxed).oldValue
    }

    private static let counter = Atomic<Int>(0)
}

enum TagshVersion {
    static let string = ManPage.version
}

/// The shell's completion words are what the line editor reads (the two layers do not know each other).
extension CompletionWords: CompletionCandidates {}
