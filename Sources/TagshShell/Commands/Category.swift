import TagshModel
import TagshQuery

extension Commands {
    static let category: Command = Command(
        name: "category", group: .annotating,
        forms: [[.target, .category(orNone: true, customOnly: false)], [.keyword("new"), .value("NAME")], [.keyword("delete"), .category(orNone: false, customOnly: true)], [.keyword("rename"), .category(orNone: false, customOnly: true), .value("NEW")]],
        summary: "set the category of transactions, or create, delete or rename a custom category",
        details: """
            `category TARGET NAME` sets an existing category (`categories` lists them; none clears). \
            `category new NAME` creates a custom category, with a colour (#rrggbb or a name such as orange) \
            and a one-character icon; given for an existing custom category, they update it. The twelve default categories cannot be deleted or renamed. \
            Deleting a custom category that is in use is refused unless --reassign moves its transactions \
            to another category (or none). --color and --icon go with new only, --reassign with delete only: given \
            to another form, they are refused. A custom category the file does not bring by itself (no transaction holds it, or it has a colour or an icon) is kept in the sidecar file LEDGER.tagsh. \
            In a journal or beancount file a transaction's category is its expense or income account \
            (Expenses:Groceries): setting one rewrites that posting's account, and a save declares a new account \
            (an `account` or `open` line) beside the file's other declarations.
            """,
        options: [
            .init("color", .color, "#rrggbb or a colour name", form: .keyword("new")),
            .init("icon", .text("I"), "one character shown before the name", form: .keyword("new")),
            .init("reassign", .category, "move its transactions to OTHER (or none)", form: .keyword("delete")),
        ],
        examples: ["category 412 Groceries", "category @ none", "category new Coffee --color #6f4e37 --icon ☕",
                   "category rename Coffee Cafes", "category delete Cafes --reassign Food"]
    ) { (inv: inout Invocation) throws(ShellError) in
        let ledger = try inv.requireLedger()
        guard let first = inv.words.first else { throw .usage("usage: category \(inv.command.usage)", span: nil) }
        let form = first.text.lowercased()
        switch form {
        case "new": try categoryNew(&inv, ledger)
        case "delete": try categoryDelete(&inv, ledger)
        case "rename": try categoryRename(&inv, ledger)
        default:
            guard inv.words.count == 2 else { throw .usage("usage: category TARGET NAME|none", span: inv.words.last?.span) }
            let rows = try inv.target(first, in: ledger)
            let w = inv.words[1]
            var id: UInt32 = 0
            if w.text.lowercased() != "none" {
                guard let found = ledger.categories.id(of: w.text) else {
                    let hint = categoryNear(w.text, in: ledger).map { "did you mean '\(TextSafety.sanitize($0))'? " } ?? ""
                    throw ShellError.diagnostic(Diagnostic("no category '\(TextSafety.sanitize(w.text))'", sourceLine: inv.line, span: w.span,
                                                           notes: ["hint: \(hint)`categories` lists them; `category new \(Lexer.quoteForHint(w.text))` creates it"]))
                }
                id = found
            }
            // In a journal or beancount file the category is an account: it needs exactly one place to go.
            let refused = rows.filter { ledger.categoryRefusal($0, setting: id) != nil && ledger.category[$0] != id }
            if let first = refused.first, let why = ledger.categoryRefusal(first, setting: id) {
                throw .failed(refused.count == 1 ? "nothing changed: \(why)"
                              : "nothing changed: \(plural(refused.count, "transaction")) cannot take a category "
                                + "(more than two postings, or no expense or income posting): \(idList(refused.map { $0 + 1 }))")
            }
            var changes = ChangeSet()
            changes.reserveCapacity(rows.count)
            for row in rows { changes.record(row: row, field: .category, before: ledger.category[row], after: id) }
            try inv.reportCommit(Change(ledger: changes), summary: "category " + (id == 0 ? "none" : ledger.categories[id].name))
        }
    }

    static func categoryNew(_ inv: inout Invocation, _ ledger: Ledger) throws(ShellError) {
        guard inv.words.count == 2 else { throw .usage("usage: category new NAME [--color C] [--icon I]", span: inv.words.last?.span) }
        let w = inv.words[1]
        let name = try categoryName(w)
        let existing = ledger.categories.id(of: name)
        if let existing, ledger.categories[existing].isDefault {
            throw .usage("'\(ledger.categories[existing].name)' is a default category", span: w.span)
        }
        if existing != nil && inv.values["color"] == nil && inv.values["icon"] == nil {
            // A sidecar may declare a category the ledger's file also brings: nothing to do.
            if inv.session.loading == .sidecar { return }
            throw .usage("category '\(TextSafety.sanitize(name))' already exists", span: w.span)
        }
        var category = existing.map { ledger.categories[$0] } ?? Category(name: name, isDefault: false)
        if let c = inv.values["color"] {
            guard let color = Color(parsing: c.text) else {
                throw .usage("unknown colour '\(c.text)': use #rrggbb or one of \(Color.NamedColor.allCases.map(\.rawValue).joined(separator: ", "))", span: c.span)
            }
            category.color = color
        }
        if let i = inv.values["icon"] {
            guard i.text.count == 1, let ch = i.text.first, !ch.isWhitespace, TextSafety.sanitize(i.text) == i.text else {
                throw .usage("an icon is one visible character", span: i.span)
            }
            category.icon = ch
        }
        var changes = ChangeSet()
        if let existing {
            // Defining an existing custom category again updates its colour and icon (the sidecar relies on this).
            changes.record(.setCategory(id: existing, before: ledger.categories[existing], after: category))
            try inv.reportCommit(Change(ledger: changes), summary: "category \(category.name) updated")
            return
        }
        var hidden = category
        hidden.isDeleted = true
        var working = ledger
        let id = working.categories.add(hidden)
        changes.record(.setCategory(id: id, before: hidden, after: category))
        try inv.reportCommit(Change(ledger: changes, tables: working), summary: "category \(name) created")
    }

    static func categoryDelete(_ inv: inout Invocation, _ ledger: Ledger) throws(ShellError) {
        guard inv.words.count == 2 else { throw .usage("usage: category delete NAME [--reassign OTHER|none]", span: inv.words.last?.span) }
        let w = inv.words[1]
        let id = try existingCustom(w, ledger, verb: "deleted")
        let rows = (0..<ledger.count).filter { ledger.category[$0] == id }
        var target: UInt32 = 0
        if let r = inv.values["reassign"] {
            if r.text.lowercased() != "none" {
                guard let other = ledger.categories.id(of: r.text), other != id else {
                    throw .usage("no other category '\(TextSafety.sanitize(r.text))' to reassign to", span: r.span)
                }
                target = other
            }
        } else if !rows.isEmpty {
            throw .usage("category '\(ledger.categories[id].name)' is used by \(plural(rows.count, "transaction")): "
                         + "add --reassign OTHER (or --reassign none)", span: w.span)
        }
        var changes = ChangeSet()
        changes.reserveCapacity(rows.count)
        for row in rows { changes.record(row: row, field: .category, before: id, after: target) }
        var deleted = ledger.categories[id]
        deleted.isDeleted = true
        changes.record(.setCategory(id: id, before: ledger.categories[id], after: deleted))
        try inv.reportCommit(Change(ledger: changes), summary: "category \(ledger.categories[id].name) deleted")
    }

    static func categoryRename(_ inv: inout Invocation, _ ledger: Ledger) throws(ShellError) {
        guard inv.words.count == 3 else { throw .usage("usage: category rename OLD NEW", span: inv.words.last?.span) }
        let id = try existingCustom(inv.words[1], ledger, verb: "renamed")
        let w = inv.words[2]
        let name = try categoryName(w)
        if let other = ledger.categories.id(of: name), other != id {
            throw .usage("category '\(TextSafety.sanitize(name))' already exists", span: w.span)
        }
        var renamed = ledger.categories[id]
        let old = renamed.name
        renamed.name = name
        var changes = ChangeSet()
        changes.record(.setCategory(id: id, before: ledger.categories[id], after: renamed))
        // (No transaction's category changes, but each in it reads with the new name, in the file too at the next save.)
        let n = ledger.category.reduce(0) { $0 + ($1 == id ? 1 : 0) }
        try inv.reportCommit(Change(ledger: changes), summary: "category \(old) renamed to \(name)" + (n > 0 ? " (\(plural(n, "transaction")))" : ""))
    }

    /// A new category name, trimmed: 1 to 64 characters, no line breaks or `;`.
    static func categoryName(_ w: Word) throws(ShellError) -> String {
        let name = w.text.trimmingCharacters(in: " \t")
        guard !name.isEmpty, name.count <= 64, !name.contains(where: { $0.isNewline || $0 == ";" }) else {
            throw .usage("a category name is 1 to 64 characters, without line breaks or ;", span: w.span)
        }
        return name
    }

    static func existingCustom(_ w: Word, _ ledger: Ledger, verb: String) throws(ShellError) -> UInt32 {
        guard let id = ledger.categories.id(of: w.text) else {
            throw .usage("no category '\(TextSafety.sanitize(w.text))'", span: w.span)
        }
        if ledger.categories[id].isDefault {
            throw .usage("'\(ledger.categories[id].name)' is a default category and cannot be \(verb)", span: w.span)
        }
        return id
    }
}

extension Lexer {
    /// A word as the person would type it back.
    static func quoteForHint(_ s: String) -> String { quote(TextSafety.sanitize(s)) }
}

/// The category a person most likely meant by `typed`, which names none: the first that begins with it (`Util`
/// for `Utilities`), else the nearest within `edits` edits (`Grocerys`), ignoring case; nil when none is near.
/// (A query's `cat:` allows more edits for a longer name: `cat:grocery`.)
func categoryNear(_ typed: String, in ledger: Ledger, edits: Int = 2) -> String? {
    let t = typed.lowercased()
    let names = ledger.categories.liveIDs.map { ledger.categories[$0].name }
    if !t.isEmpty, let started = names.first(where: { $0.lowercased().hasPrefix(t) }) { return started }
    let near = names.min { editDistance($0.lowercased(), t) < editDistance($1.lowercased(), t) }
    return near.flatMap { editDistance($0.lowercased(), t) <= edits ? $0 : nil }
}
