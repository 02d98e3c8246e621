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

    /// The characters a regular expression gives a meaning to (outside a class).
    static let special = Set("\\.^$*+?()[]{}|#".utf8)

    /// Whether `\c` stands for the character `c` itself: an escaped special character, `/` or `-`
    /// (`\d`, `\b`, `\1`, `\<` and the like are not).
    static func isEscapedLiteral(_ c: UInt8) -> Bool {
        special.contains(c) || c == UInt8(ascii: "/") || c == UInt8(ascii: "-")
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
        var out: [UInt8] = []
        var i = bytes.startIndex
        while i < bytes.endIndex {
            let b = bytes[i]
            if b == UInt8(ascii: "\\") {
                let next = bytes.index(after: i)
                guard next < bytes.endIndex else { return nil }
                let c = bytes[next]
                guard isEscapedLiteral(c) else { return nil }
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

    // MARK: - literals a regular expression requires

    /// The literal runs (lower-cased ASCII) that every match of a regular expression contains: a text that is
    /// printable ASCII and lacks one of them cannot match, and need not go to the engine. `/st.r/` requires `st`
    /// and `r`; `/colou?r/` requires `colo` and `r`; `/^uber (eats|trip)/` requires `uber ` (a group ends the
    /// scan). Nil when there is none, or when the source holds what this does not follow closely enough to be
    /// sure (`|` outside a group, flags such as `(?x)`, `\Q`, POSIX classes, letters beyond ASCII, which may fold to ASCII ones).
    static func requiredLiterals(ofRegex source: String) -> [[UInt8]]? {
        let b = Array(source.utf8)
        if b.contains(where: { $0 >= 0x80 || $0 < 0x20 }) || alternatesAtTheTop(b) { return nil }
        if source.contains("(?") || source.contains("\\Q") || source.contains("[:") || source.contains("[=") || source.contains("[.") {
            return nil
        }
        var runs: [[UInt8]] = []
        var run: [UInt8] = []
        func finish() {
            if !run.isEmpty { runs.append(run) }
            run = []
        }
        func lower(_ c: UInt8) -> UInt8 { c &- 0x41 < 26 ? c | 0x20 : c }
        var i = 0
        scan: while i < b.count {
            let c = b[i]
            switch c {
            case UInt8(ascii: "\\"):
                guard i + 1 < b.count else { return nil }
                let e = b[i + 1]
                if isEscapedLiteral(e) {
                    run.append(e)
                } else if "dDwWsSbBhHvVRXntrfeaAzZG".utf8.contains(e) {
                    finish() // a class or an anchor, with no argument
                } else {
                    return nil // \x41, \u{41}, \1, \p{L}, \k<name>...: escapes whose arguments this does not read
                }
                i += 2
            case UInt8(ascii: "*"), UInt8(ascii: "?"):
                // The atom before is optional: a literal one leaves the run.
                if i > 0 && !run.isEmpty && !isQuantifierOrClose(b, i - 1) { run.removeLast() }
                finish()
                i += 1
                if i < b.count && (b[i] == UInt8(ascii: "?") || b[i] == UInt8(ascii: "+")) { i += 1 } // lazy or possessive
            case UInt8(ascii: "+"):
                // At least once: the literal stays, but what follows may not come right after it.
                finish()
                i += 1
                if i < b.count && (b[i] == UInt8(ascii: "?") || b[i] == UInt8(ascii: "+")) { i += 1 }
            case UInt8(ascii: "{"):
                // A counted repeat may be zero: the atom before leaves the run, as for `*`.
                guard let close = b[i...].firstIndex(of: UInt8(ascii: "}")) else { return nil }
                if !run.isEmpty && !isQuantifierOrClose(b, i - 1) { run.removeLast() }
                finish()
                i = close + 1
                if i < b.count && (b[i] == UInt8(ascii: "?") || b[i] == UInt8(ascii: "+")) { i += 1 }
            case UInt8(ascii: "["):
                // A class: one character, not a literal. Find its end (`]` first, or after `^`, is a member).
                finish()
                var j = i + 1
                if j < b.count && b[j] == UInt8(ascii: "^") { j += 1 }
                if j < b.count && b[j] == UInt8(ascii: "]") { j += 1 }
                while j < b.count && b[j] != UInt8(ascii: "]") {
                    if b[j] == UInt8(ascii: "\\") { j += 1 }
                    if b[j] == UInt8(ascii: "[") { return nil } // nested or set operations
                    j += 1
                }
                guard j < b.count else { return nil }
                i = j + 1
                // A class followed by a quantifier changes nothing already in the runs.
            case UInt8(ascii: "("):
                // Groups are not followed: the runs so far are required whatever comes after.
                finish()
                break scan
            case UInt8(ascii: "."), UInt8(ascii: "^"), UInt8(ascii: "$"), UInt8(ascii: ")"), UInt8(ascii: "#"):
                finish()
                i += 1
            default:
                run.append(lower(c))
                i += 1
            }
        }
        finish()
        return runs.isEmpty ? nil : runs
    }

    /// Whether a `|` stands outside every group (so no literal is required by the whole expression), or the
    /// groups and classes do not close; a `|` inside a group is fine, since the scan stops at the first group.
    private static func alternatesAtTheTop(_ b: [UInt8]) -> Bool {
        var depth = 0, j = 0
        while j < b.count {
            switch b[j] {
            case UInt8(ascii: "\\"): j += 1
            case UInt8(ascii: "["):
                j += 1
                if j < b.count && b[j] == UInt8(ascii: "^") { j += 1 }
                if j < b.count && b[j] == UInt8(ascii: "]") { j += 1 }
                while j < b.count && b[j] != UInt8(ascii: "]") { if b[j] == UInt8(ascii: "\\") { j += 1 }; j += 1 }
                if j >= b.count { return true }
            case UInt8(ascii: "("): depth += 1
            case UInt8(ascii: ")"): depth -= 1; if depth < 0 { return true }
            case UInt8(ascii: "|"): if depth == 0 { return true }
            default: break
            }
            j += 1
        }
        return depth != 0
    }

    /// Whether the byte at `j` ends a quantifier or a class or group (so a following quantifier is not about a
    /// literal in the run): `]`, `)`, `}`, `*`, `+`, `?`. An escaped one (`\?`) is a literal.
    private static func isQuantifierOrClose(_ b: [UInt8], _ j: Int) -> Bool {
        guard "])}*+?".utf8.contains(b[j]) else { return false }
        var slashes = 0
        var k = j - 1
        while k >= 0 && b[k] == UInt8(ascii: "\\") { slashes += 1; k -= 1 }
        return slashes % 2 == 0
    }

    /// Whether `text` (printable ASCII) holds every one of `literals` (lower-cased), ignoring ASCII case.
    static func containsAll(_ literals: [[UInt8]], _ text: UnsafeBufferPointer<UInt8>) -> Bool {
        literals.allSatisfy { matches(Alternative(literal: $0, anchoredStart: false, anchoredEnd: false), text) }
    }
}
