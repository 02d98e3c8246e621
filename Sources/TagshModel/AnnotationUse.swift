/// How many transactions carry each tag and each category, kept up to date from the changes made to the
/// ledger rather than counted again after each one.
///
/// Completion offers tags and categories most used first, and the prompt works out what it offers after every
/// command. Counting a million rows' tag sets again took 16-18 ms after each `tag` on a file of a million
/// distinct tag sets, and 76 ms once a rule had added half a million sets; an update costs what the change
/// cost to record.
public struct AnnotationUse: Sendable {
    /// Transactions per tag id (index 0 unused); ids named since the last update are past its end.
    private var tags: [Int]
    /// Transactions per category id (index 0: none), likewise.
    private var categories: [Int]

    /// Counts every transaction of `ledger`.
    public init(_ ledger: Ledger) {
        tags = ledger.transactionsPerTag(perSet: ledger.transactionsPerTagSet())
        categories = [Int](repeating: 0, count: Int(ledger.categories.ids.upperBound))
        for c in ledger.category { categories[Int(c)] += 1 }
    }

    /// Counts `changes` once `ledger` holds them (applied, or with `reverted` undone): each changed tag set's
    /// tags and each changed category move from the value the row left to the value it took.
    public mutating func update(_ changes: ChangeSet, reverted: Bool = false, ledger: Ledger) {
        if tags.count <= ledger.tags.count { tags += [Int](repeating: 0, count: ledger.tags.count + 1 - tags.count) }
        let categoryCount = Int(ledger.categories.ids.upperBound)
        if categories.count < categoryCount { categories += [Int](repeating: 0, count: categoryCount - categories.count) }
        // When the changes are many beside the sets, the rows that leave a set for the set the first of them took
        // are counted, and the two sets' tags moved by that count once at the end: a `tag all` on a million rows
        // of 49,000 sets moved each row's tags out and back in, half of the command. (An array by set, as long as
        // the table: only when the changes are at least twice as many as its sets, so that most sets left are
        // left by several rows. From an eighth of it, as before, each of the `merchants` shape's rows, a set each,
        // was paired and then moved as often: a `tag all`, two undos, a redo and a `tags rename` on 100,000 rows
        // counted 93.7M instructions here, 64.3M now; the `wide` shape and the generated CSV, paired, the same.)
        let sets = ledger.tagSets.count
        let byPair = changes.count >= 2 * sets
        // By set left: the set the first row leaving it took (low 32 bits) and how many rows left it for that one
        // (high 32: rows are fewer than 2^31). One read a change, where an array of each was two, at random in a
        // table of tens of thousands of sets (undo of a `tag all` on 1M `wide`).
        var pairs = [UInt64](repeating: 0, count: byPair ? sets : 0)
        var paired: [UInt32] = []
        // On buffers: a set's tags read as a slice of the table, and each count checked for bounds and uniqueness,
        // were a tenth of a `tag all` of the 1M `merchants` shape (a million sets left and a million taken).
        ledger.tagSets.withMembers { members, starts in
            tags.withUnsafeMutableBufferPointer { tags in
                func move(_ left: UInt32, _ took: UInt32, _ n: Int) {
                    for m in starts[Int(left)]..<starts[Int(left) + 1] { tags[Int(members[m])] -= n }
                    for m in starts[Int(took)]..<starts[Int(took) + 1] { tags[Int(members[m])] += n }
                }
                categories.withUnsafeMutableBufferPointer { categories in
                    pairs.withUnsafeMutableBufferPointer { pairs in
                        changes.before.withUnsafeBufferPointer { before in
                            changes.after.withUnsafeBufferPointer { after in
                                changes.fields.withUnsafeBufferPointer { fields in
                                    for i in 0..<fields.count {
                                        let (left, took) = reverted ? (after[i], before[i]) : (before[i], after[i])
                                        switch fields[i] {
                                        case .tags:
                                            if byPair {
                                                let l = Int(left), pair = pairs[l]
                                                if pair == 0 {
                                                    pairs[l] = 1 << 32 | UInt64(took)
                                                    paired.append(left)
                                                    continue
                                                }
                                                if UInt32(truncatingIfNeeded: pair) == took { pairs[l] = pair + 1 << 32; continue }
                                            }
                                            move(left, took, 1)
                                        case .category:
                                            categories[Int(left)] -= 1
                                            categories[Int(took)] += 1
                                        case .intent, .note:
                                            break
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
                for left in paired {
                    let pair = pairs[Int(left)]
                    move(left, UInt32(truncatingIfNeeded: pair), Int(pair >> 32))
                }
            }
        }
    }

    /// How many transactions carry tag `id`.
    public func transactions(tag id: UInt32) -> Int { Int(id) < tags.count ? tags[Int(id)] : 0 }

    /// How many transactions have category `id` (0: none).
    public func transactions(category id: UInt32) -> Int { Int(id) < categories.count ? categories[Int(id)] : 0 }
}

extension Ledger {
    /// How many transactions hold each tag set, by set id; `check` is called every 4,096 rows (to stop on Ctrl-C).
    public func transactionsPerTagSet<E: Error>(check: () throws(E) -> Void) throws(E) -> [Int] {
        var perSet = [Int](repeating: 0, count: tagSets.count)
        for (i, s) in tagSet.enumerated() {
            if i % 4096 == 0 { try check() }
            perSet[Int(s)] += 1
        }
        return perSet
    }

    public func transactionsPerTagSet() -> [Int] { transactionsPerTagSet(check: { () throws(Never) in }) }

    /// The tag sets `rows` hold (every row when nil), by set id, when the table has many more sets than those
    /// rows can hold; nil when it has not, and a pass over every set costs less than finding the ones held.
    ///
    /// The table only grows: a `tag all` that was undone, a `preview` and a rule applied and undone each leave
    /// their sets in it, held by no row (undo and redo name them). After two `tag all`s undone and a preview,
    /// the merchants shape's million rows had three and a half million sets, and every pass over the sets
    /// (`tag:` queries, `summary by tag`) cost three and a half times what the rows' own sets cost.
    /// Marking a row's set is a byte written; testing a set reads its tags.
    public func tagSetsHeld(by rows: [Int]? = nil) -> [Bool]? {
        let held = rows?.count ?? count
        guard tagSets.count > held + held / 2 else { return nil }
        var marks = [Bool](repeating: false, count: tagSets.count)
        marks.withUnsafeMutableBufferPointer { marks in
            tagSet.withUnsafeBufferPointer { column in
                if let rows {
                    for r in rows { marks[Int(column[r])] = true }
                } else {
                    for s in column { marks[Int(s)] = true }
                }
            }
        }
        return marks
    }

    /// How many transactions carry each tag, by tag id (0 unused), from the counts per tag set: each distinct set
    /// is read once, not each transaction's.
    public func transactionsPerTag(perSet: [Int]) -> [Int] {
        var counts = [Int](repeating: 0, count: tags.count + 1)
        for (s, n) in perSet.enumerated() where n > 0 {
            for t in tagSets[UInt32(s)] { counts[Int(t)] += n }
        }
        return counts
    }
}
