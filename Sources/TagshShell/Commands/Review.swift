import TagshModel
import TagshQuery
import TagshRules

extension Commands {
    static let review: Command = Command(
        name: "review", group: .annotating, forms: [[.optional([.query])]],
        summary: "triage transactions one at a time, with single keys",
        details: """
            Shows one transaction at a time: its date, merchant, amount, account, annotations, note, the \
            file's own fields, the last transactions of the same merchant and the suggestions with their \
            reasons. QUERY chooses the queue (default: transactions with no intent or no category), oldest \
            first unless --sort says otherwise. Every key runs an ordinary command (`intent 412 want`, \
            `tag 412 +coffee`), so undo, history, blame, record and the recovery journal see it; leaving \
            prints what was reviewed, changed and skipped. The keys: \
            \(ReviewLoop.bindings.map { "\($0.keys) \($0.help)" }.joined(separator: "; ")). \
            review needs a terminal: in a script, use the commands the keys run.
            """,
        options: [.init("sort", .choice(["date", "amount", "merchant"]), "the queue's order (default date, oldest first)")],
        examples: ["review", "review intent:none", "review desc:/uber/ --sort amount"]
    ) { (inv: inout Invocation) throws(ShellError) in
        guard let console = inv.session.console, inv.session.sourceStack.isEmpty, inv.session.loading == nil else {
            throw .failed("review is interactive and needs a terminal; in a script, run the commands its keys run "
                          + "(intent ID VALUE, tag ID +TAG, category ID NAME, note ID TEXT)")
        }
        let ledger = try inv.requireLedger()
        let query = try inv.query(inv.words.isEmpty ? ((try? Lexer.words(in: "intent:none or cat:none")) ?? []) : inv.words)
        let sort = inv.values["sort"]?.text ?? "date"
        var rows = inv.rows(matching: query, in: ledger).rows
        switch sort {
        case "amount": rows.sort { (ledger.amount($0), $0) < (ledger.amount($1), $1) }
        case "merchant": rows.sort { (ledger.merchants[ledger.merchant[$0]].lowercased(), $0) < (ledger.merchants[ledger.merchant[$1]].lowercased(), $1) }
        default: rows.sort { (ledger.days[$0], $0) < (ledger.days[$1], $1) }
        }
        if rows.isEmpty {
            inv.out.line("nothing to review: no transaction matches")
            return
        }
        var loop = ReviewLoop(session: inv.session, console: console, queue: rows,
                              title: inv.words.isEmpty ? "no intent or no category" : inv.words.map(\.raw).joined(separator: " "))
        loop.run()
    }
}

/// The `review` loop: draws one transaction, reads one key, runs the command
/// the key stands for through `Session.execute`, and moves on.
struct ReviewLoop {
    enum Action: Sendable { case intent(Intent), accept, addTags, removeTags, category, note, editNote, skip, back, undo, applyToMerchant, makeRule, help, quit }

    /// The key bindings: one table, shown by `?`, `help review` and the man page.
    static let bindings: [(keys: String, help: String, action: Action, match: @Sendable (Key) -> Bool)] = [
        ("n", "intent need, next", .intent(.need), { $0 == .character("n") }),
        ("w", "intent want, next", .intent(.want), { $0 == .character("w") }),
        ("c", "intent culture, next", .intent(.culture), { $0 == .character("c") }),
        ("u", "intent unexpected, next", .intent(.unexpected), { $0 == .character("u") }),
        ("Enter", "accept the suggestions shown, next", .accept, { $0 == .enter }),
        ("+", "add tags (Tab completes)", .addTags, { $0 == .character("+") }),
        ("-", "remove tags", .removeTags, { $0 == .character("-") }),
        ("/", "set the category (Tab completes; a new name is offered)", .category, { $0 == .character("/") }),
        ("\"", "edit the note", .note, { $0 == .character("\"") }),
        ("e", "edit the note in $VISUAL or $EDITOR", .editNote, { $0 == .character("e") }),
        ("Space", "skip", .skip, { $0 == .space || $0 == .character(" ") || $0 == .down }),
        ("Backspace", "back one", .back, { $0 == .backspace || $0 == .up }),
        ("U", "undo the last step", .undo, { $0 == .character("U") }),
        ("a", "do the last decision to every later transaction of this merchant in the queue", .applyToMerchant, { $0 == .character("a") }),
        ("r", "make the last decision a rule for this merchant (preview first)", .makeRule, { $0 == .character("r") }),
        ("?", "list the keys", .help, { $0 == .character("?") }),
        ("q", "leave (also Esc, Ctrl-D, Ctrl-C)", .quit, { [.character("q"), .escape, .endOfInput, .interrupt].contains($0) }),
    ]

    let session: Session
    let console: Console
    var queue: [Int]
    let title: String
    var position = 0
    /// For each key that made steps: where it was pressed and how many steps it made.
    var log: [(position: Int, steps: Int)] = []
    /// The last decision on the current merchant, as a command with ID where the ids go.
    var decision: (verb: String, arguments: String, actions: String)?
    var status = ""
    var visited = Set<Int>()
    /// The queue's annotations when the review began, to count what it changed (undone steps excluded).
    let initial: [(row: Int, intent: UInt8, category: UInt32, tags: UInt32, note: UInt32)]
    var skipped = 0
    let started: Int
    /// Rows by merchant, built once, so drawing a transaction does not scan the ledger.
    let byMerchant: KeyedGroups?

    init(session: Session, console: Console, queue: [Int], title: String) {
        self.session = session
        self.console = console
        self.queue = queue
        self.title = title
        started = session.clock()
        byMerchant = session.ledger.map(KeyedGroups.init(rowsByMerchantOf:))
        let l = session.ledger
        initial = l.map { l in queue.map { ($0, l.intent[$0], l.category[$0], l.tagSet[$0], l.note[$0]) } } ?? []
    }

    /// How many of the queue's transactions differ from when the review began.
    var changedCount: Int {
        guard let l = session.ledger else { return 0 }
        return initial.filter { l.intent[$0.row] != $0.intent || l.category[$0.row] != $0.category || l.tagSet[$0.row] != $0.tags
                                || l.note[$0.row] != $0.note }.count
    }

    var out: Printer { session.printer }
    var style: Style { session.style }

    mutating func run() {
        while position < queue.count {
            draw()
            workAhead()
            let key = console.readKey()
            guard let binding = ReviewLoop.bindings.first(where: { $0.match(key) }) else {
                status = "\(key.name): not a review key (? lists them)"
                continue
            }
            if case .quit = binding.action { break }
            perform(binding.action)
        }
        console.leave()
        finish(done: position >= queue.count)
    }

    /// While the screen is read: the next transaction's suggestions worked out, so that Space draws it from what
    /// was counted, not after counting its merchant's, its alike names' and its words' rows (5-15 ms a key on a
    /// million rows each with its own merchant; 50-85 ms for a group not seen before). A key that changes a
    /// transaction brings the counts kept for its merchant, alike names and words up to date (`LiveEvidence.update`),
    /// so what was counted ahead still holds. Nothing is shown and nothing changes but what the index keeps.
    func workAhead() {
        guard position + 1 < queue.count else { return }
        _ = session.suggestions(row: queue[position + 1])
    }

    var row: Int { queue[position] }
    /// The note of the transaction on screen ("" for none).
    var currentNote: String { session.ledger.map { l in l.note[row] == 0 ? "" : l.notes[l.note[row]] } ?? "" }
    var id: Int { row + 1 }

    mutating func perform(_ action: Action) {
        switch action {
        case .intent(let i):
            if run("intent \(id) \(i)") { decision = ("intent", "\(i)", "intent \(i)"); next() }
        case .accept:
            let suggestions = session.suggestions(row: row)
            if suggestions.isEmpty { status = "nothing to accept: no suggestion"; next(); return }
            var steps = 0
            for s in suggestions where runCounted(s.command(for: id)) { steps += 1 }
            if steps > 0 { log.append((position, steps)) }
            status = "accepted \(plural(steps, "suggestion"))"
            next()
        case .addTags, .removeTags:
            let add = { if case .addTags = action { return true } else { return false } }()
            let tags = session.ledger.map { l in add ? (session.completionData()?.tags ?? []) : l.tagNames(row) } ?? []
            guard let text = console.readLine(prompt: add ? "add tags: +" : "remove tags: -", initial: "", complete: ReviewLoop.completer(tags)) else {
                status = "cancelled"
                return
            }
            let names = text.split(separator: " ").map { String($0.drop { $0 == "+" || $0 == "-" }) }.filter { !$0.isEmpty }
            guard !names.isEmpty else { status = "no tag given"; return }
            let arguments = names.map { (add ? "+" : "-") + $0 }.joined(separator: " ")
            if run("tag \(id) \(arguments)") { decision = ("tag", arguments, names.map { (add ? "+" : "-") + $0 }.joined(separator: ", ")) }
        case .category:
            let names = session.completionData()?.categories ?? []
            guard let text = console.readLine(prompt: "category: ", initial: "", complete: ReviewLoop.completer(names)), !text.trimmingCharacters(in: " ").isEmpty else {
                status = "cancelled"
                return
            }
            let name = text.trimmingCharacters(in: " ")
            if session.ledger?.categories.id(of: name) == nil && name.lowercased() != "none" {
                status = "no category '\(TextSafety.sanitize(name))': press y to create it"
                draw()
                guard console.readKey() == .character("y"), run("category new \(Lexer.quote(name))") else { status = "not created"; return }
            }
            if run("category \(id) \(Lexer.quote(name))") { decision = ("category", Lexer.quote(name), "category \(Lexer.quote(name))") }
        case .note:
            let current = currentNote
            guard let text = console.readLine(prompt: "note: ", initial: current, complete: { _ in (0, []) }) else { status = "cancelled"; return }
            if text == current { status = "note unchanged"; return }
            _ = run("note \(id) \(Lexer.quote(text))")
        case .editNote:
            let current = currentNote
            guard let edited = console.edit(current) else { status = "the editor failed; the note is unchanged"; return }
            let text = edited.split(separator: "\n", omittingEmptySubsequences: false).first.map(String.init) ?? ""
            if text == current { status = "note unchanged"; return }
            _ = run("note \(id) \(Lexer.quote(text))")
        case .skip:
            skipped += 1
            visited.insert(position)
            status = "skipped"
            next()
        case .back:
            if position > 0 { position -= 1; status = "back" } else { status = "this is the first" }
        case .undo:
            guard let last = log.popLast() else { status = "nothing to undo in this review"; return }
            let (s, o, e) = session.executeCaptured("undo \(last.steps)")
            let undone = (e.isEmpty ? o : e).split(separator: "\n").compactMap { l -> String? in
                guard l.hasPrefix("undid: ") else { return nil }
                return String(l.dropFirst(7).split(separator: "  [", maxSplits: 1, omittingEmptySubsequences: false).first ?? "")
            }
            status = s == .ok ? "undid " + undone.joined(separator: ", ") : "undo failed: " + firstLine(e)
            position = last.position
        case .applyToMerchant:
            guard let d = decision, let ledger = session.ledger else { status = "no decision to repeat yet"; return }
            let merchant = ledger.merchant[row]
            let later = queue[(position + 1)...].filter { ledger.merchant[$0] == merchant }
            guard !later.isEmpty else { status = "no later transaction of this merchant in the queue"; return }
            if run("\(d.verb) \(later.map { String($0 + 1) }.joined(separator: ",")) \(d.arguments)") {
                queue = queue[...position] + queue[(position + 1)...].filter { ledger.merchant[$0] != merchant }
                status += " (\(plural(later.count, "later transaction")) of this merchant done)"
            }
        case .makeRule:
            makeRule()
        case .help:
            draw()
            let width = max(40, console.size.columns)
            for b in ReviewLoop.bindings { out.line(TextSafety.truncate("  " + TextSafety.pad(b.keys, 10) + b.help, toWidth: width)) }
            out.line(style.dim("press a key"))
            _ = console.readKey()
        case .quit:
            break
        }
    }

    mutating func makeRule() {
        guard let d = decision, let ledger = session.ledger else { status = "no decision to make a rule of yet"; return }
        let merchant = ledger.merchants[ledger.merchant[row]]
        let pattern = "desc:/^" + ReviewLoop.regexEscaped(merchant) + "$/"
        let query = Lexer.quote(pattern)
        var name = String(merchant.lowercased().map { $0.isLetter || $0.isNumber ? $0 : "-" })
        while name.contains("--") { name = name.replacingAll("--", with: "-") }
        name = String(name.trimmingCharacters(in: "-").prefix(24))
        if name.isEmpty || session.rules.contains(where: { $0.name == name }) { name = "review-\(session.rules.count + 1)" }
        let (_, preview, _) = session.executeCaptured("preview \(query) => \(d.actions)")
        draw()
        out.line(preview)
        out.line("define rule \(name) \(query) => \(d.actions)? y defines it, A defines and applies it, another key does neither")
        switch console.readKey() {
        case .character("y"): _ = run("rule \(name) \(query) => \(d.actions)")
        case .character("A"):
            if run("rule \(name) \(query) => \(d.actions)") { _ = run("apply \(name)") }
        default: status = "no rule defined"
        }
    }

    mutating func next() {
        visited.insert(position)
        position += 1
    }

    /// Runs a command, records it as one step of the loop, and says what it did in the status line.
    mutating func run(_ line: String) -> Bool {
        let before = session.position
        let (s, o, e) = session.executeCaptured(line)
        let made = session.position - before
        if made > 0 {
            log.append((position, made))
            visited.insert(position)
        }
        // "intent want: 1 transaction changed" says again what the command says: keep what it did.
        let said = s == .ok ? firstLine(e.isEmpty ? o : e) : firstLine(e)
        let what = s == .ok ? (said.split(separator: ": ", omittingEmptySubsequences: false).last.map(String.init) ?? said) : said
        status = TextSafety.sanitize(line) + " — " + what
        return s == .ok
    }

    /// Runs a command that is part of a larger key (Enter); the caller records the steps.
    mutating func runCounted(_ line: String) -> Bool {
        let before = session.position
        _ = session.executeCaptured(line)
        return session.position > before
    }

    func firstLine(_ s: String) -> String {
        String(s.split(separator: "\n").first ?? "").replacingAll("error: ", with: "")
    }

    var rate: String {
        let minutes = Double(session.clock() - started) / 60
        return minutes > 0 ? String(Int((Double(visited.count) / minutes).rounded())) + "/min" : "–/min"
    }

    func draw() {
        guard let ledger = session.ledger else { return }
        let width = max(40, console.size.columns)
        func line(_ s: String) { out.line(TextSafety.truncateStyled(s, toWidth: width)) }
        if console.redraws { out.text("\u{1B}[H\u{1B}[2J") } else { out.line(String(repeating: "─", count: min(width, 60))) }
        let t = ledger.transaction(row)
        line(style.bold("review \(position + 1)/\(queue.count)") + "  " + TextSafety.sanitize(title) + "  " + style.dim(rate))
        let amount = TextSafety.sanitize(Render.amount(t.amount, currency: t.currency))
        line("\(t.day)  " + style.bold(TextSafety.truncate(TextSafety.sanitize(t.merchant), toWidth: max(10, width - 24))) + "  " + amount)
        if !t.account.isEmpty { line(style.dim("account ") + TextSafety.sanitize(t.account)) }
        var chips: [String] = []
        chips.append(t.intent.map { style.paint("[\($0)]", $0.color) } ?? style.dim("[no intent]"))
        if let c = t.category {
            chips.append(style.paint("[" + TextSafety.sanitize(c) + "]", ledger.categories.id(of: c).flatMap { ledger.categories[$0].color }))
        } else {
            chips.append(style.dim("[no category]"))
        }
        chips += t.tags.map { "#" + TextSafety.sanitize($0) }
        line(chips.joined(separator: " "))
        if let n = t.note { line(style.dim("note ") + TextSafety.sanitize(n)) }
        let fields = session.originalFields(row: row)
        if !fields.isEmpty {
            line(style.dim("file ") + fields.filter { !$0.value.isEmpty }.map { TextSafety.sanitize($0.name) + "=" + TextSafety.sanitize($0.value) }
                .joined(separator: " · "))
        }
        let same = (byMerchant?[ledger.merchant[row]] ?? []).lazy.map { Int($0) }.filter { $0 != row && ledger.days[$0] <= ledger.days[row] }.suffix(3)
        if !same.isEmpty {
            line(style.dim("same merchant"))
            for r in same.reversed() {
                let p = ledger.transaction(r)
                line("  \(p.day)  " + TextSafety.pad(TextSafety.sanitize(Render.amount(p.amount, currency: p.currency)), 12, alignRight: true) + "  "
                     + [p.intent.map { "\($0)" } ?? "–", p.category.map(TextSafety.sanitize) ?? "–"].joined(separator: "  ")
                     + p.tags.map { "  #" + TextSafety.sanitize($0) }.joined())
            }
        }
        let suggestions = session.suggestions(row: row)
        if !suggestions.isEmpty {
            line(style.dim("suggested (Enter accepts)"))
            for s in suggestions.prefix(4) {
                line("  " + TextSafety.pad(s.label, 18) + "  " + Settings.decimal(s.confidence) + "  " + TextSafety.sanitize(s.evidence))
            }
        }
        // The keys that fit the width, most used first.
        var footer = ""
        for item in ["n w c u intent", "Enter accept", "+ - tags", "/ category", "\" note", "Space skip", "U undo", "q quit"] {
            let next = footer.isEmpty ? item : footer + " · " + item
            if TextSafety.displayWidth(next) + 9 > width { break }
            footer = next
        }
        line(style.dim(footer + " · ? keys"))
        if !status.isEmpty { line(style.dim("last: ") + status) }
        session.sinkFlush()
    }

    func finish(done: Bool) {
        let seconds = session.clock() - started
        let time = seconds >= 60 ? "\(seconds / 60)m\(seconds % 60 < 10 ? "0" : "")\(seconds % 60)s" : "\(seconds)s"
        out.line((done ? "review done: " : "review left: ")
                 + "reviewed \(visited.count) of \(queue.count), changed \(plural(changedCount, "transaction")), skipped \(skipped), "
                 + "\(time)" + (seconds > 0 ? ", \(rate)" : ""))
    }

    /// Candidates for the last word of a prompt line among `names`.
    static func completer(_ names: [String]) -> (String) -> (replacing: Int, candidates: [String]) {
        { text in
            let word = String(text.split(separator: " ", omittingEmptySubsequences: false).last ?? "")
            let bare = word.drop { $0 == "+" || $0 == "-" }
            let matches = names.filter { $0.lowercased().hasPrefix(bare.lowercased()) }
            return (bare.count, matches)
        }
    }

    static func regexEscaped(_ s: String) -> String {
        var out = ""
        for c in s {
            if "\\^$.|?*+()[]{}/".contains(c) { out.append("\\") }
            out.append(c)
        }
        return out
    }
}
