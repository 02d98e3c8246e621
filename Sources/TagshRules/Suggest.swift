import TagshModel
import TagshQuery

/// One suggested annotation and why.
public struct Suggestion: Sendable, Equatable {
    public enum Value: Sendable, Equatable {
        case tag(String)
        case category(String)
        case intent(Intent)
    }
    public var value: Value
    public var count: Int
    public var of: Int
    public var reason: String

    /// The command that would apply it to a transaction.
    public func command(for id: Int) -> String {
        switch value {
        case .tag(let t): "tag \(id) +\(t)"
        case .category(let c): "category \(id) \(Lexer.quote(c))"
        case .intent(let i): "intent \(id) \(i)"
        }
    }
}

/// A rule proposed from how transactions are already annotated.
public struct ProposedRule: Sendable {
    public var rule: Rule
    public var reason: String
    public var matched: Int
    public var wouldChange: Int
}

/// Learns from the ledger's own annotations.
public enum Suggester {
    /// Shares below this are not suggested.
    static let minimumShare = 0.5

    /// Tags, category and intent for one transaction: from its merchant's
    /// other transactions, or, for a new merchant, from merchants that share
    /// a word of its name.
    public static func suggest(row: Int, ledger: Ledger) -> [Suggestion] {
        let merchant = ledger.merchant[row]
        return suggest(row: row, ledger: ledger, peers: (0..<ledger.count).filter { ledger.merchant[$0] == merchant })
    }

    /// The same, given the rows of the transaction's merchant (an index built once, as `review` does).
    public static func suggest(row: Int, ledger: Ledger, peers merchantRows: [Int]) -> [Suggestion] {
        let merchant = ledger.merchant[row]
        var peers = merchantRows.filter { $0 != row }
        var source = "\(ledger.merchants[merchant]) transactions"
        if peers.count < 2 {
            let words = significantWords(ledger.merchants[merchant])
            guard !words.isEmpty else { return [] }
            var alike = Set<UInt32>()
            var shared = Set<String>()
            for id in ledger.merchants.ids where id != merchant {
                let common = words.intersection(significantWords(ledger.merchants[id]))
                if !common.isEmpty { alike.insert(id); shared.formUnion(common) }
            }
            peers = (0..<ledger.count).filter { $0 != row && alike.contains(ledger.merchant[$0]) }
            guard !peers.isEmpty else { return [] }
            source = "transactions of merchants with " + shared.sorted().map { "'\($0)'" }.joined(separator: " or ") + " in the name"
        }
        return suggestions(for: row, peers: peers, source: source, ledger: ledger, minimumShare: minimumShare)
    }

    static func suggestions(for row: Int, peers: [Int], source: String, ledger: Ledger, minimumShare: Double) -> [Suggestion] {
        var out: [Suggestion] = []
        let n = peers.count
        let have = Set(ledger.tagSets[ledger.tagSet[row]])
        var tagCounts: [UInt32: Int] = [:]
        var catCounts: [UInt32: Int] = [:]
        var intentCounts: [UInt8: Int] = [:]
        for p in peers {
            for t in ledger.tagSets[ledger.tagSet[p]] { tagCounts[t, default: 0] += 1 }
            if ledger.category[p] != 0 { catCounts[ledger.category[p], default: 0] += 1 }
            if ledger.intent[p] != 0 { intentCounts[ledger.intent[p], default: 0] += 1 }
        }
        func strong(_ c: Int) -> Bool { c >= 2 && Double(c) >= Double(n) * minimumShare }
        for (t, c) in tagCounts.sorted(by: { ($0.value, ledger.tags[$1.key]) > ($1.value, ledger.tags[$0.key]) })
        where strong(c) && !have.contains(t) {
            out.append(Suggestion(value: .tag(ledger.tags[t]), count: c, of: n, reason: "\(c) of \(n) \(source) have +\(ledger.tags[t])"))
        }
        // A category or intent is judged among the peers that have one: most
        // transactions are not annotated at all, and that says nothing.
        let categorised = catCounts.values.reduce(0, +)
        if let (cat, c) = catCounts.max(by: { ($0.value, $1.key) < ($1.value, $0.key) }), c >= 2,
           Double(c) >= Double(categorised) * minimumShare, ledger.category[row] != cat, !ledger.categories[cat].isDeleted {
            let name = ledger.categories[cat].name
            out.append(Suggestion(value: .category(name), count: c, of: categorised,
                                  reason: "\(c) of \(categorised) categorised \(source) are in \(name)"))
        }
        let withIntent = intentCounts.values.reduce(0, +)
        if let (i, c) = intentCounts.max(by: { ($0.value, $1.key) < ($1.value, $0.key) }), c >= 2,
           Double(c) >= Double(withIntent) * minimumShare, ledger.intent[row] != i, let intent = Intent(rawValue: i) {
            out.append(Suggestion(value: .intent(intent), count: c, of: withIntent,
                                  reason: "\(c) of \(withIntent) \(source) with an intent are \(intent)"))
        }
        return out
    }

    /// Words of a merchant name that say something: letters, three or more,
    /// not the usual payment-processor noise.
    static func significantWords(_ name: String) -> Set<String> {
        let noise: Set<String> = ["the", "and", "gmbh", "inc", "ltd", "llc", "com", "www", "payment", "card", "pos", "sq", "tst"]
        let words = name.lowercased().split { !$0.isLetter }.map(String.init)
        return Set(words.filter { $0.count >= 3 && !noise.contains($0) })
    }

    /// Rules proposed from existing annotations: for each merchant with at
    /// least three matching transactions, the tags, category and intent that
    /// most of them share but some lack. `interrupted` is asked for each
    /// merchant and while each proposal is planned; when it says yes, this
    /// stops with `PlanError.interrupted`.
    public static func proposeRules(ledger: inout Ledger, rows: [Int], scope: String = "", existing: [Rule],
                                    maxTags: Int, interrupted: () -> Bool = { false }) throws(PlanError) -> [ProposedRule] {
        var byMerchant: [UInt32: [Int]] = [:]
        for r in rows { byMerchant[ledger.merchant[r], default: []].append(r) }
        var names = Set(existing.map(\.name))
        var out: [ProposedRule] = []
        for (merchant, group) in byMerchant where group.count >= 3 {
            if interrupted() { throw .interrupted }
            let m = ledger.merchants[merchant]
            var actions: [Action] = []
            var reasons: [String] = []
            var tagCounts: [UInt32: Int] = [:], catCounts: [UInt32: Int] = [:], intentCounts: [UInt8: Int] = [:]
            for r in group {
                for t in ledger.tagSets[ledger.tagSet[r]] { tagCounts[t, default: 0] += 1 }
                if ledger.category[r] != 0 { catCounts[ledger.category[r], default: 0] += 1 }
                if ledger.intent[r] != 0 { intentCounts[ledger.intent[r], default: 0] += 1 }
            }
            let n = group.count
            func share(_ c: Int) -> Bool { Double(c) >= Double(n) * 0.7 && c < n }
            for (t, c) in tagCounts.sorted(by: { ($0.value, $1.key) > ($1.value, $0.key) }) where share(c) {
                actions.append(.addTag(ledger.tags[t]))
                reasons.append("\(c) have +\(ledger.tags[t])")
            }
            if let (cat, c) = catCounts.max(by: { ($0.value, $1.key) < ($1.value, $0.key) }), share(c), !ledger.categories[cat].isDeleted {
                actions.append(.category(ledger.categories[cat].name))
                reasons.append("\(c) are in \(ledger.categories[cat].name)")
            }
            if let (i, c) = intentCounts.max(by: { ($0.value, $1.key) < ($1.value, $0.key) }), share(c), let intent = Intent(rawValue: i) {
                actions.append(.intent(intent))
                reasons.append("\(c) are \(intent)")
            }
            guard !actions.isEmpty else { continue }
            var name = slug(m)
            if names.contains(name) { var k = 2; while names.contains("\(name)-\(k)") { k += 1 }; name = "\(name)-\(k)" }
            names.insert(name)
            // The rule keeps the scope it was learned in (`suggest rules date:2026`).
            let queryText = Lexer.quote("desc:" + m) + (scope.isEmpty ? "" : " " + scope)
            guard let words = try? Lexer.words(in: queryText), let query = try? QueryParser.parse(words) else { continue }
            if existing.contains(where: { $0.queryText == queryText && $0.actions == actions }) { continue }
            let rule = Rule(name: name, queryText: queryText, query: query, actions: actions)
            let plan: Plan
            do throws(PlanError) {
                plan = try Planner.plan([rule], ledger: &ledger, selection: [], maxTags: maxTags, interrupted: interrupted)
            } catch .interrupted {
                throw .interrupted
            } catch {
                continue
            }
            guard !plan.changedRows.isEmpty else { continue }
            out.append(ProposedRule(rule: rule, reason: "\(m): \(n) transactions; " + reasons.joined(separator: ", "),
                                    matched: plan.matched, wouldChange: plan.changedRows.count))
        }
        return out.sorted { ($0.wouldChange, $1.rule.name) > ($1.wouldChange, $0.rule.name) }
    }

    /// `STARBUCKS 1234` → `starbucks-1234`.
    static func slug(_ s: String) -> String {
        var out = ""
        for ch in s.lowercased() {
            if ch.isLetter || ch.isNumber { out.append(ch) } else if out.last != "-" { out.append("-") }
        }
        while out.hasSuffix("-") { out.removeLast() }
        while out.hasPrefix("-") { out.removeFirst() }
        return String((out.isEmpty ? "rule" : out).prefix(48))
    }
}
