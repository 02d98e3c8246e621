/// Moving whole rows between ledgers: several files opened as one session,
/// the rows of one file gathered to write it back, and transactions imported
/// (and un-imported by undo).
extension Ledger {
    /// Appends every row of `other`, interning its texts into this ledger's
    /// tables; returns the rows it now occupies. Custom categories come along
    /// with their colour and icon.
    @discardableResult
    public mutating func append(rowsOf other: Ledger) -> Range<Int> {
        let start = count
        // The descriptions on another thread when both they and the rest are many (as when the second half of a
        // large file read on two cores joins the first), the other tables here: each table is merged on its own.
        let m: [UInt32], a: [UInt32], c: [UInt32], n: [UInt32], sets: [UInt32]
        if other.merchants.count >= 10_000 && other.tagSets.count + other.notes.count >= 10_000 {
            var mine = StringTable()
            swap(&mine, &merchants)
            ((a, c, n, sets), m) = Parallel.alongside({ mine.merge(other.merchants) },
                                                      { () throws(Never) in mergeTables(exceptMerchantsOf: other) })
            swap(&mine, &merchants)
        } else {
            m = merchants.merge(other.merchants)
            (a, c, n, sets) = mergeTables(exceptMerchantsOf: other)
        }
        var cats = [UInt32](repeating: 0, count: Int(other.categories.ids.upperBound))
        for id in other.categories.ids {
            let theirs = other.categories[id]
            if let mine = categories.id(of: theirs.name) { cats[Int(id)] = mine; continue }
            cats[Int(id)] = theirs.isDeleted ? categories.add(Category(name: theirs.name, isDefault: false)) : categories.add(theirs)
        }
        if !other.categoryLock.isEmpty || !categoryLock.isEmpty {
            if categoryLock.count < start { categoryLock += [UInt8](repeating: 0, count: start - categoryLock.count) }
            categoryLock += other.categoryLock.isEmpty ? [UInt8](repeating: 0, count: other.count) : other.categoryLock
        }
        // Column by column: the ids through their maps, the rest as they are.
        days += other.days
        amountUnits += other.amountUnits
        amountScale += other.amountScale
        intent += other.intent
        /// Appends `column`'s ids through `map`, straight into `to` (a mapped copy first would be fresh memory the
        /// kernel zeroes, for half a million rows a column when a large file's halves join).
        func append(_ column: [UInt32], through map: [UInt32], to: inout [UInt32]) {
            let start = to.count
            to.append(contentsOf: repeatElement(0, count: column.count))
            to.withUnsafeMutableBufferPointer { to in
                map.withUnsafeBufferPointer { map in
                    for (i, id) in column.enumerated() { to[start + i] = map[Int(id)] }
                }
            }
        }
        append(other.merchant, through: m, to: &merchant)
        append(other.currency, through: c, to: &currency)
        append(other.account, through: a, to: &account)
        append(other.category, through: cats, to: &category)
        append(other.tagSet, through: sets, to: &tagSet)
        append(other.note, through: n, to: &note)
        pendingRows += other.pendingRows.map { $0 + Int32(start) }
        return start..<count
    }

    /// Merges `other`'s accounts, currencies, notes, tags and tag sets into this ledger's; returns the id each of
    /// theirs has here (the tags' through the sets').
    private mutating func mergeTables(exceptMerchantsOf other: Ledger)
        -> (accounts: [UInt32], currencies: [UInt32], notes: [UInt32], tagSets: [UInt32])
    {
        let a = accounts.merge(other.accounts), c = currencies.merge(other.currencies), n = notes.merge(other.notes)
        let sets = tagSets.merge(other.tagSets, tagMap: tags.merge(other.tags))
        return (a, c, n, sets)
    }

    /// Removes the last `n` rows (an import undone). The name tables keep what they learned.
    public mutating func removeLast(_ n: Int) {
        guard n > 0 else { return }
        let keep = count - n
        days.removeLast(n); merchant.removeLast(n); amountUnits.removeLast(n); amountScale.removeLast(n)
        currency.removeLast(n); account.removeLast(n); intent.removeLast(n); category.removeLast(n)
        tagSet.removeLast(n); note.removeLast(n)
        if categoryLock.count > keep { categoryLock.removeLast(categoryLock.count - keep) }
        pendingRows.removeAll { Int($0) >= keep }
    }

    /// A ledger of these rows only, in this order, sharing this ledger's name tables
    /// (row `k` of the result is the `k`-th row listed).
    public func gathering(_ segments: [Range<Int>]) -> Ledger {
        if segments.count == 1, segments[0] == 0..<count { return self }
        var out = Ledger()
        out.merchants = merchants; out.accounts = accounts; out.currencies = currencies; out.notes = notes
        out.tags = tags; out.tagSets = tagSets; out.categories = categories
        let total = segments.reduce(0) { $0 + $1.count }
        out.reserveCapacity(total)
        let pendingSet = Set(pendingRows.map(Int.init))
        for s in segments {
            out.days += days[s]; out.merchant += merchant[s]; out.amountUnits += amountUnits[s]; out.amountScale += amountScale[s]
            out.currency += currency[s]; out.account += account[s]; out.intent += intent[s]; out.category += category[s]
            out.tagSet += tagSet[s]; out.note += note[s]
            if !categoryLock.isEmpty {
                out.categoryLock += s.map { $0 < categoryLock.count ? categoryLock[$0] : 0 }
            }
        }
        if !pendingSet.isEmpty {
            var k = 0
            for s in segments {
                for r in s { if pendingSet.contains(r) { out.pendingRows.append(Int32(k)) }; k += 1 }
            }
        }
        return out
    }
}

/// Whole rows taken out of a ledger, with its ids (an import kept as an undo step: a delta, not a copy of the ledger).
public struct RowBlock: Sendable {
    var days: [Int32] = [], merchant: [UInt32] = [], amountUnits: [Int64] = [], amountScale: [UInt8] = []
    var currency: [UInt32] = [], account: [UInt32] = [], intent: [UInt8] = [], category: [UInt32] = []
    var tagSet: [UInt32] = [], note: [UInt32] = [], categoryLock: [UInt8] = []
    /// Pending rows, counted from the block's first row.
    var pending: [Int32] = []

    public var count: Int { days.count }
}

extension Ledger {
    /// The rows in `range`, as a block `append(_:)` puts back.
    public func block(_ range: Range<Int>) -> RowBlock {
        var b = RowBlock()
        b.days = Array(days[range]); b.merchant = Array(merchant[range]); b.amountUnits = Array(amountUnits[range])
        b.amountScale = Array(amountScale[range]); b.currency = Array(currency[range]); b.account = Array(account[range])
        b.intent = Array(intent[range]); b.category = Array(category[range]); b.tagSet = Array(tagSet[range]); b.note = Array(note[range])
        if !categoryLock.isEmpty { b.categoryLock = range.map { $0 < categoryLock.count ? categoryLock[$0] : 0 } }
        b.pending = pendingRows.filter { range.contains(Int($0)) }.map { $0 - Int32(range.lowerBound) }
        return b
    }

    /// Appends a block taken from this ledger (or a copy with the same tables); returns its rows.
    @discardableResult
    public mutating func append(_ b: RowBlock) -> Range<Int> {
        let start = count
        days += b.days; merchant += b.merchant; amountUnits += b.amountUnits; amountScale += b.amountScale
        currency += b.currency; account += b.account; intent += b.intent; category += b.category; tagSet += b.tagSet; note += b.note
        if !b.categoryLock.isEmpty || !categoryLock.isEmpty {
            if categoryLock.count < start { categoryLock += [UInt8](repeating: 0, count: start - categoryLock.count) }
            categoryLock += b.categoryLock.isEmpty ? [UInt8](repeating: 0, count: b.count) : b.categoryLock
        }
        pendingRows += b.pending.map { $0 + Int32(start) }
        return start..<count
    }

    /// Takes every name table of a working copy made from this ledger (they only ever grow).
    public mutating func adoptAllTables(of other: Ledger) {
        merchants = other.merchants; accounts = other.accounts; currencies = other.currencies
        notes = other.notes; tags = other.tags; tagSets = other.tagSets; categories = other.categories
    }
}
