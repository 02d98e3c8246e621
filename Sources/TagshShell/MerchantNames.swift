import TagshModel

/// The descriptions transactions have, ranked by how many use each (ties in the order they were first read),
/// kept as ids into the ledger's table: with a million distinct descriptions, making a `String` of each for
/// the list took 0.1 s and 110 MB the first time the prompt worked out what Tab offers. A completion reads the
/// names' bytes in place and makes strings only of those that match.
///
/// The names a word holds as printable ASCII (the most) are also sorted by their bytes, ASCII letters folded
/// (`SortedWords`), on another thread once the names are ranked (`WordIndex`): the names a typed prefix
/// matches are then a range, found by binary search, and a Tab reads how many there are, the first by use,
/// and their common prefix (from the range's first and last) without reading the names between. A scan of
/// the names for each Tab took 60-90 ms on a million; sorting them takes 0.2-0.3 s, which would have delayed
/// the prompt after an `open`, so until the sort is done a Tab scans the names as before.
public struct MerchantNames: Sendable {
    private var names = StringTable()
    /// Ids, most used first.
    private var ranked: [UInt32] = []
    /// By id: its place in `ranked` (`UInt32.max`: no transaction has it, as after an undone import).
    private var place: [UInt32] = []
    /// The ids offered, grouped by their first byte with ASCII letters folded to lower case (and, last, those
    /// that begin beyond ASCII; an empty name, which no typed prefix matches, in none), in id order within each
    /// group: `byFirst[byteStart[b]..<byteStart[b + 1]]`. Until the names are sorted, a typed prefix is matched
    /// against its first byte's group and the group beyond ASCII only: `desc:cin` read a million names where
    /// about one in twenty can match.
    private var byFirst: [UInt32] = []
    private var byteStart = [Int](repeating: 0, count: 130)
    /// The sorted names, once sorted (nil: never sorted, for a test of the scan).
    private var index: Pending<WordIndex>?

    /// How the names are sorted: on another thread (the ledger's names), at once (a fixed list, and tests, which
    /// may sort fewer names by radix than `SortedWords.radixFrom`), or not (a test of the scan).
    enum Sorting {
        case background
        case now(radixFrom: Int = SortedWords.radixFrom)
        case never
    }

    /// What a typed prefix matches: a range of each sorted class, and the other names matched.
    public struct Match: Sendable {
        /// The sorted names the ranges are of (nil: matched before the names were sorted).
        var index: WordIndex?
        var plain: Range<Int> = 0..<0, quoted: Range<Int> = 0..<0
        /// Matched names outside the sorted classes.
        var others: [UInt32] = []
        /// Every name offered: the match is `ranked` as it is (an empty name too, in a fixed list), and
        /// `everyCount` names.
        var everything = false
        var everyCount = 0
        /// `others` is already most used first, and the ranges are empty.
        var othersRanked = false

        public var count: Int { everything ? everyCount : plain.count + quoted.count + others.count }
    }

    /// The group of a name's first byte: 0-127 folded, 128 for anything beyond ASCII.
    private static func group(_ b: UInt8) -> Int { b >= 0x80 ? 128 : Int(b >= 0x41 && b <= 0x5A ? b + 0x20 : b) }

    /// Ranks the descriptions of `ledger` by a counting sort on their use, which keeps ties in id order.
    init(_ ledger: Ledger, sorting: Sorting = .background) {
        names = ledger.merchants
        var use = [Int](repeating: 0, count: names.count + 1)
        for m in ledger.merchant { use[Int(m)] += 1 }
        // An empty description is not offered: `desc:""` is not a query.
        if let empty = names.id(of: "") { use[Int(empty)] = 0 }
        var most = 0
        for n in use where n > most { most = n }
        // starts[n]: where the ids used n times begin in `ranked` (most used first).
        var starts = [Int](repeating: 0, count: most + 2)
        for n in use.dropFirst() where n > 0 { starts[most - n + 1] += 1 }
        for i in 1..<starts.count { starts[i] += starts[i - 1] }
        ranked = [UInt32](repeating: 0, count: starts[starts.count - 1])
        place = [UInt32](repeating: .max, count: use.count)
        for id in names.ids where use[Int(id)] > 0 {
            let slot = most - use[Int(id)]
            ranked[starts[slot]] = id
            place[Int(id)] = UInt32(starts[slot])
            starts[slot] += 1
        }
        groupByFirstByte()
        sort(sorting)
    }

    /// A fixed list, in the order given (for tests and callers without a ledger).
    init(_ list: [String] = [], sorting: Sorting = .now()) {
        for text in list {
            let id = names.intern(text)
            if Int(id) >= place.count {
                place += [UInt32](repeating: .max, count: Int(id) + 1 - place.count)
                place[Int(id)] = UInt32(ranked.count)
                ranked.append(id)
            }
        }
        groupByFirstByte()
        sort(sorting)
    }

    /// Fills `byFirst` by a counting sort of the offered ids on their first byte's group.
    private mutating func groupByFirstByte() {
        (byFirst, byteStart) = MerchantNames.grouped(names.ids.lazy.filter { [place] in Int($0) < place.count && place[Int($0)] != .max }, names)
    }

    /// `ids` grouped by their first byte's group (a counting sort, which keeps their order within a group), and
    /// where each group starts; an empty name in none.
    static func grouped(_ ids: some Sequence<UInt32>, _ names: StringTable) -> (ids: [UInt32], starts: [Int]) {
        names.withAllUTF8 { texts in
            var count = [Int](repeating: 0, count: 130)
            for id in ids { if let b = texts[id].first { count[MerchantNames.group(b) + 1] += 1 } }
            for g in 1..<count.count { count[g] += count[g - 1] }
            let groupStarts = count
            var out = [UInt32](repeating: 0, count: count[129])
            for id in ids {
                guard let b = texts[id].first else { continue }
                let g = MerchantNames.group(b)
                out[count[g]] = id
                count[g] += 1
            }
            return (out, groupStarts)
        }
    }

    /// Reads the names from `table` from now on: the same texts under the same ids, held elsewhere (the ledger's
    /// table once it stops naming texts in a file's bytes, at a save).
    mutating func adopt(_ table: StringTable) {
        precondition(table.count == names.count, "another table of names")
        names = table
    }

    private mutating func sort(_ sorting: Sorting) {
        let (names, place) = (self.names, self.place)
        switch sorting {
        case .never: index = nil
        case .now(let radixFrom): index = Pending(ready: WordIndex(names, place: place, radixFrom: radixFrom))
        case .background: index = Pending { WordIndex(names, place: place, radixFrom: SortedWords.radixFrom) }
        }
    }

    /// Whether the names are sorted (a Tab then reads ranges of them).
    public var isSorted: Bool { index?.valueIfReady != nil }

    /// Waits until the names are sorted (for the benchmark, which times a Tab on them).
    public func waitUntilSorted() { _ = index?.value }

    /// The descriptions that start with `typed` ignoring case, most used first.
    func matching(_ typed: String) -> [String] { matching(typed) { String(decoding: $0, as: UTF8.self) } }

    /// `make` of each description that starts with `typed` ignoring case, most used first (`make` reads the
    /// name's bytes in place: a completion builds its word from them at once).
    func matching(_ typed: String, _ make: (UnsafeBufferPointer<UInt8>) -> String) -> [String] {
        var out: [String] = []
        forEachName(matchingIDs(typed)) { out.append(make($0)); return true }
        return out
    }

    /// Calls `body` with the bytes of each name of `ids`, in place, until it returns false.
    func forEachName(_ ids: [UInt32], _ body: (UnsafeBufferPointer<UInt8>) -> Bool) {
        names.withAllUTF8 { texts in
            for id in ids where !body(texts[id]) { return }
        }
    }

    /// The ids of the descriptions that start with `typed` ignoring case, most used first.
    func matchingIDs(_ typed: String) -> [UInt32] { ranked(matches(typed)) }

    /// The descriptions that start with `typed` ignoring case, ASCII letters compared folded and any other
    /// name as Unicode lower-cases it (`Completer.asciiPrefixMatch`): ranges of the sorted names and the other
    /// names matched, or, until the names are sorted, every name matched.
    func matches(_ typed: String) -> Match {
        guard let sorted = index?.valueIfReady else { return MerchantNames.match(rankedIDs: scan(typed)) }
        if typed.isEmpty {
            return Match(index: sorted, plain: sorted.plain.ids.indices, quoted: sorted.quoted.ids.indices, everything: true, everyCount: ranked.count)
        }
        let t = typed.lowercased()
        let prefix = Array(t.utf8)
        var m = Match(index: sorted)
        // A typed prefix beyond the sorted names' bytes matches none of them: they are printable ASCII (which
        // lower-cases to itself) without a quote or a backslash.
        if prefix.allSatisfy(SortedWords.isSortedByte) {
            names.withAllUTF8 { texts in
                m.plain = sorted.plain.range(prefix, texts)
                m.quoted = sorted.quoted.range(prefix, texts)
            }
        }
        m.others = test(typed, sorted.others, sorted.otherStart)
        return m
    }

    /// The ids of the descriptions that start with `typed` ignoring case, most used first, read from every name
    /// that can match.
    func scan(_ typed: String) -> [UInt32] {
        if typed.isEmpty { return ranked }
        let found = test(typed, byFirst, byteStart)
        // Then ranked: many matches are marked and read off the ranking in one pass rather than sorted.
        return rank(found)
    }

    /// The names of `grouped` (grouped by first byte, `groupStarts`) that start with `typed` ignoring case, read
    /// in the group of its first byte and the group beyond ASCII.
    private func test(_ typed: String, _ grouped: [UInt32], _ groupStarts: [Int]) -> [UInt32] {
        let t = typed.lowercased()
        let prefix = Array(t.utf8)
        var found: [UInt32] = []
        names.withAllUTF8 { texts in
            func test(_ ids: ArraySlice<UInt32>) {
                for id in ids {
                    let n = texts[id]
                    switch Completer.asciiPrefixMatch(n, prefix) {
                    case true?: found.append(id)
                    case false?: break
                    case nil: if String(decoding: n, as: UTF8.self).lowercased().hasPrefix(t) { found.append(id) }
                    }
                }
            }
            // A typed ASCII first byte is matched by names in its group, or (their case folded or composed
            // otherwise) beyond ASCII; anything else may match any name.
            if let b = prefix.first, b < 0x80 {
                let g = MerchantNames.group(b)
                test(grouped[groupStarts[g]..<groupStarts[g + 1]])
                test(grouped[groupStarts[128]..<groupStarts[129]])
            } else {
                test(grouped[...])
            }
        }
        return found
    }

    /// A match's ids, most used first.
    func ranked(_ m: Match) -> [UInt32] {
        if m.everything { return ranked }
        guard let sorted = m.index, !m.othersRanked else { return m.others }
        var found = m.others
        found.reserveCapacity(m.count)
        found += sorted.plain.ids[m.plain]
        found += sorted.quoted.ids[m.quoted]
        return rank(found)
    }

    /// `ids` most used first: many are marked and read off the ranking in one pass rather than sorted.
    private func rank(_ ids: [UInt32]) -> [UInt32] {
        if ids.count > 4096 && ids.count > ranked.count / 16 {
            var marked = [Bool](repeating: false, count: place.count)
            for id in ids { marked[Int(id)] = true }
            return ranked.filter { marked[Int($0)] }
        }
        return ids.sorted { place[Int($0)] < place[Int($1)] }
    }

    /// A match of ids already most used first.
    static func match(rankedIDs ids: [UInt32]) -> Match { Match(others: ids, othersRanked: true) }

    /// The common prefix of a match's words (`head`, then each name as `Completer.quotedWord` writes it), case
    /// folded and in the spelling of the most used, as `LineEditor.longestCommonPrefix` reads it from every
    /// word: read from the sorted classes' ranges alone. Nil when other names are matched (their bytes may
    /// make that reading fall back to `Character`s), before the names are sorted, or for fewer than two words.
    func commonWordPrefix(_ m: Match, head: [UInt8]) -> String? {
        // Every name offered is in the ranges when no other is offered.
        guard let sorted = m.index, m.count > 1, m.others.isEmpty, !m.othersRanked,
              !m.everything || m.count == m.plain.count + m.quoted.count else { return nil }
        return names.withAllUTF8 { texts -> String? in
            guard let first = mostUsed(m) else { return nil }
            // The words of the two classes part after `head`: one goes on with the name, the other with a quote.
            var n = head.count
            if m.quoted.isEmpty {
                n += sorted.plain.commonPrefix(m.plain, texts).count
            } else if m.plain.isEmpty {
                // After the opening quote; when the names are all alike but for case, their closing quote too.
                let common = sorted.quoted.commonPrefix(m.quoted, texts)
                n += 1 + common.count + (common.whole ? 1 : 0)
            }
            let word = Completer.quotedWord(head, texts[first])
            return String(decoding: Array(word.utf8.prefix(n)), as: UTF8.self)
        }
    }

    /// The most used name of a match of the sorted names alone (nil for none, or another match).
    func mostUsed(_ m: Match) -> UInt32? {
        guard let sorted = m.index, m.others.isEmpty, !m.othersRanked else { return nil }
        let a = sorted.plain.mostUsed(m.plain), b = sorted.quoted.mostUsed(m.quoted)
        return a.map { a in b.map { place[Int(a)] < place[Int($0)] ? a : $0 } ?? a } ?? b
    }

    /// The offered names sorted, in two classes, and the others grouped by their first byte.
    struct WordIndex: Sendable {
        /// The names offered that a word holds as they are (`desc:NAME`), and those it holds in quotes
        /// (`desc:"NAME"`), each sorted by the word's bytes after `desc:`.
        var plain = SortedWords(), quoted = SortedWords()
        /// The other names offered (beyond printable ASCII, or holding a quote or a backslash), grouped as
        /// `byFirst` groups every name.
        var others: [UInt32] = [], otherStart: [Int] = []

        init(_ names: StringTable, place: [UInt32], radixFrom: Int) {
            var plainIDs: [UInt32] = [], quotedIDs: [UInt32] = [], otherIDs: [UInt32] = []
            names.withAllUTF8 { texts in
                for id in names.ids where Int(id) < place.count && place[Int(id)] != .max {
                    switch SortedWords.kind(texts[id]) {
                    case .plain: plainIDs.append(id)
                    case .quoted: quotedIDs.append(id)
                    case .other: otherIDs.append(id)
                    }
                }
            }
            (others, otherStart) = MerchantNames.grouped(otherIDs, names)
            plain.build(plainIDs, names: names, place: place, radixFrom: radixFrom)
            quoted.build(quotedIDs, names: names, place: place, radixFrom: radixFrom)
        }
    }

    /// The names of one class, sorted by their bytes, ASCII letters folded to lower case: the names a prefix
    /// matches are a range, and what they all start with is what the range's first and last start with. The
    /// words of a class hold their names as they are, or all between quotes (escaping nothing), so what those
    /// words start with after `desc:` is that too, or a quote and that.
    struct SortedWords: Sendable {
        private(set) var ids: [UInt32] = []
        /// The lowest place in `ranked` of each block of `blockSize` ids: the most used of a range is found by
        /// reading the blocks it covers, not its names.
        private var blockMin: [UInt32] = []
        private var places: [UInt32] = []
        static let blockSize = 64

        enum Kind { case plain, quoted, other }

        /// Printable ASCII without a quote or a backslash: a word holds such a name as it is or between quotes,
        /// escaping nothing.
        static func isSortedByte(_ b: UInt8) -> Bool { b >= 0x20 && b < 0x7F && b != 0x22 && b != 0x5C }

        /// A name's class: its bytes all sorted bytes, and whether `Completer.quoted` quotes it.
        static func kind(_ name: UnsafeBufferPointer<UInt8>) -> Kind {
            // An empty name is offered only for nothing typed, in a fixed list.
            guard !name.isEmpty else { return .other }
            var quotes = false
            for b in name {
                guard isSortedByte(b) else { return .other }
                quotes = quotes || Completer.needsQuoting[Int(b)]
            }
            return quotes ? .quoted : .plain
        }

        @inline(__always) private static func fold(_ b: UInt8) -> UInt8 { b &- 0x41 < 26 ? b | 0x20 : b }

        /// The byte of the sort key at `i`: the name folded, then zero (which no name holds: a shorter name
        /// sorts first).
        @inline(__always) private func key(_ name: UnsafeBufferPointer<UInt8>, _ i: Int) -> UInt8 {
            i < name.count ? SortedWords.fold(name[i]) : 0
        }

        /// Eight key bytes from `depth`, the first the highest, as one number to sort by.
        @inline(__always) private func chunk(_ name: UnsafeBufferPointer<UInt8>, _ depth: Int) -> UInt64 {
            guard depth + 8 <= name.count, let base = name.baseAddress else {
                var k: UInt64 = 0
                for i in depth..<(depth + 8) { k = k << 8 | UInt64(key(name, i)) }
                return k
            }
            // Eight name bytes at once, their upper-case letters folded: the bytes are below 0x80, so adding
            // 0x3F sets a byte's top bit from 0x41 and adding 0x25 from 0x5B, carrying into no other byte.
            let w = UnsafeRawPointer(base + depth).loadUnaligned(as: UInt64.self)
            let upper = (w &+ 0x3F3F_3F3F_3F3F_3F3F) & ~(w &+ 0x2525_2525_2525_2525) & 0x8080_8080_8080_8080
            return UInt64(bigEndian: w | upper >> 2)
        }

        /// Sorts `ids` by key, and reads each one's place for `mostUsed`.
        mutating func build(_ ids: [UInt32], names: StringTable, place: [UInt32], radixFrom: Int) {
            var sorted = ids
            names.withAllUTF8 { texts in
                func name(_ id: UInt32) -> UnsafeBufferPointer<UInt8> { texts[id] }
                sorted.withUnsafeMutableBufferPointer { sort($0, radixFrom: radixFrom, name) }
            }
            self.ids = sorted
            places = sorted.map { place[Int($0)] }
            blockMin = stride(from: 0, to: places.count, by: SortedWords.blockSize).map {
                places[$0..<min($0 + SortedWords.blockSize, places.count)].min() ?? .max
            }
        }

        /// Sorts `all` by key, eight key bytes at a time (a radix sort of the numbers), then each run of equal
        /// numbers by the next eight; a short run by comparing keys. The runs still to sort are a list, not a
        /// recursion: names may share a stem of any length, and each eight bytes of it was a level, so a file
        /// of names sharing a long enough stem overflowed the sorting thread's stack.
        private func sort(_ all: UnsafeMutableBufferPointer<UInt32>, radixFrom: Int, _ name: (UInt32) -> UnsafeBufferPointer<UInt8>) {
            // Each run's keys agree before its depth.
            var work: [(range: Range<Int>, depth: Int)] = [(0..<all.count, 0)]
            while let (range, depth) = work.popLast() {
                let run = UnsafeMutableBufferPointer(rebasing: all[range])
                if run.count < 2 { continue }
                if run.count <= 32 {
                    for i in 1..<run.count {
                        let x = run[i]
                        var j = i
                        while j > 0 && less(name(x), name(run[j - 1]), from: depth) { run[j] = run[j - 1]; j -= 1 }
                        run[j] = x
                    }
                    continue
                }
                var pairs = run.map { (chunk(name($0), depth), $0) }
                if pairs.count >= radixFrom { SortedWords.radixSort(&pairs) } else { pairs.sort { $0.0 < $1.0 } }
                for (i, p) in pairs.enumerated() { run[i] = p.1 }
                // Equal numbers whose keys go on (no zero in the lowest byte) are sorted by their next eight bytes.
                var i = 0
                while i < pairs.count {
                    var j = i + 1
                    while j < pairs.count && pairs[j].0 == pairs[i].0 { j += 1 }
                    if j - i > 1 && pairs[i].0 & 0xFF != 0 { work.append(((range.lowerBound + i)..<(range.lowerBound + j), depth + 8)) }
                    i = j
                }
            }
        }

        /// Whether `a`'s key sorts before `b`'s, both read from `depth`.
        private func less(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>, from depth: Int) -> Bool {
            var i = depth
            let end = max(a.count, b.count)
            while i < end {
                let x = key(a, i), y = key(b, i)
                if x != y { return x < y }
                i += 1
            }
            return false
        }

        /// From how many names a run is sorted by radix (below, the counts cost more than comparisons).
        static let radixFrom = 65_536

        /// Sorts by the numbers, sixteen bits a pass from the lowest (a pass where every number has the same
        /// sixteen bits is skipped).
        static func radixSort(_ a: inout [(UInt64, UInt32)]) {
            var other = a
            var counts = [Int](repeating: 0, count: 65_537)
            for shift in stride(from: 0, to: 64, by: 16) {
                for i in counts.indices { counts[i] = 0 }
                for p in a { counts[Int((p.0 >> UInt64(shift)) & 0xFFFF) + 1] += 1 }
                if counts.contains(a.count) { continue }
                for i in 1..<counts.count { counts[i] += counts[i - 1] }
                for p in a {
                    let d = Int((p.0 >> UInt64(shift)) & 0xFFFF)
                    other[counts[d]] = p
                    counts[d] += 1
                }
                swap(&a, &other)
            }
        }

        /// Where the names whose key starts with `prefix` (lower-case sorted bytes) lie.
        func range(_ prefix: [UInt8], _ texts: StringTable.Texts) -> Range<Int> {
            // Compares a name's key with `prefix` over the prefix's length: -1 before it, 0 starting with it.
            func compare(_ id: UInt32) -> Int {
                let name = texts[id]
                for (i, p) in prefix.enumerated() {
                    let k = key(name, i)
                    if k != p { return k < p ? -1 : 1 }
                }
                return 0
            }
            func firstIndex(_ after: (Int) -> Bool) -> Int {
                var lo = 0, hi = ids.count
                while lo < hi {
                    let mid = (lo + hi) / 2
                    if after(compare(ids[mid])) { hi = mid } else { lo = mid + 1 }
                }
                return lo
            }
            return firstIndex { $0 >= 0 }..<firstIndex { $0 > 0 }
        }

        /// How many bytes every name of `range` starts with, ASCII letters folded (its first's and last's), and
        /// whether that is the whole of every one (names alike but for case). For quoted names, that many bytes of
        /// their words after the opening quote: then the closing quote, when they are whole, and otherwise the
        /// shortest's closing quote against another name's byte.
        func commonPrefix(_ range: Range<Int>, _ texts: StringTable.Texts) -> (count: Int, whole: Bool) {
            func name(_ id: UInt32) -> UnsafeBufferPointer<UInt8> { texts[id] }
            let a = name(ids[range.lowerBound]), b = name(ids[range.upperBound - 1])
            var n = 0
            while n < a.count && n < b.count && key(a, n) == key(b, n) { n += 1 }
            return (n, n == a.count && n == b.count)
        }

        /// The most used name of `range` (nil for an empty range).
        func mostUsed(_ range: Range<Int>) -> UInt32? {
            guard !range.isEmpty else { return nil }
            let size = SortedWords.blockSize
            var best = range.lowerBound
            var i = range.lowerBound
            while i < range.upperBound {
                if i % size == 0 && i + size <= range.upperBound {
                    // A whole block: read its lowest place, and its names only when it holds a better one.
                    if blockMin[i / size] < places[best] {
                        for j in i..<(i + size) where places[j] < places[best] { best = j }
                    }
                    i += size
                } else {
                    if places[i] < places[best] { best = i }
                    i += 1
                }
            }
            return ids[best]
        }
    }
}
