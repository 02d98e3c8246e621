/// Help text derived from the command declarations, shared with the man page.
enum HelpText {
    static func overview(_ registry: CommandRegistry, style: Style) -> String {
        var out = ""
        let width = registry.commands.map { $0.name.count }.max() ?? 0
        for group in Command.Group.allCases {
            let commands = registry.commands.filter { $0.group == group }
            guard !commands.isEmpty else { continue }
            out += style.bold(group.rawValue) + "\n"
            for c in commands { out += "  " + TextSafety.pad(c.name, width) + "  " + c.summary + "\n" }
            out += "\n"
        }
        out += "`help COMMAND` explains one command; `help query` the query language.\n"
        out += "Ctrl-C clears the line, or stops a long command (it says `interrupted` and changes nothing); Ctrl-D quits.\n"
        out += "`COMMAND > FILE` writes a command's output to FILE (`>>` appends), `COMMAND | SHELL-COMMAND` pipes it; `# ...` after a space is a comment.\n"
        out += "At the prompt, output longer than the screen goes through $PAGER (default less -RFX; `set pager off`).\n"
        out += "As in psql: \\q quits, \\? is help, \\h COMMAND is help COMMAND, \\e is edit, \\o FILE sends the output to FILE (\\o alone ends it).\n"
        return out
    }

    static func page(_ c: Command, style: Style) -> String {
        var out = c.synopsisLines.enumerated().map { (i, line) in (i == 0 ? style.bold("usage: ") : "       ") + line + "\n" }.joined()
        if !c.aliases.isEmpty { out += "aliases: " + c.aliases.joined(separator: ", ") + "\n" }
        out += "\n" + c.summary + "\n"
        if !c.details.isEmpty { out += "\n" + wrap(c.details, width: 78) + "\n" }
        if !c.options.isEmpty {
            out += "\n" + style.bold("options:") + "\n"
            let labels = c.options.map(\.label)
            let width = labels.map(\.count).max() ?? 0
            for (label, o) in zip(labels, c.options) { out += "  " + TextSafety.pad(label, width) + "  " + o.helpLine + "\n" }
        }
        if !c.examples.isEmpty {
            out += "\n" + style.bold("examples:") + "\n"
            for e in c.examples { out += "  " + e + "\n" }
        }
        return out
    }

    static func wrap(_ text: String, width: Int) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { paragraph in
            var lines: [String] = []
            var line = ""
            for word in paragraph.split(separator: " ") {
                if !line.isEmpty && line.count + 1 + word.count > width {
                    lines.append(line)
                    line = ""
                }
                line += (line.isEmpty ? "" : " ") + word
            }
            lines.append(line)
            return lines.joined(separator: "\n")
        }.joined(separator: "\n")
    }

    /// The query language, for `help query` and the man page.
    static let queryTerms: [(String, String)] = [
        ("WORD, desc:WORD, payee:WORD, merchant:WORD", "the merchant contains WORD (case-insensitive); all alone is every transaction"),
        ("'PAYPAL *NETFLIX: DE'", "a quoted term whose text before its first colon is not one word is a merchant search as a whole"),
        ("desc:/REGEX/", "regular expression, case-insensitive; also note:, acct:, tag:, cat:"),
        ("amt:<-50, amt:>=10, amt:5..20, amt:-5.75", "amount tests; as in hledger, a number with a sign (or 0) compares the signed amount, one without a sign the absolute amount"),
        ("date:2024, date:2024-03, date:2024-01-05", "a year, month or day"),
        ("date:2024-01..2024-03, date:..2023, date:2024-06..", "inclusive ranges, open at either end"),
        ("date:thismonth, date:lastmonth, date:2024q1", "named periods, as in hledger: today, yesterday, this/last week, month, quarter, year, 'last 30 days'"),
        ("tag:NAME, tag:none, tag:any", "has the tag or a child of it (tag:trip matches trip/paris and trip:paris); has none; has some"),
        ("cat:NAME, cat:none", "the category is NAME (case-insensitive); has none"),
        ("intent:want, intent:none", "the intent is want (need, want, culture, unexpected); has none"),
        ("note:WORD, acct:WORD", "the note or account contains WORD; note:none and note:any as for tags"),
        ("cat:food,groceries", "either value (also tag: and intent:); a comma before a space stays in the name"),
        ("id:412, id:400..420, id:3,5,10-12", "transaction ids; a list as a TARGET writes one"),
        ("status:pending", "listed by the bank without an amount yet (status:booked: the others)"),
        ("col:NAME=VALUE, col:NAME:TEXT", "a column of the CSV record as the bank wrote it (NAME: header or position); also col:NAME:/REGEX/"),
        ("file:NAME", "transactions from the open file whose name contains NAME (several files open as one session); also file:/REGEX/"),
        ("@", "in the current selection: what the last ls or select listed"),
        ("-TERM, not TERM", "does not match TERM"),
        ("A B, A or B, (A or B) C", "terms side by side are ANDed; or; parentheses group"),
        ("{A or B} C", "braces, as a TARGET writes a query ({uber eats}), group as parentheses do; they nest, and a brace that is text is quoted"),
    ]

    /// The deliberate differences from hledger's query language (`help query` and the man page).
    static let hledgerDifferences: [(String, String)] = [
        ("desc:WORD", "a plain word is a case-insensitive substring, not a regular expression; write desc:/REGEX/ for one "
            + "(hledger's desc:starbucks|aldi is desc:/starbucks|aldi/)"),
        ("payee:", "the same as desc: (a bank export has one description; hledger's payee is the part before |)"),
        ("cat:, intent:", "tagsh's own annotations, which hledger does not have; cat: names a category, not an account (acct: does)"),
        ("comma lists", "tag:a,b, cat:a,b and intent:a,b mean either; text keys (desc:, note:, acct:) keep commas as text"),
        ("tag:none, note:none, cat:none", "no tag, no note, no category; tag:any and note:any, some"),
        ("a category that does not exist", "an error with a suggestion, not a silent 0"),
        ("date:'last 30 days'", "the last N days up to today; hledger 1.25 has no such period"),
        ("all", "every transaction, in a query as in a target"),
    ]

    static var query: String {
        var out = "Queries select transactions for ls, count, select, merchants, summary and chart.\n\n"
        for (term, meaning) in queryTerms { out += "  " + term + "\n      " + meaning + "\n" }
        out += "\nQuote a term that has spaces or backslashes: desc:\"WHOLE FOODS\", 'desc:/^uber\\b/'.\n"
        out += "\nWhere tagsh differs from hledger, on purpose:\n"
        for (what, why) in hledgerDifferences { out += "  - " + what + ": " + why + "\n" }
        return out
    }
}
