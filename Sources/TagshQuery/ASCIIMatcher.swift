/// A text pattern tested on UTF-8 bytes, for the common case where both the
/// pattern and the text are ASCII: a substring (`desc:star`) or a regular
/// expression that is only literals, perhaps anchored, perhaps joined by `|`
/// (`desc:/^STARBUCKS/`, `desc:/star|uber/`).
///
/// ASCII text compared with an ASCII literal ignoring case is the same test
/// the regex engine and `lowercased().contains` make, so the answer is exact.
/// Text beyond ASCII (where case folding has more rules: `K` the Kelvin sign
/// folds to `k`) gets `nil`, and the caller asks the full engine. A file with a
/// million distinct descriptions is one pass over their bytes, not a million
/// `String`s decoded, lower-cased and searched.
public struct ASCIIMatcher: Sendable {
    /// One literal, lower-cased, perhaps anchored at either end.
    struct Alternative: Sendable {
        var literal: [UInt8]
        var anchoredStart: Bool
        var anchoredEnd: Bool
    }

    /// The text matches when any of these does (`/star|^uber/` is two).
    let alternatives: [Alternative]

    /// The matcher for a pattern, or nil when the pattern is not plain ASCII literals.
    public init?(_ pattern: TextPattern) {
        switch pattern {
        case .contains(let needle):
            guard let bytes = ASCIIMatcher.lowerASCII(Array(needle.utf8)) else { return nil }
            alternatives = [Alternative(literal: bytes, anchoredStart: false, anchoredEnd: false)]
        case .regex(let r):
            guard let alternatives = ASCIIMatcher.alternatives(ofRegex: r.source) else { return nil }
            self.alternatives = alternatives
        }
    }

    /// A regular expression's alternatives, when it is literals joined by `|` (no groups or classes, so every
    /// `|` is at the top); nil otherwise.
    static func alternatives(ofRegex source: String) -> [Alternative]? {
        var pieces: [String] = []
        var current = ""
        var escaped = false
        for ch in source {
            if escaped { current.append(ch); escaped = false; continue }
            if ch == "\\" { current.append(ch); escaped = true; continue }
            if ch == "|" { pieces.append(current); current = ""; continue }
            current.append(ch)
        }
        pieces.append(current)
        var out: [Alternative] = []
        for piece in pieces {
            guard let (literal, start, end) = literal(ofRegex: piece) else { return nil }
            out.append(Alternative(literal: literal, anchoredStart: start, anchoredEnd: end))
        }
        return out
    }

    /// Printable ASCII only (no control characters: `\r\n` is one `Character` in Swift and
    /// would not compare byte by byte), lower-cased; nil otherwise.
    static func lowerASCII(_ bytes: [UInt8]) -> [UInt8]? {
        var out = bytes
        for i in out.indices {
            let b = out[i]
            guard b >= 0x20 && b < 0x7F else { return nil }
            if b >= 0x41 && b <= 0x5A { out[i] = b | 0x20 }
        }
        return out
    }

    /// The literal a regular expression stands for, when it is one: `^` and `$` at its ends, and
    /// otherwise characters that are not special or are escaped punctuation (`\.`). Nil otherwise.
    static func literal(ofRegex source: String) -> (literal: [UInt8], start: Bool, end: Bool)? {
        var bytes = Array(source.utf8)[...]
        var start = false, end = false
        if bytes.first == UInt8(ascii: "^") { start = true; bytes = bytes.dropFirst() }
        if bytes.last == UInt8(ascii: "$") {
            // `\$` is a literal dollar, not an anchor: count the backslashes before it.
            var slashes = 0
            var i = bytes.index(before: bytes.endIndex)
            while i > bytes.startIndex, bytes[bytes.index(before: i)] == UInt8(ascii: "\\") { slashes += 1; i -= 1 }
            if slashes % 2 == 0 { end = true; bytes = bytes.dropLast() }
        }
        let special = Set("\\.^$*+?()[]{}|#".utf8)
        var out: [UInt8] = []
        var i = bytes.startIndex
        while i < bytes.endIndex {
            let b = bytes[i]
            if b == UInt8(ascii: "\\") {
                let next = bytes.index(after: i)
                guard next < bytes.endIndex else { return nil }
                let c = bytes[next]
                // Only an escaped special character, `/` or `-` is a literal; `\d`, `\b`, `\1`, `\<` and the like are not.
                guard special.contains(c) || c == UInt8(ascii: "/") || c == UInt8(ascii: "-") else { return nil }
                out.append(c)
                i = bytes.index(after: next)
                continue
            }
            if special.contains(b) { return nil }
            out.append(b)
            i = bytes.index(after: i)
        }
        guard let lower = lowerASCII(out) else { return nil }
        return (lower, start, end)
    }

    /// Whether `text` matches; nil when the text is not all printable ASCII and the full engine must decide.
    @inline(__always)
    public func matches(_ text: UnsafeBufferPointer<UInt8>) -> Bool? {
        guard ASCIIMatcher.isPrintableASCII(text) else { return nil }
        for a in alternatives where ASCIIMatcher.matches(a, text) { return true }
        return false
    }

    private static let ones: UInt64 = 0x0101_0101_0101_0101
    private static let highs: UInt64 = 0x8080_8080_8080_8080

    /// Whether some byte of `w` is zero (exact as to whether; which byte is not needed here).
    @inline(__always)
    private static func hasZero(_ w: UInt64) -> Bool { (w &- ones) & ~w & highs != 0 }

    /// Every byte in 0x20...0x7E, eight bytes at a time.
    @inline(__always)
    static func isPrintableASCII(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = text.baseAddress else { return true }
        let raw = UnsafeRawPointer(base)
        let n = text.count
        var i = 0
        while i + 8 <= n {
            let w = raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)
            // A byte at 0x80 or over; under 0x20 (with none at 0x80 or over, the borrow trick is exact); 0x7F.
            if w & highs != 0 || (w &- 0x2020_2020_2020_2020) & ~w & highs != 0 || hasZero(w ^ 0x7F7F_7F7F_7F7F_7F7F) { return false }
            i += 8
        }
        while i < n {
            if base[i] < 0x20 || base[i] >= 0x7F { return false }
            i += 1
        }
        return true
    }

    @inline(__always)
    static func matches(_ a: Alternative, _ text: UnsafeBufferPointer<UInt8>) -> Bool {
        let n = text.count, m = a.literal.count
        if m > n { return false }
        return a.literal.withUnsafeBufferPointer { lit in
            @inline(__always) func equal(at offset: Int) -> Bool {
                for k in 0..<m where text[offset + k] | (text[offset + k] &- 0x41 < 26 ? 0x20 : 0) != lit[k] { return false }
                return true
            }
            if a.anchoredStart && a.anchoredEnd { return n == m && equal(at: 0) }
            if a.anchoredStart { return equal(at: 0) }
            if a.anchoredEnd { return equal(at: n - m) }
            if m == 0 { return true }
            let first = lit[0]
            let firstUpper = first &- 0x61 < 26 ? first & ~0x20 : first
            let lower = UInt64(first) &* ones, upper = UInt64(firstUpper) &* ones
            let raw = UnsafeRawPointer(text.baseAddress!)
            var i = 0
            while i <= n - m {
                // Eight bytes with neither spelling of the first byte are skipped at once.
                if i + 8 <= n {
                    let w = raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)
                    if !hasZero(w ^ lower) && !hasZero(w ^ upper) { i += 8; continue }
                }
                let b = text[i]
                if (b == first || b == firstUpper) && equal(at: i) { return true }
                i += 1
            }
            return false
        }
    }
}
