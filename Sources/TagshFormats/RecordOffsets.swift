/// Where each transaction's record lies in a CSV file: a byte range per record, without its line terminator.
///
/// Kept as two 32-bit offsets a record while the file is under 4 GiB, and as two machine-word offsets once
/// one is beyond that, so a million records cost 8 MB, not 16, and no file is too large.
public struct RecordOffsets: Equatable, Sendable {
    private var starts: [UInt32] = []
    private var ends: [UInt32] = []
    /// Every record's offsets, once one of them does not fit 32 bits (`starts` and `ends` are then empty).
    private var wide: [Range<Int>]? = nil

    public init() {}

    public static func == (a: RecordOffsets, b: RecordOffsets) -> Bool {
        a.count == b.count && a.indices.allSatisfy { a[$0] == b[$0] }
    }

    public var count: Int { wide?.count ?? starts.count }
    public var isEmpty: Bool { count == 0 }
    public var indices: Range<Int> { 0..<count }
    public var first: Range<Int>? { isEmpty ? nil : self[0] }
    public var last: Range<Int>? { isEmpty ? nil : self[count - 1] }

    public subscript(record: Int) -> Range<Int> {
        if let wide { return wide[record] }
        return Int(starts[record])..<Int(ends[record])
    }

    public mutating func reserveCapacity(_ n: Int) {
        if wide != nil { wide!.reserveCapacity(n) } else { starts.reserveCapacity(n); ends.reserveCapacity(n) }
    }

    public mutating func append(_ range: Range<Int>) {
        if wide == nil, range.upperBound <= Int(UInt32.max) {
            starts.append(UInt32(truncatingIfNeeded: range.lowerBound))
            ends.append(UInt32(truncatingIfNeeded: range.upperBound))
            return
        }
        widen()
        wide!.append(range)
    }

    public mutating func append(contentsOf other: RecordOffsets) {
        if wide == nil, other.wide == nil {
            starts += other.starts
            ends += other.ends
            return
        }
        for r in other.indices { append(other[r]) }
    }

    /// The offsets once `edits` (one per rewritten record, sorted, as `CSVWriter.renderSplice` makes them) are
    /// made: shifted in place, so a save need not read a million records again.
    mutating func shift(by edits: [ByteSplice.Edit]) {
        var k = 0, delta = 0
        var shifted = RecordOffsets()
        let fits = (last?.upperBound ?? 0) + edits.reduce(0) { $0 + $1.bytes.count } <= Int(UInt32.max)
        if wide == nil && fits {
            // In place: the common case, a million records shifted without a copy.
            let n = starts.count
            starts.withUnsafeMutableBufferPointer { starts in
                ends.withUnsafeMutableBufferPointer { ends in
                    for r in 0..<n {
                        let start = Int(starts[r]), end = Int(ends[r])
                        starts[r] = UInt32(truncatingIfNeeded: start + delta)
                        if k < edits.count && edits[k].start == start {
                            delta += edits[k].bytes.count - (end - start)
                            k += 1
                        }
                        ends[r] = UInt32(truncatingIfNeeded: end + delta)
                    }
                }
            }
            return
        }
        shifted.reserveCapacity(count)
        for r in indices {
            let range = self[r]
            let start = range.lowerBound + delta
            if k < edits.count && edits[k].start == range.lowerBound {
                delta += edits[k].bytes.count - range.count
                k += 1
            }
            shifted.append(start..<(range.upperBound + delta))
        }
        self = shifted
    }

    private mutating func widen() {
        guard wide == nil else { return }
        wide = (0..<starts.count).map { Int(starts[$0])..<Int(ends[$0]) }
        starts = []
        ends = []
    }
}
