import TagshModel

/// A suggestion with how sure it is: the share of the evidence that agrees,
/// with two transactions' worth of prior evidence at the field's usual
/// consistency in this ledger (`(c + 2q) / (n + 2)`), so 3 of 3 means more for
/// categories, which merchants rarely vary on, than for intents; evidence from
/// merchants alike but not the same counts for less.
public struct ScoredSuggestion: Sendable, Equatable {
    public var value: SuggestedValue
    public var confidence: Double
    public var evidence: String

    public init(value: SuggestedValue, confidence: Double, evidence: String) {
        self.value = value
        self.confidence = confidence
        self.evidence = evidence
    }

    /// The command that would apply it to transaction `id`.
    public func command(for id: Int) -> String { value.command(for: id) }
}

/// What the ledger's annotated transactions say about the others: for each
/// merchant, each merchant with its numbers and codes taken out (`STARBUCKS
/// 1234` and `STARBUCKS 0567` are both `starbucks`), each word of a merchant's
/// name, and each amount at merchants alike, how many transactions carry each
/// category, intent and tag.
///
/// The index of a whole ledger counts these when a suggestion asks, from the
/// rows of the merchants concerned (`LiveEvidence`), and keeps only what the
/// fields' consistency sums. The backtest's index, which must see only the
/// transactions before the one it guesses, keeps tallies instead, adding each
/// row as it goes (`add`).
public struct SuggestIndex: Sendable {
    public enum Field: Int, Sendable, CaseIterable, CustomStringConvertible {
        case category, intent, tags
        public var description: String { ["category", "intent", "tags"][rawValue] }
    }

    struct Tally: Sendable {
        /// Transactions with a value for the field.
        var total = 0
        var values: [UInt32: Int] = [:]
        /// The values of `values` held twice or more, most held first, when the tally is counted whole (nil in a
        /// tally kept row by row): a suggestion's scores stop at the first that falls under the threshold. A word's
        /// tags on a ledger of many tag sets are thousands of values, and a bulk plan read them all for each row.
        var ranked: [(value: UInt32, count: Int)]?
    }

    /// Where evidence comes from: the same merchant; merchants alike (numbers aside) for the same amount (what
    /// recurs: a subscription, a rent, the usual coffee); merchants alike; a word of the name.
    enum Level: Int { case merchant, alike, word, amount }

    /// Tallies by level, key and field, for an index counted row by row (`add`); unused with `live`.
    var tallies: [[UInt32: [Tally]]] = [[:], [:], [:], [:]]
    /// The evidence counted from the ledger when asked: the index of a whole ledger.
    var live: LiveEvidence?
    /// Merchants alike and one amount, as a key of the `amount` level.
    struct AmountKey: Hashable, Sendable { var alike: UInt32; var units: Int64; var scale: UInt8; var currency: UInt32 }
    var amountIDs: [AmountKey: UInt32] = [:]
    var amountKeys: [AmountKey] = []
    /// A merchant's `alike` key and word keys (cached per merchant id).
    var alikeKey: [UInt32: UInt32] = [:]
    var wordKeys: [UInt32: [UInt32]] = [:]
    var alikeNames: [String: UInt32] = [:]
    var alikeDisplay: [String] = []
    /// Each alike key's name (`alikeName`), as `alikeNames` holds them.
    var alikeNameList: [String] = []
    var wordIDs: [String: UInt32] = [:]
    var wordNames: [String] = []

    /// Per field, over merchants: the transactions that agree with their merchant's most common value, and all
    /// transactions with a value; kept as counts change, so the field's consistency is always current.
    var agree = [0, 0, 0], agreeTotal = [0, 0, 0]

    /// In `field`, the transactions that agree with their merchant's most common value, and all with a value.
    mutating func sums(_ field: Field, ledger: Ledger) -> (agree: Int, total: Int) {
        guard live != nil else { return (agree[field.rawValue], agreeTotal[field.rawValue]) }
        return live!.sums(field.rawValue, ledger: ledger)
    }

    /// How consistent merchants are in a field (with little history, as consistent as not).
    mutating func consistency(_ field: Field, ledger: Ledger) -> Double {
        let (a, t) = sums(field, ledger: ledger)
        return (Double(a) + 1) / (Double(t) + 2)
    }

    /// An empty index, to be counted row by row (`add`).
    public init() {}

    /// The index of every transaction of `ledger`, counted when asked; or of `rows` only, counted now.
    /// `nameGroups`: the ledger's names already grouped (`NameGroups(ledger.merchants)`), as the prompt prepares
    /// them while it waits; read from the names at the first suggestion otherwise. `parallelFrom`: from how many
    /// rows a group is counted on both cores, and `scanShare`: from what share of the rows in a pass over the
    /// ledger (`LiveEvidence`; tests set them to take one way or the other).
    public init(ledger: Ledger, rows: [Int]? = nil, nameGroups: NameGroups? = nil, parallelFrom: Int = 1 << 15, scanShare: Int = 4) {
        guard let rows else {
            live = LiveEvidence(ledger: ledger, groups: nameGroups, parallelFrom: parallelFrom, scanShare: scanShare)
            return
        }
        for r in rows { add(r, ledger: ledger) }
    }

    /// One key's tallies (category, intent, tags), or nil when an index counted row by row has none.
    mutating func tallies(_ level: Level, _ key: UInt32, ledger: Ledger) -> [Tally]? {
        guard live != nil else { return tallies[level.rawValue][key] }
        // In place (a copy of the evidence per look-up was most of a bulk plan's time).
        return live?.tallies(level, key, alikeNames: alikeNameList, words: wordNames, amountKeys: amountKeys, ledger: ledger)
    }

    /// How much the field's consistency counts, as that many transactions of prior evidence.
    static let priorWeight = 2.0
    /// How much evidence from merchants alike, and from a word of the name, counts against a merchant's own
    /// (1): the most confidence either can give.
    static let alikeWeight = 0.9, wordWeight = 0.75

    // MARK: - keys

    /// `STARBUCKS 1234` → `starbucks`; `UBER *TRIP 8XYZ` → `uber trip`: the words without digits.
    public static func alikeName(_ merchant: String) -> String {
        merchant.lowercased().split { !$0.isLetter && !$0.isNumber }.filter { w in !w.contains(where: \.isNumber) }.joined(separator: " ")
    }

    /// A merchant's alike name and significant words, sorted, as `NameGroups` reads them.
    static func nameKeys(of merchant: UInt32, in ledger: Ledger) -> (name: String, alike: String, words: [String]) {
        // An ASCII name is read as bytes, as `NameGroups` reads it (the same keys: `SuggestIndexTests`); through
        // `Character`s, a bulk plan over a million distinct names spent a tenth of its time on Unicode properties.
        let ascii = ledger.merchants.withUTF8(merchant) { b -> (alike: String, words: [String])? in
            guard b.allSatisfy({ $0 < 0x80 }) else { return nil }
            var scratch: [UInt8] = []
            let alike = String(decoding: LiveEvidence.alikeName(ascii: b, into: &scratch), as: UTF8.self)
            var words = Set<String>()
            LiveEvidence.forEachSignificantWord(ascii: b) { words.insert(String(decoding: $0, as: UTF8.self)) }
            return (alike, words.sorted())
        }
        let name = ledger.merchants[merchant]
        return (name, ascii?.alike ?? SuggestIndex.alikeName(name), ascii?.words ?? Suggester.significantWords(name).sorted())
    }

    /// A merchant's keys as far as they are named already (`keys(of:)` naming none): a key not named yet has
    /// no counts kept, and naming it during a change would spell its alike name from the ledger mid-change.
    func namedKeys(of merchant: UInt32, in ledger: Ledger) -> (alike: UInt32?, words: [UInt32]) {
        if let a = alikeKey[merchant], let w = wordKeys[merchant] { return (a, w) }
        let (_, alike, words) = SuggestIndex.nameKeys(of: merchant, in: ledger)
        return (alikeNames[alike], words.compactMap { wordIDs[$0] })
    }

    mutating func keys(of merchant: UInt32, in ledger: Ledger) -> (alike: UInt32, words: [UInt32]) {
        if let a = alikeKey[merchant], let w = wordKeys[merchant] { return (a, w) }
        let (name, alike, names) = SuggestIndex.nameKeys(of: merchant, in: ledger)
        let a: UInt32
        if let known = alikeNames[alike] { a = known } else {
            a = UInt32(alikeDisplay.count)
            alikeNames[alike] = a
            alikeNameList.append(alike)
            // Shown as spelled by the first merchant alike with an annotated transaction, as a row-by-row count
            // meets them (`STARBUCKS` rather than a later `Starbucks`).
            var shown = name
            if let group = live?.alikeGroup(alike, ledger: ledger), let first = live?.firstAnnotatedRow(of: group, ledger: ledger) {
                shown = ledger.merchants[ledger.merchant[first]]
            }
            alikeDisplay.append(shown.split { !$0.isLetter && !$0.isNumber }.filter { !$0.contains(where: \.isNumber) }.joined(separator: " "))
        }
        let words = names.map { wordKey($0) }
        alikeKey[merchant] = a
        wordKeys[merchant] = words
        return (a, words)
    }

    /// A significant word's key, named now if it has none yet.
    private mutating func wordKey(_ w: String) -> UInt32 {
        if let id = wordIDs[w] { return id }
        let id = UInt32(wordNames.count)
        wordIDs[w] = id
        wordNames.append(w)
        return id
    }

    /// Counts now what a first suggestion on a large ledger would wait for: the tallies of each significant word
    /// whose merchants hold a `scanShare`-th of the rows or more (`ref` or `card` in most of a bank's
    /// descriptions), each a pass over the whole ledger, kept as any group's counted over many rows are (and
    /// brought up to date by each change). The prompt runs this on another thread while it waits, after it has
    /// built the index: on the 1M `wide` shape, the first `suggest` counted such words for 57-89 ms.
    public mutating func countLargeGroups(ledger: Ledger) {
        guard live != nil else { return }
        for w in live!.largeWords(ledger: ledger) { _ = tallies(.word, wordKey(w), ledger: ledger) }
    }

    // MARK: - counting

    static func values(_ field: Field, row: Int, ledger: Ledger) -> ArraySlice<UInt32> {
        switch field {
        case .category: ledger.category[row] == 0 ? [] : [ledger.category[row]]
        case .intent: ledger.intent[row] == 0 ? [] : [UInt32(ledger.intent[row])]
        case .tags: ledger.tagSets[ledger.tagSet[row]]
        }
    }

    mutating func amountKey(row: Int, alike: UInt32, ledger: Ledger) -> UInt32 {
        amountKey(AmountKey(alike: alike, units: ledger.amountUnits[row], scale: ledger.amountScale[row], currency: ledger.currency[row]))
    }

    mutating func amountKey(_ k: AmountKey) -> UInt32 {
        if let id = amountIDs[k] { return id }
        let id = UInt32(amountKeys.count)
        amountIDs[k] = id
        amountKeys.append(k)
        return id
    }

    mutating func count(_ row: Int, _ field: Field, _ values: ArraySlice<UInt32>, _ sign: Int, ledger: Ledger) {
        guard !values.isEmpty else { return }
        let merchant = ledger.merchant[row]
        let (alike, words) = keys(of: merchant, in: ledger)
        func bump(_ level: Level, _ key: UInt32) {
            // Changed in place (a copy of the tally, dictionaries and all, per row was most of the cost).
            let l = level.rawValue, f = field.rawValue
            let before = level == .merchant ? tallies[l][key]?[f].values.values.max() ?? 0 : 0
            tallies[l][key, default: [Tally(), Tally(), Tally()]][f].total += sign
            for v in values { tallies[l][key, default: [Tally(), Tally(), Tally()]][f].values[v, default: 0] += sign }
            if level == .merchant {
                agree[f] += (tallies[l][key]?[f].values.values.max() ?? 0) - before
                agreeTotal[f] += sign
            }
        }
        bump(.merchant, merchant)
        bump(.alike, alike)
        for w in words { bump(.word, w) }
        bump(.amount, amountKey(row: row, alike: alike, ledger: ledger))
    }

    public mutating func add(_ row: Int, ledger: Ledger) {
        for f in Field.allCases { count(row, f, SuggestIndex.values(f, row: row, ledger: ledger), 1, ledger: ledger) }
    }

    /// Keeps the index current after `changes` were made to `ledger`, or undone (`reverted`).
    public mutating func update(_ changes: ChangeSet, reverted: Bool = false, ledger: Ledger) {
        if live != nil {
            // When the merchants and rows changed are few (a `review` decision, a `tag` of a few rows), what was
            // counted for their keys is brought up to date and the rest stays: the next transaction's counts,
            // worked out while the screen was read, still hold. Their keys are looked up, never named here.
            let merchants = LiveEvidence.changedMerchants(changes, ledger: ledger)
            var touched: LiveEvidence.Touched?
            if merchants.count <= LiveEvidence.forgetByKeyUpTo && changes.count <= LiveEvidence.adjustRowsUpTo {
                touched = LiveEvidence.Touched(keysOf: Dictionary(uniqueKeysWithValues: merchants.map { ($0, namedKeys(of: $0, in: ledger)) }))
            }
            live?.update(changes, reverted: reverted, merchants: merchants, ledger: ledger, forgetting: touched)
            return
        }
        let order = reverted ? Array((0..<changes.count).reversed()) : Array(0..<changes.count)
        for k in order {
            let (b, a) = reverted ? (changes.after[k], changes.before[k]) : (changes.before[k], changes.after[k])
            update(row: Int(changes.rows[k]), field: changes.fields[k], before: b, after: a, ledger: ledger)
        }
    }

    /// The field a change of `field` from `before` to `after` counts in, and the values it takes away and gives (a
    /// category, an intent's raw value, a tag set's tags); nil for a note, which counts in no tally.
    static func values(_ field: ChangeSet.Field, before: UInt32, after: UInt32, ledger: Ledger)
        -> (field: Field, old: ArraySlice<UInt32>, new: ArraySlice<UInt32>)?
    {
        switch field {
        case .category: (.category, before == 0 ? [] : [before], after == 0 ? [] : [after])
        case .intent: (.intent, before == 0 ? [] : [before], after == 0 ? [] : [after])
        case .tags: (.tags, ledger.tagSets[before], ledger.tagSets[after])
        case .note: nil
        }
    }

    /// Keeps an index counted row by row current through a change: the row's old value leaves, its new one comes in.
    public mutating func update(row: Int, field: ChangeSet.Field, before: UInt32, after: UInt32, ledger: Ledger) {
        guard let (f, old, new) = SuggestIndex.values(field, before: before, after: after, ledger: ledger) else { return }
        count(row, f, old, -1, ledger: ledger)
        count(row, f, new, 1, ledger: ledger)
    }

    // MARK: - suggesting

    /// The suggestions for one row at or above `threshold`, best first, leaving out what it already has.
    /// The row's own annotations are not counted as evidence for it.
    public mutating func suggest(row: Int, ledger: Ledger, threshold: Double, fields: Set<Field> = Set(Field.allCases)) -> [ScoredSuggestion] {
        var out: [ScoredSuggestion] = []
        var e = evidence(row: row, ledger: ledger)
        for f in Field.allCases where fields.contains(f) {
            // (Scored first: scoring may name new keys, which the evidence's wording reads.)
            let scored = scores(row: row, field: f, ledger: ledger, minimum: threshold, evidence: &e)
            out += candidates(scored, field: f, ledger: ledger, minimum: threshold)
        }
        return out.sorted { $0.confidence > $1.confidence }
    }

    /// One candidate value as counted: where its evidence comes from, and how much agrees.
    struct Score {
        var field: Field
        var value: UInt32
        var confidence: Double
        var level: Level
        var key: UInt32
        var agreeing: Int
        var of: Int
    }

    /// The tallies one row's suggestions read, fetched once for all of its fields.
    struct RowEvidence {
        var merchant: UInt32, alike: UInt32, words: [UInt32]
        var amount: AmountKey
        var merchantTallies: [Tally]?, amountTallies: [Tally]?
        /// Merchants alike and words: fetched when a field needs them (nil inside: none kept).
        var alikeTallies: [Tally]??
        var wordTallies: [[Tally]?]?
    }

    mutating func evidence(row: Int, ledger: Ledger) -> RowEvidence {
        let merchant = ledger.merchant[row]
        let (alike, words) = keys(of: merchant, in: ledger)
        let amount = AmountKey(alike: alike, units: ledger.amountUnits[row], scale: ledger.amountScale[row], currency: ledger.currency[row])
        let amountTallies: [Tally]?
        if live != nil {
            amountTallies = live?.tallies(of: amount, alikeNames: alikeNameList, ledger: ledger)
        } else {
            amountTallies = amountIDs[amount].flatMap { tallies[Level.amount.rawValue][$0] }
        }
        return RowEvidence(merchant: merchant, alike: alike, words: words, amount: amount,
                           merchantTallies: tallies(.merchant, merchant, ledger: ledger), amountTallies: amountTallies)
    }

    /// The candidates for one field, best first, as numbers (no text: the backtest and bulk plans ask
    /// millions of times). `inIndex`: whether the row's own values are counted in the index (then they
    /// are taken out: a row is not evidence for itself).
    mutating func scores(row: Int, field: Field, ledger: Ledger, inIndex: Bool = true) -> [Score] {
        var e = evidence(row: row, ledger: ledger)
        return scores(row: row, field: field, ledger: ledger, inIndex: inIndex, evidence: &e)
    }

    /// Those under `minimum` confidence are left out (a word's tags on a large ledger are thousands of candidates, and
    /// sorting them was most of a `review` key's time).
    mutating func scores(row: Int, field: Field, ledger: Ledger, inIndex: Bool = true, minimum: Double = -.infinity,
                         evidence e: inout RowEvidence) -> [Score] {
        // No transaction has a value in this field (a bank export without categories): there is nothing to find,
        // and looking through merchants alike and words for it counted tens of thousands of rows for each new one.
        guard sums(field, ledger: ledger).total > 0 else { return [] }
        let prior = consistency(field, ledger: ledger)
        let own = inIndex ? SuggestIndex.values(field, row: row, ledger: ledger) : []
        var best: [Score] = []
        // Where each value is in `best`: a word's tags on a large ledger are thousands of values, and finding each
        // by a scan of `best` made a suggestion quadratic in them (6 s for one row on a million).
        var place: [UInt32: Int] = [:]
        func consider(_ level: Level, _ key: UInt32, _ tallies: [Tally]?, _ weight: Double) {
            guard let tally = tallies?[field.rawValue] else { return }
            // The row's own values are taken out: it is one transaction fewer, and its values are not candidates
            // (so their counts, which would be one fewer, are never read: no copy of the tally is changed).
            let total = tally.total - (own.isEmpty ? 0 : 1)
            guard total >= 2 else { return }
            // The share that agrees, with the field's usual consistency as prior evidence: 3 of 3 is near-certain
            // for a field merchants never vary on, and much less for one they often do. (It grows with the count.)
            func confidence(_ c: Int) -> Double {
                weight * (Double(c) + SuggestIndex.priorWeight * prior) / (Double(total) + SuggestIndex.priorWeight)
            }
            func visit(_ v: UInt32, _ c: Int) {
                guard !own.contains(v) else { return }
                let confidence = confidence(c)
                guard confidence >= minimum else { return }
                if let i = place[v] {
                    if best[i].confidence < confidence { best[i] = Score(field: field, value: v, confidence: confidence, level: level, key: key, agreeing: c, of: total) }
                } else {
                    place[v] = best.count
                    best.append(Score(field: field, value: v, confidence: confidence, level: level, key: key, agreeing: c, of: total))
                }
            }
            if let ranked = tally.ranked {
                // Most held first: once one falls under the threshold, the rest do too.
                for (v, c) in ranked {
                    guard confidence(c) >= minimum else { break }
                    visit(v, c)
                }
            } else {
                for (v, c) in tally.values where c >= 2 { visit(v, c) }
            }
        }
        // A merchant's own history, when there is enough of it (3), is what counts; else merchants alike, then words.
        let merchantTotal = e.merchantTallies?[field.rawValue].total ?? 0
        consider(.merchant, e.merchant, e.merchantTallies, 1.0)
        // The same amount at merchants alike is the sharpest evidence where a merchant's history is mixed. (Its
        // key is named only when it is evidence: a bulk plan meets a million amounts.)
        consider(.amount, .max, e.amountTallies, 1.0)
        if best.contains(where: { $0.level == .amount }) {
            let id = amountKey(e.amount)
            for i in best.indices where best[i].level == .amount { best[i].key = id }
        }
        if merchantTotal - (own.isEmpty ? 0 : 1) < 3 {
            // A level's confidence never passes its weight (a value is held by no more of the rows than `total`,
            // and the prior is at most 1): under `minimum`, its rows are not counted at all. At the default
            // threshold (0.8) words never make a suggestion, and counting them was most of a `review` key that met
            // a new group (on the 1M `wide` shape, `ref` is in every name).
            if minimum <= SuggestIndex.alikeWeight {
                if e.alikeTallies == nil { e.alikeTallies = .some(tallies(.alike, e.alike, ledger: ledger)) }
                consider(.alike, e.alike, e.alikeTallies ?? nil, SuggestIndex.alikeWeight)
            }
            if minimum <= SuggestIndex.wordWeight {
                if e.wordTallies == nil { e.wordTallies = e.words.map { tallies(.word, $0, ledger: ledger) } }
                for (w, t) in zip(e.words, e.wordTallies ?? []) { consider(.word, w, t, SuggestIndex.wordWeight) }
            }
        }
        best.sort { ($0.confidence, $1.value) > ($1.confidence, $0.value) }
        if field != .tags && best.count > 1 { best = [best[0]] }
        return best
    }

    /// Every candidate for one field, best first, with its evidence in words (tags: every tag the evidence carries),
    /// or the first `limit`.
    public mutating func candidates(row: Int, field: Field, ledger: Ledger, inIndex: Bool = true, limit: Int = .max) -> [ScoredSuggestion] {
        let scored = scores(row: row, field: field, ledger: ledger, inIndex: inIndex)
        return candidates(scored, field: field, ledger: ledger, limit: limit)
    }

    /// The scores (best first) as suggestions, those of `minimum` confidence or more, at most `limit`. The evidence
    /// is worded only for those: a word's tags on a large ledger are thousands of scores, and their wording was most
    /// of a suggestion's time.
    func candidates(_ scores: [Score], field: Field, ledger: Ledger, minimum: Double = -.infinity, limit: Int = .max) -> [ScoredSuggestion] {
        var out: [ScoredSuggestion] = []
        for s in scores where s.confidence >= minimum {
            guard out.count < limit else { break }
            guard let value = value(field, s.value, ledger: ledger) else { continue }
            out.append(ScoredSuggestion(value: value, confidence: s.confidence, evidence: evidence(s, value, ledger: ledger)))
        }
        return out
    }

    /// "6 of 9 categorised STARBUCKS 1234 transactions are in Coffee".
    func evidence(_ s: Score, _ value: SuggestedValue, ledger: Ledger) -> String {
        let subject: String
        switch s.level {
        case .merchant: subject = TagshModelText.clean(ledger.merchants[s.key]) + " transactions"
        case .alike: subject = "transactions of merchants named like \(TagshModelText.clean(alikeDisplay[Int(s.key)])) (numbers aside)"
        case .word: subject = "transactions of merchants with '\(wordNames[Int(s.key)])' in the name"
        case .amount:
            let k = amountKeys[Int(s.key)]
            let amount = Amount(units: k.units, scale: k.scale).formatted(grouping: true)
            let currency = ledger.currencies[k.currency]
            subject = "\(TagshModelText.clean(alikeDisplay[Int(k.alike)]))-like transactions of \(amount)\(currency.isEmpty ? "" : " " + TagshModelText.clean(currency))"
        }
        switch value {
        case .category(let name): return "\(s.agreeing) of \(s.of) categorised \(subject) are in \(TagshModelText.clean(name))"
        case .intent(let i): return "\(s.agreeing) of \(s.of) \(subject) with an intent are \(i)"
        case .tag(let t): return "\(s.agreeing) of \(s.of) tagged \(subject) have +\(TagshModelText.clean(t))"
        }
    }

    func value(_ field: Field, _ v: UInt32, ledger: Ledger) -> SuggestedValue? {
        switch field {
        case .category: ledger.categories[v].isDeleted ? nil : .category(ledger.categories[v].name)
        case .intent: Intent(rawValue: UInt8(v)).map { .intent($0) }
        case .tags: ledger.tags.ids.contains(v) ? .tag(ledger.tags[v]) : nil
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
                let guess = index.scores(row: row, field: f, ledger: ledger, inIndex: false).first
                let right = guess.map { f == .tags ? truth.contains($0.value) : truth.first == $0.value } ?? false
                replays[f]!.outcomes.append((guess?.confidence ?? 0, right))
                if let g = guess, !right, f != .tags {
                    let name = { (v: UInt32) in f == .category ? ledger.categories[v].name : Intent(rawValue: UInt8(v)).map { "\($0)" } ?? "?" }
                    replays[f]!.mistakes["\(name(g.value)) for \(name(truth[0]))", default: 0] += 1
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
    public mutating func plan(ledger: inout Ledger, rows: [Int], minConfidence: Double, fields: Set<Field>, maxTags: Int,
                              interrupted: () -> Bool = { false }) -> Plan? {
        plan(ledger: &ledger, rows: rows, minConfidence: minConfidence, fields: fields, maxTags: maxTags, sharing: true, interrupted: interrupted)
    }

    /// What decides a row's suggestions in a plan: its merchant and amount (the evidence) and its own values
    /// (which are not evidence for it). Rows alike in all of these get the same suggestions.
    struct PlanKey: Hashable {
        var merchant: UInt32, units: Int64, scale: UInt8, currency: UInt32
        var category: UInt32, intent: UInt8, tagSet: UInt32

        /// One mix of the fields, hashed once (five hashed apart were a tenth of a plan).
        func hash(into hasher: inout Hasher) {
            var h = UInt64(merchant) &* 0x9E37_79B9_7F4A_7C15 ^ UInt64(bitPattern: units)
            h = (h ^ h >> 29) &* 0xBF58_476D_1CE4_E5B9 ^ (UInt64(scale) << 56 | UInt64(intent) << 48 | UInt64(currency))
            h = (h ^ h >> 31) &* 0x94D0_49BB_1331_11EB ^ (UInt64(category) << 32 | UInt64(tagSet))
            hasher.combine(h ^ h >> 29)
        }

        init(row: Int, ledger: Ledger) {
            merchant = ledger.merchant[row]
            units = ledger.amountUnits[row]
            scale = ledger.amountScale[row]
            currency = ledger.currency[row]
            category = ledger.category[row]
            intent = ledger.intent[row]
            tagSet = ledger.tagSet[row]
        }
    }

    /// `plan`, with `sharing` false working out every row's suggestions itself (the tests compare both ways).
    ///
    /// With sharing, rows alike in what decides their suggestions (`PlanKey`) share one working-out: a million
    /// generated rows hold 168,149 such keys. The deltas' texts and the tag sets a suggestion makes are made once
    /// per value and per set, not once per row.
    /// Nil when `interrupted` said stop (it is asked every 4,096 rows of each pass; a million rows of a ledger whose
    /// merchants are each a row's own take seconds).
    mutating func plan(ledger: inout Ledger, rows: [Int], minConfidence: Double, fields: Set<Field>, maxTags: Int, sharing: Bool,
                       interrupted: () -> Bool = { false }) -> Plan? {
        var plan = Plan(rules: [Rule(name: "suggestions", queryText: "", query: .all, actions: [])])
        plan.matched = rows.count
        var deltaIndex: [ChangeSet.Field: [String: Int]] = [:]
        // By field and value: where its delta is counted (its text is made once).
        var deltaOf: [UInt64: Int] = [:]
        func delta(_ f: ChangeSet.Field, _ value: UInt32, _ text: () -> String) {
            let key = UInt64(f.rawValue) << 32 | UInt64(value)
            if let i = deltaOf[key] { plan.deltas[f]![i].1 += 1; return }
            let t = text()
            if let i = deltaIndex[f]?[t] {
                plan.deltas[f]![i].1 += 1
                deltaOf[key] = i
            } else {
                deltaIndex[f, default: [:]][t] = plan.deltas[f, default: []].count
                deltaOf[key] = plan.deltas[f, default: []].count
                plan.deltas[f, default: []].append((t, 1))
            }
        }
        let sorted = rows.sorted()
        // The suggestions are worked out first, merchants alike together (an index counted when asked then
        // counts each merchant's and each group's evidence once), and recorded after, in row order.
        // (A row's candidates are consecutive in one array: an array per row was a tenth of the time.)
        // Which rows share a working-out, found in row order (the columns read front to back): `first` holds
        // the first row of each key, and `shares[i]` the place in it of row i's key.
        var first: [Int] = []
        var shares = [Int32](repeating: 0, count: sorted.count)
        if sharing {
            var place: [PlanKey: Int32] = [:]
            for (i, row) in sorted.enumerated() {
                if i & 4095 == 0 && interrupted() { return nil }
                let key = PlanKey(row: row, ledger: ledger)
                if let known = place[key] { shares[i] = known; continue }
                shares[i] = Int32(first.count)
                place[key] = Int32(first.count)
                first.append(row)
            }
        } else {
            first = sorted
            for i in shares.indices { shares[i] = Int32(i) }
        }
        var suggested: [Score] = []
        var firstFrom = [Int32](repeating: 0, count: first.count), firstTo = firstFrom
        for (n, k) in (live?.groupOrder(first, ledger: ledger) ?? Array(first.indices)).enumerated() {
            if n & 4095 == 0 && interrupted() { return nil }
            var e = evidence(row: first[k], ledger: ledger)
            firstFrom[k] = Int32(suggested.count)
            for f in Field.allCases where fields.contains(f) {
                for sc in scores(row: first[k], field: f, ledger: ledger, minimum: minConfidence, evidence: &e) { suggested.append(sc) }
            }
            firstTo[k] = Int32(suggested.count)
        }
        // By tag set and shared working-out: the set the suggested tags make of it (or, as `UInt32.max`, that they
        // are all there already; as `.max - 1`, that it would hold too many).
        var madeSets: [UInt64: UInt32] = [:]
        for (i, row) in sorted.enumerated() {
            if i & 4095 == 0 && interrupted() { return nil }
            var changed = false
            var addTags: [UInt32] = []
            let k = Int(shares[i])
            for sc in suggested[Int(firstFrom[k])..<Int(firstTo[k])] {
                switch sc.field {
                case .category:
                    // Suggestions fill in what is missing; they never replace a category or intent someone set.
                    let id = sc.value
                    guard ledger.category[row] == 0, !ledger.categories[id].isDeleted,
                          ledger.categoryRefusal(row, setting: id) == nil else { continue }
                    plan.changes.record(row: row, field: .category, before: 0, after: id)
                    delta(.category, id) { "none → " + ledger.categories[id].name }
                    changed = true
                case .intent:
                    guard ledger.intent[row] == 0, let intent = Intent(rawValue: UInt8(sc.value)) else { continue }
                    plan.changes.record(row: row, field: .intent, before: 0, after: sc.value)
                    delta(.intent, sc.value) { "none → \(intent)" }
                    changed = true
                case .tags:
                    addTags.append(sc.value)
                }
            }
            if !addTags.isEmpty {
                let before = ledger.tagSet[row]
                let made = UInt64(before) << 32 | UInt64(k)
                var after = madeSets[made]
                if after == nil {
                    let ids = ledger.tagSets[before] + addTags.filter { !ledger.tagSets[before].contains($0) }
                    after = ids.count > maxTags ? .max - 1 : ids.count > ledger.tagSets[before].count ? ledger.tagSets.intern(ids) : .max
                    madeSets[made] = after
                }
                if after == .max - 1 {
                    plan.overflow.append(row + 1)
                } else if let after, after != .max {
                    plan.changes.record(row: row, field: .tags, before: before, after: after)
                    for t in addTags { delta(.tags, t) { "+" + ledger.tags[t] } }
                    changed = true
                }
            }
            if changed { plan.changedCount += 1 }
        }
        plan.stats = [Plan.RuleStats(name: "suggestions", matched: rows.count, sets: [:])]
        return plan
    }
}
