/// An exact decimal amount: `units × 10^-scale`, never binary floating point.
///
/// `-12.50` is `Amount(units: -1250, scale: 2)`. Two amounts compare by value,
/// whatever their scales (`5` equals `5.00`), but keep their own scale for
/// display, so a file's `5` is shown as `5` and its `5.00` as `5.00`.
public struct Amount: Sendable, Hashable, Comparable, CustomStringConvertible {
    public var units: Int64
    public var scale: UInt8

    public init(units: Int64, scale: UInt8) {
        self.units = units
        self.scale = scale
    }

    public static let zero = Amount(units: 0, scale: 0)

    /// The largest scale an amount may have; more digits are refused when parsing.
    public static let maxScale: UInt8 = 18

    public var isNegative: Bool { units < 0 }
    public var magnitude: Amount { Amount(units: units == .min ? .max : abs(units), scale: scale) }
    public static prefix func - (a: Amount) -> Amount { Amount(units: a.units == .min ? .max : -a.units, scale: a.scale) }

    /// The value at a larger scale, widened so it cannot overflow.
    @inlinable
    public func units(atScale target: UInt8) -> Int128 {
        var v = Int128(units)
        var s = scale
        while s < target { v *= 10; s += 1 }
        return v
    }

    /// Each amount's units at the largest scale among them (none as 0), when all of them fit 64 bits: amounts
    /// that compare by value as these integers do (`ls --sort amount`, `summary --limit`); nil when one does not.
    @inlinable
    public static func unitsAtOneScale<C: Collection>(_ amounts: C) -> [Int64]? where C.Element == Amount? {
        var scale: UInt8 = 0
        for a in amounts { if let a { scale = max(scale, a.scale) } }
        var units: [Int64] = []
        units.reserveCapacity(amounts.count)
        for a in amounts {
            guard let u = Int64(exactly: a?.units(atScale: scale) ?? 0) else { return nil }
            units.append(u)
        }
        return units
    }

    public static func == (a: Amount, b: Amount) -> Bool {
        if a.scale == b.scale { return a.units == b.units }
        let s = max(a.scale, b.scale)
        return a.units(atScale: s) == b.units(atScale: s)
    }

    public func hash(into hasher: inout Hasher) {
        // Normalise so that equal values hash alike (5 and 5.00).
        var u = units, s = scale
        while s > 0 && u % 10 == 0 { u /= 10; s -= 1 }
        hasher.combine(u)
        hasher.combine(s)
    }

    public static func < (a: Amount, b: Amount) -> Bool {
        if a.scale == b.scale { return a.units < b.units }
        let s = max(a.scale, b.scale)
        return a.units(atScale: s) < b.units(atScale: s)
    }

    /// The sum, or nil on overflow.
    public func adding(_ other: Amount) -> Amount? {
        let s = max(scale, other.scale)
        let sum = units(atScale: s) + other.units(atScale: s)
        guard let u = Int64(exactly: sum) else { return nil }
        return Amount(units: u, scale: s)
    }

    /// Plain text: `-1234.50` (no grouping, `.` as the decimal mark).
    public var description: String { formatted(grouping: false) }

    /// The amount as text, optionally with `,` thousands grouping (`-1,234.50`).
    public func formatted(grouping: Bool, minimumScale: UInt8 = 0) -> String {
        let shownScale = max(scale, minimumScale)
        return Amount.text(units(atScale: shownScale), scale: shownScale, grouping: grouping)
    }

    /// `units × 10^-scale` as text: `-1234.50`, or `-1,234.50` with grouping.
    static func text(_ units: Int128, scale: UInt8, grouping: Bool) -> String {
        // (The magnitude, not the negation: a total's units may be Int128.min.)
        var digits = String(units.magnitude)
        let fractionCount = Int(scale)
        if digits.count <= fractionCount {
            digits = String(repeating: "0", count: fractionCount - digits.count + 1) + digits
        }
        let split = digits.index(digits.endIndex, offsetBy: -fractionCount)
        var whole = String(digits[..<split])
        let fraction = digits[split...]
        if grouping && whole.count > 3 {
            var grouped = ""
            for (i, ch) in whole.enumerated() {
                if i > 0 && (whole.count - i) % 3 == 0 { grouped.append(",") }
                grouped.append(ch)
            }
            whole = grouped
        }
        var text = units < 0 ? "-" + whole : whole
        if fractionCount > 0 { text += "." + fraction }
        return text
    }
}

/// A sum of amounts, exact: its units in 128 bits at the largest scale among the amounts summed. (An `Amount`'s
/// 64 bits do not hold every sum: twelve amounts of 99,999,999,999.0000001 pass them.) A sum that would pass 128
/// bits, which takes amounts of nineteen digits beside ones of eighteen places, is kept as overflowed and written
/// so, never as another figure.
public struct Total: Sendable, Equatable, CustomStringConvertible {
    public private(set) var units: Int128 = 0
    public private(set) var scale: UInt8 = 0
    public private(set) var overflowed = false

    public init() {}

    public init(_ amount: Amount) { (units, scale) = (Int128(amount.units), amount.scale) }

    public init(units: Int128, scale: UInt8, overflowed: Bool = false) {
        (self.units, self.scale, self.overflowed) = (units, scale, overflowed)
    }

    public var isNegative: Bool { units < 0 }

    public mutating func add(_ amount: Amount) { add(Int128(amount.units), amount.scale) }

    public mutating func add(_ other: Total) {
        if other.overflowed { overflowed = true }
        add(other.units, other.scale)
    }

    /// Adds `units × 10^-scale`.
    public mutating func add(_ units: Int128, _ scale: UInt8) {
        if scale == self.scale {
            let (sum, overflow) = self.units.addingReportingOverflow(units)
            self.units = sum
            if overflow { overflowed = true }
        } else {
            addRescaling(units, scale)
        }
    }

    private mutating func addRescaling(_ units: Int128, _ scale: UInt8) {
        let s = max(scale, self.scale)
        guard let mine = Total.rescaled(self.units, from: self.scale, to: s), let theirs = Total.rescaled(units, from: scale, to: s) else {
            overflowed = true
            return
        }
        let (sum, overflow) = mine.addingReportingOverflow(theirs)
        (self.units, self.scale) = (sum, s)
        if overflow { overflowed = true }
    }

    /// `units` at a scale `to` not below `from`; nil past 128 bits.
    public static func rescaled(_ units: Int128, from: UInt8, to: UInt8) -> Int128? {
        var v = units
        for _ in from..<max(from, to) {
            let (r, o) = v.multipliedReportingOverflow(by: 10)
            if o { return nil }
            v = r
        }
        return v
    }

    /// The units at a scale not below this one's, or nil past 128 bits (or overflowed).
    public func units(atScale target: UInt8) -> Int128? {
        overflowed ? nil : Total.rescaled(units, from: scale, to: target)
    }

    /// The total as text (`-1,234.50` with grouping), at `minimumScale` places at least; `overflow` when it is not
    /// a number.
    public func formatted(grouping: Bool, minimumScale: UInt8 = 0) -> String {
        let shown = max(scale, minimumScale)
        guard let u = units(atScale: shown) else { return "overflow" }
        return Amount.text(u, scale: shown, grouping: grouping)
    }

    /// Plain text, as `Amount.description` writes an amount: `-1234.50`.
    public var description: String { formatted(grouping: false) }

    /// Equal by value, whatever the scales (`5` and `5.00`); an overflowed total equals only another.
    public static func == (a: Total, b: Total) -> Bool {
        if a.overflowed || b.overflowed { return a.overflowed == b.overflowed }
        let s = max(a.scale, b.scale)
        return a.units(atScale: s) == b.units(atScale: s)
    }
}

/// Sums of amounts kept per currency, exactly (`Total`s).
public struct AmountTotals: Sendable, Equatable {
    /// Totals by currency id, in the order currencies were first seen.
    public private(set) var entries: [(currency: UInt32, amount: Total)] = []

    public init() {}

    public mutating func add(_ amount: Amount, currency: UInt32) { add(Total(amount), currency: currency) }

    public mutating func add(_ total: Total, currency: UInt32) {
        if let i = entries.firstIndex(where: { $0.currency == currency }) {
            entries[i].amount.add(total)
        } else {
            entries.append((currency, total))
        }
    }

    public static func == (a: AmountTotals, b: AmountTotals) -> Bool {
        a.entries.count == b.entries.count
            && zip(a.entries, b.entries).allSatisfy { $0.currency == $1.currency && $0.amount == $1.amount }
    }
}
