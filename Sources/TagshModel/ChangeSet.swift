/// A change to the ledger as a value: per transaction and field, the value
/// before and after. `preview` renders one, `apply` commits it, and `undo`
/// commits its inverse, so an undo step costs memory in proportion to what
/// it changed, never a copy of the ledger.
public struct ChangeSet: Sendable {
    /// An annotation column.
    public enum Field: UInt8, Sendable, CaseIterable, CustomStringConvertible {
        case intent, category, tags, note

        public var description: String {
            switch self {
            case .intent: "intent"
            case .category: "category"
            case .tags: "tags"
            case .note: "note"
            }
        }
    }

    /// A change to a table rather than to rows (categories are named once).
    public enum TableChange: Sendable, Equatable {
        case setCategory(id: UInt32, before: Category, after: Category)
    }

    // Column-wise storage: 13 bytes a changed field. (Read through the properties below, written here and by
    // `record`, which is inlined into the loops that record a change a row: a call a change, its four appends
    // checked for room and uniqueness in turn, was 3% of a broad `preview`'s instructions. The properties are
    // inlined too: a loop in another module that read `changes.fields[k]` called into this one, and retained and
    // released the column, for every element, a third of `category @ Food` over 900,000 beancount rows.)
    @usableFromInline var rowStore: [Int32] = []
    @usableFromInline var fieldStore: [Field] = []
    @usableFromInline var beforeStore: [UInt32] = []
    @usableFromInline var afterStore: [UInt32] = []
    @inlinable public var rows: [Int32] { rowStore }
    @inlinable public var fields: [Field] { fieldStore }
    @inlinable public var before: [UInt32] { beforeStore }
    @inlinable public var after: [UInt32] { afterStore }
    public private(set) var tableChanges: [TableChange] = []

    public init() {}

    @inlinable public var count: Int { rowStore.count }
    public var isEmpty: Bool { rows.isEmpty && tableChanges.isEmpty }

    /// How many distinct transactions the change touches.
    public var transactionCount: Int {
        guard let top = rows.max() else { return 0 }
        var seen = RowSet(rowCount: Int(top) + 1)
        var n = 0
        for r in rows where !seen.contains(Int(r)) {
            seen.insert(Int(r))
            n += 1
        }
        return n
    }

    /// Records one field change; a change to the same value is dropped.
    @inlinable
    public mutating func record(row: Int, field: Field, before b: UInt32, after a: UInt32) {
        guard a != b else { return }
        rowStore.append(Int32(row))
        fieldStore.append(field)
        beforeStore.append(b)
        afterStore.append(a)
    }

    public mutating func record(_ change: TableChange) { tableChanges.append(change) }

    /// Replaces each `after` of `field` from `base` on by `ids[after - base]`: a plan records the tag sets it makes
    /// by their place among the sets it has not interned yet, and renumbers them once they are.
    public mutating func renumberAfter(_ field: Field, from base: UInt32, _ ids: [UInt32]) {
        for i in 0..<rowStore.count where fieldStore[i] == field && afterStore[i] >= base { afterStore[i] = ids[Int(afterStore[i] - base)] }
    }

    /// Adds `other`'s changes after these (its table changes too).
    public mutating func append(contentsOf other: ChangeSet) {
        rowStore += other.rowStore; fieldStore += other.fieldStore; beforeStore += other.beforeStore; afterStore += other.afterStore
        tableChanges += other.tableChanges
    }

    public mutating func reserveCapacity(_ n: Int) {
        rowStore.reserveCapacity(n); fieldStore.reserveCapacity(n); beforeStore.reserveCapacity(n); afterStore.reserveCapacity(n)
    }

    /// A change set of at most `room` changes, written by `fill` straight into the room made for them (the
    /// columns' own storage), through a `Writer` over all of it, which `fill` may split to write on two cores.
    /// The change set holds what the writer it leaves (`fill`'s last) wrote.
    public init<E: Error>(room: Int, _ fill: (inout Writer) throws(E) -> Void) throws(E) {
        var rows: [Int32] = [], fields: [Field] = [], before: [UInt32] = [], after: [UInt32] = []
        var failure: E?
        // (Typed errors do not pass through the standard library's closures: the error is carried out by hand.)
        rows = Array(unsafeUninitializedCapacity: room) { r, rowCount in
            fields = Array(unsafeUninitializedCapacity: room) { f, fieldCount in
                before = Array(unsafeUninitializedCapacity: room) { b, beforeCount in
                    after = Array(unsafeUninitializedCapacity: room) { a, afterCount in
                        var w = Writer(rows: r.baseAddress, fields: f.baseAddress, before: b.baseAddress, after: a.baseAddress,
                                       start: 0, end: room)
                        do throws(E) { try fill(&w) } catch { failure = error }
                        let n = failure == nil ? w.count : 0
                        precondition(w.start == 0, "a change set is what a writer from its start wrote")
                        rowCount = n; fieldCount = n; beforeCount = n; afterCount = n
                    }
                }
            }
        }
        if let failure { throw failure }
        rowStore = rows; fieldStore = fields; beforeStore = before; afterStore = after
    }

    /// Writes changes into room made for them (`ChangeSet.init(room:_:)`), from `start` up to `end`: a change is
    /// four stores and a count, where an append to each column checked it for room and for a second holder.
    /// (A broad `preview` of 1M `wide` rows on two cores joined its halves by copying the second's changes
    /// after the first's, into memory not touched yet, while the other core waited: a sixth of the command.
    /// Here each half writes its own part of the room, and the second is moved down to follow the first.)
    public struct Writer: @unchecked Sendable {
        @usableFromInline let rows: UnsafeMutablePointer<Int32>?
        @usableFromInline let fields: UnsafeMutablePointer<Field>?
        @usableFromInline let before: UnsafeMutablePointer<UInt32>?
        @usableFromInline let after: UnsafeMutablePointer<UInt32>?
        public let start: Int
        @usableFromInline let end: Int
        /// Changes written, from `start`.
        public var count: Int { written }
        @usableFromInline var written = 0

        @usableFromInline
        init(rows: UnsafeMutablePointer<Int32>?, fields: UnsafeMutablePointer<Field>?, before: UnsafeMutablePointer<UInt32>?,
             after: UnsafeMutablePointer<UInt32>?, start: Int, end: Int) {
            (self.rows, self.fields, self.before, self.after, self.start, self.end) = (rows, fields, before, after, start, end)
        }

        /// A writer over no room: writes nothing.
        public init() { self.init(rows: nil, fields: nil, before: nil, after: nil, start: 0, end: 0) }

        /// This writer's room (nothing written yet) in two: up to `offset` from its start, and the rest.
        public func split(at offset: Int) -> (Writer, Writer) {
            precondition(count == 0 && offset >= 0 && start + offset <= end, "a writer is split before it writes, inside its room")
            return (Writer(rows: rows, fields: fields, before: before, after: after, start: start, end: start + offset),
                    Writer(rows: rows, fields: fields, before: before, after: after, start: start + offset, end: end))
        }

        /// Records one field change; a change to the same value is dropped.
        @inlinable
        public mutating func record(row: Int, field: Field, before b: UInt32, after a: UInt32) {
            guard a != b else { return }
            let i = start + written
            precondition(i < end, "more changes than the room made for them")
            rows.unsafelyUnwrapped[i] = Int32(row)
            fields.unsafelyUnwrapped[i] = field
            before.unsafelyUnwrapped[i] = b
            after.unsafelyUnwrapped[i] = a
            written += 1
        }

        /// Replaces each `after` of `field` from `base` on by `ids[after - base]`, as `ChangeSet.renumberAfter`.
        public func renumberAfter(_ field: Field, from base: UInt32, _ ids: [UInt32]) {
            guard let fields, let after else { return }
            for i in start..<(start + count) where fields[i] == field && after[i] >= base { after[i] = ids[Int(after[i] - base)] }
        }

        /// Moves what `next`, a writer over room after this one's in the same change set, wrote to follow what this
        /// one wrote; this writer then holds both.
        public mutating func append(_ next: Writer) {
            guard next.count > 0 else { return }
            precondition(next.rows == rows && next.start >= start + count && next.start + next.count <= next.end,
                         "a writer takes what one after it in its own room wrote")
            let to = start + count
            if next.start != to, let rows, let fields, let before, let after {
                (rows + to).update(from: rows + next.start, count: next.count)
                (fields + to).update(from: fields + next.start, count: next.count)
                (before + to).update(from: before + next.start, count: next.count)
                (after + to).update(from: after + next.start, count: next.count)
            }
            written += next.count
        }
    }
}

extension Ledger {
    /// The current value of an annotation field, as stored.
    public func value(_ field: ChangeSet.Field, row: Int) -> UInt32 {
        switch field {
        case .intent: UInt32(intent[row])
        case .category: category[row]
        case .tags: tagSet[row]
        case .note: note[row]
        }
    }

    /// Writes `values` (the change set's befores or afters) into the columns, a column at a time, and only the
    /// columns the change set holds: through one loop over every field, the compiler made all four columns the
    /// ledger's own before the loop, so the first change after an open, which shares them with the file's
    /// baseline, copied all four (13 MB at a million rows: 5 ms for a first `intent`, `review`'s slowest key).
    private mutating func write(_ c: ChangeSet, values: [UInt32], reversed: Bool) {
        var present = [false, false, false, false]
        for f in c.fields { present[Int(f.rawValue)] = true }
        // A column not written is lent as an empty buffer, which a change to it would fail on.
        func lent<T>(_ column: inout [T], _ written: Bool, _ body: (UnsafeMutableBufferPointer<T>) -> Void) {
            if written { column.withUnsafeMutableBufferPointer { body($0) } } else { body(UnsafeMutableBufferPointer(start: nil, count: 0)) }
        }
        lent(&intent, present[0]) { intent in
            lent(&category, present[1]) { category in
                lent(&tagSet, present[2]) { tagSet in
                    lent(&note, present[3]) { note in
                        c.fields.withUnsafeBufferPointer { fields in
                            c.rows.withUnsafeBufferPointer { rows in
                                values.withUnsafeBufferPointer { values in
                                    for k in 0..<fields.count {
                                        let i = reversed ? fields.count - 1 - k : k
                                        let row = Int(rows[i]), v = values[i]
                                        switch fields[i] {
                                        case .intent: precondition(UInt(bitPattern: row) < UInt(intent.count)); intent[row] = UInt8(v)
                                        case .category: precondition(UInt(bitPattern: row) < UInt(category.count)); category[row] = v
                                        case .tags: precondition(UInt(bitPattern: row) < UInt(tagSet.count)); tagSet[row] = v
                                        case .note: precondition(UInt(bitPattern: row) < UInt(note.count)); note[row] = v
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
    }

    /// Applies a change set forwards.
    public mutating func apply(_ c: ChangeSet) {
        for t in c.tableChanges {
            switch t {
            case .setCategory(let id, _, let after): categories.replace(id, with: after)
            }
        }
        write(c, values: c.after, reversed: false)
    }

    /// Applies a change set backwards: the inverse of `apply`.
    public mutating func revert(_ c: ChangeSet) {
        write(c, values: c.before, reversed: true)
        for t in c.tableChanges.reversed() {
            switch t {
            case .setCategory(let id, let before, _): categories.replace(id, with: before)
            }
        }
    }
}
