#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An intern table: each distinct string is stored once and named by a dense id.
///
/// Ids start at 1; 0 always means "none". Lookups can be made straight from
/// UTF-8 bytes, so a file reader interns a field without building a `String`
/// for every row: only a string seen for the first time is decoded.
///
/// With `caseInsensitive`, strings that differ only in letter case share one id
/// and the first spelling seen is kept for display (tags, categories).
public struct StringTable: Sendable {
    /// The strings by id; index 0 is the empty placeholder for "none".
    public private(set) var strings: [String] = [""]
    /// Open-addressing slots holding id+0 (0 = empty).
    private var slots: [UInt32] = Array(repeating: 0, count: 64)
    private var hashes: [UInt64] = [0]
    /// The lookup keys (lower-cased when case-insensitive), concatenated.
    private var keyBytes: [UInt8] = []
    private var keyStarts: [Int] = [0, 0]
    public let caseInsensitive: Bool

    public init(caseInsensitive: Bool = false) {
        self.caseInsensitive = caseInsensitive
    }

    /// The number of strings, not counting the "none" placeholder.
    public var count: Int { strings.count - 1 }

    /// The ids of every string, in first-seen order.
    public var ids: Range<UInt32> { 1..<UInt32(strings.count) }

    public subscript(id: UInt32) -> String { strings[Int(id)] }

    /// The id of `text`, adding it when new.
    public mutating func intern(_ text: String) -> UInt32 {
        var copy = text
        return copy.withUTF8 { buffer in intern(bytes: buffer, decoded: text) }
    }

    /// The id of `text` if present.
    public func id(of text: String) -> UInt32? {
        var copy = text
        return copy.withUTF8 { buffer in
            if caseInsensitive, StringTable.needsFolding(buffer) {
                let key = Array(text.lowercased().utf8)
                return key.withUnsafeBufferPointer { find(key: $0).id }
            }
            return find(key: buffer).id
        }
    }

    /// The id of the string made of `bytes` (UTF-8), adding it when new.
    public mutating func intern(bytes: UnsafeBufferPointer<UInt8>, decoded: String? = nil) -> UInt32 {
        if caseInsensitive && StringTable.needsFolding(bytes) {
            let text = decoded ?? String(decoding: bytes, as: UTF8.self)
            let key = Array(text.lowercased().utf8)
            return key.withUnsafeBufferPointer { insert(key: $0, display: text) }
        }
        return insert(key: bytes, display: decoded)
    }

    private mutating func insert(key: UnsafeBufferPointer<UInt8>, display: String?) -> UInt32 {
        let (found, slot, hash) = find(key: key)
        if let found { return found }
        let id = UInt32(strings.count)
        strings.append(display ?? String(decoding: key, as: UTF8.self))
        hashes.append(hash)
        keyBytes.append(contentsOf: key)
        keyStarts.append(keyBytes.count)
        slots[slot] = id
        if strings.count * 2 > slots.count { grow() }
        return id
    }

    private func find(key: UnsafeBufferPointer<UInt8>) -> (id: UInt32?, slot: Int, hash: UInt64) {
        let hash = StringTable.hash(key)
        let mask = slots.count - 1
        var slot = Int(truncatingIfNeeded: hash) & mask
        return keyBytes.withUnsafeBufferPointer { stored in
            while true {
                let id = slots[slot]
                if id == 0 { return (nil, slot, hash) }
                if hashes[Int(id)] == hash {
                    let start = keyStarts[Int(id)], end = keyStarts[Int(id) + 1]
                    if end - start == key.count
                        && (key.count == 0 || bytesEqual(stored, start, key)) {
                        return (id, slot, hash)
                    }
                }
                slot = (slot + 1) & mask
            }
        }
    }

    private mutating func grow() {
        let newCount = slots.count * 2
        var newSlots = [UInt32](repeating: 0, count: newCount)
        let mask = newCount - 1
        for id in 1..<hashes.count {
            var slot = Int(truncatingIfNeeded: hashes[id]) & mask
            while newSlots[slot] != 0 { slot = (slot + 1) & mask }
            newSlots[slot] = UInt32(id)
        }
        slots = newSlots
    }

    /// Renames the display spelling of an id (used when a case-insensitive
    /// entry is renamed to a different spelling of the same key).
    public mutating func setDisplay(_ text: String, for id: UInt32) {
        strings[Int(id)] = text
    }

    /// Whether the bytes may hold an upper-case letter (ASCII A-Z, or anything non-ASCII).
    static func needsFolding(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        bytes.contains { ($0 >= 0x41 && $0 <= 0x5A) || $0 >= 0x80 }
    }

    /// Eight bytes at a time, multiplied and folded, then mixed; good enough for short names.
    @inline(__always)
    static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        let k: UInt64 = 0x9E37_79B9_7F4A_7C15
        var h = k ^ UInt64(bytes.count)
        if let base = bytes.baseAddress {
            let raw = UnsafeRawPointer(base)
            let n = bytes.count
            var i = 0
            while i + 8 <= n {
                h = (h ^ raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)) &* k
                h ^= h >> 32
                i += 8
            }
            if i < n {
                var tail: UInt64 = 0
                var shift: UInt64 = 0
                while i < n { tail |= UInt64(base[i]) << shift; shift += 8; i += 1 }
                h = (h ^ tail) &* k
            }
        }
        h ^= h >> 33
        h = h &* 0xff51afd7ed558ccd
        h ^= h >> 33
        return h
    }
}

/// Whether `stored[start...]` begins with `key`.
@inline(__always)
private func bytesEqual(_ stored: UnsafeBufferPointer<UInt8>, _ start: Int, _ key: UnsafeBufferPointer<UInt8>) -> Bool {
    guard let a = stored.baseAddress, let b = key.baseAddress else { return key.isEmpty }
    return memcmp(a + start, b, key.count) == 0
}
