import TagshModel
import TagshQuery

/// What applying rules would do: computed purely, rendered by `preview`,
/// committed as it is by `apply`.
public struct Plan: Sendable {
    /// Per rule: how many transactions it matches and, per field, on how many
    /// it is the rule that sets the final, changed value.
    public struct RuleStats: Sendable {
        public var name: String
        public var matched: Int
        public var sets: [ChangeSet.Field: Int]
    }

    /// A later rule replacing what an earlier one set, on `count` transactions.
    public struct Override: Sendable, Equatable {
        public var earlier: String
        public var later: String
        public var field: ChangeSet.Field
        public var count: Int
    }

    public var rules: [Rule]
    public var changes = ChangeSet()
    /// Transactions any rule matches.
    public var matched = 0
    /// How many transactions would change.
    public var changedCount = 0
    /// Transactions that would change, ascending: the rows of `changes`, where a transaction's changes are recorded
    /// together, in row order. (Not kept beside them: a preview of a million rows made and joined 11 MB for it,
    /// to show how many and a sample.)
    public var changedRows: [Int] { changedRows(upTo: .max) }

    /// The first `limit` transactions that would change, ascending.
    public func changedRows(upTo limit: Int) -> [Int] {
        var out: [Int] = []
        var last: Int32 = -1
        for r in changes.rows where r != last {
            if out.count == limit { break }
            out.append(Int(r))
            last = r
        }
        return out
    }
    public var stats: [RuleStats] = []
    public var overrides: [Override] = []
    /// Per field, "before → after" (or "+tag", "-tag") with how many transactions, in first-seen order.
    public var deltas: [ChangeSet.Field: [(String, Int)]] = [:]
    /// Transactions that would hold more than max-tags tags.
    public var overflow: [Int] = []
    /// Transactions whose category a rule would set but that cannot take one (ids).
    public var noCategory: [Int] = []
}

/// Why rules were not planned.
public enum PlanError: Error, Sendable, Equatable {
    /// An action names a category that does not exist.
    case unknownCategory(rule: String, category: String)
    /// The `interrupted` closure said stop (Ctrl-C).
    case interrupted

    public var message: String {
        switch self {
        case .unknownCategory(let rule, let name):
            "rule \(rule): no category '\(name)' (`category new \(Lexer.quote(name))` creates it)"
        case .interrupted:
            "interrupted"
        }
    }
}

public enum Planner {
    /// Plans `rules` in order over `ledger`: later rules override what earlier
    /// ones set on the same field; tag additions and removals accumulate.
    /// New tag names, tag sets and notes are interned into the ledger's tables
    /// (tables only: no transaction changes). `interrupted` is asked every
    /// 4096 matching transactions; when it says yes, planning stops with
    /// `PlanError.interrupted`.
    /// `matches`, when given, are the rows each rule's query matches, worked out by the caller (who may know
    /// them faster: `Suggester.proposeRules` plans thousands of one-merchant rules).
    /// `dropping`, when given, is the first of the last tag sets of the table, which no one holds any more (the last
    /// preview's, which this plan's preview replaces): they are dropped (`TagSetTable.dropSets`) once the rows
    /// are planned, before this plan's sets are interned, so a plan stopped or refused before then leaves them.
    public static func plan(_ rules: [Rule], ledger: inout Ledger, selection: [Int], maxTags: Int,
                            interrupted: () -> Bool = { false },
                            columnValues: @escaping (String) -> (values: StringTable, ids: [UInt32])? = { _ in nil },
                            matches known: [RowSet]? = nil, parallelFrom: Int = 1 << 16, rowsPerSet: Int = 8,
                            dropping: Int? = nil) throws(PlanError) -> Plan {
        var plan = Plan(rules: rules)
        var evaluator = QueryEvaluator(ledger: ledger, selection: selection)
        evaluator.columnValues = columnValues
        let matches = known ?? rules.map { evaluator.rows(matching: $0.query) }
        var union = RowSet(rowCount: ledger.count)
        for m in matches { union.formUnion(m) }

        // Resolve each rule's actions to ids once; the tag edits apart, so that the loop over rows copies no array.
        var resolved: [RowPass.Resolved] = []
        var edits: [(adds: [UInt32], removes: [UInt32])] = []
        for rule in rules {
            var r = RowPass.Resolved()
            var adds: [UInt32] = [], removes: [UInt32] = []
            for a in rule.actions {
                switch a {
                case .category(let name):
                    if let name {
                        guard let id = ledger.categories.id(of: name) else {
                            throw .unknownCategory(rule: rule.name, category: name)
                        }
                        r.category = id
                    } else {
                        r.category = 0
                    }
                case .intent(let i): r.intent = i?.rawValue ?? 0
                case .note(let n): r.note = n.map { ledger.notes.intern($0) } ?? 0
                case .addTag(let t):
                    let id = ledger.tags.intern(t)
                    adds.append(id)
                    removes.removeAll { $0 == id }
                case .removeTag(let t):
                    let id = ledger.tags.intern(t)
                    removes.append(id)
                    adds.removeAll { $0 == id }
                }
            }
            r.editsTags = !adds.isEmpty || !removes.isEmpty
            resolved.append(r)
            edits.append((adds, removes))
        }
        // (The rows are read from the bitmap as the passes go: an array of them was 7 MB and 5 ms of a preview
        // that matches 900,000 rows.)
        let matched = union.count
        // By field (`ChangeSet.Field.rawValue`): whether a rule sets it, and how many values it has.
        let fieldsSet = ChangeSet.Field.allCases.map { f in
            resolved.contains { r in
                switch f {
                case .intent: r.intent != nil
                case .category: r.category != nil
                case .note: r.note != nil
                case .tags: r.editsTags
                }
            }
        }
        // The tag sets the rules make are collected in `made` and interned all at once after the loop
        // (`TagSetTable.intern(all:)`); until then a made set's id is `base` + its index there.
        let base = UInt32(ledger.tagSets.count)
        // Whether a later rule takes away a tag an earlier one gives (an override on tags).
        let undoesTags: [[Bool]] = edits.map { earlier in
            edits.map { later in !Set(later.removes).isDisjoint(with: earlier.adds) || !Set(later.adds).isDisjoint(with: earlier.removes) }
        }
        // No row's set is asked its size when no set the rules make can pass max-tags: the rules add at most all their
        // tags to one. (Asked on every changed row, the size of the set made was a load from a table of thousands of
        // sets a row: a tenth of the loop on the `wide` shape.)
        let mayOverflow = ledger.tagSets.setsMade(adding: edits.reduce(0) { $0 + $1.adds.count }, mayPass: maxTags)
        let pass = RowPass(resolved: resolved,
                           edits: edits, matches: matches, base: base, maxTags: maxTags, mayOverflow: mayOverflow,
                           undoesTags: undoesTags, fieldsSet: fieldsSet,
                           values: ChangeSet.Field.allCases.map { f in
                               switch f {
                               case .intent: 256
                               case .category: Int(ledger.categories.ids.upperBound)
                               case .note: ledger.notes.count + 1
                               case .tags: Int(base)
                               }
                           })
        // One rule over many rows is planned on both cores, half the rows each, the halves joined in row order as
        // one pass over them all would have made them (`RowPass.join`). Several rules stay on one core: a later
        // rule's edit of a set an earlier one made would have to be matched between the halves. So does a tag edit
        // where the table holds more than a set for `rowsPerSet` rows: each half then makes most of the sets anew,
        // and joining them cost the 1M `merchants` shape (a set of its own per row) as much as the second core saved,
        // and 60 MB more.
        var whole = RowPass.Result(pass, rows: 0)
        // Room for a change per row matched and field the rules set, as most plans make (room not written is not
        // memory in use), written in place (`ChangeSet.Writer`).
        let perRow = max(1, fieldsSet.filter { $0 }.count)
        plan.changes = try ChangeSet(room: matched * perRow) { (changes: inout ChangeSet.Writer) throws(PlanError) in
            // (A copy that shares the ledger's storage, let go before the sets are interned: one still held would make
            // the interning copy the tag-set table first. The optimizer lets it go after its last use already; this
            // says so. Measured the same, 1M merchants and generated CSV, three rounds.)
            let snapshot = ledger
            let words = union.words.count
            if rules.count == 1 && matched >= parallelFrom && (!resolved[0].editsTags || Int(base) * rowsPerSet <= matched) {
                let half = union.halfWord()
                let firstCount = union.count(inWords: 0..<half)
                // Each half writes its changes into its own part of the room; the second's then follow the first's.
                let (firstRoom, secondRoom) = changes.split(at: firstCount * perRow)
                let (first, second) = try Parallel.alongside({ () -> RowPass.Result in
                    // (Not interrupted: the first half is, and waits for this one.)
                    (try? pass.run(union, words: half..<words, count: matched - firstCount, into: secondRoom, ledger: snapshot,
                                   interrupted: { false }))
                        ?? RowPass.Result(pass, rows: 0)
                }, { () throws(PlanError) in
                    try pass.run(union, words: 0..<half, count: firstCount, room: matched, into: firstRoom, ledger: snapshot,
                                 interrupted: interrupted)
                })
                whole = first
                whole.join(second, pass)
            } else {
                whole = try pass.run(union, words: 0..<words, count: matched, into: changes, ledger: snapshot, interrupted: interrupted)
            }
            changes = whole.changes
        }
        plan.changedCount = whole.changedCount
        plan.matched = whole.matched
        plan.noCategory = whole.noCategory
        plan.overflow = whole.overflow
        var pairs = whole.pairs, made = whole.made, setCounts = whole.setCounts, overrideCounts = whole.overrideCounts
        // The pass lets go of what it made, so that the plan's change set and pairs are the only holders of theirs:
        // renumbered while the pass still held them, they were copied first (18 MB for a preview of 700,000 rows).
        whole = RowPass.Result(pass, rows: 0)
        var stats = rules.enumerated().map { Plan.RuleStats(name: $1.name, matched: matches[$0].count, sets: [:]) }
        func name(_ cat: UInt32) -> String { cat == 0 ? "none" : ledger.categories[cat].name }
        func noteText(_ n: UInt32) -> String { n == 0 ? "none" : "\"" + ledger.notes[n] + "\"" }
        // The sets made, interned; the changes and pairs then name them by their ids. (Until then a made set is named
        // `base` + its index, past the sets dropped: the rows hold none of those, so nothing named them.)
        if let dropping { ledger.tagSets.dropSets(from: dropping) }
        if made.count > 0 {
            let ids = ledger.tagSets.intern(all: made)
            plan.changes.renumberAfter(.tags, from: base, ids)
            pairs[Int(ChangeSet.Field.tags.rawValue)].renumberAfter(from: base, ids)
        }
        for (i, counts) in setCounts.enumerated() {
            for f in ChangeSet.Field.allCases where counts[Int(f.rawValue)] > 0 { stats[i].sets[f] = counts[Int(f.rawValue)] }
        }
        plan.stats = stats
        // Now the text: "before → after" per pair; tags as the +tag / -tag each pair makes.
        var deltas: [ChangeSet.Field: [(String, Int)]] = [:]
        for f in ChangeSet.Field.allCases where f != .tags {
            var index: [String: Int] = [:]
            for (b, a, n) in pairs[Int(f.rawValue)].entries {
                let t: String
                switch f {
                case .category: t = "\(name(b)) → \(name(a))"
                case .intent: t = "\(Intent(rawValue: UInt8(b))?.description ?? "none") → \(Intent(rawValue: UInt8(a))?.description ?? "none")"
                case .note: t = "\(noteText(b)) → \(noteText(a))"
                case .tags: continue
                }
                if let i = index[t] { deltas[f, default: []][i].1 += n } else {
                    index[t] = deltas[f, default: []].count
                    deltas[f, default: []].append((t, n))
                }
            }
        }
        // Counted per pair of sets and then per tag, which gives the order per row would: a tag's first delta is
        // on the first row of the first pair that makes it.
        // (Only the tags a rule adds can be gained and only those one takes away lost: the others are not looked for.)
        var tagDeltas = TagDeltas(tagCount: ledger.tags.count, mayGain: edits.flatMap(\.adds), mayLose: edits.flatMap(\.removes))
        let tagPairs = pairs[Int(ChangeSet.Field.tags.rawValue)].entries
        ledger.tagSets.withMembers { members, starts in
            func set(_ id: UInt32) -> UnsafeBufferPointer<UInt32> { UnsafeBufferPointer(rebasing: members[starts[Int(id)]..<starts[Int(id) + 1]]) }
            for (b, a, n) in tagPairs { tagDeltas.count(set(b), set(a), times: n) }
        }
        let tagTexts = tagDeltas.order.map { ($0.added ? "+" : "-") + ledger.tags[$0.tag] }
        if !tagTexts.isEmpty { deltas[.tags] = zip(tagTexts, tagDeltas.order.map { tagDeltas.counts[$0.index] }).map { ($0, $1) } }
        plan.deltas = deltas
        plan.overrides = overrideCounts.values.sorted { ($0.0, $0.1, $0.2.rawValue) < ($1.0, $1.1, $1.2.rawValue) }
            .map { Plan.Override(earlier: rules[$0.0].name, later: rules[$0.1].name, field: $0.2, count: $0.3) }
        return plan
    }
}

/// The loop of a plan over rows: what each row's rules make of it, recorded; over all the rows, or over each half of
/// them on a core of its own, joined after.
struct RowPass: Sendable {
    struct Resolved: Sendable {
        var category: UInt32?
        var intent: UInt8?
        var note: UInt32?
        var editsTags = false
    }

    let resolved: [Resolved]
    let edits: [(adds: [UInt32], removes: [UInt32])]
    let matches: [RowSet]
    let base: UInt32
    let maxTags: Int
    /// Whether a set the rules make may hold more than `maxTags` tags; when not, no row's is counted.
    let mayOverflow: Bool
    let undoesTags: [[Bool]]
    /// By field (`ChangeSet.Field.rawValue`): whether any rule sets it.
    let fieldsSet: [Bool]
    /// By field: how many values it has, for `Transitions`.
    let values: [Int]

    /// What a pass over some rows recorded.
    struct Result {
        var changes = ChangeSet.Writer()
        var changedCount = 0
        var matched = 0
        var noCategory: [Int] = []
        var overflow: [Int] = []
        /// Per field, the (before, after) pairs in first-seen order with their counts.
        var pairs: [Transitions]
        var made = PendingTagSets()
        /// The set each made set was made from (a rule's edit of it; one rule: a set of the table).
        var madeFrom: [UInt32] = []
        /// Per rule that changes tags: the set each tag set becomes, by id.
        var tagCache: [TagCache]
        var setCounts: [[Int]]
        var overrideCounts: [String: (Int, Int, ChangeSet.Field, Int)] = [:]

        init(_ pass: RowPass, rows: Int) {
            pairs = ChangeSet.Field.allCases.map { f in
                pass.fieldsSet[Int(f.rawValue)] ? Transitions(values: pass.values[Int(f.rawValue)], rows: rows) : Transitions(values: 0, rows: 0)
            }
            tagCache = pass.resolved.map { $0.editsTags ? TagCache(sets: Int(pass.base), rows: rows) : TagCache(sets: 0, rows: 0) }
            setCounts = [[Int]](repeating: [0, 0, 0, 0], count: pass.resolved.count)
        }

        /// A change of `field` on `row`: recorded, its pair of values counted, and counted for the rule that set
        /// the field last on the row (`setter`, by field; -1: none).
        @inline(__always)
        mutating func record(_ field: ChangeSet.Field, row: Int, _ before: UInt32, _ after: UInt32, setter: SIMD4<Int>) {
            let f = Int(field.rawValue)
            changes.record(row: row, field: field, before: before, after: after)
            pairs[f].count(before, after)
            if setter[f] >= 0 { setCounts[setter[f]][f] += 1 }
        }

        /// Adds what one rule's pass over the rows after these recorded (`next`): its sets made from a set these
        /// made one from are these ones, the others follow these, in its order; so are its pairs new here. As one
        /// pass over both would have recorded them.
        mutating func join(_ next: Result, _ pass: RowPass) {
            var next = next
            if next.made.count > 0 {
                // Where each of the next pass's made sets is here: base + its index.
                var to = [UInt32](repeating: 0, count: next.made.count)
                for j in 0..<next.made.count {
                    let from = next.madeFrom[j]
                    if let known = tagCache[0][from], known >= pass.base {
                        to[j] = known
                    } else {
                        to[j] = pass.base + UInt32(made.append(next.made, j))
                        madeFrom.append(from)
                    }
                }
                next.changes.renumberAfter(.tags, from: pass.base, to)
                next.pairs[Int(ChangeSet.Field.tags.rawValue)].renumberAfter(from: pass.base, to)
            }
            changes.append(next.changes)
            changedCount += next.changedCount
            matched += next.matched
            noCategory += next.noCategory
            overflow += next.overflow
            for k in pairs.indices { for (b, a, n) in next.pairs[k].entries { pairs[k].count(b, a, times: n) } }
            for r in setCounts.indices { for f in 0..<4 { setCounts[r][f] += next.setCounts[r][f] } }
            for (key, v) in next.overrideCounts { overrideCounts[key, default: (v.0, v.1, v.2, 0)].3 += v.3 }
        }
    }

    /// Plans the rows of `rows` in words `words` (`count` of them) of `ledger`, writing the changes with `changes`
    /// (room for a change per row and field set), with room for the sets made of `room` rows (the first half's,
    /// for both: the second's are joined to it).
    func run(_ rows: RowSet, words: Range<Int>, count: Int, room: Int? = nil, into changes: ChangeSet.Writer, ledger: Ledger,
             interrupted: () -> Bool) throws(PlanError) -> Result {
        var r = Result(self, rows: count)
        r.changes = changes
        if count >= 4096, let most = edits.map({ $0.adds.count }).max(), resolved.contains(where: \.editsTags) {
            let mean = base > 1 ? ledger.tagSets.memberCount / Int(base - 1) : 0
            let sets = min(room ?? count, Int(base)) // (a rule makes at most a set from each set it meets)
            r.made.reserveCapacity(sets: sets, members: sets * (mean + 1 + most))
        }
        // Where each set's edit is written (`PendingTagSets.edit`): a set made holds at most the most any set of the
        // table holds and every tag the rules add.
        let scratch = UnsafeMutableBufferPointer<UInt32>.allocate(capacity: ledger.tagSets.largest + edits.reduce(0) { $0 + $1.adds.count })
        defer { scratch.deallocate() }
        let multiple = resolved.count > 1
        // (Each word's rows in turn, lowest bit first: no array of the rows, and no iterator either, which kept its
        // state in memory and cost 1% more instructions than reading an array.)
        let bitmap = rows.words
        for wi in words {
            var word = bitmap[wi]
            while word != 0 {
                let row = wi << 6 | word.trailingZeroBitCount
                word &= word - 1
                if r.matched % 4096 == 0 && interrupted() { throw .interrupted }
                r.matched += 1
                let old = (cat: ledger.category[row], intent: ledger.intent[row], note: ledger.note[row], tags: ledger.tagSet[row])
                var new = old
                // Per field, the rule that set it last (-1: none); a dictionary per row cost a tenth of a plan.
                var setter = SIMD4<Int>(repeating: -1)
                for ri in resolved.indices where !multiple || matches[ri].contains(row) {
                    // (Passed in and out, not captured by a nested function: captured, they were checked for
                    // exclusive access at run time on every row.)
                    if let c = resolved[ri].category { override(.category, rule: ri, differs: new.cat != c, &setter, &r.overrideCounts); new.cat = c }
                    if let i = resolved[ri].intent { override(.intent, rule: ri, differs: new.intent != i, &setter, &r.overrideCounts); new.intent = i }
                    if let n = resolved[ri].note { override(.note, rule: ri, differs: new.note != n, &setter, &r.overrideCounts); new.note = n }
                    if resolved[ri].editsTags {
                        let before = new.tags
                        if let known = r.tagCache[ri][before] { new.tags = known } else {
                            // (The set edited may be a slice of `made`: it is gone before `made` grows, which would copy it.)
                            let edited = PendingTagSets.edit(before < base ? ledger.tagSets[before] : r.made[Int(before - base)],
                                                             removing: edits[ri].removes, adding: edits[ri].adds, into: scratch)
                            if let edited {
                                new.tags = base + UInt32(r.made.append(buffer: UnsafeBufferPointer(rebasing: scratch[0..<edited])))
                                r.madeFrom.append(before)
                            } else {
                                new.tags = before
                            }
                            r.tagCache[ri][before] = new.tags
                        }
                        let prev = setter[Int(ChangeSet.Field.tags.rawValue)]
                        override(.tags, rule: ri, differs: prev >= 0 ? undoesTags[prev][ri] : false, &setter, &r.overrideCounts)
                    }
                }
                // Rules that add a tag and take it away again may make the set the row had.
                if multiple && new.tags >= base && r.made[Int(new.tags - base)].elementsEqual(ledger.tagSets[old.tags]) { new.tags = old.tags }
                var changed = false
                if new.cat != old.cat && ledger.categoryRefusal(row, setting: new.cat) != nil {
                    r.noCategory.append(row + 1)
                    new.cat = old.cat
                }
                if new.cat != old.cat {
                    r.record(.category, row: row, old.cat, new.cat, setter: setter)
                    changed = true
                }
                if new.intent != old.intent {
                    r.record(.intent, row: row, UInt32(old.intent), UInt32(new.intent), setter: setter)
                    changed = true
                }
                if new.note != old.note {
                    r.record(.note, row: row, old.note, new.note, setter: setter)
                    changed = true
                }
                if new.tags != old.tags {
                    r.record(.tags, row: row, old.tags, new.tags, setter: setter)
                    if mayOverflow {
                        let n = r.made.size(of: new.tags, base: base, in: ledger.tagSets)
                        if n > maxTags && n > ledger.tagSets.size(old.tags) { r.overflow.append(row + 1) }
                    }
                    changed = true
                }
                if changed { r.changedCount += 1 }
            }
        }
        return r
    }
}

/// Rule `rule` sets `field` on a row: counted as overriding the rule that set it before on the row when the values
/// differ (`Plan.overrides`).
@inline(__always)
private func override(_ field: ChangeSet.Field, rule: Int, differs: Bool, _ setter: inout SIMD4<Int>,
                      _ counts: inout [String: (Int, Int, ChangeSet.Field, Int)]) {
    let prev = setter[Int(field.rawValue)]
    if prev >= 0, prev != rule, differs {
        counts["\(prev) \(rule) \(field.rawValue)", default: (prev, rule, field, 0)].3 += 1
    }
    setter[Int(field.rawValue)] = rule
}

/// How many rows go from each value of a field to each other, in the order first seen. By the value before in an
/// array when the rows are many beside the values (one rule gives each value one after, so a row costs an array
/// read), with a dictionary for the pairs beyond a value's first; a dictionary alone when the rows are few.
struct Transitions {
    /// The pairs in the order first seen, with their counts; a value's first pair counted in `firsts` has its
    /// count there (-1 here).
    private var list: [(before: UInt32, after: UInt32, count: Int)] = []
    /// By value before: its first pair's after (high 32 bits) and count (low 32: a count of rows, which are
    /// fewer than 2^31), or `unseen`. One read a row, where an index into `list` and the entry there were two
    /// (on 1M `wide`, a broad preview waited on that second read for a fifth of its time).
    private var firsts: [UInt64]
    private var others: [UInt64: Int] = [:]
    private static let unseen = UInt64.max

    init(values: Int, rows: Int) {
        firsts = rows > 0 && rows * 8 >= values ? [UInt64](repeating: Transitions.unseen, count: values) : []
    }

    /// The pairs in the order first seen, with their counts.
    var entries: [(before: UInt32, after: UInt32, count: Int)] {
        list.map { e in e.count >= 0 ? e : (e.before, e.after, Int(firsts[Int(e.before)] & 0xFFFF_FFFF)) }
    }

    mutating func count(_ before: UInt32, _ after: UInt32, times: Int = 1) {
        let b = Int(before)
        if b < firsts.count {
            let f = firsts[b]
            if f == Transitions.unseen {
                firsts[b] = UInt64(after) << 32 | UInt64(times)
                list.append((before, after, -1))
                return
            }
            if UInt32(truncatingIfNeeded: f >> 32) == after { firsts[b] = f &+ UInt64(times); return }
        }
        let key = UInt64(before) << 32 | UInt64(after)
        if let e = others[key] { list[e].count += times } else {
            others[key] = list.count
            list.append((before, after, times))
        }
    }

    /// Renames the afters from `base` on by `ids[after - base]` (see `ChangeSet.renumberAfter`); no longer countable.
    mutating func renumberAfter(from base: UInt32, _ ids: [UInt32]) {
        list = entries
        for i in list.indices where list[i].after >= base { list[i].after = ids[Int(list[i].after - base)] }
        firsts = []
        others = [:]
    }
}

/// How many transactions gain and lose each tag, in the order the deltas are first seen: per transaction, the
/// tags gained (in the new set's order), then those lost (in the old set's).
struct TagDeltas {
    /// Counts by `index`: a tag's gains at `2 * tag`, its losses at `2 * tag + 1`.
    private(set) var counts: [Int]
    private(set) var order: [(tag: UInt32, added: Bool, index: Int)] = []

    /// By tag: whether it may be gained (bit 0) and lost (bit 1): only the tags the rules add, and those they take away.
    private var may: [UInt8]
    /// The one tag that may be gained, or lost, when there is one (most rules add a tag, or take one away).
    private let onlyGain: UInt32?, onlyLoss: UInt32?

    init(tagCount: Int, mayGain: [UInt32], mayLose: [UInt32]) {
        counts = [Int](repeating: 0, count: 2 * (tagCount + 1))
        may = [UInt8](repeating: 0, count: tagCount + 1)
        for t in mayGain where Int(t) < may.count { may[Int(t)] |= 1 }
        for t in mayLose where Int(t) < may.count { may[Int(t)] |= 2 }
        onlyGain = Set(mayGain).count == 1 ? mayGain[0] : nil
        onlyLoss = Set(mayLose).count == 1 ? mayLose[0] : nil
    }

    /// `times` transactions going from `old` to `new`. (Each tag of both was looked for in the other, a pair of a
    /// million sets of 5 to 8 tags a tenth of a broad preview of the 1M `merchants` shape; now only those that may
    /// have been gained or lost.)
    mutating func count(_ old: UnsafeBufferPointer<UInt32>, _ new: UnsafeBufferPointer<UInt32>, times: Int = 1) {
        if let t = onlyGain {
            if new.contains(t) && !old.contains(t) { bump(t, added: true, times) }
        } else {
            for t in new where Int(t) < may.count && may[Int(t)] & 1 != 0 && !old.contains(t) { bump(t, added: true, times) }
        }
        if let t = onlyLoss {
            if old.contains(t) && !new.contains(t) { bump(t, added: false, times) }
        } else {
            for t in old where Int(t) < may.count && may[Int(t)] & 2 != 0 && !new.contains(t) { bump(t, added: false, times) }
        }
    }

    private mutating func bump(_ tag: UInt32, added: Bool, _ times: Int) {
        let i = 2 * Int(tag) + (added ? 0 : 1)
        if i >= counts.count { counts += [Int](repeating: 0, count: i + 1 - counts.count) }
        if counts[i] == 0 { order.append((tag, added, i)) }
        counts[i] += times
    }
}
