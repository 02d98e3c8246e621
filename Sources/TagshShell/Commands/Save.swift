import TagshFormats
import TagshModel

extension Commands {
    static let save: Command = Command(
        name: "save", group: .files, forms: [[.optional([.file])]],
        summary: "write the ledger back to its file, changing only what was changed",
        details: """
            Writes atomically (a temporary file, fsync, rename), keeps the file's mode, and before the first \
            save of a session keeps the original as FILE.bak. A file opened and saved with no change is \
            byte-identical. An included file in which a transaction changed is written in place too, and named in \
            the message. If the file changed on disk since it was opened or last saved (its bytes, not only its time: a file put back as it was is saved), save refuses; --force overwrites it. \
            With FILE, writes a copy there in the same format (the demo ledger, which has no file, is then \
            saved to FILE from then on); a journal or beancount file that includes files by paths relative to \
            its folder is copied only into that folder, where the copy still finds them. Saving also rewrites the sidecar FILE.tagsh where what it declares \
            changed (every other line kept), and writes the undo history to FILE.tagsh-history.
            """,
        options: [.init("force", "overwrite even if the file changed on disk since it was opened or last saved")],
        examples: ["save", "save --force", "save cleaned.csv"]
    ) { (inv: inout Invocation) throws(ShellError) in
        try inv.expectAtMost(1)
        try inv.session.save(to: inv.words.first?.text, force: inv.flag("force"))
    }
}

extension Session {
    /// One file's part of a save: what to write, and what the file will be once written.
    struct FileSave {
        var index: Int
        var target: String
        /// What to write: the main file, then the included files that changed.
        var rendered: LedgerDocument.Rendered
        var main: ByteSplice { rendered.main }
        var included: [LedgerDocument.Output] { rendered.included }
        /// The document the edits were made on (the file with its imported transactions appended).
        var base: LedgerDocument
        var addedColumns: [String]
        var changedCount: Int
        var isOwnFile: Bool
        /// The included files written with the main one (kept for the message: the outputs are let go after writing).
        var includedPaths: [String] = []
    }

    /// Saves to `path`, or each open file to itself. With several files, every changed file is written
    /// or none is: all are rendered and written to temporaries first, then renamed into place.
    func save(to path: String?, force: Bool) throws(ShellError) {
        guard ledger != nil, !files.isEmpty else { throw .noLedger }
        if path != nil && files.count > 1 {
            throw .failed("with several files open, `save` writes each back to its own file; `save FILE` copies a session of one file")
        }
        var plans: [FileSave] = []
        do {
            // (A copy of the ledger held to the end of the save would hold the file's bytes: see `letGoOfFileBytes`.)
            let ledger = self.ledger!
            let changed = baseline.changedRows(ledger)
            let categoryChanged = baseline.categoryChangedRows(ledger, among: changed)
            for i in files.indices {
                let f = files[i]
                guard let target = path ?? f.path else {
                    throw .failed("the demo ledger has no file of its own; use `save FILE`")
                }
                plans.append(try renderSave(file: i, target: target, ledger: ledger, changed: changed, categoryChanged: categoryChanged))
            }
        }
        for plan in plans where !plan.isOwnFile && !plan.included.isEmpty {
            _ = plan
            throw .failed("changes in included files can only be saved in place: `save` without a file name")
        }
        // A copy in another folder would not find what the file includes by relative paths.
        for plan in plans where !plan.isOwnFile {
            guard let source = files[plan.index].path, case .text(let layout) = files[plan.index].document.layout,
                  let first = layout.relativeIncludes.first else { continue }
            let targetFolder = FileIO.exists(plan.target) ? FileIO.folder(of: FileIO.resolvingLinks(plan.target))
                : FileIO.resolvingLinks(FileIO.folder(of: plan.target))
            if targetFolder != FileIO.folder(of: FileIO.resolvingLinks(source)) {
                throw .failed("not saved: \(TextSafety.sanitize(files[plan.index].displayName)) includes \(TextSafety.sanitize(first)) "
                              + "by a path relative to its own folder, so a copy in another folder would not find it; "
                              + "save the copy beside it, or copy the included files along")
            }
        }
        if !force {
            for plan in plans where plan.isOwnFile {
                let f = files[plan.index]
                if let stamp = f.stamp, FileIO.stamp(of: plan.target) != stamp, !FileIO.holds(plan.target, f.document.bytes) {
                    throw .file(FileError(path: plan.target, kind: .changedOnDisk, whileWriting: true))
                }
                if case .text(let layout) = f.document.layout {
                    for out in plan.included {
                        if let t = layout.files.first(where: { $0.path == out.path }), let stamp = t.stamp, FileIO.stamp(of: t.path) != stamp,
                           !FileIO.holds(t.path, t.bytes) {
                            // An included file is saved only in place: a copy elsewhere is not a way out.
                            var e = FileError(path: t.path, kind: .changedOnDisk, whileWriting: true)
                            e.hint = "hint: `save --force` overwrites it with tagsh's copy (what changed on disk is lost); "
                                + "an included file is only saved in place"
                            throw .file(e)
                        }
                    }
                }
            }
        }
        try checkInterrupted() // Ctrl-C while rendering: nothing is written
        // With several files, only those that change are written (the others keep their inode and time).
        // (Indices, not copies: a copy of a plan would hold on to the bytes the save edits in place.)
        let writing = plans.indices.filter { k in
            let p = plans[k]
            return plans.count == 1 || force || !p.isOwnFile || !p.included.isEmpty
                || !(p.main.isUnchanged && p.main.base == files[p.index].document.bytes)
        }
        // (Only when the file whose bytes the descriptions are named in is written: with several files open, the
        // ledger's table names the first file's.)
        // A CSV file whose records are edited where they are keeps its descriptions named in its bytes, moved with
        // the edits (`nextDocumentMovingNames`); otherwise they are copied out now. (With imported transactions the
        // edits are made to a document read anew, not to the bytes the table names.)
        if writing.contains(where: { k in
            let plan = plans[k]
            guard plan.isOwnFile, ledger?.merchants.isSharing(files[plan.index].document.bytes) == true else { return false }
            return !namesMove(with: plan.rendered, in: plan.base)
        }) {
            letGoOfFileBytes()
        }
        var temporaries: [(path: String, temporary: String, file: Int, isMain: Bool)] = []
        // One file saved to itself: the undo history's fingerprint of its new bytes is worked out on the other core
        // while they are written (after the write, it was 30-60 ms of a save of a million rows).
        let fingerprinted = files.count == 1 && writing.count == 1 && plans[writing[0]].isOwnFile ? writing[0] : nil
        var newFingerprint: String?
        // Then, there too, the history's new bytes, to a temporary beside it, when the save will write them (steps
        // and none imported: `writesHistory`): after a `tag all` of a million rows each of its own tag set, the
        // history is 100 MB or more, rewritten at every save. Renamed into place in `writeHistory`, or removed.
        let historyTarget = fingerprinted != nil && writesHistory ? files.first?.path.map { HistoryFile.path(for: $0) } : nil
        var historyTemporary: String?
        defer { if let t = historyTemporary { FileIO.discardTemporary(t) } }
        do throws(FileError) {
            // (The temporary is kept in `historyTemporary` by the other thread itself, so that it is removed also
            // when the file's write fails, and `alongside` throws without the other thread's result.)
            newFingerprint = try Parallel.alongside({ () -> String? in
                guard let k = fingerprinted else { return nil }
                let fingerprint = HistoryFile.fingerprint(of: plans[k].main)
                guard let historyTarget, let ledger = self.ledger else { return fingerprint }
                // (A failure here is met again, and reported, when `writeHistory` writes the bytes itself.)
                let bytes = HistoryFile.renderBytes(steps[0..<position], ledger: ledger, fingerprint: fingerprint)
                historyTemporary = try? FileIO.writeTemporary(bytes, for: historyTarget)
                return fingerprint
            }) { () throws(FileError) in
                for k in writing {
                    let plan = plans[k]
                    for out in plan.included {
                        guard let p = out.path else { continue }
                        temporaries.append((p, try FileIO.writeTemporary(out.content, for: p), plan.index, false))
                    }
                    temporaries.append((plan.target, try FileIO.writeTemporary(plan.main, for: plan.target), plan.index, true))
                }
            }.background
        } catch {
            for t in temporaries { FileIO.discardTemporary(t.temporary) }
            var e = error
            if writing.count > 1 { e.note = "nothing was saved: every file is as it was before `save`" }
            throw .file(e)
        }
        // One file saved to itself, with its history written beside it: the history is renamed into place right
        // after the file, and the folder synced once for both (a sync after each was two journal commits, 100 ms of
        // a 250 ms save of a million rows). A crash between the renames leaves a history whose fingerprint is not the
        // file's, which opening sets aside as stale, as before. (Still before the recovery journal is removed.)
        let historyBeside = historyTemporary != nil && temporaries.count == 1
            && historyTarget.map { FileIO.folder(of: FileIO.resolvingLinks($0)) == FileIO.folder(of: FileIO.resolvingLinks(temporaries[0].path)) } == true
        var historyInPlace = false
        var renamed = 0
        do throws(FileError) {
            // Each file keeps one .bak per session, made just before it is replaced.
            for t in temporaries {
                if t.isMain {
                    if writing.first(where: { plans[$0].index == t.file }).map({ plans[$0].isOwnFile }) == true && !files[t.file].backedUp && FileIO.exists(t.path) {
                        try FileIO.backUp(t.path)
                        files[t.file].backedUp = true
                    }
                } else if !files[t.file].backedUpPaths.contains(t.path) {
                    try FileIO.backUp(t.path)
                    files[t.file].backedUpPaths.insert(t.path)
                }
                try FileIO.replace(t.path, with: t.temporary, syncFolder: !historyBeside)
                renamed += 1
            }
            if historyBeside, let historyTarget, let written = historyTemporary {
                historyTemporary = nil
                do throws(FileError) {
                    try FileIO.replace(historyTarget, with: written)
                    historyInPlace = true
                } catch {
                    // The file is in place (synced now); the history is written again at the end, as when it had no
                    // temporary, and a failure then is reported there.
                    FileIO.syncFolder(of: FileIO.resolvingLinks(temporaries[0].path))
                }
            }
        } catch {
            for t in temporaries.dropFirst(renamed) { FileIO.discardTemporary(t.temporary) }
            var e = error
            let done = temporaries.prefix(renamed).map(\.path)
            if !done.isEmpty { e.note = "already replaced: " + done.joined(separator: ", ") + " (their .bak files hold the originals)" }
            throw .file(e)
        }
        // Saving to another file writes a copy; the open file stays as it was,
        // except for the demo, which has no file of its own and adopts this one.
        var adopting = false
        // What `col:` and `file:` read is read again from the documents below (also when a read-back fails
        // halfway, after the files before it were replaced).
        columnCache = [:]
        fileColumn = nil
        for k in plans.indices where plans[k].isOwnFile || files[plans[k].index].path == nil {
            let i = plans[k].index
            var next: LedgerDocument?
            if plans[k].isOwnFile {
                // The layout follows the edits, made to the file's bytes where they are: nothing is read again, and
                // nothing is copied, once the open document and the plan let go of the bytes.
                var base = LedgerDocument.empty(plans[k].base.format)
                swap(&base, &plans[k].base)
                files[i].document = .empty(base.format)
                if namesMove(with: plans[k].rendered, in: base), let edits = plans[k].rendered.csvEdits {
                    next = nextDocumentMovingNames(&plans[k].rendered, from: &base, edits: edits)
                } else {
                    next = plans[k].rendered.nextDocument(from: &base)
                }
            }
            let plan = plans[k]
            var file = files[i]
            let name = plan.target.split(separator: "/").last.map(String.init) ?? plan.target
            file.stamp = FileIO.stamp(of: FileIO.resolvingLinks(plan.target))
            if let next {
                file.document = next.restamped()
            } else {
                do throws(Diagnostic) {
                    file.document = try plan.base.reread(plan.main.bytes, fileName: plan.target, stamp: file.stamp, addedColumns: plan.addedColumns)
                } catch {
                    throw .failed("saved \(plan.target), but could not read it back: \(error.message)")
                }
                // Rows are matched to records by position: a read-back that placed another number of records
                // (rows it had to skip) must not be saved into, or a change would land in another record.
                if file.document.recordCount != file.rowCount {
                    throw .failed("saved \(plan.target), but reading it back placed \(file.document.recordCount) records for "
                                  + "\(file.rowCount) transactions; reopen it before changing more")
                }
            }
            adopting = adopting || file.path == nil
            file.path = plan.target
            file.displayName = name
            file.imports = []
            files[plan.index] = file
        }
        let ownSave = plans.allSatisfy { $0.isOwnFile || files[$0.index].path == $0.target }
        if ownSave {
            baseline = Baseline(ledger!)
            forgetSavedImports()
            savedPosition = position
            removeJournal()
            // What the files now bring by themselves: the categories their rows use, and the accounts of postings
            // that cannot carry a category (in a journal, a transaction with more than two postings).
            fileCategories = ledger!.usedCategories.union(postingOnlyCategories)
            if adopting, let target = files.first?.path {
                stores.insert(DeclarationStore(sidecar: Sidecar(path: Session.sidecarPath(for: target)), kind: .sidecar), at: 0)
                owners = owners.mapValues { $0 + 1 }
            }
            try writeSidecars()
            if let (map, header) = mappingToRemember, let memory = columnMemoryPath {
                do throws(FileError) { try ColumnMemory(path: memory).remember(map, header: header) } catch { throw .file(error) }
                mappingToRemember = nil
            }
            if let primary = files.first?.path, !historyInPlace {
                try writeHistory(path: primary, fingerprint: newFingerprint ?? historyFingerprint(),
                                 written: HistoryFile.path(for: primary) == historyTarget ? historyTemporary : nil)
                historyTemporary = nil
            }
        }
        func columnsNote(_ added: [String]) -> String {
            added.isEmpty ? "" : "; added the column\(added.count == 1 ? "" : "s") \(added.joined(separator: ", ")) to every record"
        }
        // The included files a save rewrote are named too (relative to the main file's folder when inside it).
        func includedNote(_ plan: FileSave) -> String {
            let folder = FileIO.folder(of: plan.target) + "/"
            let names = plan.includedPaths.map { TextSafety.sanitize($0.hasPrefix(folder) ? String($0.dropFirst(folder.count)) : $0) }
            return names.isEmpty ? "" : ", with the included file\(names.count == 1 ? "" : "s") " + names.joined(separator: ", ")
        }
        func saved(_ plan: FileSave) -> String {
            "\(TextSafety.sanitize(plan.target)) (\(plural(plan.changedCount, "changed transaction"))\(columnsNote(plan.addedColumns)))"
                + includedNote(plan)
        }
        if plans.count == 1, let plan = plans.first {
            printer.note("saved " + saved(plan))
        } else {
            let written = writing.map { plans[$0] }
            let names = written.map(saved)
            printer.note(names.isEmpty ? "nothing to save: no file changed" : "saved " + names.joined(separator: ", "))
        }
    }

    /// Renders one open file for a save: its imported transactions appended, then its changed rows edited in.
    func renderSave(file i: Int, target: String, ledger: Ledger, changed: [Int], categoryChanged: Set<Int>) throws(ShellError) -> FileSave {
        let f = files[i]
        let sub = f.isWholeLedger && f.rowCount == ledger.count ? ledger : ledger.gathering(f.segments)
        // The global rows of this file, in record order, and which of them changed.
        var local: [Int] = []
        var localCategory = Set<Int>()
        if f.isWholeLedger && f.rowCount == ledger.count {
            local = changed
            localCategory = categoryChanged
        } else {
            var base = 0
            for s in f.segments {
                for row in changed where s.contains(row) {
                    local.append(base + row - s.lowerBound)
                    if categoryChanged.contains(row) { localCategory.insert(base + row - s.lowerBound) }
                }
                base += s.count
            }
        }
        var document = f.document
        if !f.imports.isEmpty {
            // The imported transactions, as written at import, go at the end; their annotations are edited in like any change.
            let at = document.appendOffset
            var bytes = Array(document.bytes[..<at])
            let eol = document.lineEnding
            if at > 0 && document.bytes[at - 1] != 0x0A { bytes += eol }
            for chunk in f.imports {
                // A transaction of a journal or beancount file follows a blank line.
                if document.format != .csv, !bytes.isEmpty, !(bytes.count >= 2 * eol.count && Array(bytes.suffix(2 * eol.count)) == eol + eol) {
                    bytes += eol
                }
                bytes += chunk
            }
            bytes += document.bytes[at...]
            do throws(Diagnostic) {
                document = try document.reread(bytes, fileName: f.path ?? f.displayName, stamp: f.stamp)
            } catch {
                throw .failed("cannot append the imported transactions to \(TextSafety.sanitize(f.displayName)): \(error.message)")
            }
            let before = f.document.recordCount
            for r in before..<sub.count where !local.contains(r) { local.append(r); localCategory.insert(r) }
            local.sort()
        }
        let addedColumns = document.columnsAdded(sub, changedRows: local)
        let rendered: LedgerDocument.Rendered
        do throws(Diagnostic) {
            rendered = try document.renderForSave(sub, changedRows: local, categoryChanged: localCategory)
        } catch {
            throw .diagnostic(error)
        }
        let isOwnFile = f.path.map { FileIO.resolvingLinks($0) == FileIO.resolvingLinks(target) } ?? false
        return FileSave(index: i, target: target, rendered: rendered, base: document, addedColumns: addedColumns,
                        changedCount: local.count, isOwnFile: isOwnFile, includedPaths: rendered.included.compactMap(\.path))
    }

    /// The fingerprint the undo history is kept against: the file's bytes, or with several files, each file's in order.
    func historyFingerprint(_ hash: ([UInt8]) -> String = HistoryFile.fingerprint) -> String {
        files.map { hash($0.document.bytes) }.joined(separator: ";")
    }
}

extension Session {
    /// Whether a save moves the ledger's descriptions with its edits (`nextDocumentMovingNames`) rather than have
    /// the table copy them out first (`letGoOfFileBytes`): the file is a CSV file whose records are edited where
    /// they are, in `document`, and the table names `document`'s bytes (with imported transactions the edits are
    /// made to a document read anew). Asked before the write and again after it: the two answers must agree.
    func namesMove(with rendered: LedgerDocument.Rendered, in document: LedgerDocument) -> Bool {
        guard rendered.editsCSVInPlace, case .csv = document.layout else { return false }
        return ledger?.merchants.isSharing(document.bytes) == true
    }

    /// The next document of a CSV file saved with its records edited where they are (`edits`, the rendered
    /// document's `csvEdits`), the ledger's descriptions moved along: named in the edited bytes where the edits
    /// moved them, and copied out only from the records edited (`StringTable.detached(forEdits:)`). What else
    /// holds the table, as `letGoOfFileBytes` lists, lets go of the old bytes first, so they are edited where they
    /// are; a holder this misses (the suggestion index being built on another thread) makes the edit copy them,
    /// not go wrong.
    func nextDocumentMovingNames(_ rendered: inout LedgerDocument.Rendered, from base: inout LedgerDocument,
                                 edits: [(start: Int, end: Int, count: Int)]) -> LedgerDocument? {
        guard var l = ledger else { return rendered.nextDocument(from: &base) }
        ledger = nil
        l.merchants = l.merchants.detached(forEdits: edits)
        completionCache = nil
        // The working copy a preview kept: its table is the ledger's, under the same ids (then it follows the
        // ledger's), or else a copy of its own.
        let applied = appliedPreview
        var previewFollows = false
        if let tables = lastPreview?.tables, tables.merchants.sharesBuffer {
            previewFollows = tables.merchants.count == l.merchants.count
            lastPreview!.tables!.merchants = previewFollows ? l.merchants : tables.merchants.unshared()
        }
        merchantNames?.adopt(l.merchants)
        let next = rendered.nextDocument(from: &base)
        // (Nil only for a document that is not a CSV file's, which the caller rules out.)
        if let next { l.merchants = l.merchants.reattached(to: next.bytes) }
        merchantNames?.adopt(l.merchants)
        if previewFollows { lastPreview!.tables!.merchants = l.merchants }
        appliedPreview = applied
        ledger = l
        return next
    }

    /// Has the descriptions held by the ledger's own table, no longer named in the file's bytes (a CSV file's
    /// table names them there, not to keep them twice), and has what reads them read that table: the completion
    /// lists, and the working copy a preview of suggestions kept (a plan of suggestions adds no description, so
    /// its table is the ledger's, under the same ids). The save writes the file's next bytes over the old ones
    /// where they are, which it can do only once nothing else holds them; and kept by the table after the save,
    /// the old bytes would stay in memory beside the new.
    func letGoOfFileBytes() {
        guard var l = ledger, l.merchants.sharesBuffer else { return }
        ledger = nil
        l.merchants = l.merchants.unshared()
        merchantNames?.adopt(l.merchants)
        completionCache = nil
        if let tables = lastPreview?.tables, tables.merchants.sharesBuffer {
            let applied = appliedPreview
            lastPreview!.tables!.merchants = tables.merchants.count == l.merchants.count ? l.merchants : tables.merchants.unshared()
            appliedPreview = applied
        }
        ledger = l
    }
}
