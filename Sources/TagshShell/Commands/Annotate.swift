import TagshModel
import TagshQuery

extension Commands {
    static let tag: Command = Command(
        name: "tag", group: .annotating, forms: [[.target, .tagEdits]],
        summary: "add and remove tags on transactions, in one step",
        details: """
            TARGET is an id (412), a list with ranges (412,415,420-430), @ (what the last listing showed), all, \
            or {QUERY}: every transaction the query matches ({uber eats}, {tag:none amt:<-100}). When @ is a \
            listing cut by --limit, the summary says how many its query matched and how to take them all. \
            +NAME adds a tag (created if new), -NAME removes one. Tags compare ignoring case: adding one a \
            transaction already has is a no-op. A new tag one slip from a tag the ledger has (+cofee beside \
            coffee) is taken, and a note after the step asks whether that one was meant. A typed name is 1 to 64 letters, digits and - _ / . : \
            (/ makes a hierarchy, : a value, as in hledger). If any transaction would hold more than \
            max-tags tags (`set max-tags N`), the whole command fails and names them.
            """,
        examples: ["tag {starbucks} +coffee", "tag 412 +coffee", "tag @ +trip/lisbon -work", "tag 12,15,20-24 +gift"]
    ) { (inv: inout Invocation) throws(ShellError) in
        guard inv.words.count >= 2 else { throw .usage("usage: \(inv.command.synopsis)", span: inv.words.first?.span) }
        let rows = try inv.target(inv.words[0], in: try inv.requireLedger())
        var adds: [String] = [], removes: [String] = []
        for w in inv.words.dropFirst() {
            guard let sign = w.text.first, sign == "+" || sign == "-" else {
                throw .usage("'\(w.text)' needs + (add) or - (remove) in front", span: w.span)
            }
            let name = String(w.text.dropFirst()).trimmingCharacters(in: " \t")
            if let problem = TagName.validate(name) { throw .usage(tagProblem(name, problem), span: w.span) }
            if sign == "+" { adds.append(name) } else { removes.append(name) }
        }
        let session = inv.session
        // A tag new to the ledger one slip from one it has (`+cofee` beside coffee) is likely that one mistyped: said
        // after the step, not refused (a new tag is often meant). Worked out before the tables grow.
        func slipsOf(_ tags: StringTable) -> [(typed: String, near: String)] {
            adds.compactMap { name in tags.id(of: name) == nil ? tagNear(name, in: tags).map { (name, $0) } : nil }
        }
        let slips = slipsOf(try inv.requireLedger().tags)
        let column = try inv.requireLedger().tagSet
        let maxTags = session.settings.maxTags
        // (Asked first, as `tags rename` does: a change refused after the names were interned would leave their
        // spelling in the table, the one a later `tag` of the same name shows.)
        try session.checkCanChange()
        // The tables grow in place (a copy of a million tag sets cost 40 ms a `tag`).
        let (changes, overflow) = session.withTagTables { tagsTable, sets in
            let addIDs = adds.map { tagsTable.intern($0) }
            let removeIDs = removes.compactMap { tagsTable.id(of: $0) }
            // Each distinct tag set is worked out once, whatever the number of rows (UInt32.max: not yet). The sets
            // made are interned all at once afterwards (`TagSetTable.intern(all:)`); until then a made set is
            // `base` + its index among them.
            let base = UInt32(sets.count)
            var result = TagCache(sets: sets.count, rows: rows.count, arrayFrom: 64)
            var madeSets = PendingTagSets()
            // Where each set's edit is written (`PendingTagSets.edit`).
            let ids = UnsafeMutableBufferPointer<UInt32>.allocate(capacity: sets.largest + addIDs.count)
            defer { ids.deallocate() }
            var changes = ChangeSet()
            // Room for a change per row and a new set per set met (at the sets' mean size plus the tags added):
            // grown one append at a time, both were moved some twenty times over a million rows.
            if rows.count >= 4096 {
                let mean = sets.count > 1 ? sets.memberCount / (sets.count - 1) : 0
                let made = min(rows.count, sets.count)
                madeSets.reserveCapacity(sets: made, members: made * (mean + 1 + addIDs.count))
                changes.reserveCapacity(rows.count)
            }
            var overflow: [Int] = []
            let mayOverflow = sets.setsMade(adding: addIDs.count, mayPass: maxTags)
            for row in rows {
                let old = column[row]
                let new: UInt32
                if let known = result[old] { new = known } else {
                    let edited = PendingTagSets.edit(sets[old], removing: removeIDs, adding: addIDs, into: ids)
                    new = edited.map { base + UInt32(madeSets.append(buffer: UnsafeBufferPointer(rebasing: ids[0..<$0]))) } ?? old
                    result[old] = new
                }
                if mayOverflow {
                    let size = madeSets.size(of: new, base: base, in: sets)
                    if size > maxTags && size > sets.size(old) { overflow.append(row + 1) }
                }
                changes.record(row: row, field: .tags, before: old, after: new)
            }
            // (Not when the command is refused: `tag all` of a million rows of sets of their own, refused for
            // max-tags, spent most of its 230-300 ms interning sets that no row would hold, and kept them.)
            if madeSets.count > 0 && overflow.isEmpty { changes.renumberAfter(.tags, from: base, sets.intern(all: madeSets)) }
            return (changes, overflow)
        }
        if !overflow.isEmpty {
            throw .failed("nothing tagged: \(plural(overflow.count, "transaction")) would hold more than max-tags (\(maxTags)) tags: "
                          + idList(overflow) + " (`set max-tags N` raises the limit)")
        }
        let what = (adds.map { "+" + $0 } + removes.map { "-" + $0 }).joined(separator: " ")
        try inv.reportCommit(Change(ledger: changes, tables: try inv.requireLedger()), summary: "tag \(what)")
        for (typed, near) in slips {
            inv.out.note("note: '\(TextSafety.sanitize(typed))' is a new tag: did you mean '\(TextSafety.sanitize(near))'? (`undo` takes this step back)")
        }
    }

    static let intent: Command = Command(
        name: "intent", group: .annotating, forms: [[.target, .choice(["need", "want", "culture", "unexpected", "none"])]],
        summary: "set why money was spent (none clears it)",
        examples: ["intent 412 want", "intent @ need", "intent 12-20 none"]
    ) { (inv: inout Invocation) throws(ShellError) in
        let ledger = try inv.requireLedger()
        guard inv.words.count == 2 else { throw .usage("usage: \(inv.command.synopsis)", span: inv.words.last?.span) }
        let rows = try inv.target(inv.words[0], in: ledger)
        let w = inv.words[1]
        var value: UInt8 = 0
        if w.text.lowercased() != "none" {
            guard let i = Intent(name: w.text) else {
                throw .usage("unknown intent '\(w.text)': use need, want, culture, unexpected or none", span: w.span)
            }
            value = i.rawValue
        }
        // (Room for every row at once: grown as it went, the change set of 900,000 rows was moved some twenty
        // times, a tenth of `intent @ want` after `select amt:<-5` on a million.)
        var changes = ChangeSet()
        changes.reserveCapacity(rows.count)
        for row in rows { changes.record(row: row, field: .intent, before: UInt32(ledger.intent[row]), after: UInt32(value)) }
        try inv.reportCommit(Change(ledger: changes), summary: "intent \(w.text.lowercased())")
    }

    static let note: Command = Command(
        name: "note", group: .annotating, forms: [[.target, .rest("TEXT")]],
        summary: "set the note of transactions (an empty text clears it)",
        details: "The words after TARGET are joined by spaces; quote the text to keep it exactly. "
            + "Any text is kept, commas, semicolons and quotes included: a journal gets it on its own comment line, `; note: TEXT`, "
            + "which ledger and tagsh read whole (hledger up to the first comma), so there it cannot begin or end with a space; "
            + "beancount gets metadata `note: \"TEXT\"`. "
            + "`note 412 \"\"` clears the note.",
        examples: ["note 412 \"dinner with Anna\"", "note @ ''"]
    ) { (inv: inout Invocation) throws(ShellError) in
        guard inv.words.count >= 2 else { throw .usage("usage: \(inv.command.synopsis)", span: inv.words.first?.span) }
        let ledger = try inv.requireLedger()
        let rows = try inv.target(inv.words[0], in: ledger)
        let text = inv.words.dropFirst().map(\.text).joined(separator: " ")
        var notes = ledger.notes
        let id = text.isEmpty ? 0 : notes.intern(text)
        var changes = ChangeSet()
        changes.reserveCapacity(rows.count)
        for row in rows { changes.record(row: row, field: .note, before: ledger.note[row], after: id) }
        var working = ledger
        working.notes = notes
        try inv.reportCommit(Change(ledger: changes, tables: working), summary: text.isEmpty ? "note cleared" : "note set")
    }
}

/// The existing tag a new one is most likely a slip of: one edit away (a swap of neighbours, a character left out,
/// changed or added), nil for names under three characters. Names that differ only in their digits (`trip-2025`
/// beside `trip-2024`) are other tags, not slips. The names one edit away are looked up, some hundreds of them,
/// rather than every tag measured: a ledger may hold hundreds of thousands of tags.
func tagNear(_ typed: String, in tags: StringTable) -> String? {
    let t = Array(typed.lowercased())
    guard t.count >= 3 else { return nil }
    let alphabet = Array("abcdefghijklmnopqrstuvwxyz0123456789-_/.:")
    var tried = Set<String>()
    func found(_ chars: [Character]) -> String? {
        let text = String(chars)
        guard tried.insert(text).inserted, let id = tags.id(of: text) else { return nil }
        let name = tags[id]
        // (One edit apart, so differing only in digits means a digit was changed, added or left out.)
        return name.lowercased().filter { !$0.isNumber } == String(t.filter { !$0.isNumber }) ? nil : name
    }
    for i in 0..<(t.count - 1) where t[i] != t[i + 1] {
        var c = t
        c.swapAt(i, i + 1)
        if let n = found(c) { return n }
    }
    for i in t.indices {
        var c = t
        c.remove(at: i)
        if let n = found(c) { return n }
    }
    for i in t.indices {
        for a in alphabet where a != t[i] {
            var c = t
            c[i] = a
            if let n = found(c) { return n }
        }
    }
    for i in 0...t.count {
        for a in alphabet {
            var c = t
            c.insert(a, at: i)
            if let n = found(c) { return n }
        }
    }
    return nil
}

func tagProblem(_ name: String, _ problem: TagName.Problem) -> String {
    switch problem {
    case .empty: return "a tag name cannot be empty"
    case .tooLong(let n): return "tag name '\(TextSafety.sanitize(name))' is \(n) characters long; the limit is \(TagName.maxLength)"
    case .badCharacter(let c):
        let shown = c == " " ? "a space" : "'\(TextSafety.sanitize(String(c)))'"
        return "tag name '\(TextSafety.sanitize(name))' has \(shown): use letters, digits and - _ / . :"
    }
}

/// "12, 15, 40" — at most ten, then "and N more".
func idList(_ ids: [Int]) -> String {
    let shown = ids.prefix(10).map(String.init).joined(separator: ", ")
    return ids.count > 10 ? shown + " and \(ids.count - 10) more" : shown
}

extension Invocation {
    /// Commits a change as one undo step and prints its one-line summary.
    func reportCommit(_ change: Change, summary: String) throws(ShellError) {
        let changes = change.ledger
        let n = changes.transactionCount
        let full = changes.count == 0 ? summary : summary + " (" + plural(n, "transaction") + ")"
        let typed = line.trimmingCharacters(in: " \t")
        if try session.commit(change, command: typed, replay: replayLine ?? typed, summary: full) {
            out.note(changes.count == 0 ? summary : "\(summary): \(plural(n, "transaction")) changed")
        } else {
            out.note("nothing changed")
        }
        if let afterNote { out.note(afterNote) }
    }
}
