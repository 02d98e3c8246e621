/// One key press, as an interactive loop (`review`) reads it.
public enum Key: Equatable, Sendable {
    case character(Character)
    case enter, backspace, escape, tab, space
    /// Ctrl-C.
    case interrupt
    /// Ctrl-D, or the end of input.
    case endOfInput
    case up, down, left, right

    /// How the key is written in `help review`, the man page and transcripts.
    public var name: String {
        switch self {
        case .character(let c): String(c)
        case .enter: "Enter"
        case .backspace: "Backspace"
        case .escape: "Esc"
        case .tab: "Tab"
        case .space: "Space"
        case .interrupt: "Ctrl-C"
        case .endOfInput: "Ctrl-D"
        case .up: "Up"
        case .down: "Down"
        case .left: "Left"
        case .right: "Right"
        }
    }
}

/// What an interactive loop needs from the terminal: single keys, a line
/// with Tab completion, the screen's size, an editor. The executable gives
/// the session one on a terminal (`Session.console`); tests give a
/// `ScriptedConsole`. With none, interactive commands are refused.
public protocol Console: AnyObject {
    /// Waits for one key press (no Enter needed).
    func readKey() -> Key
    /// Reads a line after `prompt`, starting from `initial` (the text to edit), with Tab completing through
    /// `complete` (the text before the cursor → what to replace and the candidates); nil when cancelled (Ctrl-C, Ctrl-D).
    func readLine(prompt: String, initial: String, complete: @escaping (String) -> (replacing: Int, candidates: [String])) -> String?
    /// Columns and rows of the screen.
    var size: (columns: Int, rows: Int) { get }
    /// Whether screens are drawn in place on a real terminal (else each screen follows the last).
    var redraws: Bool { get }
    /// Opens `text` in `$VISUAL` / `$EDITOR`; the edited text, or nil when that failed.
    func edit(_ text: String) -> String?
    /// The loop is over: the terminal goes back to how the prompt wants it.
    func leave()
}

extension Console {
    public func leave() {}
}

/// A console that plays back keys and lines, for tests and transcripts.
///
/// The script is words separated by spaces: a single character is that key;
/// `<Enter>`, `<Space>`, `<Backspace>`, `<Esc>`, `<Tab>`, `<Quote>` (`"`), `<Up>`, `<Down>`,
/// `^C` and `^D` name keys; `"text"` answers the next line prompt (a `\t` in
/// it presses Tab there, completing as the terminal would).
public final class ScriptedConsole: Console {
    public enum Event: Equatable { case key(Key), line(String) }
    public var events: [Event]
    public var size: (columns: Int, rows: Int)
    public var redraws: Bool { false }
    /// What `edit` returns.
    public var edited: String?
    /// The prompts asked and what was typed, for transcripts.
    public private(set) var transcript: [String] = []

    public init(_ script: String, columns: Int = 100, rows: Int = 40) {
        events = ScriptedConsole.parse(script)
        size = (columns, rows)
    }

    public static func parse(_ script: String) -> [Event] {
        var out: [Event] = []
        var chars = Array(script)[...]
        while let c = chars.first {
            if c == " " { chars = chars.dropFirst(); continue }
            if c == "\"" {
                var text = ""
                chars = chars.dropFirst()
                while let d = chars.first, d != "\"" {
                    chars = chars.dropFirst()
                    if d == "\\", let e = chars.first {
                        chars = chars.dropFirst()
                        text.append(e == "t" ? "\t" : e)
                    } else {
                        text.append(d)
                    }
                }
                chars = chars.dropFirst()
                out.append(.line(text))
                continue
            }
            let word = String(chars.prefix { $0 != " " })
            chars = chars.dropFirst(word.count)
            switch word {
            case "<Enter>": out.append(.key(.enter))
            case "<Space>": out.append(.key(.space))
            case "<Backspace>": out.append(.key(.backspace))
            case "<Esc>": out.append(.key(.escape))
            case "<Tab>": out.append(.key(.tab))
            case "<Quote>": out.append(.key(.character("\"")))
            case "<Up>": out.append(.key(.up))
            case "<Down>": out.append(.key(.down))
            case "^C": out.append(.key(.interrupt))
            case "^D": out.append(.key(.endOfInput))
            default: for ch in word { out.append(.key(.character(ch))) }
            }
        }
        return out
    }

    public func readKey() -> Key {
        guard let first = events.first else { return .endOfInput }
        events.removeFirst()
        if case .key(let k) = first { return k }
        return .endOfInput
    }

    /// The answer replaces `initial` (a script gives the whole line).
    public func readLine(prompt: String, initial: String, complete: @escaping (String) -> (replacing: Int, candidates: [String])) -> String? {
        guard let first = events.first, case .line(let script) = first else { return nil }
        events.removeFirst()
        // Tab completes what is before it, as the line editor does with one candidate (or the common prefix).
        var text = ""
        for c in script {
            guard c == "\t" else { text.append(c); continue }
            let offer = complete(text)
            guard !offer.candidates.isEmpty else { continue }
            let common = offer.candidates.count == 1 ? offer.candidates[0] + " " : ScriptedConsole.commonPrefix(offer.candidates)
            text = String(text.dropLast(offer.replacing)) + common
        }
        transcript.append(prompt + text)
        return text
    }

    public func edit(_ text: String) -> String? { edited }

    static func commonPrefix(_ strings: [String]) -> String {
        guard var prefix = strings.first.map(Array.init) else { return "" }
        for s in strings.dropFirst() {
            let a = Array(s)
            var n = 0
            while n < prefix.count && n < a.count && prefix[n] == a[n] { n += 1 }
            prefix = Array(prefix[..<n])
        }
        return String(prefix)
    }
}
