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
public struct TagSetTable: Sendable {
    /// Tag ids per set; set 0 is the empty set.
    public private(set) var sets: [[UInt32]] = [[]]
    private var index: [[UInt32]: UInt32] = [[]: 0]

    public init() {}

    public var count: Int { sets.count }
    public subscript(id: UInt32) -> [UInt32] { sets[Int(id)] }

    public mutating func intern(_ tags: [UInt32]) -> UInt32 {
        if let id = index[tags] { return id }
        let id = UInt32(sets.count)
        sets.append(tags)
        index[tags] = id
        return id
    }
}
