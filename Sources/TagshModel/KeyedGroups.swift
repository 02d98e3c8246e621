/// Ids grouped by a key, each group in the order given: two arrays made by counting (two passes over the keys),
/// not a dictionary of arrays (a million distinct merchants made a million arrays: 0.6 s).
public struct KeyedGroups: Sendable {
    /// Key `k`'s members are `members[starts[k]..<starts[k + 1]]`.
    public let starts: [Int32]
    public let members: [UInt32]

    /// Groups `count` members by key, every key below `keys`: the i-th has key `key(i)` and is `member(i)`.
    /// (Inlinable, and given closures rather than a generic collection: the grouping is then compiled for each
    /// caller into a plain loop; through a lazy collection of pairs it took 60 instructions a row, and perf-gate's
    /// suggestion figures went up 17-79%.)
    @inlinable
    public init(keys: Int, count: Int, key: (Int) -> UInt32, member: (Int) -> UInt32) {
        var starts = [Int32](repeating: 0, count: keys + 1)
        for i in 0..<count { starts[Int(key(i)) + 1] += 1 }
        for k in 0..<keys { starts[k + 1] += starts[k] }
        var next = starts
        var members = [UInt32](repeating: 0, count: count)
        members.withUnsafeMutableBufferPointer { out in
            for i in 0..<count {
                let k = Int(key(i))
                out[Int(next[k])] = member(i)
                next[k] += 1
            }
        }
        self.starts = starts
        self.members = members
    }

    /// Groups (key, member) pairs by key, every key below `keys`.
    public init(keys: Int, _ pairs: [(UInt32, UInt32)]) {
        self = pairs.withUnsafeBufferPointer { p in KeyedGroups(keys: keys, count: p.count, key: { p[$0].0 }, member: { p[$0].1 }) }
    }

    /// A ledger's rows by merchant, in row order.
    public init(rowsByMerchantOf ledger: Ledger) {
        self = ledger.merchant.withUnsafeBufferPointer { column in
            KeyedGroups(keys: Int(ledger.merchants.ids.upperBound) + 1, count: column.count, key: { column[$0] }, member: { UInt32($0) })
        }
    }

    /// How many keys there is room for (one more than the largest).
    public var keyCount: Int { starts.count - 1 }

    /// The positions in `members` of key `k`'s members.
    @inlinable
    public func range(of k: UInt32) -> Range<Int> { Int(starts[Int(k)])..<Int(starts[Int(k) + 1]) }

    /// Key `k`'s members, in the order given (none for a key past the last).
    public subscript(k: UInt32) -> ArraySlice<UInt32> { Int(k) < keyCount ? members[range(of: k)] : [] }
}
