#if canImport(Glibc)
import Glibc
#endif
import TagshFormats
import TagshModel
import TagshQuery

extension Commands {
    static let tags: Command = Command(
        name: "tags", group: .exploring, forms: [[.optional([.tag])], [.keyword("rename"), .tag, .value("NEW")], [.keyword("delete"), .tag]],
        summary: "list tags with counts; rename or delete a tag everywhere",
        details: """
            NAME keeps the tags whose name contains it (case-insensitive), or matches /REGEX/. \
            `tags rename OLD NEW` renames a tag on every transaction, merging into NEW where it exists already; \
            `tags delete NAME` removes a tag from every transaction. Each is one undo step. \
            `--limit N` shows the N most used and folds the rest into one `(N others)` row, whose count is the \
            transactions holding any of them (each once).
            """,
        options: [
            .init("limit", .integer("N", 1...Int.max), "show the N most used tags and fold the rest into one row", form: .withoutKeyword),
            .init("json", "one JSON object per tag", form: .withoutKeyword), .init("csv", "CSV with a header line", form: .withoutKeyword),
        ],
        examples: ["tags", "tags trip", "tags '/^trip[/:]/'", "tags --limit 10", "tags rename cofee coffee", "tags delete old-tag"]
    ) { (inv: inout Invocation) throws(ShellError) in
        _ = try inv.requireLedger()
        if let sub = inv.words.first?.text.lowercased(), !inv.words[0].isQuoted, sub == "rename" || sub == "delete" {
            try renameOrDeleteTag(&inv, rename: sub == "rename")
            return
        }
        try inv.expectAtMost(1)
        var filter: (String) -> Bool = { _ in true }
        if let w = inv.words.first {
            switch try textPattern(w) {
            case .contains(let needle): filter = { $0.lowercased().contains(needle) }
            case .regex(let r): filter = { r.matches($0) }
            }
        }
        let session = inv.session
        let ledger = try inv.requireLedger()
        let perSet = try ledger.transactionsPerTagSet { () throws(ShellError) in try session.checkInterrupted() }
        let counts = ledger.transactionsPerTag(perSet: perSet)
        // Most used first, ties by name; each name lowered once (not per comparison: 100,000 tags took 0.3 s).
        let used = ledger.tags.ids.filter { counts[Int($0)] > 0 && filter(ledger.tags[$0]) }
        let lowered = used.map { ledger.tags[$0].lowercased() }
        let order = firstInOrder(inv.intValue("limit") ?? used.count, of: used.indices) {
            (counts[Int(used[$0])], lowered[$1]) > (counts[Int(used[$1])], lowered[$0])
        }
        let ids = order.map { used[$0] }
        // The folded row: how many tags, and how many transactions hold any of them.
        var others: (tags: Int, count: Int)?
        if ids.count < used.count {
            var shown = [Bool](repeating: false, count: ledger.tags.count + 1)
            for id in ids { shown[Int(id)] = true }
            var folded = [Bool](repeating: false, count: ledger.tags.count + 1)
            for id in used where !shown[Int(id)] { folded[Int(id)] = true }
            var n = 0
            for (s, k) in perSet.enumerated() where k > 0 && ledger.tagSets[UInt32(s)].contains(where: { folded[Int($0)] }) { n += k }
            others = (used.count - ids.count, n)
        }
        if inv.flag("json") || inv.session.jsonOutput {
            for id in ids { inv.out.line("{\"tag\": \(Export.jsonString(ledger.tags[id])), \"count\": \(counts[Int(id)])}") }
            if let others { inv.out.line("{\"tag\": null, \"others\": \(others.tags), \"count\": \(others.count)}") }
            return
        }
        if inv.flag("csv") {
            inv.out.line("tag,count")
            for id in ids { inv.out.line(Render.csvField(ledger.tags[id]) + "," + String(counts[Int(id)])) }
            if let others { inv.out.line("(\(others.tags) others),\(others.count)") }
            return
        }
        let r = Render(ledger: ledger, style: inv.out.style)
        var table = Table([.init(header: "TAG", shrinkable: true, minWidth: 10), .init(header: "COUNT", alignRight: true)])
        for id in ids { table.add([.init(TextSafety.sanitize(ledger.tags[id]), paint: { _ in r.tagChip(ledger.tags[id]) }), .init(String(counts[Int(id)]))]) }
        if let others { table.add([.init("(\(others.tags) others)"), .init(String(others.count))]) }
        try table.write(to: inv.out, width: inv.session.tableWidth, session: inv.session)
    }

    static let merchants: Command = Command(
        name: "merchants", group: .exploring, forms: [[.optional([.query])]],
        summary: "list merchants of the matching transactions with counts and totals",
        details: """
            Lists the merchants most used first, with their count and net total. `--limit N` shows the first N \
            and folds the rest into one `(N others)` row, so the counts and totals still add up.
            """,
        options: [
            .init("limit", .integer("N", 1...Int.max), "show N merchants and fold the rest into one row"),
            .init("json", "one JSON object per merchant"), .init("csv", "CSV with a header line: one line per merchant and currency"),
        ],
        examples: ["merchants", "merchants date:2025 amt:>100", "merchants --limit 5"]
    ) { (inv: inout Invocation) throws(ShellError) in
        let ledger = try inv.requireLedger()
        let rows = inv.rows(matching: try inv.query(), in: ledger).rows
        var groups: Groups
        var order: [Int?]
        var others = Groups.Group()
        var folded = 0
        // Most used first, then by name: compared as bytes, not as `String`s made for each comparison (a million
        // distinct descriptions took 18 s to sort that way). With --limit, only the first N are put in order (a
        // million distinct descriptions need not all be sorted to show five).
        func firstN<Key: BinaryInteger>(_ limit: Int, of keys: [Key], counts: (Int) -> Int) -> [Int] {
            ledger.merchants.withAllUTF8 { texts in
                firstInOrder(limit, of: keys.indices, twoCoresFrom: 1 << 16) { a, b in
                    if counts(a) != counts(b) { return counts(a) > counts(b) }
                    return textPrecedes(texts[Int(keys[a])], texts[Int(keys[b])])
                }
            }
        }
        if let limit = inv.intValue("limit"), let head = rows.first, !rows.contains(where: { ledger.currency[$0] != ledger.currency[head] }) {
            // In one currency, the merchants shown are found from counts alone and only they get a group; a group for
            // each of a million distinct descriptions, each with its lists of totals, took 350 ms and 150 MB to show
            // five. The others' count is their merchants' summed; their money in and out row by row, and their total
            // is the two added (sums are exact: before, a total was kept by merchant, 16-24 MB of fresh memory for a
            // million, to be summed in the order the groups were).
            //
            // Only the shown get a group, found by hash: an array by merchant id, as the other path's, was 4 MB of
            // fresh memory for twenty groups. The merchants met are kept in as many bytes as their ids, in room for
            // all at once (grown from empty, a million `Int`s were moved some twenty times).
            groups = Groups()
            var counts = [Int32](repeating: 0, count: ledger.merchants.count + 1)
            var keys: [UInt32] = []
            keys.reserveCapacity(min(rows.count, ledger.merchants.count))
            for (i, row) in rows.enumerated() {
                if i % 4096 == 0 { try inv.session.checkInterrupted() }
                let m = ledger.merchant[row]
                if counts[Int(m)] == 0 { keys.append(m) }
                counts[Int(m)] += 1
            }
            let first = firstN(min(limit, keys.count), of: keys) { Int(counts[Int(keys[$0])]) }
            var shown = [Bool](repeating: false, count: counts.count)
            for i in first { shown[Int(keys[i])] = true }
            var inflow = SummaryReport.Summing.Running(), outflow = inflow
            for (i, row) in rows.enumerated() {
                if i % 4096 == 0 { try inv.session.checkInterrupted() }
                let m = Int(ledger.merchant[row])
                if shown[m] {
                    groups.add(key: m, row: row, ledger: ledger)
                } else if ledger.amountUnits[row] < 0 {
                    outflow.add(ledger.amountUnits[row], ledger.amountScale[row])
                } else {
                    inflow.add(ledger.amountUnits[row], ledger.amountScale[row])
                }
            }
            var rest = (count: 0, net: inflow)
            rest.net.add(outflow)
            for k in keys where !shown[Int(k)] { rest.count += Int(counts[Int(k)]) }
            others = Groups.Group(count: rest.count, currency: ledger.currency[head], net: rest.net.amount,
                                  inflow: inflow.amount, outflow: outflow.amount)
            order = first.map { Int(keys[$0]) }
            folded = keys.count - first.count
        } else {
            groups = Groups(keysBelow: ledger.merchants.count + 1)
            for (i, row) in rows.enumerated() {
                if i % 4096 == 0 { try inv.session.checkInterrupted() }
                groups.add(key: Int(ledger.merchant[row]), row: row, ledger: ledger)
            }
            let keys = groups.keys, counts = groups.counts
            let first = firstN(inv.intValue("limit").map { min($0, keys.count) } ?? keys.count, of: keys) { counts[$0] }
            order = first.map { keys[$0] }
            folded = keys.count - first.count
            if folded > 0 {
                var shown = [Bool](repeating: false, count: keys.count)
                for i in first { shown[i] = true }
                for i in keys.indices where !shown[i] { others.add(groups.group(at: i)) }
            }
        }
        if folded > 0 { order.append(nil) }
        func group(_ k: Int?) -> Groups.Group { k.map { groups[$0] } ?? others }
        if inv.flag("json") || inv.session.jsonOutput {
            for k in order {
                let name = k.map { Export.jsonString(ledger.merchants[UInt32($0)]) } ?? "null, \"others\": \(folded)"
                inv.out.line("{\"merchant\": \(name), \"count\": \(group(k).count), \"total\": \(group(k).totalsJSON(ledger))}")
            }
            return
        }
        if inv.flag("csv") {
            inv.out.line("merchant,count,currency,total")
            for k in order {
                let name = Render.csvField(k.map { ledger.merchants[UInt32($0)] } ?? "(\(folded) others)")
                for e in group(k).totals.entries {
                    inv.out.line("\(name),\(group(k).count(in: e.currency)),\(Render.csvField(ledger.currencies[e.currency])),\(e.amount)")
                }
            }
            return
        }
        let scales = Render.displayScales(ledger)
        var table = Table([
            .init(header: "MERCHANT", shrinkable: true, minWidth: 12), .init(header: "COUNT", alignRight: true),
            .init(header: "TOTAL", alignRight: true),
        ])
        for k in order {
            table.add([.init(k.map { TextSafety.sanitize(ledger.merchants[UInt32($0)]) } ?? "(\(folded) others)"), .init(String(group(k).count)),
                       .init(group(k).totalsText(ledger, scales: scales))])
        }
        try table.write(to: inv.out, width: inv.session.tableWidth, session: inv.session)
    }

    static let categories: Command = Command(
        name: "categories", group: .exploring, forms: [[]],
        summary: "list categories, default and custom, with counts, colours and icons",
        options: [.init("json", "one JSON object per category"), .init("csv", "CSV with a header line")],
        examples: ["categories"]
    ) { (inv: inout Invocation) throws(ShellError) in
        let ledger = try inv.requireLedger()
        try inv.expectAtMost(0)
        var counts = [Int](repeating: 0, count: Int(ledger.categories.ids.upperBound))
        for c in ledger.category { counts[Int(c)] += 1 }
        if inv.flag("json") || inv.session.jsonOutput {
            for id in ledger.categories.liveIDs {
                let c = ledger.categories[id]
                inv.out.line("{\"category\": \(Export.jsonString(c.name)), \"default\": \(c.isDefault), \"count\": \(counts[Int(id)]), \"color\": \(c.color.map { Export.jsonString($0.description) } ?? "null"), \"icon\": \(c.icon.map { Export.jsonString(String($0)) } ?? "null")}")
            }
            return
        }
        if inv.flag("csv") {
            inv.out.line("category,kind,count,color,icon")
            for id in ledger.categories.liveIDs {
                let c = ledger.categories[id]
                inv.out.line([c.name, c.isDefault ? "default" : "custom", String(counts[Int(id)]), c.color?.description ?? "", c.icon.map { String($0) } ?? ""]
                    .map { Render.csvField($0) }.joined(separator: ","))
            }
            inv.out.line(",," + String(counts[0]) + ",,")
            return
        }
        let r = Render(ledger: ledger, style: inv.out.style)
        var table = Table([
            .init(header: "CATEGORY", shrinkable: true, minWidth: 10), .init(header: "KIND"),
            .init(header: "COUNT", alignRight: true), .init(header: "COLOR"),
        ])
        for id in ledger.categories.liveIDs {
            let c = ledger.categories[id]
            table.add([.init(r.category(id).plain, paint: { _ in r.category(id).styled }),
                       .init(c.isDefault ? "default" : "custom"), .init(String(counts[Int(id)])),
                       .init(c.color?.description ?? "")])
        }
        table.add([.init("(none)"), .init(""), .init(String(counts[0])), .init("")])
        inv.out.text(table.render(width: inv.session.tableWidth, style: inv.out.style))
    }

    static let intents: Command = Command(
        name: "intents", group: .exploring, forms: [[]],
        summary: "list the four intents with their marks, counts and totals",
        options: [.init("json", "one JSON object per intent"), .init("csv", "CSV with a header line: one line per intent and currency")],
        examples: ["intents"]
    ) { (inv: inout Invocation) throws(ShellError) in
        let ledger = try inv.requireLedger()
        try inv.expectAtMost(0)
        // In one currency, summed in arrays by intent (`SummaryReport.singleCurrencyLines`, as `summary by intent`):
        // a group looked up and its per-currency lists summed a row at a time took 30-45 ms of a million rows.
        var groups = Groups()
        if let fast = try SummaryReport.singleCurrencyLines(Array(0..<ledger.count), Grouping(.intent, ledger: ledger, depth: nil), ledger,
                                                            session: inv.session) {
            for line in fast.lines { if let k = line.key { groups.set(key: k, line.group) } }
        } else {
            for row in 0..<ledger.count { groups.add(key: Int(ledger.intent[row]), row: row, ledger: ledger) }
        }
        let keys = Intent.allCases.map { Int($0.rawValue) } + [0]
        if inv.flag("json") || inv.session.jsonOutput {
            for k in keys {
                let name = Intent(rawValue: UInt8(k)).map { Export.jsonString($0.description) } ?? "null"
                inv.out.line("{\"intent\": \(name), \"count\": \(groups[k].count), \"total\": \(groups[k].totalsJSON(ledger))}")
            }
            return
        }
        if inv.flag("csv") {
            inv.out.line("intent,count,currency,total")
            for k in keys {
                let name = Intent(rawValue: UInt8(k))?.description ?? ""
                let g = groups[k]
                if g.totals.entries.isEmpty { inv.out.line("\(name),0,,0") }
                for e in g.totals.entries { inv.out.line("\(name),\(g.count),\(Render.csvField(ledger.currencies[e.currency])),\(e.amount)") }
            }
            return
        }
        let s = inv.out.style
        let scales = Render.displayScales(ledger)
        var table = Table([
            .init(header: "I"), .init(header: "INTENT"), .init(header: "COUNT", alignRight: true), .init(header: "TOTAL", alignRight: true),
        ])
        for k in keys {
            let i = Intent(rawValue: UInt8(k))
            table.add([.init(i.map { String($0.mark) } ?? "", paint: { t in s.paint(t, i?.color) }),
                       .init(i?.description ?? "(none)", paint: { t in s.paint(t, i?.color) }),
                       .init(String(groups[k].count)), .init(groups[k].totalsText(ledger, scales: scales))])
        }
        inv.out.text(table.render(width: inv.session.tableWidth, style: s))
    }
}

/// `tags rename OLD NEW` and `tags delete NAME`: one change to every tag set holding OLD.
func renameOrDeleteTag(_ inv: inout Invocation, rename: Bool) throws(ShellError) {
    guard inv.words.count == (rename ? 3 : 2) else {
        throw .usage(rename ? "usage: tags rename OLD NEW" : "usage: tags delete NAME", span: inv.words.last?.span)
    }
    let oldWord = inv.words[1]
    // What is read of the ledger is read here, into values of its own: a copy of the ledger held on would hold
    // its tables, and the tables grow in place below only while the session's ledger alone holds them.
    let (oldID, held, column, old): (UInt32, [Bool]?, [UInt32], String)
    do {
        let ledger = try inv.requireLedger()
        guard let id = ledger.tags.id(of: oldWord.text) else {
            throw .usage("no tag '\(TextSafety.sanitize(oldWord.text))'", span: oldWord.span)
        }
        (oldID, held, column, old) = (id, ledger.tagSetsHeld(), ledger.tagSet, ledger.tags[id])
    }
    var name: String?
    if rename {
        let w = inv.words[2]
        let n = w.text.trimmingCharacters(in: " \t")
        if let problem = TagName.validate(n) { throw .usage(tagProblem(n, problem), span: w.span) }
        if try inv.requireLedger().tags.id(of: n) == oldID { throw .usage("'\(n)' is the same tag (tags compare ignoring case)", span: w.span) }
        name = n
    }
    // (Asked first: a change refused after NEW was interned would leave its spelling in the table, the one a
    // later `tag +new` shows.)
    try inv.session.checkCanChange()
    // The sets the rows hold that hold OLD, edited, then interned all at once, into the session's tables where
    // they are (`withTagTables`). (Each was interned as it was made, while a slice of the table was alive: every
    // intern copied all the sets, and a million-row file with a set a row did not finish in ten minutes. Interned
    // into a copy, every rename copied all the sets: 0.3-0.5 s late in a session of the `merchants` shape.)
    let holding = inv.session.annotationUse?.transactions(tag: oldID)
    let (changes, newName) = inv.session.withTagTables { tagsTable, sets -> (ChangeSet, String) in
        let newID = name.map { tagsTable.intern($0) }
        var made = PendingTagSets(), from: [UInt32] = []
        // Room for a set per row holding OLD at most (grown one at a time, a million sets were moved some twenty
        // times), and each set edited in a buffer, copied once (an array emptied, filled and cut for each set was a
        // sixth of a `tags rename` of the 1M `merchants` shape).
        if let holding, holding >= 4096 {
            made.reserveCapacity(sets: holding, members: holding * (sets.memberCount / max(1, sets.count - 1) + 1))
            from.reserveCapacity(holding)
        }
        let edited = UnsafeMutableBufferPointer<UInt32>.allocate(capacity: sets.largest)
        defer { edited.deallocate() }
        sets.withMembers { members, starts in
            for s in 0..<sets.count where held?[s] ?? true {
                let ids = UnsafeBufferPointer(rebasing: members[starts[s]..<starts[s + 1]])
                guard let at = ids.firstIndex(of: oldID) else { continue }
                // OLD's place takes NEW, unless the set holds NEW already (or OLD is deleted): then OLD just goes.
                let replacement = newID.flatMap { ids.contains($0) ? nil : $0 }
                var n = 0
                for (i, t) in ids.enumerated() {
                    if i != at { edited[n] = t; n += 1 } else if let replacement { edited[n] = replacement; n += 1 }
                }
                _ = made.append(buffer: UnsafeBufferPointer(rebasing: edited[0..<n]))
                from.append(UInt32(s))
            }
        }
        var mapped = [UInt32](repeating: .max, count: sets.count)
        for (p, id) in sets.intern(all: made).enumerated() { mapped[Int(from[p])] = id }
        var changes = ChangeSet()
        // Room for a change per row holding OLD, as the completion counts give it when they are made (grown one
        // change at a time, the change set of a million rows was moved some twenty times).
        if let holding { changes.reserveCapacity(holding) }
        for (row, old) in column.enumerated() {
            if case let to = mapped[Int(old)], to != .max { changes.record(row: row, field: .tags, before: old, after: to) }
        }
        return (changes, newID.map { tagsTable[$0] } ?? "")
    }
    try inv.reportCommit(Change(ledger: changes, tables: try inv.requireLedger()),
                         summary: rename ? "tags rename \(old) → \(newName)" : "tags delete \(old)")
}

/// Parses a PATTERN argument: `/REGEX/` or a case-insensitive substring.
func textPattern(_ w: Word) throws(ShellError) -> TextPattern {
    if w.text.count >= 2, w.text.hasPrefix("/"), w.text.hasSuffix("/") {
        let source = String(w.text.dropFirst().dropLast())
        do { return .regex(try Regex(source)) } catch {
            throw .usage(QueryParser.badRegexMessage(source, reason: String(describing: error)), span: w.span)
        }
    }
    return .contains(w.text.lowercased())
}

/// Counts and per-currency totals by an integer key, in first-seen order.
struct Groups {
    struct Group {
        var count = 0
        /// The net total per currency.
        var totals = AmountTotals()
        /// Money in (positive amounts) and out (negative ones), per currency.
        var inflow = AmountTotals()
        var outflow = AmountTotals()
        /// How many of the transactions are in each currency, in the order currencies were first seen.
        var counts: [(currency: UInt32, count: Int)] = []

        init() {}

        /// A group of `count` transactions, all in `currency`, with these totals (nil: none in that direction).
        init(count: Int, currency: UInt32, net: Total?, inflow i: Total?, outflow o: Total?) {
            self.count = count
            guard count > 0 else { return }
            counts = [(currency, count)]
            if let net { totals.add(net, currency: currency) }
            if let i { inflow.add(i, currency: currency) }
            if let o { outflow.add(o, currency: currency) }
        }

        mutating func add(_ amount: Amount, currency: UInt32) {
            count += 1
            countOne(currency, 1)
            totals.add(amount, currency: currency)
            if amount.isNegative { outflow.add(amount, currency: currency) } else { inflow.add(amount, currency: currency) }
        }

        mutating func add(_ other: Group) {
            count += other.count
            for c in other.counts { countOne(c.currency, c.count) }
            for e in other.totals.entries { totals.add(e.amount, currency: e.currency) }
            for e in other.inflow.entries { inflow.add(e.amount, currency: e.currency) }
            for e in other.outflow.entries { outflow.add(e.amount, currency: e.currency) }
        }

        private mutating func countOne(_ currency: UInt32, _ n: Int) {
            if let i = counts.firstIndex(where: { $0.currency == currency }) { counts[i].count += n } else { counts.append((currency, n)) }
        }

        /// How many of the transactions are in `currency`.
        func count(in currency: UInt32) -> Int { counts.first { $0.currency == currency }?.count ?? 0 }

        func totalsText(_ ledger: Ledger, scales: [UInt8]) -> String { Groups.text(totals, ledger, scales: scales) }

        func totalsJSON(_ ledger: Ledger) -> String { Groups.json(totals, ledger) }
    }

    private var index: [Int: Int] = [:]
    /// With keys known to be below a bound (ids of a table): each key's position + 1, by key (0: none yet).
    private var denseIndex: [Int32]?
    private var groups: [Group] = []
    private(set) var keys: [Int] = []

    init() {}

    /// Groups whose keys are all below `bound` (ids of an intern table), found by array rather than hash.
    init(keysBelow bound: Int) { denseIndex = [Int32](repeating: 0, count: bound) }

    private func position(of key: Int) -> Int? {
        if let denseIndex, key >= 0, key < denseIndex.count { return denseIndex[key] > 0 ? Int(denseIndex[key]) - 1 : nil }
        return index[key]
    }

    /// The position of `key`'s group, made empty when it has none yet.
    private mutating func place(of key: Int) -> Int {
        if let existing = position(of: key) { return existing }
        let i = groups.count
        if denseIndex != nil, key >= 0, key < denseIndex!.count { denseIndex![key] = Int32(i + 1) } else { index[key] = i }
        groups.append(Group())
        keys.append(key)
        return i
    }

    mutating func add(key: Int, row: Int, ledger: Ledger) {
        groups[place(of: key)].add(ledger.amount(row), currency: ledger.currency[row])
    }

    subscript(key: Int) -> Group { position(of: key).map { groups[$0] } ?? Group() }

    /// Puts `group` under `key` (a key's sums worked out elsewhere).
    mutating func set(key: Int, _ group: Group) {
        groups[place(of: key)] = group
    }

    /// Each group's count, in the order of `keys`.
    var counts: [Int] { groups.map(\.count) }

    /// The group of `keys[i]`.
    func group(at i: Int) -> Group { groups[i] }

    /// `-1,234.50 EUR, 12.00 USD`; empty when there is nothing.
    static func text(_ totals: AmountTotals, _ ledger: Ledger, scales: [UInt8]) -> String {
        totals.entries.map {
            Render.amount($0.amount, currency: ledger.currencies[$0.currency], minimumScale: scales[Int($0.currency)])
        }.joined(separator: ", ")
    }

    /// `{"EUR": "-1234.50"}`: exact decimal strings by currency.
    static func json(_ totals: AmountTotals, _ ledger: Ledger) -> String {
        "{" + totals.entries.map { Export.jsonString(ledger.currencies[$0.currency]) + ": \"\($0.amount)\"" }.joined(separator: ", ") + "}"
    }
}

/// Whether the text `a` (UTF-8) sorts before `b` as `String`s do: by bytes when both are ASCII (the same order),
/// as `String`s otherwise (Unicode's canonical equivalence decides there).
func textPrecedes(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Bool {
    // Byte by byte while both are ASCII: the first difference decides, when the bytes after it are ASCII too (or
    // there are none), as then no combining mark can join the differing characters. Reading the names whole to
    // check they are ASCII first was most of `merchants --limit 5` on a million distinct descriptions.
    let n = min(a.count, b.count)
    var i = 0
    while i < n {
        let x = a[i], y = b[i]
        if x >= 0x80 || y >= 0x80 { break }
        if x != y {
            guard i + 1 >= a.count || a[i + 1] < 0x80, i + 1 >= b.count || b[i + 1] < 0x80 else { break }
            return x < y
        }
        i += 1
    }
    // One is the other's start, all ASCII: the shorter comes first (a combining mark after it makes a character
    // beyond ASCII of its last, which sorts after it too).
    if i == n { return a.count < b.count }
    return String(decoding: a, as: UTF8.self) < String(decoding: b, as: UTF8.self)
}

/// The first `k` of `items` in the order `precedes` gives, in that order, as a stable sort would leave them (an
/// item tied with another comes after it when it comes after it in `items`: names equal as `String`s but not as
/// bytes, NFC and NFD, tie): all of them sorted when `k` is a good part of their count, otherwise one pass that
/// keeps the best `k` so far in a heap (the worst of them on top, which most items do not precede).
///
/// (The best `k` were kept in order in an array, an item inserted where it goes: an item that went first moved
/// all the others, and items that came in the reverse of the order wanted, such as a file in amount order listed
/// `--sort amount --reverse --limit 100000`, made that a million moves of a hundred thousand: 6 s, where the sort
/// took 0.3 s.)
///
/// From `twoCoresFrom` items, when a heap is kept, each half of them keeps its own on a core of its own, and the
/// first `k` of the two heaps' items are the first `k` of all (the order being strict, by position on ties): for
/// a `precedes` that only reads, as the listings' counts and names. On the 1M `wide` shape's million merchants of
/// one row each, a `merchants --limit 20` spent two thirds of its time here, each name compared with the heap's
/// worst.
func firstInOrder(_ k: Int, of items: Range<Int>, twoCoresFrom: Int = .max, by precedes: (Int, Int) -> Bool) -> [Int] {
    // Ties by position: a strict order in which no two items tie, as the stable sort's.
    func before(_ i: Int, _ j: Int) -> Bool { precedes(i, j) || (!precedes(j, i) && i < j) }
    guard k > 0 else { return [] }
    if k * 8 > items.count { return Array(items.sorted(by: before).prefix(k)) }
    if items.count >= twoCoresFrom {
        let halves = Parallel.halves(items.count, threshold: twoCoresFrom) { r in
            firstInOrder(k, of: items.lowerBound + r.lowerBound..<items.lowerBound + r.upperBound, by: precedes)
        }
        return Array(halves.joined().sorted(by: before).prefix(k))
    }
    var heap: [Int] = []
    heap.reserveCapacity(k)
    for i in items {
        if heap.count < k {
            heap.append(i)
            var c = heap.count - 1
            while c > 0 {
                let p = (c - 1) / 2
                guard before(heap[p], heap[c]) else { break }
                heap.swapAt(p, c)
                c = p
            }
        } else if precedes(i, heap[0]) {
            // (`before(i, heap[0])`: `i` comes after every kept item, so a tie never puts it first, and one call of
            // `precedes` decides. Most items stop here.)
            heap[0] = i
            var p = 0
            while true {
                let l = 2 * p + 1, r = l + 1
                var top = p
                if l < k && before(heap[top], heap[l]) { top = l }
                if r < k && before(heap[top], heap[r]) { top = r }
                if top == p { break }
                heap.swapAt(p, top)
                p = top
            }
        }
    }
    return heap.sorted(by: before)
}
