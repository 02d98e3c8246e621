import TagshModel
import TagshQuery

/// What a suggestion proposes: a tag, a category or an intent.
public enum SuggestedValue: Sendable, Equatable {
    case tag(String)
    case category(String)
    case intent(Intent)

    /// The command that would apply it to a transaction.
    public func command(for id: Int) -> String {
        switch self {
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
    /// Words of payment processors and legal forms, which say nothing of a merchant.
    static let noise: Set<String> = ["the", "and", "gmbh", "inc", "ltd", "llc", "com", "www", "payment", "card", "pos", "sq", "tst"]

    /// Words of a merchant name that say something: letters, three or more,
    /// not the usual payment-processor noise.
    static func significantWords(_ name: String) -> Set<String> {
        let words = name.lowercased().split { !$0.isLetter }.map(String.init)
        return Set(words.filter { $0.count >= 3 && !noise.contains($0) })
    }

    /// Rules proposed from existing annotations: for each merchant with at
    /// least three matching transactions, the tags, category and intent that
    /// most of them share but some lack. `interrupted` is asked for each
    /// merchant and while each proposal is planned; when it says yes, this
    /// stops with `PlanError.interrupted`.
    public static func proposeRules(ledger: inout Ledger, rows: [Int], scope: String = "", existing: [Rule],
                                    maxTags: Int, minimumPrecision: Double = 0.8,
                                    interrupted: () -> Bool = { false }) throws(PlanError) -> [ProposedRule] {
        var byMerchant: [UInt32: [Int]] = [:]
        for r in rows { byMerchant[ledger.merchant[r], default: []].append(r) }
        var names = Set(existing.map(\.name))
        // A proposal's rule matches the rows of the merchants its `desc:` names, within the scope: those rows are
        // found from each merchant's rows, and the scope is read once, not a pass over the ledger per proposal
        // (3,000 proposals on a million rows took two seconds).
        let evaluator = QueryEvaluator(ledger: ledger)
        let rowsByMerchant = KeyedGroups(rowsByMerchantOf: ledger)
        var scopeRows: (scope: [Query], rows: RowSet)?
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
            // A rule says the same for every transaction it matches, so replayed over the merchant's history its
            // precision is the share of the annotated transactions that already agree: c of those with a value.
            // Proposed only when that clears the threshold, and when some transactions lack it.
            func precise(_ c: Int, of annotated: Int) -> Bool { annotated >= 3 && Double(c) >= Double(annotated) * minimumPrecision && c < n }
            func precision(_ c: Int, _ annotated: Int) -> String {
                "precision \(twoDecimals(hundredths: (c * 100 + annotated / 2) / annotated)), \(c) of \(annotated)"
            }
            let tagged = group.filter { ledger.tagSet[$0] != 0 }.count
            for (t, c) in tagCounts.sorted(by: { ($0.value, $1.key) > ($1.value, $0.key) }) where precise(c, of: tagged) {
                actions.append(.addTag(ledger.tags[t]))
                reasons.append("+\(ledger.tags[t]) (\(precision(c, tagged)) tagged)")
            }
            let categorised = catCounts.values.reduce(0, +)
            if let (cat, c) = catCounts.max(by: { ($0.value, $1.key) < ($1.value, $0.key) }), precise(c, of: categorised), !ledger.categories[cat].isDeleted {
                actions.append(.category(ledger.categories[cat].name))
                reasons.append("\(ledger.categories[cat].name) (\(precision(c, categorised)) categorised)")
            }
            let withIntent = intentCounts.values.reduce(0, +)
            if let (i, c) = intentCounts.max(by: { ($0.value, $1.key) < ($1.value, $0.key) }), precise(c, of: withIntent), let intent = Intent(rawValue: i) {
                actions.append(.intent(intent))
                reasons.append("\(intent) (\(precision(c, withIntent)) with an intent)")
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
            // The query is the merchant's term alone, or it and the scope's terms (any other shape, such as a
            // scope with `or`, is evaluated as it is).
            var matches: [RowSet]?
            let parts: [Query]
            switch query {
            case .and(let p): parts = p
            default: parts = [query]
            }
            if case .term(.merchant(let pattern)) = parts[0] {
                let merchants = evaluator.table(ledger.merchants, pattern)
                var found = RowSet(rowCount: ledger.count)
                for id in merchants.indices where merchants[id] { for r in rowsByMerchant[UInt32(id)] { found.insert(Int(r)) } }
                let scopeParts = Array(parts.dropFirst())
                if !scopeParts.isEmpty {
                    if scopeRows?.scope != scopeParts { scopeRows = (scopeParts, evaluator.rows(matching: .and(scopeParts))) }
                    if let rows = scopeRows?.rows { found.formIntersection(rows) }
                }
                matches = [found]
            }
            let plan: Plan
            do throws(PlanError) {
                plan = try Planner.plan([rule], ledger: &ledger, selection: [], maxTags: maxTags, interrupted: interrupted, matches: matches)
            } catch .interrupted {
                throw .interrupted
            } catch {
                continue
            }
            guard plan.changedCount > 0 else { continue }
            out.append(ProposedRule(rule: rule, reason: "\(m): \(n) transactions; " + reasons.joined(separator: ", "),
                                    matched: plan.matched, wouldChange: plan.changedCount))
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
