import Foundation
import Testing
import TagshModel
import TagshQuery
import TagshRules
@testable import TagshShell
import TagshTestSupport

struct RuleProperties {
    static let queries = ["'shop 1'", "amt:<-5", "tag:coffee", "cat:food", "-tag:work", "date:2024-01..2024-05", "id:3..9",
                          "tag:none or intent:need", "'desc:/shop [2-4]/'", "cat:none amt:>3"]
    static let actions = ["category Food", "category Travel", "category none", "intent want", "intent none", "+coffee",
                          "-coffee", "+gift", "-work", "note 'from a rule'", "note ''", "+trip/paris"]

    /// A reference for what rules do, written independently of the planner:
    /// rules in order on the state before applying; later category, intent
    /// and note win; tag removals, then additions, accumulate.
    static func reference(_ ledger: Ledger, _ rules: [Rule]) -> [Transaction] {
        let evaluator = QueryEvaluator(ledger: ledger)
        let matches = rules.map { evaluator.rows(matching: $0.query) }
        return (0..<ledger.count).map { row in
            var t = ledger.transaction(row)
            for (i, rule) in rules.enumerated() where matches[i].contains(row) {
                var adds: [String] = [], removes: [String] = []
                for a in rule.actions {
                    switch a {
                    case .category(let c): t.category = c.map { ledger.categories[ledger.categories.id(of: $0)!].name }
                    case .intent(let v): t.intent = v
                    case .note(let n): t.note = n
                    case .addTag(let tag):
                        adds.append(tag); removes.removeAll { $0.lowercased() == tag.lowercased() }
                    case .removeTag(let tag):
                        removes.append(tag); adds.removeAll { $0.lowercased() == tag.lowercased() }
                    }
                }
                t.tags.removeAll { tag in removes.contains { $0.lowercased() == tag.lowercased() } }
                for a in adds where !t.tags.contains(where: { $0.lowercased() == a.lowercased() }) { t.tags.append(a) }
            }
            return t
        }
    }

    /// A session on `csv`, written to a scratch folder (`dir`, for the caller to remove), with room for many tags.
    static func opened(_ csv: String) throws -> (session: Session, sink: BufferSink, dir: URL) {
        let dir = try scratchFolder("tagsh-rules")
        let path = dir.appendingPathComponent("l.csv").path
        try csv.write(toFile: path, atomically: true, encoding: .utf8)
        let sink = BufferSink()
        let session = Session(sink: sink)
        session.settings.maxTags = 100
        try #require(session.execute("open \(path)") == .ok)
        return (session, sink, dir)
    }

    /// One to three rules `r0`, `r1`…, each a random query with one to `most` random actions; returns their names.
    static func defineRules(_ session: Session, _ sink: BufferSink, _ rng: inout SplitMix,
                            queries: [String], actions: [String], most: Int) throws -> [String] {
        var names: [String] = []
        for r in 0..<Int.random(in: 1...3, using: &rng) {
            let acts = (0..<Int.random(in: 1...most, using: &rng)).map { _ in actions.randomElement(using: &rng)! }
            let line = "rule r\(r) \(queries.randomElement(using: &rng)!) => \(acts.joined(separator: ", "))"
            try #require(session.execute(line) == .ok, "\(line): \(sink.err)")
            names.append("r\(r)")
        }
        return names
    }

    @Test(arguments: 1...80)
    func appliedEqualsPreviewedEqualsReference(seed: Int) throws {
        var rng = SplitMix(seed: UInt64(seed) &* 7919)
        let (session, sink, dir) = try Self.opened(AnnotationProperties.ledger(&rng))
        defer { try? FileManager.default.removeItem(at: dir) }
        let names = try Self.defineRules(session, sink, &rng, queries: Self.queries, actions: Self.actions, most: 3)
        let before = session.ledger!
        let expected = Self.reference(before, session.rules)
        try #require(session.execute("preview \(names.joined(separator: " "))") == .ok, "\(sink.err)")
        let previewed = try #require(session.lastPreview?.plan)
        try #require(session.execute("apply") == .ok, "\(sink.err)")
        let applied = session.steps.last?.changes
        if previewed.changes.isEmpty {
            // Nothing to change: apply adds no step, so the last one is still a rule definition.
            #expect(session.steps.last.map { !$0.rules.isEmpty } ?? false)
        } else {
            #expect(applied?.rows == previewed.changes.rows)
            #expect(applied?.fields == previewed.changes.fields)
            #expect(applied?.before == previewed.changes.before)
            #expect(applied?.after == previewed.changes.after)
        }
        let after = session.ledger!
        let actual = (0..<after.count).map(after.transaction)
        #expect(actual == expected, "seed \(seed): \(session.rules.map(\.definition))")
        // The preview's changed rows are exactly the rows that differ.
        let differing = (0..<before.count).filter { before.transaction($0) != after.transaction($0) }
        #expect(previewed.changedRows == differing)
        // Undo restores the ledger as it was.
        if !previewed.changes.isEmpty { session.execute("undo") }
        #expect((0..<before.count).map(session.ledger!.transaction) == (0..<before.count).map(before.transaction))
    }
}

extension RuleProperties {
    /// 9,000 rows, nearly every one with a tag set of its own, in random orders.
    static func distinctSets(_ rng: inout SplitMix) -> String {
        var csv = "Date,Description,Amount,Tags\n"
        for i in 0..<9_000 {
            let tags = ["t\(i % 7)", "u\(i)", i % 3 == 0 ? "coffee" : "", i % 5 == 0 ? "gift" : ""].filter { !$0.isEmpty }.shuffled(using: &rng)
            csv += "2024-01-\(10 + i % 19),SHOP \(i % 40),-\(i % 90).25,\(tags.joined(separator: ";"))\n"
        }
        return csv
    }

    /// `tag` on thousands of distinct tag sets interns the sets it makes all at once, too: each row gets its tags
    /// less those removed, plus those added, and the table holds each set once.
    @Test(arguments: [["+coffee"], ["-coffee", "+new"], ["+t3", "-gift", "+x"], ["-t3"]])
    func tagOnManyDistinctSets(_ edits: [String]) throws {
        var rng = SplitMix(seed: UInt64(edits.count) &* 31)
        let (session, _, dir) = try Self.opened(Self.distinctSets(&rng))
        defer { try? FileManager.default.removeItem(at: dir) }
        let before = session.ledger!
        try #require(session.execute("tag 2-8000 " + edits.joined(separator: " ")) == .ok)
        let after = session.ledger!
        let adds = edits.filter { $0.hasPrefix("+") }.map { String($0.dropFirst()) }
        let removes = edits.filter { $0.hasPrefix("-") }.map { String($0.dropFirst()) }
        let wrong = (0..<before.count).first { row in
            var tags = before.transaction(row).tags
            if (1..<8_000).contains(row) {
                tags.removeAll { removes.contains($0) }
                for a in adds where !tags.contains(a) { tags.append(a) }
            }
            return after.transaction(row).tags != tags
        }
        #expect(wrong == nil, "row \(wrong.map { $0 + 1 } ?? 0)")
        let changed = (0..<before.count).filter { before.tagSet[$0] != after.tagSet[$0] }
        #expect(session.steps.last?.changes.rows.map(Int.init) == changed)
        #expect(Set((0..<after.tagSets.count).map { Array(after.tagSets[UInt32($0)]) }).count == after.tagSets.count)
    }

    /// With thousands of distinct tag sets, the sets rules make are interned all at once (`TagSetTable.intern(all:)`)
    /// after the plan: what is applied is still the reference, and the tag deltas are those counted row by row
    /// (gains in the new set's order, then losses in the old one's, in the order first seen).
    @Test(arguments: 1...6)
    func manyDistinctTagSets(seed: Int) throws {
        var rng = SplitMix(seed: UInt64(seed) &* 104_729)
        let (session, sink, dir) = try Self.opened(Self.distinctSets(&rng))
        defer { try? FileManager.default.removeItem(at: dir) }
        let names = try Self.defineRules(session, sink, &rng, queries: ["amt:<-5", "", "id:1..5000", "tag:coffee", "-tag:gift"],
                                         actions: ["+coffee", "-coffee", "+gift", "-gift", "+new", "-t3", "+t3"], most: 2)
        let before = session.ledger!
        let expected = Self.reference(before, session.rules)
        try #require(session.execute("preview \(names.joined(separator: " "))") == .ok, "\(sink.err)")
        let plan = try #require(session.lastPreview?.plan)
        try #require(session.execute("apply") == .ok, "\(sink.err)")
        let after = session.ledger!
        let actual = (0..<after.count).map(after.transaction)
        let wrong = actual.indices.first { actual[$0] != expected[$0] }
        #expect(wrong == nil, "seed \(seed), row \(wrong.map { $0 + 1 } ?? 0): \(session.rules.map(\.definition))")
        #expect(plan.changedRows == (0..<before.count).filter { actual[$0] != before.transaction($0) }, "seed \(seed)")
        #expect(plan.changedCount == plan.changedRows.count, "seed \(seed)")
        let some = Int.random(in: 0...3, using: &rng)
        #expect(plan.changedRows(upTo: some) == Array(plan.changedRows.prefix(some)), "seed \(seed)")
        var counted: [(String, Int)] = []
        for row in 0..<before.count {
            let (old, new) = (before.transaction(row).tags, after.transaction(row).tags)
            for delta in new.filter({ !old.contains($0) }).map({ "+" + $0 }) + old.filter({ !new.contains($0) }).map({ "-" + $0 }) {
                if let i = counted.firstIndex(where: { $0.0 == delta }) { counted[i].1 += 1 } else { counted.append((delta, 1)) }
            }
        }
        let deltas = plan.deltas[.tags] ?? []
        #expect(deltas.map(\.0) == counted.map(\.0) && deltas.map(\.1) == counted.map(\.1), "seed \(seed)")
        // Each set is in the table once: as many sets as distinct tag lists.
        let lists = Set((0..<after.tagSets.count).map { Array(after.tagSets[UInt32($0)]) })
        #expect(lists.count == after.tagSets.count)
    }
}

extension RuleProperties {
    /// One rule over many rows is planned on both cores, half the rows each (`RowPass.join`; here however many tag
    /// sets the table holds): the plan is the one a
    /// single pass makes, change for change and in the same order, with the same tag sets made (and so interned
    /// with the same ids), pairs, deltas, counts, rows past max-tags and rows that cannot take a category.
    @Test(arguments: 1...24)
    func plansOnTwoCoresAsOnOne(seed: Int) throws {
        var rng = SplitMix(seed: UInt64(seed) &* 15_485_863)
        // Half on the ledger of every shape, half on nine thousand distinct tag sets.
        let csv = seed % 2 == 0 ? AnnotationProperties.ledger(&rng) : Self.distinctSets(&rng)
        let (session, sink, dir) = try Self.opened(csv)
        defer { try? FileManager.default.removeItem(at: dir) }
        let (queries, actions) = seed % 2 == 0 ? (Self.queries, Self.actions)
            : (["amt:<-5", "", "id:1..5000", "tag:coffee", "-tag:gift", "tag:t2"],
               ["+coffee", "-coffee", "+gift", "-gift", "+new", "-t3", "+t3", "-t1", "intent want", "category Food", "note 'x'"])
        _ = try Self.defineRules(session, sink, &rng, queries: queries, actions: actions, most: 4)
        let rule = try #require(session.rules.first)
        var one = session.ledger!, two = one
        let maxTags = Int.random(in: 1...4, using: &rng)
        let a = try Planner.plan([rule], ledger: &one, selection: [], maxTags: maxTags, parallelFrom: .max)
        let b = try Planner.plan([rule], ledger: &two, selection: [], maxTags: maxTags, parallelFrom: 2, rowsPerSet: 0)
        let what = "seed \(seed): \(rule.definition)"
        #expect(b.changes.rows == a.changes.rows && b.changes.fields == a.changes.fields, "\(what)")
        #expect(b.changes.before == a.changes.before && b.changes.after == a.changes.after, "\(what)")
        #expect(b.changedRows == a.changedRows && b.matched == a.matched, "\(what)")
        #expect(b.changedCount == b.changedRows.count && a.changedCount == a.changedRows.count, "\(what)")
        #expect(b.overflow == a.overflow && b.noCategory == a.noCategory, "\(what)")
        for f in ChangeSet.Field.allCases {
            #expect((b.deltas[f] ?? []).map { "\($0.0) \($0.1)" } == (a.deltas[f] ?? []).map { "\($0.0) \($0.1)" }, "\(what): \(f)")
        }
        #expect(b.stats.map(\.sets) == a.stats.map(\.sets), "\(what)")
        #expect(two.tagSets.count == one.tagSets.count, "\(what)")
        #expect((0..<one.tagSets.count).allSatisfy { two.tagSets[UInt32($0)] == one.tagSets[UInt32($0)] }, "\(what)")
        #expect(a.changes.count > 0 || seed % 2 == 0, "\(what): nothing planned")
    }

    /// The pairs the second half meets first come after the first half's, in the order it met them: what a
    /// category rule changes from is listed as one pass lists it.
    @Test func theSecondHalfsPairsFollowInItsOrder() throws {
        var csv = "Date,Description,Amount,Category,Tags\n"
        for i in 0..<100 {
            csv += "2024-01-10,SHOP,-\(i + 1).00,\(i < 50 ? "" : i < 75 ? "Travel" : "Bills"),\(i < 50 ? "" : i < 75 ? "a" : "b")\n"
        }
        let (session, sink, dir) = try Self.opened(csv)
        defer { try? FileManager.default.removeItem(at: dir) }
        try #require(session.execute("rule r amt:<0 => category Food, +c") == .ok, "\(sink.err)")
        let rule = try #require(session.rules.first)
        var one = session.ledger!, two = one
        let a = try Planner.plan([rule], ledger: &one, selection: [], maxTags: 5, parallelFrom: .max)
        let b = try Planner.plan([rule], ledger: &two, selection: [], maxTags: 5, parallelFrom: 2, rowsPerSet: 0)
        #expect((a.deltas[.category] ?? []).map(\.0) == ["none → Food", "Travel → Food", "Bills → Food"])
        let text = { (deltas: [(String, Int)]?) -> [String] in (deltas ?? []).map { "\($0.0) \($0.1)" } }
        #expect(text(b.deltas[.category]) == text(a.deltas[.category]))
        #expect(b.changes.after == a.changes.after && two.tagSets.count == one.tagSets.count)
    }
}

struct SuggestionTests {
    /// On the demo, a coffee shop's unannotated visit gets the coffee tag and
    /// a coffee/food category; rent gets nothing it does not have.
    @Test func demoSuggestionsAreSensible() throws {
        let session = Session(sink: BufferSink())
        session.openDemo()
        let ledger = try #require(session.ledger)
        let row = try #require((0..<ledger.count).first {
            ledger.merchants[ledger.merchant[$0]].hasPrefix("STARBUCKS 1234") && ledger.tagSet[$0] == 0 && ledger.category[$0] == 0
        })
        let s = session.suggestions(row: row, threshold: 0.5)
        #expect(s.contains { $0.value == .tag("coffee") })
        #expect(s.contains { if case .category(let c) = $0.value { return ["Food", "Coffee"].contains(c) } else { return false } })
        let netflix = try #require((0..<ledger.count).first { ledger.merchants[ledger.merchant[$0]] == "NETFLIX.COM" && ledger.tagSet[$0] == 0 })
        #expect(session.suggestions(row: netflix, threshold: 0.5).contains { $0.value == .tag("subscription") })
    }

    /// The evidence and confidence are pinned: the share that agrees, with two transactions' worth of the
    /// field's consistency as prior; merchants alike count ×0.9, a shared word ×0.75, the same amount at
    /// merchants alike fully; nothing below the threshold.
    @Test func confidenceEvidenceAndAbstention() throws {
        var l = Ledger()
        func add(_ merchant: String, _ category: String?, _ intent: Intent? = nil, units: Int64 = -500) {
            l.append(day: Day(year: 2025, month: 1, day: 1)!, merchant: l.merchants.intern(merchant), amount: Amount(units: units, scale: 2),
                     currency: l.currencies.intern("EUR"), account: 0, intent: intent, category: category.map { l.categories.intern($0) } ?? 0,
                     tagSet: 0, note: 0)
        }
        for _ in 0..<3 { add("CAFE 12", "Food", .want) }
        add("CAFE 12", nil)                  // row 3: the merchant's own history, 3 of 3
        add("CAFE 99", nil, units: -700)     // row 4: a merchant alike (numbers aside), another amount
        add("CAFE ROMA", nil)                // row 5: a shared word only
        add("HARDWARE", nil)                 // row 6: nothing
        add("CAFE 77", nil)                  // row 7: alike, and the same amount
        var index = SuggestIndex(ledger: l)
        let own = index.suggest(row: 3, ledger: l, threshold: 0)
        // Every category agrees with its merchant's most common one: consistency (3 + 1) / (3 + 2) = 0.8.
        #expect(own.first { if case .category = $0.value { true } else { false } }
                == ScoredSuggestion(value: .category("Food"), confidence: (3 + 2 * 0.8) / 5, evidence: "3 of 3 categorised CAFE 12 transactions are in Food"))
        let alike = index.suggest(row: 4, ledger: l, threshold: 0, fields: [.category])
        #expect(alike == [ScoredSuggestion(value: .category("Food"), confidence: 0.9 * (3 + 2 * 0.8) / 5,
                                           evidence: "3 of 3 categorised transactions of merchants named like CAFE (numbers aside) are in Food")])
        let word = index.suggest(row: 5, ledger: l, threshold: 0, fields: [.category])
        #expect(word == [ScoredSuggestion(value: .category("Food"), confidence: 0.75 * (3 + 2 * 0.8) / 5,
                                          evidence: "3 of 3 categorised transactions of merchants with 'cafe' in the name are in Food")])
        #expect(index.suggest(row: 6, ledger: l, threshold: 0).isEmpty)
        let amount = index.suggest(row: 7, ledger: l, threshold: 0, fields: [.category])
        #expect(amount == [ScoredSuggestion(value: .category("Food"), confidence: (3 + 2 * 0.8) / 5,
                                            evidence: "3 of 3 categorised CAFE-like transactions of -5.00 EUR are in Food")])
        // Abstention: at the default threshold the word-level guess (0.69) is not made; the merchant's own is (0.92).
        #expect(index.suggest(row: 5, ledger: l, threshold: Settings().suggestThreshold).isEmpty)
        #expect(!index.suggest(row: 3, ledger: l, threshold: Settings().suggestThreshold).isEmpty)
    }

    /// The index follows every change, undo and redo: a suggestion reflects the annotation just made.
    @Test func theIndexFollowsTheChangePath() throws {
        let sink = BufferSink()
        let session = Session(sink: sink)
        session.openDemo()
        let ledger = try #require(session.ledger)
        let rows = (0..<ledger.count).filter { ledger.merchants[ledger.merchant[$0]] == "NETFLIX.COM" }
        try #require(rows.count >= 4)
        _ = session.suggestions(row: rows[0])       // builds the index
        session.execute("category new Streaming")
        session.execute("category " + rows.dropFirst().map { String($0 + 1) }.joined(separator: ",") + " Streaming")
        #expect(session.suggestions(row: rows[0], fields: [.category]).first?.value == .category("Streaming"))
        session.execute("undo")
        #expect(session.suggestions(row: rows[0], fields: [.category]).first?.value != .category("Streaming"))
        session.execute("redo")
        #expect(session.suggestions(row: rows[0], fields: [.category]).first?.value == .category("Streaming"))
        // A tag made just now (the newest in the tag table) is suggested as well.
        session.execute("tag " + rows.dropFirst().map { String($0 + 1) }.joined(separator: ",") + " +brand-new-tag")
        #expect(session.suggestions(row: rows[0], fields: [.tags]).contains { $0.value == .tag("brand-new-tag") })
        // The same as an index built afresh.
        var fresh = SuggestIndex(ledger: session.ledger!)
        #expect(fresh.suggest(row: rows[0], ledger: session.ledger!, threshold: 0) == session.suggestions(row: rows[0], threshold: 0))
    }

    /// `apply suggestions` is one undo step and changes exactly what `preview suggestions` shows.
    @Test func applySuggestionsIsOneStep() throws {
        let sink = BufferSink()
        let session = Session(sink: sink)
        session.openDemo()
        session.execute("preview suggestions --fields category")
        let shown = sink.out
        let changed = try #require(shown.split(separator: "\n").first { $0.hasPrefix("matches") }).split(separator: " ")[3]
        sink.reset()
        #expect(session.execute("apply") == .ok)
        #expect(sink.err.contains("apply suggestions [category \(changed)]: \(changed) transactions changed"), "\(sink.err)")
        #expect(session.steps.count == 1)
        session.execute("undo")
        #expect(session.execute("count cat:none") == .ok)
    }

    @Test func suggestedRulesPreviewWhatTheyClaim() throws {
        let sink = BufferSink()
        let session = Session(sink: sink)
        session.openDemo()
        session.execute("suggest rules")
        let lines = sink.out.split(separator: "\n").filter { $0.hasPrefix("rule ") }
        #expect(lines.contains { $0.hasPrefix("rule starbucks-1234 'desc:STARBUCKS 1234' => +coffee") })
        // Each suggested rule runs as printed, and changes what its comment says.
        for line in lines {
            sink.reset()
            #expect(session.execute(String(line)) == .ok, "\(line): \(sink.err)")
        }
        sink.reset()
        session.execute("preview starbucks-1234")
        #expect(sink.out.contains("matches 35 transactions; 6 would change"))
    }

    @Test func rulesSurviveSaveAndReopen() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("tagsh-rules-save-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("demo.csv").path
        try DemoLedger.csv.write(toFile: path, atomically: true, encoding: .utf8)
        let session = Session(sink: BufferSink())
        session.execute("open \(path)")
        session.execute("rule coffee 'desc:/^starbucks/' => +coffee, category 'Food'")
        #expect(session.prompt.hasSuffix("*> "), "a new rule is an unsaved change")
        session.execute("save")
        let reopened = Session(sink: BufferSink())
        reopened.execute("open \(path)")
        #expect(reopened.rules.map(\.definition) == ["rule coffee 'desc:/^starbucks/' => +coffee, category Food"])
        #expect(!reopened.hasUnsavedChanges)
        // The definition is a step of the earlier session, and undo takes it back.
        #expect(reopened.steps.map(\.isEarlier) == [true])
        #expect(reopened.execute("undo") == .ok)
        #expect(reopened.rules.isEmpty)
    }
}

/// `apply RULES` after `preview RULES` takes the preview's plan when nothing it depends on changed since (the
/// transactions, the rules' definitions and order, the selection, max-tags), and so does `apply` alone: whatever came
/// between, and whichever rules are applied, it must do what the same `apply` does in a session that previewed
/// nothing (or, for `apply` alone, previewed after what came between).
struct ApplyAfterPreviewTests {
    static let between: [String?] = [nil, "category 1 Travel", "tag 2 +coffee", "intent 3 want", "note 1 x", "set max-tags 1",
                                     "rule r0 amt:>0 => +gift", "undo", "ls id:1..3", "preview r0", "save", "(the next day)"]

    /// A save reads the file back: `apply` alone works out again only rules that read its columns, and says so.
    @Test func aSaveStalesOnlyAPreviewThatReadsColumns() throws {
        let csv = "Date,Description,Amount,Tags\n2024-01-01,SHOP 1,-1.00,\n2024-01-02,SHOP 2,-2.00,coffee\n"
        for (preview, stale) in [("desc:shop => +gift", false), ("col:tags:coffee => +gift", true)] {
            let (session, sink, dir) = try RuleProperties.opened(csv)
            defer { try? FileManager.default.removeItem(at: dir) }
            try #require(session.execute("tag 1 +coffee") == .ok)
            try #require(session.execute("preview \(preview)") == .ok)
            try #require(session.execute("save") == .ok)
            sink.reset()
            try #require(session.execute("apply") == .ok, "\(sink.err)")
            #expect(sink.err.contains("the files were read again since the preview") == stale, "\(preview): \(sink.err)")
            // Worked out again, the rule that reads the Tags column as saved tags both rows.
            #expect(session.ledger!.transaction(0).tags.contains("gift"), "\(preview)")
        }
    }

    @Test(arguments: 1...12)
    func applyAfterAPreviewIsApplyWithoutOne(seed: Int) throws {
        var rng = SplitMix(seed: UInt64(seed) &* 104_729)
        let csv = AnnotationProperties.ledger(&rng)
        let rulesRng = rng
        var names: [String] = []
        do {
            let opened = try RuleProperties.opened(csv)
            defer { try? FileManager.default.removeItem(at: opened.dir) }
            var r = rulesRng
            names = try RuleProperties.defineRules(opened.session, opened.sink, &r, queries: RuleProperties.queries,
                                                   actions: RuleProperties.actions, most: 3)
        }
        // A `col:` query reads the file as saved (a tag given before the preview is in the file after a `save`),
        // and `date:today` the day it is read.
        let cases: [(setup: String?, preview: String, apply: String?)] = [
            (nil, names.joined(separator: " "), names.joined(separator: " ")),
            (nil, names.joined(separator: " "), names.reversed().joined(separator: " ")),
            (nil, names.joined(separator: " "), names[0]),
            (nil, names.joined(separator: " "), nil),
            (nil, "@ => +gift, category Food", "@ => +gift, category Food"),
            (nil, "@ => +gift, category Food", "@ => +gift"),
            (nil, "@ => +gift, category Food", nil),
            ("tag 1 +coffee", "col:tags:coffee => +gift", "col:tags:coffee => +gift"),
            ("tag 1 +coffee", "col:tags:coffee => +gift", nil),
            (nil, "date:today => note today", "date:today => note today"),
        ]
        for between in Self.between {
            // (`apply` alone applies the rules as previewed: the other session's preview would read them after a
            // change to them.)
            for (setup, preview, apply) in cases where (apply != nil || !["preview r0", "undo", "rule r0 amt:>0 => +gift"].contains(between))
                && (!preview.hasPrefix("col:tags") || csv.prefix { $0 != "\n" }.contains("Tags")) {
                var sessions: [(session: Session, sink: BufferSink, dir: URL)] = []
                for _ in 0..<2 {
                    let opened = try RuleProperties.opened(csv)
                    var r = rulesRng
                    _ = try RuleProperties.defineRules(opened.session, opened.sink, &r, queries: RuleProperties.queries,
                                                       actions: RuleProperties.actions, most: 3)
                    try #require(opened.session.execute("ls amt:<-3") == .ok)
                    // The first row's day is today.
                    let firstDay = opened.session.ledger!.day(0)
                    opened.session.today = { firstDay }
                    if let setup { try #require(opened.session.execute(setup) == .ok) }
                    sessions.append(opened)
                }
                defer { for s in sessions { try? FileManager.default.removeItem(at: s.dir) } }
                let (previewed, plain) = (sessions[0].session, sessions[1].session)
                try #require(previewed.execute("preview \(preview)") == .ok, "\(sessions[0].sink.err)")
                for s in [previewed, plain] {
                    if between == "(the next day)" {
                        let next = Day(daysSinceEpoch: s.today().daysSinceEpoch + 1)
                        s.today = { next }
                    } else if let between {
                        s.execute(between)
                    }
                }
                // `apply` alone: the other session previews after what came between.
                if apply == nil { try #require(plain.execute("preview \(preview)") == .ok) }
                let line = apply.map { "apply \($0)" } ?? "apply"
                let what = "seed \(seed), preview \(preview), \(between ?? "nothing") between, \(line)"
                let statuses = [previewed, plain].map { $0.execute(line) }
                #expect(statuses[0] == statuses[1], "\(what): \(sessions[0].sink.err) | \(sessions[1].sink.err)")
                let ledgers = [previewed, plain].map { s in (0..<s.ledger!.count).map(s.ledger!.transaction) }
                #expect(ledgers[0] == ledgers[1], "\(what): differs at \(ledgers[0].indices.filter { ledgers[0][$0] != ledgers[1][$0] })")
                #expect(previewed.steps.count == plain.steps.count, "\(what)")
            }
        }
    }
}
