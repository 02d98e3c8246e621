/// A file's new bytes, described as its old bytes with some ranges replaced.
///
/// A save of a million-row file changes a small part of it. Building the new
/// file as a second array costs a copy into fresh memory, which on a virtual
/// machine costs more than the edits themselves. So a save writes the parts of
/// a splice straight to the file (`FileIO.writeTemporary`), and once the file
/// is in place edits the old array in place (`apply(_:to:)`), where its pages
/// are already mapped.
public struct ByteSplice: Sendable {
    public typealias Edit = (start: Int, end: Int, bytes: [UInt8])

    public private(set) var base: [UInt8]
    /// Sorted by where they start; none overlaps another.
    public private(set) var edits: [Edit]
    /// How many bytes the new file has.
    public let count: Int

    /// `base` with `edits` made (in any order; an insertion at a replaced range's start goes before it).
    public init(_ base: [UInt8], edits: [Edit] = []) {
        // A save's edits come in row order, which is file order: sorting a copy of 100,000 of them (a retain and
        // release of each one's bytes) cost a save of a million-row file about 10 ms (perf) for nothing.
        let inOrder = edits.indices.dropFirst().allSatisfy { (edits[$0 - 1].start, edits[$0 - 1].end) <= (edits[$0].start, edits[$0].end) }
        let sorted = inOrder ? edits : edits.sorted { ($0.start, $0.end) < ($1.start, $1.end) }
        var count = base.count
        for e in sorted { count += e.bytes.count - (e.end - e.start) }
        self.base = base
        self.edits = sorted
        self.count = count
    }

    /// `base` with `edits` made, which are already sorted by where they start and do not overlap.
    public init(_ base: [UInt8], sortedEdits edits: [Edit]) {
        var count = base.count
        for e in edits { count += e.bytes.count - (e.end - e.start) }
        self.base = base
        self.edits = edits
        self.count = count
    }

    public var isUnchanged: Bool { edits.isEmpty }

    /// Calls `body` with each part of the new bytes, in order (empty parts are skipped).
    public func forEachPart<E: Error>(_ body: (UnsafeBufferPointer<UInt8>) throws(E) -> Void) throws(E) {
        try base.withUnsafeBufferPointer { source throws(E) in
            var copied = 0
            for e in edits {
                if e.start > copied { try body(UnsafeBufferPointer(rebasing: source[copied..<e.start])) }
                if !e.bytes.isEmpty { try e.bytes.withUnsafeBufferPointer { p throws(E) in try body(p) } }
                copied = e.end
            }
            if copied < source.count { try body(UnsafeBufferPointer(rebasing: source[copied...])) }
        }
    }

    /// The new bytes, in a new array.
    public var bytes: [UInt8] {
        if edits.isEmpty { return base }
        return [UInt8](unsafeUninitializedCapacity: count) { out, filled in
            var at = 0
            forEachPart { (part: UnsafeBufferPointer<UInt8>) in
                (out.baseAddress! + at).initialize(from: part.baseAddress!, count: part.count)
                at += part.count
            }
            filled = at
        }
    }

    /// The edits, with the splice's hold on the old bytes let go (so `apply` can edit them in place).
    public mutating func takeEdits() -> [Edit] {
        base = []
        let taken = edits
        edits = []
        return taken
    }

    /// Makes `edits` (sorted, not overlapping, as a splice holds them) to `bytes` in place. Every byte that stays
    /// moves at most once; nothing is copied to a new array unless `bytes` must grow past its capacity or is shared.
    public static func apply(_ edits: [Edit], to bytes: inout [UInt8]) {
        guard !edits.isEmpty else { return }
        let oldCount = bytes.count
        // Where each kept run of old bytes goes, and where each edit's bytes go.
        var runs: [(from: Int, count: Int, to: Int)] = []
        runs.reserveCapacity(edits.count + 1)
        var placed: [Int] = []
        placed.reserveCapacity(edits.count)
        var copied = 0
        var delta = 0
        for e in edits {
            if e.start > copied { runs.append((copied, e.start - copied, copied + delta)) }
            placed.append(e.start + delta)
            delta += e.bytes.count - (e.end - e.start)
            copied = e.end
        }
        if copied < oldCount { runs.append((copied, oldCount - copied, copied + delta)) }
        let newCount = oldCount + delta
        if newCount > oldCount { bytes.append(contentsOf: repeatElement(0, count: newCount - oldCount)) }
        bytes.withUnsafeMutableBufferPointer { p in
            let base = p.baseAddress!
            // Runs moving toward the start go first, front to back; then those moving toward the end, back to
            // front. The new file keeps the runs in order, so neither pass writes over a run still to move.
            // (`copyMemory` is memmove: a run may overlap where it lands.)
            func move(_ r: (from: Int, count: Int, to: Int)) {
                UnsafeMutableRawPointer(base + r.to).copyMemory(from: UnsafeRawPointer(base + r.from), byteCount: r.count)
            }
            for r in runs where r.to < r.from { move(r) }
            for r in runs.reversed() where r.to > r.from { move(r) }
            for (e, at) in zip(edits, placed) where !e.bytes.isEmpty {
                e.bytes.withUnsafeBufferPointer { (base + at).update(from: $0.baseAddress!, count: $0.count) }
            }
        }
        if newCount < oldCount { bytes.removeLast(oldCount - newCount) }
    }
}
