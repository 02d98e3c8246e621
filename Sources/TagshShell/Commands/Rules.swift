import TagshFormats
import TagshModel
import TagshQuery
import TagshRules

extension Commands {
    static let rule: Command = Command(
        name: "rule", group: .rules, forms: [[.value("NAME"), .query, .keyword("=>"), .actions], [.keyword("show"), .rule(many: false)], [.keyword("delete"), .rule(many: false)]],
        summary: "define or replace a rule; show or delete one",
        details: """
            A rule is a recurring decision: a query and the actions for what it matches. Actions are \
            `category NAME`, `intent VALUE`, `+tag`, `-tag` and `note TEXT`, separated by commas. Defining a \
            rule changes no transaction: `preview` shows what it would do and `apply` does it. Defining, \
            replacing and deleting a rule are undo steps. Rules are kept, when the ledger is saved, where they \
            came from: the sidecar LEDGER.tagsh, or a rules file shared across ledgers and months (`tagsh --rules FILE`, \
            $XDG_CONFIG_HOME/tagsh/rules.tagsh when it exists, or `include FILE` in a sidecar); a new rule goes to \
            the rules file when there is one, and `rule` says where. A rule's query cannot use @ (the selection is gone when the rule is next applied). \
            A category that does not exist yet is noted when the rule is defined (with the one most likely meant), and \
            `preview` and `apply` refuse the rule until `category new` makes it. After =>, Tab completes the actions' \
            names, then a category or an intent, and a tag after + or -.
            """,
        examples: ["rule coffee desc:/starbucks|blue bottle/ => category Food, +coffee, intent want",
                   "rule show coffee", "rule delete coffee"]
    ) { (inv: inout Invocation) throws(ShellError) in
        _ = try inv.requireLedger()
        guard let first = inv.words.first else { throw .usage("usage: rule \(inv.command.usage)", span: nil) }
        let session = inv.session
        let sub = first.text.lowercased()
        if sub == "show" || sub == "delete" {
            guard inv.words.count == 2 else { throw .usage("usage: rule \(sub) NAME", span: inv.words.last?.span) }
            let w = inv.words[1]
            guard let i = session.rules.firstIndex(where: { $0.name == w.text }) else {
                throw .usage("no rule '\(TextSafety.sanitize(w.text))'" + ruleNamesHint(session), span: w.span)
            }
            if sub == "show" {
                let rule = session.rules[i]
                inv.out.line(rule.definition)
                let (plan, _) = try inv.plan([rule])
                inv.out.line("  matches \(plural(plan.matched, "transaction")); \(plan.changedCount) would change")
            } else {
                var change = Change()
                change.rules = [RuleEdit(index: i, before: session.rules[i], after: nil)]
                let typed = inv.line.trimmingCharacters(in: " \t")
                try session.commit(change, command: typed, replay: "rule delete \(Lexer.quote(w.text))", summary: "rule delete \(w.text)")
                inv.out.note("deleted rule \(w.text)")
            }
        } else {
            guard RuleParser.validName(first.text), !["show", "delete", "check"].contains(first.text.lowercased()) else {
                throw .usage("a rule name is 1 to 64 letters, digits and - _ . / (and not show, delete or check)", span: first.span)
            }
            let rule = try inv.parseRule(name: first.text, Array(inv.words.dropFirst()))
            if rule.query.usesSelection {
                let at = inv.words.first { $0.text == "@" }
                throw .usage("a rule cannot use @: the selection is gone when the rule is next applied; use a query, or `apply @ => ...` once",
                             span: at?.span)
            }
            var change = Change()
            let existing = session.rules.firstIndex { $0.name == rule.name }
            if let i = existing, session.rules[i] == rule {
                inv.out.note("rule \(rule.name) is already defined so")
                return
            }
            change.rules = [RuleEdit(index: existing ?? session.rules.count, before: existing.map { session.rules[$0] }, after: rule)]
            let typed = inv.line.trimmingCharacters(in: " \t")
            try session.commit(change, command: typed, replay: rule.definition, summary: (existing == nil ? "rule " : "rule replaced ") + rule.name)
            var saved = ""
            if session.stores.count > 1, let home = session.ruleHome(rule.name) {
                saved = " (kept in \(TextSafety.sanitize(home)) at `save`)"
            }
            inv.out.note((existing == nil ? "defined rule \(rule.name)" : "replaced rule \(rule.name)") + saved)
            // A category that does not exist yet is said where the rule is typed, not first at its `preview`: the
            // rule is kept (a rules file shared by ledgers, read quietly, may name one only some of them have).
            let ledger = try inv.requireLedger()
            for case .category(let name?) in rule.actions where ledger.categories.id(of: name) == nil {
                let near = categoryNear(name, in: ledger).map { " (did you mean '\(TextSafety.sanitize($0))'?)" } ?? ""
                inv.out.note("note: no category '\(TextSafety.sanitize(name))' yet\(near): `preview` and `apply` refuse rule \(rule.name) "
                             + "until `category new \(Lexer.quoteForHint(name))` creates it")
            }
        }
    }

    static let rules: Command = Command(
        name: "rules", group: .rules, forms: [[], [.keyword("check")]],
        summary: "list the rules with their match counts, or check them for problems",
        details: """
            `rules check` reports rules that match nothing, rules fully shadowed by an earlier rule (it matches \
            only what the earlier one matches and does nothing the earlier one does not), and transactions on \
            which two rules set different values.
            """,
        options: [
            .init("json", "one JSON object per rule: name, query, actions and matches", form: .alone),
            .init("csv", "CSV with a header line: rule, matches, query, actions", form: .alone),
        ],
        examples: ["rules", "rules check", "rules --json"]
    ) { (inv: inout Invocation) throws(ShellError) in
        let ledger = try inv.requireLedger()
        let session = inv.session
        if let w = inv.words.first, w.text == "check" {
            try inv.expectAtMost(1)
            inv.out.text(RuleCheck.report(session.rules, ledger: ledger, selection: session.selection ?? [], columnValues: session.columnValues))
            return
        }
        try inv.expectAtMost(0)
        let json = inv.flag("json") || session.jsonOutput, csv = inv.flag("csv")
        if json || csv {
            if csv { inv.out.line("rule,matches,query,actions") }
            for rule in session.rules {
                let n = inv.rows(matching: rule.query, in: ledger).count
                let actions = rule.actions.map(\.description)
                if csv {
                    inv.out.line([rule.name, String(n), rule.queryText, actions.joined(separator: ", ")].map { Render.csvField($0) }.joined(separator: ","))
                } else {
                    inv.out.line("{\"rule\": \(Export.jsonString(rule.name)), \"matches\": \(n), \"query\": \(Export.jsonString(rule.queryText)), \"actions\": [\(actions.map(Export.jsonString).joined(separator: ", "))]}")
                }
            }
            return
        }
        if session.rules.isEmpty {
            inv.out.line("no rules yet: `rule NAME QUERY => ACTIONS` defines one")
            return
        }
        // With a rules file or several files open, where each rule is kept.
        let showFile = session.stores.count > 1
        var table = Table([
            .init(header: "RULE"), .init(header: "MATCHES", alignRight: true),
            .init(header: "QUERY => ACTIONS", shrinkable: true, minWidth: 20),
        ] + (showFile ? [.init(header: "FILE", shrinkable: true, minWidth: 8)] : []))
        for rule in session.rules {
            let n = inv.rows(matching: rule.query, in: ledger).count
            table.add([.init(rule.name), .init(String(n)),
                       .init(TextSafety.sanitize(rule.queryText + " => " + rule.actions.map(\.description).joined(separator: ", ")))]
                      + (showFile ? [.init(TextSafety.sanitize(session.ruleHome(rule.name) ?? ""))] : []))
        }
        inv.out.text(table.render(width: session.tableWidth, style: inv.out.style))
    }

    static let preview: Command = Command(
        name: "preview", group: .rules, forms: [[.rule(many: true)], [.query, .keyword("=>"), .actions], [.keyword("suggestions"), .optional([.query])]],
        summary: "show exactly what rules would change, changing nothing",
        details: """
            Prints how many transactions match and how many would change, the change per field \
            (category: none → Food ×150, +coffee ×187), a sample of the changed transactions as before → \
            after (5 by default, `set sample N`, --limit N, --all), and the transactions that would exceed \
            max-tags. With several rules: what each sets, and where a later rule overrides an earlier one. \
            Rules are applied in the order given; a later rule's category, intent or note replaces an earlier \
            one's, and tag changes add up. `preview suggestions [QUERY]` shows what accepting every suggestion \
            at or above --min-confidence (default: suggest-threshold) would change, for --fields (default \
            intent,category,tags): missing intents and categories are filled in (one already set is never \
            replaced) and tags added.
            """,
        options: [.init("limit", .integer("N", 0...Int.max), "show N changed transactions"), .init("all", "show every changed transaction"),
                  .init("min-confidence", .text("P"), "the lowest confidence accepted (0-1)", form: .keyword("suggestions")),
                  .init("fields", .text("LIST"), "which of intent,category,tags", form: .keyword("suggestions"))],
        examples: ["preview coffee", "preview coffee groceries", "preview desc:uber => category Transport, +ride",
                   "preview suggestions", "preview suggestions date:2025 --min-confidence 0.9 --fields category"]
    ) { (inv: inout Invocation) throws(ShellError) in
        _ = try inv.requireLedger()
        let isSuggestions = inv.words.first.map { $0.text == "suggestions" && !$0.isQuoted } ?? false
        let rules = isSuggestions ? [] : try inv.rulesFromWords()
        let (plan, working) = isSuggestions ? try inv.suggestionPlan() : try inv.plan(rules, replacingPreview: true)
        let session = inv.session
        session.lastPreview = (isSuggestions ? plan.rules : rules, session.ledgerVersion, session.selection, session.settings.maxTags,
                               session.columnsVersion, plan,
                               isSuggestions ? working : nil, inv.line)
        let limit = inv.flag("all") ? Int.max : inv.intValue("limit") ?? session.settings.sample
        inv.out.text(PreviewText.render(plan, ledger: working, style: inv.out.style, limit: limit,
                                        maxTags: session.settings.maxTags, width: session.tableWidth.map { $0 - 2 }))
    }

    static let apply: Command = Command(
        name: "apply", group: .rules, forms: [[.optional([.rule(many: true)])], [.query, .keyword("=>"), .actions], [.keyword("suggestions"), .optional([.query])]],
        summary: "apply rules as one undo step (alone: what the last preview showed)",
        details: """
            Changes exactly what `preview` shows for the same rules, as one step that `undo` takes back. \
            With no rule, applies what the last preview showed, once (a second `apply` alone says it was \
            applied); if the ledger or max-tags changed since (or the file was saved, for rules that read its \
            columns with `col:` or `file:`), says so and \
            works it out again. Applying the rules of the last preview, unchanged, on the same transactions \
            takes what it worked out. --all applies every rule in definition order. If any transaction would \
            exceed max-tags, nothing is applied. `apply suggestions [QUERY]` accepts every suggestion at or \
            above --min-confidence (default: suggest-threshold) for --fields, as one step.
            """,
        options: [.init("all", "apply every rule, in definition order", form: .alone),
                  .init("min-confidence", .text("P"), "the lowest confidence accepted (0-1)", form: .keyword("suggestions")),
                  .init("fields", .text("LIST"), "which of intent,category,tags", form: .keyword("suggestions"))],
        examples: ["apply", "apply coffee", "apply --all", "apply desc:uber => category Transport",
                   "apply suggestions --min-confidence 0.9"]
    ) { (inv: inout Invocation) throws(ShellError) in
        _ = try inv.requireLedger()
        let session = inv.session
        var rules: [Rule]
        var planned: (Plan, Ledger)?
        var previewed: String?
        if inv.words.first.map({ $0.text == "suggestions" && !$0.isQuoted }) ?? false {
            let (plan, working) = try inv.suggestionPlan()
            try inv.commitSuggestions(plan, working)
            return
        }
        if let last = session.lastPreview, inv.words.isEmpty, !inv.flag("all"), last.rules.first?.name == "suggestions",
           last.rules.first?.actions.isEmpty == true {
            guard last.version == session.ledgerVersion else {
                throw .failed("the ledger changed since `\(last.line)`: run it again, or `apply suggestions` with the same words")
            }
            guard last.maxTags == session.settings.maxTags else {
                throw .failed("max-tags changed since `\(last.line)`: run it again, or `apply suggestions` with the same words")
            }
            session.lastPreview = nil
            // Replayed (recovery, history --script), the step is the apply the preview stood for.
            if last.line.hasPrefix("preview") { inv.replayLine = "apply" + last.line.dropFirst(7) }
            let own = try inv.requireLedger()
            try inv.commitSuggestions(last.plan, last.tables ?? own)
            session.appliedPreview = last.line // (once applied: a refused apply has applied nothing)
            return
        }
        if inv.flag("all") {
            guard !session.rules.isEmpty else { throw .failed("there are no rules to apply") }
            rules = session.rules
        } else if inv.words.isEmpty {
            guard let last = session.lastPreview else {
                if let line = session.appliedPreview {
                    throw .failed("`\(line)` was applied already (`undo` takes it back): `preview RULE` first, or `apply RULE`")
                }
                throw .failed("nothing was previewed: `preview RULE` first, or `apply RULE`")
            }
            rules = last.rules
            previewed = last.line
            if let stale = session.whyPreviewIsStale(last) {
                inv.out.note(stale + "; working it out again")
            } else {
                let own = try inv.requireLedger()
                planned = (last.plan, last.tables ?? own)
            }
        } else {
            rules = try inv.rulesFromWords()
            // The rules the last preview showed, as they were then (their queries as read now: `date:today` after
            // midnight is another day), on the same transactions, selection and original columns (a save reads
            // the file back) with the same max-tags: its plan is what working them out again would give (on a
            // million rows each with its own tag set, `preview r` then `apply r` worked out the same half a million
            // new sets twice).
            if let last = session.lastPreview, last.tables == nil, session.whyPreviewIsStale(last) == nil, last.rules == rules {
                planned = (last.plan, try inv.requireLedger())
            }
        }
        let (final, working): (Plan, Ledger)
        if let planned { (final, working) = planned } else { (final, working) = try inv.plan(rules) }
        if !final.overflow.isEmpty {
            throw .failed("nothing applied: \(plural(final.overflow.count, "transaction")) would hold more than max-tags "
                          + "(\(session.settings.maxTags)) tags: \(idList(final.overflow)) (`set max-tags N` raises the limit)")
        }
        if !final.noCategory.isEmpty {
            throw .failed("nothing applied: \(plural(final.noCategory.count, "transaction")) cannot take a category "
                          + "(more than two postings, or no expense or income posting): \(idList(final.noCategory))")
        }
        session.lastPreview = nil
        // The replay line defines the rules it needs, so scripts and the journal stand alone.
        let names = rules.map(\.name)
        if rules.count == 1 && rules[0].name == adHocName {
            inv.replayLine = "apply " + rules[0].queryText + " => " + rules[0].actions.map(\.description).joined(separator: ", ")
        } else {
            inv.replayLine = rules.map(\.definition).joined(separator: "\n") + "\napply " + names.joined(separator: " ")
        }
        // (Counted in one pass: a closure reading `final` per change copied the whole plan each time.)
        var perField = [Int](repeating: 0, count: ChangeSet.Field.allCases.count)
        for f in final.changes.fields { perField[Int(f.rawValue)] += 1 }
        let fields = ChangeSet.Field.allCases.compactMap { f -> String? in
            let n = perField[Int(f.rawValue)]
            return n == 0 ? nil : "\(f) \(n)"
        }
        try inv.reportCommit(Change(ledger: final.changes, tables: working), summary: "apply \(names.joined(separator: " "))"
                             + (fields.isEmpty ? "" : " [" + fields.joined(separator: ", ") + "]"))
        session.appliedPreview = previewed // (once applied: a refused apply has applied nothing)
    }
}

extension Rule {
    /// A rule's query as typed, spacing included (a regex may hold several spaces); an empty one matches everything.
    static func queryText(of words: [Word], in line: String) -> String {
        guard let first = words.first, let last = words.last else { return "date:..9999" }
        let chars = Array(line)
        return String(chars[first.span.lowerBound..<min(chars.count, last.span.upperBound)])
    }
}

extension Session {
    /// What changed since the last preview that its plan depends on, as `apply` says it (nil: nothing): the transactions or the
    /// selection, max-tags, or the files' own columns when its rules read them (`col:`, `file:`; a save reads the
    /// files back).
    func whyPreviewIsStale(_ last: Preview) -> String? {
        if last.version != ledgerVersion || last.selection != selection { return "the ledger changed since the preview" }
        if last.maxTags != settings.maxTags { return "max-tags changed since the preview" }
        if last.columns != columnsVersion && last.rules.contains(where: { $0.query.readsColumns }) {
            return "the files were read again since the preview (a save), and the rules read their columns"
        }
        return nil
    }
}

/// The name a `QUERY => ACTIONS` rule typed in place carries in previews.
let adHocName = "(ad hoc)"

func ruleNamesHint(_ session: Session) -> String {
    session.rules.isEmpty ? " (there are no rules)" : " (rules: \(session.rules.map(\.name).joined(separator: ", ")))"
}

extension Invocation {
    /// The plan of `preview suggestions` / `apply suggestions`: the words after `suggestions` are the query.
    func suggestionPlan() throws(ShellError) -> (Plan, Ledger) {
        guard var working = session.ledger else { throw .noLedger }
        let query = try self.query(Array(words.dropFirst()))
        let rows = self.rows(matching: query, in: working).rows
        var minimum = session.settings.suggestThreshold
        if let p = values["min-confidence"] {
            guard let v = Double(p.text), v >= 0, v <= 1 else { throw .usage("--min-confidence takes a number from 0 to 1, such as 0.9", span: p.span) }
            minimum = v
        }
        var fields = Set(SuggestIndex.Field.allCases)
        if let f = values["fields"] {
            fields = []
            for name in f.text.split(separator: ",") {
                guard let field = SuggestIndex.Field.allCases.first(where: { $0.description == name.lowercased() || ($0 == .tags && name.lowercased() == "tag") }) else {
                    throw .usage("--fields takes intent, category and tags, separated by commas", span: f.span)
                }
                fields.insert(field)
            }
        }
        let maxTags = session.settings.maxTags
        let interrupted = session.interrupted
        guard let planned = session.withSuggestIndex({ index, _ in
            index.plan(ledger: &working, rows: rows, minConfidence: minimum, fields: fields, maxTags: maxTags, interrupted: interrupted)
        }) else { throw .noLedger }
        guard let plan = planned else { throw .interrupted }
        return (plan, working)
    }

    /// Commits accepted suggestions as one step.
    func commitSuggestions(_ plan: Plan, _ working: Ledger) throws(ShellError) {
        if !plan.overflow.isEmpty {
            throw .failed("nothing applied: \(plural(plan.overflow.count, "transaction")) would hold more than max-tags "
                          + "(\(session.settings.maxTags)) tags: \(idList(plan.overflow)) (`set max-tags N` raises the limit, or --fields leaves tags out)")
        }
        let fields = ChangeSet.Field.allCases.compactMap { f -> String? in
            let n = (0..<plan.changes.count).filter { plan.changes.fields[$0] == f }.count
            return n == 0 ? nil : "\(f) \(n)"
        }
        try reportCommit(Change(ledger: plan.changes, tables: working), summary: "apply suggestions"
                         + (fields.isEmpty ? "" : " [" + fields.joined(separator: ", ") + "]"))
    }

    /// Reads `QUERY => ACTIONS` into a rule.
    func parseRule(name: String, _ words: [Word]) throws(ShellError) -> Rule {
        guard let (queryWords, arrow, actionWords) = RuleParser.split(words) else {
            throw .usage("a rule is QUERY => ACTION, ...; there is no =>", span: words.last?.span ?? nameWord.span)
        }
        let query = try self.query(queryWords)
        let actions: [Action]
        do throws(RuleError) { actions = try RuleParser.actions(actionWords, arrow: arrow) } catch {
            throw .usage(error.message, span: error.span)
        }
        return Rule(name: name, queryText: Rule.queryText(of: queryWords, in: line), query: query, actions: actions)
    }

    /// Named rules, or one ad hoc rule written out (`QUERY => ACTIONS`).
    func rulesFromWords() throws(ShellError) -> [Rule] {
        if RuleParser.split(words) != nil { return [try parseRule(name: adHocName, words)] }
        guard !words.isEmpty else { throw .usage("name a rule, or write QUERY => ACTIONS", span: nil) }
        var found: [Rule] = []
        for w in words {
            guard let r = session.rules.first(where: { $0.name == w.text }) else {
                throw .usage("no rule '\(TextSafety.sanitize(w.text))'" + ruleNamesHint(session), span: w.span)
            }
            found.append(r)
        }
        return found
    }

    /// Plans `rules` over the session's ledger, interning what they name into its own tables (`withLentTables`;
    /// no transaction changes); returns the plan and the ledger whose tables it names. Ctrl-C stops it
    /// (`.interrupted`). For a `preview` (`replacingPreview`), the tag sets the last preview of rules left, if no one
    /// holds them (`Session.droppablePreviewSets`), are dropped once this one's rows are planned (`Planner.plan`'s
    /// `dropping`), and the sets this one interns are noted.
    func plan(_ rules: [Rule], replacingPreview: Bool = false) throws(ShellError) -> (Plan, Ledger) {
        let (selection, maxTags, interrupted, columnValues) = (session.selection ?? [], session.settings.maxTags, session.interrupted, session.columnValues)
        let dropping = replacingPreview ? session.droppablePreviewSets() : nil
        let setsBefore = session.ledger?.tagSets.count ?? 0
        let planned: Plan?
        do throws(PlanError) {
            planned = try session.withLentTables { (ledger: inout Ledger) throws(PlanError) -> Plan in
                try Planner.plan(rules, ledger: &ledger, selection: selection, maxTags: maxTags, interrupted: interrupted, columnValues: columnValues,
                                 dropping: dropping)
            }
        } catch .interrupted {
            throw .interrupted
        } catch {
            throw .failed(error.message)
        }
        guard let planned, let ledger = session.ledger else { throw .noLedger }
        if replacingPreview {
            session.previewSets = (from: dropping ?? setsBefore, to: ledger.tagSets.count, version: session.ledgerVersion)
        }
        return (planned, ledger)
    }
}
