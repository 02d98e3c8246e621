import TagshModel

/// A suggestion with how sure it is: the share of the evidence that agrees,
/// with two transactions' worth of prior evidence at the field's usual
/// consistency in this ledger (`(c + 2q) / (n + 2)`), so 3 of 3 means more for
/// categories, which merchants rarely vary on, than for intents; evidence from
/// merchants alike but not the same counts for less.
public struct ScoredSuggestion: Sendable, Equatable {
    public var value: Suggestion.Value
    public var confidence: Double
    public var evidence: String

    public init(value: Suggestion.Value, confidence: Double, evidence: String) {
        self.value = value
        self.confidence = confidence
        self.evidence = evidence
    }

    /// The command that would apply it to transaction `id`.
    public func command(for id: Int) -> String { Suggestion(value: value, count: 0, of: 0, reason: "").command(for: id) }
}

/// What the ledger's annotated transactions say about the others, kept as
/// counts: for each merchant, each merchant with its numbers and codes taken
/// out (`STARBUCKS 1234` and `STARBUCKS 0567` are both `starbucks`), and each
/// word of a merchant's name, how many transactions carry each category,
/// intent and tag. Built once in one pass; each change then adds and takes
/// away counts for the rows it touched, so a suggestion costs a few lookups
/// whatever the ledger's size.
public struct SuggestIndex: Sendable {
    public enum Field: Int, Sendable, CaseIterable, CustomStringConvertible {
        case category, intent, tags
        public var description: String { ["category", "intent", "tags"][rawValue] }
    }

    struct Tally: Sendable {
        /// Transactions with a value for the field.
        var total = 0
        var values: [UInt32: Int] = [:]
    }

    enum Level: Int { case merchant, alike, word }

    /// Tallies by level, key and field.
    var tallies: [[UInt32: [Tally]]] = [[:], [:], [:]]
    /// A merchant's `alike` key and word keys (cached per merchant id).
    var alikeKey: [UInt32: UInt32] = [:]
    var wordKeys: [UInt32: [UInt32]] = [:]
    var alikeNames: [String: UInt32] = [:]
    var alikeDisplay: [String] = []
    var wordIDs: [String: UInt32] = [:]
    var wordNames: [String] = []

    /// Per field, over merchants: the transactions that agree with their merchant's most common value, and all
    /// transactions with a value; kept as counts change, so the field's consistency is always current.
    var agree = [0, 0, 0], agreeTotal = [0, 0, 0]

    /// How consistent merchants are in a field (with little history, as consistent as not).
    func consistency(_ field: Field) -> Double { (Double(agree[field.rawValue]) + 1) / (Double(agreeTotal[field.rawValue]) + 2) }

    public init() {}

    /// The index of every transaction of `ledger` (or of `rows`).
    public init(ledger: Ledger, rows: [Int]? = nil) {
        for r in rows ?? Array(0..<ledger.count) { add(r, ledger: ledger) }
    }

    /// How much the field's consistency counts, as that many transactions of prior evidence.
    static let priorWeight = 2.0

    // MARK: - keys

    /// `STARBUCKS 1234` → `starbucks`; `UBER *TRIP 8XYZ` → `uber trip`: the words without digits.
    public static func alikeName(_ merchant: String) -> String {
        merchant.lowercased().split { !$0.isLetter && !$0.isNumber }.filter { w in !w.contains(where: \.isNumber) }.joined(separator: " ")
    }

    mutating func keys(of merchant: UInt32, in ledger: Ledger) -> (alike: UInt32, words: [UInt32]) {
        if let a = alikeKey[merchant], let w = wordKeys[merchant] { return (a, w) }
        let name = ledger.merchants[merchant]
        let alike = SuggestIndex.alikeName(name)
        let a: UInt32
        if let known = alikeNames[alike] { a = known } else {
            a = UInt32(alikeDisplay.count)
            alikeNames[alike] = a
            alikeDisplay.append(name.split { !$0.isLetter && !$0.isNumber }.filter { !$0.contains(where: \.isNumber) }.joined(separator: " "))
        }
        var words: [UInt32] = []
        for w in Suggester.significantWords(name).sorted() {
            if let id = wordIDs[w] { words.append(id) } else {
                let id = UInt32(wordNames.count)
                wordIDs[w] = id
                wordNames.append(w)
                words.append(id)
            }
        }
        alikeKey[merchant] = a
        wordKeys[merchant] = words
        return (a, words)
    }

    // MARK: - counting

    static func values(_ field: Field, row: Int, ledger: Ledger) -> [UInt32] {
        switch field {
        case .category: ledger.category[row] == 0 ? [] : [ledger.category[row]]
        case .intent: ledger.intent[row] == 0 ? [] : [UInt32(ledger.intent[row])]
        case .tags: ledger.tagSets[ledger.tagSet[row]]
        }
    }

    mutating func count(_ merchant: UInt32, _ field: Field, _ values: [UInt32], _ sign: Int, ledger: Ledger) {
        guard !values.isEmpty else { return }
        let (alike, words) = keys(of: merchant, in: ledger)
        func bump(_ level: Level, _ key: UInt32) {
            var t = tallies[level.rawValue][key] ?? [Tally(), Tally(), Tally()]
            let before = level == .merchant ? t[field.rawValue].values.values.max() ?? 0 : 0
            t[field.rawValue].total += sign
            for v in values { t[field.rawValue].values[v, default: 0] += sign }
            if level == .merchant {
                agree[field.rawValue] += (t[field.rawValue].values.values.max() ?? 0) - before
                agreeTotal[field.rawValue] += sign
            }
            tallies[level.rawValue][key] = t
        }
        bump(.merchant, merchant)
        bump(.alike, alike)
        for w in words { bump(.word, w) }
    }

    public mutating func add(_ row: Int, ledger: Ledger) {
        for f in Field.allCases { count(ledger.merchant[row], f, SuggestIndex.values(f, row: row, ledger: ledger), 1, ledger: ledger) }
    }

    /// Keeps the index current through a change: the row's old value leaves, its new one comes in.
    public mutating func update(row: Int, field: ChangeSet.Field, before: UInt32, after: UInt32, ledger: Ledger) {
        let f: Field
        let old: [UInt32], new: [UInt32]
        switch field {
        case .category: f = .category; old = before == 0 ? [] : [before]; new = after == 0 ? [] : [after]
        case .intent: f = .intent; old = before == 0 ? [] : [before]; new = after == 0 ? [] : [after]
        case .tags: f = .tags; old = ledger.tagSets[before]; new = ledger.tagSets[after]
        case .note: return
        }
        count(ledger.merchant[row], f, old, -1, ledger: ledger)
        count(ledger.merchant[row], f, new, 1, ledger: ledger)
    }

    // MARK: - suggesting

    /// The suggestions for one row at or above `threshold`, best first, leaving out what it already has.
    /// The row's own annotations are not counted as evidence for it.
    public mutating func suggest(row: Int, ledger: Ledger, threshold: Double, fields: Set<Field> = Set(Field.allCases)) -> [ScoredSuggestion] {
        var out: [ScoredSuggestion] = []
        for f in Field.allCases where fields.contains(f) {
            out += candidates(row: row, field: f, ledger: ledger).filter { $0.confidence >= threshold }
        }
        return out.sorted { $0.confidence > $1.confidence }
    }

    /// Every candidate for one field, best first (tags: every tag most of the evidence carries).
    /// `inIndex`: whether the row's own values are counted in the index (so they are taken out here).
    public mutating func candidates(row: Int, field: Field, ledger: Ledger, inIndex: Bool = true) -> [ScoredSuggestion] {
        let prior = consistency(field)
        let merchant = ledger.merchant[row]
        let own = inIndex ? SuggestIndex.values(field, row: row, ledger: ledger) : []
        let (alike, words) = keys(of: merchant, in: ledger)
        let name = TagshModelText.clean(ledger.merchants[merchant])
        let alikeName = TagshModelText.clean(alikeDisplay[Int(alike)])
        var levels: [(Level, UInt32, Double, String)] = [
            (.merchant, merchant, 1.0, "\(name) transactions"),
            (.alike, alike, 0.9, "transactions of merchants named like \(alikeName) (numbers aside)"),
        ]
        for w in words { levels.append((.word, w, 0.75, "transactions of merchants with '\(wordNames[Int(w)])' in the name")) }
        // "6 of 9 categorised STARBUCKS transactions are in Coffee"
        func say(_ c: Int, _ n: Int, _ subject: String, _ value: Suggestion.Value) -> String {
            switch value {
            case .category(let name): "\(c) of \(n) categorised \(subject) are in \(TagshModelText.clean(name))"
            case .intent(let i): "\(c) of \(n) \(subject) with an intent are \(i)"
            case .tag(let t): "\(c) of \(n) tagged \(subject) have +\(TagshModelText.clean(t))"
            }
        }
        var best: [UInt32: ScoredSuggestion] = [:]
        for (level, key, weight, subject) in levels {
            guard var tally = tallies[level.rawValue][key]?[field.rawValue] else { continue }
            // The row's own values are not evidence for it.
            if !own.isEmpty {
                tally.total -= 1
                for v in own { tally.values[v, default: 0] -= 1 }
            }
            guard tally.total >= 2 else { continue }
            for (v, c) in tally.values where c >= 2 && !own.contains(v) {
                guard let value = value(field, v, ledger: ledger) else { continue }
                // The share that agrees, with the field's usual consistency as prior evidence: 3 of 3 is
                // near-certain for a field merchants never vary on, and much less for one they often do.
                let confidence = weight * (Double(c) + SuggestIndex.priorWeight * prior) / (Double(tally.total) + SuggestIndex.priorWeight)
                if let have = best[v], have.confidence >= confidence { continue }
                best[v] = ScoredSuggestion(value: value, confidence: confidence, evidence: say(c, tally.total, subject, value))
            }
            // A merchant's own history, when there is enough of it, is what counts.
            if level == .merchant && tally.total >= 3 { break }
        }
        var list = best.values.sorted { ($0.confidence, $1.evidence) > ($1.confidence, $0.evidence) }
        if field != .tags { list = Array(list.prefix(1)) }
        return list
    }

    func value(_ field: Field, _ v: UInt32, ledger: Ledger) -> Suggestion.Value? {
        switch field {
        case .category: ledger.categories[v].isDeleted ? nil : .category(ledger.categories[v].name)
        case .intent: Intent(rawValue: UInt8(v)).map { .intent($0) }
        case .tags: Int(v) < ledger.tags.count ? .tag(ledger.tags[v]) : nil
        }
    }

    // MARK: - backtest

    /// One field's replay: for each transaction that has a value, the best suggestion's confidence (0 when
    /// there was none) and whether it was right; and for categories, the baseline's verdicts.
    public struct Replay: Sendable {
        public var outcomes: [(confidence: Double, right: Bool)] = []
        /// "The most frequent category of the same merchant among earlier transactions, if seen at least 3
        /// times" (Actual's rule): nil where it does not act.
        public var baseline: [Bool?] = []
        public var mistakes: [String: Int] = [:]

        /// Coverage (share acted on) and accuracy (share right of those) at a threshold.
        public func at(_ threshold: Double) -> (acted: Int, right: Int, of: Int) {
            let acted = outcomes.filter { $0.confidence >= threshold && $0.confidence > 0 }
            return (acted.count, acted.filter(\.right).count, outcomes.count)
        }
    }

    /// Replays `rows` in date order: each annotated transaction is suggested from the transactions before it only,
    /// then joins the evidence. `interrupted` is asked every 4096 rows.
    public static func backtest(ledger: Ledger, rows: [Int], interrupted: () -> Bool = { false }) -> [Field: Replay]? {
        let order = rows.sorted { (ledger.days[$0], $0) < (ledger.days[$1], $1) }
        var index = SuggestIndex()
        var replays: [Field: Replay] = [.category: Replay(), .intent: Replay(), .tags: Replay()]
        for (k, row) in order.enumerated() {
            if k & 4095 == 0 && interrupted() { return nil }
            for f in Field.allCases {
                let truth = values(f, row: row, ledger: ledger)
                guard !truth.isEmpty else { continue }
                // As if the row had no value yet: its own values are not in the index.
                let guess = index.candidates(row: row, field: f, ledger: ledger, inIndex: false).first
                let right = guess.map { g -> Bool in
                    switch g.value {
                    case .category(let c): return ledger.categories.id(of: c) == truth.first
                    case .intent(let i): return UInt32(i.rawValue) == truth.first
                    case .tag(let t): return truth.contains { ledger.tags[$0].lowercased() == t.lowercased() }
                    }
                } ?? false
                replays[f]!.outcomes.append((guess?.confidence ?? 0, right))
                if let g = guess, !right, f != .tags {
                    let truthName = f == .category ? ledger.categories[truth[0]].name : Intent(rawValue: UInt8(truth[0])).map { "\($0)" } ?? "?"
                    let guessName: String
                    switch g.value {
                    case .category(let c): guessName = c
                    case .intent(let i): guessName = "\(i)"
                    case .tag(let t): guessName = t
                    }
                    replays[f]!.mistakes["\(guessName) for \(truthName)", default: 0] += 1
                }
                if f == .category {
                    let t = index.tallies[Level.merchant.rawValue][ledger.merchant[row]]?[Field.category.rawValue]
                    if let t, t.total >= 3, let top = t.values.max(by: { ($0.value, $1.key) < ($1.value, $0.key) }), top.value > 0 {
                        replays[f]!.baseline.append(top.key == truth[0])
                    } else {
                        replays[f]!.baseline.append(nil)
                    }
                }
            }
            index.add(row, ledger: ledger)
        }
        return replays
    }

}

/// Ledger text made safe to quote in evidence (no control characters).
enum TagshModelText {
    static func clean(_ s: String) -> String { String(s.unicodeScalars.filter { $0.value >= 0x20 && $0.value != 0x7F }.map(Character.init)) }
}

extension SuggestIndex {
    /// What accepting every suggestion at or above `minConfidence` on `rows` would change, as a plan `preview`
    /// renders and `apply` commits as one step. Only missing categories and intents are filled in, and tags added. Transactions that cannot take a category are left out of that
    /// field; tags that would go over `maxTags` are listed in `overflow`. New tag sets are interned into `ledger`.
    public mutating func plan(ledger: inout Ledger, rows: [Int], minConfidence: Double, fields: Set<Field>, maxTags: Int) -> Plan {
        var plan = Plan(rules: [Rule(name: "suggestions", queryText: "", query: .all, actions: [])])
        plan.matched = rows.count
        var deltaIndex: [ChangeSet.Field: [String: Int]] = [:]
        func delta(_ f: ChangeSet.Field, _ text: String) {
            if let i = deltaIndex[f]?[text] { plan.deltas[f]![i].1 += 1 } else {
                deltaIndex[f, default: [:]][text] = plan.deltas[f, default: []].count
                plan.deltas[f, default: []].append((text, 1))
            }
        }
        for row in rows.sorted() {
            var changed = false
            var addTags: [UInt32] = []
            for s in suggest(row: row, ledger: ledger, threshold: minConfidence, fields: fields) {
                switch s.value {
                case .category(let name):
                    // Suggestions fill in what is missing; they never replace a category or intent someone set.
                    guard ledger.category[row] == 0, let id = ledger.categories.id(of: name),
                          ledger.categoryRefusal(row, setting: id) == nil else { continue }
                    let before = ledger.category[row]
                    plan.changes.record(row: row, field: .category, before: before, after: id)
                    delta(.category, (before == 0 ? "none" : ledger.categories[before].name) + " → " + name)
                    changed = true
                case .intent(let i):
                    let before = ledger.intent[row]
                    guard before == 0 else { continue }
                    plan.changes.record(row: row, field: .intent, before: UInt32(before), after: UInt32(i.rawValue))
                    delta(.intent, (Intent(rawValue: before).map { "\($0)" } ?? "none") + " → \(i)")
                    changed = true
                case .tag(let t):
                    if let id = ledger.tags.id(of: t) { addTags.append(id) }
                }
            }
            if !addTags.isEmpty {
                let before = ledger.tagSet[row]
                let ids = ledger.tagSets[before] + addTags.filter { !ledger.tagSets[before].contains($0) }
                if ids.count > maxTags {
                    plan.overflow.append(row + 1)
                } else if ids.count > ledger.tagSets[before].count {
                    plan.changes.record(row: row, field: .tags, before: before, after: ledger.tagSets.intern(ids))
                    for t in addTags { delta(.tags, "+" + ledger.tags[t]) }
                    changed = true
                }
            }
            if changed { plan.changedRows.append(row) }
        }
        plan.stats = [Plan.RuleStats(name: "suggestions", matched: rows.count, sets: [:])]
        return plan
    }
}
