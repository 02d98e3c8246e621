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
    @usableFromInline private(set) var starts: [Int] = [0, 0]
    /// Open addressing on the sets' hashes: slot → set id + 1 (0 = empty). Not a `Dictionary` keyed by
    /// arrays: a CSV export with a million distinct tag sets spent a fifth of its reading hashing them.
    private var slots: [UInt32] = Array(repeating: 0, count: 64)
    private var hashes: [UInt64] = []

    public init() {
        let h = [UInt32]().withUnsafeBufferPointer { TagSetTable.hash($0) }
        hashes = [h]
        slots[Int(truncatingIfNeeded: h) & 63] = 1
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
        let h = TagSetTable.hash(tags)
        let mask = slots.count - 1
        var slot = Int(truncatingIfNeeded: h) & mask
        while slots[slot] != 0 {
            let id = Int(slots[slot] - 1)
            if hashes[id] == h && equal(id, tags) { return UInt32(id) }
            slot = (slot + 1) & mask
        }
        let id = UInt32(count)
        members.append(contentsOf: tags)
        starts.append(members.count)
        hashes.append(h)
        slots[slot] = id + 1
        if count * 2 > slots.count { grow() }
        return id
    }

    private func equal(_ id: Int, _ tags: UnsafeBufferPointer<UInt32>) -> Bool {
        let start = starts[id], end = starts[id + 1]
        guard end - start == tags.count else { return false }
        return members.withUnsafeBufferPointer { m in
            for i in 0..<tags.count where m[start + i] != tags[i] { return false }
            return true
        }
    }

    private mutating func grow() {
        var newSlots = [UInt32](repeating: 0, count: slots.count * 2)
        let mask = newSlots.count - 1
        for id in hashes.indices {
            var slot = Int(truncatingIfNeeded: hashes[id]) & mask
            while newSlots[slot] != 0 { slot = (slot + 1) & mask }
            newSlots[slot] = UInt32(id + 1)
        }
        slots = newSlots
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
