/// One line of a journal or beancount transaction after its header, split
/// up. The reader (on the file's bytes) and the writers (on a changed
/// block's lines) both use this scanner, so they agree on what is a comment,
/// a metadata line and a posting, and where a posting's account and amount
/// are.
enum BlockLine: Equatable {
    case blank
    /// A comment line; the offset just after its `;` (or a journal's `#`).
    case comment(textStart: Int)
    /// Beancount metadata `key: value`: the key's range and where the value starts.
    case metadata(key: Range<Int>, valueStart: Int)
    case posting(PostingSpan)

    /// Byte offsets of a posting's parts in its line.
    struct PostingSpan: Equatable {
        /// The account as written, with the brackets of a virtual posting.
        var written: Range<Int>
        /// The account name itself.
        var account: Range<Int>
        /// The amount text up to a comment, trimmed; nil when the posting has none.
        var amount: Range<Int>?
    }

    static func scan(_ b: UnsafeBufferPointer<UInt8>, _ s: Int, _ e: Int, dialect: TextLayout.Dialect) -> BlockLine {
        var p = s
        func isSpace(_ i: Int) -> Bool { b[i] == 0x20 || b[i] == 0x09 }
        while p < e && isSpace(p) { p += 1 }
        if p >= e { return .blank }
        if b[p] == 0x3B || (b[p] == 0x23 && dialect == .journal) { return .comment(textStart: p + 1) }
        if dialect == .beancount, b[p] >= 0x61 && b[p] <= 0x7A {
            // Metadata: a lower-case key of letters, digits, `_` and `-`, then `:`.
            var i = p
            while i < e && ((b[i] >= 0x61 && b[i] <= 0x7A) || (b[i] >= 0x41 && b[i] <= 0x5A) || (b[i] >= 0x30 && b[i] <= 0x39)
                            || b[i] == 0x5F || b[i] == 0x2D) { i += 1 }
            if i < e && b[i] == 0x3A {
                var v = i + 1
                while v < e && isSpace(v) { v += 1 }
                return .metadata(key: p..<i, valueStart: v)
            }
        }
        if p + 1 < e && isSpace(p + 1) && TextPosting.isFlag(b[p], dialect: dialect) {
            p += 2
            while p < e && isSpace(p) { p += 1 }
        }
        let start = p
        // The account ends at a tab, a `;`, or a space (two in a journal, where names may hold one).
        while p < e {
            let c = b[p]
            if c == 0x09 || c == 0x3B { break }
            if c == 0x20 && (dialect == .beancount || p + 1 >= e || b[p + 1] == 0x20) { break }
            p += 1
        }
        let accountEnd = p
        var inner = start..<p
        if p - start >= 2 && ((b[start] == 0x28 && b[p - 1] == 0x29) || (b[start] == 0x5B && b[p - 1] == 0x5D)) {
            inner = (start + 1)..<(p - 1)
        }
        while p < e && isSpace(p) { p += 1 }
        var amount: Range<Int>?
        if p < e && b[p] != 0x3B {
            var end = p
            while end < e && b[end] != 0x3B { end += 1 }
            while end > p && isSpace(end - 1) { end -= 1 }
            if end > p { amount = p..<end }
        }
        return .posting(PostingSpan(written: start..<accountEnd, account: inner, amount: amount))
    }

    /// The same, on one line of text, with character offsets (what the writers edit).
    static func scan(_ line: String, dialect: TextLayout.Dialect) -> BlockLine {
        var utf8 = Array(line.utf8)
        let found = utf8.withUnsafeMutableBufferPointer { scan(UnsafeBufferPointer($0), 0, $0.count, dialect: dialect) }
        if line.isASCII { return found }
        // Byte offsets to character offsets.
        var characterAt = [Int](repeating: 0, count: utf8.count + 1)
        var n = 0
        var byte = 0
        for c in line {
            let width = c.utf8.count
            for k in 0..<width { characterAt[byte + k] = n }
            byte += width
            n += 1
        }
        characterAt[utf8.count] = n
        func r(_ x: Range<Int>) -> Range<Int> { characterAt[x.lowerBound]..<characterAt[x.upperBound] }
        utf8.removeAll()
        switch found {
        case .blank: return .blank
        case .comment(let t): return .comment(textStart: characterAt[t])
        case .metadata(let k, let v): return .metadata(key: r(k), valueStart: characterAt[v])
        case .posting(let span):
            return .posting(PostingSpan(written: r(span.written), account: r(span.account), amount: span.amount.map(r)))
        }
    }
}
