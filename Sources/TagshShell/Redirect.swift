import TagshFormats
import TagshQuery

/// `COMMAND > FILE` and `COMMAND >> FILE`: a command's output (not its errors)
/// written to a file instead of the screen, without colour and at no fixed width.
///
/// Only a `>` or `>>` word of its own before the last word redirects: a quoted
/// '>' and `amt:>10` are ordinary words. With `>` the file is replaced
/// atomically once the command has succeeded (a failing command leaves it as it
/// was); `>>` appends.
struct Redirection {
    var path: String
    var append: Bool

    /// Splits a trailing redirection off the words of a line.
    static func split(_ words: [Word]) throws(ShellError) -> ([Word], Redirection?) {
        guard let arrow = words.lastIndex(where: { $0.raw == ">" || $0.raw == ">>" }) else { return (words, nil) }
        guard arrow == words.count - 2, arrow >= 1 else {
            throw .usage("a redirection is `> FILE` or `>> FILE` at the end of the line", span: words[arrow].span)
        }
        return (Array(words[..<arrow]), Redirection(path: words[arrow + 1].text, append: words[arrow].raw == ">>"))
    }

    /// Writes what the command printed.
    func write(_ text: String) throws(ShellError) {
        do throws(FileError) {
            if append {
                try AppendFile(path: path).append(text, newline: false)
            } else {
                try FileIO.writeAtomically(Array(text.utf8), to: path)
            }
        } catch {
            throw .file(error)
        }
    }
}

/// Collects standard output for a redirection; errors still go to the session's own sink.
final class CaptureSink: OutputSink {
    let errors: OutputSink
    var text = ""

    init(errors: OutputSink) { self.errors = errors }

    func write(_ text: String, to stream: OutputChannel) {
        switch stream {
        case .out: self.text += text
        case .err: errors.write(text, to: .err)
        }
    }
}
