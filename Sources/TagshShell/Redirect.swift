#if canImport(Glibc)
import Glibc
#endif
import TagshFormats
import TagshQuery

/// `COMMAND > FILE` and `COMMAND >> FILE`: a command's output (not its errors)
/// written to a file instead of the screen, without colour and at no fixed width.
///
/// Only a `>` or `>>` word of its own before the last word redirects: a quoted
/// '>' and `amt:>10` are ordinary words. With `>` the file is replaced
/// atomically once the command has succeeded (a failing command leaves it as it
/// was); `>>` appends.
///
/// `COMMAND | SHELL-COMMAND`: the output goes to the standard input of a
/// shell command (`/bin/sh -c`), whose own output is shown. The first `|` word
/// of its own starts the shell command, which is the rest of the line as typed.
struct Redirection {
    var path: String
    var append: Bool
    /// A shell command the output is piped to (then `path` is unused).
    var pipe: String?

    /// Splits a trailing redirection or pipe off the words of a line.
    static func split(_ words: [Word], line: String) throws(ShellError) -> ([Word], Redirection?) {
        if let bar = words.firstIndex(where: { $0.raw == "|" }) {
            guard bar >= 1, bar < words.count - 1 else {
                throw .usage("a pipe is `COMMAND | SHELL-COMMAND`: a shell command after the |", span: words[bar].span)
            }
            let chars = Array(line)
            let start = min(chars.count, words[bar].span.upperBound)
            let command = String(chars[start...]).trimmingCharacters(in: " \t")
            return (Array(words[..<bar]), Redirection(path: "", append: false, pipe: command))
        }
        guard let arrow = words.lastIndex(where: { $0.raw == ">" || $0.raw == ">>" }) else { return (words, nil) }
        guard arrow == words.count - 2, arrow >= 1 else {
            throw .usage("a redirection is `> FILE` or `>> FILE` at the end of the line", span: words[arrow].span)
        }
        return (Array(words[..<arrow]), Redirection(path: words[arrow + 1].text, append: words[arrow].raw == ">>"))
    }

    /// Writes what the command printed (to the file, or through the shell command to `sink`).
    func write(_ text: String, sink: OutputSink) throws(ShellError) {
        if let pipe {
            let (out, err, status) = Subprocess.filter(text, through: pipe)
            sink.write(out, to: .out)
            sink.write(err, to: .err)
            if status != 0 { throw .failed("`\(TextSafety.sanitize(pipe))` exited with status \(status)") }
            return
        }
        do throws(FileError) {
            if append {
                try AppendFile(path: path).append(text, newline: false)
            } else if FileIO.isSpecial(path) {
                try FileIO.writeInPlace(Array(text.utf8), to: path)
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

/// Shell commands run for a command's output: a pipe (`ls | grep x`) and the pager.
public enum Subprocess {
    /// Runs `command` with `/bin/sh -c`, `text` on its standard input; its output, errors and exit status.
    static func filter(_ text: String, through command: String) -> (out: String, err: String, status: Int32) {
        let base = "/tmp/tagsh-pipe-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        defer { unlink(base + ".in"); unlink(base + ".err") }
        guard (try? FileIO.writeAtomically(Array(text.utf8), to: base + ".in", mode: 0o600)) != nil else { return ("", "tagsh: cannot write a temporary file\n", 1) }
        let shell = "( " + command + " ) < '" + base + ".in' 2> '" + base + ".err'"
        guard let f = popen(shell, "r") else { return ("", "tagsh: cannot run the shell\n", 127) }
        var out: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = fread(&buffer, 1, buffer.count, f)
            if n <= 0 { break }
            out += buffer[0..<n]
        }
        let raw = pclose(f)
        let status = (raw >> 8) & 0xFF
        let err = (try? FileIO.read(base + ".err").bytes).map { String(decoding: $0, as: UTF8.self) } ?? ""
        return (String(decoding: out, as: UTF8.self), err, status)
    }

    /// Shows `text` through a pager command (`less -RFX`), which writes to the terminal itself.
    public static func page(_ text: String, with command: String) -> Bool {
        guard let f = popen(command, "w") else { return false }
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { fwrite($0.baseAddress, 1, bytes.count, f) } // a pager quit early: the rest is dropped
        let status = pclose(f)
        // 127: the shell found no such pager (then the text is printed as it is).
        return status != -1 && (status >> 8) & 0xFF != 127
    }
}
