import TagshModel

/// The orders `ls --sort` lists rows in: by amount or by merchant (lower-cased), ties in file order; `--reverse`
/// the other way round (ties too), and `--limit N` the first N of that.
///
/// A listing of the first few of a million rows keeps the best few seen so far (`firstInOrder`) instead of
/// sorting them all, and a sort of many sorts integers (amounts at one scale, merchants' ranks): `ls --sort
/// amount --limit 20` sorted a million `Amount`s through a closure that built two of them for each comparison
/// (240 ms on the 1M `wide` shape), and `--sort merchant` lower-cased every merchant's name into a `String`
/// first (1.6 s there, a million names).
enum RowOrder {
    /// `rows` by amount, ties by row; reversed with `reverse`; the first `limit` when given.
    static func byAmount(_ rows: [Int], _ ledger: Ledger, reverse: Bool, limit: Int?) -> [Int] {
        // Every amount at the largest scale among them, when that fits 64 bits (it compares as `Amount` does: by
        // value, whatever the scale); else compared as `Amount`s.
        guard let units = Amount.unitsAtOneScale(rows.lazy.map { Optional(ledger.amount($0)) }) else {
            return ordered(rows.indices, reverse: reverse, limit: limit) { i, j in
                let x = ledger.amount(rows[i]), y = ledger.amount(rows[j])
                return x != y ? x < y : rows[i] < rows[j]
            }.map { rows[$0] }
        }
        return sorted(Array(zip(units, rows)), reverse: reverse, limit: limit)
    }

    /// `rows` by merchant name lower-cased (as `String`s compare), ties by row; reversed with `reverse`; the
    /// first `limit` when given. Two names of ASCII alone compare by their bytes with the letters folded, which is
    /// how their lower-cased `String`s compare; a name with other bytes is lower-cased once, when first compared
    /// (only whole names: a combining mark after an ASCII letter composes with it, and sorts by what it makes).
    static func byMerchant(_ rows: [Int], _ ledger: Ledger, reverse: Bool, limit: Int?) -> [Int] {
        let names = ledger.merchants
        return names.withAllUTF8 { texts in
            let merchant = ledger.merchant
            let k = limit ?? rows.count
            // (Few merchants: the table's count, which bounds the rows', so that a few rows of a million merchants
            // do not pay for finding theirs.)
            if k > 1024 || k * 8 > rows.count || names.count * 8 <= rows.count {
                var order = MerchantOrder(names, texts)
                var held = [Bool](repeating: false, count: names.count + 1)
                var ids: [UInt32] = []
                for r in rows where !held[Int(merchant[r])] { held[Int(merchant[r])] = true; ids.append(merchant[r]) }
                // Many of them, or few merchants: the merchants these rows hold ranked once by name (alike names,
                // one rank), then the rows sorted by rank and row as integers (compared by name, a sort of a
                // million rows compared names twenty million times, and so did keeping the best thousand of rows
                // that came in the reverse of the order wanted).
                ids.sort { order.compare($0, $1) < 0 }
                var rank = [UInt32](repeating: 0, count: names.count + 1)
                var next: UInt32 = 0
                for (i, id) in ids.enumerated() {
                    if i > 0 && order.compare(ids[i - 1], id) != 0 { next += 1 }
                    rank[Int(id)] = next
                }
                return sorted(rows.map { (rank[Int(merchant[$0])], $0) }, reverse: reverse, limit: limit)
            }
            /// The first `limit` of `positions` (into `rows`), by name and row.
            func first(_ positions: some Collection<Int>) -> [Int] {
                var order = MerchantOrder(names, texts)
                let p = Array(positions)
                return ordered(p.indices, reverse: reverse, limit: limit) { i, j in
                    let (a, b) = (rows[p[i]], rows[p[j]])
                    let c = order.compare(merchant[a], merchant[b])
                    return c != 0 ? c < 0 : a < b
                }.map { p[$0] }
            }
            // A few of many rows: the first few of each half of them found on its own core (each reading its
            // rows' names once, where most stop), then the first of those. On one core, `ls --sort merchant
            // --limit 20` took 56 ms on the `wide` shape, half of whose million names begin alike for 45 bytes.
            let halves = Parallel.halves(rows.count, threshold: 1 << 16) { first($0) }
            return (halves.count == 1 ? halves[0] : first(halves[0] + halves[1])).map { rows[$0] }
        }
    }

    /// Merchants' names compared as their lower-cased `String`s compare: two names of ASCII alone by their bytes
    /// with the letters folded, a name with other bytes lower-cased once, when first compared (only whole names:
    /// a combining mark after an ASCII letter composes with it, and sorts by what it makes). One for each thread.
    struct MerchantOrder {
        let table: StringTable
        let texts: StringTable.Texts
        private var lowered: [UInt32: String] = [:]
        /// By merchant id: 0 not yet looked at, 1 ASCII alone, 2 not.
        private var ascii: [UInt8]

        init(_ table: StringTable, _ texts: StringTable.Texts) {
            self.table = table
            self.texts = texts
            ascii = [UInt8](repeating: 0, count: table.count + 1)
        }

        mutating func isASCII(_ id: UInt32) -> Bool {
            if ascii[Int(id)] == 0 {
                // Eight bytes at a time: a million names are read once each.
                let bytes = texts[id], end = bytes.count
                var high: UInt64 = 0, i = 0
                if let base = bytes.baseAddress {
                    let raw = UnsafeRawPointer(base)
                    while i + 8 <= end { high |= raw.loadUnaligned(fromByteOffset: i, as: UInt64.self); i += 8 }
                }
                while i < end { high |= UInt64(bytes[i]); i += 1 }
                ascii[Int(id)] = high & 0x8080_8080_8080_8080 == 0 ? 1 : 2
            }
            return ascii[Int(id)] == 1
        }

        mutating func lower(_ id: UInt32) -> String {
            if let s = lowered[id] { return s }
            let s = table[id].lowercased()
            lowered[id] = s
            return s
        }

        /// -1, 0 or 1 as merchant `a`'s lower-cased name sorts before, with or after `b`'s.
        mutating func compare(_ a: UInt32, _ b: UInt32) -> Int {
            if a == b { return 0 }
            guard isASCII(a) && isASCII(b) else {
                let x = lower(a), y = lower(b)
                return x == y ? 0 : (x < y ? -1 : 1)
            }
            let ta = texts[a], tb = texts[b], ea = ta.count, eb = tb.count
            var i = 0
            while i < ea && i < eb {
                let x = ta[i], y = tb[i]
                let fx = x &- 0x41 < 26 ? x | 0x20 : x, fy = y &- 0x41 < 26 ? y | 0x20 : y
                if fx != fy { return fx < fy ? -1 : 1 }
                i += 1
            }
            return ea == eb ? 0 : (i == ea ? -1 : 1)
        }
    }

    /// The indices `items` in the order `less` (a strict total order) gives, or its reverse; the first `limit`
    /// when given (`firstInOrder`: the best few kept in a heap as the items go by, rather than every item sorted).
    static func ordered(_ items: Range<Int>, reverse: Bool, limit: Int?, by less: (Int, Int) -> Bool) -> [Int] {
        firstInOrder(limit ?? items.count, of: items, by: reverse ? { less($1, $0) } : less)
    }

    /// The rows of `keys` (each a key and its row, no two alike) by key then row, or the reverse; the first
    /// `limit` when given. Many of them are sorted: kept in a heap, a hundred thousand of a million rows that came
    /// in the reverse of the order wanted took longer.
    static func sorted<K: Comparable>(_ keys: [(K, Int)], reverse: Bool, limit: Int?) -> [Int] {
        var keys = keys
        let k = limit ?? keys.count
        if k > 1024 || k * 8 > keys.count {
            if reverse { keys.sort { $0 > $1 } } else { keys.sort { $0 < $1 } }
            return keys.prefix(k).map(\.1)
        }
        return ordered(keys.indices, reverse: reverse, limit: limit) { keys[$0] < keys[$1] }.map { keys[$0].1 }
    }
}
