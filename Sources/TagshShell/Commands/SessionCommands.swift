#if canImport(Glibc)
import Glibc
#endif
import TagshModel

extension Commands {
    static let source: Command = Command(
        name: "source", group: .session, forms: [[.file]],
        summary: "run the commands in a file",
        details: """
            Runs each line of FILE as if typed at the prompt. `#` starts a comment line, a trailing \\ continues \
            a line, and words are quoted as in a POSIX shell. Errors name FILE:LINE. Sourcing may nest; a file \
            that would source itself is refused. The first failing command stops the file.
            """,
        examples: ["source cleanup.tagsh"]
    ) { (inv: inout Invocation) throws(ShellError) in
        guard let path = inv.words.first else { throw .usage("usage: source FILE", span: nil) }
        try inv.expectAtMost(1)
        try inv.session.source(path: path.text)
    }

    static let set: Command = Command(
        name: "set", group: .session, forms: [[.optional([.setting, .settingValue])]],
        summary: "show the settings, or change one",
        details: "Settings: " + Settings().all.map { "\($0.name) (\($0.help))" }.joined(separator: "; ")
            + ". max-tags and sample belong to the ledger: changing them is an undo step and they are kept in its sidecar.",
        examples: ["set", "set max-tags 12", "set color never", "set width 100"]
    ) { (inv: inout Invocation) throws(ShellError) in
        switch inv.words.count {
        case 0:
            let all = inv.session.settings.all
            let width = all.map { $0.name.count }.max() ?? 0
            for s in all { inv.out.line(TextSafety.pad(s.name, width) + "  " + s.value) }
        case 2:
            let name = inv.words[0].text.lowercased() == "colour" ? "color" : inv.words[0].text.lowercased()
            var settings = inv.session.settings
            let before = settings.all.first { $0.name == name }?.value
            if let problem = settings.set(name, inv.words[1].text) {
                throw .usage(problem, span: inv.words[problem.hasPrefix("unknown") ? 0 : 1].span)
            }
            if SettingEdit.persisted.contains(name) {
                // A setting kept in the sidecar is part of the ledger's state: an undo step like any other change.
                let after = settings.all.first { $0.name == name }?.value ?? ""
                var change = Change()
                if before != after { change.setting = SettingEdit(name: name, before: before ?? "", after: after) }
                let typed = inv.line.trimmingCharacters(in: " \t")
                _ = try inv.session.commit(change, command: typed, replay: "set \(name) \(after)", summary: "set \(name) \(after)")
            } else {
                _ = inv.session.setDisplay(name, inv.words[1].text)
            }
        default:
            throw .usage("usage: set NAME VALUE (or `set` alone to list)", span: inv.words.last?.span)
        }
    }

    static let echo: Command = Command(
        name: "echo", group: .session, forms: [[.optional([.rest("TEXT")])]],
        summary: "print the words, separated by spaces",
        examples: ["echo 'Coffee this year:'"]
    ) { (inv: inout Invocation) throws(ShellError) in
        inv.out.line(inv.words.map(\.text).joined(separator: " "))
    }

    static let help: Command = Command(
        name: "help", group: .session, forms: [[.optional([.command])]],
        summary: "list the commands, or explain one command or the query language",
        examples: ["help", "help ls", "help query"]
    ) { (inv: inout Invocation) throws(ShellError) in
        try inv.expectAtMost(1)
        let registry = inv.session.registry
        guard let w = inv.words.first else {
            inv.out.text(HelpText.overview(registry, style: inv.out.style))
            return
        }
        if ["query", "queries"].contains(w.text.lowercased()) {
            inv.out.text(HelpText.query)
            return
        }
        guard let command = registry.command(named: w.text) else {
            throw .unknownCommand(w.text, span: w.span, suggestion: registry.suggestion(for: w.text))
        }
        inv.out.text(HelpText.page(command, style: inv.out.style))
    }

    static let quit: Command = Command(
        name: "quit", aliases: ["exit"], group: .session, forms: [[]],
        summary: "leave tagsh (with unsaved changes, the first quit warns)",
        details: "Ctrl-D on an empty line does the same. At the prompt, with unsaved changes, the first quit warns and a second one in a row discards them. In a script, quit ends the script at once; unsaved changes to a file are then discarded, with a note (a script keeps them with `save`).",
        examples: ["quit"]
    ) { (inv: inout Invocation) throws(ShellError) in
        try inv.expectAtMost(0)
        if inv.session.isInteractive { try inv.session.warnBeforeDiscarding("quit", again: "quit again") }
        inv.quit = true
    }
}

extension Commands {
    static let include: Command = Command(
        name: "include", group: .rules, forms: [[.file]],
        summary: "use a rules file shared across ledgers: its rules and categories load now and are saved back to it",
        details: """
            Sources FILE like the sidecar (quietly, going on past a bad line), and from then on keeps what it \
            declares there: `save` writes its rules and categories back to FILE, new rules go to it, and the \
            sidecar of the first open file gets an `include FILE` line, so the next session loads it too. \
            `tagsh --rules FILE` does the same for one session, and $XDG_CONFIG_HOME/tagsh/rules.tagsh, when it \
            exists, is included for every ledger.
            """,
        examples: ["include ~/finance/rules.tagsh"]
    ) { (inv: inout Invocation) throws(ShellError) in
        guard let w = inv.words.first else { throw .usage("usage: include FILE", span: nil) }
        try inv.expectAtMost(1)
        let session = inv.session
        _ = try inv.requireLedger()
        var path = w.text
        if path.hasPrefix("~/"), let home = getenv("HOME") { path = String(cString: home) + path.dropFirst() }
        guard session.addRulesStore(path, name: w.text) else {
            if session.loading == nil { inv.out.note("\(TextSafety.sanitize(path)) is already in use") }
            return
        }
        // Loaded now at the prompt; while a sidecar loads, the loop in `loadDeclarations` sources it next.
        if session.loading == nil {
            let index = session.stores.count - 1
            let before = session.rules.count
            session.load(store: index)
            session.stores[index].baseline = Sidecar.byKey(session.declarations(forStore: index))
            inv.out.note("included \(TextSafety.sanitize(path)): \(plural(session.rules.count - before, "rule"))")
        }
    }
}

extension Commands {
    static let edit: Command = Command(
        name: "edit", group: .session, forms: [[]],
        summary: "edit the last command line in $VISUAL or $EDITOR, then run what you wrote",
        details: """
            Opens the last line typed (the one that failed, most often) in $VISUAL, else $EDITOR, else vi, as \
            psql's \\e does. When the editor exits, every line of the file runs as if typed, in order; an empty \
            file runs nothing. At the prompt, Ctrl-X Ctrl-E opens the line being typed instead and puts the \
            result back on the line. edit needs a terminal.
            """,
        examples: ["edit"]
    ) { (inv: inout Invocation) throws(ShellError) in
        try inv.expectAtMost(0)
        let session = inv.session
        guard let console = session.console else {
            throw .failed("edit needs a terminal: it opens $VISUAL or $EDITOR")
        }
        guard let edited = console.edit(session.lastCommandLine ?? "") else {
            throw .failed("the editor failed, or left no file: nothing ran")
        }
        var failed = false
        for line in edited.split(separator: "\n", omittingEmptySubsequences: true) {
            let text = String(line)
            guard !text.allSatisfy({ $0 == " " || $0 == "\t" }) else { continue }
            session.printer.line(session.style.dim("> " + text))
            if case .failed = session.execute(text) { failed = true }
        }
        if failed { throw .failed("a command from the editor failed") }
    }
}
