import CLibEdit
#if canImport(Glibc)
import Glibc
#endif

/// Completion candidates as a Tab reads them: how many, each one's UTF-8 for their common prefix, and the texts
/// themselves only when they are listed or one is inserted. (A `desc:` Tab on a million descriptions may match
/// half a million: making a `String` of each was most of the Tab, to print none of them.)
public protocol CompletionCandidates: Sendable {
    var count: Int { get }
    /// Calls `body` with each candidate's UTF-8, best first, until it returns false.
    func forEachUTF8(_ body: (UnsafeBufferPointer<UInt8>) -> Bool)
    /// The candidates, best first.
    var strings: [String] { get }
    /// Their common prefix (`LineEditor.longestCommonPrefix`) when it is known without reading each one.
    var knownCommonPrefix: String? { get }
}

extension CompletionCandidates {
    public var knownCommonPrefix: String? { nil }
}

extension Array: CompletionCandidates where Element == String {
    public func forEachUTF8(_ body: (UnsafeBufferPointer<UInt8>) -> Bool) {
        for s in self {
            var copy = s
            guard copy.withUTF8(body) else { return }
        }
    }

    public var strings: [String] { self }
}

/// What completion offers for the word before the cursor.
public struct CompletionOffer: Sendable {
    /// How many characters before the cursor the candidates replace.
    public var replacing: Int
    /// Full replacement texts, best first.
    public var candidates: any CompletionCandidates

    public init(replacing: Int, candidates: any CompletionCandidates) {
        self.replacing = replacing
        self.candidates = candidates
    }
}

/// A line editor on libedit's native API: prompt, history kept in a file,
/// `~/.editrc`, Ctrl-R search, Ctrl-C to clear the line, and Tab completion.
///
/// Use only when standard input and output are both terminals.
public final class LineEditor {
    public enum Input: Equatable {
        case line(String)
        /// Ctrl-C: the line was cleared.
        case interrupted
        /// Ctrl-D on an empty line, or end of input.
        case endOfInput
    }

    let el: OpaquePointer
    let hist: OpaquePointer
    let historyPath: String?
    var prompt: () -> String
    var complete: (_ textBeforeCursor: String) -> CompletionOffer
    var promptBuffer: UnsafeMutablePointer<CChar>?
    /// The line and cursor of the last Tab, so a second Tab lists the matches.
    var lastTab: (text: String, count: Int)?
    /// The line and the cursor's byte offset just after a Tab that inserted a word and a space (`insertComma`).
    var spaceAfterCompletion: (line: String, cursor: Int)?

    /// Sets up libedit; `programName` selects `~/.editrc` lines prefixed with it.
    public init(programName: String, historyPath: String?, prompt: @escaping () -> String,
                complete: @escaping (String) -> CompletionOffer) {
        self.historyPath = historyPath
        self.prompt = prompt
        self.complete = complete
        el = el_init(programName, tagsh_stdin(), tagsh_stdout(), tagsh_stderr())
        hist = history_init()
        tagsh_history_setsize(hist, 5000)
        tagsh_history_setunique(hist, 1)
        if let historyPath { tagsh_history_load(hist, historyPath) }
        tagsh_el_set_clientdata(el, Unmanaged.passUnretained(self).toOpaque())
        tagsh_el_set_editor(el, "emacs")
        tagsh_el_set_signal(el, 1)
        tagsh_el_set_hist(el, hist)
        tagsh_el_set_prompt(el, lineEditorPrompt)
        tagsh_el_addfn(el, "tagsh-complete", "complete the word before the cursor", lineEditorComplete)
        tagsh_el_bind(el, "^I", "tagsh-complete")
        // Bracketed paste: what a terminal sends between ESC[200~ and ESC[201~ is inserted as it is
        // (a pasted Tab does not complete, a pasted line break does not run the line).
        tagsh_el_addfn(el, "tagsh-paste", "insert pasted text as it is", lineEditorPaste)
        tagsh_el_bind(el, "\\e[200~", "tagsh-paste")
        // A comma typed just after a completion's space takes the space's place, as zsh drops its completion's
        // suffix: `category Streaming, +tv`, not `category Streaming , +tv`.
        tagsh_el_addfn(el, "tagsh-comma", "a comma, in place of the space a completion just added", lineEditorComma)
        tagsh_el_bind(el, ",", "tagsh-comma")
        // Ctrl-X Ctrl-E: the line in $VISUAL / $EDITOR, as bash and zsh do.
        tagsh_el_addfn(el, "tagsh-edit", "edit the line in $VISUAL or $EDITOR", lineEditorEdit)
        tagsh_el_bind(el, "^X^E", "tagsh-edit")
        // The person's own ~/.editrc (or $EDITRC) comes last, so it wins.
        el_source(el, nil)
    }

    deinit {
        saveHistory()
        el_end(el)
        history_end(hist)
        free(promptBuffer)
    }

    /// Reads one line; the newline is removed. Needs `Interrupt.installHandler()`
    /// to tell Ctrl-C from Ctrl-D everywhere.
    /// Opens the line in an editor (Ctrl-X Ctrl-E): given the text, the edited text or nil. The front end sets it.
    public var editLine: ((String) -> String?)?

    public func readLine() -> Input {
        var count: Int32 = 0
        errno = 0
        Interrupt.reset()
        // The terminal marks pasted text while a line is read (and only then: a pager or an editor does not want it).
        LineEditor.writeToTerminal("\u{1B}[?2004h")
        defer { LineEditor.writeToTerminal("\u{1B}[?2004l") }
        interruptedInCallback = false
        spaceAfterCompletion = nil
        let read = el_gets(el, &count)
        if interruptedInCallback {
            interruptedInCallback = false
            return .interrupted
        }
        guard let cLine = read else {
            if count == -1 && errno == EINTR { return .interrupted }
            // Ctrl-C during Ctrl-R search: libedit's em-inc-search-prev takes
            // the failed read for end of file and returns count 0, as Ctrl-D
            // does. Only the SIGINT libedit re-raises tells the two apart.
            if Interrupt.wasRequested { return .interrupted }
            return .endOfInput
        }
        if count == 0 { return .endOfInput }
        var line = String(cString: cLine)
        if line.hasSuffix("\n") { line.removeLast() }
        return .line(line)
    }

    /// Reads one line after another prompt, with another completion (an interactive loop's question);
    /// the shell's prompt and completion come back after it. Nil when cancelled (Ctrl-C, Ctrl-D).
    public func readLine(prompt other: String, initial: String = "", complete otherComplete: @escaping (String) -> CompletionOffer) -> String? {
        let (savedPrompt, savedComplete) = (prompt, complete)
        prompt = { other }
        complete = otherComplete
        defer { prompt = savedPrompt; complete = savedComplete }
        // The text to edit, as if typed.
        if !initial.isEmpty { el_push(el, initial) }
        if case .line(let l) = readLine() { return l }
        return nil
    }

    /// Adds a line to the history and saves the history file.
    public func addHistory(_ line: String) {
        tagsh_history_enter(hist, line)
        saveHistory()
    }

    func saveHistory() {
        guard let historyPath else { return }
        tagsh_history_save(hist, historyPath)
        chmod(historyPath, 0o600)
    }

    /// The terminal's width as libedit knows it.
    public var columns: Int { Int(tagsh_el_get_columns(el)) }

    /// Where libedit writes (a completion's question and list go there too).
    var outFile: UnsafeMutablePointer<FILE>? { tagsh_el_get_outfp(el) ?? tagsh_stdout() }

    func promptString() -> UnsafeMutablePointer<CChar>? {
        free(promptBuffer)
        promptBuffer = strdup(prompt())
        return promptBuffer
    }

    func completeAtCursor() -> UInt8 {
        guard let info = el_line(el)?.pointee, let buffer = info.buffer, let cursor = info.cursor else {
            return UInt8(CC_REFRESH_BEEP)
        }
        let before = String(decoding: UnsafeBufferPointer(start: UnsafeRawPointer(buffer).assumingMemoryBound(to: UInt8.self),
                                                          count: cursor - buffer), as: UTF8.self)
        let offer = complete(before)
        let typed = String(before.suffix(offer.replacing))
        let isSecondTab = lastTab.map { $0.text == before } ?? false
        lastTab = (before, offer.candidates.count)
        guard offer.candidates.count > 0 else { return UInt8(CC_REFRESH_BEEP) }
        if offer.candidates.count == 1 {
            // A folder or a query key (`date:`) is not finished: no space after it.
            let only = offer.candidates.strings[0]
            let spaced = !(only.hasSuffix("/") || only.hasSuffix(":"))
            replace(typed, with: only + (spaced ? " " : ""))
            lastTab = nil
            spaceAfterCompletion = spaced ? currentLine() : nil
            return UInt8(CC_REFRESH)
        }
        let common = LineEditor.longestCommonPrefix(offer.candidates)
        if common.count > typed.count || (common.count == typed.count && common != typed && !common.isEmpty) {
            replace(typed, with: common)
            lastTab = (String(before.dropLast(typed.count)) + common, offer.candidates.count)
            return UInt8(CC_REFRESH)
        }
        guard isSecondTab else { return UInt8(CC_REFRESH_BEEP) }
        let rows = editRows(info)
        if offer.candidates.count >= LineEditor.askFrom {
            switch confirmList(offer.candidates.count, rows) {
            case true?: break
            case false?: return UInt8(CC_REDISPLAY)
            case nil:
                // Ctrl-C at the question: the line ends as Ctrl-C at the prompt ends it (libedit, whose read it
                // interrupted, would otherwise keep reading with its handler gone, and take no Ctrl-C after it).
                interruptedInCallback = true
                return UInt8(CC_NEWLINE)
            }
        }
        listCandidates(offer.candidates.strings, rows, afterQuestion: offer.candidates.count >= LineEditor.askFrom)
        return UInt8(CC_REDISPLAY)
    }

    /// The line being edited, as libedit holds it (valid until the line changes), and the cursor's byte offset in it.
    func lineBytes() -> (bytes: UnsafeBufferPointer<UInt8>, cursor: Int)? {
        guard let info = el_line(el)?.pointee, let buffer = info.buffer, let cursor = info.cursor, let last = info.lastchar else { return nil }
        return (UnsafeBufferPointer(start: UnsafeRawPointer(buffer).assumingMemoryBound(to: UInt8.self), count: last - buffer), cursor - buffer)
    }

    /// The line being edited and the cursor's byte offset in it.
    func currentLine() -> (line: String, cursor: Int)? {
        lineBytes().map { (String(decoding: $0.bytes, as: UTF8.self), $0.cursor) }
    }

    /// Inserts a comma; just after a completion's space, with the line as the completion left it, in the
    /// space's place.
    func insertComma() -> UInt8 {
        if let after = spaceAfterCompletion, let now = currentLine(), now.line == after.line, now.cursor == after.cursor {
            el_deletestr(el, 1)
        }
        spaceAfterCompletion = nil
        el_insertstr(el, ",")
        return UInt8(CC_REFRESH)
    }

    /// Set when Ctrl-C answered a question inside a key's callback: `readLine` reports the line as interrupted.
    var interruptedInCallback = false

    /// The rows the line takes on the screen below the prompt's: the cursor's, and the last (the line wraps at the
    /// terminal's width). After a list is printed, libedit redraws the line by moving up as many rows as the
    /// cursor's from where it thinks the cursor is; printing is started below the last row, and that many lines
    /// are left after it, so the redrawn line lands below the list rather than over its last rows.
    func editRows(_ info: LineInfo) -> (cursor: Int, last: Int) {
        guard let buffer = info.buffer, let cursor = info.cursor, let last = info.lastchar else { return (0, 0) }
        let width = max(1, columns)
        func cells(_ text: String) -> Int { text.unicodeScalars.reduce(0) { $0 + max(0, Int(tagsh_wcwidth($1.value))) } }
        func text(_ end: UnsafePointer<CChar>) -> String {
            String(decoding: UnsafeBufferPointer(start: UnsafeRawPointer(buffer).assumingMemoryBound(to: UInt8.self), count: end - buffer),
                   as: UTF8.self)
        }
        let prompt = promptBuffer.map { cells(String(cString: $0)) } ?? 0
        return ((prompt + cells(text(cursor))) / width, (prompt + cells(text(last))) / width)
    }

    /// Moves from the cursor's row to below the line's last row, where output may start.
    func leaveLine(_ rows: (cursor: Int, last: Int), _ fp: UnsafeMutablePointer<FILE>) {
        fputs(String(repeating: "\n", count: rows.last - rows.cursor + 1), fp)
    }

    /// After output that ended a line: the lines libedit moves up over before it redraws the line (see `editRows`).
    func makeRoomForRedraw(_ rows: (cursor: Int, last: Int), _ fp: UnsafeMutablePointer<FILE>) {
        fputs(String(repeating: "\n", count: rows.cursor), fp)
        fflush(fp)
    }

    /// From this many candidates on, they are listed only once the person says so, as readline asks (its
    /// `completion-query-items`): a `desc:` Tab on a ledger of a million descriptions would print them all.
    static let askFrom = 100

    /// Asks `Display all N possibilities? (y or n)` and reads keys until one answers it: true to list them, false
    /// not to, nil when Ctrl-C interrupted the question.
    func confirmList(_ count: Int, _ rows: (cursor: Int, last: Int)) -> Bool? {
        guard let fp = outFile else { return false }
        leaveLine(rows, fp)
        fputs("Display all \(count) possibilities? (y or n)", fp)
        fflush(fp)
        // As readline answers: y, Y or Space lists them; n, N, Delete, Backspace, Enter, Ctrl-G or Ctrl-D does
        // not; another key rings the bell and the question waits. A key that sends a sequence (an arrow, a
        // paste) is read whole, so none of it lands on the line.
        var yes: Bool?
        while yes == nil {
            var c: CChar = 0
            guard el_getc(el, &c) == 1 else {
                if Interrupt.wasRequested {
                    fputs("\n", fp)
                    fflush(fp)
                    return nil
                }
                yes = false
                break
            }
            switch UInt8(bitPattern: c) {
            case 0x79, 0x59, 0x20: yes = true
            case 0x6E, 0x4E, 0x7F, 0x08, 0x0D, 0x0A, 0x07, 0x04: yes = false
            case 0x1B:
                skipEscapeSequence()
                fputs("\u{07}", fp)
                fflush(fp)
            default:
                fputs("\u{07}", fp)
                fflush(fp)
            }
        }
        // The list starts on the line after the question; or, for no, the line is redrawn there.
        fputs("\n", fp)
        if yes != true { makeRoomForRedraw(rows, fp) }
        fflush(fp)
        return yes
    }

    /// Reads the rest of a sequence that began with ESC, from the bytes already waiting (a lone Escape is a key of
    /// its own): `ESC [ ... final` or `ESC O x`, and a bracketed paste up to its end mark.
    func skipEscapeSequence() {
        func next() -> UInt8? {
            var p = pollfd(fd: 0, events: Int16(POLLIN), revents: 0)
            guard poll(&p, 1, 50) == 1 else { return nil }
            var c: CChar = 0
            return el_getc(el, &c) == 1 ? UInt8(bitPattern: c) : nil
        }
        guard let kind = next(), kind == 0x5B || kind == 0x4F else { return }
        var body: [UInt8] = []
        while let b = next() {
            if kind == 0x4F || (0x40...0x7E).contains(b) {
                body.append(b)
                break
            }
            body.append(b)
        }
        guard kind == 0x5B && body == Array("200~".utf8) else { return }
        // A paste: everything up to ESC [ 2 0 1 ~.
        let end: [UInt8] = [0x1B, 0x5B, 0x32, 0x30, 0x31, 0x7E]
        var tail: [UInt8] = []
        while let b = next() {
            tail.append(b)
            if tail.count > end.count { tail.removeFirst() }
            if tail == end { return }
        }
    }

    static func writeToTerminal(_ s: String) {
        guard isatty(1) == 1 else { return }
        fputs(s, tagsh_stdout())
        fflush(tagsh_stdout())
    }

    /// Reads the pasted bytes up to ESC[201~ and inserts them as they are.
    func insertPaste() -> UInt8 {
        let end: [UInt8] = [0x1B, 0x5B, 0x32, 0x30, 0x31, 0x7E]
        var bytes: [UInt8] = []
        var c: CChar = 0
        while el_getc(el, &c) == 1 {
            bytes.append(UInt8(bitPattern: c))
            if bytes.count >= end.count && Array(bytes.suffix(end.count)) == end {
                bytes.removeLast(end.count)
                break
            }
        }
        // A final line break is the end of the pasted line, not part of it; CRs are line breaks.
        var text = String(decoding: bytes, as: UTF8.self).replacingCRLF
        while text.hasSuffix("\n") { text.removeLast() }
        if !text.isEmpty { el_insertstr(el, text) }
        return UInt8(CC_REFRESH)
    }

    /// Replaces the whole line with what the editor returns (Ctrl-X Ctrl-E).
    func editInEditor() -> UInt8 {
        guard let editLine, let now = lineBytes() else { return UInt8(CC_REFRESH_BEEP) }
        let line = String(decoding: now.bytes, as: UTF8.self)
        let after = String(decoding: UnsafeBufferPointer(rebasing: now.bytes[now.cursor...]), as: UTF8.self)
        fputs("\n", tagsh_stdout())
        fflush(tagsh_stdout())
        guard let edited = editLine(line) else { return UInt8(CC_REDISPLAY) }
        el_cursor(el, Int32(after.count))
        if !line.isEmpty { el_deletestr(el, Int32(line.count)) }
        var text = edited
        while text.hasSuffix("\n") { text.removeLast() }
        if !text.isEmpty { el_insertstr(el, text) }
        return UInt8(CC_REDISPLAY)
    }

    func replace(_ typed: String, with text: String) {
        if !typed.isEmpty { el_deletestr(el, Int32(typed.count)) }
        el_insertstr(el, text)
    }

    /// Prints the candidates in columns below the line (or below the question that asked for them).
    func listCandidates(_ candidates: [String], _ rows: (cursor: Int, last: Int), afterQuestion: Bool = false) {
        guard let fp = outFile else { return }
        if !afterQuestion { leaveLine(rows, fp) }
        let width = max(20, columns)
        let cell = min(width, (candidates.map { $0.count }.max() ?? 0) + 2)
        let perLine = max(1, width / cell)
        var out = ""
        for (i, c) in candidates.enumerated() {
            out += c
            if (i + 1) % perLine == 0 || i == candidates.count - 1 {
                out += "\n"
            } else {
                out += String(repeating: " ", count: cell - c.count)
            }
        }
        fputs(out, fp)
        makeRoomForRedraw(rows, fp)
    }

    /// The longest common prefix, by characters so UTF-8 is never cut in half;
    /// case-insensitive, keeping the first candidate's spelling.
    public static func longestCommonPrefix(_ candidates: some CompletionCandidates) -> String {
        candidates.knownCommonPrefix ?? asciiCommonPrefix(candidates) ?? characterCommonPrefix(candidates.strings)
    }

    /// `longestCommonPrefix` by `Character`, for any text.
    static func characterCommonPrefix(_ strings: [String]) -> String {
        guard var prefix = strings.first.map(Array.init) else { return "" }
        for s in strings.dropFirst() {
            let chars = Array(s)
            var n = 0
            while n < prefix.count && n < chars.count && String(prefix[n]).lowercased() == String(chars[n]).lowercased() { n += 1 }
            prefix = Array(prefix.prefix(n))
        }
        return String(prefix)
    }
}

extension LineEditor {
    /// `longestCommonPrefix` read as bytes, when every byte it compares is printable ASCII (where a byte is a
    /// character, and its lower case is ASCII's); nil when one is not, or when a candidate goes on past the
    /// prefix with a byte beyond ASCII (a combining mark would make one character of the last one). With tens
    /// of thousands of candidates, an array of `Character` each was most of a Tab.
    static func asciiCommonPrefix(_ candidates: some CompletionCandidates) -> String? {
        guard candidates.count > 0 else { return "" }
        var prefix: [UInt8]?
        var n = 0
        var failed = false
        func fold(_ b: UInt8) -> UInt8 { b >= 0x41 && b <= 0x5A ? b + 0x20 : b }
        candidates.forEachUTF8 { b in
            guard let prefix else {
                // The first one is the prefix, in its spelling.
                guard b.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) else { failed = true; return false }
                prefix = Array(b)
                n = b.count
                return true
            }
            var k = 0
            while k < n && k < b.count {
                let x = b[k]
                guard x >= 0x20 && x < 0x7F else { failed = true; return false }
                if fold(x) != fold(prefix[k]) { break }
                k += 1
            }
            guard !(k < b.count && b[k] >= 0x80) else { failed = true; return false }
            n = k
            return true
        }
        guard !failed, let prefix else { return failed ? nil : "" }
        return String(decoding: prefix[..<n], as: UTF8.self)
    }
}

// C callbacks: they find their LineEditor through libedit's client data.

private func editor(_ el: OpaquePointer?) -> LineEditor? {
    guard let el, let data = tagsh_el_get_clientdata(el) else { return nil }
    return Unmanaged<LineEditor>.fromOpaque(data).takeUnretainedValue()
}

private let lineEditorPrompt: @convention(c) (OpaquePointer?) -> UnsafeMutablePointer<CChar>? = { el in
    editor(el)?.promptString()
}

private let lineEditorComplete: @convention(c) (OpaquePointer?, Int32) -> UInt8 = { el, _ in
    editor(el)?.completeAtCursor() ?? UInt8(CC_ERROR)
}

private let lineEditorPaste: @convention(c) (OpaquePointer?, Int32) -> UInt8 = { el, _ in
    editor(el)?.insertPaste() ?? UInt8(CC_ERROR)
}

private let lineEditorComma: @convention(c) (OpaquePointer?, Int32) -> UInt8 = { el, _ in
    editor(el)?.insertComma() ?? UInt8(CC_ERROR)
}

private let lineEditorEdit: @convention(c) (OpaquePointer?, Int32) -> UInt8 = { el, _ in
    editor(el)?.editInEditor() ?? UInt8(CC_ERROR)
}

extension String {
    /// CRLF and lone CR as LF (a terminal sends Enter as CR, also inside a paste).
    var replacingCRLF: String { replacing("\r\n", with: "\n").replacing("\r", with: "\n") }
}
