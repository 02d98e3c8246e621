/// Ids grouped by a key, each group in the order given: two arrays made by counting (two passes over the keys),
/// not a dictionary of arrays (a million distinct merchants made a million arrays: 0.6 s).
public struct KeyedGroups: Sendable {
    /// Key `k`'s members are `members[starts[k]..<starts[k + 1]]`.
    public let starts: [Int32]
    public let members: [UInt32]

    /// Groups the (key, member) pairs by key, every key below `keys`. (Inlinable: unspecialized, the iteration
    /// over a generic collection from another module went through witness calls and boxes, half again a
    /// suggestion index's instructions.)
    @inlinable
    public init(keys: Int, _ pairs: some Collection<(UInt32, UInt32)>) {
        var starts = [Int32](repeating: 0, count: keys + 1)
        for (k, _) in pairs { starts[Int(k) + 1] += 1 }
        for k in 0..<keys { starts[k + 1] += starts[k] }
        var next = starts
        var members = [UInt32](repeating: 0, count: pairs.count)
        members.withUnsafeMutableBufferPointer { out in
            for (k, m) in pairs {
                out[Int(next[Int(k)])] = m
                next[Int(k)] += 1
            }
        }
        self.starts = starts
        self.members = members
    }

    /// A ledger's rows by merchant, in row order.
    public init(rowsByMerchantOf ledger: Ledger) {
        self.init(keys: Int(ledger.merchants.ids.upperBound) + 1, ledger.merchant.enumerated().lazy.map { ($0.element, UInt32($0.offset)) })
    }

    /// How many keys there is room for (one more than the largest).
    public var keyCount: Int { starts.count - 1 }

    /// The positions in `members` of key `k`'s members.
    @inlinable
    public func range(of k: UInt32) -> Range<Int> { Int(starts[Int(k)])..<Int(starts[Int(k) + 1]) }

    /// Key `k`'s members, in the order given (none for a key past the last).
    public subscript(k: UInt32) -> ArraySlice<UInt32> { Int(k) < keyCount ? members[range(of: k)] : [] }
}
