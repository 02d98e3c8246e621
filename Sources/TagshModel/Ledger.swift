/// The whole ledger in memory, stored column by column.
///
/// A transaction is a row index (`id - 1`). Every text field is an id into an
/// intern table, and the tags of a row are an id into the table of distinct
/// tag sets, so a row costs about 40 bytes whatever its text, and a query can
/// test each distinct merchant, account or tag set once instead of each row.
public struct Ledger: Sendable {
    public var merchants = StringTable()
    public var accounts = StringTable()
    public var currencies = StringTable()
    public var notes = StringTable()
    public var tags = StringTable(caseInsensitive: true)
    public var tagSets = TagSetTable()
    public var categories = CategoryTable()

    public internal(set) var days: [Int32] = []
    public internal(set) var merchant: [UInt32] = []
    public internal(set) var amountUnits: [Int64] = []
    public internal(set) var amountScale: [UInt8] = []
    public internal(set) var currency: [UInt32] = []
    public internal(set) var account: [UInt32] = []
    /// `Intent.rawValue`, or 0 for none.
    public var intent: [UInt8] = []
    /// Category id, or 0 for none.
    public var category: [UInt32] = []
    /// Tag set id (0 is the empty set).
    public var tagSet: [UInt32] = []
    /// Note id, or 0 for none.
    public var note: [UInt32] = []
    /// Why a row's category cannot be set (journals and beancount): 0 it can,
    /// 1 it has more than two postings, 2 it has no expense or income posting.
    /// Empty when every row can take a category (CSV).
    public var categoryLock: [UInt8] = []

    /// Rows the bank lists without an amount yet (pending), ascending; their amount reads as zero.
    public internal(set) var pendingRows: [Int32] = []

    public init() {}

    public var count: Int { days.count }

    /// Marks the row just appended as pending.
    public mutating func markLastPending() { pendingRows.append(Int32(count - 1)) }

    public mutating func reserveCapacity(_ n: Int) {
        days.reserveCapacity(n); merchant.reserveCapacity(n); amountUnits.reserveCapacity(n)
        amountScale.reserveCapacity(n); currency.reserveCapacity(n); account.reserveCapacity(n)
        intent.reserveCapacity(n); category.reserveCapacity(n); tagSet.reserveCapacity(n); note.reserveCapacity(n)
    }

    /// Appends one transaction whose text fields are already interned.
    public mutating func append(
        day: Day, merchant m: UInt32, amount: Amount, currency c: UInt32, account a: UInt32,
        intent i: Intent?, category cat: UInt32, tagSet t: UInt32, note n: UInt32
    ) {
        days.append(day.daysSinceEpoch)
        merchant.append(m)
        amountUnits.append(amount.units)
        amountScale.append(amount.scale)
        currency.append(c)
        account.append(a)
        intent.append(i?.rawValue ?? 0)
        category.append(cat)
        tagSet.append(t)
        note.append(n)
    }

    /// Reads the dates of these rows with day and month exchanged (a CSV reader that learned the order late).
    public mutating func swapDayAndMonth(rows: [Int32]) {
        for r in rows {
            let (y, m, d) = Day(daysSinceEpoch: days[Int(r)]).components
            if let swapped = Day(year: y, month: d, day: m) { days[Int(r)] = swapped.daysSinceEpoch }
        }
    }

    public func day(_ row: Int) -> Day { Day(daysSinceEpoch: days[row]) }
    public func amount(_ row: Int) -> Amount { Amount(units: amountUnits[row], scale: amountScale[row]) }
    public func intentValue(_ row: Int) -> Intent? { Intent(rawValue: intent[row]) }

    /// The category ids some row carries (0, none, left out). Marked by id, not hashed a row at a time into a `Set`:
    /// at a million rows that took 11 ms of every save.
    public var usedCategories: Set<UInt32> {
        var seen = [Bool](repeating: false, count: Int(categories.ids.upperBound) + 1)
        category.withUnsafeBufferPointer { for c in $0 { seen[Int(c)] = true } }
        return Set(seen.indices.lazy.filter { $0 != 0 && seen[$0] }.map { UInt32($0) })
    }

    /// The tag names of a row, in order.
    public func tagNames(_ row: Int) -> [String] { tagSets[tagSet[row]].map { tags[$0] } }

    /// Why the category of a row cannot be set, or nil when it can.
    public func categoryRefusal(_ row: Int, setting id: UInt32? = nil) -> String? {
        guard row < categoryLock.count else { return nil }
        switch categoryLock[row] {
        case 1: return "transaction \(row + 1) has more than two postings, so it has no single category to set"
        case 2: return "transaction \(row + 1) has no expense or income posting whose account could carry a category"
        case 3 where id == 0:
            return "transaction \(row + 1) posts to an income account, whose own top level reads as the category Income, so it cannot be none"
        default: return nil
        }
    }

    /// A self-contained copy of one row, with its text resolved.
    public func transaction(_ row: Int) -> Transaction {
        Transaction(
            id: row + 1, day: day(row), merchant: merchants[merchant[row]], amount: amount(row),
            currency: currencies[currency[row]], account: accounts[account[row]],
            intent: intentValue(row),
            category: category[row] == 0 ? nil : categories[category[row]].name,
            tags: tagNames(row),
            note: note[row] == 0 ? nil : notes[note[row]]
        )
    }

    /// The ids of the tags some transaction carries, in the order they were first seen.
    /// (The tag table also keeps names that only an undone step or a preview used.)
    public func usedTagIDs() -> [UInt32] {
        var setUsed = [Bool](repeating: false, count: tagSets.count)
        for s in tagSet { setUsed[Int(s)] = true }
        var used = [Bool](repeating: false, count: tags.count + 1)
        for (s, isUsed) in setUsed.enumerated() where isUsed {
            for id in tagSets[UInt32(s)] where Int(id) < used.count { used[Int(id)] = true }
        }
        return tags.ids.filter { Int($0) < used.count && used[Int($0)] }
    }

    /// The tag ids in `names`, interned case-insensitively, first spelling
    /// kept, duplicates dropped.
    public mutating func internTagSet(_ names: [String]) -> UInt32 {
        var ids: [UInt32] = []
        for name in names {
            let id = tags.intern(name)
            if !ids.contains(id) { ids.append(id) }
        }
        return tagSets.intern(ids)
    }
}

/// One transaction with its text resolved, for display and export.
public struct Transaction: Sendable, Equatable {
    public var id: Int
    public var day: Day
    public var merchant: String
    public var amount: Amount
    public var currency: String
    public var account: String
    public var intent: Intent?
    public var category: String?
    public var tags: [String]
    public var note: String?

    public init(id: Int, day: Day, merchant: String, amount: Amount, currency: String, account: String,
                intent: Intent?, category: String?, tags: [String], note: String?) {
        self.id = id
        self.day = day
        self.merchant = merchant
        self.amount = amount
        self.currency = currency
        self.account = account
        self.intent = intent
        self.category = category
        self.tags = tags
        self.note = note
    }
}
