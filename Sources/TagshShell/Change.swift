#if canImport(Glibc)
import Glibc
#endif
import TagshModel
import TagshRules

/// A change to the session as a value: what a command wants done, before it is done.
///
/// Commands describe changes; only `Session.commit(_:command:replay:summary:)`
/// applies them, so every change (annotations, the category table, rules,
/// persisted settings) is checked against a pending recovery, becomes one undo
/// step, bumps the version counters and reaches the recovery journal the same way.
public struct Change {
    /// Annotation and category-table changes.
    public var ledger = ChangeSet()
    /// A working copy of the ledger holding names interned for this change
    /// (new tags, tag sets, notes, categories); its tables replace the session's on commit.
    public var tables: Ledger?
    public var rules: [RuleEdit] = []
    public var setting: SettingEdit?
    /// Transactions appended to one of the open files (`import`); `ledger` then annotates them.
    public var imported: ImportedRows?

    public init(ledger: ChangeSet = ChangeSet(), tables: Ledger? = nil) {
        self.ledger = ledger
        self.tables = tables
    }

    public var isEmpty: Bool { ledger.isEmpty && rules.isEmpty && setting == nil && imported == nil }
}

/// Transactions an `import` appends to an open file: the rows (ids into the session's tables) and the text
/// the file gets at the next save, in the file's own layout.
public struct ImportedRows: Sendable {
    /// The open file they go to.
    public var file: Int
    public var rows: RowBlock
    public var text: [UInt8]
}

/// A rule defined, replaced or deleted: `before` nil is a definition, `after` nil a deletion.
public struct RuleEdit: Sendable {
    public var index: Int
    public var before: Rule?
    public var after: Rule?
}

/// A persisted setting (`max-tags`, `sample`) changed from one value to another.
public struct SettingEdit: Sendable, Equatable {
    public var name: String
    public var before: String
    public var after: String

    /// The settings that belong to the ledger (kept in its sidecar); the others are display preferences.
    public static let persisted = ["max-tags", "sample"]
}

extension Session {
    /// One undoable step: the command that made it and what it changed.
    public struct Step {
        /// The command as typed.
        public var command: String
        /// The lines that redo this step from a script (`@` resolved, rules defined).
        public var replay: String
        public var summary: String
        public var changes: ChangeSet
        public var rules: [RuleEdit] = []
        public var setting: SettingEdit?
        public var imported: ImportedRows?
        /// When the step was made (seconds since 1970).
        public var time: Int
        /// Made in an earlier session and read back from the history file.
        public var isEarlier = false

        /// How many transactions the step touched: for an import, the transactions it added (the rules that ran in
        /// the same step annotate only those).
        public var transactionCount: Int { imported.map { max($0.rows.count, changes.transactionCount) } ?? changes.transactionCount }

        /// The transactions the step shows as touched in `history`: a category renamed changes no transaction's
        /// category, but every one in it now reads (and is saved) with the new name: those in it now.
        func shownCount(in ledger: Ledger?) -> Int {
            let renamed = changes.tableChanges.compactMap { t -> UInt32? in
                if case .setCategory(let id, let before, let after) = t, before.name != after.name { id } else { nil }
            }
            guard changes.count == 0, !renamed.isEmpty, let ledger else { return transactionCount }
            return ledger.category.reduce(0) { $0 + (renamed.contains($1) ? 1 : 0) }
        }
    }

    /// Applies a change as one undo step, dropping any redo steps, and appends
    /// it to the recovery journal. Returns false (and records nothing) when it changes nothing.
    @discardableResult
    func commit(_ change: Change, command: String, replay: String, summary: String) throws(ShellError) -> Bool {
        try checkCanChange()
        guard !change.isEmpty else { return false }
        if !change.ledger.isEmpty && ledger == nil { throw .noLedger }
        if let current = change.tables ?? ledger, let why = refusal(change.ledger, in: current) {
            throw .failed(why)
        }
        if let tables = change.tables {
            if change.imported != nil { ledger?.adoptAllTables(of: tables) } else { ledger?.adoptTables(of: tables) }
        }
        let step = Step(command: command, replay: replay, summary: summary, changes: change.ledger,
                        rules: change.rules, setting: change.setting, imported: change.imported, time: clock())
        forward(step)
        if position < steps.count {
            steps.removeSubrange(position...)
            if savedPosition > position { savedPosition = -1 } // the saved state can no longer be reached
        }
        steps.append(step)
        position += 1
        if loading == nil { try journal(replay) }
        return true
    }

    /// Why one of the open files cannot hold a change (checked when the command runs, not at save).
    func refusal(_ changes: ChangeSet, in current: Ledger) -> String? {
        guard !changes.isEmpty else { return nil }
        if files.count == 1, let f = files.first { return f.document.refusal(changes, in: current) }
        var byFile = [ChangeSet](repeating: ChangeSet(), count: files.count)
        // A category renamed is renamed in every file.
        for t in changes.tableChanges { for i in byFile.indices { byFile[i].record(t) } }
        for k in 0..<changes.count {
            guard let i = fileIndex(ofRow: Int(changes.rows[k])) else { continue }
            byFile[i].record(row: Int(changes.rows[k]), field: changes.fields[k], before: changes.before[k], after: changes.after[k])
        }
        for (i, f) in files.enumerated() where !byFile[i].isEmpty {
            if let why = f.document.refusal(byFile[i], in: current) { return why }
        }
        return nil
    }

    /// Undoes up to `n` steps; returns the steps undone, latest first.
    func undo(_ n: Int, line: String) throws(ShellError) -> [Step] {
        try checkCanChange()
        guard position > 0 else { throw .failed(historyNote.map { "nothing to undo (\($0))" } ?? "nothing to undo") }
        var done: [Step] = []
        for _ in 0..<min(n, position) {
            position -= 1
            lowestEarlierPosition = min(lowestEarlierPosition, position)
            backward(steps[position])
            done.append(steps[position])
        }
        if loading == nil { try journal(line) }
        return done
    }

    /// Redoes up to `n` undone steps; returns them in order.
    func redo(_ n: Int, line: String) throws(ShellError) -> [Step] {
        try checkCanChange()
        guard position < steps.count else { throw .failed("nothing to redo") }
        var done: [Step] = []
        for _ in 0..<min(n, steps.count - position) {
            forward(steps[position])
            done.append(steps[position])
            position += 1
        }
        if loading == nil { try journal(line) }
        return done
    }

    private func forward(_ step: Step) {
        if let imported = step.imported, ledger != nil, imported.file < files.count {
            let rows = ledger!.append(imported.rows)
            files[imported.file].segments.append(rows)
            files[imported.file].imports.append(imported.text)
            rowsChanged()
        }
        if !step.changes.isEmpty {
            ledger?.apply(step.changes)
            if suggestIndex != nil, let l = ledger { suggestIndex?.update(step.changes, ledger: l) }
            if annotationUse != nil, let l = ledger { annotationUse?.update(step.changes, ledger: l) }
        }
        for edit in step.rules {
            switch (edit.before, edit.after) {
            case (nil, let rule?): rules.insert(rule, at: min(edit.index, rules.count))
            case (_?, let rule?): rules[edit.index] = rule
            case (_?, nil): rules.remove(at: edit.index)
            case (nil, nil): break
            }
        }
        if let s = step.setting { _ = settings.set(s.name, s.after) }
        changed(step)
    }

    private func backward(_ step: Step) {
        if let s = step.setting { _ = settings.set(s.name, s.before) }
        for edit in step.rules.reversed() {
            switch (edit.before, edit.after) {
            case (nil, _?): rules.remove(at: edit.index)
            case (let rule?, _?): rules[edit.index] = rule
            case (let rule?, nil): rules.insert(rule, at: min(edit.index, rules.count))
            case (nil, nil): break
            }
        }
        if !step.changes.isEmpty {
            ledger?.revert(step.changes)
            if suggestIndex != nil, let l = ledger { suggestIndex?.update(step.changes, reverted: true, ledger: l) }
            if annotationUse != nil, let l = ledger { annotationUse?.update(step.changes, reverted: true, ledger: l) }
        }
        if let imported = step.imported, imported.file < files.count {
            ledger?.removeLast(imported.rows.count)
            files[imported.file].segments.removeLast()
            files[imported.file].imports.removeLast()
            if let n = ledger?.count { selection = selection?.filter { $0 < n } }
            rowsChanged()
        }
        changed(step)
    }

    /// Rows were added or removed: what was worked out per row is worked out again.
    private func rowsChanged() {
        suggestIndex = nil
        preparedSuggestions = nil
        fileColumn = nil
        columnCache = [:]
        forgetCompletionCounts()
        lastPreview = nil
    }

    /// After a save, an import is part of its file: the steps up to the last saved import can no longer be undone.
    func forgetSavedImports() {
        guard let last = steps[0..<position].lastIndex(where: { $0.imported != nil }) else { return }
        let k = last + 1
        steps.removeFirst(k)
        position -= k
        savedPosition = savedPosition >= k ? savedPosition - k : -1
        earlierStepsAtOpen = max(0, earlierStepsAtOpen - k)
        lowestEarlierPosition = max(0, lowestEarlierPosition - k)
        historyNote = "an import was saved: the steps up to it are part of the file"
    }

    private func changed(_ step: Step) {
        generation += 1
        // A preview is stale when the transactions or the rules changed.
        if !step.changes.isEmpty || !step.rules.isEmpty || step.imported != nil { ledgerVersion += 1 }
        // (`apply` alone names what it applied after its own step; any step after it, an undo included, forgets it.)
        appliedPreview = nil
    }
}

extension Ledger {
    /// Takes the name tables of a working copy made from this ledger (they only ever grow).
    mutating func adoptTables(of other: Ledger) {
        tags = other.tags
        tagSets = other.tagSets
        notes = other.notes
        categories = other.categories
    }
}
