import TagshFormats
import TagshModel
import TagshQuery

/// One command, declared once: its name, help, options and completion, and
/// what it does. `help`, the man page and completion are derived from this.
public struct Command: Sendable {
    public enum Group: String, Sendable, CaseIterable {
        case files = "Files"
        case exploring = "Exploring"
        case annotating = "Annotating"
        case rules = "Rules and suggestions"
        case undo = "Undo"
        case session = "Scripting and session"
    }

    /// What the words after the command name are, for completion.
    public enum Arguments: Sendable, Equatable {
        case none
        case query
        case file
        case command
        case settings
        case words
        /// A TARGET, then `+tag` / `-tag` words.
        case tags
        /// A TARGET, then an intent.
        case intents
        /// A TARGET (or new/delete/rename), then a category.
        case categories
        /// Rule names.
        case rules
    }

    /// An option such as `--limit N` or `--json`.
    public struct Option: Sendable {
        public var name: String
        /// The value's placeholder (`N`), or nil for a flag.
        public var value: String?
        public var help: String

        public init(_ name: String, value: String? = nil, _ help: String) {
            self.name = name
            self.value = value
            self.help = help
        }
    }

    public var name: String
    public var aliases: [String] = []
    public var group: Group
    /// The synopsis after the name: `[QUERY] [--limit N]`.
    public var usage: String
    /// One line for command lists.
    public var summary: String
    /// Paragraphs for `help NAME` and the man page.
    public var details: String = ""
    public var options: [Option] = []
    public var examples: [String] = []
    public var arguments: Arguments = .none
    public var run: @Sendable (inout Invocation) throws(ShellError) -> Void

    public init(name: String, aliases: [String] = [], group: Group, usage: String, summary: String,
                details: String = "", options: [Option] = [], examples: [String] = [], arguments: Arguments = .none,
                run: @escaping @Sendable (inout Invocation) throws(ShellError) -> Void) {
        self.name = name
        self.aliases = aliases
        self.group = group
        self.usage = usage
        self.summary = summary
        self.details = details
        self.options = options
        self.examples = examples
        self.arguments = arguments
        self.run = run
    }

    public var synopsis: String { usage.isEmpty ? name : name + " " + usage }
}

/// A command as typed: the words left after options are taken out.
public struct Invocation {
    public let session: Session
    public let command: Command
    /// The whole line, for carets.
    public let line: String
    /// The command word as typed.
    public let nameWord: Word
    /// Positional words, in order.
    public var words: [Word]
    /// Flags given (`json`), and option values (`limit` → `10`) with their words.
    public var flags: Set<String> = []
    public var values: [String: Word] = [:]
    /// Set by `quit` to end the session.
    public var quit = false
    /// The line as it should be replayed (with `@` replaced by ids); nil: the line itself.
    public var replayLine: String?

    public var out: Printer { session.printer }

    public func flag(_ name: String) -> Bool { flags.contains(name) }

    /// The whole-number value of an option, checked against a range.
    public func intValue(_ name: String, in range: ClosedRange<Int>) throws(ShellError) -> Int? {
        guard let w = values[name] else { return nil }
        guard let n = Int(w.text), range.contains(n) else {
            let bounds = range.upperBound == .max ? "of \(range.lowerBound) or more" : "from \(range.lowerBound) to \(range.upperBound)"
            throw .usage("--\(name) takes a whole number \(bounds)", span: w.span)
        }
        return n
    }

    /// The query made of every positional word (empty = everything).
    public func query(_ words: [Word]? = nil) throws(ShellError) -> Query {
        let q: Query
        do throws(QueryError) { q = try QueryParser.parse(words ?? self.words) } catch { throw .query(error) }
        if q.usesSelection && session.selection == nil {
            let at = (words ?? self.words).first { $0.text == "@" }
            throw .usage("there is no selection yet: `ls` or `select` sets @", span: at?.span)
        }
        return q
    }

    /// The rows of the ledger that `query` matches, `@` included.
    public func rows(matching query: Query, in ledger: Ledger) -> RowSet {
        QueryEvaluator(ledger: ledger, selection: session.selection ?? []).rows(matching: query)
    }

    /// Refuses extra words beyond the first `count`.
    public func expectAtMost(_ count: Int) throws(ShellError) {
        if words.count > count {
            let extra = words[count]
            throw .usage("unexpected '\(extra.text)'; usage: \(command.synopsis)", span: extra.span)
        }
    }

    public func requireLedger() throws(ShellError) -> Ledger {
        guard let l = session.ledger else { throw .noLedger }
        return l
    }
}

/// Why a command failed. One renderer turns these into text with a caret.
public enum ShellError: Error, Sendable {
    /// The words do not fit the command; `span` points at the offending text.
    case usage(String, span: Range<Int>?)
    case unknownCommand(String, span: Range<Int>, suggestion: String?)
    case query(QueryError)
    case lexer(Lexer.Problem)
    case noLedger
    /// A problem with a position of its own (a file's line and column).
    case diagnostic(Diagnostic)
    /// Failures with a specific exit status when they end a script or the command line.
    case file(FileError)
    case failed(String)
    /// Ctrl-C stopped a long command; it changed nothing.
    case interrupted

    /// The exit status this failure gives from the command line (sysexits.h).
    public var exitStatus: Int32 {
        switch self {
        case .diagnostic(let d) where d.file != nil && d.line != nil: 65
        case .file(let f): f.whileWriting ? 74 : 66
        default: 1
        }
    }
}
