#if canImport(Glibc)
import Glibc
#endif

/// One key press read from the terminal in raw mode.
public enum TerminalKey: Equatable, Sendable {
    case character(Character)
    case enter, backspace, escape, tab, interrupt, endOfInput, up, down, left, right
}

/// Reads single keys (no Enter needed) from standard input, which must be a terminal.
public enum KeyReader {
    /// Waits for one key, in raw mode (entered here if need be), so Ctrl-C arrives as a key (and never
    /// stops the shell). The caller leaves raw mode (`leaveRawMode`) before reading a line or exiting.
    /// The terminal's settings before `enterRawMode`, to put back.
    nonisolated(unsafe) static var saved: termios?

    /// Puts the terminal in raw mode until `leaveRawMode`: keys arrive one at a time, unechoed, Ctrl-C as a key,
    /// also while a command runs between two keys (so nothing typed ahead waits for Enter or shows on the screen).
    public static func enterRawMode() {
        guard saved == nil else { return }
        var original = termios()
        guard tcgetattr(0, &original) == 0 else { return }
        var raw = original
        raw.c_lflag &= ~tcflag_t(ICANON | ECHO | ISIG | IEXTEN)
        raw.c_iflag &= ~tcflag_t(ICRNL | IXON)
        withUnsafeMutableBytes(of: &raw.c_cc) { cc in
            cc[Int(VMIN)] = 1
            cc[Int(VTIME)] = 0
        }
        tcsetattr(0, TCSANOW, &raw)
        saved = original
    }

    /// Puts back the settings `enterRawMode` found.
    public static func leaveRawMode() {
        guard var original = saved else { return }
        tcsetattr(0, TCSANOW, &original)
        saved = nil
    }

    public static func readKey() -> TerminalKey {
        enterRawMode()
        guard let first = readByte(timeoutMilliseconds: -1) else { return .endOfInput }
        switch first {
        case 0x03: return .interrupt
        case 0x04: return .endOfInput
        case 0x0D, 0x0A: return .enter
        case 0x7F, 0x08: return .backspace
        case 0x09: return .tab
        case 0x1B:
            // Esc alone, or the start of an arrow key's sequence (ESC [ A).
            guard let second = readByte(timeoutMilliseconds: 40) else { return .escape }
            guard second == 0x5B || second == 0x4F, let third = readByte(timeoutMilliseconds: 40) else { return .escape }
            switch third {
            case 0x41: return .up
            case 0x42: return .down
            case 0x43: return .right
            case 0x44: return .left
            default:
                // Another sequence (F keys, Delete): read it to its end and ignore it.
                var b = third
                while !(0x40...0x7E).contains(b), let next = readByte(timeoutMilliseconds: 40) { b = next }
                return .escape
            }
        default:
            // A UTF-8 character: its first byte says how many follow.
            let count = first >= 0xF0 ? 3 : first >= 0xE0 ? 2 : first >= 0xC0 ? 1 : 0
            var bytes = [first]
            for _ in 0..<count { if let b = readByte(timeoutMilliseconds: 40) { bytes.append(b) } }
            return String(decoding: bytes, as: UTF8.self).first.map { .character($0) } ?? .escape
        }
    }

    /// One byte from standard input, waiting at most `timeoutMilliseconds` (-1: forever); nil at the end or on timeout.
    static func readByte(timeoutMilliseconds: Int32) -> UInt8? {
        while true {
            var fds = pollfd(fd: 0, events: Int16(POLLIN), revents: 0)
            let ready = poll(&fds, 1, timeoutMilliseconds)
            if ready < 0 && errno == EINTR { continue } // a resize (SIGWINCH) or a signal: wait again
            guard ready > 0 else { return nil }
            var byte: UInt8 = 0
            let n = read(0, &byte, 1)
            if n < 0 && errno == EINTR { continue }
            return n == 1 ? byte : nil
        }
    }

    /// The terminal's columns and rows, or nil when standard output is not a terminal that says.
    public static func size() -> (columns: Int, rows: Int)? {
        var ws = winsize()
        if ioctl(1, UInt(TIOCGWINSZ), &ws) == 0, ws.ws_col > 0 { return (Int(ws.ws_col), Int(ws.ws_row)) }
        return nil
    }
}
