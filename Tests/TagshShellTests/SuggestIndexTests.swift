import Testing
import TagshModel
import TagshQuery
@testable import TagshRules
import TagshTestSupport

/// The index of a whole ledger counts its evidence when asked (`LiveEvidence`); the backtest's index counts row
/// by row. Both must suggest the same, with the same confidence and evidence, before and after changes.
struct SuggestIndexTests {
    /// A payment of `euros` whole euros. (Written out in each row's `append`, the amount was most of the second
    /// those took a debug build to type-check.)
    static func euros(_ euros: UInt64) -> Amount { Amount(units: -Int64(100 * euros), scale: 2) }

    /// Merchant names that meet every path: alike with numbers aside, in other cases, sharing words, noise words,
    /// beyond ASCII (composed and not), no words at all, and no name.
    static let merchants = [
        "CAFE 12", "CAFE 99", "Cafe 77", "cafe roma", "CAFE ROMA 3", "UBER *TRIP 8XYZ", "UBER *TRIP 1ABC", "UBER EATS",
        "HARDWARE", "THE HARDWARE STORE", "12345", "", "ÉPICERIE 3", "E\u{301}PICERIE 4", "épicerie fine", "K-MARKT",
        "\u{212A}-MARKT 2", "PAYPAL *NETFLIX", "NETFLIX.COM", "netflix", "STARBUCKS 1234", "STARBUCKS 0567",
    ]

    /// A seeded ledger of `count` rows over those merchants, half of them annotated.
    static func ledger(count: Int, seed: UInt64) -> Ledger {
        var rng = SplitMix(seed: seed)
        var l = Ledger()
        let merchantIDs = merchants.map { $0.isEmpty ? 0 : l.merchants.intern($0) }
        let categoryIDs = ["Food", "Travel", "Bills", "Shopping"].map { l.categories.intern($0) }
        let tagIDs = ["coffee", "work", "trip/paris", "gift", "subscription"].map { l.tags.intern($0) }
        let currencies = [l.currencies.intern("EUR"), l.currencies.intern("USD")]
        for _ in 0..<count {
            let annotated = rng.next() % 2 == 0
            var set: [UInt32] = []
            if annotated { for t in tagIDs where rng.next() % 3 == 0 { set.append(t) } }
            l.append(day: Day(year: 2025, month: 1, day: 1)!, merchant: merchantIDs[Int(rng.next() % UInt64(merchantIDs.count))],
                     amount: SuggestIndexTests.euros(1 + rng.next() % 4), currency: currencies[Int(rng.next() % 2)],
                     account: 0, intent: annotated && rng.next() % 2 == 0 ? Intent.allCases[Int(rng.next() % 4)] : nil,
                     category: annotated && rng.next() % 3 != 0 ? categoryIDs[Int(rng.next() % 4)] : 0,
                     tagSet: l.tagSets.intern(set), note: 0)
        }
        return l
    }

    /// Every suggestion of every row, at threshold 0.
    static func everything(_ index: inout SuggestIndex, _ l: Ledger) -> [[ScoredSuggestion]] {
        (0..<l.count).map { index.suggest(row: $0, ledger: l, threshold: 0) }
    }

    @Test(arguments: [1, 2, 3, 4]) func countedWhenAskedIsCountedRowByRow(seed: UInt64) {
        let l = SuggestIndexTests.ledger(count: 400, seed: seed)
        var live = SuggestIndex(ledger: l)
        var counted = SuggestIndex(ledger: l, rows: Array(0..<l.count))
        let a = SuggestIndexTests.everything(&live, l), b = SuggestIndexTests.everything(&counted, l)
        let differ = (0..<l.count).first { a[$0] != b[$0] }
        #expect(differ == nil, "row \(differ ?? 0): \(differ.map { a[$0] } ?? []) against \(differ.map { b[$0] } ?? [])")
        #expect(a.contains { !$0.isEmpty })
        // Alike, word and amount evidence all appear (the ledger is not only merchants' own history).
        let evidence = a.joined().map(\.evidence)
        for phrase in ["named like", "in the name", "-like transactions of"] {
            #expect(evidence.contains { $0.contains(phrase) }, "no evidence \(phrase)")
        }
    }

    /// Counted on two cores (a group's merchants split where half its rows are: here from two rows on) or on one,
    /// every suggestion is the same, with the same confidence and evidence; after changes too (the two counts'
    /// scratches are kept and must be left at zero).
    @Test(arguments: [21, 22] as [UInt64]) func countedOnTwoCoresAsOnOne(seed: UInt64) {
        var l = SuggestIndexTests.ledger(count: 600, seed: seed)
        // A tag and a category only the last merchant has: only the second half of a split of its group counts them.
        let late = Set(SuggestIndexTests.merchants.suffix(1).compactMap { l.merchants.id(of: $0) })
        let tag = l.tags.intern("late"), category = l.categories.intern("Late")
        for r in 0..<l.count where late.contains(l.merchant[r]) {
            l.tagSet[r] = l.tagSets.intern(Array(l.tagSets[l.tagSet[r]]) + [tag])
            if r % 2 == 0 { l.category[r] = category }
        }
        var split = SuggestIndex(ledger: l, parallelFrom: 2)
        var one = SuggestIndex(ledger: l, parallelFrom: .max)
        #expect(SuggestIndexTests.everything(&split, l) == SuggestIndexTests.everything(&one, l))
        var rng = SplitMix(seed: seed)
        for _ in 0..<3 {
            let c = SuggestIndexTests.applyRandomChanges(&l, &rng)
            split.update(c, reverted: false, ledger: l)
            one.update(c, reverted: false, ledger: l)
            let a = SuggestIndexTests.everything(&split, l), b = SuggestIndexTests.everything(&one, l)
            let differ = (0..<l.count).first { a[$0] != b[$0] }
            #expect(differ == nil, "row \(differ ?? 0): \(differ.map { a[$0] } ?? []) against \(differ.map { b[$0] } ?? [])")
        }
    }

    /// A group counted in a pass over the whole ledger (here every group, on one core and on two) or merchant by
    /// merchant, every suggestion is the same, with the same confidence and evidence; after changes too (the
    /// counts by tag set the pass keeps must be left at zero).
    @Test(arguments: [31, 32] as [UInt64]) func countedInAPassAsMerchantByMerchant(seed: UInt64) {
        var l = SuggestIndexTests.ledger(count: 600, seed: seed)
        var byMerchant = SuggestIndex(ledger: l, parallelFrom: .max, scanShare: 0)
        var pass = SuggestIndex(ledger: l, parallelFrom: .max, scanShare: l.count)
        var passOnTwo = SuggestIndex(ledger: l, parallelFrom: 2, scanShare: l.count)
        var rng = SplitMix(seed: seed)
        for round in 0..<4 {
            if round > 0 {
                let c = SuggestIndexTests.applyRandomChanges(&l, &rng)
                byMerchant.update(c, reverted: false, ledger: l)
                pass.update(c, reverted: false, ledger: l)
                passOnTwo.update(c, reverted: false, ledger: l)
            }
            let a = SuggestIndexTests.everything(&byMerchant, l)
            #expect(a.contains { !$0.isEmpty })
            for (name, b) in [("one core", SuggestIndexTests.everything(&pass, l)), ("two cores", SuggestIndexTests.everything(&passOnTwo, l))] {
                let differ = (0..<l.count).first { a[$0] != b[$0] }
                #expect(differ == nil, "\(name), round \(round), row \(differ ?? 0): \(differ.map { a[$0] } ?? []) against \(differ.map { b[$0] } ?? [])")
            }
        }
    }

    /// Names grouped beforehand (as the prompt groups them while it waits) suggest what an index that groups them
    /// itself suggests; groups of other names (another ledger's, fewer) are not used.
    @Test func namesGroupedBeforehandAreUsedOnlyForTheirLedger() throws {
        let l = SuggestIndexTests.ledger(count: 300, seed: 21)
        var fresh = SuggestIndex(ledger: l)
        var prepared = SuggestIndex(ledger: l, nameGroups: NameGroups(l.merchants))
        var fewer = Ledger()
        for name in SuggestIndexTests.merchants.prefix(5) where !name.isEmpty { _ = fewer.merchants.intern(name) }
        var other = SuggestIndex(ledger: l, nameGroups: NameGroups(fewer.merchants))
        // Given and kept, or not kept, before any suggestion has asked for them.
        #expect(prepared.live?.namesGrouped == true && fresh.live?.namesGrouped == false)
        try #require(other.live?.namesGrouped == false)
        let a = SuggestIndexTests.everything(&fresh, l)
        #expect(SuggestIndexTests.everything(&prepared, l) == a && SuggestIndexTests.everything(&other, l) == a)
        #expect(a.contains { !$0.isEmpty })
    }

    /// A bulk plan (`apply suggestions`) works the rows out merchants alike together and records them in row
    /// order: the same change set, deltas and overflow as the row-by-row index's, which works in row order.
    @Test(arguments: [7, 8]) func bulkPlansAreTheSame(seed: UInt64) throws {
        var l1 = SuggestIndexTests.ledger(count: 500, seed: seed), l2 = l1
        var live = SuggestIndex(ledger: l1)
        var counted = SuggestIndex(ledger: l2, rows: Array(0..<l2.count))
        let rows = Array(stride(from: 0, to: l1.count, by: 2))
        let a = try #require(live.plan(ledger: &l1, rows: rows, minConfidence: 0.3, fields: Set(SuggestIndex.Field.allCases), maxTags: 3))
        let b = try #require(counted.plan(ledger: &l2, rows: rows, minConfidence: 0.3, fields: Set(SuggestIndex.Field.allCases), maxTags: 3))
        #expect(a.changes.rows == b.changes.rows && a.changes.fields == b.changes.fields && a.changes.after == b.changes.after)
        #expect(a.changes.count > 50)
        #expect(a.changedRows == b.changedRows && a.overflow == b.overflow && !a.overflow.isEmpty)
        for f in ChangeSet.Field.allCases {
            #expect((a.deltas[f] ?? []).map { "\($0.0) \($0.1)" } == (b.deltas[f] ?? []).map { "\($0.0) \($0.1)" })
        }
    }

    /// Rows alike in merchant, amount and their own values share one working-out in a bulk plan: the plan is the
    /// one that works out every row itself (this ledger's rows repeat those often, with different own values).
    @Test(arguments: [9, 10, 11]) func sharedWorkingOutIsEveryRowsOwn(seed: UInt64) throws {
        var l1 = SuggestIndexTests.ledger(count: 600, seed: seed), l2 = l1
        var shared = SuggestIndex(ledger: l1), own = SuggestIndex(ledger: l2)
        let rows = Array(0..<l1.count)
        for (threshold, maxTags) in [(0.3, 3), (0.0, 2), (0.6, 10)] {
            let fields = Set(SuggestIndex.Field.allCases)
            let a = try #require(shared.plan(ledger: &l1, rows: rows, minConfidence: threshold, fields: fields, maxTags: maxTags, sharing: true))
            let b = try #require(own.plan(ledger: &l2, rows: rows, minConfidence: threshold, fields: fields, maxTags: maxTags, sharing: false))
            #expect(a.changes.rows == b.changes.rows && a.changes.fields == b.changes.fields, "\(threshold)")
            #expect(a.changes.before == b.changes.before && a.changes.after == b.changes.after, "\(threshold)")
            #expect(a.changedRows == b.changedRows && a.overflow == b.overflow, "\(threshold)")
            for f in ChangeSet.Field.allCases {
                #expect((a.deltas[f] ?? []).map { "\($0.0) \($0.1)" } == (b.deltas[f] ?? []).map { "\($0.0) \($0.1)" }, "\(f)")
            }
            #expect(a.changes.count > 100)
        }
        #expect(l1.tagSets.count == l2.tagSets.count)
    }

    /// What a plan shares its working-out by decides a row's suggestions: rows with the same key get the same
    /// suggestions, with the same confidence and evidence (amounts in two currencies make the currency count).
    @Test(arguments: [12, 13]) func rowsWithOnePlanKeyGetTheSameSuggestions(seed: UInt64) {
        let l = SuggestIndexTests.ledger(count: 600, seed: seed)
        var index = SuggestIndex(ledger: l)
        var first: [SuggestIndex.PlanKey: [ScoredSuggestion]] = [:]
        var repeated = 0
        for row in 0..<l.count {
            let mine = index.suggest(row: row, ledger: l, threshold: 0)
            let key = SuggestIndex.PlanKey(row: row, ledger: l)
            if let theirs = first[key] {
                repeated += 1
                #expect(mine == theirs, "row \(row)")
            } else {
                first[key] = mine
            }
        }
        #expect(repeated > 100)
    }

    /// `suggest rules` finds each proposal's rows from its merchants' rows and the scope read once: what each
    /// proposal says it matches and would change is what planning its rule over the whole ledger gives (names that
    /// contain another, a scope, and a scope with `or`, which is evaluated whole).
    @Test(arguments: ["", "amt:<-2", "amt:<-2 or cat:Food", "not tag:gift"]) func proposalsCountWhatTheirRulesDo(scope: String) throws {
        var l = SuggestIndexTests.ledger(count: 800, seed: 14)
        var rows = Array(0..<l.count)
        if !scope.isEmpty {
            let q = try QueryParser.parse(Lexer.words(in: scope))
            rows = QueryEvaluator(ledger: l).rows(matching: q).rows.map { $0 }
        }
        let proposals = try Suggester.proposeRules(ledger: &l, rows: rows, scope: scope, existing: [], maxTags: 3, minimumPrecision: 0.3)
        #expect(proposals.count >= 5)
        #expect(proposals.contains { p in p.matched > l.merchant.filter { l.merchants[$0] == p.reason.split(separator: ":")[0] }.count }
                || scope.contains("amt"), "some proposal matches more merchants than its own")
        for p in proposals {
            var copy = l
            let plan = try Planner.plan([p.rule], ledger: &copy, selection: [], maxTags: 3)
            #expect(plan.matched == p.matched && plan.changedRows.count == p.wouldChange, "\(p.rule.definition)")
        }
    }

    /// Through changes and their undoing, the index kept current agrees with one counted afresh.
    /// The words whose merchants hold a `scanShare`-th of the rows, counted beforehand (as the prompt does while it
    /// waits), are the words that many rows have, and suggest what they suggest when counted as asked: at once,
    /// and after changes, which reach the tallies kept.
    @Test(arguments: [51, 52] as [UInt64]) func largeWordsCountedBeforehandSuggestAsWhenAsked(seed: UInt64) throws {
        var l = SuggestIndexTests.ledger(count: 600, seed: seed)
        let share = 8
        var rowsByWord: [String: Int] = [:]
        for r in 0..<l.count where l.merchant[r] != 0 {
            for w in Suggester.significantWords(l.merchants[l.merchant[r]]) { rowsByWord[w, default: 0] += 1 }
        }
        let large = Set(rowsByWord.filter { $0.value >= (l.count + share - 1) / share }.keys)
        // Some words are over the line and some under, so that the sum of rows decides.
        try #require(!large.isEmpty && large.count < rowsByWord.count)
        var before = SuggestIndex(ledger: l, scanShare: share)
        var asked = SuggestIndex(ledger: l, scanShare: share)
        #expect(Set(before.live?.largeWords(ledger: l) ?? []) == large)
        before.countLargeGroups(ledger: l)
        #expect(before.live?.keptGroups == large.count && asked.live?.keptGroups == 0)
        SuggestIndexTests.expectSame(&before, &asked, l)
        var rng = SplitMix(seed: seed)
        for _ in 0..<3 {
            let c = SuggestIndexTests.applyRandomChanges(&l, &rng)
            before.update(c, reverted: false, ledger: l)
            asked.update(c, reverted: false, ledger: l)
            SuggestIndexTests.expectSame(&before, &asked, l)
        }
    }

    @Test(arguments: [5, 6]) func followsChangesAsAFreshIndex(seed: UInt64) {
        var l = SuggestIndexTests.ledger(count: 300, seed: seed)
        var rng = SplitMix(seed: seed)
        var live = SuggestIndex(ledger: l)
        _ = SuggestIndexTests.everything(&live, l) // counted before the changes, so the changes must reach them
        var steps: [ChangeSet] = []
        for _ in 0..<4 {
            // One step: 40 rows, each with one field changed, as a command makes them.
            var c = ChangeSet()
            var rows = Set<Int>()
            while rows.count < 40 { rows.insert(Int(rng.next() % UInt64(l.count))) }
            for row in rows.sorted() { SuggestIndexTests.recordRandomChange(row: row, l, &rng, into: &c) }
            SuggestIndexTests.change(c, &l, &live)
            steps.append(c)
        }
        for c in steps.reversed() {
            l.revert(c)
            live.update(c, reverted: true, ledger: l)
        }
        var fresh = SuggestIndex(ledger: l, rows: Array(0..<l.count))
        SuggestIndexTests.expectSame(&live, &fresh, l)
    }

    /// Changes of a few rows (a `review` decision, `a` for a merchant's rows) forget what was counted only for
    /// the keys of the merchants they touch: after each, every suggestion is still what a fresh row-by-row count
    /// gives, whether its counts were kept or counted again.
    @Test(arguments: [31, 32, 33] as [UInt64]) func fewChangesForgetOnlyTheirKeys(seed: UInt64) {
        var rng = SplitMix(seed: seed)
        // Merchants of a row or two each (so that their alike names and words are evidence), alike by the hundred
        // and sharing words (groups of 64 rows or more, whose counts are kept, and brought up to date).
        var l = Ledger()
        let names = (0..<100).flatMap { ["CAFE \($0)", "CAFE ROMA \($0)", "ROMA PIZZA \($0)", "UBER \($0)"] }.map { l.merchants.intern($0) }
        let categories = ["Food", "Travel", "Bills"].map { l.categories.intern($0) }
        let tags = ["coffee", "work", "trip/rome"].map { l.tags.intern($0) }
        let eur = l.currencies.intern("EUR")
        for _ in 0..<700 {
            let annotated = rng.next() % 3 != 0
            var set: [UInt32] = []
            if annotated { for t in tags where rng.next() % 3 == 0 { set.append(t) } }
            l.append(day: Day(year: 2025, month: 1, day: 1)!, merchant: names[Int(rng.next() % UInt64(names.count))],
                     amount: SuggestIndexTests.euros(1 + rng.next() % 3), currency: eur, account: 0,
                     intent: annotated && rng.next() % 2 == 0 ? Intent.allCases[Int(rng.next() % 4)] : nil,
                     category: annotated && rng.next() % 3 != 0 ? categories[Int(rng.next() % 3)] : 0,
                     tagSet: l.tagSets.intern(set), note: 0)
        }
        var live = SuggestIndex(ledger: l)
        _ = SuggestIndexTests.everything(&live, l) // counted and kept, before any change
        for step in 0..<24 {
            var c = ChangeSet()
            // One row; or the rows of one merchant; or a row of each of three merchants.
            let first = Int(rng.next() % UInt64(l.count))
            let rows: [Int]
            switch step % 3 {
            case 0: rows = [first]
            case 1: rows = (0..<l.count).filter { l.merchant[$0] == l.merchant[first] }
            default: rows = Array(Set([first, (first + 101) % l.count, (first + 202) % l.count])).sorted()
            }
            for row in rows { SuggestIndexTests.recordRandomChange(row: row, l, &rng, into: &c) }
            SuggestIndexTests.change(c, &l, &live)
            if step % 4 == 3 { SuggestIndexTests.change(c, reverted: true, &l, &live) }
        }
    }

    /// One large group of merchants alike (so its amounts' rows are kept, and its tallies), changed a row at a
    /// time: its amounts' rows and its tallies are brought up to date.
    @Test(arguments: [41, 42, 43] as [UInt64]) func aLargeGroupChangedRowByRow(seed: UInt64) {
        var rng = SplitMix(seed: seed)
        var l = Ledger()
        let ids = ((1...8).map { "SHOP \($0)" } + ["OTHER 1", "OTHER 2", "MARKET"]).map { l.merchants.intern($0) }
        let categories = ["Food", "Travel", "Bills"].map { l.categories.intern($0) }
        for _ in 0..<400 {
            let annotated = rng.next() % 2 == 0
            l.append(day: Day(year: 2025, month: 1, day: 1)!, merchant: ids[Int(rng.next() % UInt64(ids.count))],
                     amount: SuggestIndexTests.euros(1 + rng.next() % 3), currency: 0, account: 0,
                     intent: annotated && rng.next() % 2 == 0 ? Intent.allCases[Int(rng.next() % 4)] : nil,
                     category: annotated ? categories[Int(rng.next() % 3)] : 0, tagSet: 0, note: 0)
        }
        var live = SuggestIndex(ledger: l)
        _ = SuggestIndexTests.everything(&live, l)
        for _ in 0..<30 {
            var c = ChangeSet()
            let row = Int(rng.next() % UInt64(l.count))
            if rng.next() % 2 == 0 {
                c.record(row: row, field: .category, before: l.category[row], after: rng.next() % 3 == 0 ? 0 : categories[Int(rng.next() % 3)])
            } else {
                c.record(row: row, field: .intent, before: UInt32(l.intent[row]), after: UInt32(rng.next() % 5))
            }
            SuggestIndexTests.change(c, &l, &live)
        }
    }

    /// A change names no key: an alike name is spelled as a fresh index spells it (the first merchant alike with
    /// an annotation), not as the ledger stood in the middle of a change that was undone.
    @Test func aChangeNamesNoKey() {
        var l = Ledger()
        let a = l.merchants.intern("Cafe 1"), b = l.merchants.intern("CAFE 2"), x = l.merchants.intern("OTHER")
        let food = l.categories.intern("Food")
        for (m, c) in [(a, 0), (b, food), (b, food), (b, food), (x, food), (x, food), (x, food), (a, 0)] as [(UInt32, UInt32)] {
            l.append(day: Day(year: 2025, month: 1, day: 1)!, merchant: m, amount: Amount(units: -100, scale: 2), currency: 0,
                     account: 0, intent: nil, category: c, tagSet: 0, note: 0)
        }
        var live = SuggestIndex(ledger: l)
        _ = live.suggest(row: 4, ledger: l, threshold: 0)
        var c = ChangeSet()
        c.record(row: 0, field: .category, before: 0, after: food)
        l.apply(c)
        live.update(c, ledger: l)
        l.revert(c)
        live.update(c, reverted: true, ledger: l)
        var fresh = SuggestIndex(ledger: l)
        let got = live.suggest(row: 7, ledger: l, threshold: 0).map(\.evidence)
        #expect(got == fresh.suggest(row: 7, ledger: l, threshold: 0).map(\.evidence))
        #expect(got.contains { $0.contains("CAFE") })
    }

    /// Forty random changes of random rows (`recordRandomChange`), applied to `l`; the change set, for the indexes.
    static func applyRandomChanges(_ l: inout Ledger, _ rng: inout SplitMix) -> ChangeSet {
        var c = ChangeSet()
        for _ in 0..<40 { recordRandomChange(row: Int(rng.next() % UInt64(l.count)), l, &rng, into: &c) }
        l.apply(c)
        return c
    }

    /// Records a random change of one field of `row`: a category, an intent or a tag set of the ledger's.
    static func recordRandomChange(row: Int, _ l: Ledger, _ rng: inout SplitMix, into c: inout ChangeSet) {
        switch rng.next() % 3 {
        case 0: c.record(row: row, field: .category, before: l.category[row], after: UInt32(rng.next() % 5))
        case 1: c.record(row: row, field: .intent, before: UInt32(l.intent[row]), after: UInt32(rng.next() % 5))
        default: c.record(row: row, field: .tags, before: l.tagSet[row], after: UInt32(rng.next() % UInt64(l.tagSets.count)))
        }
    }

    /// Makes `c` (or takes it back), tells the index, and expects what a fresh row-by-row count gives.
    static func change(_ c: ChangeSet, reverted: Bool = false, _ l: inout Ledger, _ live: inout SuggestIndex,
                       sourceLocation: SourceLocation = #_sourceLocation) {
        if reverted { l.revert(c) } else { l.apply(c) }
        live.update(c, reverted: reverted, ledger: l)
        var fresh = SuggestIndex(ledger: l, rows: Array(0..<l.count))
        SuggestIndexTests.expectSame(&live, &fresh, l, sourceLocation: sourceLocation)
    }

    static func expectSame(_ a: inout SuggestIndex, _ b: inout SuggestIndex, _ l: Ledger, sourceLocation: SourceLocation = #_sourceLocation) {
        let x = values(&a, l), y = values(&b, l)
        let differ = (0..<l.count).first { x[$0] != y[$0] }
        #expect(differ == nil, "row \(differ ?? 0): \(differ.map { x[$0] } ?? []) against \(differ.map { y[$0] } ?? [])", sourceLocation: sourceLocation)
    }

    /// What was suggested and how sure, without the evidence's wording (an alike group's spelling is the one
    /// first met, which differs between an index counted before changes and one counted after).
    static func values(_ index: inout SuggestIndex, _ l: Ledger) -> [[String]] {
        everything(&index, l).map { $0.map { "\($0.value) \($0.confidence)" } }
    }

    /// A suggestion at a threshold is every field's candidates at that threshold, best first, and the best
    /// candidate is the first of them: those under the threshold are left out as the scores are counted, and only
    /// those shown have their evidence worded. (Tags of many values per word, so that a row has dozens of candidates.)
    @Test(arguments: [15, 16]) func suggestionsAtAThresholdAreTheCandidatesOverIt(seed: UInt64) {
        var rng = SplitMix(seed: seed)
        var l = SuggestIndexTests.ledger(count: 300, seed: seed)
        let extra = (0..<40).map { l.tags.intern("batch\($0)") }
        for row in 0..<l.count where rng.next() % 2 == 0 {
            l.tagSet[row] = l.tagSets.intern(Array(Set(l.tagSets[l.tagSet[row]] + [extra[Int(rng.next() % 40)], extra[Int(rng.next() % 8)]])).sorted())
        }
        var index = SuggestIndex(ledger: l)
        var most = 0
        // (Around the weights of merchants alike, 0.9, and words, 0.75: over a level's weight its rows are not counted.)
        for threshold in [0.0, 0.2, 0.35, 0.5, 0.6, 0.7, 0.74, 0.75, 0.76, 0.8, 0.85, 0.89, 0.9, 0.91] {
            for row in 0..<l.count {
                var all: [ScoredSuggestion] = []
                for f in SuggestIndex.Field.allCases {
                    let every = index.candidates(row: row, field: f, ledger: l)
                    most = max(most, every.count)
                    #expect(index.candidates(row: row, field: f, ledger: l, limit: 1) == Array(every.prefix(1)), "row \(row) \(f)")
                    all += every.filter { $0.confidence >= threshold }
                }
                let expected = all.sorted { $0.confidence > $1.confidence }
                #expect(index.suggest(row: row, ledger: l, threshold: threshold) == expected, "row \(row) at \(threshold)")
            }
        }
        #expect(most >= 10)
    }

    /// Merchants alike and words give at most their weight (0.9, 0.75) of confidence, so over it their rows are not
    /// counted: at every threshold, a suggestion is still every candidate at or over it. (Merchants of a row or two,
    /// so that merchants alike and words are looked at; `CAFE n` alike and in Food, `RIVER xxQ` each alike only to
    /// itself but sharing the word `river`, tagged `boat`; a seventh of each without: candidates just under each
    /// weight.)
    @Test func levelsOverTheirWeightAreNotCounted() {
        var rng = SplitMix(seed: 71)
        var l = Ledger()
        let letters = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ")
        let cafes = (0..<60).map { l.merchants.intern("CAFE \($0)") }
        let rivers = (0..<60).map { l.merchants.intern("RIVER \(letters[$0 / 26])\(letters[$0 % 26])Q") }
        let food = l.categories.intern("Food"), boat = l.tagSets.intern([l.tags.intern("boat")])
        for i in 0..<200 {
            let cafe = i % 2 == 0, annotated = rng.next() % 7 != 0 // (the others are the ones suggested for)
            let m = cafe ? cafes[Int(rng.next() % 60)] : rivers[Int(rng.next() % 60)]
            l.append(day: Day(year: 2025, month: 1, day: 1)!, merchant: m, amount: Amount(units: -Int64(100 + i), scale: 2), currency: 0,
                     account: 0, intent: nil, category: cafe && annotated ? food : 0, tagSet: !cafe && annotated ? boat : 0, note: 0)
        }
        var index = SuggestIndex(ledger: l)
        var near = (alike: false, word: false)
        for threshold in [0.0, 0.5, 0.6, 0.7, 0.72, 0.74, 0.75, 0.76, 0.8, 0.85, 0.88, 0.9, 0.91] {
            for row in 0..<l.count {
                var all: [ScoredSuggestion] = []
                for f in SuggestIndex.Field.allCases {
                    let every = index.candidates(row: row, field: f, ledger: l)
                    for c in every {
                        if c.evidence.contains("named like"), c.confidence > 0.7 { near.alike = true }
                        if c.evidence.contains("in the name"), c.confidence > 0.6 { near.word = true }
                    }
                    all += every.filter { $0.confidence >= threshold }
                }
                let expected = all.sorted { $0.confidence > $1.confidence }
                #expect(index.suggest(row: row, ledger: l, threshold: threshold) == expected, "row \(row) at \(threshold)")
            }
        }
        #expect(near.alike && near.word, "\(near)")
    }

    /// A field no transaction has a value in is not looked for; one that only two have is, from merchants alike.
    @Test func aFieldFewTransactionsHaveIsStillFound() throws {
        var l = Ledger()
        let food = l.categories.intern("Food")
        for (name, category) in [("SHOP 1", food), ("SHOP 2", food), ("SHOP 3", 0), ("OTHER", 0)] {
            l.append(day: Day(year: 2025, month: 1, day: 1)!, merchant: l.merchants.intern(name), amount: Amount(units: -100, scale: 2),
                     currency: 0, account: 0, intent: nil, category: category, tagSet: 0, note: 0)
        }
        for rows in [nil, [0, 1, 2, 3]] as [[Int]?] {
            var index = SuggestIndex(ledger: l, rows: rows)
            let found = index.suggest(row: 2, ledger: l, threshold: 0)
            #expect(found.contains { $0.value == .category("Food") }, "\(found)")
            #expect(!found.contains { if case .intent = $0.value { true } else { false } })
        }
    }

    /// A `review` goes from one group of merchants alike to another and back; the amounts of more large groups
    /// than are kept are asked for in turns, and every answer is the row-by-row index's.
    @Test func amountsOfManyLargeGroupsInTurns() {
        var l = Ledger()
        let names = ["ALPHA", "BRAVO", "CHARLIE", "DELTA", "ECHO", "FOXTROT", "GOLF", "HOTEL", "INDIA", "JULIET", "KILO", "LIMA"]
        #expect(names.count > LiveEvidence.amountGroupsKept)
        let categories = ["Food", "Travel", "Bills"].map { l.categories.intern($0) }
        let eur = l.currencies.intern("EUR")
        var rng = SplitMix(seed: 17)
        for i in 0..<(names.count * 90) {
            let g = i % names.count
            let merchant = l.merchants.intern("\(names[g]) \(rng.next() % 40)")
            l.append(day: Day(year: 2025, month: 1, day: 1)!, merchant: merchant, amount: SuggestIndexTests.euros(1 + rng.next() % 3),
                     currency: eur, account: 0, intent: nil, category: rng.next() % 4 == 0 ? 0 : categories[(g + Int(rng.next() % 2)) % 3],
                     tagSet: 0, note: 0)
        }
        var live = SuggestIndex(ledger: l)
        var counted = SuggestIndex(ledger: l, rows: Array(0..<l.count))
        // Each group in turn, then back again in another order, so that groups are dropped and counted again; then
        // one group between each of the others (A B A C A D ...), so that it is found again and kept.
        let n = names.count
        let order = Array(0..<l.count) + (0..<l.count).map { ($0 * 7) % l.count }.reversed()
            + (0..<l.count).map { $0 % 2 == 0 ? ($0 / 2 * n) % l.count : $0 }
        var amountEvidence = 0
        func compare(_ rows: [Int], with counted: inout SuggestIndex) {
            for row in rows {
                let a = live.suggest(row: row, ledger: l, threshold: 0), b = counted.suggest(row: row, ledger: l, threshold: 0)
                #expect(a == b, "row \(row)")
                amountEvidence += a.filter { $0.evidence.contains("-like transactions of") }.count
            }
        }
        compare(order, with: &counted)
        #expect(amountEvidence > 100)
        // A change to rows of every group: what was kept of their amounts is counted again.
        var c = ChangeSet()
        for row in stride(from: 0, to: l.count, by: 3) { c.record(row: row, field: .category, before: l.category[row], after: categories[row % 3]) }
        l.apply(c)
        live.update(c, ledger: l)
        var fresh = SuggestIndex(ledger: l, rows: Array(0..<l.count))
        compare(Array(0..<(2 * n)) + order.suffix(l.count), with: &fresh)
    }

    /// A group's annotated rows by amount (`AmountRows`, an open-addressed table that grows) are what grouping the
    /// rows in a dictionary gives: the same amounts, each with the same rows in the same order, none for the
    /// others; amounts alike in units but not in scale or currency are apart. A later `set` is read first.
    @Test func amountRowsAreTheRowsByAmount() {
        var rng = SplitMix(seed: 51)
        var l = Ledger()
        let merchants = ["SHOP 1", "SHOP 2", "SHOP 3"].map { l.merchants.intern($0) }
        let currencies = [l.currencies.intern("EUR"), l.currencies.intern("USD")]
        let food = l.categories.intern("Food")
        for _ in 0..<6000 {
            let annotated = rng.next() % 3 != 0
            l.append(day: Day(year: 2025, month: 1, day: 1)!, merchant: merchants[Int(rng.next() % 3)],
                     amount: Amount(units: Int64(rng.next() % 900) - 450, scale: UInt8(rng.next() % 2 + 1)),
                     currency: currencies[Int(rng.next() % 2)], account: 0,
                     intent: annotated && rng.next() % 2 == 0 ? .want : nil, category: annotated ? food : 0, tagSet: 0, note: 0)
        }
        let groups = KeyedGroups(rowsByMerchantOf: l)
        let group = [merchants[2], merchants[0]]
        var expected: [AmountRows.Amount: [Int32]] = [:]
        for m in group {
            for r in groups[m] where l.category[Int(r)] != 0 || l.intent[Int(r)] != 0 {
                expected[AmountRows.Amount(units: l.amountUnits[Int(r)], scale: l.amountScale[Int(r)], currency: l.currency[Int(r)]), default: []].append(Int32(r))
            }
        }
        #expect(expected.count > 1000) // grown many times over
        var table = AmountRows(group, groups: groups, ledger: l)
        for (amount, rows) in expected { #expect(table[amount].map(Array.init) == rows, "\(amount)") }
        var absent = 0
        for units in -460..<460 {
            for scale in [1, 2, 3] as [UInt8] {
                for c in currencies + [7] {
                    let a = AmountRows.Amount(units: Int64(units), scale: scale, currency: c)
                    if expected[a] == nil { absent += 1; #expect(table[a] == nil, "\(a)") }
                }
            }
        }
        #expect(absent > 1000)
        let (some, rows) = expected.first!
        table.set(some, rows: [rows[0]])
        #expect(table[some].map(Array.init) == [rows[0]])
        table.set(some, rows: [])
        #expect(table[some] == nil)
    }

    /// Names read in two halves on two cores and joined give the groups one reading gives: the same members for
    /// every alike name and word, and the same partition into groups alike (`alikeOf`).
    @Test func namesReadInHalvesGroupAsInOne() {
        var names = StringTable()
        var rng = SplitMix(seed: 9)
        let words = ["cafe", "roma", "uber", "trip", "épicerie", "e\u{301}picerie", "markt", "the", "shop", "Straße"]
        for i in 0..<3_000 {
            let a = words[Int(rng.next() % UInt64(words.count))], b = words[Int(rng.next() % UInt64(words.count))]
            _ = names.intern(i % 7 == 0 ? "\(i)" : "\(a.uppercased()) \(b) \(i % 13)")
        }
        let one = NameGroups(names, parallelThreshold: .max), two = NameGroups(names, parallelThreshold: 100)
        var keys = Set<String>(), wordKeys = Set<String>()
        for id in names.ids {
            keys.insert(SuggestIndex.alikeName(names[id]))
            wordKeys.formUnion(Suggester.significantWords(names[id]))
        }
        for k in keys { #expect(Set(one.alike(k)) == Set(two.alike(k)) && !one.alike(k).isEmpty, "\(k)") }
        for w in wordKeys { #expect(Set(one.word(w)) == Set(two.word(w)) && !one.word(w).isEmpty, "\(w)") }
        // The same partition: two names share a group in one reading exactly when they do in the other.
        var pairs: [UInt32: UInt32] = [:]
        for id in names.ids {
            if let seen = pairs[one.alikeOf[Int(id)]] { #expect(two.alikeOf[Int(seen)] == two.alikeOf[Int(id)]) } else { pairs[one.alikeOf[Int(id)]] = id }
        }
        #expect(Set(names.ids.map { one.alikeOf[Int($0)] }).count == Set(names.ids.map { two.alikeOf[Int($0)] }).count)
    }

    /// The bytes' reading of ASCII names is the `String` one: alike names and significant words.
    @Test func asciiNamesReadAsStrings() {
        let names = ["CAFE 12", "UBER *TRIP 8XYZ", "a1b c", "--x--", "THE AND GMBH", "ab abc abcd", "x9 y z10", "Tab\there", "",
                     "STARBUCKS 1234", "pos sq *cafe", "Caf3 Roma", "ROMA_ROMA", "123 456"]
        var scratch: [UInt8] = []
        for name in names {
            let bytes = Array(name.utf8)
            bytes.withUnsafeBufferPointer { b in
                #expect(String(decoding: LiveEvidence.alikeName(ascii: b, into: &scratch), as: UTF8.self) == SuggestIndex.alikeName(name), "\(name)")
                var words = Set<String>()
                LiveEvidence.forEachSignificantWord(ascii: b) { words.insert(String(decoding: $0, as: UTF8.self)) }
                #expect(words == Suggester.significantWords(name), "\(name)")
            }
        }
    }
}
