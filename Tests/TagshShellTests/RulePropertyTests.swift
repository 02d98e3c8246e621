import Foundation
import Testing
import TagshModel
import TagshQuery
import TagshRules
@testable import TagshShell

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

    @Test(arguments: 1...80)
    func appliedEqualsPreviewedEqualsReference(seed: Int) throws {
        var rng = SeededRandom(seed: UInt64(seed) &* 7919)
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("tagsh-rules-\(seed)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("l.csv").path
        try AnnotationProperties.ledger(&rng).write(toFile: path, atomically: true, encoding: .utf8)
        let sink = BufferSink()
        let session = Session(sink: sink)
        session.settings.maxTags = 100
        try #require(session.execute("open \(path)") == .ok)
        var names: [String] = []
        for r in 0..<Int.random(in: 1...3, using: &rng) {
            let acts = (0..<Int.random(in: 1...3, using: &rng)).map { _ in Self.actions.randomElement(using: &rng)! }
            let line = "rule r\(r) \(Self.queries.randomElement(using: &rng)!) => \(acts.joined(separator: ", "))"
            try #require(session.execute(line) == .ok, "\(line): \(sink.err)")
            names.append("r\(r)")
        }
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

struct SuggestionTests {
    /// On the demo, a coffee shop's unannotated visit gets the coffee tag and
    /// a coffee/food category; rent gets nothing it does not have.
    @Test func demoSuggestionsAreSensible() throws {
        let session = Session(sink: BufferSink())
        session.openDemo()
        let ledger = try #require(session.ledger)
        let row = try #require((0..<ledger.count).first {
            ledger.merchants[ledger.merchant[$0]].hasPrefix("STARBUCKS") && ledger.tagSet[$0] == 0 && ledger.category[$0] == 0
        })
        let s = Suggester.suggest(row: row, ledger: ledger)
        #expect(s.contains { $0.value == .tag("coffee") })
        #expect(s.contains { if case .category(let c) = $0.value { return ["Food", "Coffee"].contains(c) } else { return false } })
        #expect(s.allSatisfy { $0.count * 2 >= $0.of && $0.count >= 2 })
        let netflix = try #require((0..<ledger.count).first { ledger.merchants[ledger.merchant[$0]] == "NETFLIX.COM" && ledger.tagSet[$0] == 0 })
        #expect(Suggester.suggest(row: netflix, ledger: ledger).contains { $0.value == .tag("subscription") })
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
