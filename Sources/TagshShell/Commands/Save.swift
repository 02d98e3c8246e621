import TagshFormats
import TagshModel

extension Commands {
    static let save = Command(
        name: "save", group: .files, forms: [[.optional([.file])]],
        summary: "write the ledger back to its file, changing only what was changed",
        details: """
            Writes atomically (a temporary file, fsync, rename), keeps the file's mode, and before the first \
            save of a session keeps the original as FILE.bak. A file opened and saved with no change is \
            byte-identical. If the file changed on disk since it was opened, save refuses; --force overwrites it. \
            With FILE, writes a copy there in the same format (the demo ledger, which has no file, is then \
            saved to FILE from then on). Saving also rewrites the sidecar FILE.tagsh where what it declares \
            changed (every other line kept), and writes the undo history to FILE.tagsh-history.
            """,
        options: [.init("force", "overwrite even if the file changed on disk since it was opened")],
        examples: ["save", "save --force", "save cleaned.csv"]
    ) { (inv: inout Invocation) throws(ShellError) in
        try inv.expectAtMost(1)
        try inv.session.save(to: inv.words.first?.text, force: inv.flag("force"))
    }
}

extension Session {
    /// Saves to `path`, or to the open file.
    func save(to path: String?, force: Bool) throws(ShellError) {
        guard let ledger, var file else { throw .noLedger }
        guard let target = path ?? file.path else {
            throw .failed("the demo ledger has no file of its own; use `save FILE`")
        }
        let changed = baseline.changedRows(ledger)
        let addedColumns = file.document.columnsAdded(ledger, changedRows: changed)
        let outputs: [LedgerDocument.Output]
        let nextDocument: LedgerDocument?
        let categoryChanged = baseline.categoryChangedRows(ledger, among: changed)
        do throws(Diagnostic) {
            (outputs, nextDocument) = try file.document.renderForSave(ledger, changedRows: changed, categoryChanged: categoryChanged)
        } catch {
            throw .diagnostic(error)
        }
        let main = outputs.first { $0.path == nil }?.bytes ?? file.document.bytes
        let included = outputs.filter { $0.path != nil }
        let isOwnFile = file.path.map { FileIO.resolvingLinks($0) == FileIO.resolvingLinks(target) } ?? false
        if !isOwnFile && !included.isEmpty {
            throw .failed("changes in included files can only be saved in place: `save` without a file name")
        }
        if isOwnFile && !force {
            if let stamp = file.stamp, FileIO.stamp(of: target) != stamp {
                throw .file(FileError(path: target, kind: .changedOnDisk, whileWriting: true))
            }
            if case .text(let layout) = file.document.layout {
                for out in included {
                    if let f = layout.files.first(where: { $0.path == out.path }), let stamp = f.stamp, FileIO.stamp(of: f.path) != stamp {
                        throw .file(FileError(path: f.path, kind: .changedOnDisk, whileWriting: true))
                    }
                }
            }
        }
        try checkInterrupted() // Ctrl-C while rendering: nothing is written
        do throws(FileError) {
            // Included files first, then the main file; each keeps one .bak per session.
            for out in included {
                guard let p = out.path else { continue }
                if !file.backedUpPaths.contains(p) { try FileIO.backUp(p); file.backedUpPaths.insert(p) }
                try FileIO.writeAtomically(out.bytes, to: p)
            }
            if isOwnFile && !file.backedUp && FileIO.exists(target) {
                try FileIO.backUp(target)
                file.backedUp = true
            }
            try FileIO.writeAtomically(main, to: target)
        } catch {
            throw .file(error)
        }
        // Saving to another file writes a copy; the open file stays as it was,
        // except for the demo, which has no file of its own and adopts this one.
        if isOwnFile || file.path == nil {
            let name = target.split(separator: "/").last.map(String.init) ?? target
            file.stamp = FileIO.stamp(of: FileIO.resolvingLinks(target))
            if let nextDocument, isOwnFile {
                // Journals and beancount: the layout follows the edits; nothing is read again.
                file.document = nextDocument.restamped()
            } else {
                do throws(Diagnostic) { file.document = try file.document.reread(main, fileName: target, stamp: file.stamp, addedColumns: addedColumns) } catch {
                    throw .failed("saved \(target), but could not read it back: \(error.message)")
                }
            }
            let adopting = file.path == nil
            file.path = target
            file.displayName = name
            columnCache = [:]
            self.file = file
            baseline = Baseline(ledger)
            savedPosition = position
            removeJournal()
            // What the file now brings by itself: the categories its rows use, and the accounts of postings
            // that cannot carry a category (in a journal, a transaction with more than two postings).
            fileCategories = Set(ledger.category.lazy.filter { $0 != 0 }).union(postingOnlyCategories)
            if adopting {
                sidecar = Sidecar(path: Session.sidecarPath(for: target))
                sidecarBaseline = [:]
            }
            try writeSidecar()
            if let (map, header) = mappingToRemember, let memory = columnMemoryPath {
                do throws(FileError) { try ColumnMemory(path: memory).remember(map, header: header) } catch { throw .file(error) }
                mappingToRemember = nil
            }
            try writeHistory(path: target, bytes: main)
        }
        self.file = file
        let columnsNote = addedColumns.isEmpty ? ""
            : "; added the column\(addedColumns.count == 1 ? "" : "s") \(addedColumns.joined(separator: ", ")) to every record"
        printer.note("saved \(TextSafety.sanitize(target)) (\(plural(changed.count, "changed transaction"))\(columnsNote))")
    }
}
