import CPrefetch
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An intern table: each distinct string is stored once and named by a dense id.
///
/// Ids start at 1; 0 always means "none". Lookups can be made straight from
/// UTF-8 bytes, so a file reader interns a field without building a `String`
/// for every row. The texts are kept as one run of UTF-8 bytes with an offset
/// per id, not as a `String` each: a file with a million distinct descriptions
/// costs their bytes plus about 20 bytes apiece, not a heap object apiece.
/// `table[id]` decodes the `String`; `withUTF8(id)` reads the bytes in place.
///
/// A table may share a buffer it need not copy (`sharing:`): a CSV file's bytes, which the open document keeps
/// whole anyway to save it. A text interned from inside that buffer is named by its place there, not copied: a
/// file of a million distinct descriptions then keeps one copy of them, not two. (Texts are placed in one run of
/// offsets: the shared buffer's, then the table's own bytes after it.)
///
/// With `caseInsensitive`, strings that differ only in letter case share one id
/// and the first spelling seen is kept for display (tags, categories).
public struct StringTable: Sendable {
    /// The UTF-8 of the texts not in `shared`, concatenated.
    @usableFromInline private(set) var bytes: [UInt8] = []
    /// Where each id's text starts and ends (id 0 is empty): below `shared.count` an offset into `shared`, from
    /// there on `shared.count` plus an offset into `bytes`.
    @usableFromInline private(set) var starts = Offsets([0])
    @usableFromInline private(set) var ends = Offsets([0])
    /// The buffer texts are named in rather than copied (empty when none), and where its bytes are: a text whose
    /// bytes lie there is one of its own.
    @usableFromInline private(set) var shared: [UInt8] = []
    private var sharedAt: UInt = 0
    /// While detached (`detached(forEdits:)`): the length the shared buffer will have.
    private var detachedCount: Int?
    /// Open addressing: each slot holds an id in its low 32 bits and the top 32 bits of its key's hash above them
    /// (0 = empty). A probe compares hashes without leaving the slot array, and the slot of a hash is taken from
    /// its top bits, so growing the table needs no hash but the one in the slot.
    private var slots: [UInt64] = Array(repeating: 0, count: 64)
    /// log2 of `slots.count`.
    private var slotBits = 6
    /// Case-insensitive tables only: the lookup keys (lower-cased), concatenated like `bytes`.
    /// A case-sensitive table looks up by the texts themselves.
    private var keyBytes: [UInt8] = []
    private var keyStarts = Offsets([0, 0])
    public let caseInsensitive: Bool

    public init(caseInsensitive: Bool = false) {
        self.caseInsensitive = caseInsensitive
    }

    /// An empty case-sensitive table whose texts found inside `buffer` are named there, not copied. The table
    /// keeps `buffer` alive, so give it one that is kept whole anyway (a file's bytes, as read).
    public init(sharing buffer: [UInt8]) {
        caseInsensitive = false
        shared = buffer
        sharedAt = UInt(bitPattern: shared.withUnsafeBufferPointer { $0.baseAddress })
    }

    /// Whether the table names texts in a shared buffer (some may be held here too).
    public var sharesBuffer: Bool { !shared.isEmpty }

    /// Whether the texts are named in `buffer` (the same array, not equal bytes).
    public func isSharing(_ buffer: [UInt8]) -> Bool {
        sharesBuffer && UInt(bitPattern: buffer.withUnsafeBufferPointer { $0.baseAddress }) == sharedAt
    }

    /// How many bytes of text the table holds itself (not counting what it names in a shared buffer).
    public var ownByteCount: Int { bytes.count }

    /// The same table with every text held in its own bytes, the shared buffer let go: what a table keeps once
    /// that buffer is no longer kept anyway (the file was saved, and the document holds the new bytes).
    public func unshared() -> StringTable {
        guard sharesBuffer else { return self }
        var out = self
        out.shared = []
        out.sharedAt = 0
        var own: [UInt8] = []
        own.reserveCapacity(withAllUTF8 { texts in ids.reduce(0) { $0 + texts[$1].count } })
        var starts = Offsets([0]), ends = Offsets([0])
        starts.reserveCapacity(count + 1)
        ends.reserveCapacity(count + 1)
        withAllUTF8 { texts in
            for id in ids {
                starts.append(own.count)
                own.append(contentsOf: texts[id])
                ends.append(own.count)
            }
        }
        out.bytes = own
        out.starts = starts
        out.ends = ends
        return out
    }

    /// What this table becomes while its shared buffer is edited where it is (a save writes a file's next bytes over
    /// the old ones): `edits` are ranges of the buffer, sorted and apart, each replaced by `count` bytes. The texts
    /// inside an edited range are copied into the table's own bytes; the others are named where the edits move
    /// them. The buffer is let go, so that nothing else holds it while it is edited: the table reads no text until
    /// `reattached(to:)` gives it the buffer with the edits made.
    ///
    /// (`unshared` copies every text: a million distinct descriptions, 57 MB of fresh memory, were four tenths of a
    /// save of the 1M `wide` shape.)
    public func detached(forEdits edits: [(start: Int, end: Int, count: Int)]) -> StringTable {
        guard sharesBuffer else { return self }
        let oldCount = shared.count
        // Each edit's change of length summed over the edits before it.
        var before = [Int](repeating: 0, count: edits.count + 1)
        for (k, e) in edits.enumerated() { before[k + 1] = before[k] + e.count - (e.end - e.start) }
        let newCount = oldCount + before[edits.count]
        /// The first edit that ends after `s` (an edit ending at `s` is before a text there).
        func firstEnding(after s: Int) -> Int {
            var lo = 0, hi = edits.count
            while lo < hi {
                let mid = (lo + hi) / 2
                if edits[mid].end <= s { lo = mid + 1 } else { hi = mid }
            }
            return lo
        }
        var out = self
        var own = bytes
        var starts = Offsets([0]), ends = Offsets([0])
        starts.reserveCapacity(count + 1)
        ends.reserveCapacity(count + 1)
        // The texts mostly lie in the order of their ids (first seen, first named): the edit before each is found
        // by stepping on from the last one's, and by a search only when a text lies before the last.
        var k = 0, last = 0
        shared.withUnsafeBufferPointer { buffer in
            self.starts.withBuffer { oldStarts in
                self.ends.withBuffer { oldEnds in
                    for id in 1..<self.starts.count {
                        let s = oldStarts[id], e = oldEnds[id]
                        if s >= oldCount {
                            // Held here already: after the buffer's new length.
                            starts.append(s - oldCount + newCount)
                            ends.append(e - oldCount + newCount)
                            continue
                        }
                        if s < last { k = firstEnding(after: s) } else { while k < edits.count && edits[k].end <= s { k += 1 } }
                        last = s
                        if k < edits.count && edits[k].start < e {
                            // Inside an edited range: copied.
                            starts.append(newCount + own.count)
                            own.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[s..<e]))
                            ends.append(newCount + own.count)
                        } else {
                            starts.append(s + before[k])
                            ends.append(e + before[k])
                        }
                    }
                }
            }
        }
        out.bytes = own
        out.starts = starts
        out.ends = ends
        out.shared = []
        out.sharedAt = 0
        out.detachedCount = newCount
        return out
    }

    /// The table `detached(forEdits:)` made, naming its texts in `buffer`, the shared buffer with the edits made.
    public func reattached(to buffer: [UInt8]) -> StringTable {
        guard let expected = detachedCount else { return self }
        precondition(buffer.count == expected, "a table reattached to a buffer of another length")
        var out = self
        out.detachedCount = nil
        out.shared = buffer
        out.sharedAt = UInt(bitPattern: buffer.withUnsafeBufferPointer { $0.baseAddress })
        return out
    }

    /// Room for `count` more strings of `bytes` bytes in all: their texts and offsets are not copied again as
    /// they are added (the slots still grow by doubling). Room never written to is address space, not memory in use.
    public mutating func reserveCapacity(bytes: Int, count: Int) {
        if !sharesBuffer { self.bytes.reserveCapacity(self.bytes.count + bytes) }
        starts.reserveCapacity(starts.count + count)
        ends.reserveCapacity(ends.count + count)
        if caseInsensitive {
            keyBytes.reserveCapacity(keyBytes.count + bytes)
            keyStarts.reserveCapacity(keyStarts.count + count)
        }
    }

    /// Slots for `count` strings in all, grown now (at most half full, as interning keeps them): a table that will
    /// hold that many does not double its slots on the way, each doubling placing every string again in fresh
    /// memory. A table already that large is left as it is.
    public mutating func reserveSlots(count n: Int) {
        grow(toHold: n)
    }

    /// How many slots the table has (tests: what `reserveSlots` grew).
    var slotCount: Int { slots.count }

    /// The number of strings, not counting the "none" placeholder.
    public var count: Int { starts.count - 1 }

    /// The ids of every string, in first-seen order.
    public var ids: Range<UInt32> { 1..<UInt32(starts.count) }

    public subscript(id: UInt32) -> String {
        withUTF8(id) { String(decoding: $0, as: UTF8.self) }
    }

    /// Reads the UTF-8 of `id`'s text in place.
    @inlinable
    public func withUTF8<R>(_ id: UInt32, _ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        // (Only the one buffer the text is in.)
        let start = starts[Int(id)], end = ends[Int(id)], n = shared.count
        if start < n { return try shared.withUnsafeBufferPointer { try body(UnsafeBufferPointer(rebasing: $0[start..<end])) } }
        return try bytes.withUnsafeBufferPointer { try body(UnsafeBufferPointer(rebasing: $0[(start - n)..<(end - n)])) }
    }

    /// Whether `id`'s text is exactly `text` (its bytes; case counts even in a case-insensitive table).
    public func text(of id: UInt32, is text: UnsafeBufferPointer<UInt8>) -> Bool { textEquals(Int(id), text) }

    /// `text(of:is:)` (a reader asks for each row, a lookup for each hash that matches). It chooses the buffer as
    /// `withUTF8` does, written out: compared through `withUTF8`'s closure, the 100k CSV open of `scripts/perf-gate`
    /// took 2.5% more instructions.
    @inline(__always)
    private func textEquals(_ id: Int, _ key: UnsafeBufferPointer<UInt8>) -> Bool {
        let start = starts[id], end = ends[id]
        guard end - start == key.count else { return false }
        if key.isEmpty { return true }
        let n = shared.count
        if start < n { return shared.withUnsafeBufferPointer { bytesEqual($0, start, key) } }
        return bytes.withUnsafeBufferPointer { bytesEqual($0, start - n, key) }
    }

    /// Every text's UTF-8 in place (`texts[id]`): for passes over the whole table that should not pay a
    /// closure call per id.
    @inlinable
    public func withAllUTF8<R>(_ body: (_ texts: Texts) throws -> R) rethrows -> R {
        try shared.withUnsafeBufferPointer { s in
            try bytes.withUnsafeBufferPointer { b in
                try starts.withBuffer { st in try ends.withBuffer { try body(Texts(shared: s, own: b, starts: st, ends: $0)) } }
            }
        }
    }

    /// The texts of a table, read in place; valid inside `withAllUTF8`.
    public struct Texts {
        @usableFromInline let shared: UnsafeBufferPointer<UInt8>
        @usableFromInline let own: UnsafeBufferPointer<UInt8>
        @usableFromInline let starts: Offsets.Buffer
        @usableFromInline let ends: Offsets.Buffer

        @inlinable
        init(shared: UnsafeBufferPointer<UInt8>, own: UnsafeBufferPointer<UInt8>, starts: Offsets.Buffer, ends: Offsets.Buffer) {
            self.shared = shared
            self.own = own
            self.starts = starts
            self.ends = ends
        }

        /// The UTF-8 of `id`'s text.
        @inlinable
        public subscript(id: UInt32) -> UnsafeBufferPointer<UInt8> { self[Int(id)] }

        @inlinable
        public subscript(id: Int) -> UnsafeBufferPointer<UInt8> {
            let start = starts[id], end = ends[id], n = shared.count
            if start < n { return UnsafeBufferPointer(rebasing: shared[start..<end]) }
            return UnsafeBufferPointer(rebasing: own[(start - n)..<(end - n)])
        }
    }

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

    /// The id of the string made of `bytes` (UTF-8), adding it when new. `decoded`, when given, is the same text
    /// as a `String` (it saves decoding it again to fold its case).
    public mutating func intern(bytes text: UnsafeBufferPointer<UInt8>, decoded: String? = nil) -> UInt32 {
        if caseInsensitive && StringTable.needsFolding(text) {
            let key = Array((decoded ?? String(decoding: text, as: UTF8.self)).lowercased().utf8)
            return key.withUnsafeBufferPointer { insert(key: $0, display: text) }
        }
        return insert(key: text, display: text)
    }

    /// The hash of `text` as a case-sensitive table looks it up, having asked for the slot it starts at to be
    /// loaded: a reader that calls this as it meets a field, and interns it (`intern(bytes:hash:)`) after other
    /// work, need not wait for the slot then. With a million texts the slots do not fit in the cache.
    /// (0 for a case-insensitive table, whose keys are folded first: nothing is loaded.)
    @inline(__always)
    public func prefetch(_ text: UnsafeBufferPointer<UInt8>) -> UInt64 {
        guard !caseInsensitive else { return 0 }
        let h = StringTable.hash(text)
        slots.withUnsafeBufferPointer { tagsh_prefetch($0.baseAddress! + Int(truncatingIfNeeded: h >> UInt64(64 - slotBits))) }
        return h
    }

    /// `intern(bytes:)`, with the hash `prefetch(text)` gave for the same text in this table (0: none).
    public mutating func intern(bytes text: UnsafeBufferPointer<UInt8>, hash: UInt64) -> UInt32 {
        guard hash != 0, !caseInsensitive else { return intern(bytes: text) }
        assert(hash == StringTable.hash(text), "a hash not of this text")
        return insert(key: text, display: text, top: hash >> 32)
    }

    private mutating func insert(key: UnsafeBufferPointer<UInt8>, display: UnsafeBufferPointer<UInt8>) -> UInt32 {
        insert(key: key, display: display, top: StringTable.hash(key) >> 32)
    }

    /// Adds every string of `other` (in its id order, as interning them one by one would) and returns the id each
    /// of its ids has here. Faster than interning them one by one: no key is hashed again (the hashes are in
    /// `other`'s slots), and the slots grow once, up front. How the second half of a file read on two cores joins
    /// the first.
    public mutating func merge(_ other: StringTable) -> [UInt32] {
        var map = [UInt32](repeating: 0, count: other.count + 1)
        guard other.count > 0 else { return map }
        guard other.caseInsensitive == caseInsensitive else {
            for id in other.ids { map[Int(id)] = other.withUTF8(id) { intern(bytes: $0) } }
            return map
        }
        var tops = [UInt32](repeating: 0, count: other.count + 1)
        for value in other.slots where value != 0 { tops[Int(value & 0xFFFF_FFFF)] = UInt32(truncatingIfNeeded: value >> 32) }
        grow(toHold: count + other.count)
        bytes.reserveCapacity(bytes.count + other.bytes.count)
        starts.reserveCapacity(starts.count + other.count)
        ends.reserveCapacity(ends.count + other.count)
        if caseInsensitive {
            keyBytes.reserveCapacity(keyBytes.count + other.keyBytes.count)
            keyStarts.reserveCapacity(keyStarts.count + other.count)
        }
        // Each slot is asked for sixteen inserts ahead of the one that reads it. With a million texts the slots do
        // not fit in the cache, and loads that do not wait on each other wait for memory together, where one
        // insert after another waits in turn. The table grew up front, and its slots are its own (the first
        // write would have copied shared ones): they stay where they are asked for, at an address taken once.
        // (Taken in the loop, each insert retained and released them; a prefetch only hints, and never faults.)
        slots.withUnsafeMutableBufferPointer { _ in }
        let slotsAt = UInt(bitPattern: slots.withUnsafeBufferPointer { $0.baseAddress })
        let shift = UInt32(32 - slotBits)
        func ask(_ k: Int) { tagsh_prefetch(UnsafeRawPointer(bitPattern: slotsAt &+ UInt(tops[k] >> shift) &* 8)) }
        // (A text of `other` in the buffer this table shares is named there, as interning it would.)
        other.withAllUTF8 { display in
            other.keyBytes.withUnsafeBufferPointer { keys in
                for k in 1...min(16, other.count) { ask(k) }
                for id in 1...other.count {
                    if id + 16 <= other.count { ask(id + 16) }
                    let text = display[id]
                    let key = caseInsensitive ? UnsafeBufferPointer(rebasing: keys[other.keyStarts[id]..<other.keyStarts[id + 1]]) : text
                    map[id] = insert(key: key, display: text, top: UInt64(tops[id]))
                }
            }
        }
        return map
    }

    /// `insert(key:display:)` for a key whose hash's top 32 bits are `top`.
    private mutating func insert(key: UnsafeBufferPointer<UInt8>, display: UnsafeBufferPointer<UInt8>, top: UInt64) -> UInt32 {
        let (found, slot) = find(key: key, top: top)
        if let found { return found }
        let id = UInt32(starts.count)
        let at = UInt(bitPattern: display.baseAddress) &- sharedAt
        if sharesBuffer && display.baseAddress != nil && at < UInt(shared.count) {
            starts.append(Int(at))
            ends.append(Int(at) + display.count)
        } else {
            starts.append(shared.count + bytes.count)
            bytes.append(contentsOf: display)
            ends.append(shared.count + bytes.count)
        }
        if caseInsensitive {
            keyBytes.append(contentsOf: key)
            keyStarts.append(keyBytes.count)
        }
        slots[slot] = top << 32 | UInt64(id)
        if count * 2 > slots.count { grow() }
        return id
    }

    private func find(key: UnsafeBufferPointer<UInt8>) -> (id: UInt32?, slot: Int) {
        find(key: key, top: StringTable.hash(key) >> 32)
    }

    private func find(key: UnsafeBufferPointer<UInt8>, top: UInt64) -> (id: UInt32?, slot: Int) {
        slots.withUnsafeBufferPointer { slots in
            // A case-sensitive table looks up by its texts, a case-insensitive one by its folded keys.
            if caseInsensitive {
                return keyBytes.withUnsafeBufferPointer { stored in
                    keyStarts.withBuffer { starts in
                        StringTable.probe(key, top, slotBits, slots) { id in
                            let start = starts[id]
                            return starts[id + 1] - start == key.count && (key.isEmpty || bytesEqual(stored, start, key))
                        }
                    }
                }
            }
            return StringTable.probe(key, top, slotBits, slots) { textEquals($0, key) }
        }
    }

    /// The id stored under `key`, or the empty slot where it would go.
    @inline(__always)
    private static func probe(_ key: UnsafeBufferPointer<UInt8>, _ top: UInt64, _ bits: Int, _ slots: UnsafeBufferPointer<UInt64>,
                              _ equal: (Int) -> Bool) -> (UInt32?, Int) {
        let mask = slots.count - 1
        var slot = Int(truncatingIfNeeded: top >> UInt64(32 - bits))
        while true {
            let value = slots[slot]
            if value == 0 { return (nil, slot) }
            if value >> 32 == top {
                let id = Int(truncatingIfNeeded: value & 0xFFFF_FFFF)
                if equal(id) { return (UInt32(id), slot) }
            }
            slot = (slot + 1) & mask
        }
    }

    /// Doubles the slots (to keep them at most half full), placing each entry by the hash its slot holds.
    private mutating func grow() {
        slotBits += 1
        slots = doubled(slots, toBits: slotBits)
    }

    /// Slots for `n` entries at most half full, grown in one step (see `bitsOfSlots(toHold:from:)`).
    private mutating func grow(toHold n: Int) {
        let bits = bitsOfSlots(toHold: n, from: slotBits)
        guard bits > slotBits else { return }
        slotBits = bits
        slots = doubled(slots, toBits: bits)
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

/// How many bits of slots hold `n` entries at most half full, from `bits` on: a table that grows by several
/// doublings at once makes the last size only (each doubling between made and placed every entry in fresh
/// memory, some 16 MB more to fill when a million descriptions' slots were reserved at once).
func bitsOfSlots(toHold n: Int, from bits: Int) -> Int {
    var bits = bits
    while n * 2 > 1 << bits { bits += 1 }
    return bits
}

/// The slots of an open-addressing table that keeps, in each slot's high 32 bits, the top 32 bits of its key's
/// hash (`StringTable`, `TagSetTable`), grown to 2^`bits` slots and placed again by the top `bits` of those bits.
func doubled(_ slots: [UInt64], toBits bits: Int) -> [UInt64] {
    precondition(bits <= 32, "an intern table of more than 2^31 entries")
    var newSlots = [UInt64](repeating: 0, count: 1 << bits)
    newSlots.withUnsafeMutableBufferPointer { place(slots, in: $0, bits: bits) }
    return newSlots
}

/// Places each of `values` that is not 0 (a slot's value, as `doubled` says) in `slots`, 2^`bits` of them: at the
/// slot the top `bits` of its hash's top name, or the first empty one past it. The slots where they go are empty.
@inline(__always)
func place(_ values: [UInt64], in slots: UnsafeMutableBufferPointer<UInt64>, bits: Int) {
    let mask = slots.count - 1
    for value in values where value != 0 {
        var slot = Int(truncatingIfNeeded: value >> UInt64(64 - bits))
        while slots[slot] != 0 { slot = (slot + 1) & mask }
        slots[slot] = value
    }
}
