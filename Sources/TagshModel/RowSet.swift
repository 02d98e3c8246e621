/// A set of rows as a bitmap: one bit per transaction, combined word by word.
public struct RowSet: Sendable, Equatable {
    public var words: [UInt64]
    public let rowCount: Int

    public init(rowCount: Int, filled: Bool = false) {
        self.rowCount = rowCount
        words = Array(repeating: filled ? ~0 : 0, count: (rowCount + 63) / 64)
        if filled { clearTail() }
    }

    /// Builds the set by asking `predicate` for each row, 64 rows a word, each answer or-ed in without a branch
    /// (a branch per row mispredicts whenever matches are neither rare nor common: a query's table look-up over
    /// a million rows took 5-8 ms).
    @inlinable
    public init(rowCount: Int, where predicate: (Int) -> Bool) {
        self.init(rowCount: rowCount)
        words.withUnsafeMutableBufferPointer { w in
            var row = 0
            for wi in 0..<w.count {
                var word: UInt64 = 0
                let end = min(row + 64, rowCount)
                var bit: UInt64 = 0
                while row < end {
                    word |= UInt64(predicate(row) ? 1 : 0) &<< bit
                    bit &+= 1
                    row += 1
                }
                w[wi] = word
            }
        }
    }

    public init(rowCount: Int, rows: some Sequence<Int>) {
        self.init(rowCount: rowCount)
        for r in rows where r >= 0 && r < rowCount { insert(r) }
    }

    private mutating func clearTail() {
        let extra = words.count * 64 - rowCount
        if extra > 0, !words.isEmpty { words[words.count - 1] &= ~0 >> UInt64(extra) }
    }

    @inlinable
    public func contains(_ row: Int) -> Bool { words[row >> 6] & (1 << UInt64(row & 63)) != 0 }
    @inlinable
    public mutating func insert(_ row: Int) { words[row >> 6] |= 1 << UInt64(row & 63) }

    public mutating func remove(_ row: Int) { words[row >> 6] &= ~(1 << UInt64(row & 63)) }

    public var count: Int { words.reduce(0) { $0 + $1.nonzeroBitCount } }
    public var isEmpty: Bool { words.allSatisfy { $0 == 0 } }

    public mutating func formIntersection(_ other: RowSet) {
        for i in words.indices { words[i] &= other.words[i] }
    }

    public mutating func formUnion(_ other: RowSet) {
        for i in words.indices { words[i] |= other.words[i] }
    }

    public mutating func invert() {
        for i in words.indices { words[i] = ~words[i] }
        clearTail()
    }

    /// The first word of the rows past about half the set's: where to split it into two halves of about as many
    /// rows, the first being words `0..<` it.
    public func halfWord() -> Int {
        let half = count / 2
        var seen = 0
        for (i, w) in words.enumerated() {
            if seen >= half { return i }
            seen += w.nonzeroBitCount
        }
        return words.count
    }

    /// How many rows words `words` hold.
    public func count(inWords words: Range<Int>) -> Int { self.words[words].reduce(0) { $0 + $1.nonzeroBitCount } }

    /// The rows in ascending order.
    public var rows: [Int] {
        var result: [Int] = []
        result.reserveCapacity(count)
        for (wi, var word) in words.enumerated() {
            while word != 0 {
                result.append(wi << 6 + word.trailingZeroBitCount)
                word &= word - 1
            }
        }
        return result
    }
}
