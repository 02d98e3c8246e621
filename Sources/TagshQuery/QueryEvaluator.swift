import TagshModel

/// Evaluates a query against a ledger, producing the set of matching rows.
///
/// Text tests run once per distinct value (merchant, account, note, category,
/// tag, tag set) and the per-row pass is a table lookup, so a regex over a
/// million transactions from three thousand merchants runs three thousand times.
public struct QueryEvaluator {
    public let ledger: Ledger
    /// The rows `@` stands for.
    public let selection: [Int]

    /// A column of the original records by name: its distinct texts and each row's id into them
    /// (nil when there is no such column). Only CSV ledgers have them.
    public var columnValues: (String) -> (values: StringTable, ids: [UInt32])? = { _ in nil }

    public init(ledger: Ledger, selection: [Int] = []) {
        self.ledger = ledger
        self.selection = selection
    }

    public func rows(matching query: Query) -> RowSet {
        let n = ledger.count
        switch query {
        case .all:
            return RowSet(rowCount: n, filled: true)
        case .and(let parts):
            var result = rows(matching: parts[0])
            for p in parts.dropFirst() {
                if result.isEmpty { break }
                result.formIntersection(rows(matching: p))
            }
            return result
        case .or(let parts):
            var result = rows(matching: parts[0])
            for p in parts.dropFirst() { result.formUnion(rows(matching: p)) }
            return result
        case .not(let inner):
            var result = rows(matching: inner)
            result.invert()
            return result
        case .term(let term):
            return rows(matching: term)
        }
    }

    func rows(matching term: Term) -> RowSet {
        let n = ledger.count
        switch term {
        case .merchant(let p):
            return lookup(ledger.merchant, table(ledger.merchants, p))
        case .account(let p):
            return lookup(ledger.account, table(ledger.accounts, p))
        case .note(let p):
            var t = table(ledger.notes, p)
            t[0] = false
            return lookup(ledger.note, t)
        case .category(let p):
            var t = [Bool](repeating: false, count: Int(ledger.categories.ids.upperBound))
            switch p {
            case .none: t[0] = true
            case .named(let name):
                if let id = ledger.categories.id(of: name) { t[Int(id)] = true }
            case .regex(let r):
                for id in ledger.categories.liveIDs { t[Int(id)] = r.matches(ledger.categories[id].name) }
            }
            return lookup(ledger.category, t)
        case .tag(let p):
            var tagMatch = [Bool](repeating: false, count: ledger.tags.count + 1)
            switch p {
            case .none, .any: break
            case .named(let name):
                for id in ledger.tags.ids { tagMatch[Int(id)] = TagName.matches(ledger.tags[id].lowercased(), query: name) }
            case .regex(let r):
                for id in ledger.tags.ids { tagMatch[Int(id)] = r.matches(ledger.tags[id]) }
            }
            // Each set once, on buffers, with the pattern settled before the loop: a million sets each read as a
            // slice, and the pattern's case asked for on every one, took 30 ms of a `count tag:home`.
            let test: SetTest
            switch p {
            case .none: test = .empty
            case .any: test = .nonEmpty
            default: test = .anyMember
            }
            let setMatch = QueryEvaluator.sets(ledger.tagSets, test, tagMatch, held: test == .anyMember ? ledger.tagSetsHeld() : nil)
            return lookup(ledger.tagSet, setMatch)
        case .intent(let intent):
            let want = intent?.rawValue ?? 0
            return ledger.intent.withUnsafeBufferPointer { col in RowSet(rowCount: n) { col[$0] == want } }
        case .amount(let test):
            let intervals = AmountTest.Intervals(test)
            return ledger.amountUnits.withUnsafeBufferPointer { units in
                ledger.amountScale.withUnsafeBufferPointer { scales in
                    RowSet(rowCount: n) { intervals.contains(units: units[$0], scale: scales[$0]) }
                }
            }
        case .date(let range):
            let lo = range.from?.daysSinceEpoch ?? .min, hi = range.through?.daysSinceEpoch ?? .max
            return ledger.days.withUnsafeBufferPointer { days in RowSet(rowCount: n) { days[$0] >= lo && days[$0] <= hi } }
        case .selection:
            return RowSet(rowCount: n, rows: selection)
        case .id(let range):
            let lo = range.lowerBound - 1, hi = range.upperBound - 1
            return RowSet(rowCount: n) { $0 >= lo && $0 <= hi }
        case .hasNote(let has):
            return ledger.note.withUnsafeBufferPointer { col in RowSet(rowCount: n) { (col[$0] != 0) == has } }
        case .pending(let pending):
            var set = RowSet(rowCount: n, rows: ledger.pendingRows.lazy.map { Int($0) })
            if !pending { set.invert() }
            return set
        case .column(let name, let test):
            guard let (values, ids) = columnValues(name), ids.count == n else { return RowSet(rowCount: n) }
            var t: [Bool]
            switch test {
            case .equals(let want):
                t = [Bool](repeating: want.isEmpty, count: values.count + 1)
                for id in values.ids { t[Int(id)] = values[id].lowercased() == want }
            case .matches(let p):
                t = table(values, p)
            }
            return lookup(ids, t)
        }
    }

    /// Which entries of an intern table match a text pattern, by id: first what the texts' bytes decide (see
    /// `ByteTest`), then the engine on the rest.
    public func table(_ strings: StringTable, _ pattern: TextPattern) -> [Bool] {
        var t = [Bool](repeating: false, count: strings.count + 1)
        let undecided: [UInt32]
        if let ascii = ASCIIMatcher(pattern) {
            // ASCII literals: `ASCIIMatcher` reads eight bytes at a time, faster than the automaton.
            undecided = QueryEvaluator.decide(strings, ascii, into: &t)
        } else if case .regex(let r) = pattern {
            let required = ASCIIMatcher.requiredLiterals(ofRegex: r.source)
            if let automaton = RegexAutomaton(r.source) {
                undecided = QueryEvaluator.decide(strings, AutomatonTest(automaton: automaton, required: required), into: &t)
            } else if let required {
                undecided = QueryEvaluator.decide(strings, RequiredLiterals(required: required), into: &t)
            } else {
                undecided = Array(strings.ids)
            }
        } else {
            undecided = Array(strings.ids)
        }
        QueryEvaluator.test(undecided, strings, pattern, into: &t)
        if case .contains("") = pattern { t[0] = true }
        return t
    }

    /// Runs a byte test over every text of the table, marking the matches in `t`; returns the ids it left to the
    /// engine. On both cores once the texts are many (a million distinct descriptions are tens of megabytes to
    /// scan), each core with its own copy of the test (the automaton's cache grows as it runs).
    static func decide<Test: ByteTest>(_ strings: StringTable, _ test: Test, into t: inout [Bool]) -> [UInt32] {
        let first = Int(strings.ids.lowerBound)
        let halves = Parallel.halves(strings.count, threshold: 20_000) { range -> (matched: [UInt32], undecided: [UInt32]) in
            var test = test
            var matched: [UInt32] = [], undecided: [UInt32] = []
            strings.withAllUTF8 { texts in
                for i in range {
                    let id = first + i
                    switch test.decide(texts[id]) {
                    case true?: matched.append(UInt32(id))
                    case false?: break
                    case nil: undecided.append(UInt32(id))
                    }
                }
            }
            return (matched, undecided)
        }
        for half in halves { for id in half.matched { t[Int(id)] = true } }
        return halves.flatMap { $0.undecided }
    }

    /// The full test (the regex engine, or a lower-cased `String`) on these texts; on both cores when they are
    /// many, the other core with its own compiled expression (nothing of the engine's is shared between threads).
    static func test(_ ids: [UInt32], _ strings: StringTable, _ pattern: TextPattern, into t: inout [Bool]) {
        let halves = Parallel.halves(ids.count, threshold: 20_000) { range in
            var own = pattern
            if range.lowerBound > 0, case .regex(let r) = pattern, let again = try? Regex(r.source) { own = .regex(again) }
            return ids[range].filter { TextPattern.slowMatch(own, strings[$0]) }
        }
        for half in halves { for id in half { t[Int(id)] = true } }
    }

    /// What a `tag:` term asks of a tag set: no tags (`tag:none`), some (`tag:any`), or one of the tags marked.
    enum SetTest { case empty, nonEmpty, anyMember }

    /// Which sets of `sets` pass `test` (`anyMember`: hold a tag `tagMatch` marks), by set id. With `held`
    /// (`Ledger.tagSetsHeld`), only the sets it marks are tested, and the others are false.
    static func sets(_ sets: TagSetTable, _ test: SetTest, _ tagMatch: [Bool], held: [Bool]? = nil) -> [Bool] {
        [Bool](unsafeUninitializedCapacity: sets.count) { out, filled in
            sets.withMembers { members, starts in
                tagMatch.withUnsafeBufferPointer { marked in
                    (held ?? []).withUnsafeBufferPointer { held in
                        let everySet = held.isEmpty
                        var start = starts[0]
                        for s in 0..<out.count {
                            let end = starts[s + 1]
                            switch test {
                            case .empty: out[s] = start == end
                            case .nonEmpty: out[s] = start != end
                            case .anyMember:
                                var hit = false
                                if everySet || held[s] {
                                    for k in start..<end where marked[Int(members[k])] { hit = true; break }
                                }
                                out[s] = hit
                            }
                            start = end
                        }
                    }
                }
            }
            filled = out.count
        }
    }

    /// Rows whose value in `column` is marked true in `table`.
    func lookup(_ column: [UInt32], _ table: [Bool]) -> RowSet {
        column.withUnsafeBufferPointer { col in
            table.withUnsafeBufferPointer { t in
                RowSet(rowCount: col.count) { t[Int(col[$0])] }
            }
        }
    }
}

/// What a text's UTF-8 bytes decide of a pattern without the regex engine: true or false, or nil when the engine
/// must decide.
protocol ByteTest {
    mutating func decide(_ text: UnsafeBufferPointer<UInt8>) -> Bool?
}

extension ASCIIMatcher: ByteTest {
    func decide(_ text: UnsafeBufferPointer<UInt8>) -> Bool? { matches(text) }
}

/// A regular expression the automaton takes: an ASCII text is decided by the automaton, after the literals every
/// match requires (when there are some, which rule most texts out faster); any other text goes to the engine
/// (Unicode case folding has more rules than ASCII's).
struct AutomatonTest: ByteTest {
    var automaton: RegexAutomaton
    let required: [[UInt8]]?

    mutating func decide(_ text: UnsafeBufferPointer<UInt8>) -> Bool? {
        guard ASCIIMatcher.isPrintableASCII(text) else { return nil }
        if let required, !ASCIIMatcher.containsAll(required, text) { return false }
        return automaton.matches(text)
    }
}

/// Any other regular expression with literals every match requires: false for an ASCII text lacking one.
struct RequiredLiterals: ByteTest {
    let required: [[UInt8]]

    func decide(_ text: UnsafeBufferPointer<UInt8>) -> Bool? {
        ASCIIMatcher.isPrintableASCII(text) && !ASCIIMatcher.containsAll(required, text) ? false : nil
    }
}
