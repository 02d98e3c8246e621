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
    @inlinable
    public subscript(id: UInt32) -> ArraySlice<UInt32> { members[starts[Int(id)]..<starts[Int(id) + 1]] }

    public mutating func intern(_ tags: [UInt32]) -> UInt32 {
        tags.withUnsafeBufferPointer { intern(buffer: $0) }
    }

    public mutating func intern(_ tags: ArraySlice<UInt32>) -> UInt32 {
        tags.withUnsafeBufferPointer { intern(buffer: $0) }
    }

    public mutating func intern(buffer tags: UnsafeBufferPointer<UInt32>) -> UInt32 {
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
        slots[slot] = top << 32 | UInt64(id + 1)
        if count * 2 > slots.count { grow() }
        return id
    }

    /// Adds every set of `other`, its tag ids mapped through `tagMap` (what `StringTable.merge` gave for its
    /// tags), in its id order; returns the id each of its sets has here.
    public mutating func merge(_ other: TagSetTable, tagMap: [UInt32]) -> [UInt32] {
        var map = [UInt32](repeating: 0, count: other.count)
        while (count + other.count) * 2 > slots.count { grow() }
        members.reserveCapacity(members.count + other.members.count)
        starts.reserveCapacity(starts.count + other.count)
        var mapped: [UInt32] = []
        for s in 1..<max(1, other.count) {
            mapped.removeAll(keepingCapacity: true)
            for t in other[UInt32(s)] { mapped.append(tagMap[Int(t)]) }
            map[s] = intern(mapped)
        }
        return map
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
