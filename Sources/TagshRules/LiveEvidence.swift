import CPrefetch
import TagshModel
import TagshQuery

/// A suggestion's evidence counted from the ledger when it is asked for, instead of tallies kept for every
/// merchant, merchant alike, word and amount of the ledger.
///
/// Kept tallies cost a dictionary per key: on a ledger of a million distinct merchants, building them took
/// 9-11 s and 820 MB before the first `suggest` or `show` could answer. Here the only things built up front are
/// the rows of each merchant (two arrays) and, per merchant, what the fields' consistency sums; a suggestion then
/// counts the rows of its merchant, of the merchants named alike, of those sharing a word and of its amount
/// there. Which merchants are alike, or share a word, is read from the names once, when first needed
/// (`NameGroups`), and kept, since a merchant's name never changes; the counts are read from the ledger, so a
/// change needs no update but the consistency's and forgetting what was counted.
struct LiveEvidence: Sendable {
    typealias Tally = SuggestIndex.Tally

    /// Each merchant's rows, in row order.
    private let byMerchant: KeyedGroups
    /// Per merchant, per field: its transactions with a value, and how many of them share its most common value.
    /// One flat array: two arrays of three arrays cost a uniqueness check at each of the twelve reads and
    /// writes per merchant, for each of a million merchants when the index is built.
    private var consistency: [Consistency] = []
    struct Consistency { var total: (Int32, Int32, Int32) = (0, 0, 0), top: (Int32, Int32, Int32) = (0, 0, 0) }
    /// `SuggestIndex.agree` and `agreeTotal`: the sums of the `top`s and `total`s, as far as they are measured
    /// (`sums(_:ledger:)` measures the rest first).
    private var agree = [0, 0, 0], agreeTotal = [0, 0, 0]
    /// The merchants changed since their consistency was last measured, each once (`staleMerchants`, and a bit
    /// each): measured when a suggestion next reads the sums, however many changes came between. Measured at each
    /// change, a `tag all` on a million rows counted every merchant's rows again (15-30 ms on two cores), as did
    /// its `undo` and each `redo`, for no suggestion.
    private var stale = RowSet(rowCount: 0), staleMerchants: [UInt32] = []
    /// The merchants by alike name and by word, read from their names when first needed (a name never changes,
    /// and an import, which adds names, makes a new index).
    private var groups: NameGroups?
    /// Whether the names are grouped already (given, or read since).
    var namesGrouped: Bool { groups != nil }
    /// How many groups' tallies are kept (`memo`), for the tests.
    var keptGroups: Int { memo.count }
    /// Tallies already counted over many rows (`memoRows` or more), until the next change: a bulk plan, or a
    /// `review` going through one merchant's transactions, asks for the same keys again.
    private var memo: [MemoKey: [Tally]] = [:]
    static let memoRows = 64
    /// Rows looked at by the last count.
    private var scanned = 0
    /// The last tallies counted, whatever their size: the next rows of a bulk plan (merchants alike together)
    /// or of a `review` mostly ask for the same small keys.
    private var recent: [(key: MemoKey, tallies: [Tally])] = []
    private var recentNext = 0
    /// The annotated rows of large groups of merchants alike, by amount, with the tallies counted from them (a
    /// recurring amount, a rent or a subscription, is asked for by each of its rows): a bulk plan asks for many
    /// amounts of the same group, and filtering the group's rows for each cost a pass over them per amount. The
    /// last `amountGroupsKept` groups asked for are kept: a `review` goes from one group to another and back, and
    /// with one group kept, each return to a group of half a million rows sorted its rows again (50-100 ms a key).
    private var amountGroups: [(alike: UInt32, rows: AmountRows, tallies: [AmountOnly: [Tally]])] = []
    static let amountGroupsKept = 8
    /// The large groups of merchants alike one amount was asked of, with that amount's tallies (counted in a
    /// pass: see `tallies(of:)`).
    private var amountAskedFirst: [UInt32: (amount: AmountOnly, tallies: [Tally])] = [:]
    typealias AmountOnly = AmountRows.Amount
    struct MemoKey: Hashable { var level: Int; var key: UInt32 }
    /// Scratch counts, all zero between calls; and a second set for the other core (`count(rowsOf:)`).
    private var scratch = Scratch(), spare = Scratch()
    /// From how many rows a group's rows are counted on both cores, half each.
    let parallelFrom: Int
    /// From what share of the ledger's rows (a `scanShare`-th) a group's rows are counted in a pass over the
    /// ledger (see `count(rowsOf:)`); 0: never.
    let scanShare: Int

    /// `groups`: the names grouped already (kept only when they are this ledger's names).
    init(ledger: Ledger, groups: NameGroups? = nil, parallelFrom: Int = 1 << 15, scanShare: Int = 4) {
        self.parallelFrom = parallelFrom
        self.scanShare = scanShare
        if let groups, groups.nameCount == ledger.merchants.count { self.groups = groups }
        byMerchant = KeyedGroups(rowsByMerchantOf: ledger)
        let merchantSlots = byMerchant.keyCount
        consistency = [Consistency](repeating: Consistency(), count: merchantSlots)
        stale = RowSet(rowCount: merchantSlots)
        measure(0..<UInt32(merchantSlots), ledger: ledger)
    }

    /// In field `f`, the transactions that agree with their merchant's most common value and all transactions
    /// with a value (`SuggestIndex.consistency`), the merchants changed since last asked measured first.
    mutating func sums(_ f: Int, ledger: Ledger) -> (agree: Int, total: Int) {
        if !staleMerchants.isEmpty {
            measure(staleMerchants, ledger: ledger)
            for m in staleMerchants { stale.remove(Int(m)) }
            staleMerchants = []
        }
        return (agree[f], agreeTotal[f])
    }

    // MARK: - consistency

    /// Counts the rows of each of `merchants` again and moves the consistency sums by what changed. No tally is
    /// made: the scratch counts give each field's total and its most common value's count. (This runs for every
    /// merchant when the index is built: a million of them on some ledgers; and for every merchant a change
    /// touches: all of them after a `tag all`.) From `parallelFrom` rows the merchants are split where half the
    /// rows are, and each half is measured on a core of its own, into its own scratch: counted on one core, a
    /// `tag all` on a million rows spent 20 ms here, and as long again on its `undo`.
    private mutating func measure(_ merchants: some Collection<UInt32>, ledger: Ledger) {
        let list = Array(merchants)
        let groups = byMerchant
        var rows = 0
        for m in list {
            precondition(Int(m) < consistency.count, "a merchant the index does not have")
            rows += groups.range(of: m).count
        }
        // Taken out while it is written in place (the loops count into the scratches, which are part of `self`).
        var kept = consistency
        consistency = []
        var sums = Sums()
        if let half = split(list, rows: rows) {
            withBothScratches(ledger) { mine, theirs in
                kept.withUnsafeMutableBufferPointer { kept in
                    // Each half writes only its own merchants' entries.
                    let k = kept
                    let (here, there) = Parallel.alongside({ LiveEvidence.measure(list[half...], groups: groups, ledger: ledger, scratch: &theirs, into: k) },
                                                           { () throws(Never) in LiveEvidence.measure(list[..<half], groups: groups, ledger: ledger, scratch: &mine, into: k) })
                    sums = here
                    sums.add(there)
                }
            }
        } else {
            scratch.prepare(ledger)
            kept.withUnsafeMutableBufferPointer { kept in
                sums = LiveEvidence.measure(list[...], groups: groups, ledger: ledger, scratch: &scratch, into: kept)
            }
        }
        consistency = kept
        agreeTotal[0] += sums.total.0; agreeTotal[1] += sums.total.1; agreeTotal[2] += sums.total.2
        agree[0] += sums.agree.0; agree[1] += sums.agree.1; agree[2] += sums.agree.2
    }

    /// Where `merchants`, holding `rows` rows, are split for a core each: after the merchant that brings the rows to
    /// half. Nil below `parallelFrom` rows or two merchants (one core).
    private func split(_ merchants: [UInt32], rows: Int) -> Int? {
        guard rows >= parallelFrom, merchants.count >= 2 else { return nil }
        // (The key count read once, as in `count(rowsOf:)`: a property of another module, a call for each merchant.)
        let keyCount = byMerchant.keyCount
        var sum = 0
        for (i, m) in merchants.enumerated() where Int(m) < keyCount {
            sum += byMerchant.range(of: m).count
            if sum * 2 >= rows { return i + 1 }
        }
        return merchants.count
    }

    /// Runs `body` with this core's scratch and the other's, taken out of `self` and prepared for `ledger`, then
    /// puts them back (all zero, as `body` must leave them). Swapped, not copied: a second reference to a scratch's
    /// arrays would make the next write copy them, as long as the table of tags.
    @inline(__always)
    private mutating func withBothScratches<R>(_ ledger: Ledger, _ body: (inout Scratch, inout Scratch) -> R) -> R {
        var mine = Scratch(), theirs = Scratch()
        swap(&mine, &scratch)
        swap(&theirs, &spare)
        mine.prepare(ledger)
        theirs.prepare(ledger)
        let result = body(&mine, &theirs)
        swap(&scratch, &mine)
        swap(&spare, &theirs)
        return result
    }

    /// How much the consistency sums move.
    struct Sums {
        var agree = (0, 0, 0), total = (0, 0, 0)

        mutating func add(_ other: Sums) {
            agree.0 += other.agree.0; agree.1 += other.agree.1; agree.2 += other.agree.2
            total.0 += other.total.0; total.1 += other.total.1; total.2 += other.total.2
        }
    }

    /// Measures `merchants` into `kept` with `scratch` (prepared, and left all zero), and returns how much the sums move.
    private static func measure(_ merchants: ArraySlice<UInt32>, groups: KeyedGroups, ledger: Ledger, scratch: inout Scratch,
                                into kept: UnsafeMutableBufferPointer<Consistency>) -> Sums {
        var sums = Sums()
        for m in merchants {
            let rows = groups.range(of: m)
            var total: (Int32, Int32, Int32) = (0, 0, 0), top: (Int32, Int32, Int32) = (0, 0, 0)
            if rows.count == 1 {
                // One transaction: each value it has is held once (a tag set holds a tag once).
                let r = Int(groups.members[rows.lowerBound])
                if ledger.category[r] != 0 { total.0 = 1; top.0 = 1 }
                if ledger.intent[r] != 0 { total.1 = 1; top.1 = 1 }
                if ledger.tagSet[r] != 0 { total.2 = 1; top.2 = 1 }
            } else if !rows.isEmpty {
                total = scratch.accumulate(groups[m].lazy.map { Int($0) }, ledger: ledger)
                for c in scratch.countedCategories { top.0 = max(top.0, scratch.categoryCounts[Int(c)]) }
                for n in scratch.countedIntents { top.1 = max(top.1, scratch.intentCounts[Int(n)]) }
                for t in scratch.countedTags { top.2 = max(top.2, scratch.tagCounts[Int(t)]) }
                scratch.clear()
            }
            let old = kept[Int(m)]
            sums.total.0 += Int(total.0 - old.total.0); sums.agree.0 += Int(top.0 - old.top.0)
            sums.total.1 += Int(total.1 - old.total.1); sums.agree.1 += Int(top.1 - old.top.1)
            sums.total.2 += Int(total.2 - old.total.2); sums.agree.2 += Int(top.2 - old.top.2)
            kept[Int(m)] = Consistency(total: total, top: top)
        }
        return sums
    }

    /// The merchants whose transactions `changes` annotates differently (a note counts in no tally), each once.
    static func changedMerchants(_ changes: ChangeSet, ledger: Ledger) -> [UInt32] {
        var merchants: [UInt32] = []
        // (A bit per merchant, not a `Set`: undoing a rule over a million rows of a million merchants hashed each.)
        var seen = RowSet(rowCount: Int(ledger.merchants.ids.upperBound))
        for k in 0..<changes.count where changes.fields[k] != .note {
            let m = ledger.merchant[Int(changes.rows[k])]
            if !seen.contains(Int(m)) {
                seen.insert(Int(m))
                merchants.append(m)
            }
        }
        return merchants
    }

    /// Up to how many changed merchants, and changed rows, what was counted is brought up to date key by key
    /// (`Touched`), not forgotten all at once: a change of many rows is cheaper counted again when asked.
    static let forgetByKeyUpTo = 256, adjustRowsUpTo = 4096

    /// The keys whose counts a change to some merchants' transactions makes stale: those merchants, their alike
    /// names and their words (the groups that hold them; no other group holds their transactions).
    struct Touched {
        /// Each changed merchant's alike name (nil: not named yet) and words.
        let keysOf: [UInt32: (alike: UInt32?, words: [UInt32])]
        let alike: Set<UInt32>, words: Set<UInt32>

        init(keysOf: [UInt32: (alike: UInt32?, words: [UInt32])]) {
            self.keysOf = keysOf
            alike = Set(keysOf.values.compactMap(\.alike))
            words = Set(keysOf.values.flatMap(\.words))
        }

        func covers(_ key: MemoKey) -> Bool {
            switch SuggestIndex.Level(rawValue: key.level) {
            case .merchant: keysOf[key.key] != nil
            case .alike: alike.contains(key.key)
            case .word: words.contains(key.key)
            case .amount, nil: true
            }
        }
    }

    /// Keeps the consistency current after `changes` were made to (or undone on, `reverted`) the transactions of
    /// `merchants`: each is counted again, once, when the sums are next read (`sums(_:ledger:)`). What was counted is
    /// forgotten, all of it, or with `touched` only
    /// what it covers; of that, the tallies kept for a group (`memo`) are brought up to date instead, row by row,
    /// as counting the group again would give them (a `review` decision on a row whose words are in a million
    /// names counted the million rows again for the next row).
    mutating func update(_ changes: ChangeSet, reverted: Bool, merchants: [UInt32], ledger: Ledger, forgetting touched: Touched?) {
        for m in merchants where !stale.contains(Int(m)) {
            stale.insert(Int(m))
            staleMerchants.append(m)
        }
        guard let touched else {
            memo = [:]
            recent = []
            amountGroups = []
            amountAskedFirst = [:]
            return
        }
        memo = memo.filter { $0.key.level != SuggestIndex.Level.amount.rawValue }
        struct Ranked: Hashable { var key: MemoKey; var field: Int }
        var toRank = Set<Ranked>()
        // (Undone, the changes are taken back last first, as the row-by-row index takes them.)
        for k in reverted ? Array((0..<changes.count).reversed()) : Array(0..<changes.count) where changes.fields[k] != .note {
            let row = Int(changes.rows[k])
            guard let keys = touched.keysOf[ledger.merchant[row]] else { continue }
            let (before, after) = reverted ? (changes.after[k], changes.before[k]) : (changes.before[k], changes.after[k])
            var memoKeys = [MemoKey(level: SuggestIndex.Level.merchant.rawValue, key: ledger.merchant[row])]
            if let alike = keys.alike { memoKeys.append(MemoKey(level: SuggestIndex.Level.alike.rawValue, key: alike)) }
            memoKeys += keys.words.map { MemoKey(level: SuggestIndex.Level.word.rawValue, key: $0) }
            for key in memoKeys where memo[key] != nil {
                if let f = LiveEvidence.adjust(&memo[key]!, field: changes.fields[k], before: before, after: after, ledger: ledger) {
                    toRank.insert(Ranked(key: key, field: f))
                }
            }
        }
        // Ranked once per key and field, after all of its rows (ranking after each row cost a sort of a word's
        // thousands of tags per row: 200 rows' tags on the 1M `wide` shape took 0.54 s).
        for r in toRank { memo[r.key]![r.field].ranked = LiveEvidence.rank(memo[r.key]![r.field].values) }
        // (Oldest first, so that the next to go is still the oldest.)
        if recent.count == 16 { recent = Array(recent[recentNext...] + recent[..<recentNext]) }
        recent.removeAll { touched.covers($0.key) }
        recentNext = recent.count % 16
        patchAmountGroups(changes, touched: touched, ledger: ledger)
        for a in touched.alike { amountAskedFirst[a] = nil }
    }

    /// Brings the rows by amount kept for large groups (`amountGroups`) up to date after a change of `touched`'s
    /// merchants: each changed row is taken out of its amount's rows and put back when it still has an annotation,
    /// and that amount's tallies are counted again when asked. Dropping the group instead made the next
    /// transaction of that group gather its rows by amount again: on the 1M `wide` shape, whose largest group of
    /// merchants alike is half the rows, a `review` decision took 20-27 ms a key, half of it doing that.
    private mutating func patchAmountGroups(_ changes: ChangeSet, touched: Touched, ledger: Ledger) {
        guard !amountGroups.isEmpty, !touched.alike.isEmpty else { return }
        // The changed rows of each kept group, by amount.
        var changed: [Int: [AmountOnly: Set<Int32>]] = [:]
        for k in 0..<changes.count where changes.fields[k] != .note {
            let r = Int(changes.rows[k])
            guard let alike = touched.keysOf[ledger.merchant[r]]?.alike,
                  let g = amountGroups.firstIndex(where: { $0.alike == alike }) else { continue }
            let amount = AmountOnly(units: ledger.amountUnits[r], scale: ledger.amountScale[r], currency: ledger.currency[r])
            changed[g, default: [:]][amount, default: []].insert(Int32(r))
        }
        for (g, byAmount) in changed {
            for (amount, rows) in byAmount {
                var kept = (amountGroups[g].rows[amount] ?? []).filter { !rows.contains($0) }
                for r in rows.sorted() where ledger.category[Int(r)] != 0 || ledger.intent[Int(r)] != 0 || ledger.tagSet[Int(r)] != 0 {
                    kept.append(r)
                }
                amountGroups[g].rows.set(amount, rows: kept)
                amountGroups[g].tallies[amount] = nil
            }
        }
    }

    // MARK: - tallies

    /// The three fields' tallies of one key of one level, counted now (or taken from what was counted since
    /// the last change).
    /// `alikeNames`, `words` and `amountKeys` name the keys (the index's lists).
    mutating func tallies(_ level: SuggestIndex.Level, _ key: UInt32, alikeNames: [String], words: [String],
                          amountKeys: [SuggestIndex.AmountKey], ledger: Ledger) -> [Tally] {
        let memoKey = MemoKey(level: level.rawValue, key: key)
        if let known = recent.first(where: { $0.key == memoKey }) { return known.tallies }
        if let known = memo[memoKey] { return known }
        let counted: [Tally]
        switch level {
        case .merchant:
            counted = count(rowsOf: [key], ledger: ledger)
        case .alike:
            counted = count(rowsOf: alikeGroup(alikeNames[Int(key)], ledger: ledger), ledger: ledger)
        case .word:
            counted = count(rowsOf: wordGroup(words[Int(key)], ledger: ledger), ledger: ledger)
        case .amount:
            counted = tallies(of: amountKeys[Int(key)], alikeNames: alikeNames, ledger: ledger)
        }
        if scanned >= LiveEvidence.memoRows { memo[memoKey] = counted }
        if recent.count < 16 { recent.append((memoKey, counted)) } else { recent[recentNext] = (memoKey, counted) }
        recentNext = (recentNext + 1) % 16
        return counted
    }

    /// The tallies of one amount at merchants alike: counted from the group's rows by amount, which are kept for
    /// a large group (`amountGroups`), with what was counted from them.
    mutating func tallies(of k: SuggestIndex.AmountKey, alikeNames: [String], ledger: Ledger) -> [Tally] {
        let amount = AmountOnly(units: k.units, scale: k.scale, currency: k.currency)
        if let i = amountGroups.firstIndex(where: { $0.alike == k.alike }) {
            // The most recent last.
            if i != amountGroups.count - 1 { amountGroups.append(amountGroups.remove(at: i)) }
        } else {
            let group = alikeGroup(alikeNames[Int(k.alike)], ledger: ledger)
            // A small group, or the first amount asked of a large one, is counted in one pass over its rows: the
            // rows by amount are kept for the amounts asked after it. (Made for the first, a `suggest` on a
            // million rows of merchants alike hashed each row's amount to answer for one of them.)
            let large = group.reduce(0, { $0 + byMerchant.range(of: $1).count }) >= LiveEvidence.memoRows
            if large, let first = amountAskedFirst[k.alike], first.amount == amount { return first.tallies }
            guard large, amountAskedFirst[k.alike] != nil else {
                let counted = count(rowsOf: group, ledger: ledger) { r in
                    ledger.amountUnits[r] == k.units && ledger.amountScale[r] == k.scale && ledger.currency[r] == k.currency
                }
                if large { amountAskedFirst[k.alike] = (amount, counted) }
                return counted
            }
            if amountGroups.count == LiveEvidence.amountGroupsKept { amountGroups.removeFirst() }
            amountGroups.append((k.alike, AmountRows(group, groups: byMerchant, ledger: ledger), [:]))
        }
        let last = amountGroups.count - 1
        if let known = amountGroups[last].tallies[amount] { return known }
        // An amount no annotated transaction of the group has (most amounts, in a bulk plan) has nothing to count.
        guard let rows = amountGroups[last].rows[amount] else { return LiveEvidence.none }
        let counted = count(rows: rows.lazy.map { Int($0) }, ledger: ledger)
        amountGroups[last].tallies[amount] = counted
        return counted
    }

    /// The tallies of no transaction.
    static let none = [Tally(), Tally(), Tally()]

    /// A tally's values held twice or more, most held first (`Tally.ranked`).
    static func rank(_ values: [UInt32: Int]) -> [(value: UInt32, count: Int)] {
        values.filter { $0.value >= 2 }.map { (value: $0.key, count: $0.value) }.sorted { $0.count > $1.count }
    }

    /// A group's tallies, counted whole, with one of its rows' `field` changed from `before` to `after` (ids: a
    /// category, an intent's raw value, a tag set): what counting the group again gives, but for `ranked`, which
    /// the caller ranks again (`rank`) once all of a change's rows are in. Returns the field's index (nil: a note).
    static func adjust(_ tallies: inout [Tally], field: ChangeSet.Field, before: UInt32, after: UInt32, ledger: Ledger) -> Int? {
        guard let (field, old, new) = SuggestIndex.values(field, before: before, after: after, ledger: ledger) else { return nil }
        let f = field.rawValue
        // A row counts in a field's total when it has a value there (a tag set other than the empty one).
        if before != 0 { tallies[f].total -= 1 }
        if after != 0 { tallies[f].total += 1 }
        for v in old {
            let c = (tallies[f].values[v] ?? 0) - 1
            tallies[f].values[v] = c > 0 ? c : nil
        }
        for v in new { tallies[f].values[v, default: 0] += 1 }
        return f
    }

    /// The first row, in row order, of any of `merchants` with an annotation (nil when none has one).
    func firstAnnotatedRow(of merchants: [UInt32], ledger: Ledger) -> Int? {
        var first: Int?
        for m in merchants {
            for r in byMerchant[m].lazy.map({ Int($0) }) {
                if first.map({ r >= $0 }) ?? false { break }
                if ledger.category[r] != 0 || ledger.intent[r] != 0 || ledger.tagSet[r] != 0 { first = r; break }
            }
        }
        return first
    }

    /// Counts the fields' values over the rows of `merchants` (that pass `include`). From `parallelFrom` rows the
    /// merchants are split where half the rows are, and each half is counted on a core of its own: a word in a
    /// million descriptions (`CARD PAYMENT REF`) is a million rows, and a first `suggest` or a `review` key
    /// counted four such words one row after another.
    ///
    /// A group holding a `scanShare`-th of the ledger's rows or more (a word such as `ref` or `card` in most
    /// descriptions, or the merchants alike of half the rows) is counted in a pass over the whole ledger in row
    /// order instead (`Scratch.accumulate(marked:)`), a row's tag set counted once rather than each of its tags.
    /// On a million rows of a million merchants, a first `suggest` counts five such groups: looked up merchant by
    /// merchant, or in row order with the group path's count, they took 110-124 ms; this way, 81-83.
    private mutating func count(rowsOf merchants: [UInt32], ledger: Ledger, include: ((Int) -> Bool)? = nil) -> [Tally] {
        if let include { return count(rows: GroupRows(groups: byMerchant, keys: merchants).lazy.filter(include), ledger: ledger) }
        // (The key count read once: a property of another module, it was a call for each merchant.)
        let keyCount = byMerchant.keyCount
        var rows = 0
        for m in merchants where Int(m) < keyCount { rows += byMerchant.range(of: m).count }
        if scanShare > 0, rows.multipliedReportingOverflow(by: scanShare).partialValue >= ledger.count,
           byMerchant.members.count == ledger.count {
            var marked = RowSet(rowCount: keyCount)
            for m in merchants where Int(m) < keyCount { marked.insert(Int(m)) }
            let n = ledger.count
            guard rows >= parallelFrom else {
                scratch.prepare(ledger)
                let total = scratch.accumulate(marked: marked, rows: 0..<n, ledger: ledger)
                scanned = rows
                return tallies(total)
            }
            return twoCores(rows: rows, ledger: ledger) { scratch, half in
                scratch.accumulate(marked: marked, rows: half == 0 ? 0..<n / 2 : n / 2..<n, ledger: ledger)
            }
        }
        guard let half = split(merchants, rows: rows) else { return count(rows: GroupRows(groups: byMerchant, keys: merchants), ledger: ledger) }
        let groups = byMerchant
        let first = GroupRows(groups: groups, keys: Array(merchants[..<half])), second = GroupRows(groups: groups, keys: Array(merchants[half...]))
        return twoCores(rows: rows, ledger: ledger) { scratch, h in scratch.accumulate(h == 0 ? first : second, ledger: ledger) }
    }

    /// The tallies of `rows` rows counted in two halves, `body(scratch, 0)` on this core and `body(scratch, 1)` on
    /// the other, each into a scratch of its own.
    private mutating func twoCores(rows: Int, ledger: Ledger, _ body: (inout Scratch, Int) -> (Int32, Int32, Int32)) -> [Tally] {
        let (here, there) = withBothScratches(ledger) { mine, theirs in
            let counts = Parallel.alongside({ body(&theirs, 1) }, { () throws(Never) in body(&mine, 0) })
            mine.add(theirs)
            theirs.clear()
            return counts
        }
        scanned = rows
        let total = (here.0 + there.0, here.1 + there.1, here.2 + there.2)
        return tallies(total)
    }

    /// The members of some keys' groups, key after key: a plain loop over the two arrays. (A lazy `flatMap` of
    /// the groups made a slice of each, with its retain and release: on the merchants shape, a word's group is
    /// a hundred thousand merchants of one row each.)
    struct GroupRows: Sequence, IteratorProtocol {
        let groups: KeyedGroups
        let keys: [UInt32]
        private var k = 0, i = 0, end = 0

        init(groups: KeyedGroups, keys: [UInt32]) {
            self.groups = groups
            self.keys = keys
        }

        mutating func next() -> Int? {
            while i == end {
                guard k < keys.count else { return nil }
                let key = keys[k]
                k += 1
                guard Int(key) < groups.keyCount else { continue }
                let rows = groups.range(of: key)
                (i, end) = (rows.lowerBound, rows.upperBound)
            }
            i += 1
            return Int(groups.members[i - 1])
        }
    }

    /// Counts the fields' values over `rows`.
    private mutating func count(rows: some Sequence<Int>, ledger: Ledger) -> [Tally] {
        scratch.prepare(ledger)
        let total = scratch.accumulate(rows, ledger: ledger)
        scanned = scratch.scanned
        return tallies(total)
    }

    /// The tallies of what the scratch counted (`total`: how many rows had a value in each field); the scratch is
    /// cleared.
    ///
    /// Each field's values go into a dictionary made the size they need, and are ranked from the lists counted,
    /// not from that dictionary: on 1M `wide`, a word's tags are 49,000, and five words' dictionaries, grown step by
    /// step and read back to rank, were a fifth of a first `suggest`.
    private mutating func tallies(_ total: (Int32, Int32, Int32)) -> [Tally] {
        func tally(_ total: Int32, _ ids: [UInt32], _ counts: [Int32]) -> Tally {
            var values = [UInt32: Int](minimumCapacity: ids.count)
            var ranked: [(value: UInt32, count: Int)] = []
            for id in ids {
                let n = Int(counts[Int(id)])
                values[id] = n
                if n >= 2 { ranked.append((id, n)) }
            }
            ranked.sort { $0.count > $1.count }
            return Tally(total: Int(total), values: values, ranked: ranked)
        }
        let out = [tally(total.0, scratch.countedCategories, scratch.categoryCounts),
                   tally(total.1, scratch.countedIntents, scratch.intentCounts),
                   tally(total.2, scratch.countedTags, scratch.tagCounts)]
        scratch.clear()
        return out
    }

    /// Counts by category, intent and tag id, all zero between uses, with the ids counted (each once).
    struct Scratch: Sendable {
        var categoryCounts: [Int32] = []
        var intentCounts = [Int32](repeating: 0, count: 256)
        var tagCounts: [Int32] = []
        var countedCategories: [UInt32] = [], countedIntents: [UInt32] = [], countedTags: [UInt32] = []
        /// By tag set (`accumulate(marked:)`), sized when first used.
        var setCounts: [Int32] = []
        /// Rows looked at by the last `accumulate`.
        var scanned = 0

        /// Sizes the counts for the ledger's tables (which only grow).
        mutating func prepare(_ ledger: Ledger) {
            if categoryCounts.count < Int(ledger.categories.ids.upperBound) + 1 {
                categoryCounts = [Int32](repeating: 0, count: Int(ledger.categories.ids.upperBound) + 1)
            }
            if tagCounts.count < Int(ledger.tags.ids.upperBound) + 1 {
                tagCounts = [Int32](repeating: 0, count: Int(ledger.tags.ids.upperBound) + 1)
            }
        }

        /// Adds `other`'s counts to these (both prepared for the same ledger).
        mutating func add(_ other: Scratch) {
            for c in other.countedCategories {
                if categoryCounts[Int(c)] == 0 { countedCategories.append(c) }
                categoryCounts[Int(c)] += other.categoryCounts[Int(c)]
            }
            for n in other.countedIntents {
                if intentCounts[Int(n)] == 0 { countedIntents.append(n) }
                intentCounts[Int(n)] += other.intentCounts[Int(n)]
            }
            for t in other.countedTags {
                if tagCounts[Int(t)] == 0 { countedTags.append(t) }
                tagCounts[Int(t)] += other.tagCounts[Int(t)]
            }
        }

        /// Adds the fields' values of `rows` to the scratch counts, listing each id the first time it is counted
        /// (`countedCategories`, ...), and returns how many of the rows have a value in each field.
        ///
        /// The rows come `batch` at a time: each one's columns are asked for first, and the members of its tag set
        /// (a prefetch), then they are counted. Rows of many merchants lie all over the columns, and a row's tags
        /// are three loads that wait on each other (its set, where the set starts, its members); asked for together,
        /// a batch's loads wait for memory at once rather than one after another.
        mutating func accumulate(_ rows: some Sequence<Int>, ledger: Ledger) -> (Int32, Int32, Int32) {
            var total: (Int32, Int32, Int32) = (0, 0, 0)
            scanned = 0
            let batch = LiveEvidence.batch
            ledger.category.withUnsafeBufferPointer { category in
                ledger.intent.withUnsafeBufferPointer { intent in
                    ledger.tagSet.withUnsafeBufferPointer { tagSet in
                        ledger.tagSets.withMembers { members, starts in
                            withUnsafeTemporaryAllocation(of: Int.self, capacity: batch) { pending in
                                var n = 0
                                func count() {
                                    for i in 0..<n {
                                        let r = pending[i]
                                        Scratch.prefetch(category, r)
                                        Scratch.prefetch(intent, r)
                                        let s = Int(tagSet[r])
                                        if s != 0 { Scratch.prefetch(members, starts[s]) }
                                    }
                                    for i in 0..<n {
                                        let r = pending[i]
                                        let c = category[r], v = intent[r], s = Int(tagSet[r])
                                        if c != 0 {
                                            total.0 += 1
                                            if categoryCounts[Int(c)] == 0 { countedCategories.append(c) }
                                            categoryCounts[Int(c)] += 1
                                        }
                                        if v != 0 {
                                            total.1 += 1
                                            if intentCounts[Int(v)] == 0 { countedIntents.append(UInt32(v)) }
                                            intentCounts[Int(v)] += 1
                                        }
                                        if s != 0 {
                                            total.2 += 1
                                            for k in starts[s]..<starts[s + 1] {
                                                let t = members[k]
                                                if tagCounts[Int(t)] == 0 { countedTags.append(t) }
                                                tagCounts[Int(t)] += 1
                                            }
                                        }
                                    }
                                    scanned += n
                                    n = 0
                                }
                                for r in rows {
                                    pending[n] = r
                                    n += 1
                                    if n == batch { count() }
                                }
                                count()
                            }
                        }
                    }
                }
            }
            return total
        }

        /// `accumulate` of the rows in `range` whose merchant is marked, in one pass in row order with no branch
        /// a row: each row adds its mark (1 or 0) to the count of its category, its intent and its tag set (a
        /// row's set is one count, where its tags were one each); each set counted then adds its count to its
        /// tags. Slot 0 (no category, no intent, the empty set) counts the rows without.
        mutating func accumulate(marked: RowSet, rows range: Range<Int>, ledger: Ledger) -> (Int32, Int32, Int32) {
            if setCounts.count < ledger.tagSets.count { setCounts = [Int32](repeating: 0, count: ledger.tagSets.count) }
            var byCategory = [Int32](repeating: 0, count: categoryCounts.count), byIntent = [Int32](repeating: 0, count: 256)
            var bySet: [Int32] = []
            swap(&bySet, &setCounts)
            defer { swap(&bySet, &setCounts) }
            ledger.merchant.withUnsafeBufferPointer { merchant in
                ledger.category.withUnsafeBufferPointer { category in
                    ledger.intent.withUnsafeBufferPointer { intent in
                        ledger.tagSet.withUnsafeBufferPointer { tagSet in
                            marked.words.withUnsafeBufferPointer { words in
                                byCategory.withUnsafeMutableBufferPointer { byCategory in
                                    byIntent.withUnsafeMutableBufferPointer { byIntent in
                                        bySet.withUnsafeMutableBufferPointer { bySet in
                                            for r in range {
                                                let m = Int(merchant[r])
                                                let mark = Int32(truncatingIfNeeded: words[m >> 6] >> UInt64(m & 63) & 1)
                                                byCategory[Int(category[r])] &+= mark
                                                byIntent[Int(intent[r])] &+= mark
                                                bySet[Int(tagSet[r])] &+= mark
                                            }
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
            }
            var total: (Int32, Int32, Int32) = (0, 0, 0)
            for c in 1..<byCategory.count where byCategory[c] != 0 {
                total.0 += byCategory[c]
                if categoryCounts[c] == 0 { countedCategories.append(UInt32(c)) }
                categoryCounts[c] += byCategory[c]
            }
            for v in 1..<byIntent.count where byIntent[v] != 0 {
                total.1 += byIntent[v]
                if intentCounts[v] == 0 { countedIntents.append(UInt32(v)) }
                intentCounts[v] += byIntent[v]
            }
            scanned = Int(byIntent.reduce(0, +))
            ledger.tagSets.withMembers { members, starts in
                bySet.withUnsafeMutableBufferPointer { bySet in
                    tagCounts.withUnsafeMutableBufferPointer { tagCounts in
                        for s in 1..<max(1, bySet.count) where bySet[s] != 0 {
                            let n = bySet[s]
                            bySet[s] = 0
                            total.2 += n
                            for k in starts[s]..<starts[s + 1] {
                                let t = Int(members[k])
                                if tagCounts[t] == 0 { countedTags.append(UInt32(t)) }
                                tagCounts[t] += n
                            }
                        }
                    }
                }
            }
            bySet[0] = 0
            return total
        }

        /// Asks for the cache line of `buffer[i]` without waiting for it.
        @inline(__always) private static func prefetch<T>(_ buffer: UnsafeBufferPointer<T>, _ i: Int) {
            if let base = buffer.baseAddress { tagsh_prefetch(base + i) }
        }

        /// Sets the counts back to zero.
        mutating func clear() {
            for c in countedCategories { categoryCounts[Int(c)] = 0 }
            for n in countedIntents { intentCounts[Int(n)] = 0 }
            for t in countedTags { tagCounts[Int(t)] = 0 }
            countedCategories.removeAll(keepingCapacity: true)
            countedIntents.removeAll(keepingCapacity: true)
            countedTags.removeAll(keepingCapacity: true)
        }
    }

    /// Rows read together by `Scratch.accumulate`.
    static let batch = 16

    // MARK: - groups

    /// Positions of `rows` ordered by group of merchants alike, then merchant, then row.
    mutating func groupOrder(_ rows: [Int], ledger: Ledger) -> [Int] {
        let alike = nameGroups(ledger).alikeOf
        var position = [Int32](repeating: -1, count: ledger.count)
        for (i, r) in rows.enumerated() { position[r] = Int32(i) }
        // The merchants by group (a sort of one number each), then each merchant's rows as they are kept.
        var merchants: [UInt64] = []
        for m in 0..<UInt32(byMerchant.keyCount) where !byMerchant.range(of: m).isEmpty { merchants.append(UInt64(alike[Int(m)]) << 32 | UInt64(m)) }
        merchants.sort()
        var out: [Int] = []
        out.reserveCapacity(rows.count)
        for key in merchants {
            for r in byMerchant[UInt32(truncatingIfNeeded: key)] where position[Int(r)] >= 0 { out.append(Int(position[Int(r)])) }
        }
        return out
    }

    /// The merchants whose alike name (`SuggestIndex.alikeName`) is `name`.
    mutating func alikeGroup(_ name: String, ledger: Ledger) -> [UInt32] { nameGroups(ledger).alike(name) }

    /// The merchants with `word` among their significant words (`Suggester.significantWords`).
    mutating func wordGroup(_ word: String, ledger: Ledger) -> [UInt32] { nameGroups(ledger).word(word) }

    /// The significant words whose merchants hold a `scanShare`-th of the ledger's rows or more: those a
    /// suggestion counts in a pass over the whole ledger (`count(rowsOf:)`).
    mutating func largeWords(ledger: Ledger) -> [String] {
        guard scanShare > 0, ledger.count > 0 else { return [] }
        let groups = byMerchant, keyCount = byMerchant.keyCount
        return nameGroups(ledger).words(reaching: (ledger.count + scanShare - 1) / scanShare) { m in
            Int(m) < keyCount ? groups.range(of: m).count : 0
        }
    }

    /// The merchants grouped by name, read when first needed.
    private mutating func nameGroups(_ ledger: Ledger) -> NameGroups {
        if let groups { return groups }
        let read = NameGroups(ledger.merchants)
        groups = read
        return read
    }

    // MARK: - names as bytes

    /// `SuggestIndex.alikeName` of an ASCII name, in `scratch`: its letter-and-digit runs without digits,
    /// lower-cased, joined by spaces.
    static func alikeName(ascii text: UnsafeBufferPointer<UInt8>, into scratch: inout [UInt8]) -> [UInt8] {
        scratch.removeAll(keepingCapacity: true)
        var i = 0
        while i < text.count {
            guard isAlphanumeric(text[i]) else { i += 1; continue }
            var j = i, digit = false
            while j < text.count && isAlphanumeric(text[j]) { digit = digit || text[j] &- 0x30 < 10; j += 1 }
            if !digit {
                if !scratch.isEmpty { scratch.append(0x20) }
                for k in i..<j { scratch.append(lower(text[k])) }
            }
            i = j
        }
        return scratch
    }

    /// Calls `body` with each of `Suggester.significantWords` of an ASCII name, lower-cased, as it comes (a word
    /// twice is given twice): runs of three letters or more, not noise.
    static func forEachSignificantWord(ascii text: UnsafeBufferPointer<UInt8>, _ body: (UnsafeBufferPointer<UInt8>) -> Void) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: max(1, text.count)) { word in
            var i = 0
            while i < text.count {
                guard isLetter(text[i]) else { i += 1; continue }
                var j = i
                while j < text.count && isLetter(text[j]) { word[j - i] = lower(text[j]); j += 1 }
                let w = UnsafeBufferPointer(rebasing: word[0..<(j - i)])
                if j - i >= 3 && !isNoise(w) { body(w) }
                i = j
            }
        }
    }

    /// `Suggester.noise`, as bytes.
    private static let noise: [[UInt8]] = Suggester.noise.map { Array($0.utf8) }

    private static func isNoise(_ w: UnsafeBufferPointer<UInt8>) -> Bool {
        guard w.count <= 7 else { return false }
        return noise.contains { $0.count == w.count && $0.elementsEqual(w) }
    }

    @inline(__always) private static func isLetter(_ b: UInt8) -> Bool { (b | 0x20) &- 0x61 < 26 }
    @inline(__always) private static func isAlphanumeric(_ b: UInt8) -> Bool { isLetter(b) || b &- 0x30 < 10 }
    @inline(__always) private static func lower(_ b: UInt8) -> UInt8 { b &- 0x41 < 26 ? b | 0x20 : b }
}

/// Merchants grouped by alike name and by significant word, from one pass over the merchant names (on both cores
/// when they are many): what a suggestion's evidence beyond the merchant's own history is counted over. A scan of
/// the names for each group asked cost 10-20 ms on a million distinct names, and a `review` asks for new ones at
/// every transaction.
public struct NameGroups: Sendable {
    /// ASCII keys: an id from the table, and the merchants by id.
    private var alikeNames = StringTable(), wordNames = StringTable()
    private var alikeMembers: KeyedGroups, wordMembers: KeyedGroups
    /// Keys beyond ASCII, by `String` (which compares them as Unicode does: composed or not), and the merchants
    /// whose alike name is empty (no word without digits).
    private var otherAlike: [String: [UInt32]] = [:], otherWords: [String: [UInt32]] = [:]
    private var noWords: [UInt32] = []
    /// Each merchant's group of merchants alike, as a number (0: no words).
    private(set) var alikeOf: [UInt32] = []

    /// How many names were grouped.
    public var nameCount: Int { alikeOf.count - 1 }

    /// One half's reading: its tables and (key id, merchant) pairs.
    private struct Part: Sendable {
        var alikeNames = StringTable(), wordNames = StringTable()
        var alikePairs: [(UInt32, UInt32)] = [], wordPairs: [(UInt32, UInt32)] = []
        var otherAlike: [String: [UInt32]] = [:], otherWords: [String: [UInt32]] = [:]
        var noWords: [UInt32] = []

        /// A key read from a name beyond ASCII: into the table when the key is ASCII all the same, else by
        /// `String`. (Each name gives a key once: one alike name, and its words as a set.)
        static func add(_ key: String, _ id: UInt32, _ table: inout StringTable, _ pairs: inout [(UInt32, UInt32)],
                        _ other: inout [String: [UInt32]]) {
            if key.utf8.allSatisfy({ $0 < 0x80 }) { pairs.append((table.intern(key), id)) } else { other[key, default: []].append(id) }
        }
    }

    /// `parallelThreshold`: from how many names the two halves are read on two cores.
    public init(_ merchants: StringTable, parallelThreshold: Int = 50_000) {
        let all = [UInt32(0)] + Array(merchants.ids)
        let parts = Parallel.halves(all.count, threshold: parallelThreshold) { range in NameGroups.read(all[range], merchants) }
        var alikePairs = parts[0].alikePairs, wordPairs = parts[0].wordPairs
        alikeNames = parts[0].alikeNames
        wordNames = parts[0].wordNames
        otherAlike = parts[0].otherAlike
        otherWords = parts[0].otherWords
        noWords = parts[0].noWords
        for part in parts.dropFirst() {
            let alikeMap = alikeNames.merge(part.alikeNames), wordMap = wordNames.merge(part.wordNames)
            alikePairs += part.alikePairs.map { (alikeMap[Int($0.0)], $0.1) }
            wordPairs += part.wordPairs.map { (wordMap[Int($0.0)], $0.1) }
            otherAlike.merge(part.otherAlike, uniquingKeysWith: +)
            otherWords.merge(part.otherWords, uniquingKeysWith: +)
            noWords += part.noWords
        }
        alikeMembers = KeyedGroups(keys: alikeNames.count + 1, alikePairs)
        alikeOf = [UInt32](repeating: 0, count: all.count)
        for (k, m) in alikePairs { alikeOf[Int(m)] = k }
        for (k, members) in otherAlike.values.enumerated() { for m in members { alikeOf[Int(m)] = UInt32(alikeNames.count + 1 + k) } }
        wordMembers = KeyedGroups(keys: wordNames.count + 1, wordPairs)
    }

    /// Reads the names of `ids`: each one's alike name and significant words, as bytes when the name is ASCII.
    private static func read(_ ids: ArraySlice<UInt32>, _ merchants: StringTable) -> Part {
        var part = Part()
        var scratch: [UInt8] = []
        merchants.withAllUTF8 { texts in
            for id in ids {
                let text = texts[id]
                if text.allSatisfy({ $0 < 0x80 }) {
                    let alike = LiveEvidence.alikeName(ascii: text, into: &scratch)
                    if alike.isEmpty { part.noWords.append(id) } else {
                        let key = alike.withUnsafeBufferPointer { part.alikeNames.intern(bytes: $0) }
                        part.alikePairs.append((key, id))
                    }
                    let first = part.wordPairs.count
                    LiveEvidence.forEachSignificantWord(ascii: text) { word in
                        let key = part.wordNames.intern(bytes: word)
                        if !part.wordPairs[first...].contains(where: { $0.0 == key }) { part.wordPairs.append((key, id)) }
                    }
                } else {
                    let name = merchants[id]
                    let alike = SuggestIndex.alikeName(name)
                    if alike.isEmpty { part.noWords.append(id) } else { Part.add(alike, id, &part.alikeNames, &part.alikePairs, &part.otherAlike) }
                    for word in Suggester.significantWords(name) { Part.add(word, id, &part.wordNames, &part.wordPairs, &part.otherWords) }
                }
            }
        }
        return part
    }

    func alike(_ name: String) -> [UInt32] {
        if name.isEmpty { return noWords }
        return members(name, alikeNames, alikeMembers, otherAlike)
    }

    func word(_ word: String) -> [UInt32] { members(word, wordNames, wordMembers, otherWords) }

    /// The significant words whose merchants hold `rows` rows or more (`rowsOf`: a merchant's), in the order the
    /// names were read.
    func words(reaching rows: Int, rowsOf: (UInt32) -> Int) -> [String] {
        func reaches(_ members: some Collection<UInt32>) -> Bool {
            var sum = 0
            for m in members {
                sum += rowsOf(m)
                if sum >= rows { return true }
            }
            return false
        }
        var out = wordNames.ids.filter { reaches(wordMembers[$0]) }.map { wordNames[$0] }
        out += otherWords.filter { reaches($0.value) }.map(\.key).sorted()
        return out
    }

    private func members(_ key: String, _ table: StringTable, _ groups: KeyedGroups, _ other: [String: [UInt32]]) -> [UInt32] {
        guard key.utf8.allSatisfy({ $0 < 0x80 }) else { return other[key] ?? [] }
        return table.id(of: key).map { Array(groups[$0]) } ?? []
    }
}
