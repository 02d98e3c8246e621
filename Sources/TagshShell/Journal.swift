#if canImport(Glibc)
import Glibc
#endif
import TagshFormats
import TagshModel

/// The recovery journal and `record`: append-only command files.
///
/// While there are unsaved changes, every mutating command is appended to
/// `LEDGER.tagsh-recover` and written to the kernel before the command returns,
/// so a crash or a SIGKILL loses nothing: opening the ledger again offers
/// `recover` (replay) or `discard`. A save removes the journal, and so does a
/// normal exit, where unsaved changes are discarded on purpose.
final class AppendFile {
    let path: String
    private let fd: Int32

    init(path: String) throws(FileError) {
        self.path = path
        fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o600)
        if fd < 0 { throw FileError(path: path, kind: .permissionDenied, whileWriting: true) }
    }

    deinit { close(fd) }

    /// Appends one line with a single write(2): once it returns, a killed process keeps it.
    func append(_ line: String, newline: Bool = true) throws(FileError) {
        let bytes = Array((newline ? line + "\n" : line).utf8)
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { $0.baseAddress.map { write(fd, $0 + offset, bytes.count - offset) } ?? -1 }
            if n < 0 {
                if errno == EINTR { continue }
                throw FileError(path: path, kind: .other(String(cString: strerror(errno))), whileWriting: true)
            }
            offset += n
        }
    }
}

extension Session {
    /// `bank.csv` → `bank.csv.tagsh-recover`.
    public static func recoveryPath(for path: String) -> String { path + ".tagsh-recover" }

    /// Refuses changes while a recovery journal from an earlier session waits for `recover` or `discard`.
    func checkCanChange() throws(ShellError) {
        if let pending = pendingRecovery {
            throw .failed("\(pending) holds unsaved changes from a session that ended abruptly: `recover` replays them, `discard` drops them")
        }
    }

    /// Appends a mutating command to the recovery journal (not while replaying it).
    func journal(_ line: String) throws(ShellError) {
        guard let path = file?.path else { return }
        do throws(FileError) {
            if journalFile == nil {
                let journal = try AppendFile(path: Session.recoveryPath(for: path))
                try journal.append("# tagsh recovery journal for \(path): replayed by `recover`")
                journalFile = journal
            }
            try journalFile?.append(line)
        } catch {
            throw .file(error)
        }
    }

    /// Replays the journal a session that ended abruptly left, as unsaved
    /// changes; later changes are appended to the same journal.
    /// Returns how many commands it replayed (what the notice at open counted; not the steps, which may
    /// include earlier sessions' and from which undos take some away).
    @discardableResult
    func recover() throws(ShellError) -> Int {
        guard let journal = pendingRecovery else { throw .failed("there is nothing to recover") }
        let text: String
        do throws(FileError) { text = String(decoding: try FileIO.read(journal).bytes, as: UTF8.self) } catch { throw .file(error) }
        pendingRecovery = nil
        loading = .recovery
        let status = runScript(text, name: journal)
        loading = nil
        do throws(FileError) { journalFile = try AppendFile(path: journal) } catch { throw .file(error) }
        if case .failed = status { throw .failed("recovery stopped at the first command that failed; what ran before it is applied") }
        return Session.journalCommands(text)
    }

    /// The commands a recovery journal holds: its lines but comments and blank ones.
    static func journalCommands(_ text: String) -> Int {
        text.split(separator: "\n").filter { !$0.hasPrefix("#") && !$0.isEmpty }.count
    }

    /// Drops the journal a session that ended abruptly left.
    func discardRecovery() throws(ShellError) {
        guard pendingRecovery != nil else { throw .failed("there is nothing to discard") }
        pendingRecovery = nil
        removeJournal()
    }

    /// Deletes the journal: after a save, or at a normal exit.
    func removeJournal() {
        journalFile = nil
        if let path = file?.path { unlink(Session.recoveryPath(for: path)) }
    }

    /// Ends the session normally: unsaved changes are discarded on purpose, so the journal goes. A script that
    /// changed a file and did not save it says so (at the prompt, `quit` has warned already).
    public func close() {
        if !isInteractive, hasUnsavedChanges, let f = file, f.path != nil {
            printer.note("discarded the unsaved changes to \(TextSafety.sanitize(f.displayName)): a script keeps them with `save`")
        }
        if pendingRecovery == nil { removeJournal() }
        record = nil
    }

    /// Notices a journal left by a session that did not end normally.
    func checkForRecovery(path: String) {
        let journal = Session.recoveryPath(for: path)
        guard FileIO.exists(journal) else { return }
        pendingRecovery = journal
        let lines = (try? FileIO.read(journal).bytes).map { String(decoding: $0, as: UTF8.self) } ?? ""
        let n = Session.journalCommands(lines)
        printer.note("\(TextSafety.sanitize(path)): a session that ended without saving left \(plural(n, "command")) in \(TextSafety.sanitize(journal)).")
        printer.note("`recover` replays them; `discard` drops them.")
    }
}
