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

    /// One part of a command's grammar. Usage text, completion and the man page
    /// are derived from these; commands check meaning (does rule X exist?) themselves.
    public indirect enum Parameter: Sendable, Equatable {
        /// A fixed word (`new`, `show`, `by`, `=>`).
        case keyword(String)
        /// TARGET: an id, a list with ranges, @ or all.
        case target
        /// `+NAME... -NAME...` for the tags of the TARGET before it.
        case tagEdits
        /// A query: every word up to the next keyword of the form.
        case query
        /// The name of an existing rule; `many`: one or more.
        case rule(many: Bool)
        /// `ACTION, ...` after `=>`.
        case actions
        /// An existing category (`orNone`: or none); `customOnly`: a custom one.
        case category(orNone: Bool, customOnly: Bool)
        /// An existing tag.
        case tag
        /// One of these words.
        case choice([String])
        /// A file path.
        case file
        /// One or more file paths.
        case files
        /// A command name (or `query`).
        case command
        /// A setting's name, then its value.
        case setting, settingValue
        /// A word with no completion, shown as its placeholder (ID, N, NAME, TEXT).
        case value(String)
        /// The rest of the line as free words (TEXT...).
        case rest(String)
        /// Parameters that may be left out.
        case optional([Parameter])

        /// How the parameter reads in a synopsis.
        public var synopsis: String {
            switch self {
            case .keyword(let k): k
            case .target: "TARGET"
            case .tagEdits: "+NAME... -NAME..."
            case .query: "QUERY"
            case .rule(let many): many ? "RULE..." : "RULE"
            case .actions: "ACTION, ..."
            case .category(let orNone, _): orNone ? "NAME|none" : "NAME"
            case .tag: "NAME"
            case .choice(let words): words.joined(separator: "|")
            case .file: "FILE"
            case .files: "FILE..."
            case .command: "COMMAND|query"
            case .setting: "NAME"
            case .settingValue: "VALUE"
            case .value(let p): p
            case .rest(let p): p + "..."
            case .optional(let ps): "[" + ps.map(\.synopsis).joined(separator: " ") + "]"
            }
        }

        /// Whether the parameter takes every following word (up to a keyword of its form).
        var isGreedy: Bool {
            switch self {
            case .tagEdits, .query, .actions, .rest, .files: true
            case .rule(let many): many
            default: false
            }
        }
    }

    /// An option such as `--limit N` or `--json`, with the kind of value it takes.
    public struct Option: Sendable {
        /// What follows the option: nothing, or a value checked before the command runs.
        public enum Value: Sendable, Equatable {
            case flag
            /// A whole number in a range, shown as its placeholder (N).
            case integer(String, ClosedRange<Int>)
            /// One of these words (compared ignoring case).
            case choice([String])
            /// An existing category, or none.
            case category
            /// `#rrggbb` or a colour name.
            case color
            /// A CSV date order.
            case dateFormat
            /// Any text, shown as its placeholder.
            case text(String)

            public var placeholder: String? {
                switch self {
                case .flag: nil
                case .integer(let p, _), .text(let p): p
                case .choice(let words): words.joined(separator: "|")
                case .category: "OTHER|none"
                case .color: "C"
                case .dateFormat: "FMT"
                }
            }
        }

        public var name: String
        public var value: Value
        public var help: String
        /// The one form an option goes with.
        public enum Form: Sendable, Equatable {
            /// The form that begins with this keyword (`new`: `category new`).
            case keyword(String)
            /// The command with no words but its options (`apply --all`, `rules --json`).
            case alone
            /// Every form that does not begin with a keyword (`tags [NAME] --limit N`, not `tags rename`).
            case withoutKeyword
        }

        /// The one form the option goes with; nil: every form. Given with another form, the option is refused
        /// before the command runs, not ignored.
        public var form: Form?

        public init(_ name: String, _ value: Value, _ help: String, form: Form? = nil) {
            self.name = name
            self.value = value
            self.help = help
            self.form = form
        }

        /// A flag: `--json`.
        public init(_ name: String, _ help: String, form: Form? = nil) {
            self.init(name, .flag, help, form: form)
        }

        /// The help line: `with new: #rrggbb or a colour name`.
        public var helpLine: String {
            if case .keyword(let k) = form { "with \(k): " + help } else { help }
        }

        /// `--limit N`, `--json`.
        public var label: String { "--" + name + (value.placeholder.map { " " + $0 } ?? "") }
    }

    public var name: String
    public var aliases: [String] = []
    public var group: Group
    /// The forms the words after the name can take; the synopsis is derived from them and the options.
    public var forms: [[Parameter]]
    /// One line for command lists.
    public var summary: String
    /// Paragraphs for `help NAME` and the man page.
    public var details: String = ""
    public var options: [Option] = []
    public var examples: [String] = []
    public var run: @Sendable (inout Invocation) throws(ShellError) -> Void

    public init(name: String, aliases: [String] = [], group: Group, forms: [[Parameter]], summary: String,
                details: String = "", options: [Option] = [], examples: [String] = [],
                run: @escaping @Sendable (inout Invocation) throws(ShellError) -> Void) {
        self.name = name
        self.aliases = aliases
        self.group = group
        self.forms = forms
        self.summary = summary
        self.details = details
        self.options = options
        self.examples = examples
        self.run = run
    }

    /// The words after the name, for `help`, the man page and usage errors:
    /// `[QUERY] [--limit N] [--sort date|amount|merchant]`.
    public var usage: String {
        let formText = forms.map { $0.map(\.synopsis).joined(separator: " ") }.filter { !$0.isEmpty }
        var parts: [String] = []
        if !formText.isEmpty {
            let joined = formText.joined(separator: " | ")
            // A form with no words makes the others optional: `rules [check]`, `columns [set [MAP]]`.
            if forms.contains(where: \.isEmpty) {
                parts.append("[" + joined + "]")
            } else {
                parts.append(formText.count > 1 && !options.isEmpty ? "(" + joined + ")" : joined)
            }
        }
        parts += options.map { "[" + $0.label + "]" }
        return parts.joined(separator: " ")
    }

    public var synopsis: String { usage.isEmpty ? name : name + " " + usage }

    /// One line per form, for `help COMMAND`, each with the options it takes: `category new NAME [--color C] [--icon I]`,
    /// `category delete NAME [--reassign OTHER|none]`.
    public var synopsisLines: [String] {
        forms.map { form in
            let words = form.map(\.synopsis).joined(separator: " ")
            let keyword: String? = if case .keyword(let k) = form.first { k } else { nil }
            // A form that can be empty (`apply [RULE...]`) is the one `.alone` options go with.
            let canBeEmpty = form.allSatisfy { if case .optional = $0 { true } else { false } }
            let opts = options.filter { o in
                switch o.form {
                case nil: true
                case .keyword(let k): k == keyword
                case .alone: canBeEmpty
                case .withoutKeyword: keyword == nil
                }
            }.map { " [" + $0.label + "]" }.joined()
            return name + (words.isEmpty ? "" : " " + words) + opts
        }
    }

    /// The keywords that begin a form (`new`, `delete`, `rename` for `category`).
    public var formKeywords: [String] {
        forms.compactMap { if case .keyword(let k) = $0.first { k } else { nil } }
    }

    /// Whether `option` goes with a line whose first word (after the options) is `word`, lower-cased; nil: a line of
    /// no words. The one test: `parseOptions` refuses an option that fails it, and Tab offers only those that pass.
    func takes(_ option: Option, firstWord word: String?) -> Bool {
        switch option.form {
        case nil: true
        case .keyword(let k): k == word
        case .alone: word == nil
        case .withoutKeyword: word.map { !formKeywords.contains($0) } ?? true
        }
    }

    /// The options that go with the form a line's first word begins (`category new`: --color, --icon; every option
    /// while that word is not there yet: options may come before it).
    public func options(forFirstWord word: String?) -> [Option] {
        guard let word = word?.lowercased() else { return options }
        return options.filter { takes($0, firstWord: word) }
    }
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
    /// Said after the command's summary (a TARGET `@` that was a listing cut by --limit).
    public var afterNote: String?

    public var out: Printer { session.printer }

    public func flag(_ name: String) -> Bool { flags.contains(name) }

    /// A `{QUERY}` word (a TARGET's form) in a query is the query in parentheses, so `ls {uber eats}` lists
    /// what `tag {uber eats} +x` tags, rather than looking for a merchant named `{uber`. Braces nest
    /// (`{{rewe} or {edeka}}`); a brace left over (`rewe}`, `({rewe})`) is an error, not a text to look for.
    static func openingBraces(_ words: [Word]) throws(ShellError) -> [Word] {
        guard words.contains(where: { !$0.isQuoted && ($0.text.contains("{") || $0.text.contains("}")) }) else { return words }
        var out: [Word] = []
        for w in words {
            guard !w.isQuoted, w.text.contains("{") || w.text.contains("}") else { out.append(w); continue }
            guard w.text.hasPrefix("{") && w.text.hasSuffix("}") && w.text.count >= 2 else {
                throw .usage("'\(w.text)': braces hold a whole query, {QUERY}, as a word of its own; "
                             + "quote a brace that is part of a text", span: w.span)
            }
            let inner: [Word]
            do throws(Lexer.Problem) { inner = try Lexer.words(in: String(w.text.dropFirst().dropLast())) } catch {
                throw .usage("\(w.text) is not a query", span: w.span)
            }
            guard !inner.isEmpty else { throw .usage("{} holds no query: write {QUERY}, e.g. {uber eats}", span: w.span) }
            let at = w.span.lowerBound + 1
            let shifted = inner.map { Word(text: $0.text, raw: $0.raw, span: ($0.span.lowerBound + at)..<($0.span.upperBound + at)) }
            out.append(Word(text: "(", raw: "(", span: w.span.lowerBound..<at))
            out += try openingBraces(Session.joiningBracesInWords(shifted))
            out.append(Word(text: ")", raw: ")", span: (w.span.upperBound - 1)..<w.span.upperBound))
        }
        return out
    }

    /// The whole-number value of an option.
    public func intValue(_ name: String) -> Int? {
        // Checked against the option's declared range before the command ran (`Session.check`).
        values[name].flatMap { Int($0.text) }
    }

    /// The query made of every positional word (empty = everything).
    public func query(_ words: [Word]? = nil) throws(ShellError) -> Query {
        let q: Query
        let words = try Self.openingBraces(Session.joiningBracesInWords(words ?? self.words))
        do throws(QueryError) { q = try QueryParser.parse(words, today: session.today()) } catch { throw .query(error) }
        // `ls -n 3`, a shell's habit, is a query for what holds no `n` (and `3`): most likely an option was meant.
        if let w = words.first(where: { !$0.isQuoted && $0.text.count == 2 && $0.text.first == "-" && $0.text.last!.isLetter }),
           !command.options.isEmpty {
            let letter = w.text.last!.lowercased()
            let option = command.options.first { $0.name.hasPrefix(letter) }
            out.note("note: '\(w.text)' finds the transactions without '\(letter)'; an option takes two dashes ("
                     + (option.map { "--\($0.name)" } ?? "`help \(command.name)` lists them") + ")")
        }
        // A category that does not exist matches nothing by construction: say so rather than count 0.
        if let ledger = session.ledger {
            for name in q.categoryNames where ledger.categories.id(of: name) == nil {
                let close = categoryNear(name, in: ledger, edits: max(2, name.count / 2))
                let at = words.first { $0.text.lowercased().contains(name) && $0.text.lowercased().contains("cat") }
                // Named as typed (the query holds names lower-cased).
                let typed = at.flatMap { w in
                    w.text.indices.lazy.compactMap { i in
                        let rest = w.text[i...]
                        return rest.lowercased().hasPrefix(name) ? String(rest.prefix(name.count)) : nil
                    }.first
                } ?? name
                throw .usage("there is no category '\(TextSafety.sanitize(typed))'"
                             + (close.map { ": did you mean '\(TextSafety.sanitize($0))'?" } ?? " (`categories` lists them)"), span: at?.span)
            }
        }
        for name in q.columnNames where !session.files.contains(where: { $0.document.columnIndex(named: name) != nil }) {
            let headers = session.files.compactMap { f -> [String]? in
                if case .csv(let l) = f.document.layout { return l.header }
                return nil
            }
            let columns = headers.isEmpty ? nil : headers.flatMap { $0 }
            let at = words.first { $0.text.lowercased().contains("col:" + name.lowercased()) }
            throw .usage("no column '\(TextSafety.sanitize(name))'" + (columns.map { " (columns: \($0.map(TextSafety.sanitize).joined(separator: ", ")))" }
                         ?? ": only CSV files have columns of their own"), span: at?.span)
        }
        if q.usesSelection && session.selection == nil {
            let at = words.first { $0.text == "@" }
            throw .usage("there is no selection yet: `ls` or `select` sets @", span: at?.span)
        }
        return q
    }

    /// The rows of the ledger that `query` matches, `@` included.
    public func rows(matching query: Query, in ledger: Ledger) -> RowSet {
        var evaluator = QueryEvaluator(ledger: ledger, selection: session.selection ?? [])
        evaluator.columnValues = session.columnValues
        return evaluator.rows(matching: query)
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

    /// The same error with its caret moved `offset` characters right (a query read from inside a `{QUERY}` target).
    func shifted(by offset: Int) -> ShellError {
        func move(_ r: Range<Int>?) -> Range<Int>? { r.map { ($0.lowerBound + offset)..<($0.upperBound + offset) } }
        switch self {
        case .usage(let m, let span): return .usage(m, span: move(span))
        case .query(var q): q.span = move(q.span) ?? q.span; return .query(q)
        default: return self
        }
    }

    /// The exit status this failure gives from the command line (sysexits.h).
    public var exitStatus: Int32 {
        switch self {
        case .diagnostic(let d) where d.file != nil && d.line != nil: 65
        case .file(let f): f.whileWriting ? 74 : 66
        default: 1
        }
    }
}
