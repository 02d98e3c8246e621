/// A regular expression compiled to a lazily built DFA over ASCII bytes, for the common patterns users type
/// (`desc:/[0-9]{6}/`, `desc:/^(uber|lyft)/`): it gives the same answer as
/// `text.contains(try Regex(source).ignoresCase())` at a few nanoseconds a byte, where the engine spends
/// microseconds a text.
///
/// The question is only whether the text contains a match, so the answer does not depend on which match a
/// backtracking engine would pick: greedy and lazy quantifiers, and the order of alternatives, do not change
/// it, and a DFA is exact. The pattern is parsed into a small syntax tree, built into a Thompson NFA with nodes
/// for the `^` and `$` assertions, and the DFA's states (sets of NFA nodes) are made the first time a text needs
/// them, then kept in a table of 128 columns, one a byte.
///
/// The engine's syntax and case folding are followed exactly where this accepts a pattern, and everything else
/// is refused (`init` gives nil, and the caller asks the engine): see `Parser` for the subset and the engine's
/// quirks it follows. Texts must be printable ASCII (0x20...0x7E) or tab; the answer for other bytes is not
/// promised.
///
/// A value, not shared: `matches` grows the cache, so it is `mutating`. Copies are independent (each thread
/// uses its own, and the arrays copy on write), which is what makes it `Sendable`.
struct RegexAutomaton: Sendable {
    /// The largest NFA this builds; `(a{100}){100}` is 10,000 nodes and more is refused.
    static let maxNodes = 10_000
    /// The largest count a `{n,m}` may give.
    static let maxRepeat = 1_000
    /// The most DFA states kept by default; a pattern that needs more starts the cache afresh (slower, never
    /// wrong).
    static let defaultMaxStates = 4_096

    private let nfa: NFA
    /// The equivalence class of every byte (bytes no byte set of the NFA tells apart share one), and the bytes of
    /// each class: a transition is worked out once a class and written for all its bytes.
    private let byteClass: [UInt8]
    private let classBytes: [[UInt8]]
    private let matchesEmptyText: Bool
    private let maxStates: Int
    private var dfa = DFA()

    /// Nil when the source uses anything outside the supported subset, or is not valid, or is too large.
    /// `maxStates` (at least 2) is there for the tests, to make the cache start afresh often.
    init?(_ source: String, maxStates: Int = defaultMaxStates) {
        guard let expr = Parser.parse(Array(source.utf8)), expr.nodeCount <= Self.maxNodes else { return nil }
        self.maxStates = max(2, maxStates)
        nfa = NFA(expr)
        (byteClass, classBytes) = Self.byteClasses(of: nfa)
        matchesEmptyText = nfa.closure(of: [nfa.start], atStart: true, atEnd: true).first == NFA.accept
        dfa.initial = intern(nfa.closure(of: [nfa.start], atStart: true, atEnd: false))
    }

    /// Whether the text contains a match: the engine's answer ignoring case, for texts that are all printable
    /// ASCII or tab.
    mutating func matches(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = text.baseAddress, !text.isEmpty else { return matchesEmptyText }
        var state = dfa.initial
        var i = 0
        while true {
            if state == DFA.matched { return true }
            if state == DFA.dead { return false }
            var offset = Int(state)
            let stop = dfa.table.withUnsafeBufferPointer { Self.run($0, base, text.count, &offset, &i) }
            switch stop {
            case DFA.unbuilt:
                state = transition(from: offset, on: base[i] & 0x7F)
                i += 1
            case DFA.endOfText:
                return dfa.acceptsAtEnd[offset >> 7]
            default:
                state = stop // matched or dead
            }
        }
    }

    /// The hot loop: follows built transitions from `offset` (a state's row) at byte `i` until the text ends
    /// (`DFA.endOfText`, with `offset` the last state) or a transition is a mark (returned, with `offset` and
    /// `i` where it was met).
    @inline(__always)
    private static func run(_ table: UnsafeBufferPointer<Int32>, _ text: UnsafePointer<UInt8>, _ count: Int,
                            _ offset: inout Int, _ i: inout Int) -> Int32 {
        var s = offset, j = i
        defer { offset = s; i = j }
        while j < count {
            let next = table[s &+ Int(text[j] & 0x7F)]
            if next < 0 { return next }
            s = Int(truncatingIfNeeded: next)
            j &+= 1
        }
        return DFA.endOfText
    }

    // MARK: - building the DFA

    /// The transition from the state at `offset` on `byte`, worked out, stored for the byte's whole class,
    /// and returned (a row offset or a mark). Unanchored search: the start closure joins every step.
    private mutating func transition(from offset: Int, on byte: UInt8) -> Int32 {
        let set = dfa.sets[offset >> 7]
        var targets = nfa.successors(of: set, on: byte)
        targets.append(nfa.start)
        let generation = dfa.generation
        let target = intern(nfa.closure(of: targets, atStart: false, atEnd: false))
        // Starting afresh dropped the row being filled: the target is still right for this step.
        guard dfa.generation == generation else { return target }
        for b in classBytes[Int(byteClass[Int(byte)])] { dfa.table[offset + Int(b)] = target }
        return target
    }

    /// The state for a closed set of NFA nodes: a mark when it holds the accepting node or nothing, otherwise
    /// its row offset, adding it (and starting the cache afresh first when it is full).
    private mutating func intern(_ set: [Int32]) -> Int32 {
        if set.first == NFA.accept { return DFA.matched }
        if set.isEmpty { return DFA.dead }
        if let id = dfa.ids[set] { return id }
        if dfa.sets.count >= maxStates {
            let initial = dfa.sets[Int(dfa.initial) >> 7]
            dfa.clear()
            dfa.initial = intern(initial)
        }
        let offset = Int32(dfa.sets.count << 7)
        dfa.ids[set] = offset
        dfa.sets.append(set)
        dfa.acceptsAtEnd.append(nfa.closure(of: set, atStart: false, atEnd: true).first == NFA.accept)
        dfa.table.append(contentsOf: repeatElement(DFA.unbuilt, count: 128))
        return offset
    }

    /// Bytes grouped by which of the NFA's byte sets hold them: each set splits the classes so far in two.
    private static func byteClasses(of nfa: NFA) -> ([UInt8], [[UInt8]]) {
        var classOf = [Int](repeating: 0, count: 128)
        var count = 1
        for set in nfa.byteSets {
            var split: [Int: Int] = [:]
            for b in 0..<128 where set.contains(UInt8(b)) {
                if let c = split[classOf[b]] {
                    classOf[b] = c
                } else {
                    split[classOf[b]] = count
                    classOf[b] = count
                    count += 1
                }
            }
        }
        // Renumber densely: a class may have lost all its bytes to a split.
        var dense: [Int: UInt8] = [:]
        var members: [[UInt8]] = []
        var byteClass = [UInt8](repeating: 0, count: 128)
        for b in 0..<128 {
            let c = dense[classOf[b]] ?? {
                let new = UInt8(members.count)
                dense[classOf[b]] = new
                members.append([])
                return new
            }()
            byteClass[b] = c
            members[Int(c)].append(UInt8(b))
        }
        return (byteClass, members)
    }
}

/// The parts, nested so their short names stay out of the module.
extension RegexAutomaton {
    // MARK: - the DFA cache

    /// The states built so far. A state is named by its row offset (its index times 128) so the hot loop adds
    /// the byte and reads; negative entries are marks.
    private struct DFA: Sendable {
        /// Not worked out yet.
        static let unbuilt: Int32 = -1
        /// The text contains a match: the accepting NFA node was reached (no need to read further).
        static let matched: Int32 = -2
        /// No match can start or go on from here (a pattern anchored by `^` that failed): the answer is no.
        static let dead: Int32 = -3
        /// Returned by the hot loop only: the text ended.
        static let endOfText: Int32 = -4

        var table: [Int32] = []
        /// Whether `$` may pass at the end of the text in each state and reach the accepting node.
        var acceptsAtEnd: [Bool] = []
        var sets: [[Int32]] = []
        var ids: [[Int32]: Int32] = [:]
        var initial: Int32 = 0
        /// How many times the cache started afresh, so a transition being built knows its row is gone.
        private(set) var generation = 0

        /// Forgets every state, to make room.
        mutating func clear() {
            self = DFA(generation: generation + 1)
        }
    }

    // MARK: - byte sets

    /// A set of ASCII bytes, as 128 bits.
    struct ByteSet: Hashable, Sendable {
        var low: UInt64 = 0
        var high: UInt64 = 0

        init() {}

        init(_ bytes: some Sequence<UInt8>) {
            for b in bytes { insert(b) }
        }

        func contains(_ b: UInt8) -> Bool {
            b < 64 ? low >> b & 1 == 1 : high >> (b & 63) & 1 == 1
        }

        mutating func insert(_ b: UInt8) {
            if b < 64 { low |= 1 << b } else { high |= 1 << (b & 63) }
        }

        func union(_ other: ByteSet) -> ByteSet {
            var u = self
            u.low |= other.low
            u.high |= other.high
            return u
        }

        var inverted: ByteSet {
            var i = self
            i.low = ~low
            i.high = ~high
            return i
        }

        static let digits = ByteSet(UInt8(ascii: "0")...UInt8(ascii: "9"))
        static let word = digits.union(ByteSet(UInt8(ascii: "A")...UInt8(ascii: "Z")))
            .union(ByteSet(UInt8(ascii: "a")...UInt8(ascii: "z"))).union(ByteSet([UInt8(ascii: "_")]))
        /// Tab, the line breaks `\n \v \f \r`, and space.
        static let whitespace = ByteSet(0x09...0x0D).union(ByteSet([0x20]))
        /// What `.` matches: all but the line breaks, which a text here never holds anyway.
        static let notNewline = ByteSet(0x0A...0x0D).inverted

        /// A letter outside a class matches both its cases.
        static func literal(_ c: UInt8) -> ByteSet {
            var s = ByteSet([c])
            if c &- 0x41 < 26 || c &- 0x61 < 26 { s.insert(c ^ 0x20) }
            return s
        }

        /// The members of a bracket class folded the way the engine's ASCII bitset folds them ignoring case:
        /// 0x40...0x5A gain the byte 0x20 above, 0x61...0x7A the byte 0x20 below. That range starts at `@`, not `A`,
        /// so `[@]` matches "`" (and "`" never matches `@`): an engine quirk, followed so the answers agree.
        var foldedAsClassMembers: ByteSet {
            var s = self
            for b in UInt8(0x40)...0x5A where contains(b) { s.insert(b + 0x20) }
            for b in UInt8(0x61)...0x7A where contains(b) { s.insert(b - 0x20) }
            return s
        }
    }

    // MARK: - syntax tree

    /// A parsed pattern.
    indirect enum Expr {
        /// One byte from the set.
        case bytes(ByteSet)
        /// `^`: the start of the text (the engine's default: no multi-line mode).
        case textStart
        /// `$`: the end of the text (also before a final newline, which a text here never has).
        case textEnd
        case sequence([Expr])
        case choice([Expr])
        /// `min` to `max` (nil: no limit) times; laziness does not change whether there is a match.
        case repetition(Expr, min: Int, max: Int?)

        /// Whether it can match without reading a byte (taking anchors as passing). The engine does not repeat
        /// such an expression the way the language would: `(^|.){2,}x` finds no match in "Ax", which `^` then
        /// `A` would give, while `(^|.){2}x` does. So a quantifier on one is refused, whatever the engine's rule.
        var isNullable: Bool {
            switch self {
            case .bytes: false
            case .textStart, .textEnd: true
            case .sequence(let items): items.allSatisfy(\.isNullable)
            case .choice(let items): items.contains(where: \.isNullable)
            case .repetition(let e, let lo, _): lo == 0 || e.isNullable
            }
        }

        /// The NFA nodes the expression builds into, counted without overflow (stopping past the cap).
        var nodeCount: Int {
            let cap = RegexAutomaton.maxNodes + 1
            switch self {
            case .bytes, .textStart, .textEnd: return 1
            case .sequence(let items): return min(cap, items.reduce(0) { min(cap, $0 + $1.nodeCount) })
            case .choice(let items): return min(cap, items.reduce(items.count) { min(cap, $0 + $1.nodeCount) })
            case .repetition(let e, let lo, let hi):
                // `hi` copies and a split before each optional one; or `lo` copies, one in a loop, and its split.
                let (total, overflow) = e.nodeCount.multipliedReportingOverflow(by: hi ?? (lo + 1))
                return overflow ? cap : min(cap, total + (hi.map { $0 - lo } ?? 1))
            }
        }
    }

    // MARK: - parser

    /// Parses the supported subset of the engine's syntax, refusing (nil) everything else, and every pattern the
    /// engine itself refuses that this has met.
    ///
    /// Supported: literal printable ASCII; `\` before any printable ASCII that is not a letter or digit (a
    /// literal); `\t`; `.`; `\d \D \w \W \s \S` (ASCII meanings: `\s` is space and tab here); bracket classes with
    /// single bytes, ranges and those escapes, negated by `^`, `-` literal first or last; groups `( )`, `(?: )`,
    /// `(?<name> )`, `(?P<name> )`, `(?'name' )`; `|` (empty alternatives too); `* + ?`, `{n}`, `{n,}`, `{n,m}`,
    /// `{,m}`, each perhaps lazy (`?` after); `^` and `$` anywhere.
    ///
    /// Refused, each because the engine reads it some other way or it is not worth following: other escapes
    /// (`\b`, `\x41`, `\1`, `\Q`, `\p{..}`, unknown letters, which the engine takes as the letter); `(?` forms
    /// other than those groups (flags, lookarounds, atomic groups, comments); possessive and stacked quantifiers;
    /// a quantifier on nothing or on what can match empty (an anchor, `(a|)`, `(a*)`: see `Expr.isNullable`);
    /// a `{` that is not one of those quantifiers (the engine takes `x{`, `x{a}`, `x{,}` literally but `x{ 2}` as
    /// a quantifier); classes starting with `]` (the engine refuses them), nested `[`, set operations `&&` `--`
    /// `~~`, a `-` that is neither a range nor first or last, reversed ranges; duplicate group names; counts over
    /// 1,000; anything beyond printable ASCII.
    struct Parser {
        private let s: [UInt8]
        private var i = 0
        private var names: Set<[UInt8]> = []

        private init(_ s: [UInt8]) { self.s = s }

        static func parse(_ source: [UInt8]) -> Expr? {
            guard source.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) else { return nil }
            var p = Parser(source)
            guard let e = p.alternation(), p.i == source.count else { return nil } // a stray `)` stops early
            return e
        }

        private var peek: UInt8? { i < s.count ? s[i] : nil }
        private var peekSecond: UInt8? { i + 1 < s.count ? s[i + 1] : nil }

        private mutating func eat(_ c: Character) -> Bool {
            guard peek == c.asciiValue else { return false }
            i += 1
            return true
        }

        private mutating func alternation() -> Expr? {
            var alternatives: [Expr] = []
            repeat {
                guard let seq = sequence() else { return nil }
                alternatives.append(seq)
            } while eat("|")
            return alternatives.count == 1 ? alternatives[0] : .choice(alternatives)
        }

        private mutating func sequence() -> Expr? {
            var items: [Expr] = []
            while let c = peek, c != UInt8(ascii: "|"), c != UInt8(ascii: ")") {
                guard let item = piece() else { return nil }
                items.append(item)
            }
            return items.count == 1 ? items[0] : .sequence(items)
        }

        /// An atom and its quantifier, if any.
        private mutating func piece() -> Expr? {
            guard let atom = atom() else { return nil }
            guard let c = peek, "*+?{".utf8.contains(c) else { return atom }
            if atom.isNullable { return nil }
            guard let (lo, hi) = quantifier() else { return nil }
            _ = eat("?") // lazy: the same answer
            if let c = peek, "*+?{".utf8.contains(c) { return nil } // possessive, or stacked
            return .repetition(atom, min: lo, max: hi)
        }

        private mutating func quantifier() -> (Int, Int?)? {
            if eat("*") { return (0, nil) }
            if eat("+") { return (1, nil) }
            if eat("?") { return (0, 1) }
            guard eat("{") else { return nil }
            let lo = number()
            if eat("}") { return lo.map { ($0, $0) } }
            guard eat(",") else { return nil }
            let hi = number()
            guard eat("}"), lo != nil || hi != nil else { return nil }
            if let hi, hi < (lo ?? 0) { return nil }
            return (lo ?? 0, hi)
        }

        /// Decimal digits, nil when there are none or the value is over `maxRepeat`.
        private mutating func number() -> Int? {
            var value: Int?
            while let c = peek, c &- 0x30 < 10 {
                value = (value ?? 0) * 10 + Int(c - 0x30)
                guard value! <= RegexAutomaton.maxRepeat else { return nil }
                i += 1
            }
            return value
        }

        private mutating func atom() -> Expr? {
            guard let c = peek else { return nil }
            i += 1
            switch c {
            case UInt8(ascii: "("): return group()
            case UInt8(ascii: "["): return bracketClass().map { .bytes($0) }
            case UInt8(ascii: "."): return .bytes(.notNewline)
            case UInt8(ascii: "^"): return .textStart
            case UInt8(ascii: "$"): return .textEnd
            case UInt8(ascii: "\\"): return escape().map { .bytes($0.set) }
            case UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "?"), UInt8(ascii: "{"): return nil
            default: return .bytes(.literal(c))
            }
        }

        private mutating func group() -> Expr? {
            if eat("?") && !eat(":") {
                guard let close = nameOpening(), groupName(closedBy: close) else { return nil }
            }
            guard let e = alternation(), eat(")") else { return nil }
            return e
        }

        /// After `(?`: the opening of a named group (`<`, `P<` or `'`), giving the character that closes the name.
        private mutating func nameOpening() -> Character? {
            if eat("<") { return ">" }
            if eat("'") { return "'" }
            if eat("P") && eat("<") { return ">" }
            return nil
        }

        /// A group's name: a letter or `_`, then letters, digits or `_`, new in the pattern.
        private mutating func groupName(closedBy close: Character) -> Bool {
            let start = i
            while let c = peek, c == UInt8(ascii: "_") || ByteSet.word.contains(c) { i += 1 }
            let name = Array(s[start..<i])
            guard let first = name.first, !ByteSet.digits.contains(first), eat(close) else { return false }
            return names.insert(name).inserted
        }

        /// After a `\`: a shorthand class or a single literal byte (`single`, which may begin a range in a class).
        private mutating func escape() -> (set: ByteSet, single: UInt8?)? {
            guard let c = peek else { return nil }
            i += 1
            switch c {
            case UInt8(ascii: "d"): return (.digits, nil)
            case UInt8(ascii: "D"): return (ByteSet.digits.inverted, nil)
            case UInt8(ascii: "w"): return (.word, nil)
            case UInt8(ascii: "W"): return (ByteSet.word.inverted, nil)
            case UInt8(ascii: "s"): return (.whitespace, nil)
            case UInt8(ascii: "S"): return (ByteSet.whitespace.inverted, nil)
            case UInt8(ascii: "t"): return (ByteSet([0x09]), 0x09)
            default:
                guard !ByteSet.word.contains(c) || c == UInt8(ascii: "_") else { return nil }
                return (.literal(c), c)
            }
        }

        /// A bracket class after its `[`, through its `]`.
        private mutating func bracketClass() -> ByteSet? {
            let negated = eat("^")
            if peek == UInt8(ascii: "]") { return nil }
            var members = ByteSet()    // single bytes and ranges: folded as the engine folds them
            var shorthands = ByteSet() // \d and the like: not folded (their letters come in both cases anyway)
            var first = true
            while !eat("]") {
                guard let c = peek else { return nil }
                if c == UInt8(ascii: "[") { return nil } // nested classes, POSIX classes
                if startsSetOperation { return nil }
                if c == UInt8(ascii: "-") {
                    // A literal only first or last; elsewhere the engine reads more into it.
                    guard first || peekSecond == UInt8(ascii: "]") else { return nil }
                    i += 1
                    members.insert(c)
                } else {
                    guard let (set, single) = classAtom() else { return nil }
                    let isRange = peek == UInt8(ascii: "-") && peekSecond != nil && peekSecond != UInt8(ascii: "]")
                    if let low = single, isRange {
                        i += 1
                        guard !startsSetOperation, let (_, high) = classAtom(), let high, low <= high else { return nil } // `[a-~~]`
                        members = members.union(ByteSet(low...high))
                    } else if isRange {
                        return nil // `[\d-z]`
                    } else if single != nil {
                        members = members.union(set)
                    } else {
                        shorthands = shorthands.union(set)
                    }
                }
                first = false
            }
            let all = members.foldedAsClassMembers.union(shorthands)
            return negated ? all.inverted : all
        }

        /// Whether a class's set operation (`&&`, `--`, `~~`) starts here.
        private var startsSetOperation: Bool {
            guard let c = peek else { return false }
            return c == peekSecond && "&-~".utf8.contains(c)
        }

        /// One member of a class: an escape, or a byte standing for itself (`single` the byte, unfolded).
        private mutating func classAtom() -> (set: ByteSet, single: UInt8?)? {
            guard let c = peek, c != UInt8(ascii: "]"), c != UInt8(ascii: "-"), c != UInt8(ascii: "[") else { return nil }
            i += 1
            if c == UInt8(ascii: "\\") {
                guard let (set, single) = escape() else { return nil }
                return (single.map { ByteSet([$0]) } ?? set, single)
            }
            return (ByteSet([c]), c)
        }
    }

    // MARK: - NFA

    /// A Thompson NFA, built back to front so no fragment needs patching: each part is built with the node that
    /// follows it already made.
    struct NFA: Sendable {
        enum Node: Sendable {
            case accept
            case bytes(ByteSet, next: Int32)
            case split(Int32, Int32)
            case textStart(next: Int32)
            case textEnd(next: Int32)
        }

        /// The accepting node is made first, so a sorted set holds it first.
        static let accept: Int32 = 0

        private(set) var nodes: [Node] = [.accept]
        private(set) var start: Int32 = 0

        init(_ expr: Expr) {
            start = build(expr, then: Self.accept)
        }

        /// The distinct byte sets the nodes test.
        var byteSets: Set<ByteSet> {
            var sets: Set<ByteSet> = []
            for case .bytes(let set, _) in nodes { sets.insert(set) }
            return sets
        }

        private mutating func add(_ node: Node) -> Int32 {
            nodes.append(node)
            return Int32(nodes.count - 1)
        }

        /// The entry node of `expr` followed by `next`.
        private mutating func build(_ expr: Expr, then next: Int32) -> Int32 {
            switch expr {
            case .bytes(let set): return add(.bytes(set, next: next))
            case .textStart: return add(.textStart(next: next))
            case .textEnd: return add(.textEnd(next: next))
            case .sequence(let items): return items.reversed().reduce(next) { build($1, then: $0) }
            case .choice(let items):
                let entries = items.map { build($0, then: next) }
                return entries.dropFirst().reduce(entries[0]) { add(.split($0, $1)) }
            case .repetition(let e, let lo, let hi):
                var entry: Int32
                if let hi {
                    // `x{0,k}` as `(x(x(x)?)?)?`: each copy may stop at `next`.
                    entry = next
                    for _ in lo..<hi { entry = add(.split(build(e, then: entry), next)) }
                } else {
                    // `x*`: a loop node that enters `x` (which comes back to it) or leaves.
                    let loop = add(.split(next, next))
                    nodes[Int(loop)] = .split(build(e, then: loop), next)
                    entry = loop
                }
                for _ in 0..<lo { entry = build(e, then: entry) }
                return entry
            }
        }

        /// The nodes that follow, on `byte`, the byte nodes of `set`.
        func successors(of set: [Int32], on byte: UInt8) -> [Int32] {
            var out: [Int32] = []
            for n in set {
                if case .bytes(let bytes, let next) = nodes[Int(n)], bytes.contains(byte) { out.append(next) }
            }
            return out
        }

        /// Every node reached from `roots` without reading a byte, keeping those that read one, the accepting
        /// node and (before the end) the `$` nodes, which are decided later; sorted, so equal sets compare equal.
        /// `^` passes only `atStart`, `$` only `atEnd`.
        func closure(of roots: [Int32], atStart: Bool, atEnd: Bool) -> [Int32] {
            var seen = [Bool](repeating: false, count: nodes.count)
            var stack = roots
            var out: [Int32] = []
            while let n = stack.popLast() {
                guard !seen[Int(n)] else { continue }
                seen[Int(n)] = true
                switch nodes[Int(n)] {
                case .accept, .bytes: out.append(n)
                case .split(let a, let b): stack.append(b); stack.append(a)
                case .textStart(let next): if atStart { stack.append(next) }
                case .textEnd(let next): if atEnd { stack.append(next) } else { out.append(n) }
                }
            }
            return out.sorted()
        }
    }
}
