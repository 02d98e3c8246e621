#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization
import TagshModel

/// A file-system failure, named by path and cause.
public struct FileError: Error, Sendable, Equatable, DiagnosticConvertible {
    public enum Kind: Sendable, Equatable {
        case notFound, isDirectory, permissionDenied, changedOnDisk, other(String)
    }
    public var path: String
    public var kind: Kind
    /// Whether this happened while reading (exit 66) or writing (exit 74).
    public var whileWriting: Bool
    /// What became of the other files of the same save, said under the error.
    public var note: String?
    /// What to do instead, when it is not what the kind of error usually suggests.
    public var hint: String?

    public init(path: String, kind: Kind, whileWriting: Bool) {
        self.path = path
        self.kind = kind
        self.whileWriting = whileWriting
    }

    public var diagnostic: Diagnostic {
        let what: String
        switch kind {
        case .notFound: what = "no such file"
        case .isDirectory: what = "is a directory, not a file"
        case .permissionDenied: what = "permission denied"
        case .changedOnDisk:
            return Diagnostic("\(path): changed on disk since it was opened or last saved; not saved",
                              notes: [hint ?? "hint: `save --force` overwrites it, or `save OTHER-FILE` keeps both"] + (note.map { [$0] } ?? []))
        case .other(let s): what = s
        }
        return Diagnostic("\(path): \(whileWriting ? "cannot write: " : "")\(what)", notes: note.map { [$0] } ?? [])
    }

    static func fromErrno(_ path: String, writing: Bool) -> FileError {
        let code = errno
        let kind: Kind
        switch code {
        case ENOENT: kind = .notFound
        case EISDIR: kind = .isDirectory
        case EACCES, EPERM: kind = .permissionDenied
        default: kind = .other(String(cString: strerror(code)))
        }
        return FileError(path: path, kind: kind, whileWriting: writing)
    }
}

/// What a file looked like on disk when it was read, to notice later changes.
public struct FileStamp: Sendable, Equatable {
    public var device: UInt64
    public var inode: UInt64
    public var size: Int64
    public var modified: Int64
    public var modifiedNanos: Int64
    public var mode: UInt32
}

/// Reading and atomically writing whole files.
public enum FileIO {
    /// The paths a shell pattern matches, sorted (none when nothing matches).
    public static func glob(_ pattern: String) -> [String] {
        var g = glob_t()
        defer { globfree(&g) }
        guard Glibc.glob(pattern, 0, nil, &g) == 0 else { return [] }
        return (0..<Int(g.gl_pathc)).compactMap { g.gl_pathv[$0].map { String(cString: $0) } }.sorted()
    }

    /// Fault injection for tests: a write to a path containing a key fails
    /// with EIO once that many bytes are written (a disk that fills up halfway).
    static let writeFaults = Mutex<[String: Int]>([:])

    public static func injectWriteFault(forPathContaining key: String, afterBytes: Int) {
        writeFaults.withLock { $0[key] = afterBytes }
    }

    public static func clearWriteFault(forPathContaining key: String) {
        _ = writeFaults.withLock { $0.removeValue(forKey: key) }
    }

    static func faultLimit(for path: String) -> Int? {
        writeFaults.withLock { faults in faults.first { path.contains($0.key) }?.value }
    }

    /// The bytes of a regular file and its stamp.
    /// Whether the file at `path` holds exactly `bytes` (a file whose time or inode changed may still hold what
    /// tagsh last read or wrote: an editor that saved it unchanged, a checkout that put it back).
    public static func holds(_ path: String, _ bytes: [UInt8]) -> Bool {
        guard let stamp = stamp(of: path), stamp.size == Int64(bytes.count), let now = try? read(path) else { return false }
        return now.bytes == bytes
    }

    public static func read(_ path: String) throws(FileError) -> (bytes: [UInt8], stamp: FileStamp) {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        if fd < 0 { throw .fromErrno(path, writing: false) }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0 else { throw .fromErrno(path, writing: false) }
        if (st.st_mode & S_IFMT) == S_IFDIR { throw FileError(path: path, kind: .isDirectory, whileWriting: false) }
        // Straight into the array, sized by the file (one copy from the kernel, not two); a file that grows
        // while it is read is read on in chunks.
        let expected = Int(st.st_size)
        var failed: Int32 = 0
        // With room to grow by a sixteenth: a save edits the bytes in place (`ByteSplice.apply`), and room the
        // edits do not use is never touched, so it costs address space, not memory.
        var bytes = [UInt8](unsafeUninitializedCapacity: expected + expected / 16 + 4096) { buffer, count in
            let base = buffer.baseAddress!
            // A large file's two halves are read at once (the copy from the kernel, and the fresh pages it
            // fills, are most of the time it takes).
            if expected >= FileIO.readsInHalvesFrom {
                let mid = expected / 2
                let (first, second) = Parallel.alongside({ readFully(fd, base + mid, expected - mid, at: mid) },
                                                         { () throws(Never) in readFully(fd, base, mid, at: 0) })
                if first.failed != 0 || second.failed != 0 {
                    failed = first.failed != 0 ? first.failed : second.failed
                    return
                }
                count = FileIO.lengthRead(first: first.count, second: second.count, mid: mid)
                lseek(fd, off_t(count), SEEK_SET)
                return
            }
            let read = readFully(fd, base, expected, at: nil)
            count = read.count
            failed = read.failed
        }
        if failed != 0 {
            errno = failed
            throw .fromErrno(path, writing: false)
        }
        if bytes.count == expected {
            var chunk = [UInt8](repeating: 0, count: 1 << 16)
            while true {
                let read = chunk.withUnsafeMutableBufferPointer { readFully(fd, $0.baseAddress!, $0.count, at: nil) }
                if read.failed != 0 {
                    errno = read.failed
                    throw .fromErrno(path, writing: false)
                }
                bytes.append(contentsOf: chunk[0..<read.count])
                // (`readFully` stops short of a whole chunk only at the end of the file.)
                if read.count < chunk.count { break }
            }
        }
        return (bytes, stamp(st))
    }

    /// From how many bytes a file is read in two halves at once.
    static let readsInHalvesFrom = 8 << 20

    /// How many of the bytes of a file read in two halves at once (`first` of the `mid` asked for the first
    /// half, `second` for the second) are the file's bytes from its start: only the first half's when it came
    /// back short (the file shrank while it was read), else both.
    static func lengthRead(first: Int, second: Int, mid: Int) -> Int { first < mid ? first : mid + second }

    /// Reads up to `count` bytes into `buffer`, from `offset` (`pread`) or else from where `fd` is; stops early
    /// only at the end of the file. `failed` is the errno of a failed read.
    private static func readFully(_ fd: Int32, _ buffer: UnsafeMutablePointer<UInt8>, _ count: Int, at offset: Int?)
        -> (count: Int, failed: Int32)
    {
        var done = 0
        while done < count {
            let n = offset.map { pread(fd, buffer + done, count - done, off_t($0 + done)) } ?? Glibc.read(fd, buffer + done, count - done)
            if n < 0 {
                if errno == EINTR { continue }
                return (done, errno)
            }
            if n == 0 { break }
            done += n
        }
        return (done, 0)
    }

    public static func stamp(of path: String) -> FileStamp? {
        var st = stat()
        guard stat(path, &st) == 0 else { return nil }
        return stamp(st)
    }

    static func stamp(_ st: stat) -> FileStamp {
        FileStamp(device: UInt64(st.st_dev), inode: UInt64(st.st_ino), size: Int64(st.st_size),
                  modified: Int64(st.st_mtim.tv_sec), modifiedNanos: Int64(st.st_mtim.tv_nsec),
                  mode: UInt32(st.st_mode))
    }

    /// The path a write to `path` should really replace: symbolic links are
    /// followed so that saving writes through to the target and keeps the link.
    public static func resolvingLinks(_ path: String) -> String {
        guard let resolved = realpath(path, nil) else { return path }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// Writes `bytes` to `path` atomically: a temporary file in the same
    /// folder, fsync, the original's mode, rename over, fsync the folder.
    /// On any failure the original is untouched and the temporary removed.
    public static func writeAtomically(_ bytes: [UInt8], to path: String, mode: UInt32? = nil) throws(FileError) {
        let temporary = try writeTemporary(bytes, for: path, mode: mode)
        try replace(path, with: temporary)
    }

    /// Writes `bytes` to a new temporary file beside `path` (same folder, so a rename can replace it),
    /// with `path`'s mode, and syncs it to disk; returns the temporary's path. Nothing is left behind on failure.
    public static func writeTemporary(_ bytes: [UInt8], for path: String, mode: UInt32? = nil) throws(FileError) -> String {
        try writeTemporary(ByteSplice(bytes), for: path, mode: mode)
    }

    /// Writes a splice's new bytes (the old bytes' runs and the edits, part by part) to a temporary beside `path`,
    /// as `writeTemporary(_:for:mode:)` does; the new file is never built in memory.
    public static func writeTemporary(_ content: ByteSplice, for path: String, mode: UInt32? = nil) throws(FileError) -> String {
        let target = resolvingLinks(path)
        // A device, a pipe or a socket is never replaced by a file (`> /dev/null` once replaced /dev/null).
        if let existing = stamp(of: target), existing.mode & 0o170000 != 0o100000 {
            throw FileError(path: path, kind: .other("not a regular file, so it is not replaced"), whileWriting: true)
        }
        let folder = FileIO.folder(of: target)
        let name = target.lastIndex(of: "/").map { String(target[target.index(after: $0)...]) } ?? target
        var template = ((folder == "/" ? "" : folder) + "/." + name + ".tagsh-XXXXXX").utf8CString
        let fd = template.withUnsafeMutableBufferPointer { $0.baseAddress.map { mkstemp($0) } ?? -1 }
        if fd < 0 { throw .fromErrno(path, writing: true) }
        let tmpPath = template.withUnsafeBufferPointer { $0.baseAddress.map { String(cString: $0) } ?? "" }
        var ok = false
        defer {
            if !ok { unlink(tmpPath) }
        }
        defer { close(fd) }
        var output = GatheringWriter(fd: fd, path: path, faultAt: faultLimit(for: target))
        // Short parts (the edits, and the old bytes between close edits) are gathered into one buffer; long runs
        // of old bytes go to the kernel as they are.
        try content.forEachPart { (part: UnsafeBufferPointer<UInt8>) throws(FileError) in try output.put(part) }
        try output.flush()
        let existingMode = mode ?? stamp(of: target).map { $0.mode & 0o7777 } ?? 0o644
        if fchmod(fd, mode_t(existingMode)) != 0 { throw FileError.fromErrno(path, writing: true) }
        if fsync(fd) != 0 { throw FileError.fromErrno(path, writing: true) }
        ok = true
        return tmpPath
    }

    /// A file being written: short parts are gathered, long ones written straight through.
    private struct GatheringWriter {
        let fd: Int32
        let path: String
        /// Fault injection: the write fails with EIO once this many bytes are written.
        let faultAt: Int?
        var written = 0
        var pending: [UInt8] = []
        static let gather = 1 << 20

        init(fd: Int32, path: String, faultAt: Int?) {
            self.fd = fd
            self.path = path
            self.faultAt = faultAt
            pending.reserveCapacity(GatheringWriter.gather)
        }

        mutating func put(_ part: UnsafeBufferPointer<UInt8>) throws(FileError) {
            if part.count >= GatheringWriter.gather / 4 {
                try flush()
                written = try write(part, at: written)
            } else {
                if pending.count + part.count > GatheringWriter.gather { try flush() }
                pending.append(contentsOf: part)
            }
        }

        mutating func flush() throws(FileError) {
            guard !pending.isEmpty else { return }
            let at = written
            written = try pending.withUnsafeBufferPointer { p throws(FileError) in try write(p, at: at) }
            pending.removeAll(keepingCapacity: true)
        }

        /// Writes `part` after `written` bytes; returns how many are written then.
        private func write(_ part: UnsafeBufferPointer<UInt8>, at start: Int) throws(FileError) -> Int {
            var written = start
            var done = 0
            while done < part.count {
                if let faultAt, written >= faultAt {
                    errno = EIO
                    throw FileError.fromErrno(path, writing: true)
                }
                let chunk = faultAt.map { min(part.count - done, max(1, $0 - written)) } ?? (part.count - done)
                let n = Glibc.write(fd, part.baseAddress! + done, chunk)
                if n < 0 {
                    if errno == EINTR { continue }
                    throw FileError.fromErrno(path, writing: true)
                }
                done += n
                written += n
            }
            return written
        }
    }

    /// Renames a temporary written by `writeTemporary` over `path`, then syncs the folder (`syncFolder`: false when
    /// the caller renames another file into the same folder next and syncs it once for both; a folder's sync is a
    /// journal commit, 50 ms on this machine's disk).
    public static func replace(_ path: String, with temporary: String, syncFolder: Bool = true) throws(FileError) {
        let target = resolvingLinks(path)
        if rename(temporary, target) != 0 {
            let error = FileError.fromErrno(path, writing: true)
            unlink(temporary)
            throw error
        }
        if syncFolder { FileIO.syncFolder(of: target) }
    }

    /// Syncs the folder `path` is in, so that the renames made in it last through a crash.
    public static func syncFolder(of path: String) {
        let dfd = open(FileIO.folder(of: path), O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if dfd >= 0 { fsync(dfd); close(dfd) }
    }

    /// The folder a path names a file in: `a/b.csv` → `a`, `/b.csv` → `/`, `b.csv` → `.`.
    public static func folder(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// Writes `bytes` into an existing device or pipe (`> /dev/null`, `> /dev/stderr`), which is written, never replaced.
    public static func writeInPlace(_ bytes: [UInt8], to path: String) throws(FileError) {
        let fd = open(path, O_WRONLY | O_CLOEXEC)
        if fd < 0 { throw .fromErrno(path, writing: true) }
        defer { close(fd) }
        var written = 0
        while written < bytes.count {
            let n = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + written, bytes.count - written) }
            if n < 0 {
                if errno == EINTR { continue }
                throw .fromErrno(path, writing: true)
            }
            written += n
        }
    }

    /// Whether `path` names something other than a regular file (a device, a pipe, a socket).
    public static func isSpecial(_ path: String) -> Bool {
        guard let s = stamp(of: resolvingLinks(path)) else { return false }
        return s.mode & 0o170000 != 0o100000 && s.mode & 0o170000 != 0o040000
    }

    /// Removes a temporary that will not be used.
    public static func discardTemporary(_ temporary: String) { unlink(temporary) }

    /// Keeps the current `path` as `path.bak`. Saves replace a file by renaming
    /// a new one over it, so the original's inode can simply be linked as the
    /// backup (no copy); where linking is not possible, it is copied.
    public static func backUp(_ path: String) throws(FileError) {
        let target = resolvingLinks(path)
        let backup = target + ".bak"
        unlink(backup)
        if link(target, backup) == 0 { return }
        let (bytes, stamp) = try read(target)
        try writeAtomically(bytes, to: backup, mode: stamp.mode & 0o7777)
    }

    public static func exists(_ path: String) -> Bool { access(path, F_OK) == 0 }

    /// Makes a folder and those above it as needed, private to the person (mode 0700).
    public static func makeFolders(_ folder: String) {
        var path = folder.hasPrefix("/") ? "" : "."
        for part in folder.split(separator: "/") {
            path += "/" + part
            mkdir(path, 0o700)
        }
    }
}
