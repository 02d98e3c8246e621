import Testing
@testable import TagshModel
import TagshTestSupport

/// A table naming texts in a shared buffer follows edits made to that buffer where it is
/// (`StringTable.detached(forEdits:)`, then `reattached(to:)`): every id keeps its text; a text outside the edited
/// ranges is named in the edited buffer, where the edits moved it, and only those inside them are copied.
struct DetachedTableTests {
    /// Words of the buffer interned from where they lie (in file order, or shuffled: a second half's ids come after
    /// the first's, and a text first seen late may lie early), some texts held by the table itself, then random
    /// edits: ranges replaced by other bytes, insertions, an edit at the very start and at the end.
    @Test(arguments: [(1, false), (2, true), (3, false), (4, true), (5, true)] as [(UInt64, Bool)])
    func everyTextIsWhereTheEditsMovedIt(seed: UInt64, shuffled: Bool) {
        var rng = SplitMix(seed: seed)
        var buffer: [UInt8] = []
        var words: [Range<Int>] = []
        for _ in 0..<400 {
            let n = Int.random(in: 0...9, using: &rng)
            let start = buffer.count
            for _ in 0..<n { buffer.append(UInt8.random(in: 0x61...0x66, using: &rng)) }
            words.append(start..<buffer.count)
            buffer.append(0x2C)
        }
        var table = StringTable(sharing: buffer)
        var order = Array(words.indices)
        if shuffled { order.shuffle(using: &rng) }
        var ids: [UInt32] = []
        var texts: [[UInt8]] = []
        buffer.withUnsafeBufferPointer { b in
            for (k, w) in order.enumerated() {
                if k % 37 == 5 {
                    // A text of its own (a quoted description is unquoted into the table's bytes).
                    let own = Array("held \(k)".utf8)
                    ids.append(table.intern(own.withUnsafeBufferPointer { String(decoding: $0, as: UTF8.self) }))
                    texts.append(own)
                }
                ids.append(table.intern(bytes: UnsafeBufferPointer(rebasing: b[words[w]])))
                texts.append(Array(b[words[w]]))
            }
        }
        #expect(table.isSharing(buffer))
        // Edits: sorted, apart, some at 0 and at the end, some insertions (start == end).
        var edits: [(start: Int, end: Int, count: Int)] = []
        var replacements: [[UInt8]] = []
        var at = 0
        while at <= buffer.count {
            let start = at == 0 && Bool.random(using: &rng) ? 0 : min(buffer.count, at + Int.random(in: 0...40, using: &rng))
            let end = min(buffer.count, start + (Int.random(in: 0..<3, using: &rng) == 0 ? 0 : Int.random(in: 1...25, using: &rng)))
            let bytes = (0..<Int.random(in: 0...30, using: &rng)).map { _ in UInt8.random(in: 0x30...0x39, using: &rng) }
            if start == end && bytes.isEmpty { at = end + 1; continue }
            edits.append((start, end, bytes.count))
            replacements.append(bytes)
            at = end + 1
        }
        var edited: [UInt8] = []
        var copied = 0
        for (e, bytes) in zip(edits, replacements) {
            edited += buffer[copied..<e.start] + bytes
            copied = e.end
        }
        edited += buffer[copied...]
        // Which shared texts lie inside an edited range (overlap it, or hold an insertion inside).
        func inside(_ r: Range<Int>) -> Bool {
            edits.contains { e in e.start == e.end ? (r.lowerBound < e.start && e.start < r.upperBound) : (e.start < r.upperBound && r.lowerBound < e.end) }
        }
        let ownBefore = table.ownByteCount
        let copiedBytes = Set(table.ids.filter { id in
            table.withUTF8(id) { t in
                buffer.withUnsafeBufferPointer { b in
                    guard let base = b.baseAddress, let p = t.baseAddress, p >= base, p < base + b.count else { return false }
                    return inside((p - base)..<(p - base + t.count))
                }
            }
        }).reduce(0) { sum, id in sum + table.withUTF8(id) { $0.count } }
        let detached = table.detached(forEdits: edits)
        #expect(!detached.sharesBuffer)
        buffer = [] // (the table no longer holds it)
        let moved = detached.reattached(to: edited)
        #expect(moved.isSharing(edited))
        for (id, text) in zip(ids, texts) { #expect(moved.withUTF8(id) { Array($0) } == text, "id \(id)") }
        #expect(moved.count == table.count)
        #expect(moved.ownByteCount == ownBefore + copiedBytes)
        // Looked up again, each text is found under its id (the slots are the table's as they were).
        for (id, text) in zip(ids, texts) { #expect(moved.id(of: String(decoding: text, as: UTF8.self)) == id) }
    }

    /// A table that shares nothing is left as it is.
    @Test func aTableOfItsOwnIsLeftAsItIs() {
        var table = StringTable()
        let id = table.intern("CAFE")
        let same = table.detached(forEdits: [(0, 2, 5)]).reattached(to: [1, 2, 3])
        #expect(same[id] == "CAFE" && same.ownByteCount == 4 && !same.sharesBuffer)
    }
}
