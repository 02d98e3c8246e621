import FoundationEssentials
import Glibc
import TagshShell
import TagshTerminal
#if canImport(Glibc)
import Glibc
#endif

/// What the executable needs from the terminal and the file system.
enum Terminal {
    static func columns() -> Int? { KeyReader.size()?.columns }
    static func rows() -> Int? { KeyReader.size()?.rows }

    /// `$XDG_STATE_HOME/tagsh/history`, default `~/.local/state/tagsh/history`;
    /// the folder is created (mode 0700). Nil when there is no home.
    static func historyPath() -> String? {
        let env = ProcessInfo.processInfo.environment
        let base: String
        if let state = env["XDG_STATE_HOME"], state.hasPrefix("/") {
            base = state
        } else if let home = env["HOME"], !home.isEmpty {
            base = home + "/.local/state"
        } else {
            return nil
        }
        let folder = base + "/tagsh"
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true,
                                                 attributes: [.posixPermissions: 0o700])
        return folder + "/history"
    }

    static func listDirectory(_ path: String) -> [(name: String, isDirectory: Bool)] {
        let home = getenv("HOME").map { String(cString: $0) } ?? ""
        let expanded = path.hasPrefix("~/") && !home.isEmpty ? home + path.dropFirst(1) : path
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: expanded) else { return [] }
        return names.map { name in
            var st = stat()
            let isDirectory = stat(expanded + "/" + name, &st) == 0 && (st.st_mode & S_IFMT) == S_IFDIR
            return (name, isDirectory)
        }
    }
}

/// Standard output, buffered per command, and standard error, with stdout
/// flushed first so the two stay in order.
final class StandardSink: OutputSink {
    private var buffer: [UInt8] = []

    func write(_ text: String, to stream: OutputChannel) {
        switch stream {
        case .out:
            buffer.append(contentsOf: text.utf8)
            if buffer.count > 1 << 16 { flush() }
        case .err:
            flush()
            writeAll(2, Array(text.utf8))
        }
    }

    func error(_ text: String) { write(text, to: .err) }

    func flush() {
        guard !buffer.isEmpty else { return }
        writeAll(1, buffer)
        buffer.removeAll(keepingCapacity: true)
    }

    private func writeAll(_ fd: Int32, _ bytes: [UInt8]) {
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { $0.baseAddress.map { Glibc.write(fd, $0 + offset, bytes.count - offset) } ?? -1 }
            if n < 0 {
                if errno == EINTR { continue }
                return
            }
            offset += n
        }
    }
}

/// The session's console on a real terminal: single keys in raw mode, prompts
/// through the shell's own line editor (with Tab completion), `$VISUAL` /
/// `$EDITOR` for long text. Output the session buffered is shown before each wait.
final class TerminalConsole: Console {
    let editor: LineEditor
    let sink: StandardSink

    init(editor: LineEditor, sink: StandardSink) {
        self.editor = editor
        self.sink = sink
    }

    var size: (columns: Int, rows: Int) { KeyReader.size() ?? (80, 24) }
    var redraws: Bool { true }

    func readKey() -> Key {
        sink.flush()
        switch KeyReader.readKey() {
        case .character(" "): return .space
        case .character(let c): return .character(c)
        case .enter: return .enter
        case .backspace: return .backspace
        case .escape: return .escape
        case .tab: return .tab
        case .interrupt: return .interrupt
        case .endOfInput: return .endOfInput
        case .up: return .up
        case .down: return .down
        case .left: return .left
        case .right: return .right
        }
    }

    func leave() { KeyReader.leaveRawMode() }

    func readLine(prompt: String, initial: String, complete: @escaping (String) -> (replacing: Int, candidates: [String])) -> String? {
        sink.flush()
        KeyReader.leaveRawMode()
        return editor.readLine(prompt: prompt, initial: initial) { text in
            let r = complete(text)
            return CompletionOffer(replacing: r.replacing, candidates: r.candidates)
        }
    }

    func edit(_ text: String) -> String? {
        sink.flush()
        KeyReader.leaveRawMode()
        let env = ProcessInfo.processInfo.environment
        let program = env["VISUAL"].flatMap { $0.isEmpty ? nil : $0 } ?? env["EDITOR"].flatMap { $0.isEmpty ? nil : $0 } ?? "vi"
        let folder = env["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        let path = folder + (folder.hasSuffix("/") ? "" : "/") + "tagsh-note-\(getpid()).txt"
        guard FileManager.default.createFile(atPath: path, contents: Data((text + "\n").utf8)) else { return nil }
        defer { unlink(path) }
        // The editor is a shell command ($EDITOR may hold options); the path is quoted for the shell.
        let status = system(program + " '" + path.split(separator: "'", omittingEmptySubsequences: false).joined(separator: "'\\''") + "'")
        guard status == 0, let data = FileManager.default.contents(atPath: path) else { return nil }
        var edited = String(decoding: data, as: UTF8.self)
        while edited.hasSuffix("\n") { edited.removeLast() }
        return edited
    }
}
