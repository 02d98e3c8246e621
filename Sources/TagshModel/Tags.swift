/// Tag names: validation, hierarchy and colour.
public enum TagName {
    /// The longest tag name that may be typed at the prompt.
    public static let maxLength = 64

    /// Why a typed tag name is refused, if it is.
    public enum Problem: Error, Equatable, Sendable {
        case empty
        case tooLong(Int)
        case badCharacter(Character)
    }

    /// Checks a tag name typed at the prompt (already trimmed): 1 to 64
    /// letters, digits and `- _ / . :`.
    public static func validate(_ name: String) -> Problem? {
        if name.isEmpty { return .empty }
        if name.count > maxLength { return .tooLong(name.count) }
        for ch in name where !(ch.isLetter || ch.isNumber || "-_/.:".contains(ch)) {
            return .badCharacter(ch)
        }
        return nil
    }

    /// Whether `name` is `query` or one of its children (`trip` matches
    /// `trip`, `trip/paris` and `trip:paris`); both lower-cased.
    public static func matches(_ name: String, query: String) -> Bool {
        guard name.hasPrefix(query) else { return false }
        if name.count == query.count { return true }
        let next = name[name.index(name.startIndex, offsetBy: query.count)]
        return next == "/" || next == ":"
    }

    /// The palette that tag colours are picked from (256-colour indexes).
    public static let palette: [UInt8] = [
        33, 39, 45, 69, 75, 99, 105, 111, 141, 147, 166, 172, 178, 184, 202, 208, 214, 220, 35, 41, 47, 71, 77, 83,
        161, 167, 169, 171, 175, 177, 131, 137,
    ]

    /// A colour index that depends only on the lower-cased name: FNV-1a over
    /// its UTF-8 bytes, so it is the same on every run and machine (Swift's
    /// `Hasher` is seeded per process and would not be).
    public static func paletteIndex(for name: String) -> Int {
        var h: UInt32 = 0x811c9dc5
        for b in name.lowercased().utf8 { h = (h ^ UInt32(b)) &* 0x01000193 }
        return Int(h % UInt32(palette.count))
    }
}

/// Interned ordered tag sets: most transactions share one of a few sets, so a
/// transaction stores a 4-byte set id and a query tests each set once.
///
/// A set holds each tag once (every maker of sets leaves repeats out; `summary by tag` counts on it).
///
/// The sets are kept as one run of tag ids with an offset per set, not as an
/// array each: an export with a million distinct tag sets costs their ids plus
/// about 16 bytes a set, not a heap object a set. `table[id]` is a slice of that run.
public struct TagSetTable: Sendable {
    /// The sets' tag ids, concatenated; set `id` is `members[starts[id]..<starts[id + 1]]`. Set 0 is the empty set.
    @usableFromInline private(set) var members: [UInt32] = []
    @usableFromInline private(set) var starts = Offsets([0, 0])
    /// Open addressing on the sets' hashes: a slot holds set id + 1 in its low 32 bits (0 = empty) and the top
    /// 32 bits of the set's hash above them, and the slot of a hash is taken from its top bits (as in
    /// `StringTable`: a probe stays in the slot array, and growing needs no other copy of the hashes). Not a
    /// `Dictionary` keyed by arrays: a CSV export with a million distinct tag sets spent a fifth of its reading
    /// hashing them.
    private var slots: [UInt64] = Array(repeating: 0, count: 64)
    /// log2 of `slots.count`.
    private var slotBits = 6

    public init() {
        let top = [UInt32]().withUnsafeBufferPointer { TagSetTable.hash($0) } >> 32
        slots[Int(top >> 26)] = top << 32 | 1
    }

    public var count: Int { starts.count - 1 }
    /// No set here holds more tags than this (the most any set has held: `dropSets` leaves it).
    public private(set) var largest = 0

    /// Whether a set made from one of these by adding `n` tags may hold more than `maxTags`: it holds at most
    /// `largest + n`. When not, a plan or a `tag` asks no row's set its size.
    public func setsMade(adding n: Int, mayPass maxTags: Int) -> Bool { largest + n > maxTags }
    @inlinable
    public subscript(id: UInt32) -> ArraySlice<UInt32> { members[starts[Int(id)]..<starts[Int(id) + 1]] }

    /// The sets' members and where each set starts, as buffers (set `id` is `members[starts[id]..<starts[id + 1]]`),
    /// for loops over many rows' sets: a slice each costs a retain and a release.
    @inlinable
    public func withMembers<R>(_ body: (_ members: UnsafeBufferPointer<UInt32>, _ starts: Offsets.Buffer) throws -> R) rethrows -> R {
        try members.withUnsafeBufferPointer { m in try starts.withBuffer { try body(m, $0) } }
    }

    public mutating func intern(_ tags: [UInt32]) -> UInt32 {
        tags.withUnsafeBufferPointer { intern(buffer: $0) }
    }

    public mutating func intern(_ tags: ArraySlice<UInt32>) -> UInt32 {
        tags.withUnsafeBufferPointer { intern(buffer: $0) }
    }

    public mutating func intern(buffer tags: UnsafeBufferPointer<UInt32>) -> UInt32 {
        assert(Set(tags).count == tags.count, "a tag set holds each tag once")
        let top = TagSetTable.hash(tags) >> 32
        let mask = slots.count - 1
        var slot = Int(truncatingIfNeeded: top >> UInt64(32 - slotBits))
        while true {
            let value = slots[slot]
            if value == 0 { break }
            if value >> 32 == top {
                let id = Int(truncatingIfNeeded: value & 0xFFFF_FFFF) - 1
                if equal(id, tags) { return UInt32(id) }
            }
            slot = (slot + 1) & mask
        }
        let id = UInt32(count)
        members.append(contentsOf: tags)
        starts.append(members.count)
        largest = max(largest, tags.count)
        slots[slot] = top << 32 | UInt64(id + 1)
        if count * 2 > slots.count { grow() }
        return id
    }

    /// Adds every set of `other`, its tag ids mapped through `tagMap` (what `StringTable.merge` gave for its
    /// tags), in its id order; returns the id each of its sets has here.
    /// (All at once, `intern(all:)`: one after another, the second half of a million-row export with a million
    /// distinct tag sets spent most of its merge waiting on the slots.)
    public mutating func merge(_ other: TagSetTable, tagMap: [UInt32]) -> [UInt32] {
        var mapped = PendingTagSets()
        mapped.reserveCapacity(sets: other.count, members: other.members.count)
        var set: [UInt32] = []
        for s in 1..<max(1, other.count) {
            set.removeAll(keepingCapacity: true)
            for t in other[UInt32(s)] { set.append(tagMap[Int(t)]) }
            _ = mapped.append(set)
        }
        return [0] + intern(all: mapped)
    }

    /// The number of tags in all the sets.
    public var memberCount: Int { members.count }
    /// The room the sets' tags and starts have (tests: interning known sets takes none).
    var memberCapacity: Int { members.capacity }
    var startCapacity: Int { starts.capacity }

    /// The number of tags in set `id`.
    @inlinable
    public func size(_ id: UInt32) -> Int { starts[Int(id) + 1] - starts[Int(id)] }

    /// Interns every set of `pending` at once and returns the id each has here; a set new to the table gets the
    /// next id in `pending`'s order, as one `intern` after another would have given it.
    ///
    /// One `intern` after another probes the slots in the order of the sets, which is random: with a million
    /// new sets in a table of a million, most of a `preview` of one rule went on waiting for those reads (nine
    /// tenths of the interning, by `perf annotate`). Here the sets are probed in the order of their slots (a counting sort by the top bits of their
    /// hashes, which is what places a slot), so the slots are read from one end to the other.
    ///
    /// Below `largeFrom` sets in all, the slots fit in the processor's cache, where the order of the probes
    /// matters little and the sort is only more work: there the sets are interned one after another.
    public mutating func intern(all pending: PendingTagSets, largeFrom: Int = 1 << 18) -> [UInt32] {
        let n = pending.count
        if n < 4096 || count + n < largeFrom {
            return pending.members.withUnsafeBufferPointer { m in
                (0..<n).map { p in intern(buffer: UnsafeBufferPointer(rebasing: m[pending.starts[p]..<pending.starts[p + 1]])) }
            }
        }
        precondition(count + n < 1 << 31, "a tag set table of more than 2^31 sets")
        let bits = bitsOfSlots(toHold: count + n, from: slotBits)
        if bits > slotBits { (slotBits, slots) = (bits, doubled(slots, toBits: bits)) }
        // Each set's hash top and index, in slot order: counted by the top 16 bits (a slot's first bits), in the
        // pending order within each count. The passes below read this in order and write what they find in
        // order too; arrays by pending index are read and written at random only where noted, once.
        var sorted = [UInt64](repeating: 0, count: n)
        var tops = [UInt32](repeating: 0, count: n)
        pending.members.withUnsafeBufferPointer { m in
            var next = [Int](repeating: 0, count: 1 << 16)
            for p in 0..<n {
                let top = UInt32(truncatingIfNeeded: TagSetTable.hash(UnsafeBufferPointer(rebasing: m[pending.starts[p]..<pending.starts[p + 1]])) >> 32)
                tops[p] = top
                next[Int(top >> 16)] += 1
            }
            var sum = 0
            for b in 0..<next.count { (next[b], sum) = (sum, sum + next[b]) }
            for p in 0..<n {
                let b = Int(tops[p] >> 16)
                sorted[next[b]] = UInt64(tops[p]) << 32 | UInt64(p)
                next[b] += 1
            }
        }
        // Found, by pending index: an id already here; `.max` for a set new here, whose slot is `slotOf`; or
        // `.max - 1` for a copy of an earlier pending set, `copyOf`. Until a new set's id is known, its slot holds
        // `marked | p`.
        //
        // A set already here is taken on the top bits of its hash alone, and its tags are compared afterwards, in
        // the pending order: the sets a plan like an earlier one makes were interned in that order, so their tags
        // are read from one end to the other, where comparing in slot order read them at random.
        let marked: UInt64 = 1 << 31
        var ids = [UInt32](repeating: 0, count: n)
        var other = [UInt32](repeating: 0, count: n) // slotOf or copyOf
        let mask = slots.count - 1
        let shift = UInt64(32 - slotBits)
        // (On buffers, and with nothing captured that changes: a nested function writing to the arrays had every
        // access checked for exclusivity at run time, a tenth of the time here.)
        pending.members.withUnsafeBufferPointer { m in
            let pendingStarts = pending.starts
            func tags(_ p: Int) -> UnsafeBufferPointer<UInt32> { UnsafeBufferPointer(rebasing: m[pendingStarts[p]..<pendingStarts[p + 1]]) }
            members.withUnsafeBufferPointer { here in
                starts.withBuffer { hereStarts in
                    func equalHere(_ id: Int, _ p: Int) -> Bool {
                        let (a, b) = (hereStarts[id], hereStarts[id + 1])
                        return UnsafeBufferPointer(rebasing: here[a..<b]).elementsEqual(tags(p))
                    }
                    ids.withUnsafeMutableBufferPointer { ids in
                        other.withUnsafeMutableBufferPointer { other in
                            slots.withUnsafeMutableBufferPointer { slots in
                                /// Looks for set `p` from its home slot; `taking` says whether a set already here with
                                /// the same hash top is taken without comparing its tags.
                                func probe(_ p: Int, top: UInt64, taking: Bool) {
                                    var slot = Int(truncatingIfNeeded: top >> shift)
                                    while true {
                                        let value = slots[slot]
                                        if value == 0 {
                                            slots[slot] = top << 32 | marked | UInt64(p)
                                            (ids[p], other[p]) = (.max, UInt32(slot))
                                            return
                                        }
                                        if value >> 32 == top {
                                            let low = value & 0xFFFF_FFFF
                                            if low & marked == 0 {
                                                if taking || equalHere(Int(low) - 1, p) { ids[p] = UInt32(truncatingIfNeeded: low - 1); return }
                                            } else if tags(Int(low & ~marked)).elementsEqual(tags(p)) {
                                                // Equal sets have equal hashes, and the sort keeps the pending order
                                                // within a hash (and the second look below goes in pending order):
                                                // the copy found is of an earlier set.
                                                (ids[p], other[p]) = (.max - 1, UInt32(low & ~marked))
                                                return
                                            }
                                        }
                                        slot = (slot + 1) & mask
                                    }
                                }
                                // (The writes to `ids` and `other` go at random.)
                                for key in sorted { probe(Int(key & 0xFFFF_FFFF), top: key >> 32, taking: true) }
                                // The sets taken for one already here, compared. The top 32 bits of a hash hold its
                                // slot's bits, so in a table of millions they tell apart only about one pair in a
                                // thousand more: a set that is not the one taken is looked for again, comparing the
                                // tags of each candidate.
                                for p in 0..<n where ids[p] < .max - 1 && !equalHere(Int(ids[p]), p) {
                                    probe(p, top: TagSetTable.hash(tags(p)) >> 32, taking: false)
                                }
                            }
                        }
                    }
                }
            }
            // Room for the sets new here only, with room to spare (reserved exactly, the next `tag` copied every
            // set). Room for all of `pending` grew a table of millions of sets that had room for the new ones:
            // a second `preview` of a rule, whose sets the first had interned, copied the whole table into fresh
            // memory for nothing.
            var newSets = 0, newMembers = 0
            for p in 0..<n where ids[p] == .max { newSets += 1; newMembers += pendingStarts[p + 1] - pendingStarts[p] }
            if newSets > 0 {
                members.reserveGrowing(members.count + newMembers)
                starts.reserveGrowing(starts.count + newSets)
            }
            for p in 0..<n {
                switch ids[p] {
                case .max:
                    ids[p] = UInt32(count)
                    members.append(contentsOf: tags(p))
                    starts.append(members.count)
                    largest = max(largest, pendingStarts[p + 1] - pendingStarts[p])
                case .max - 1: (ids[p], other[p]) = (ids[Int(other[p])], .max)
                default: other[p] = .max
                }
            }
        }
        // The new sets' slots (`other` now holds only theirs) get their ids: written at random, but only written
        // (reading the slot first waited on memory).
        slots.withUnsafeMutableBufferPointer { slots in
            for p in 0..<n where other[p] != .max { slots[Int(other[p])] = UInt64(tops[p]) << 32 | UInt64(ids[p] + 1) }
        }
        return ids
    }

    private func equal(_ id: Int, _ tags: UnsafeBufferPointer<UInt32>) -> Bool {
        let start = starts[id], end = starts[id + 1]
        guard end - start == tags.count else { return false }
        return members.withUnsafeBufferPointer { m in
            for i in 0..<tags.count where m[start + i] != tags[i] { return false }
            return true
        }
    }

    /// Doubles the slots (to keep them at most half full), placing each set by the hash its slot holds.
    private mutating func grow() {
        slotBits += 1
        slots = doubled(slots, toBits: slotBits)
    }

    /// Forgets the sets from id `first` on, the last interned, as if they had never been: the next set new here
    /// gets id `first`. For sets no one holds any more (a `preview`'s, when the next preview replaces it), which
    /// would otherwise stay for the rest of the session, in memory and in every pass over the sets. Their room
    /// stays, for the sets interned next.
    public mutating func dropSets(from first: Int) {
        precondition(first >= 1 && first <= count, "only sets past the empty set, and only the table's own")
        guard first < count else { return }
        members.removeLast(members.count - starts[first])
        starts.removeLast(count - first)
        // The slots of the sets kept, placed again where they are (the slots keep their size). Not only the dropped
        // ones emptied: a set kept may have been placed past one of them (when the slots grew, they were placed
        // again in slot order, not the order they were interned), and would not be found across the gap.
        var kept: [UInt64] = []
        kept.reserveCapacity(first)
        slots.withUnsafeMutableBufferPointer { slots in
            for value in slots where value != 0 && Int(truncatingIfNeeded: value & 0xFFFF_FFFF) <= first { kept.append(value) }
            slots.update(repeating: 0)
            place(kept, in: slots, bits: slotBits)
        }
    }

    /// The ids multiplied in, in order, then mixed.
    static func hash(_ tags: UnsafeBufferPointer<UInt32>) -> UInt64 {
        var h: UInt64 = 0x9E37_79B9_7F4A_7C15 ^ UInt64(tags.count)
        for t in tags { h = (h ^ UInt64(t)) &* 0x100_0000_01B3 ^ (h >> 29) }
        h ^= h >> 33
        h = h &* 0xff51afd7ed558ccd
        h ^= h >> 33
        return h
    }
}

/// Tag sets worked out but not yet interned, in the order they were made: a plan collects the sets its rules make
/// here and interns them all at once (`TagSetTable.intern(all:)`).
public struct PendingTagSets: Sendable {
    @usableFromInline var members: [UInt32] = []
    @usableFromInline var starts: [Int] = [0]

    public init() {}

    /// Room for `sets` sets of `members` tags in all (room not written to is not memory in use).
    public mutating func reserveCapacity(sets: Int, members: Int) {
        starts.reserveCapacity(sets + 1)
        self.members.reserveCapacity(members)
    }

    public var count: Int { starts.count - 1 }

    /// Adds a set and returns its index.
    @inlinable
    public mutating func append(_ tags: [UInt32]) -> Int {
        assert(Set(tags).count == tags.count, "a tag set holds each tag once")
        return tags.withUnsafeBufferPointer { append(buffer: $0) }
    }

    @inlinable
    public subscript(index: Int) -> ArraySlice<UInt32> { members[starts[index]..<starts[index + 1]] }

    /// Adds `other`'s set `index` and returns its index here.
    @inlinable
    public mutating func append(_ other: PendingTagSets, _ index: Int) -> Int {
        members.append(contentsOf: other.members[other.starts[index]..<other.starts[index + 1]])
        starts.append(members.count)
        return starts.count - 2
    }

    @inlinable
    public func size(_ index: Int) -> Int { starts[index + 1] - starts[index] }

    /// The number of tags in set `id` while these sets are pending: `table`'s own below `base`, else the pending
    /// set `id - base`.
    @inlinable
    public func size(of id: UInt32, base: UInt32, in table: TagSetTable) -> Int {
        id < base ? table.size(id) : size(Int(id - base))
    }

    /// Adds a set and returns its index.
    @inlinable
    public mutating func append(buffer tags: UnsafeBufferPointer<UInt32>) -> Int {
        members.append(contentsOf: tags)
        starts.append(members.count)
        return starts.count - 2
    }

    /// `tags` less `removing`, then each of `adding` it lacks, written to `out` (room for `tags.count +
    /// adding.count`): how many were written, or nil when that is `tags` itself (taking a tag away and giving it
    /// back, when it was the last, gives the set it was). What `tag` and a rule's plan do to each distinct set they
    /// meet. (Into a buffer: an array emptied and grown a tag at a time for each set, then copied, was a tenth of a
    /// `tag all` of a million sets.)
    @inlinable
    public static func edit(_ tags: UnsafeBufferPointer<UInt32>, removing: UnsafeBufferPointer<UInt32>, adding: UnsafeBufferPointer<UInt32>,
                            into out: UnsafeMutableBufferPointer<UInt32>) -> Int? {
        precondition(out.count >= tags.count + adding.count, "room for the set edited")
        var n = 0
        var changed = false
        for id in tags {
            if removing.contains(id) { changed = true } else { out[n] = id; n += 1 }
        }
        for id in adding {
            var i = 0
            while i < n && out[i] != id { i += 1 }
            if i == n { out[n] = id; n += 1; changed = true }
        }
        if changed && n == tags.count {
            var i = 0
            while i < n && out[i] == tags[i] { i += 1 }
            changed = i < n
        }
        return changed ? n : nil
    }

    /// `edit` of a set of the table (or one pending), with the rule's or command's tags as arrays.
    @inlinable
    public static func edit(_ tags: ArraySlice<UInt32>, removing: [UInt32], adding: [UInt32], into out: UnsafeMutableBufferPointer<UInt32>) -> Int? {
        tags.withUnsafeBufferPointer { tags in
            removing.withUnsafeBufferPointer { removing in adding.withUnsafeBufferPointer { edit(tags, removing: removing, adding: $0, into: out) } }
        }
    }
}

/// The tag set each tag set becomes under one edit (a rule's, a `tag` command's), by the old set's id. An array
/// when the edit's rows are many beside the sets (with a million distinct tag sets, a dictionary lookup per
/// transaction was a tenth of a plan), growing to take the sets the edit makes; a dictionary when they are few
/// (`suggest rules` plans thousands of rules of a few rows each, and an array as long as the table for each cost
/// more than the plans; `tag 1 +x` in a table of millions of sets, most left by undone steps, wrote one).
public struct TagCache {
    @usableFromInline var next: [UInt32]
    @usableFromInline var sparse: [UInt32: UInt32] = [:]
    @usableFromInline let dense: Bool
    @usableFromInline static let unknown = UInt32.max

    /// An array when `rows` times `arrayFrom` reach `sets`. (A plan's cache is one of several a rule; `tag`
    /// makes one, and with three and a half million sets a dictionary cost 5 ms more than the array at 100,000
    /// rows.)
    public init(sets: Int, rows: Int, arrayFrom: Int = 8) {
        dense = rows * arrayFrom >= sets && rows > 0
        next = dense ? [UInt32](repeating: TagCache.unknown, count: sets) : []
    }

    @inlinable
    public subscript(set: UInt32) -> UInt32? {
        get {
            guard dense else { return sparse[set] }
            let i = Int(set)
            return i < next.count && next[i] != TagCache.unknown ? next[i] : nil
        }
        set {
            guard let newValue else { return }
            guard dense else { sparse[set] = newValue; return }
            let i = Int(set)
            if i >= next.count { next += [UInt32](repeating: TagCache.unknown, count: i + 1 - next.count) }
            next[i] = newValue
        }
    }
}
