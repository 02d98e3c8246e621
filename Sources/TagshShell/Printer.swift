import TagshModel

/// Writes lines to the session's sink, with its style.
public struct Printer {
    let sink: OutputSink
    public let style: Style
    /// Drops output and notes, keeping errors (while the sidecar is sourced).
    var quiet = false

    public func line(_ text: String = "") { if !quiet { sink.write(text + "\n", to: .out) } }
    public func text(_ text: String) { if !quiet { sink.write(text, to: .out) } }
    public func error(_ text: String) { sink.write(text + "\n", to: .err) }
    /// Informational messages that scripts should not have to parse (counts, warnings).
    public func note(_ text: String) { if !quiet { sink.write(text + "\n", to: .err) } }
}

/// Draws diagnostics as `file:line:col: error: message`, the source line and carets.
public enum DiagnosticRenderer {
    public static func render(_ d: Diagnostic, style: Style, origin: (file: String, line: Int)? = nil,
                              severity: String = "error") -> String {
        var prefix = ""
        if let file = d.file {
            prefix = file
            if let line = d.line { prefix += ":\(line)" }
            if let col = d.column { prefix += ":\(col)" }
            prefix += ": "
        } else if let origin {
            prefix = "\(origin.file):\(origin.line)"
            if let span = d.span { prefix += ":\(span.lowerBound + 1)" }
            prefix += ": "
        }
        var out = style.bold(prefix) + style.red(style.bold(severity + ":")) + " " + d.message + "\n"
        if var source = d.sourceLine, var span = d.span {
            // A very long line (a 100 MB field) is shown as a window around the caret.
            let chars = Array(source)
            if chars.count > 160 {
                let start = max(0, min(span.lowerBound - 40, chars.count - 160))
                let end = min(chars.count, start + 160)
                source = (start > 0 ? "…" : "") + String(chars[start..<end]) + (end < chars.count ? "…" : "")
                let shift = start - (start > 0 ? 1 : 0)
                // (A span past the end of the text is put at its end: a diagnostic holds at most 4 KB of its line,
                // and an error further into the line made a reversed range here, which crashed.)
                let lower = min(max(0, span.lowerBound - shift), source.count)
                span = lower..<max(lower, min(span.upperBound - shift, source.count))
            }
            let shown = TextSafety.sanitize(source)
            let gutter = d.line.map { String($0) + " | " } ?? "  "
            let before = String(shown.prefix(span.lowerBound))
            let marked = String(shown.dropFirst(span.lowerBound).prefix(max(1, span.count)))
            let indent = String(repeating: " ", count: TextSafety.displayWidth(gutter) + TextSafety.displayWidth(before))
            out += gutter + shown + "\n"
            out += indent + style.red(String(repeating: "^", count: max(1, TextSafety.displayWidth(marked)))) + "\n"
        }
        for n in d.notes { out += n + "\n" }
        return out
    }
}

extension ShellError {
    /// The diagnostic for this failure; spans refer to `line`.
    public func diagnostic(line: String) -> Diagnostic {
        switch self {
        case .usage(let m, let span):
            return Diagnostic(m, sourceLine: span == nil ? nil : line, span: span)
        case .unknownCommand(let name, let span, let suggestion):
            return Diagnostic("unknown command '\(name)'", sourceLine: line, span: span,
                              notes: [suggestion.map { "hint: did you mean '\($0)'? `help` lists the commands" }
                                      ?? "hint: `help` lists the commands"])
        case .query(let q):
            return Diagnostic(q.message, sourceLine: line, span: q.span)
        case .lexer(let p):
            switch p {
            case .unterminatedQuote(let q, let at):
                return Diagnostic("unterminated \(q == "'" ? "single" : "double") quote", sourceLine: line, span: at..<(at + 1))
            case .trailingBackslash(let at):
                return Diagnostic("a backslash at the end of the line escapes nothing", sourceLine: line, span: at..<(at + 1))
            }
        case .noLedger:
            return Diagnostic("no ledger is open", notes: ["hint: `open FILE`, or start with `tagsh --demo`"])
        case .diagnostic(let d):
            return d
        case .file(let f):
            return f.diagnostic
        case .failed(let m):
            return Diagnostic(m)
        case .interrupted:
            return Diagnostic("interrupted")
        }
    }
}
