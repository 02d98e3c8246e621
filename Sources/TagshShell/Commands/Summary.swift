import TagshFormats
import TagshModel
import TagshQuery

extension Commands {
    static let summary: Command = Command(
        name: "summary", group: .exploring,
        forms: [[.optional([.query]), .optional([.keyword("by"), .choice(Dimension.names)]), .optional([.keyword("by"), .choice(Dimension.names)])]],
        summary: "totals of the matching transactions by a field, with a bar chart",
        details: """
            Groups the matching transactions (by category unless told otherwise) and prints each group's \
            count, money in (IN), money out (OUT) and the net of the two (NET), with a bar: `█` for money \
            out and `░` for money in, on one scale for every row. By tag, a transaction counts once in each \
            of its tags. Periods (year, quarter, month, week, day) are listed in date order, other groups \
            largest first; weeks are ISO 8601 weeks, Monday to Sunday, named like `2025-W03`. `by file` groups by \
            the open file each transaction comes from (several files open as one session).
            
            Two dimensions (`by category by month`) make a table: a row for each value of the first, a \
            column for each value of the second, holding the net total. Columns that do not fit the width \
            are folded into one: the earliest periods into `(N earlier)`, other values into `(N others)`.
            
            `--depth N` rolls tags and categories up to their first N levels (`trip/rome` and `trip/lisbon` \
            into `trip` with `--depth 1`; levels are separated by `/` or `:`, as in `Food:Groceries`). \
            `--limit N` keeps the first N rows and folds the rest into one `(N others)` row (by a period: \
            the latest N, and `(N earlier)`), so the total still adds up; by tag, a transaction with several of the \
            folded tags counts once in that row. `--trend` adds a sparkline per row: its net total in each month of the matched \
            range, scaled to the row's largest month. With several currencies, bars and sparklines measure the \
            first one seen. Ctrl-C stops a long summary (it says `interrupted`).
            """,
        options: [
            .init("depth", .integer("N", 1...99), "roll tags and categories up to their first N levels"),
            .init("limit", .integer("N", 1...Int.max), "show N rows and fold the rest into one"),
            .init("trend", "add a sparkline of each row's monthly totals"),
            .init("json", "one JSON object per group (per cell with two dimensions)"),
            .init("csv", "CSV with a header line: one line per group and currency"),
        ],
        examples: ["summary", "summary date:2025 by month", "summary tag:trip by tag --depth 1", "summary amt:<0 by merchant --limit 5",
                   "summary by category by quarter", "summary date:2025-03 by week", "summary -cat:Income by category --trend"]
    ) { (inv: inout Invocation) throws(ShellError) in
        let ledger = try inv.requireLedger()
        var words = inv.words
        var dimensions: [Dimension] = []
        while let i = words.firstIndex(where: { $0.text.lowercased() == "by" && !$0.isQuoted }) {
            guard i + 1 < words.count else {
                throw .usage("'by' needs a field: \(Dimension.names.joined(separator: ", "))", span: words[i].span)
            }
            let w = words[i + 1]
            guard let d = Dimension(rawValue: w.text.lowercased()) else {
                throw .usage("cannot summarise by '\(w.text)': use \(Dimension.names.joined(separator: ", "))", span: w.span)
            }
            guard dimensions.count < 2 else { throw .usage("summary takes at most two dimensions", span: words[i].span) }
            guard !dimensions.contains(d) else { throw .usage("'by \(d.rawValue)' twice", span: w.span) }
            dimensions.append(d)
            words.removeSubrange(i...(i + 1))
        }
        if dimensions.isEmpty { dimensions = [.category] }
        if let depth = inv.values["depth"], !dimensions.contains(where: { $0 == .tag || $0 == .category }) {
            throw .usage("--depth rolls up tags and categories: use it with `by tag` or `by category`", span: depth.span)
        }
        let rows = inv.rows(matching: try inv.query(words), in: ledger).rows
        let asTable = !(inv.flag("json") || inv.session.jsonOutput || inv.flag("csv"))
        let report = try SummaryReport(ledger: ledger, rows: rows, dimensions: dimensions, depth: inv.intValue("depth"),
                                       limit: inv.intValue("limit"), trend: inv.flag("trend"), session: inv.session,
                                       tableWidth: asTable ? inv.session.tableWidth : nil)
        if inv.flag("json") || inv.session.jsonOutput {
            for line in report.json() { inv.out.line(line) }
        } else if inv.flag("csv") {
            for line in report.csv() { inv.out.line(line) }
        } else {
            try report.table(width: inv.session.tableWidth, style: inv.out.style).write(to: inv.out, width: inv.session.tableWidth, session: inv.session)
        }
    }
}

/// How the rows of a ledger fall into the groups of one dimension: keys, and their names.
struct Grouping {
    let dimension: Dimension
    /// Rolled-up names of tags and categories; key `i + 1` is `names[i]`, key 0 is none.
    private var names: [String] = []
    private var shown: [String] = []
    private var colors: [Color?] = []
    /// Category id → key.
    private var categoryKey: [Int] = []
    /// By tag: each tag set's keys (its tags rolled up, each once; `[0]` for the empty set), one run of them, set
    /// `s`'s at `tagSetKeys[tagSetKeyStart[s]..<tagSetKeyStart[s + 1]]`. Not an array a set: the merchants shape
    /// has a million sets, and allocating an array each was most of a `summary by tag`.
    private var tagSetKeys: [Int32] = [], tagSetKeyStart: [Int32] = []
    /// By tag, with no two tags rolled up into one and every set of the table held: the sets themselves, for
    /// each tag's key is then its id (and the empty set's is 0). The merchants shape's million sets took half of
    /// a `summary by tag` to copy into `tagSetKeys`.
    private var tagSetsAsKeys: TagSetTable?
    /// By tag, when each tag is a key of its own (no `--depth`, and the table folds case as `names` would): the
    /// tags themselves, key `i` being tag id `i`, their names read when shown. The `wide` shape's 49,020 tags each
    /// lower-cased into a dictionary took a sixth of a `summary by tag --trend --limit 10`.
    private var tagNames: StringTable?
    /// By file: the open files' names and each row's id into them.
    private var files: (values: StringTable, ids: [UInt32])?

    /// `rows`, when given, are the only rows whose keys are read (the sets no such row holds get none).
    init(_ dimension: Dimension, ledger: Ledger, depth: Int?, files: (values: StringTable, ids: [UInt32])? = nil, rows: [Int]? = nil) {
        self.dimension = dimension
        self.files = files
        var index: [String: Int] = [:]
        func key(_ name: String, shown: String, color: Color?) -> Int {
            let rolled = Hierarchy.rollUp(name, depth: depth)
            if let k = index[rolled.lowercased()] { return k }
            names.append(rolled)
            self.shown.append(rolled == name ? shown : TextSafety.sanitize(rolled))
            colors.append(color)
            index[rolled.lowercased()] = names.count
            return names.count
        }
        switch dimension {
        case .category:
            let r = Render(ledger: ledger, style: .plain)
            categoryKey = [0] + ledger.categories.ids.map { id in
                let c = ledger.categories[id]
                return key(c.name, shown: r.category(id).plain, color: c.color)
            }
        case .tag:
            var tagKey: [Int]
            if ledger.tags.caseInsensitive && !Hierarchy.rollsUp(depth: depth) {
                tagNames = ledger.tags
                tagKey = Array(0...Int(ledger.tags.count))
            } else {
                tagKey = [Int](repeating: 0, count: Int(ledger.tags.count) + 1)
                for id in ledger.tags.ids { tagKey[Int(id)] = key(ledger.tags[id], shown: TextSafety.sanitize(ledger.tags[id]), color: nil) }
            }
            let held = ledger.tagSetsHeld(by: rows)
            if held == nil && tagKey.indices.allSatisfy({ $0 == 0 || tagKey[$0] == $0 }) {
                tagSetsAsKeys = ledger.tagSets
            } else {
                (tagSetKeys, tagSetKeyStart) = Grouping.keysOfSets(ledger.tagSets, tagKey: tagKey, held: held)
            }
        default: break
        }
    }

    /// Each tag set's keys: its tags' keys (`tagKey`, by tag id), each once, in order, or `[0]` for a set without
    /// tags; one run of them, and where each set's begin. (On buffers: a million sets read as slices, each key
    /// looked for in a slice of the growing run, took a third of a `summary by tag` of the merchants shape.)
    /// With `held` (`Ledger.tagSetsHeld`), only the sets it marks get keys; the others get none.
    static func keysOfSets(_ sets: TagSetTable, tagKey: [Int], held: [Bool]? = nil) -> (keys: [Int32], starts: [Int32]) {
        let n = sets.count
        var starts = [Int32](repeating: 0, count: n + 1)
        // A key a tag at most, or the one key `0`: room for the sets' members and one more each.
        let room = sets.withMembers { _, memberStarts in
            guard let held else { return sets.memberCount + n }
            var room = 0
            for s in 0..<n where held[s] { room += memberStarts[s + 1] - memberStarts[s] + 1 }
            return room
        }
        var keys = [Int32](repeating: 0, count: room)
        var k = 0
        // Tags of distinct keys (no two rolled up into one) give a set's keys as they are: a set holds each tag once.
        var seen = Set<Int>()
        let distinct = tagKey.dropFirst().allSatisfy { seen.insert($0).inserted }
        sets.withMembers { members, memberStarts in
            tagKey.withUnsafeBufferPointer { tagKey in
                keys.withUnsafeMutableBufferPointer { out in
                    starts.withUnsafeMutableBufferPointer { starts in
                        (held ?? []).withUnsafeBufferPointer { held in
                            let everySet = held.isEmpty
                            var end = memberStarts[0]
                            for s in 0..<n {
                                let run = k, start = end
                                end = memberStarts[s + 1]
                                if !everySet && !held[s] {
                                    starts[s + 1] = Int32(k)
                                    continue
                                }
                                if distinct {
                                    for m in start..<end { out[k] = Int32(truncatingIfNeeded: tagKey[Int(members[m])]); k += 1 }
                                } else {
                                    for m in start..<end {
                                        let key = Int32(truncatingIfNeeded: tagKey[Int(members[m])])
                                        var j = run
                                        while j < k && out[j] != key { j += 1 }
                                        if j == k { out[k] = key; k += 1 }
                                    }
                                }
                                if k == run { out[k] = 0; k += 1 }
                                starts[s + 1] = Int32(k)
                            }
                        }
                    }
                }
            }
        }
        keys.removeLast(keys.count - k)
        return (keys, starts)
    }

    /// Each tag set's keys, as `forEachKey` reads them, on buffers: the grouping's run of them (`tagSetKeys`), or
    /// the sets themselves (`tagSetsAsKeys`).
    struct SetKeys {
        let starts: UnsafeBufferPointer<Int32>, keys: UnsafeBufferPointer<Int32>
        let members: UnsafeBufferPointer<UInt32>, memberStarts: Offsets.Buffer?
        /// The number of sets.
        let count: Int

        /// Calls `body` with each key of set `s`.
        @inline(__always)
        func forEach(_ s: Int, _ body: (Int) -> Void) {
            if let memberStarts {
                let from = memberStarts[s], to = memberStarts[s + 1]
                if from == to { body(0) } else { for k in from..<to { body(Int(members[k])) } }
            } else {
                for k in Int(starts[s])..<Int(starts[s + 1]) { body(Int(keys[k])) }
            }
        }
    }

    /// Every tag set's keys (by tag only).
    func withSetKeys<R, E: Error>(_ body: (SetKeys) throws(E) -> R) throws(E) -> R {
        try tagSetKeyStart.withUnsafeBufferPointer { (starts) throws(E) in
            try tagSetKeys.withUnsafeBufferPointer { (keys) throws(E) in
                guard let sets = tagSetsAsKeys else {
                    return try body(SetKeys(starts: starts, keys: keys, members: UnsafeBufferPointer(start: nil, count: 0), memberStarts: nil,
                                            count: max(0, starts.count - 1)))
                }
                // (`withMembers` rethrows untyped errors: the body's typed one is carried out in a `Result`.)
                let result = sets.withMembers { (members, memberStarts) -> Result<R, E> in
                    do throws(E) {
                        return .success(try body(SetKeys(starts: starts, keys: keys, members: members, memberStarts: memberStarts, count: sets.count)))
                    } catch {
                        return .failure(error)
                    }
                }
                return try result.get()
            }
        }
    }

    /// By tag: whether each tag set has a key `marked` marks (by key), read once a set, in one pass over the sets'
    /// keys, so that a pass over rows reads one flag a row.
    func setsWithAKey(_ marked: [Bool]) -> [Bool] {
        withSetKeys { keys in
            marked.withUnsafeBufferPointer { marked in
                (0..<keys.count).map { s in
                    var any = false
                    keys.forEach(s) { if marked[$0] { any = true } }
                    return any
                }
            }
        }
    }

    /// An upper bound of the keys, when they are ids of a table and a row has one: nil by a period or a tag.
    func keyBound(_ ledger: Ledger) -> Int? {
        switch dimension {
        case .category: return names.count + 1
        case .intent: return Int(UInt8.max) + 1
        case .merchant: return ledger.merchants.count + 1
        case .account: return ledger.accounts.count + 1
        case .file: return (files?.values.count ?? 0) + 1
        case .tag, .year, .quarter, .month, .week, .day: return nil
        }
    }

    /// An upper bound of the keys by tag (a row has several), as `keyBound` is for the others.
    var tagKeyBound: Int? { dimension == .tag ? (tagNames?.count ?? names.count) + 1 : nil }

    /// The one key of `row`, by a dimension `keyBound` bounds.
    @inline(__always)
    func key(_ row: Int, _ ledger: Ledger) -> Int {
        var key = 0
        forEachKey(row, ledger) { key = $0 }
        return key
    }

    /// Calls `body` with each key of `row` (a transaction has several by tag).
    @inline(__always)
    func forEachKey(_ row: Int, _ ledger: Ledger, _ body: (Int) -> Void) {
        switch dimension {
        case .category: body(categoryKey[Int(ledger.category[row])])
        case .tag:
            let s = Int(ledger.tagSet[row])
            if let sets = tagSetsAsKeys {
                let tags = sets[UInt32(s)]
                if tags.isEmpty { body(0) } else { for t in tags { body(Int(t)) } }
            } else {
                for i in Int(tagSetKeyStart[s])..<Int(tagSetKeyStart[s + 1]) { body(Int(tagSetKeys[i])) }
            }
        case .intent: body(Int(ledger.intent[row]))
        case .merchant: body(Int(ledger.merchant[row]))
        case .account: body(Int(ledger.account[row]))
        case .file: body(files.map { row < $0.ids.count ? Int($0.ids[row]) : 0 } ?? 0)
        case .year, .quarter, .month, .week, .day: body(Period.key(dimension, ledger.day(row)))
        }
    }

    /// The key's name as data (for JSON and CSV); nil for none.
    func name(_ key: Int, _ ledger: Ledger) -> String? {
        switch dimension {
        case .category, .tag:
            if key == 0 { return nil }
            return tagNames.map { $0[UInt32(key)] } ?? names[key - 1]
        case .intent: return Intent(rawValue: UInt8(key))?.description
        case .merchant: return ledger.merchants[UInt32(key)]
        case .account: return key == 0 ? nil : ledger.accounts[UInt32(key)]
        case .file: return key == 0 ? nil : files?.values[UInt32(key)]
        case .year, .quarter, .month, .week, .day: return Period.label(dimension, key)
        }
    }

    /// The key's name for the terminal, and its colour.
    func label(_ key: Int, _ ledger: Ledger) -> (String, Color?) {
        switch dimension {
        case .category, .tag:
            if key == 0 { return ("(none)", nil) }
            if let tagNames { return (TextSafety.sanitize(tagNames[UInt32(key)]), nil) }
            return (shown[key - 1], colors[key - 1])
        case .intent: return Intent(rawValue: UInt8(key)).map { ($0.description, $0.color) } ?? ("(none)", nil)
        default: return (name(key, ledger).map(TextSafety.sanitize) ?? "(none)", nil)
        }
    }
}

/// A dimension's keys as the slots of an array, `0..<count`: table ids and tag keys as they are, periods counted from
/// the one of the first day of a range (each day's slot worked out once, at the start). Nil for a period over more
/// days than an array should hold.
struct KeySlots {
    let grouping: Grouping
    let count: Int
    private let dayBase: Int, firstKey: Int, step: Int
    private let ofDay: [Int32]

    init?(_ grouping: Grouping, ledger: Ledger, days: ClosedRange<Int>) {
        self.grouping = grouping
        if let bound = grouping.keyBound(ledger) ?? grouping.tagKeyBound {
            (count, dayBase, firstKey, step, ofDay) = (bound, 0, 0, 1, [])
            return
        }
        guard grouping.dimension.isPeriod, days.count <= 1 << 20 else { return nil }
        let dimension = grouping.dimension
        let (step, firstKey) = (dimension == .week ? 7 : 1, Period.key(dimension, Day(daysSinceEpoch: Int32(days.lowerBound))))
        (self.step, self.firstKey, dayBase) = (step, firstKey, days.lowerBound)
        count = (Period.key(dimension, Day(daysSinceEpoch: Int32(days.upperBound))) - firstKey) / step + 1
        ofDay = days.map { Int32((Period.key(dimension, Day(daysSinceEpoch: Int32($0))) - firstKey) / step) }
    }

    /// The key of slot `slot`.
    func key(ofSlot slot: Int) -> Int { ofDay.isEmpty ? slot : firstKey + slot * step }

    /// The slot of a period's row.
    @inline(__always)
    func slot(_ row: Int, _ ledger: Ledger) -> Int { Int(ofDay[Int(ledger.days[row]) - dayBase]) }

    /// Calls `body` with the slot of each key of `row` (a transaction has several by tag).
    @inline(__always)
    func forEach(_ row: Int, _ ledger: Ledger, _ body: (Int) -> Void) {
        if ofDay.isEmpty { grouping.forEachKey(row, ledger, body) } else { body(slot(row, ledger)) }
    }

    /// The slots of rows' keys, for loops over many rows: by tag, read from the sets' keys on buffers
    /// (`Grouping.withSetKeys`), where `forEach` reads a row's set as a slice of the table, a retain and a release
    /// a row (by month by tag on the 1M `wide` shape, most of the pass over the rows).
    struct Rows {
        let slots: KeySlots
        let setKeys: Grouping.SetKeys?
        let tagSet: UnsafeBufferPointer<UInt32>

        @inline(__always)
        func forEach(_ row: Int, _ ledger: Ledger, _ body: (Int) -> Void) {
            if let setKeys { setKeys.forEach(Int(tagSet[row]), body) } else { slots.forEach(row, ledger, body) }
        }
    }

    /// Calls `body` with `slots`' `Rows`.
    static func withRows<R>(_ slots: KeySlots, _ ledger: Ledger, _ body: (Rows) -> R) -> R {
        guard slots.grouping.dimension == .tag else { return body(Rows(slots: slots, setKeys: nil, tagSet: UnsafeBufferPointer(start: nil, count: 0))) }
        return slots.grouping.withSetKeys { keys in ledger.tagSet.withUnsafeBufferPointer { body(Rows(slots: slots, setKeys: keys, tagSet: $0)) } }
    }
}

/// A summary's sums in the cells that hold something, by cell key (a line's slot times the columns, plus the
/// column's): open addressing on the keys, a cell's sums made at its first row. A class with its access unchecked,
/// so that the loop over rows adds to it through a reference without a check a row.
final class SparseCells {
    @exclusivity(unchecked) private(set) var keys: [Int] = []
    @exclusivity(unchecked) private(set) var sums = SummaryReport.Summing(count: 0)
    /// Cell + 1 by slot, 0 for none; `slots.count` a power of two, at most half full.
    @exclusivity(unchecked) private var slots = [Int32](repeating: 0, count: 16)

    @inline(__always)
    private func slot(of key: Int) -> Int {
        let mask = slots.count - 1
        var i = Int(truncatingIfNeeded: (UInt64(bitPattern: Int64(key)) &* 0x9E37_79B9_7F4A_7C15) >> 32) & mask
        while slots[i] != 0 && keys[Int(slots[i]) - 1] != key { i = (i + 1) & mask }
        return i
    }

    /// The cell of `key`, made if new.
    private func cell(_ key: Int) -> Int {
        let i = slot(of: key)
        if slots[i] != 0 { return Int(slots[i]) - 1 }
        keys.append(key)
        sums.grow(to: keys.count)
        slots[i] = Int32(keys.count)
        if keys.count * 2 > slots.count {
            slots = [Int32](repeating: 0, count: slots.count * 2)
            for (c, k) in keys.enumerated() { slots[slot(of: k)] = Int32(c + 1) }
        }
        return keys.count - 1
    }

    func add(_ key: Int, _ u: Int64, _ s: UInt8) { sums.add(cell(key), u, s) }

    /// Adds every cell of `other`.
    func add(_ other: SparseCells) {
        for (c, key) in other.keys.enumerated() { sums.add(cell(key), other.sums, c) }
    }
}

/// The groups of a `summary`, ordered and folded, ready to print as a table, JSON or CSV.
struct SummaryReport {
    /// One row: a group of the first dimension, or the rows folded past `--limit`.
    struct Line {
        var key: Int?
        var folded = 0
        var group = Groups.Group()
        var byColumn: [Int: Groups.Group] = [:]
        var byMonth: [Int: Groups.Group] = [:]
        /// The cells of the columns folded as they were summed (`SummaryReport.foldedColumns`), added up; nil
        /// when none holds anything.
        var foldedColumns: Groups.Group?

        mutating func add(_ other: Line) {
            folded += other.folded == 0 ? 1 : other.folded
            group.add(other.group)
            for (k, g) in other.byColumn { byColumn[k, default: .init()].add(g) }
            for (k, g) in other.byMonth { byMonth[k, default: .init()].add(g) }
            if let g = other.foldedColumns { foldedColumns.fold(g) }
        }
    }

    let ledger: Ledger
    let groupings: [Grouping]
    var lines: [Line] = []
    var all = Line()
    /// The second dimension's keys in order, and their totals.
    var columns: [Int] = []
    var columnTotals: [Int: Groups.Group] = [:]
    /// The months of the trend, when asked for.
    var months: [Int]?
    let scales: [UInt8]
    /// How many columns were folded as they were summed, for a table `tableWidth` wide (their cells are each
    /// line's `foldedColumns`, and their totals `foldedColumnTotal`); `columns` holds the others.
    var foldedColumns = 0
    var foldedColumnTotal: Groups.Group?

    /// With `tableWidth`, the report is for a table that wide (`table(width:style:)`), not for JSON or CSV: columns
    /// of a second dimension other than a period that could never fit it are folded as the rows are summed, not
    /// made cell by cell to be folded then (by month by tag, 49,000 tags: a million cells, 1-2 s).
    /// (`gridCells`, for tests: 0 sums a trend and columns by the general loop, not `gridLines`.)
    init(ledger: Ledger, rows: [Int], dimensions: [Dimension], depth: Int?, limit: Int?, trend: Bool, session: Session,
         tableWidth: Int? = nil, gridCells: Int = 1 << 18) throws(ShellError) {
        self.ledger = ledger
        let files = dimensions.contains(.file) ? session.fileValues() : nil
        groupings = dimensions.map { Grouping($0, ledger: ledger, depth: depth, files: files, rows: rows) }
        scales = Render.displayScales(ledger)
        var byKey: [Int: Line] = [:]
        let first = groupings[0], second = groupings.count > 1 ? groupings[1] : nil
        // With a limit, the groups kept are found first, when that is cheap, and only they get a `Line`: a million
        // merchants made a million lines, each of them dictionaries and arrays, to print three.
        var kept: (isKept: [Bool], folded: Int)?
        var others = Line()
        if let limit, !trend, second == nil, let fast = try SummaryReport.keptLines(rows, first, ledger, limit: limit, session: session) {
            // In one currency, summed in arrays by key: the lines kept, and the others folded.
            (all, lines, others) = (fast.all, fast.lines, fast.others)
            kept = ([], fast.folded)
        } else {
            if let limit { kept = try SummaryReport.keptKeys(rows, first, ledger, limit: limit, session: session) }
            // By tag, the tags kept are found first where the lines are then summed in arrays (`gridLines`).
            var keptTags: (isKept: [Bool], folded: Int)?
            if let limit, kept == nil, trend || second != nil, first.dimension == .tag {
                keptTags = try SummaryReport.keptTags(rows, first, ledger, limit: limit, session: session)
            }
            // The columns a table could show: at most one a `narrowestColumn` of its width (`crossTable`), the largest.
            var keptColumns: (isKept: [Bool], folded: Int)?
            if let tableWidth, let second, !second.dimension.isPeriod, gridCells > 0 {
                let most = max(0, (tableWidth - 4) / SummaryReport.narrowestColumn)
                keptColumns = second.dimension == .tag ? try SummaryReport.keptTags(rows, second, ledger, limit: most, session: session)
                                                       : try SummaryReport.keptKeys(rows, second, ledger, limit: most, session: session)
                if keptColumns?.folded == 0 { keptColumns = nil }
            }
            if kept == nil, !trend, second == nil, let fast = try SummaryReport.singleCurrencyLines(rows, first, ledger, session: session) {
                (all, lines) = fast
            } else if trend || second != nil,
                      let grid = try SummaryReport.gridLines(rows, first, second, trend: trend, kept: (kept ?? keptTags)?.isKept,
                                                             keptColumns: keptColumns?.isKept, ledger, session: session, maxCells: gridCells) {
                (all, lines, others, columnTotals) = grid
                kept = kept ?? keptTags
                if let keptColumns { (foldedColumns, foldedColumnTotal) = (keptColumns.folded, all.foldedColumns) }
            } else {
                for (i, row) in rows.enumerated() {
                    if i % 4096 == 0 { try session.checkInterrupted() }
                    let amount = ledger.amount(row), currency = ledger.currency[row]
                    all.group.add(amount, currency: currency)
                    let month = trend ? Period.key(.month, ledger.day(row)) : 0
                    if trend { all.byMonth[month, default: .init()].add(amount, currency: currency) }
                    if let second {
                        second.forEachKey(row, ledger) { k2 in columnTotals[k2, default: .init()].add(amount, currency: currency) }
                    }
                    if let kept, !kept.isKept[first.key(row, ledger)] {
                        others.group.add(amount, currency: currency)
                        if trend { others.byMonth[month, default: .init()].add(amount, currency: currency) }
                        second?.forEachKey(row, ledger) { k2 in others.byColumn[k2, default: .init()].add(amount, currency: currency) }
                        continue
                    }
                    first.forEachKey(row, ledger) { k in
                        byKey[k, default: Line(key: k)].group.add(amount, currency: currency)
                        if trend { byKey[k, default: Line(key: k)].byMonth[month, default: .init()].add(amount, currency: currency) }
                        if let second {
                            second.forEachKey(row, ledger) { k2 in byKey[k, default: Line(key: k)].byColumn[k2, default: .init()].add(amount, currency: currency) }
                        }
                    }
                }
                lines = Array(byKey.values)
            }
        }
        let main = all.group.totals.entries.first?.currency
        // By tag with a limit, the others are tallied from the rows, so only the first `limit` lines need an order:
        // picked as the order would pick them, and the rest let go unsorted (sorting and copying the 49,000 lines
        // of the 1M `wide` shape's tags was a third of its `summary by tag --limit 10`).
        var foldedTags: (keys: [Int], lines: Int)?
        if let limit, kept == nil, first.dimension == .tag, lines.count > limit {
            let top = SummaryReport.first(limit, of: lines) { main.map($0.group.totals.magnitude(of:)) ?? 0 }
            var isTop = [Bool](repeating: false, count: lines.count)
            for i in top { isTop[i] = true }
            let folded = lines.indices.filter { !isTop[$0] }
            foldedTags = (folded.compactMap { lines[$0].key }, folded.count)
            lines = top.map { lines[$0] }
        } else {
            SummaryReport.order(&lines, period: first.dimension.isPeriod) { main.map($0.group.totals.magnitude(of:)) ?? 0 }
        }
        columns = Array(columnTotals.keys)
        if let second {
            var cols = columns.map { Line(key: $0, group: columnTotals[$0] ?? .init()) }
            SummaryReport.order(&cols, period: second.dimension.isPeriod) { main.map($0.group.totals.magnitude(of:)) ?? 0 }
            columns = cols.compactMap(\.key)
        }
        if let kept, kept.folded > 0 {
            others.folded = kept.folded
            lines.append(others)
        } else if kept == nil, let limit, lines.count > limit || foldedTags != nil {
            // Periods keep the latest and fold the earlier ones; other groups keep the largest.
            let period = first.dimension.isPeriod
            var others = Line()
            if let foldedTags {
                // (Only after the general loop, which folds no column as it sums: `gridLines` had the tags kept.)
                assert(foldedColumns == 0, "columns folded as they were summed, then rows by tag from the rows")
                // A transaction in several folded tags is one transaction of the folded row: tally rows, not groups.
                // (The folded keys marked in an array by key, and each tag set's fold worked out once: a `Set` asked
                // for each tag of each row took most of a `summary by tag --limit 10` of the 1M `merchants` shape.)
                var isFolded = [Bool](repeating: false, count: first.tagKeyBound ?? 0)
                for k in foldedTags.keys { isFolded[k] = true }
                others.folded = foldedTags.lines
                // (In one currency with no trend or columns, `keptTagLines` did all this.)
                let setFolded = first.setsWithAKey(isFolded)
                for (i, row) in rows.enumerated() {
                    if i % 4096 == 0 { try session.checkInterrupted() }
                    guard setFolded[Int(ledger.tagSet[row])] else { continue }
                    let amount = ledger.amount(row), currency = ledger.currency[row]
                    others.group.add(amount, currency: currency)
                    if trend { others.byMonth[Period.key(.month, ledger.day(row)), default: .init()].add(amount, currency: currency) }
                    second?.forEachKey(row, ledger) { k2 in others.byColumn[k2, default: .init()].add(amount, currency: currency) }
                }
            } else {
                for l in period ? lines.dropLast(limit) : lines[limit...] { others.add(l) }
            }
            lines = period ? [others] + lines.suffix(limit) : Array(lines.prefix(limit)) + [others]
        }
        if trend, let lo = all.byMonth.keys.min(), let hi = all.byMonth.keys.max() { months = Array(lo...hi) }
    }

    /// A summary by one dimension with a limit and no trend or columns, when every row is in one currency: the sums
    /// by key in arrays, in one pass; a `Line` for each of the `limit` largest; the others folded from their sums, as
    /// the lines of a summary without a limit are folded (by tag, `keptTagLines`). Nil when the dimension has no
    /// bound or the rows hold several currencies. (`keptKeys` then a pass with a group per row took 106 ms on a million merchants.) Its loop
    /// is `singleCurrencyLines`'s for a bounded key, written apart: shared, with that loop's tag and period cases
    /// beside it, a summary by category with a limit took 12.2 ms where this took 8.9 (1M rows).
    ///
    /// In two passes, so that only the net totals are kept by key: a million merchants' four sums each were 56 MB of
    /// fresh memory, and its page faults most of a `summary by merchant --limit 10` (52-59 ms on the 1M `wide`
    /// shape). The first sums each key's net total, and the largest are picked from those; the second sums the
    /// kept keys' lines, and the money in and out of the others one row after another (sums are exact, so that is
    /// what folding each key's sums gives). The count of the others is all less the kept keys', and their net
    /// total is folded from the first pass's. Below `twoPassesFrom` keys, where the sums by key are little memory, one
    /// pass costs less (the generated 1M CSV's few merchants: 6-10 ms, 9-12 in two).
    static func keptLines(_ rows: [Int], _ first: Grouping, _ ledger: Ledger, limit: Int, session: Session,
                          twoPassesFrom: Int = 1 << 16, twoCoresFrom: Int = 1 << 18) throws(ShellError)
        -> (all: Line, lines: [Line], others: Line, folded: Int)?
    {
        if first.dimension == .tag { return try keptTagLines(rows, first, ledger, limit: limit, session: session) }
        guard let bound = first.keyBound(ledger), let head = rows.first else { return nil }
        if bound < twoPassesFrom { return try keptLinesByKey(rows, first, ledger, limit: limit, session: session) }
        let currency = ledger.currency[head]
        guard let (net, all) = try netByKey(rows, first, ledger, bound: bound, session: session, twoCoresFrom: twoCoresFrom) else { return nil }
        var keys: [Int] = []
        keys.reserveCapacity(bound)
        for k in net.indices where net[k].present { keys.append(k) }
        let best = largest(limit, of: keys, net: net)
        var slotOf = [Int32](repeating: -1, count: bound)
        for (slot, i) in best.enumerated() { slotOf[keys[i]] = Int32(slot) }
        var kept = Summing(count: best.count)
        var foldedIn = Summing.Running(), foldedOut = Summing.Running()
        for (i, row) in rows.enumerated() {
            if i & 4095 == 0 { try session.checkInterrupted() }
            let units = ledger.amountUnits[row], scale = ledger.amountScale[row]
            let slot = slotOf[first.key(row, ledger)]
            if slot >= 0 {
                kept.add(Int(slot), units, scale)
            } else if units < 0 {
                foldedOut.add(units, scale)
            } else {
                foldedIn.add(units, scale)
            }
        }
        var foldedNet = Summing.Running()
        var shown = [Bool](repeating: false, count: keys.count)
        for i in best { shown[i] = true }
        for i in keys.indices where !shown[i] { foldedNet.add(net[keys[i]]) }
        let others = Line(group: Groups.Group(count: all.all.count - kept.counts.reduce(0, +), currency: currency, net: foldedNet.amount,
                                              inflow: foldedIn.amount, outflow: foldedOut.amount))
        return (Line(group: all.group(nil, currency: currency)),
                best.indices.map { Line(key: keys[best[$0]], group: kept.group($0, currency: currency)) },
                others, keys.count - best.count)
    }

    /// Each key's net total (`bound` keys, the rows' first currency), and every row's sums; nil when the rows hold
    /// another currency. From `twoCoresFrom` keys, the keys are split in two and each half summed on a core of its
    /// own, from every row: each key's total still adds its rows in their order. (A million merchants' totals are
    /// 24 MB of memory not touched before, and a pass adding into them: on one core, most of a `summary by merchant
    /// --limit` on the 1M `wide` shape.) This core's half sums all the rows too.
    static func netByKey(_ rows: [Int], _ first: Grouping, _ ledger: Ledger, bound: Int, session: Session,
                         twoCoresFrom: Int = 1 << 18) throws(ShellError) -> (net: [Summing.Running], all: Summing)? {
        guard let head = rows.first else { return nil }
        let currency = ledger.currency[head]
        enum Pass { case done, interrupted, mixed }
        var outcome = Pass.done
        var all = Summing(count: 0)
        let net = [Summing.Running](unsafeUninitializedCapacity: bound) { totals, initialized in
            let base = totals.baseAddress!
            let parts = Parallel.halves(bound, threshold: twoCoresFrom) { keys -> (pass: Pass, all: Summing) in
                (base + keys.lowerBound).initialize(repeating: .init(), count: keys.count)
                let here = keys.lowerBound == 0
                var all = Summing(count: 0)
                for (i, row) in rows.enumerated() {
                    if here && i & 4095 == 0 && session.interrupted() { return (.interrupted, all) }
                    guard ledger.currency[row] == currency else { return (.mixed, all) }
                    let units = ledger.amountUnits[row], scale = ledger.amountScale[row]
                    let key = first.key(row, ledger)
                    if keys.contains(key) { base[key].add(units, scale) }
                    if here { all.addAll(units, scale) }
                }
                return (.done, all)
            }
            initialized = bound
            outcome = parts.contains { $0.pass == .interrupted } ? .interrupted : parts.contains { $0.pass == .mixed } ? .mixed : .done
            all = parts[0].all
        }
        switch outcome {
        case .interrupted: throw .interrupted
        case .mixed: return nil
        case .done: return (net, all)
        }
    }

    /// The tags `summary by tag --limit N` keeps with a trend or columns, in one currency, when more than N are held:
    /// the N largest by the size of their net total, ties by key, as the lines are then ordered (`tagSums`); and how
    /// many are folded. Nil otherwise.
    static func keptTags(_ rows: [Int], _ first: Grouping, _ ledger: Ledger, limit: Int,
                         session: Session) throws(ShellError) -> (isKept: [Bool], folded: Int)? {
        guard let t = try tagSums(rows, first, ledger, limit: limit, session: session, netOnly: true), t.keys.count > limit else { return nil }
        var isKept = [Bool](repeating: false, count: t.sums.counts.count)
        for i in t.best { isKept[t.keys[i]] = true }
        return (isKept, t.keys.count - t.best.count)
    }

    /// By tag in one currency: the sums by tag (`sumByTag`, and by set where it summed so), the tags held, and the
    /// positions among them of the `limit` largest (`largest`). Nil by another dimension, without rows, or in
    /// several currencies. `netOnly`: the sums by tag hold counts and net totals only, all that picking the largest
    /// reads (`keptTags`), and all may be left without the rows.
    static func tagSums(_ rows: [Int], _ first: Grouping, _ ledger: Ledger, limit: Int, session: Session, bySetFrom: Int = 4,
                        netOnly: Bool = false)
        throws(ShellError) -> (currency: UInt32, sums: Summing, bySet: Summing?, keys: [Int], best: [Int])? {
        guard first.dimension == .tag, let bound = first.tagKeyBound, let head = rows.first else { return nil }
        let currency = ledger.currency[head]
        guard !rows.contains(where: { ledger.currency[$0] != currency }) else { return nil }
        var sums = Summing(count: bound)
        let bySet = try sumByTag(rows, first, ledger, into: &sums, session: session, bySetFrom: bySetFrom, netOnly: netOnly)
        let keys = sums.counts.indices.filter { sums.counts[$0] > 0 }
        return (currency, sums, bySet, keys, keys.count > limit ? largest(limit, of: keys, net: sums.net) : Array(keys.indices))
    }

    /// A summary with a trend or two dimensions, when every row is in one currency: each line's sums, and its
    /// months' and columns', in arrays (a period's slot worked out once a day), and a `Line` made for each group at
    /// the end. The general loop looked each row's line up in a dictionary, and its month or column in another, and
    /// summed amounts in per-currency lists: 140-200 ms a million rows, 980 by tag on the `merchants` shape.
    /// With `kept` (by key), only the kept keys get a line, and the others are folded into `others`, a row once
    /// (by tag, a row with any tag not kept), as the general loop and its folding by tag do. Nil when the rows hold
    /// several currencies, or when the lines times the months or the columns pass `maxCells` (a million merchants
    /// by month): the general loop then makes only the cells that hold something. Columns past `denseColumnsTo`
    /// cells (`maxCells` unless told) are summed in `SparseCells`. From `parallelFrom` rows, the rows are summed in two
    /// halves at once. With `keptColumns` (by key of the second dimension, not a period), only the kept columns get
    /// cells; the others' are summed into each line's `foldedColumns`, a cell a key, as folding them adds them up.
    /// By tag with fewer than `maskedLinesTo` lines kept and no columns, each row is summed once, by the lines it is in
    /// (`MaskCells`), and each line's sums are then those of the cells it is in.
    static func gridLines(_ rows: [Int], _ first: Grouping, _ second: Grouping?, trend: Bool, kept: [Bool]?, keptColumns: [Bool]? = nil,
                          _ ledger: Ledger, session: Session, maxCells: Int = 1 << 18, denseColumnsTo: Int? = nil,
                          parallelFrom: Int = 1 << 16, maskedLinesTo: Int = 16) throws(ShellError)
        -> (all: Line, lines: [Line], others: Line, columnTotals: [Int: Groups.Group])?
    {
        guard let head = rows.first else { return nil }
        let currency = ledger.currency[head]
        var lo = Int.max, hi = Int.min
        for row in rows {
            guard ledger.currency[row] == currency else { return nil }
            let d = Int(ledger.days[row])
            (lo, hi) = (min(lo, d), max(hi, d))
        }
        guard hi - lo < 1 << 20, let firstSlots = KeySlots(first, ledger: ledger, days: lo...hi) else { return nil }
        let monthSlots = trend ? KeySlots(Grouping(.month, ledger: ledger, depth: nil), ledger: ledger, days: lo...hi) : nil
        let secondSlots = second.flatMap { KeySlots($0, ledger: ledger, days: lo...hi) }
        if second != nil && secondSlots == nil { return nil }
        // The lines' slots: the kept keys', in key order, or every key's; then the others', then all's.
        var lineOfKey: [Int32] = []
        var keyOfLine: [Int] = []
        if let kept {
            lineOfKey = [Int32](repeating: -1, count: firstSlots.count)
            for k in kept.indices where kept[k] && k < lineOfKey.count {
                lineOfKey[k] = Int32(keyOfLine.count)
                keyOfLine.append(k)
            }
        }
        let lineCount = kept == nil ? firstSlots.count : keyOfLine.count
        let (othersSlot, allSlot) = (lineCount, lineCount + 1)
        // The columns: each slot of the second dimension, or the kept keys', in key order, then one for the others.
        var columnOfSlot: [Int32] = []
        var keyOfColumn: [Int] = []
        if let keptColumns, let secondSlots {
            // (Slots are keys only by a dimension other than a period.)
            guard !secondSlots.grouping.dimension.isPeriod else { return nil }
            columnOfSlot = [Int32](repeating: -1, count: secondSlots.count)
            for s in 0..<secondSlots.count where s < keptColumns.count && keptColumns[s] {
                columnOfSlot[s] = Int32(keyOfColumn.count)
                keyOfColumn.append(secondSlots.key(ofSlot: s))
            }
            for s in columnOfSlot.indices where columnOfSlot[s] < 0 { columnOfSlot[s] = Int32(keyOfColumn.count) }
        }
        let foldsColumns = keptColumns != nil && secondSlots != nil
        let months = trend ? monthSlots?.count ?? 0 : 0, columns = foldsColumns ? keyOfColumn.count + 1 : secondSlots?.count ?? 0
        // Columns past the cells an array takes (by month by tag, 49,000 tags) are summed in the cells that hold
        // something (`SparseCells`), for a few thousand lines at most.
        let denseColumns = (lineCount + 2) * columns <= denseColumnsTo ?? maxCells
        guard (lineCount + 2) * max(months, 1) <= maxCells, denseColumns || lineCount <= 4096 else { return nil }
        let keeps = kept != nil
        // By a dimension a row has one key of, each row is in one line or the others: all is their sums added up at
        // the end, not summed again a row (by month by tag, half of the pass). By tag, a row is in each of its
        // tags' lines, and all is summed a row; so too in sparse cells.
        let allByRow = first.dimension == .tag || (columns > 0 && !denseColumns)
        // (Not optional in the loop: a row's `secondRows?.forEach` or `monthSlots?.slot` copied the whole struct, a
        // `Grouping` inside, to unwrap it. The second dimension's and the months' are read only when there are columns
        // or months.)
        let monthKeys = monthSlots ?? firstSlots
        /// Sums `rows[part]` into `sums` (by line), `byMonth` and `byColumn` (by line and month or column).
        /// On buffers, with nothing captured that changes: sums in arrays checked at each addition, and a nested
        /// function adding to them, spent half the time checking exclusive access.
        func sum(_ part: Range<Int>, _ sums: inout Summing, _ byMonth: inout Summing, _ byColumn: inout Summing, _ sparse: SparseCells,
                 interrupted: () throws(ShellError) -> Void) throws(ShellError) {
            try inChunks(rows[part], ledger, interrupted: interrupted) { chunk, rows, units, scales in
              KeySlots.withRows(firstSlots, ledger) { firstRows in
                KeySlots.withRows(secondSlots ?? firstSlots, ledger) { secondRows in
                lineOfKey.withUnsafeBufferPointer { lineOfKey in
                  columnOfSlot.withUnsafeBufferPointer { columnOfSlot in
                    sums.withSlots { lines in
                        byMonth.withSlots { monthSums in
                            byColumn.withSlots { columnSums in
                                for i in chunk {
                                    let row = rows[i], u = units[row], sc = scales[row]
                                    let month = months > 0 ? monthKeys.slot(row, ledger) : 0
                                    func add(_ line: Int) {
                                        // (With months, a line's sums are its months' added up at the end.)
                                        if months > 0 { monthSums.add(line * months + month, u, sc) } else { lines.add(line, u, sc) }
                                        if columns > 0 {
                                            if denseColumns {
                                                secondRows.forEach(row, ledger) { columnSums.add(line * columns + (foldsColumns ? Int(columnOfSlot[$0]) : $0), u, sc) }
                                            } else {
                                                secondRows.forEach(row, ledger) { sparse.add(line * columns + (foldsColumns ? Int(columnOfSlot[$0]) : $0), u, sc) }
                                            }
                                        }
                                    }
                                    if allByRow { add(allSlot) }
                                    if !keeps {
                                        firstRows.forEach(row, ledger) { add($0) }
                                    } else {
                                        var folded = false
                                        firstRows.forEach(row, ledger) { k in
                                            let line = Int(lineOfKey[k])
                                            if line >= 0 { add(line) } else { folded = true }
                                        }
                                        if folded { add(othersSlot) }
                                    }
                                }
                            }
                        }
                    }
                  }
                }
                }
              }
            }
        }
        var sums = Summing(count: lineCount + 2)
        var byMonth = Summing(count: (lineCount + 2) * months), byColumn = Summing(count: denseColumns ? (lineCount + 2) * columns : 0)
        let sparse = SparseCells()
        if keeps && first.dimension == .tag && columns == 0 && lineCount < maskedLinesTo {
            // By tag with few lines kept: each row summed once, into the cell of the lines it is in (a bit a kept line,
            // one for the others) and its month; each cell then added to each of its lines, and to all. Summed into
            // each of its lines, a row of the merchants shape (5 to 8 tags) was summed 6 to 9 times.
            let mo = max(months, 1)
            func byMask(_ part: Range<Int>, interrupted: () throws(ShellError) -> Void) throws(ShellError) -> MaskCells {
                var cells = MaskCells(lines: lineCount, months: mo)
                try inChunks(rows[part], ledger, interrupted: interrupted) { chunk, rows, units, scales in
                    KeySlots.withRows(firstSlots, ledger) { firstRows in
                        lineOfKey.withUnsafeBufferPointer { lineOfKey in
                            var i = chunk.lowerBound
                            while i < chunk.upperBound {
                                // Until a row in lines no row before was in: its cells are made, and the loop goes on.
                                let unseen = cells.index.withUnsafeBufferPointer { index in
                                    cells.sums.withSlots { slots -> UInt32? in
                                        while i < chunk.upperBound {
                                            let row = rows[i]
                                            var mask: UInt32 = 0
                                            firstRows.forEach(row, ledger) { k in
                                                let line = lineOfKey[k]
                                                mask |= 1 << UInt32(line >= 0 ? Int(line) : lineCount)
                                            }
                                            let at = Int(index[Int(mask)])
                                            if at < 0 { return mask }
                                            slots.add(at * mo + (months > 0 ? monthKeys.slot(row, ledger) : 0), units[row], scales[row])
                                            i += 1
                                        }
                                        return nil
                                    }
                                }
                                if let unseen { cells.make(unseen) }
                            }
                        }
                    }
                }
                return cells
            }
            var parts: [MaskCells] = []
            if rows.count >= parallelFrom {
                let half = rows.count / 2
                let (here, other) = try Parallel.alongside({ () -> MaskCells in
                    (try? byMask(half..<rows.count, interrupted: {})) ?? MaskCells(lines: lineCount, months: mo)
                }, { () throws(ShellError) in try byMask(0..<half, interrupted: session.checkInterrupted) })
                parts = [here, other]
            } else {
                parts = [try byMask(0..<rows.count, interrupted: session.checkInterrupted)]
            }
            // Each cell added to its lines' and all's sums by month (by line alone without a trend), on buffers: with
            // about as many cells as rows (30,000 rows of the merchants shape), checked additions here made this
            // path slower than summing each row into each of its lines.
            func spread(_ part: inout MaskCells, into target: inout Summing) {
                let masks = part.masks
                part.sums.withSlots { cells in
                    target.withSlots { out in
                        for (at, mask) in masks.enumerated() {
                            for m in 0..<mo where cells.counts[at * mo + m] > 0 {
                                var bits = mask
                                while bits != 0 {
                                    let slot = bits.trailingZeroBitCount // (a line's slot is its bit; the others' is the bit after)
                                    bits &= bits - 1
                                    out.add(slot * mo + m, cells, at * mo + m)
                                }
                                out.add(allSlot * mo + m, cells, at * mo + m)
                            }
                        }
                    }
                }
            }
            for i in parts.indices {
                if months > 0 { spread(&parts[i], into: &byMonth) } else { spread(&parts[i], into: &sums) }
            }
        } else if rows.count >= parallelFrom {
            // The rows in two halves at once, each into sums of its own; the second half's then added to the first's,
            // cell by cell (sums are exact, so the order they are made in does not change them). The second half is
            // not interrupted: the first is, and waits for it.
            let half = rows.count / 2
            let (_, other) = try Parallel.alongside({ () -> (Summing, Summing, Summing, SparseCells) in
                var (s, m, c) = (Summing(count: lineCount + 2), Summing(count: (lineCount + 2) * months),
                                 Summing(count: denseColumns ? (lineCount + 2) * columns : 0))
                let p = SparseCells()
                try? sum(half..<rows.count, &s, &m, &c, p, interrupted: {})
                return (s, m, c, p)
            }, { () throws(ShellError) in try sum(0..<half, &sums, &byMonth, &byColumn, sparse, interrupted: session.checkInterrupted) })
            for slot in 0..<(lineCount + 2) where other.0.counts[slot] > 0 { sums.add(slot, other.0, slot) }
            for cell in 0..<((lineCount + 2) * months) where other.1.counts[cell] > 0 { byMonth.add(cell, other.1, cell) }
            for cell in other.2.counts.indices where other.2.counts[cell] > 0 { byColumn.add(cell, other.2, cell) }
            sparse.add(other.3)
        } else {
            try sum(0..<rows.count, &sums, &byMonth, &byColumn, sparse, interrupted: session.checkInterrupted)
        }
        // With a trend, the rows were summed by line and month only (one sum a row and line, not two): each line's sums
        // are its months'.
        for slot in 0..<(lineCount + 2) where months > 0 {
            for m in 0..<months where byMonth.counts[slot * months + m] > 0 { sums.add(slot, byMonth, slot * months + m) }
        }
        if !allByRow {
            for slot in 0...othersSlot where sums.counts[slot] > 0 {
                sums.add(allSlot, from: slot)
                for m in 0..<months { byMonth.add(allSlot * months + m, from: slot * months + m) }
                for c in 0..<columns { byColumn.add(allSlot * columns + c, from: slot * columns + c) }
            }
        }
        // The sparse cells of each line.
        let sparseOfLine = denseColumns ? nil : sparse.keys.withUnsafeBufferPointer { keys in
            KeyedGroups(keys: lineCount + 2, count: keys.count, key: { UInt32(keys[$0] / columns) }, member: { UInt32($0) })
        }
        func line(_ slot: Int, key: Int?) -> Line {
            var l = Line(key: key, group: sums.group(slot, currency: currency))
            for m in 0..<months where byMonth.counts[slot * months + m] > 0 {
                l.byMonth[monthSlots?.key(ofSlot: m) ?? 0] = byMonth.group(slot * months + m, currency: currency)
            }
            func put(_ column: Int, _ group: Groups.Group) {
                if !foldsColumns {
                    l.byColumn[secondSlots?.key(ofSlot: column) ?? 0] = group
                } else if column < keyOfColumn.count {
                    l.byColumn[keyOfColumn[column]] = group
                } else {
                    l.foldedColumns = group
                }
            }
            if denseColumns {
                for c in 0..<columns where byColumn.counts[slot * columns + c] > 0 { put(c, byColumn.group(slot * columns + c, currency: currency)) }
            } else if let sparseOfLine {
                for cell in sparseOfLine.members[Int(sparseOfLine.starts[slot])..<Int(sparseOfLine.starts[slot + 1])].map(Int.init) {
                    put(sparse.keys[cell] % columns, sparse.sums.group(cell, currency: currency))
                }
            }
            return l
        }
        let lines = (0..<lineCount).filter { sums.counts[$0] > 0 }.map { line($0, key: keeps ? keyOfLine[$0] : firstSlots.key(ofSlot: $0)) }
        let all = line(allSlot, key: nil)
        return (Line(group: all.group, byMonth: all.byMonth, foldedColumns: all.foldedColumns), lines, keeps ? line(othersSlot, key: nil) : Line(),
                all.byColumn)
    }

    /// `summary by tag --limit N` in one currency with no trend or columns, when more than N tags are held: the
    /// sums by tag in arrays (as `singleCurrencyLines`), a `Line` for each of the N largest only, and the others
    /// tallied from the rows that hold any of them (a row in several folded tags once). Making a `Line` for each
    /// of the 1M `wide` shape's 49,000 tags, to keep ten, was a third of its `summary by tag --limit 10`.
    static func keptTagLines(_ rows: [Int], _ first: Grouping, _ ledger: Ledger, limit: Int,
                             session: Session, bySetFrom: Int = 4) throws(ShellError) -> (all: Line, lines: [Line], others: Line, folded: Int)? {
        guard let (currency, sums, bySet, keys, best) = try tagSums(rows, first, ledger, limit: limit, session: session, bySetFrom: bySetFrom)
        else { return nil }
        guard keys.count > limit else {
            // Every tag is shown, nothing folded: the lines as they are (returning nil here summed every row again,
            // half of a `summary by tag --limit 20` of the 1M `merchants` shape's 20 tags).
            return (Line(group: sums.group(nil, currency: currency)), keys.map { Line(key: $0, group: sums.group($0, currency: currency)) },
                    Line(), 0)
        }
        var isFolded = [Bool](repeating: true, count: sums.counts.count)
        for i in best { isFolded[keys[i]] = false }
        let setFolded = first.setsWithAKey(isFolded)
        var folded = Summing(count: 0)
        if let bySet {
            // Set by set, where the rows were summed so.
            for set in bySet.counts.indices where bySet.counts[set] > 0 && setFolded[set] { folded.addAll(bySet, set) }
        } else {
            for (i, row) in rows.enumerated() {
                if i & 4095 == 0 { try session.checkInterrupted() }
                if setFolded[Int(ledger.tagSet[row])] { folded.addAll(ledger.amountUnits[row], ledger.amountScale[row]) }
            }
        }
        return (Line(group: sums.group(nil, currency: currency)), best.map { Line(key: keys[$0], group: sums.group(keys[$0], currency: currency)) },
                Line(group: folded.group(nil, currency: currency)), keys.count - best.count)
    }

    /// `keptLines` with every key's four sums kept, the others folded from them key by key.
    static func keptLinesByKey(_ rows: [Int], _ first: Grouping, _ ledger: Ledger, limit: Int,
                               session: Session) throws(ShellError) -> (all: Line, lines: [Line], others: Line, folded: Int)? {
        guard let bound = first.keyBound(ledger), let head = rows.first else { return nil }
        let currency = ledger.currency[head]
        var sums = Summing(count: bound)
        for (i, row) in rows.enumerated() {
            if i & 4095 == 0 { try session.checkInterrupted() }
            guard ledger.currency[row] == currency else { return nil }
            let units = ledger.amountUnits[row], scale = ledger.amountScale[row]
            sums.add(first.key(row, ledger), units, scale)
            sums.addAll(units, scale)
        }
        let keys = sums.counts.indices.filter { sums.counts[$0] > 0 }
        let best = largest(limit, of: keys, net: sums.net)
        var shown = [Bool](repeating: false, count: keys.count)
        for i in best { shown[i] = true }
        var folded = (count: 0, net: Summing.Running(), inflow: Summing.Running(), outflow: Summing.Running())
        for i in keys.indices where !shown[i] {
            let k = keys[i]
            folded.count += sums.counts[k]
            folded.net.add(sums.net[k])
            folded.inflow.add(sums.inflow[k])
            folded.outflow.add(sums.outflow[k])
        }
        let others = Line(group: Groups.Group(count: folded.count, currency: currency, net: folded.net.amount,
                                              inflow: folded.inflow.amount, outflow: folded.outflow.amount))
        return (Line(group: sums.group(nil, currency: currency)), best.map { Line(key: keys[$0], group: sums.group(keys[$0], currency: currency)) },
                others, keys.count - best.count)
    }

    /// The groups `summary --limit` keeps, found without a `Line` per group: each key's net total in the main
    /// currency (the first row's) summed in an array, then the first `limit` in `order`'s order. Nil (work it out
    /// line by line) by a period or a tag (a row has several), or when the rows hold more than one currency (the
    /// folded row's totals would list currencies in another order).
    static func keptKeys(_ rows: [Int], _ first: Grouping, _ ledger: Ledger, limit: Int,
                         session: Session, twoCoresFrom: Int = 1 << 18) throws(ShellError) -> (isKept: [Bool], folded: Int)? {
        // Summed exactly, as `AmountTotals.add` sums (on two cores from `twoCoresFrom` keys, as `keptLines` sums them).
        guard let bound = first.keyBound(ledger),
              let (net, _) = try netByKey(rows, first, ledger, bound: bound, session: session, twoCoresFrom: twoCoresFrom) else { return nil }
        let keys = net.indices.filter { net[$0].present }
        let best = largest(limit, of: keys, net: net)
        var isKept = [Bool](repeating: false, count: bound)
        for i in best { isKept[keys[i]] = true }
        return (isKept, keys.count - best.count)
    }

    /// The positions in `keys` of the `limit` largest by the size of their net total (`net` by key), ties by key:
    /// the first lines in `order`'s order.
    ///
    /// The sizes are compared as 64-bit integers at the largest scale among them when they all fit (a million
    /// merchants' sizes made as `Amount`s at the largest scale there is, in 128 bits, and compared as such, took
    /// most of a `summary by merchant --limit 10`); else in 128 bits at the largest scale there is.
    static func largest(_ limit: Int, of keys: [Int], net: [Summing.Running]) -> [Int] {
        if limit <= 64, let few = fewLargest(limit, of: keys, net: net) { return few }
        if let narrow = magnitudesAtOneScale(keys.lazy.map { net[$0] }) {
            return narrow.withUnsafeBufferPointer { size in
                keys.withUnsafeBufferPointer { keys in
                    firstInOrder(limit, of: keys.indices, twoCoresFrom: 1 << 16) { size[$0] != size[$1] ? size[$0] > size[$1] : keys[$0] < keys[$1] }
                }
            }
        }
        let size = keys.map { net[$0].amount?.sizeAtMaxScale ?? 0 }
        return firstInOrder(limit, of: keys.indices, twoCoresFrom: 1 << 16) { (size[$0], keys[$1]) > (size[$1], keys[$0]) }
    }

    /// `largest` for a few (up to 64), in one pass with no array of sizes: each key's size at the largest scale
    /// among them, in 64 bits, weighed against the least of the few kept so far. (A million merchants' sizes in an
    /// array of their own were fresh memory, and their page faults and the array a third of `summary by merchant
    /// --limit 20` on the 1M `wide` shape.) Nil where `magnitudesAtOneScale` is.
    static func fewLargest(_ limit: Int, of keys: [Int], net: [Summing.Running]) -> [Int]? {
        guard let scale = oneScale(keys.lazy.map { net[$0] }) else { return nil }
        // Largest first, ties by key; at most `limit`.
        var best: [(size: UInt64, key: Int, at: Int)] = []
        best.reserveCapacity(limit + 1)
        for (i, k) in keys.enumerated() {
            let t = net[k]
            var size: UInt64 = 0
            if t.present {
                guard let u = t.scale == scale ? t.units : Total.rescaled(t.units, from: t.scale, to: scale), let n = Int64(exactly: u) else { return nil }
                size = n.magnitude
            }
            if best.count == limit, let least = best.last, size < least.size || (size == least.size && k > least.key) { continue }
            var p = best.count
            while p > 0 && (best[p - 1].size < size || (best[p - 1].size == size && best[p - 1].key > k)) { p -= 1 }
            best.insert((size, k, i), at: p)
            if best.count > limit { best.removeLast() }
        }
        return best.map(\.at)
    }

    /// The sizes of the totals at the largest scale among them (none as 0), when each fits 64 bits; nil when one
    /// does not, or one overflowed.
    static func magnitudesAtOneScale<C: Collection>(_ totals: C) -> [UInt64]? where C.Element == Summing.Running {
        guard let scale = oneScale(totals) else { return nil }
        var sizes: [UInt64] = []
        sizes.reserveCapacity(totals.count)
        for t in totals {
            guard let u = t.present ? Total.rescaled(t.units, from: t.scale, to: scale) : 0, let n = Int64(exactly: u) else { return nil }
            sizes.append(n.magnitude)
        }
        return sizes
    }

    /// The largest scale among the totals present; nil when one overflowed.
    @inline(__always)
    static func oneScale<C: Sequence>(_ totals: C) -> UInt8? where C.Element == Summing.Running {
        var scale: UInt8 = 0
        for t in totals where t.present {
            if t.overflowed { return nil }
            scale = max(scale, t.scale)
        }
        return scale
    }

    /// The lines of a summary by one dimension with no limit or trend, when every row is in one currency: summed
    /// in arrays by key (a period's key worked out once per day), and a `Line` made per group at the end, where the
    /// general loop looked each row's line up in a dictionary and summed amounts in per-currency lists. Nil when
    /// the rows hold several currencies.
    static func singleCurrencyLines(_ rows: [Int], _ first: Grouping, _ ledger: Ledger,
                                    session: Session) throws(ShellError) -> (all: Line, lines: [Line])? {
        guard let head = rows.first else { return nil }
        let currency = ledger.currency[head]
        guard !rows.contains(where: { ledger.currency[$0] != currency }) else { return nil }
        // Each row's key as a slot of the arrays: table ids as they are; periods through a slot per day.
        var slotKeys: [Int] = []
        var slotOfKey: [Int: Int] = [:]
        var dayBase = 0
        var slotOfDay: [Int32] = []
        let bound: Int
        if let b = first.keyBound(ledger) ?? first.tagKeyBound {
            bound = b
        } else if first.dimension.isPeriod {
            let days = rows.lazy.map { Int(ledger.days[$0]) }
            guard let lo = days.min(), let hi = days.max(), hi - lo < 1 << 20 else { return nil }
            dayBase = lo
            slotOfDay = [Int32](repeating: -1, count: hi - lo + 1)
            bound = 0
        } else {
            return nil
        }
        var sums = Summing(count: bound)
        if first.dimension == .tag {
            try sumByTag(rows, first, ledger, into: &sums, session: session)
            return (Line(group: sums.group(nil, currency: currency)),
                    sums.counts.indices.filter { sums.counts[$0] > 0 }.map { Line(key: $0, group: sums.group($0, currency: currency)) })
        }
        for (i, row) in rows.enumerated() {
            if i & 4095 == 0 { try session.checkInterrupted() }
            let units = ledger.amountUnits[row], scale = ledger.amountScale[row]
            let slot: Int
            if bound > 0 {
                slot = first.key(row, ledger)
            } else {
                let d = Int(ledger.days[row]) - dayBase
                if slotOfDay[d] < 0 {
                    let key = Period.key(first.dimension, ledger.day(row))
                    if let known = slotOfKey[key] { slotOfDay[d] = Int32(known) } else {
                        slotOfKey[key] = slotKeys.count
                        slotOfDay[d] = Int32(slotKeys.count)
                        slotKeys.append(key)
                        sums.grow(to: slotKeys.count)
                    }
                }
                slot = Int(slotOfDay[d])
            }
            sums.add(slot, units, scale)
            sums.addAll(units, scale)
        }
        let keyOfSlot = { (slot: Int) in bound > 0 ? slot : slotKeys[slot] }
        let lines = sums.counts.indices.filter { sums.counts[$0] > 0 }.map { Line(key: keyOfSlot($0), group: sums.group($0, currency: currency)) }
        return (Line(group: sums.group(nil, currency: currency)), lines)
    }

    /// `singleCurrencyLines` by tag: a transaction counts once in each of its tags (and once in all).
    ///
    /// Where the rows are many for their sets (four or more a set the table holds), they are summed by set first
    /// and each set's sums then added to its keys: the `wide` shape's million rows hold 49,000 sets of two or three
    /// tags each. Otherwise each row is added to its keys, the rows in two halves at once from `parallelFrom` rows
    /// (the `merchants` shape: a set of five to eight tags for almost every row), the halves' sums then added.
    /// Sums are exact, so the order they are made in does not change them.
    /// Returns the sums by set when it made them.
    @discardableResult
    static func sumByTag(_ rows: [Int], _ first: Grouping, _ ledger: Ledger, into sums: inout Summing,
                         session: Session, bySetFrom: Int = 4, parallelFrom: Int = 1 << 16, netOnly: Bool = false) throws(ShellError) -> Summing? {
        let sets = ledger.tagSets.count
        if bySetFrom == 0 || sets <= rows.count / bySetFrom {
            var bySet = Summing(count: sets)
            try sumByKeys(rows[...], ledger, into: &bySet, netOnly: netOnly, interrupted: session.checkInterrupted) { tagSet, row, add in add(Int(tagSet[row])) }
            first.withSetKeys { keys in
                for set in 0..<sets where bySet.counts[set] > 0 { keys.forEach(set) { sums.add($0, bySet, set) } }
            }
            sums.addAll(bySet)
            return bySet
        }
        func byTag(_ part: ArraySlice<Int>, into sums: inout Summing, interrupted: () throws(ShellError) -> Void) throws(ShellError) {
            try first.withSetKeys { (keys) throws(ShellError) in
                try sumByKeys(part, ledger, into: &sums, netOnly: netOnly, interrupted: interrupted) { tagSet, row, add in keys.forEach(Int(tagSet[row]), add) }
            }
        }
        guard rows.count >= parallelFrom else {
            try byTag(rows[...], into: &sums, interrupted: session.checkInterrupted)
            return nil
        }
        let half = rows.count / 2
        let bound = sums.counts.count
        // (The second half is not interrupted: the first is, and waits for it.)
        let (_, second) = try Parallel.alongside({ () -> Summing in
            var other = Summing(count: bound)
            try? byTag(rows[half...], into: &other, interrupted: {})
            return other
        }, { () throws(ShellError) in try byTag(rows[..<half], into: &sums, interrupted: session.checkInterrupted) })
        for slot in 0..<bound where second.counts[slot] > 0 { sums.add(slot, second, slot) }
        sums.addAll(second)
        return nil
    }

    /// Calls `body` with each run of up to 4,096 of `rows` (positions in `part`, the rows as a buffer) and every
    /// row's units and scale as buffers, asking `interrupted` before each run: the loops that sum rows into arrays
    /// read them so (arrays checked for uniqueness and bounds at every addition were slower).
    @inline(__always)
    static func inChunks(_ rows: ArraySlice<Int>, _ ledger: Ledger, interrupted: () throws(ShellError) -> Void,
                         _ body: (_ chunk: Range<Int>, _ part: UnsafeBufferPointer<Int>, _ units: UnsafeBufferPointer<Int64>,
                                  _ scales: UnsafeBufferPointer<UInt8>) -> Void) throws(ShellError) {
        var done = 0
        while done < rows.count {
            try interrupted()
            let chunk = done..<min(done + 4096, rows.count)
            rows.withUnsafeBufferPointer { part in
                ledger.amountUnits.withUnsafeBufferPointer { units in
                    ledger.amountScale.withUnsafeBufferPointer { scales in body(chunk, part, units, scales) }
                }
            }
            done = chunk.upperBound
        }
    }

    /// Adds each of `rows` to each key `keys` gives it and to all, on buffers: each sum an array's element (with
    /// `netOnly`, a key's count and net total only, and nothing to all).
    @inline(__always)
    static func sumByKeys(_ rows: ArraySlice<Int>, _ ledger: Ledger, into sums: inout Summing, netOnly: Bool = false,
                          interrupted: () throws(ShellError) -> Void,
                          keys: (_ tagSet: UnsafeBufferPointer<UInt32>, _ row: Int, _ add: (Int) -> Void) -> Void) throws(ShellError) {
        try inChunks(rows, ledger, interrupted: interrupted) { chunk, part, units, scales in
            ledger.tagSet.withUnsafeBufferPointer { tagSet in
                sums.withSlots { slots in
                    for i in chunk {
                        let row = part[i], u = units[row], sc = scales[row]
                        if netOnly { keys(tagSet, row) { slots.addNet($0, u, sc) } } else { keys(tagSet, row) { slots.add($0, u, sc) } }
                    }
                }
            }
            if !netOnly { for i in chunk { sums.addAll(units[part[i]], scales[part[i]]) } }
        }
    }

    /// A summary's sums in one currency, by slot and in all: as `Groups.Group.add` sums them, amount by amount.
    struct Summing {
        /// One running total, exact as `Total` keeps one (in 24 bytes, where a `Total` takes 32: a million keys'
        /// sums are fresh memory): its units in 128 bits, `high` above `low`, at the largest scale among the amounts
        /// added; `overflowed` once a sum passes them (written as overflow, never as another figure).
        struct Running {
            var low: UInt64 = 0
            var high: Int64 = 0
            var scale: UInt8 = 0
            var present = false
            var overflowed = false

            var units: Int128 { Int128(high) << 64 | Int128(low) }

            @inline(__always)
            mutating func add(_ u: Int64, _ s: UInt8) {
                guard present else { (low, high, scale, present) = (UInt64(bitPattern: u), u < 0 ? -1 : 0, s, true); return }
                if s == scale { add(Int128(u)) } else { addRescaling(Int128(u), s) }
            }

            mutating func add(_ other: Running) {
                guard other.present else { return }
                guard present else { self = other; return }
                if other.overflowed { overflowed = true }
                if other.scale == scale { add(other.units) } else { addRescaling(other.units, other.scale) }
            }

            @inline(__always)
            private mutating func add(_ v: Int128) {
                let (sum, overflow) = units.addingReportingOverflow(v)
                (low, high) = (UInt64(truncatingIfNeeded: sum), Int64(truncatingIfNeeded: sum >> 64))
                if overflow { overflowed = true }
            }

            private mutating func addRescaling(_ u: Int128, _ s: UInt8) {
                var t = Total(units: units, scale: scale)
                t.add(u, s)
                if t.overflowed { overflowed = true }
                (low, high, scale) = (UInt64(truncatingIfNeeded: t.units), Int64(truncatingIfNeeded: t.units >> 64), t.scale)
            }

            var amount: Total? { present ? Total(units: units, scale: scale, overflowed: overflowed) : nil }
        }

        var counts: [Int]
        var net: [Running], inflow: [Running], outflow: [Running]
        var all = (count: 0, net: Running(), inflow: Running(), outflow: Running())

        init(count: Int) {
            counts = Array(repeating: 0, count: count)
            // Three arrays made apart: copies of one would each be copied whole at their first change (a million
            // keys: 32 MB moved).
            net = Array(repeating: Running(), count: count)
            inflow = Array(repeating: Running(), count: count)
            outflow = Array(repeating: Running(), count: count)
        }

        mutating func grow(to n: Int) {
            let more = n - counts.count
            guard more > 0 else { return }
            // (A key at a time, as the general loop makes them: one append each, where an append of a repeated value
            // cost `summary-csv` 9.5% more. Many at once, as `MaskCells` makes a mask's months: one append of them all.)
            if more == 1 {
                counts.append(0); net.append(Running()); inflow.append(Running()); outflow.append(Running())
                return
            }
            counts.append(contentsOf: repeatElement(0, count: more))
            net.append(contentsOf: repeatElement(Running(), count: more))
            inflow.append(contentsOf: repeatElement(Running(), count: more))
            outflow.append(contentsOf: repeatElement(Running(), count: more))
        }

        @inline(__always)
        mutating func add(_ slot: Int, _ u: Int64, _ s: UInt8) {
            counts[slot] += 1
            net[slot].add(u, s)
            if u < 0 { outflow[slot].add(u, s) } else { inflow[slot].add(u, s) }
        }

        /// The sums by slot as buffers, for loops that should not check the arrays on every addition.
        struct Slots {
            let counts: UnsafeMutableBufferPointer<Int>
            let net: UnsafeMutableBufferPointer<Running>, inflow: UnsafeMutableBufferPointer<Running>
            let outflow: UnsafeMutableBufferPointer<Running>

            @inline(__always)
            func add(_ slot: Int, _ u: Int64, _ s: UInt8) {
                counts[slot] += 1
                net[slot].add(u, s)
                if u < 0 { outflow[slot].add(u, s) } else { inflow[slot].add(u, s) }
            }

            /// Adds `other`'s sums of its slot `from` to slot `slot`.
            @inline(__always)
            func add(_ slot: Int, _ other: Slots, _ from: Int) {
                counts[slot] += other.counts[from]
                net[slot].add(other.net[from])
                inflow[slot].add(other.inflow[from])
                outflow[slot].add(other.outflow[from])
            }

            /// Counts the amount and adds it to the net total only (`sumByKeys` with `netOnly`: the tags `keptTags`
            /// picks by their net totals).
            @inline(__always)
            func addNet(_ slot: Int, _ u: Int64, _ s: UInt8) {
                counts[slot] += 1
                net[slot].add(u, s)
            }
        }

        mutating func withSlots<R>(_ body: (Slots) -> R) -> R {
            counts.withUnsafeMutableBufferPointer { c in
                net.withUnsafeMutableBufferPointer { n in
                    inflow.withUnsafeMutableBufferPointer { i in
                        outflow.withUnsafeMutableBufferPointer { o in body(Slots(counts: c, net: n, inflow: i, outflow: o)) }
                    }
                }
            }
        }

        /// Adds the sums of slot `from` to slot `slot`.
        mutating func add(_ slot: Int, from: Int) {
            guard counts[from] > 0 else { return }
            counts[slot] += counts[from]
            net[slot].add(net[from])
            inflow[slot].add(inflow[from])
            outflow[slot].add(outflow[from])
        }

        /// Adds `other`'s sums of its slot `from` to slot `slot`.
        mutating func add(_ slot: Int, _ other: Summing, _ from: Int) {
            counts[slot] += other.counts[from]
            net[slot].add(other.net[from])
            inflow[slot].add(other.inflow[from])
            outflow[slot].add(other.outflow[from])
        }

        /// Adds `other`'s sums of its slot `from` to all.
        mutating func addAll(_ other: Summing, _ from: Int) {
            all.count += other.counts[from]
            all.net.add(other.net[from])
            all.inflow.add(other.inflow[from])
            all.outflow.add(other.outflow[from])
        }

        /// Adds `other`'s sums in all to all.
        mutating func addAll(_ other: Summing) {
            all.count += other.all.count
            all.net.add(other.all.net)
            all.inflow.add(other.all.inflow)
            all.outflow.add(other.all.outflow)
        }

        @inline(__always)
        mutating func addAll(_ u: Int64, _ s: UInt8) {
            all.count += 1
            all.net.add(u, s)
            if u < 0 { all.outflow.add(u, s) } else { all.inflow.add(u, s) }
        }

        /// A slot's sums (nil: all) as the group the general loop makes.
        func group(_ slot: Int?, currency: UInt32) -> Groups.Group {
            let (count, n, i, o) = slot.map { (counts[$0], net[$0], inflow[$0], outflow[$0]) } ?? all
            return Groups.Group(count: count, currency: currency, net: n.amount, inflow: i.amount, outflow: o.amount)
        }
    }

    /// Sums by the lines a row is in (`gridLines` by tag with few lines kept): `mask` has bit `l` for line `l` and
    /// bit `lines` for the others; a cell a mask seen and month (`months` a mask), the masks in the order seen.
    struct MaskCells {
        /// By mask: where its cells begin, divided by `months`; -1 for a mask not seen.
        var index: [Int32]
        var masks: [UInt32] = []
        var sums = Summing(count: 0)
        let months: Int

        init(lines: Int, months: Int) {
            index = [Int32](repeating: -1, count: 1 << (lines + 1))
            self.months = months
        }

        mutating func make(_ mask: UInt32) {
            index[Int(mask)] = Int32(masks.count)
            masks.append(mask)
            sums.grow(to: masks.count * months)
        }
    }

    /// The positions in `lines` of the first `limit` in `order`'s order for groups other than periods (largest
    /// first, ties by key), in that order; the others are not put in order.
    static func first(_ limit: Int, of lines: [Line], size: (Line) -> Int128) -> [Int] {
        let keyed = lines.map { (size: size($0), key: $0.key ?? 0) }
        return firstInOrder(limit, of: lines.indices, twoCoresFrom: 1 << 16) { (keyed[$0].size, keyed[$1].key) > (keyed[$1].size, keyed[$0].key) }
    }

    /// Periods in date order; other groups largest first (by the size of their net total), ties by key.
    static func order(_ lines: inout [Line], period: Bool, size: (Line) -> Int128) {
        if period { lines.sort { ($0.key ?? 0) < ($1.key ?? 0) }; return }
        // Each line's size and key worked out once, then the positions sorted (not a hash lookup per comparison:
        // a million merchants took seconds).
        let keyed = lines.map { (size: size($0), key: $0.key ?? 0) }
        let order = lines.indices.sorted { (keyed[$0].size, keyed[$1].key) > (keyed[$1].size, keyed[$0].key) }
        lines = order.map { lines[$0] }
    }

    private var mainCurrency: UInt32? { all.group.totals.entries.first?.currency }

    private func label(_ line: Line) -> (String, Color?) {
        if let k = line.key { return groupings[0].label(k, ledger) }
        return ("(\(line.folded) \(groupings[0].dimension.isPeriod ? "earlier" : "others"))", nil)
    }

    // MARK: JSON and CSV

    func json() -> [String] {
        let d1 = groupings[0].dimension.rawValue
        func head(_ line: Line) -> String {
            if let k = line.key { return "\"\(d1)\": " + (groupings[0].name(k, ledger).map(Export.jsonString) ?? "null") }
            return "\"\(d1)\": null, \"\(groupings[0].dimension.isPeriod ? "earlier" : "others")\": \(line.folded)"
        }
        func body(_ g: Groups.Group) -> String {
            "\"count\": \(g.count), \"inflow\": \(Groups.json(g.inflow, ledger)), \"outflow\": \(Groups.json(g.outflow, ledger)), \"total\": \(Groups.json(g.totals, ledger))"
        }
        guard groupings.count > 1 else { return lines.map { "{" + head($0) + ", " + body($0.group) + "}" } }
        let d2 = groupings[1].dimension.rawValue
        return lines.flatMap { line in
            columns.compactMap { k2 in
                line.byColumn[k2].map { "{" + head(line) + ", \"\(d2)\": " + (groupings[1].name(k2, ledger).map(Export.jsonString) ?? "null") + ", " + body($0) + "}" }
            }
        }
    }

    func csv() -> [String] {
        func name(_ g: Grouping, _ key: Int?, _ folded: Int) -> String {
            Render.csvField(key.map { g.name($0, ledger) ?? "" } ?? "(\(folded) \(g.dimension.isPeriod ? "earlier" : "others"))")
        }
        func amounts(_ g: Groups.Group) -> [String] {
            g.totals.entries.map { e in
                // No money in (or out) is a zero written to the currency's scale, as the amounts beside it are.
                let zero = Total(units: 0, scale: scales[Int(e.currency)])
                let inflow = g.inflow.entries.first { $0.currency == e.currency }?.amount ?? zero
                let outflow = g.outflow.entries.first { $0.currency == e.currency }?.amount ?? zero
                return [String(g.count(in: e.currency)), Render.csvField(ledger.currencies[e.currency]), inflow.description, outflow.description, e.amount.description]
                    .joined(separator: ",")
            }
        }
        let names = groupings.map(\.dimension.rawValue).joined(separator: ",")
        var out = [names + ",count,currency,inflow,outflow,net"]
        for line in lines {
            let n1 = name(groupings[0], line.key, line.folded)
            if groupings.count == 1 {
                out += amounts(line.group).map { n1 + "," + $0 }
            } else {
                for k2 in columns { if let g = line.byColumn[k2] { out += amounts(g).map { n1 + "," + name(groupings[1], k2, 0) + "," + $0 } } }
            }
        }
        return out
    }

    // MARK: Table

    func table(width: Int?, style: Style) -> Table {
        groupings.count > 1 ? crossTable(width: width, style: style) : flowTable(width: width, style: style)
    }

    /// One row per group: count, in, out, net, an optional trend and a bar of money out and in.
    /// When the width is short, the bar goes first, then IN and OUT, then the trend; names are cut last.
    private func flowTable(width: Int?, style s: Style) -> Table {
        enum Part { case label, count, inflow, outflow, net, trend, bar }
        let all = lines + [self.all]
        let labels = lines.map(label) + [("total", nil)]
        func text(_ part: Part, _ i: Int) -> String {
            let g = all[i].group
            switch part {
            case .label: return labels[i].0
            case .count: return String(g.count)
            case .inflow: return Groups.text(g.inflow, ledger, scales: scales)
            case .outflow: return Groups.text(g.outflow, ledger, scales: scales)
            case .net: return Groups.text(g.totals, ledger, scales: scales)
            case .trend:
                guard let months, let main = mainCurrency, !all[i].byMonth.isEmpty else { return "" }
                return Sparkline.render(months.map { all[i].byMonth[$0]?.totals.units(of: main) ?? 0 })
            case .bar: return ""
            }
        }
        let headers: [Part: String] = [.label: groupings[0].dimension.rawValue.uppercased(), .count: "COUNT", .inflow: "IN", .outflow: "OUT", .net: "NET", .trend: "TREND", .bar: ""]
        // Each column's texts and widest text, worked out once: the widths are asked for again and again below, and
        // a summary by merchant of a million merchants has a million rows.
        var columns: [Part: [String]] = [:], widths: [Part: Int] = [:]
        func column(_ part: Part) -> [String] {
            if let c = columns[part] { return c }
            let c = all.indices.map { text(part, $0) }
            columns[part] = c
            return c
        }
        func natural(_ part: Part) -> Int {
            if let w = widths[part] { return w }
            let w = max(TextSafety.displayWidth(headers[part] ?? ""), column(part).lazy.map(TextSafety.displayWidth).max() ?? 0)
            widths[part] = w
            return w
        }
        let labelNeed = min(natural(.label), max(10, TextSafety.displayWidth(headers[.label] ?? "")))
        var parts: [Part] = [.label, .count, .net]
        var used = natural(.label) + natural(.count) + natural(.net) + 4
        let room = width ?? Int.max
        // The trend, IN and OUT, then the bar, each if it fits (names may be cut down to `labelNeed` for them).
        func fits(_ extra: Int) -> Bool { used - (natural(.label) - labelNeed) + extra <= room }
        // The trend was asked for, so it goes before IN and OUT.
        if months != nil, fits(natural(.trend) + 2) { parts.append(.trend); used += natural(.trend) + 2 }
        if fits(natural(.inflow) + natural(.outflow) + 4) {
            parts.insert(contentsOf: [.inflow, .outflow], at: 2)
            used += natural(.inflow) + natural(.outflow) + 4
        }
        let barWidth = min(40, (width ?? 80) - used - 3)
        if mainCurrency != nil, barWidth >= 8 || width == nil { parts.append(.bar) }
        var table = Table(parts.map { p in
            .init(header: headers[p] ?? "", alignRight: [.count, .inflow, .outflow, .net].contains(p), shrinkable: p == .label, minWidth: labelNeed)
        })
        let cells = parts.map { $0 == .bar ? [] : column($0) }
        for i in all.indices {
            table.add(parts.indices.map { k in
                switch parts[k] {
                case .label: return .init(cells[k][i], paint: labels[i].1.map { color in { s.paint($0, color) } })
                case .trend: return .init(cells[k][i], paint: { s.paint($0, .named(.cyan)) })
                case .bar: return .init("")
                default: return .init(cells[k][i])
                }
            })
        }
        guard parts.last == .bar, let main = mainCurrency else { return table }
        let flows = lines.map { ($0.group.outflow.magnitude(of: main), $0.group.inflow.magnitude(of: main)) }
        let biggest = flows.map { $0.0 + $0.1 }.max() ?? 0
        for (i, (out, inn)) in flows.enumerated() {
            let (outBar, inBar) = Summary.bars(out: out, in: inn, of: biggest, width: max(8, barWidth))
            let color = labels[i].1 ?? .named(.red)
            table.rows[i][parts.count - 1] = .init(outBar + inBar, paint: { text in
                // The cut text keeps the out part first; colour each part.
                let o = String(text.prefix(outBar.count)), n = String(text.dropFirst(outBar.count))
                return (o.isEmpty ? "" : s.paint(o, color)) + (n.isEmpty ? "" : s.green(n))
            })
        }
        return table
    }

    /// The fewest cells a column of a table by two dimensions takes: three and a gap of two.
    static let narrowestColumn = 5

    /// One row per value of the first dimension and one column per value of the second, holding net totals.
    private func crossTable(width: Int?, style s: Style) -> Table {
        let single = all.group.totals.entries.count <= 1
        func text(_ g: Groups.Group?) -> String {
            guard let g else { return "" }
            if single, let e = g.totals.entries.first { return e.amount.formatted(grouping: true, minimumScale: scales[Int(e.currency)]) }
            return Groups.text(g.totals, ledger, scales: scales)
        }
        // (No parentheses for a file without currencies: `MONTH ()` said nothing.)
        let currency = single ? all.group.totals.entries.first.flatMap {
            ledger.currencies[$0.currency].isEmpty ? nil : " (" + TextSafety.sanitize(ledger.currencies[$0.currency]) + ")"
        } ?? "" : ""
        let header = groupings[0].dimension.rawValue.uppercased() + currency
        let labels = lines.map(label) + [("total", nil)]
        let labelWidth = min(24, labels.map { TextSafety.displayWidth($0.0) }.max().map { max($0, TextSafety.displayWidth(header)) } ?? 10)
        let totalCells = (lines.map(\.group) + [all.group]).map(text)
        let totalWidth = max(5, totalCells.map(TextSafety.displayWidth).max() ?? 0)
        // Fold columns one at a time until the table fits: the earliest periods, or the smallest values.
        let period = groupings[1].dimension.isPeriod
        func columnWidth(_ header: String, _ cells: [String]) -> Int { max(TextSafety.displayWidth(header), cells.map(TextSafety.displayWidth).max() ?? 0) }
        func columnCells(_ k: Int) -> [String] { (lines.map { $0.byColumn[k] } + [columnTotals[k]]).map(text) }
        var shown = columns
        // The columns folded here; those folded as the rows were summed come first (`foldedColumns`).
        var folded: [Int] = []
        var foldedGroups = lines.map(\.foldedColumns) + [foldedColumnTotal]
        func fold(_ k: Int) {
            folded.append(k)
            for (i, g) in (lines.map { $0.byColumn[k] } + [columnTotals[k]]).enumerated() {
                if let g { foldedGroups[i].fold(g) }
            }
        }
        func foldOne() { fold(period ? shown.removeFirst() : shown.removeLast()) }
        var anyFolded: Bool { folded.count + foldedColumns > 0 }
        func foldedHeader() -> String { "(\(folded.count + foldedColumns) \(period ? "earlier" : "others"))" }
        if let width {
            // Fold at once what could never fit (`narrowestColumn`). In one currency, each line's cells are read
            // once, not each folded column's in every line (49,000 tags by month: a second).
            let room = width - labelWidth - totalWidth - 4, keep = max(0, room / SummaryReport.narrowestColumn)
            if single && shown.count > keep {
                let n = shown.count - keep
                let out = period ? shown.prefix(n) : shown.suffix(n)
                folded += out
                let isFolded = Set(out)
                for (i, cells) in (lines.map(\.byColumn) + [columnTotals]).enumerated() {
                    for (k, g) in cells where isFolded.contains(k) { foldedGroups[i].fold(g) }
                }
                shown = period ? Array(shown.dropFirst(n)) : Array(shown.prefix(keep))
            }
            while shown.count > keep { foldOne() }
            let widths = Dictionary(uniqueKeysWithValues: shown.map { ($0, columnWidth(groupings[1].label($0, ledger).0, columnCells($0)) + 2) })
            while !shown.isEmpty {
                var used = labelWidth + 2 + totalWidth + shown.reduce(0) { $0 + (widths[$1] ?? 0) }
                if anyFolded { used += columnWidth(foldedHeader(), foldedGroups.map(text)) + 2 }
                if used <= width { break }
                foldOne()
            }
        }
        var cols: [Table.Column] = [.init(header: header, shrinkable: true, minWidth: 10)]
        var cells: [[String]] = []
        if period && anyFolded { cols.append(.init(header: foldedHeader(), alignRight: true)); cells.append(foldedGroups.map(text)) }
        for k in shown { cols.append(.init(header: groupings[1].label(k, ledger).0, alignRight: true)); cells.append(columnCells(k)) }
        if !period && anyFolded { cols.append(.init(header: foldedHeader(), alignRight: true)); cells.append(foldedGroups.map(text)) }
        cols.append(.init(header: "TOTAL", alignRight: true))
        cells.append(totalCells)
        var table = Table(cols)
        for (r, l) in labels.enumerated() {
            table.add([.init(l.0, paint: l.1.map { color in { s.paint($0, color) } })] + cells.map { .init($0[r]) })
        }
        return table
    }
}

extension Optional where Wrapped == Groups.Group {
    /// Adds `group` to this one, made empty first when there is none: a folded cell.
    mutating func fold(_ group: Groups.Group) {
        if self == nil { self = Groups.Group() }
        self!.add(group)
    }
}

extension AmountTotals {
    /// The total in `currency` at scale 18, held to 128 bits (zero when there is none, or it overflowed). For bars
    /// and order only: the figures shown are the totals themselves.
    func units(of currency: UInt32) -> Int128 {
        entries.first { $0.currency == currency }?.amount.unitsAtMaxScale ?? 0
    }

    /// The size of the total in `currency`, whatever its sign.
    func magnitude(of currency: UInt32) -> Int128 {
        entries.first { $0.currency == currency }?.amount.sizeAtMaxScale ?? 0
    }
}

extension Total {
    /// The units at scale 18, held to 128 bits (0 when overflowed): for bars and order.
    var unitsAtMaxScale: Int128 {
        if overflowed { return 0 }
        return units(atScale: Amount.maxScale) ?? (isNegative ? -Int128.max : Int128.max)
    }

    /// `unitsAtMaxScale` whatever its sign.
    var sizeAtMaxScale: Int128 {
        let v = unitsAtMaxScale
        return v < 0 ? -v : v
    }
}

enum Summary {
    /// A bar of `value / max × width` cells, drawn with eighth blocks.
    static func bar(_ value: Int128, of max: Int128, width: Int) -> String {
        guard max > 0, value > 0 else { return "" }
        let eighths = cells(value, of: max, in: width * 8)
        let blocks = ["", "▏", "▎", "▍", "▌", "▋", "▊", "▉"]
        let full = String(repeating: "█", count: eighths / 8) + blocks[eighths % 8]
        return full.isEmpty ? "▏" : full
    }

    /// Money out as a solid bar and money in as a shaded one after it, both on the scale `max`.
    static func bars(out: Int128, in inflow: Int128, of max: Int128, width: Int) -> (String, String) {
        guard max > 0 else { return ("", "") }
        let outBar = bar(out, of: max, width: width)
        guard inflow > 0 else { return (outBar, "") }
        // The two parts together are as long as the whole flow's bar, so rounding never makes a row too long.
        let (sum, overflow) = out.addingReportingOverflow(inflow)
        let whole = overflow ? cells(out / 2 + inflow / 2, of: max / 2, in: width) : cells(sum, of: max, in: width)
        return (outBar, String(repeating: "░", count: Swift.max(1, whole - outBar.count)))
    }

    /// `value / max` of `count` cells, rounded: `value` and `max` halved together until the product fits 128 bits
    /// (a summary of amounts of eighteen digits at eleven places, as units at the largest scale, overflowed it and
    /// stopped tagsh; found by a review). Display only: the totals beside the bars are exact.
    static func cells(_ value: Int128, of max: Int128, in count: Int) -> Int {
        var v = value, m = max
        let c = Int128(Swift.max(count, 1))
        while m > 1 && v > (Int128.max - m) / c { v >>= 1; m >>= 1 }
        return m > 0 ? Int((v * c + m / 2) / m) : 0
    }
}
