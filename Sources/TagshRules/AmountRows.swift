import TagshModel

/// The annotated rows of a group of merchants alike, by amount and currency: every row in one array, each
/// amount's rows together (in the group's order), found through an open-addressed table of the distinct amounts.
///
/// Not a `Dictionary` of arrays: on the 1M `wide` shape, whose largest group of merchants alike is half the rows
/// and whose amounts are nearly all distinct, the group's first `review` key spent most of its 50-90 ms hashing
/// each row's amount with the standard hasher and making an array per amount.
struct AmountRows {
    struct Amount: Hashable {
        var units: Int64; var scale: UInt8; var currency: UInt32

        /// A multiplicative mix of the fields, for tables of amounts: the standard hasher's seeding was most of the
        /// cost of a look-up (here, and in `ImportMatcher.transferPairs`).
        var mix: UInt64 {
            var h = UInt64(bitPattern: units) &* 0x9E37_79B9_7F4A_7C15
            h ^= (UInt64(currency) << 8 | UInt64(scale)) &* 0xC2B2_AE3D_27D4_EB4F
            h ^= h >> 29
            return h &* 0xBF58_476D_1CE4_E5B9
        }
    }

    private var amounts: [Amount] = []
    /// Amount `i`'s rows are `rows[starts[i]..<starts[i + 1]]`.
    private var starts: [Int32] = [0]
    private var rows: [Int32] = []
    /// Amount index + 1 (0: empty), from the slot its hash's top bits name; a power of two, at most half full.
    private var slots: [Int32] = []
    private var slotBits = 0
    /// Amounts whose rows changed since the table was made (`set`), with their rows now: read before the table.
    private var patched: [Amount: [Int32]] = [:]

    /// The rows of `merchants` (their rows in `groups`) with an annotation, by amount.
    init(_ merchants: [UInt32], groups: KeyedGroups, ledger: Ledger) {
        var total = 0
        for m in merchants where Int(m) < groups.keyCount { total += groups.range(of: m).count }
        slotBits = 6
        slots = [Int32](repeating: 0, count: 1 << slotBits)
        // Each annotated row's amount index, then the rows placed by a counting sort on it (the group's order kept).
        var found: [Int32] = [], index: [Int32] = [], counts: [Int32] = []
        found.reserveCapacity(total)
        index.reserveCapacity(total)
        for m in merchants where Int(m) < groups.keyCount {
            for r in groups[m] {
                let row = Int(r)
                guard ledger.category[row] != 0 || ledger.intent[row] != 0 || ledger.tagSet[row] != 0 else { continue }
                let a = Amount(units: ledger.amountUnits[row], scale: ledger.amountScale[row], currency: ledger.currency[row])
                let i: Int
                switch find(a) {
                case .found(let k): i = k
                case .empty(let slot):
                    i = amounts.count
                    amounts.append(a)
                    counts.append(0)
                    slots[slot] = Int32(i + 1)
                    if amounts.count * 2 > slots.count { grow() }
                }
                counts[i] += 1
                found.append(Int32(row))
                index.append(Int32(i))
            }
        }
        starts = [Int32](repeating: 0, count: amounts.count + 1)
        for i in 0..<amounts.count { starts[i + 1] = starts[i] + counts[i] }
        var next = Array(starts.dropLast())
        rows = [Int32](repeating: 0, count: found.count)
        for k in 0..<found.count {
            let i = Int(index[k])
            rows[Int(next[i])] = found[k]
            next[i] += 1
        }
    }

    private enum Probe { case found(Int), empty(Int) }

    private mutating func grow() {
        slotBits += 1
        slots = [Int32](repeating: 0, count: 1 << slotBits)
        for i in 0..<amounts.count {
            guard case .empty(let slot) = find(amounts[i]) else { preconditionFailure("an amount held twice") }
            slots[slot] = Int32(i + 1)
        }
    }

    private func find(_ a: Amount) -> Probe {
        let mask = slots.count - 1
        var slot = Int(truncatingIfNeeded: a.mix >> UInt64(64 - slotBits))
        while true {
            let v = slots[slot]
            if v == 0 { return .empty(slot) }
            if amounts[Int(v) - 1] == a { return .found(Int(v) - 1) }
            slot = (slot + 1) & mask
        }
    }

    /// The annotated rows with `amount` (nil: none).
    subscript(amount: Amount) -> ArraySlice<Int32>? {
        if !patched.isEmpty, let p = patched[amount] { return p.isEmpty ? nil : p[...] }
        guard case .found(let i) = find(amount), starts[i] < starts[i + 1] else { return nil }
        return rows[Int(starts[i])..<Int(starts[i + 1])]
    }

    /// Makes `rows` the annotated rows with `amount`.
    mutating func set(_ amount: Amount, rows: [Int32]) { patched[amount] = rows }
}
