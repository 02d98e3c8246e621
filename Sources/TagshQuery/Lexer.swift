import TagshModel

/// One word of a command line after quoting is removed, with where it was typed.
public struct Word: Sendable, Equatable {
    /// The word with quotes and backslashes removed.
    public var text: String
    /// The word exactly as typed.
    public var raw: String
    /// Character offsets of the raw word in the line.
    public var span: Range<Int>

    public init(text: String, raw: String, span: Range<Int>) {
        self.text = text
        self.raw = raw
        self.span = span
    }

    /// Whether any part of the word was quoted or escaped.
    public var isQuoted: Bool { raw != text }
}

/// Splits a line into words as a POSIX shell does: 'single' quotes keep
/// everything, "double" quotes let `\` escape `"`, `\`, `$` and `` ` ``,
/// and a bare `\` escapes the next character. `#` is an ordinary character
/// (so `--color #6f4e37` works); comment lines are the script reader's business.
public enum Lexer {
    public enum Problem: Error, Equatable, Sendable {
        case unterminatedQuote(Character, at: Int)
        case trailingBackslash(at: Int)
    }

    public static func words(in line: String) throws(Problem) -> [Word] {
        var words: [Word] = []
        let chars = Array(line)
        var i = 0
        while i < chars.count {
            while i < chars.count, chars[i] == " " || chars[i] == "\t" || chars[i] == "\n" || chars[i] == "\r" { i += 1 }
            if i >= chars.count { break }
            // `#` then a space (or the end) at the start of a word begins a comment; `#6f4e37`, `tag:#x` and '#' are words.
            if chars[i] == "#", i + 1 == chars.count || chars[i + 1] == " " || chars[i + 1] == "\t" { break }
            let start = i
            var text = ""
            while i < chars.count, !(chars[i] == " " || chars[i] == "\t" || chars[i] == "\n" || chars[i] == "\r") {
                let c = chars[i]
                switch c {
                case "'":
                    guard let close = chars[(i + 1)...].firstIndex(of: "'") else {
                        throw .unterminatedQuote("'", at: i)
                    }
                    text.append(contentsOf: chars[(i + 1)..<close])
                    i = close + 1
                case "\"":
                    let open = i
                    i += 1
                    var closed = false
                    while i < chars.count {
                        let d = chars[i]
                        if d == "\"" { closed = true; i += 1; break }
                        if d == "\\", i + 1 < chars.count, "\"\\$`".contains(chars[i + 1]) {
                            text.append(chars[i + 1])
                            i += 2
                            continue
                        }
                        text.append(d)
                        i += 1
                    }
                    if !closed { throw .unterminatedQuote("\"", at: open) }
                case "\\":
                    guard i + 1 < chars.count else { throw .trailingBackslash(at: i) }
                    text.append(chars[i + 1])
                    i += 2
                default:
                    text.append(c)
                    i += 1
                }
            }
            words.append(Word(text: text, raw: String(chars[start..<i]), span: start..<i))
        }
        return words
    }

    /// Quotes `text` so that `words(in:)` reads it back as one word.
    public static func quote(_ text: String) -> String {
        if !text.isEmpty, text.allSatisfy({ $0.isLetter || $0.isNumber || "-_/.:+@,=%^".contains($0) }) {
            return text
        }
        return "'" + text.replacingAll("'", with: "'\\''") + "'"
    }
}
