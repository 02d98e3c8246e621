import TagshModel

/// A parsed query: an algebraic type, evaluated against a ledger by `QueryEvaluator`.
public indirect enum Query: Sendable, Equatable {
    /// Whether the query refers to the selection `@` anywhere.
    public var usesSelection: Bool {
        switch self {
        case .all: false
        case .term(let t): t == .selection
        case .and(let p), .or(let p): p.contains { $0.usesSelection }
        case .not(let q): q.usesSelection
        }
    }

    /// Matches every transaction (the empty query).
    case all
    case term(Term)
    case and([Query])
    case or([Query])
    case not(Query)
}

extension Query {
    /// The original columns the query names (`col:NAME=...`).
    public var columnNames: [String] {
        switch self {
        case .all: []
        case .term(.column(let name, _)) where name == Query.fileColumn: []
        case .term(.column(let name, _)): [name]
        case .term: []
        case .and(let p), .or(let p): p.flatMap(\.columnNames)
        case .not(let q): q.columnNames
        }
    }

    /// Whether the query reads the open files' own columns (`col:NAME`, `file:`), which a save reads again.
    public var readsColumns: Bool {
        switch self {
        case .all: false
        case .term(.column): true
        case .term: false
        case .and(let p), .or(let p): p.contains { $0.readsColumns }
        case .not(let q): q.readsColumns
        }
    }
}

/// One query term.
public enum Term: Sendable, Equatable {
    case merchant(TextPattern)
    case note(TextPattern)
    case account(TextPattern)
    case tag(TagPattern)
    case category(NamePattern)
    case intent(Intent?)
    case amount(AmountTest)
    case date(DateRange)
    case id(ClosedRange<Int>)
    /// `@`: in the current selection (what the last `ls` or `select` listed).
    case selection
    /// `note:any` (true) and `note:none` (false).
    case hasNote(Bool)
    /// `status:pending`: listed by the bank without an amount yet (or, false, with one).
    case pending(Bool)
    /// `col:NAME=VALUE`, `col:NAME:/REGEX/`: a column of the CSV record as the bank wrote it.
    case column(name: String, ColumnTest)
}

/// A test on an original CSV column's text.
public enum ColumnTest: Sendable, Equatable {
    /// Equal, ignoring case (stored lower-cased).
    case equals(String)
    case matches(TextPattern)
}

/// A case-insensitive text test: substring or regular expression.
public enum TextPattern: Sendable, Equatable {
    /// Contains this text (stored lower-cased).
    case contains(String)
    case regex(Regex)

    /// The test on a decoded `String` (the evaluator's way for text `ASCIIMatcher` leaves undecided).
    public static func slowMatch(_ pattern: TextPattern, _ text: String) -> Bool {
        switch pattern {
        case .contains(let needle): text.lowercased().contains(needle)
        case .regex(let r): r.matches(text)
        }
    }
}

/// Tests on a transaction's tags.
public enum TagPattern: Sendable, Equatable {
    /// Has this tag or one of its children (stored lower-cased).
    case named(String)
    case none
    case any
    case regex(Regex)
}

/// Tests on a category name.
public enum NamePattern: Sendable, Equatable {
    /// Equal, ignoring case (stored lower-cased).
    case named(String)
    case none
    case regex(Regex)
}

/// An amount comparison. As in hledger, a number written without a sign is
/// compared with the amount's absolute value; with a sign, with the signed amount.
public struct AmountTest: Sendable, Equatable {
    public enum Op: String, Sendable { case lt = "<", le = "<=", gt = ">", ge = ">=", eq = "=" }
    public var lower: (op: Op, value: Amount)?
    public var upper: (op: Op, value: Amount)?
    public var absolute: Bool

    public init(lower: (Op, Amount)?, upper: (Op, Amount)?, absolute: Bool) {
        self.lower = lower.map { (op: $0.0, value: $0.1) }
        self.upper = upper.map { (op: $0.0, value: $0.1) }
        self.absolute = absolute
    }

    public static func == (a: AmountTest, b: AmountTest) -> Bool {
        a.absolute == b.absolute && a.lower?.op == b.lower?.op && a.lower?.value == b.lower?.value
            && a.upper?.op == b.upper?.op && a.upper?.value == b.upper?.value
    }

    public func matches(_ amount: Amount) -> Bool {
        let v = absolute ? amount.magnitude : amount
        if let (op, bound) = lower, !AmountTest.compare(v, op, bound) { return false }
        if let (op, bound) = upper, !AmountTest.compare(v, op, bound) { return false }
        return true
    }

    static func compare(_ v: Amount, _ op: Op, _ bound: Amount) -> Bool {
        switch op {
        case .lt: v < bound
        case .le: v <= bound
        case .gt: v > bound
        case .ge: v >= bound
        case .eq: v == bound
        }
    }

    /// The test as, for each scale an amount may have, the interval of units it passes at that scale: a row's
    /// amount then passes when its units lie in its scale's interval, two comparisons of integers, where
    /// `matches` widened both amounts to a common scale to compare them (a million rows' `amt:<-5` took 5 ms).
    public struct Intervals: Sendable {
        /// By scale (all 256 values of a `UInt8`, so a scale needs no check): the lowest and highest units that
        /// pass; lowest > highest when none do.
        @usableFromInline let lowest: [Int64]
        @usableFromInline let highest: [Int64]
        @usableFromInline let absolute: Bool

        public init(_ test: AmountTest) {
            var lowest = [Int64](repeating: .min, count: 256), highest = [Int64](repeating: .max, count: 256)
            for scale in 0...Int(Amount.maxScale) {
                var lo = Int128(Int64.min), hi = Int128(Int64.max)
                for (op, bound) in [test.lower, test.upper].compactMap({ $0 }) {
                    let (l, h) = Intervals.interval(op, bound, scale: UInt8(scale))
                    lo = max(lo, l)
                    hi = min(hi, h)
                }
                if lo > hi { (lo, hi) = (1, 0) }
                lowest[scale] = Int64(clamping: lo)
                highest[scale] = Int64(clamping: hi)
            }
            // (No amount has a scale past `Amount.maxScale`: reading refuses more digits.)
            for scale in Int(Amount.maxScale) + 1..<256 { (lowest[scale], highest[scale]) = (1, 0) }
            self.lowest = lowest
            self.highest = highest
            absolute = test.absolute
        }

        /// Whether the amount of `units` at `scale` passes (as `AmountTest.matches` of that amount).
        @inlinable
        public func contains(units: Int64, scale: UInt8) -> Bool {
            let v = absolute ? (units == .min ? .max : abs(units)) : units
            return lowest.withUnsafeBufferPointer { lo in
                highest.withUnsafeBufferPointer { hi in lo[Int(scale)] <= v && v <= hi[Int(scale)] }
            }
        }

        /// The units at `scale` that `op bound` passes, as an inclusive interval (lowest > highest: none).
        static func interval(_ op: Op, _ bound: Amount, scale: UInt8) -> (Int128, Int128) {
            let none: (Int128, Int128) = (1, 0), all = (Int128(Int64.min), Int128(Int64.max))
            if scale >= bound.scale {
                // v op T, with T the bound's units at this scale.
                let t = bound.units(atScale: scale)
                switch op {
                case .lt: return (all.0, t - 1)
                case .le: return (all.0, t)
                case .gt: return (t + 1, all.1)
                case .ge: return (t, all.1)
                case .eq: return (t, t)
                }
            }
            // v·k op B, with k = 10^(bound's scale - this scale) and B the bound's units.
            var k: Int128 = 1
            for _ in scale..<bound.scale { k *= 10 }
            let b = Int128(bound.units)
            func floorDiv(_ a: Int128, _ d: Int128) -> Int128 { a >= 0 ? a / d : -((-a + d - 1) / d) }
            switch op {
            case .lt: return (all.0, floorDiv(b - 1, k))       // v·k ≤ B - 1
            case .le: return (all.0, floorDiv(b, k))           // v·k ≤ B
            case .gt: return (floorDiv(b, k) + 1, all.1)       // v·k ≥ B + 1
            case .ge: return (floorDiv(b - 1, k) + 1, all.1)   // v·k ≥ B
            case .eq: return b % k == 0 ? (b / k, b / k) : none
            }
        }
    }
}

/// An inclusive range of days; a missing bound is open.
public struct DateRange: Sendable, Equatable {
    public var from: Day?
    public var through: Day?
    public init(from: Day?, through: Day?) {
        self.from = from
        self.through = through
    }
    public func contains(_ day: Day) -> Bool {
        if let from, day < from { return false }
        if let through, day > through { return false }
        return true
    }
}

/// A compiled case-insensitive regular expression, compared by its source.
///
/// The standard library's engine, not Foundation's: linking Foundation (and
/// ICU with it) costs every start of tagsh more than the whole of a command.
/// A query tests a regular expression once per distinct value, not per row.
public struct Regex: @unchecked Sendable, Equatable {
    public let source: String
    let compiled: _StringProcessing.Regex<AnyRegexOutput>

    public init(_ source: String) throws {
        self.source = source
        compiled = try _StringProcessing.Regex(source).ignoresCase()
    }

    public func matches(_ text: String) -> Bool {
        text.contains(compiled)
    }

    public static func == (a: Regex, b: Regex) -> Bool { a.source == b.source }
}

extension Query {
    /// The column name `file:NAME` tests: the name of the file each transaction comes from.
    public static let fileColumn = "\u{1}file"
}

extension Query {
    /// The category names the query tests by name (lower case), for checking that they exist.
    public var categoryNames: [String] {
        switch self {
        case .all: []
        case .term(.category(.named(let name))): [name]
        case .term: []
        case .and(let p), .or(let p): p.flatMap(\.categoryNames)
        case .not(let q): q.categoryNames
        }
    }
}
