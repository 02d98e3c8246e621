/// Ascending offsets into a run of bytes or ids (where each text of an intern table starts), kept in 32 bits
/// while they fit and in full once one does not: a table of a million texts spends 4 MB on them, not 8, and no
/// table is too large.
public struct Offsets: Sendable {
    @usableFromInline var narrow: [UInt32]
    /// Every offset, once one does not fit 32 bits (`narrow` is then empty).
    @usableFromInline var wide: [Int]?

    public init(_ offsets: [Int]) {
        narrow = []
        wide = nil
        for o in offsets { append(o) }
    }

    public var count: Int { wide?.count ?? narrow.count }
    /// How many offsets there is room for.
    var capacity: Int { wide?.capacity ?? narrow.capacity }

    @inlinable
    public subscript(i: Int) -> Int {
        if let wide { return wide[i] }
        return Int(narrow[i])
    }

    public mutating func append(_ offset: Int) {
        if wide == nil {
            if let o = UInt32(exactly: offset) { narrow.append(o); return }
            wide = narrow.map { Int($0) }
            narrow = []
        }
        wide!.append(offset)
    }

    public mutating func reserveCapacity(_ n: Int) {
        if wide != nil { wide!.reserveCapacity(n) } else { narrow.reserveCapacity(n) }
    }

    /// Room for `n` offsets, with room to spare (`Array.reserveGrowing`).
    public mutating func reserveGrowing(_ n: Int) {
        if wide != nil { wide!.reserveGrowing(n) } else { narrow.reserveGrowing(n) }
    }

    /// Forgets the last `k` offsets (their room stays).
    public mutating func removeLast(_ k: Int) {
        if wide != nil { wide!.removeLast(k) } else { narrow.removeLast(k) }
    }

    /// The offsets as a buffer, for loops that should not check the array's bounds and uniqueness on each read.
    @inlinable
    public func withBuffer<R>(_ body: (Buffer) throws -> R) rethrows -> R {
        try narrow.withUnsafeBufferPointer { n in
            if let wide { return try wide.withUnsafeBufferPointer { try body(Buffer(narrow: n, wide: $0)) } }
            return try body(Buffer(narrow: n, wide: nil))
        }
    }

    /// Read-only offsets, valid inside `withBuffer`.
    public struct Buffer {
        @usableFromInline let narrow: UnsafeBufferPointer<UInt32>
        @usableFromInline let wide: UnsafeBufferPointer<Int>?

        @inlinable
        init(narrow: UnsafeBufferPointer<UInt32>, wide: UnsafeBufferPointer<Int>?) {
            self.narrow = narrow
            self.wide = wide
        }

        @inlinable
        public subscript(i: Int) -> Int {
            if let wide { return wide[i] }
            return Int(narrow[i])
        }
    }
}

extension Array {
    /// Room for `n` elements and half as many more, or double the room, as appending one by one would leave:
    /// after an exact reservation, the next append copies every element.
    mutating func reserveGrowing(_ n: Int) {
        if capacity < n { reserveCapacity(Swift.max(n + n / 2, 2 * capacity)) }
    }
}
