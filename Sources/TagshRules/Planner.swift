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
    /// Transactions that would change, ascending.
    public var changedRows: [Int] = []
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
    public static func plan(_ rules: [Rule], ledger: inout Ledger, selection: [Int], maxTags: Int,
                            interrupted: () -> Bool = { false },
                            columnValues: @escaping (String) -> (values: StringTable, ids: [UInt32])? = { _ in nil },
                            matches known: [RowSet]? = nil) throws(PlanError) -> Plan {
        var plan = Plan(rules: rules)
        var evaluator = QueryEvaluator(ledger: ledger, selection: selection)
        evaluator.columnValues = columnValues
        let matches = known ?? rules.map { evaluator.rows(matching: $0.query) }
        var union = RowSet(rowCount: ledger.count)
        for m in matches { union.formUnion(m) }

        // Resolve each rule's actions to ids once.
        struct Resolved {
            var category: UInt32?
            var intent: UInt8?
            var note: UInt32?
            var adds: [UInt32] = []
            var removes: [UInt32] = []
        }
        var resolved: [Resolved] = []
        for rule in rules {
            var r = Resolved()
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
                    r.adds.append(id)
                    r.removes.removeAll { $0 == id }
                case .removeTag(let t):
                    let id = ledger.tags.intern(t)
                    r.removes.append(id)
                    r.adds.removeAll { $0 == id }
                }
            }
            resolved.append(r)
        }

        // Per rule that changes tags: the set each tag set becomes, by id (`TagCache`).
        var tagCache = resolved.map { $0.adds.isEmpty && $0.removes.isEmpty ? TagCache() : TagCache(count: ledger.tagSets.count) }
        // Whether a later rule takes away a tag an earlier one gives (an override on tags).
        let undoesTags: [[Bool]] = resolved.map { earlier in
            resolved.map { later in !Set(later.removes).isDisjoint(with: earlier.adds) || !Set(later.adds).isDisjoint(with: earlier.removes) }
        }
        var stats = rules.enumerated().map { Plan.RuleStats(name: $1.name, matched: matches[$0].count, sets: [:]) }
        var overrideCounts: [String: (Int, Int, ChangeSet.Field, Int)] = [:]
        // Deltas are counted by id pairs in first-seen order; text is made once at the end.
        var pairCounts = [[UInt64: Int]](repeating: [:], count: 4)
        var pairOrder = [[UInt64]](repeating: [], count: 4)
        func countPair(_ field: ChangeSet.Field, _ before: UInt32, _ after: UInt32) {
            let key = UInt64(before) << 32 | UInt64(after)
            let f = Int(field.rawValue)
            if let n = pairCounts[f][key] { pairCounts[f][key] = n + 1 } else {
                pairCounts[f][key] = 1
                pairOrder[f].append(key)
            }
        }
        var setCounts = [[Int]](repeating: [0, 0, 0, 0], count: rules.count)
        func name(_ cat: UInt32) -> String { cat == 0 ? "none" : ledger.categories[cat].name }
        func noteText(_ n: UInt32) -> String { n == 0 ? "none" : "\"" + ledger.notes[n] + "\"" }

        // Tag deltas are counted per tag, not per pair of sets: with a million distinct sets, pairs are a million.
        var tagDeltas = TagDeltas(tagCount: ledger.tags.count)
        var scratch: [UInt32] = []
        let multiple = rules.count > 1
        for row in union.rows {
            if plan.matched % 4096 == 0 && interrupted() { throw .interrupted }
            plan.matched += 1
            let old = (cat: ledger.category[row], intent: ledger.intent[row], note: ledger.note[row], tags: ledger.tagSet[row])
            var new = old
            // Per field, the rule that set it last (-1: none); a dictionary per row cost a tenth of a plan.
            var setter = SIMD4<Int>(repeating: -1)
            for (ri, r) in resolved.enumerated() where !multiple || matches[ri].contains(row) {
                func override(_ field: ChangeSet.Field, differs: Bool) {
                    let prev = setter[Int(field.rawValue)]
                    if prev >= 0, prev != ri, differs {
                        let key = "\(prev) \(ri) \(field.rawValue)"
                        overrideCounts[key, default: (prev, ri, field, 0)].3 += 1
                    }
                    setter[Int(field.rawValue)] = ri
                }
                if let c = r.category { override(.category, differs: new.cat != c); new.cat = c }
                if let i = r.intent { override(.intent, differs: new.intent != i); new.intent = i }
                if let n = r.note { override(.note, differs: new.note != n); new.note = n }
                if !r.adds.isEmpty || !r.removes.isEmpty {
                    let before = new.tags
                    if let known = tagCache[ri][before] { new.tags = known } else {
                        scratch.removeAll(keepingCapacity: true)
                        for id in ledger.tagSets[before] where !r.removes.contains(id) { scratch.append(id) }
                        for id in r.adds where !scratch.contains(id) { scratch.append(id) }
                        new.tags = scratch.withUnsafeBufferPointer { ledger.tagSets.intern(buffer: $0) }
                        tagCache[ri][before] = new.tags
                    }
                    let prev = setter[Int(ChangeSet.Field.tags.rawValue)]
                    override(.tags, differs: prev >= 0 ? undoesTags[prev][ri] : false)
                }
            }
            var changed = false
            if new.cat != old.cat && ledger.categoryRefusal(row, setting: new.cat) != nil {
                plan.noCategory.append(row + 1)
                new.cat = old.cat
            }
            if new.cat != old.cat {
                plan.changes.record(row: row, field: .category, before: old.cat, after: new.cat)
                countPair(.category, old.cat, new.cat)
                if case let s = setter[Int(ChangeSet.Field.category.rawValue)], s >= 0 { setCounts[s][Int(ChangeSet.Field.category.rawValue)] += 1 }
                changed = true
            }
            if new.intent != old.intent {
                plan.changes.record(row: row, field: .intent, before: UInt32(old.intent), after: UInt32(new.intent))
                countPair(.intent, UInt32(old.intent), UInt32(new.intent))
                if case let s = setter[Int(ChangeSet.Field.intent.rawValue)], s >= 0 { setCounts[s][Int(ChangeSet.Field.intent.rawValue)] += 1 }
                changed = true
            }
            if new.note != old.note {
                plan.changes.record(row: row, field: .note, before: old.note, after: new.note)
                countPair(.note, old.note, new.note)
                if case let s = setter[Int(ChangeSet.Field.note.rawValue)], s >= 0 { setCounts[s][Int(ChangeSet.Field.note.rawValue)] += 1 }
                changed = true
            }
            if new.tags != old.tags {
                plan.changes.record(row: row, field: .tags, before: old.tags, after: new.tags)
                tagDeltas.count(ledger.tagSets[old.tags], ledger.tagSets[new.tags])
                if case let s = setter[Int(ChangeSet.Field.tags.rawValue)], s >= 0 { setCounts[s][Int(ChangeSet.Field.tags.rawValue)] += 1 }
                if ledger.tagSets[new.tags].count > maxTags && ledger.tagSets[new.tags].count > ledger.tagSets[old.tags].count {
                    plan.overflow.append(row + 1)
                }
                changed = true
            }
            if changed { plan.changedRows.append(row) }
        }
        for (i, counts) in setCounts.enumerated() {
            for f in ChangeSet.Field.allCases where counts[Int(f.rawValue)] > 0 { stats[i].sets[f] = counts[Int(f.rawValue)] }
        }
        plan.stats = stats
        // Now the text: "before → after" per pair; tags as the +tag / -tag each pair makes.
        var deltas: [ChangeSet.Field: [(String, Int)]] = [:]
        for f in ChangeSet.Field.allCases {
            var index: [String: Int] = [:]
            for key in pairOrder[Int(f.rawValue)] {
                let n = pairCounts[Int(f.rawValue)][key] ?? 0
                let (b, a) = (UInt32(key >> 32), UInt32(key & 0xFFFF_FFFF))
                let texts: [String]
                switch f {
                case .category: texts = ["\(name(b)) → \(name(a))"]
                case .intent: texts = ["\(Intent(rawValue: UInt8(b))?.description ?? "none") → \(Intent(rawValue: UInt8(a))?.description ?? "none")"]
                case .note: texts = ["\(noteText(b)) → \(noteText(a))"]
                case .tags: texts = [] // counted per tag, below
                }
                for t in texts {
                    if let i = index[t] { deltas[f, default: []][i].1 += n } else {
                        index[t] = deltas[f, default: []].count
                        deltas[f, default: []].append((t, n))
                    }
                }
            }
        }
        let tagTexts = tagDeltas.order.map { ($0.added ? "+" : "-") + ledger.tags[$0.tag] }
        if !tagTexts.isEmpty { deltas[.tags] = zip(tagTexts, tagDeltas.order.map { tagDeltas.counts[$0.index] }).map { ($0, $1) } }
        plan.deltas = deltas
        plan.overrides = overrideCounts.values.sorted { ($0.0, $0.1, $0.2.rawValue) < ($1.0, $1.1, $1.2.rawValue) }
            .map { Plan.Override(earlier: rules[$0.0].name, later: rules[$0.1].name, field: $0.2, count: $0.3) }
        return plan
    }
}

/// The tag set each tag set becomes under one rule, by the old set's id; sets interned while planning (past the
/// table's size when it was made) are not kept. An array, not a dictionary: with a million distinct tag sets, a
/// lookup per transaction was a tenth of a plan.
struct TagCache {
    private var next: [UInt32]
    private static let unknown = UInt32.max

    init(count: Int = 0) { next = [UInt32](repeating: TagCache.unknown, count: count) }

    subscript(set: UInt32) -> UInt32? {
        get {
            let i = Int(set)
            return i < next.count && next[i] != TagCache.unknown ? next[i] : nil
        }
        set {
            let i = Int(set)
            if i < next.count, let newValue { next[i] = newValue }
        }
    }
}

/// How many transactions gain and lose each tag, in the order the deltas are first seen: per transaction, the
/// tags gained (in the new set's order), then those lost (in the old set's).
struct TagDeltas {
    /// Counts by `index`: a tag's gains at `2 * tag`, its losses at `2 * tag + 1`.
    private(set) var counts: [Int]
    private(set) var order: [(tag: UInt32, added: Bool, index: Int)] = []

    init(tagCount: Int) { counts = [Int](repeating: 0, count: 2 * (tagCount + 1)) }

    mutating func count(_ old: ArraySlice<UInt32>, _ new: ArraySlice<UInt32>) {
        for t in new where !old.contains(t) { bump(t, added: true) }
        for t in old where !new.contains(t) { bump(t, added: false) }
    }

    private mutating func bump(_ tag: UInt32, added: Bool) {
        let i = 2 * Int(tag) + (added ? 0 : 1)
        if i >= counts.count { counts += [Int](repeating: 0, count: i + 1 - counts.count) }
        if counts[i] == 0 { order.append((tag, added, i)) }
        counts[i] += 1
    }
}
