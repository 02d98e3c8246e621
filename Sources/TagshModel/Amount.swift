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
        let wide = units(atScale: shownScale)
        let negative = wide < 0
        var digits = String(negative ? -wide : wide)
        let fractionCount = Int(shownScale)
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
        var text = negative ? "-" + whole : whole
        if fractionCount > 0 { text += "." + fraction }
        return text
    }
}

/// Sums of amounts kept per currency, exactly.
public struct AmountTotals: Sendable, Equatable {
    /// Totals by currency id, in the order currencies were first seen.
    public private(set) var entries: [(currency: UInt32, amount: Amount)] = []

    public init() {}

    public mutating func add(_ amount: Amount, currency: UInt32) {
        if let i = entries.firstIndex(where: { $0.currency == currency }) {
            entries[i].amount = entries[i].amount.adding(amount) ?? entries[i].amount
        } else {
            entries.append((currency, amount))
        }
    }

    public static func == (a: AmountTotals, b: AmountTotals) -> Bool {
        a.entries.count == b.entries.count
            && zip(a.entries, b.entries).allSatisfy { $0.currency == $1.currency && $0.amount == $1.amount }
    }
}
