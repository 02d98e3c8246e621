import TagshModel

/// Where a command's text goes. Commands never print directly: the prompt,
/// scripts and tests each give the session the sink they need.
public protocol OutputSink: AnyObject {
    func write(_ text: String, to stream: OutputChannel)
    /// Hands buffered output on; called after each command of a script.
    func flush()
}

extension OutputSink {
    public func flush() {}
}

public enum OutputChannel: Sendable { case out, err }

/// Collects output in memory, for tests and for capturing.
public final class BufferSink: OutputSink {
    public private(set) var out = ""
    public private(set) var err = ""
    /// Both streams interleaved in the order written.
    public private(set) var combined = ""

    public init() {}

    public func write(_ text: String, to stream: OutputChannel) {
        switch stream {
        case .out: out += text
        case .err: err += text
        }
        combined += text
    }

    public func reset() { out = ""; err = ""; combined = "" }
}

/// Terminal styling: ANSI colours when enabled, plain text otherwise.
public struct Style: Sendable {
    public var enabled: Bool
    /// Whether 24-bit colour may be used (`COLORTERM=truecolor`).
    public var trueColor: Bool

    public init(enabled: Bool, trueColor: Bool = false) {
        self.enabled = enabled
        self.trueColor = trueColor
    }

    public static let plain = Style(enabled: false)

    func sgr(_ code: String, _ text: String) -> String {
        enabled && !text.isEmpty ? "\u{1B}[\(code)m" + text + "\u{1B}[0m" : text
    }

    public func bold(_ t: String) -> String { sgr("1", t) }
    public func dim(_ t: String) -> String { sgr("2", t) }
    public func red(_ t: String) -> String { sgr("31", t) }
    public func green(_ t: String) -> String { sgr("32", t) }

    public func paint(_ t: String, _ color: Color?) -> String {
        guard let color else { return t }
        switch color {
        case .named(let n): return sgr(Style.code(for: n), t)
        case .rgb(let r, let g, let b):
            if trueColor { return sgr("38;2;\(r);\(g);\(b)", t) }
            return sgr("38;5;\(Style.nearest256(r, g, b))", t)
        }
    }

    public func paint256(_ t: String, _ index: UInt8) -> String { sgr("38;5;\(index)", t) }

    static func code(for n: Color.NamedColor) -> String {
        switch n {
        case .black: "30"
        case .red: "31"
        case .green: "32"
        case .yellow: "33"
        case .blue: "34"
        case .magenta: "35"
        case .cyan: "36"
        case .white: "37"
        case .gray: "90"
        case .brightRed: "91"
        case .brightGreen: "92"
        case .brightYellow: "93"
        case .brightBlue: "94"
        case .brightMagenta: "95"
        case .brightCyan: "96"
        case .orange: "38;5;208"
        case .purple: "38;5;141"
        case .pink: "38;5;218"
        case .brown: "38;5;130"
        case .teal: "38;5;30"
        }
    }

    /// The xterm 256-colour cube entry nearest to an RGB colour.
    static func nearest256(_ r: UInt8, _ g: UInt8, _ b: UInt8) -> Int {
        func level(_ v: UInt8) -> Int { v < 48 ? 0 : v < 115 ? 1 : (Int(v) - 35) / 40 }
        return 16 + 36 * level(r) + 6 * level(g) + level(b)
    }
}

/// Text helpers for what the terminal will show.
public enum TextSafety {
    /// Ledger text with control characters and escape sequences made visible
    /// (`^[`, `^G`, `^M`, `<U+009B>`), so a merchant name can never drive the terminal.
    public static func sanitize(_ s: String) -> String {
        if isPrintableASCII(s) { return s }
        guard s.unicodeScalars.contains(where: isControl) else { return s }
        var out = ""
        for u in s.unicodeScalars {
            if u.value < 0x20 {
                out += "^" + String(UnicodeScalar(UInt8(u.value + 0x40)))
            } else if u.value == 0x7F {
                out += "^?"
            } else if isControl(u) {
                let hex = String(u.value, radix: 16, uppercase: true)
                out += "<U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex + ">"
            } else {
                out.unicodeScalars.append(u)
            }
        }
        return out
    }

    static func isControl(_ u: Unicode.Scalar) -> Bool {
        u.value < 0x20 || (0x7F...0x9F).contains(u.value) || u.value == 0x2028 || u.value == 0x2029
            || (0x202A...0x202E).contains(u.value) || (0x2066...0x2069).contains(u.value)
    }

    /// Columns a string takes in a terminal: 2 for East Asian wide characters
    /// and emoji, 0 for combining marks, 1 otherwise.
    public static func displayWidth(_ s: String) -> Int {
        if isPrintableASCII(s) { return s.utf8.count }
        var w = 0
        for ch in s {
            w += width(of: ch)
        }
        return w
    }

    /// Whether every byte is a printable ASCII character (a space to `~`): one column each, nothing to neutralise.
    /// Most ledger text is, and a listing asks this of every cell.
    static func isPrintableASCII(_ s: String) -> Bool {
        func check(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
            for b in bytes where b < 0x20 || b > 0x7E { return false }
            return true
        }
        return s.utf8.withContiguousStorageIfAvailable(check) ?? s.utf8.allSatisfy { $0 >= 0x20 && $0 <= 0x7E }
    }

    static func width(of ch: Character) -> Int {
        guard let first = ch.unicodeScalars.first else { return 0 }
        if ch.unicodeScalars.contains(where: { $0.value == 0xFE0F }) { return 2 }
        let v = first.value
        if v < 0x300 { return 1 }
        if first.properties.generalCategory == .nonspacingMark || first.properties.generalCategory == .enclosingMark { return 0 }
        if first.properties.isEmojiPresentation { return 2 }
        switch v {
        case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF,
             0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60, 0xFFE0...0xFFE6,
             0x1F300...0x1F64F, 0x1F900...0x1F9FF, 0x20000...0x2FFFD, 0x30000...0x3FFFD:
            return 2
        default:
            return 1
        }
    }

    /// Cuts `s` to at most `width` columns, ending with `…` when cut.
    public static func truncate(_ s: String, toWidth width: Int) -> String {
        if displayWidth(s) <= width { return s }
        if width <= 0 { return "" }
        var out = ""
        var w = 0
        for ch in s {
            let cw = TextSafety.width(of: ch)
            if w + cw > width - 1 { break }
            out.append(ch)
            w += cw
        }
        return out + "…"
    }

    /// Cuts between words: as many whole words as fit, then `…` (one cut word when none fits).
    public static func truncateAtWords(_ s: String, toWidth width: Int) -> String {
        if displayWidth(s) <= width { return s }
        var out = ""
        for word in s.split(separator: " ") {
            let next = out.isEmpty ? String(word) : out + " " + word
            if displayWidth(next) + 2 > width { break }
            out = next
        }
        return out.isEmpty ? truncate(s, toWidth: width) : out + " …"
    }

    /// Cuts a line that may hold colour (SGR `ESC [ ... m`) to at most `width` columns: the escapes take no
    /// room, and a cut line ends with `…` and a reset, so the colour does not run on.
    public static func truncateStyled(_ s: String, toWidth width: Int) -> String {
        guard s.contains("\u{1B}") else { return truncate(s, toWidth: width) }
        var visible = 0
        var inEscape = false
        for ch in s {
            if inEscape { if ch == "m" { inEscape = false }; continue }
            if ch == "\u{1B}" { inEscape = true; continue }
            visible += TextSafety.width(of: ch)
        }
        if visible <= width { return s }
        var out = ""
        var w = 0
        inEscape = false
        for ch in s {
            if inEscape { out.append(ch); if ch == "m" { inEscape = false }; continue }
            if ch == "\u{1B}" { inEscape = true; out.append(ch); continue }
            let cw = TextSafety.width(of: ch)
            if w + cw > width - 1 { break }
            out.append(ch)
            w += cw
        }
        return out + "…\u{1B}[0m"
    }

    /// Pads to `width` columns on the right (or left when `alignRight`).
    public static func pad(_ s: String, _ width: Int, alignRight: Bool = false) -> String {
        let w = displayWidth(s)
        if w >= width { return s }
        let fill = String(repeating: " ", count: width - w)
        return alignRight ? fill + s : s + fill
    }
}
