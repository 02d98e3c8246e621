import TagshModel

/// The encodings a ledger file can be in. Text formats must be UTF-8; a CSV
/// export that is not is read as Windows-1252 (what many banks write) and
/// saved back in it.
public enum TextEncoding: String, Sendable {
    case utf8 = "UTF-8"
    case windows1252 = "Windows-1252"

    /// Windows-1252's 0x80–0x9F; the five unassigned bytes map to the C1 control of the same value.
    static let high: [UInt32] = [
        0x20AC, 0x81, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0x8D, 0x017D, 0x8F,
        0x90, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014, 0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0x9D, 0x017E, 0x0178,
    ]

    static let reverse: [UInt32: UInt8] = {
        var map: [UInt32: UInt8] = [:]
        for (i, u) in high.enumerated() { map[u] = UInt8(0x80 + i) }
        return map
    }()

    /// Windows-1252 bytes as UTF-8 bytes.
    static func utf8(fromWindows1252 bytes: UnsafeBufferPointer<UInt8>) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: bytes.count * 3) { out, count in count = utf8(fromWindows1252: bytes, into: out) }
    }

    /// Windows-1252 bytes written as UTF-8 into `out`, which has room for three bytes each (what one may take);
    /// returns how many were written. Each character is encoded here, two or three bytes by its code point: made
    /// into a `String` each, a million rows of comdirect's shape (umlauts in many fields) opened in 0.274 s, now
    /// 0.254.
    static func utf8(fromWindows1252 bytes: UnsafeBufferPointer<UInt8>, into out: UnsafeMutableBufferPointer<UInt8>) -> Int {
        var n = 0
        high.withUnsafeBufferPointer { high in
            for b in bytes {
                if b < 0x80 { out[n] = b; n += 1; continue }
                let u = b < 0xA0 ? high[Int(b - 0x80)] : UInt32(b)
                if u < 0x800 {
                    out[n] = UInt8(0xC0 | u >> 6); out[n + 1] = UInt8(0x80 | u & 0x3F)
                    n += 2
                } else {
                    out[n] = UInt8(0xE0 | u >> 12); out[n + 1] = UInt8(0x80 | (u >> 6) & 0x3F); out[n + 2] = UInt8(0x80 | u & 0x3F)
                    n += 3
                }
            }
        }
        return n
    }

    /// Text as Windows-1252 bytes, or the first character it cannot encode.
    static func windows1252(from text: String) -> Result<[UInt8], EncodingFailure> {
        var out: [UInt8] = []
        for u in text.unicodeScalars {
            if u.value < 0x80 || (u.value >= 0xA0 && u.value <= 0xFF) { out.append(UInt8(u.value)); continue }
            guard let b = reverse[u.value] else { return .failure(EncodingFailure(character: Character(u))) }
            out.append(b)
        }
        return .success(out)
    }

    struct EncodingFailure: Error { var character: Character }

    /// From how many bytes `isCleanUTF8` checks two halves at once.
    static let checksInHalvesFrom = 4 << 20

    /// Whether the bytes are valid UTF-8 without a NUL: what `firstNUL` and `firstInvalidUTF8` check, in one
    /// pass that takes eight ASCII bytes at a time. They are run only when this says no, to say where.
    /// A large file's two halves are checked at once, split where a character starts.
    static func isCleanUTF8(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBufferPointer { b in
            guard b.count >= TextEncoding.checksInHalvesFrom else { return isCleanUTF8(b) }
            var split = b.count / 2
            while split < b.count && b[split] & 0xC0 == 0x80 { split += 1 }
            let (first, second) = Parallel.alongside({ isCleanUTF8(UnsafeBufferPointer(rebasing: b[split...])) },
                                                     { () throws(Never) in isCleanUTF8(UnsafeBufferPointer(rebasing: b[..<split])) })
            return first && second
        }
    }

    /// `isCleanUTF8` of one run of bytes, on this thread.
    static func isCleanUTF8(_ b: UnsafeBufferPointer<UInt8>) -> Bool {
        let n = b.count
        guard let base = b.baseAddress else { return true }
        let raw = UnsafeRawPointer(base)
        var i = 0
        while i < n {
            if i + 8 <= n {
                let w = raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)
                // No byte with the high bit set, and no zero byte.
                if w & 0x8080_8080_8080_8080 == 0 && (w &- 0x0101_0101_0101_0101) & ~w & 0x8080_8080_8080_8080 == 0 {
                    i += 8
                    continue
                }
            }
            let c = b[i]
            if c == 0 { return false }
            if c < 0x80 { i += 1; continue }
            let length: Int
            switch c {
            case 0xC2...0xDF: length = 2
            case 0xE0...0xEF: length = 3
            case 0xF0...0xF4: length = 4
            default: return false
            }
            guard i + length <= n else { return false }
            for k in 1..<length where b[i + k] & 0xC0 != 0x80 { return false }
            if length == 3 && c == 0xE0 && b[i + 1] < 0xA0 { return false }
            if length == 3 && c == 0xED && b[i + 1] > 0x9F { return false }
            if length == 4 && c == 0xF0 && b[i + 1] < 0x90 { return false }
            if length == 4 && c == 0xF4 && b[i + 1] > 0x8F { return false }
            i += length
        }
        return true
    }

    /// The 1-based line and column of the first byte that is not valid UTF-8, if any.
    static func firstInvalidUTF8(_ bytes: [UInt8]) -> (offset: Int, line: Int, column: Int)? {
        var i = 0, line = 1, lineStart = 0
        let n = bytes.count
        while i < n {
            let b = bytes[i]
            if b < 0x80 {
                if b == 0x0A { line += 1; lineStart = i + 1 }
                i += 1
                continue
            }
            let length: Int
            switch b {
            case 0xC2...0xDF: length = 2
            case 0xE0...0xEF: length = 3
            case 0xF0...0xF4: length = 4
            default: length = 0
            }
            var ok = length > 0 && i + length <= n
            if ok { for k in 1..<length where bytes[i + k] & 0xC0 != 0x80 { ok = false } }
            if ok && length == 3 && b == 0xE0 && bytes[i + 1] < 0xA0 { ok = false }
            if ok && length == 3 && b == 0xED && bytes[i + 1] > 0x9F { ok = false }
            if ok && length == 4 && b == 0xF0 && bytes[i + 1] < 0x90 { ok = false }
            if ok && length == 4 && b == 0xF4 && bytes[i + 1] > 0x8F { ok = false }
            if !ok {
                let column = String(decoding: bytes[lineStart..<i], as: UTF8.self).count + 1
                return (i, line, column)
            }
            i += length
        }
        return nil
    }

    /// The 1-based line and column of the first NUL byte, if any.
    static func firstNUL(_ bytes: [UInt8]) -> (line: Int, column: Int)? {
        guard let i = bytes.firstIndex(of: 0) else { return nil }
        let lineStart = bytes[..<i].lastIndex(of: 0x0A).map { $0 + 1 } ?? 0
        let line = 1 + bytes.lineFeeds(before: i)
        return (line, String(decoding: bytes[lineStart..<i], as: UTF8.self).count + 1)
    }
}
