#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import TagshModel

/// The amount of a journal or beancount posting, read the way ledger,
/// hledger and beancount read it: a number with a commodity before or after
/// it (quoted `"AA BB"`, with digits or `. _ ' -` as in `HOOL.UNVEST`),
/// followed by what tagsh keeps but does not use: a lot price `{$50}`, a
/// lot date `[2024/01/01]`, a lot note `(note)`, a cost `@ $1`, a balance
/// assertion `= $10`. An amount expression `(5 * 2)` is evaluated when its
/// value is exact; one tagsh cannot evaluate is kept verbatim and counts as
/// unknown.
enum PostingAmount {
    /// How a file's numbers are written, beyond what a number says by itself: the decimal mark declared for a
    /// commodity (hledger's `commodity 1.000,00 EUR`, ledger's `commodity EUR` with `format 1.000,00 EUR`, or `D
    /// 1.000,00 EUR`) or for every amount after it (hledger's `decimal-mark ,`). A declaration settles a number
    /// with one mark and three digits after it (`1,000`, `1.000`), which reads as `1000` and `1.000` without one
    /// (ledger's reading; hledger takes either mark as the decimal one). In beancount a comma only groups
    /// thousands (`1,234.56`), as bean-check requires.
    struct Marks: Equatable, Sendable {
        var beancount = false
        var all: Character?
        var byCommodity: [String: Character] = [:]
        /// The commodity of an amount written without one, from ledger's `D $1,000.00`.
        var defaultCommodity: String?

        func decimalMark(for symbol: String?) -> Character? { symbol.flatMap { byCommodity[$0] } ?? all }
        /// Whether no decimal mark is declared, for any commodity.
        var declaresNone: Bool { all == nil && byCommodity.isEmpty }

        /// Notes what a directive line declares (`lines`: it and the indented lines under it): `decimal-mark X`,
        /// `commodity SAMPLE`, `commodity SYMBOL` with `format SAMPLE` under it, or `D SAMPLE`.
        mutating func note(_ lines: [String]) {
            guard let line = lines.first else { return }
            if line.hasPrefix("decimal-mark") {
                let mark = String(line.dropFirst(12)).trimmingCharacters(in: " \t").first
                if mark == "," || mark == "." { all = mark }
                return
            }
            var samples: [Substring] = []
            if line.hasPrefix("commodity ") || line.hasPrefix("commodity\t") {
                samples.append(line.dropFirst(10))
                for sub in lines.dropFirst() {
                    let t = sub.drop { $0 == " " || $0 == "\t" }
                    if t.hasPrefix("format ") || t.hasPrefix("format\t") { samples.append(t.dropFirst(7)) }
                }
            } else if line.hasPrefix("D ") || line.hasPrefix("D\t") {
                samples.append(line.dropFirst(2))
            }
            for sample in samples {
                let text = String(sample.prefix { $0 != ";" }).trimmingCharacters(in: " \t")
                var i = 0
                guard let (_, symbol) = PostingAmount.plain(Array(text), &i), let symbol else { continue }
                if line.first == "D" { defaultCommodity = symbol }
                if let mark = Marks.mark(in: text) { byCommodity[symbol] = mark }
            }
        }

        /// A sample amount's decimal mark: of two kinds of marks, the last; of one kind, that one when it is written
        /// once, the other when more often (`1,000,000 EUR` groups with commas); nil without a mark.
        static func mark(in text: String) -> Character? {
            let digits = text.drop { !$0.isNumber }.prefix { $0.isNumber || $0 == "," || $0 == "." }
            let marks = digits.filter { $0 == "," || $0 == "." }
            guard let last = marks.last else { return nil }
            if Set(marks).count == 2 || marks.count == 1 { return last }
            return last == "," ? "." : ","
        }
    }

    enum Reading: Equatable {
        case amount(Amount, symbol: String?)
        /// Something the peers read (an expression, a value tagsh cannot hold) that tagsh keeps without a value.
        case unknown
        /// Not an amount in any of the forms.
        case invalid
    }

    static func read(_ text: String, marks: Marks = Marks()) -> Reading {
        let chars = Array(text)
        var i = 0
        while i < chars.count && (chars[i] == " " || chars[i] == "\t") { i += 1 }
        guard i < chars.count else { return .invalid }
        if chars[i] == "(" {
            var parser = Expression(chars: chars, i: i, marks: marks)
            guard let value = parser.parseParenthesized() else { return .unknown }
            return value.amount.map { .amount($0, symbol: value.symbol) } ?? .unknown
        }
        guard let (amount, symbol) = plain(chars, &i, marks: marks) else {
            // More digits than tagsh holds exactly: the peers read it, tagsh keeps it without a value.
            return chars[i...].filter(\.isNumber).count > 18 ? .unknown : .invalid
        }
        // What may follow: a lot price, date or note, a cost, a balance assertion.
        if i < chars.count && !"{[(@=".contains(chars[i]) { return .invalid }
        return .amount(amount, symbol: symbol)
    }

    /// Where a posting's cost is written after its quantity, from `from` (where the quantity's text stopped, at `@`,
    /// `{` or `=`) to `end`, and whether it is the price of all the units rather than of one: `@ PRICE` and
    /// `@@ PRICE`, and in beancount a lot's `{COST}` and `{{COST}}` (the first part of `{105.30 EUR, 2024-01-10}`).
    /// Beancount weighs a posting by its lot's cost when it has one, else by its price. A journal's posting is
    /// weighed by its price, as hledger weighs it: a lot price alone (`10 AAPL {$50}`) weighs nothing to either
    /// peer, and beside a price ledger 3.3 takes the lot price where hledger takes the price. Nil when none is written.
    static func cost(_ b: UnsafeBufferPointer<UInt8>, from: Int, to end: Int, beancount: Bool) -> (range: Range<Int>, total: Bool)? {
        func trimmed(_ s: Int, _ e: Int) -> Range<Int> {
            var (s, e) = (s, e)
            while s < e && (b[s] == 0x20 || b[s] == 0x09) { s += 1 }
            while e > s && (b[e - 1] == 0x20 || b[e - 1] == 0x09) { e -= 1 }
            return s..<e
        }
        var lot: (range: Range<Int>, total: Bool)?, price: (range: Range<Int>, total: Bool)?
        var i = from
        scan: while i < end {
            switch b[i] {
            case 0x7B: // `{`
                let total = i + 1 < end && b[i + 1] == 0x7B
                let start = i + (total ? 2 : 1)
                var close = start, stop = -1
                while close < end && b[close] != 0x7D {
                    if b[close] == 0x2C && stop < 0 { stop = close }
                    close += 1
                }
                let r = trimmed(start, stop < 0 ? close : stop)
                if lot == nil && !r.isEmpty { lot = (r, total) }
                i = close + (total ? 2 : 1)
            case 0x5B, 0x28: // ledger's lot date `[2024/01/01]` and note `(first lot)`
                let closer: UInt8 = b[i] == 0x5B ? 0x5D : 0x29
                while i < end && b[i] != closer { i += 1 }
                i += 1
            case 0x40: // `@`
                let total = i + 1 < end && b[i + 1] == 0x40
                var stop = i + (total ? 2 : 1)
                let start = stop
                while stop < end && b[stop] != 0x3D { stop += 1 }
                let r = trimmed(start, stop)
                if !r.isEmpty { price = (r, total) }
                break scan
            case 0x3D: break scan // a balance assertion
            default: i += 1
            }
        }
        return beancount ? (lot ?? price) : price
    }

    /// What a posting of `quantity` at `cost` weighs in its transaction's balance, exactly: `10.00 EUR @ $1.10`
    /// weighs `$11.00`, and a price of all the units (`-10 EUR @@ $11.50`) weighs that price, with the quantity's sign. Nil
    /// when the cost is not an amount tagsh reads, or the weight does not fit one.
    static func weight(of quantity: Amount, cost text: UnsafeBufferPointer<UInt8>, total: Bool, marks: Marks) -> (amount: Amount, symbol: String?)? {
        guard let price = value(text, marks: marks) else { return nil }
        if total {
            let magnitude = price.amount.magnitude
            return (quantity.isNegative ? -magnitude : magnitude, price.symbol)
        }
        // (At the price's own scale where the product's last digits are zeros: 10.00 at 1.10 is 11.00, not 11.0000.)
        guard var product = quantity.multiplied(by: price.amount) else { return nil }
        while product.scale > price.amount.scale && product.units % 10 == 0 { product = Amount(units: product.units / 10, scale: product.scale - 1) }
        return (product, price.symbol)
    }

    /// The amount of `field` as `read` reads it (by `quick` where that reads it so); nil where it is not one whose
    /// value tagsh holds (a cost, an assigned balance: an error in the posting's own amount is reported there).
    static func value(_ field: UnsafeBufferPointer<UInt8>, marks: Marks) -> (amount: Amount, symbol: String?)? {
        if let quick = quick(field, marks: marks) { return quick }
        guard case .amount(let a, let s) = read(String(decoding: field, as: UTF8.self), marks: marks) else { return nil }
        return (a, s)
    }

    /// The amount of `field` (a posting's amount, up to a cost or assertion) read by the bank-style reader, where
    /// that reads it as `read` does: no expression, no quoted commodity, and the decimal mark settled by the number
    /// itself (`number`'s rule) or by the file's marks; nil where it is not (then `read` reads it). Reading each
    /// amount as a `String` of `Character`s made a million-transaction journal with decimal commas open five times
    /// slower than one with points.
    static func quick(_ field: UnsafeBufferPointer<UInt8>, marks: Marks) -> (amount: Amount, symbol: String?)? {
        guard let first = field.first, first != 0x28, first != 0x5B else { return nil }
        // Most amounts have no comma and no mark is declared: the bank-style reader reads them as `read` does
        // (but a space between digits, which beancount has not). (By `memchr`: callgrind, opening 100k-transaction
        // files, +2.0% instructions for the journal and +4.5% for beancount against reading every amount as
        // plain; a loop over the bytes here, +4.3% and +6.3%.)
        let n = field.count
        guard let base = field.baseAddress, memchr(base, 0x22, n) == nil else { return nil }
        var plain = memchr(base, 0x2C, n) == nil && marks.declaresNone
        if plain && marks.beancount {
            var from = 0
            while from < n, let found = memchr(base + from, 0x20, n - from) {
                let k = UnsafeRawPointer(found).assumingMemoryBound(to: UInt8.self) - base
                if k > 0 && k + 1 < n && field[k - 1] &- 0x30 < 10 && field[k + 1] &- 0x30 < 10 { plain = false; break }
                from = k + 1
            }
        }
        if plain { return AmountParser.parse(field, decimalComma: false) }
        // The first run of digits and marks: the number.
        guard var i = field.firstIndex(where: { $0 &- 0x30 < 10 }) else { return nil }
        let numberStart = i
        var commas = 0, points = 0, last: UInt8 = 0, digitsAfter = 0, firstComma = -1, whole = -1, groupsOK = true
        var sinceComma = 0
        while i < field.count {
            let c = field[i]
            // (A space between digits groups them, as `number` reads it; the bank-style reader skips it.)
            if c == 0x20 && !marks.beancount && field[i - 1] &- 0x30 < 10 && i + 1 < field.count && field[i + 1] &- 0x30 < 10 {
                i += 1
                continue
            }
            if c &- 0x30 < 10 {
                digitsAfter += 1
                sinceComma += 1
            } else if c == 0x2C || c == 0x2E {
                if c == 0x2C {
                    if firstComma < 0 { firstComma = digitsAfter } else if sinceComma != 3 { groupsOK = false }
                    if points > 0 { groupsOK = false }
                    commas += 1
                    sinceComma = 0
                } else {
                    if points == 0 { whole = sinceComma }
                    points += 1
                }
                last = c
                digitsAfter = 0
            } else {
                break
            }
            i += 1
        }
        // Beancount has no space in a number: `11 19 USD` is for `read` to refuse (the bank-style reader skips it).
        if i + 1 < field.count && field[i] == 0x20 && field[i + 1] &- 0x30 < 10 { return nil }
        // A zero before one mark and three digits (`0,075`) is `read`'s.
        if commas + points == 1 && digitsAfter == 3 && field[numberStart] == 0x30 && field[numberStart + 1] &- 0x30 >= 10 { return nil }
        if commas + points == 0 || marks.beancount && commas == 0 {
            return AmountParser.parse(field, decimalComma: false)
        }
        if marks.beancount {
            // `1,234,567.89`: the first group one to three digits, the others three, all before the point.
            let lastGroup = points > 0 ? whole : sinceComma
            guard groupsOK, points <= 1, (1...3).contains(firstComma), lastGroup == 3 else { return nil }
            return AmountParser.parse(field, decimalComma: false)
        }
        let decimalComma: Bool
        if commas > 0 && points > 0 {
            decimalComma = last == 0x2C
        } else if commas + points == 1 {
            // One mark and three digits after it: a group comma or a decimal point unless the file declares a mark.
            if digitsAfter == 3 && !marks.declaresNone { return nil }
            decimalComma = commas == 1 && digitsAfter != 3
        } else if points == 0 {
            decimalComma = false // commas only: each groups
        } else {
            return nil // points only, more than one
        }
        // (Two decimal marks, `1,2,3` read with decimal commas, the bank-style reader refuses too: `read` says why.)
        return AmountParser.parse(field, decimalComma: decimalComma)
    }

    /// A number with an optional commodity before or after it, starting at `i`;
    /// `i` ends after it (and its spacing). What follows (`@`, `{`, `=` ...) is the caller's.
    static func plain(_ chars: [Character], _ i: inout Int, marks: Marks = Marks()) -> (Amount, String?)? {
        let start = i
        func spaces() { while i < chars.count && (chars[i] == " " || chars[i] == "\t") { i += 1 } }
        var negative = false
        if i < chars.count && (chars[i] == "-" || chars[i] == "+") { negative = chars[i] == "-"; i += 1; spaces() }
        var symbol: String?
        if i < chars.count, let s = commodity(chars, &i, prefix: true) { symbol = s; spaces() }
        if i < chars.count && (chars[i] == "-" || chars[i] == "+") { if chars[i] == "-" { negative.toggle() }; i += 1 }
        guard let (read, ambiguous) = self.number(chars, &i, beancount: marks.beancount) else { i = start; return nil }
        var number = read
        if symbol == nil {
            let afterNumber = i
            spaces()
            if i < chars.count, let s = commodity(chars, &i, prefix: false) { symbol = s } else { i = afterNumber }
        }
        spaces()
        // One mark and three digits after it: the declared decimal mark says which it is (the same digits, as a
        // whole number or three decimals).
        if let ambiguous, let declared = marks.decimalMark(for: symbol) {
            number = Amount(units: number.units, scale: ambiguous == declared ? 3 : 0)
        }
        return (negative ? -number : number, symbol)
    }

    /// A commodity: a quoted string, or a run of characters that are not spaces or amount punctuation. Before
    /// the number it ends at a digit (`$10`); after it, digits and `. _ ' -` belong to it (`HOOL.UNVEST`, `VAN_2024`).
    static func commodity(_ chars: [Character], _ i: inout Int, prefix: Bool) -> String? {
        if chars[i] == "\"" {
            guard let close = chars[(i + 1)...].firstIndex(of: "\"") else { return nil }
            let s = String(chars[(i + 1)..<close])
            i = close + 1
            return s.isEmpty ? nil : s
        }
        let stop: Set<Character> = [" ", "\t", "@", ";", "=", "(", ")", "{", "}", "[", "]", "\"", "*", "/", ",", "+"]
        let numeric: Set<Character> = ["-", ".", "_", "'"]
        guard !chars[i].isNumber, !stop.contains(chars[i]), !numeric.contains(chars[i]) else { return nil }
        var j = i + 1
        while j < chars.count, !stop.contains(chars[j]) {
            if prefix && (chars[j].isNumber || numeric.contains(chars[j])) { break }
            j += 1
        }
        let s = String(chars[i..<j])
        i = j
        return s
    }

    /// Digits with `,` or `.` marks (the last mark followed by other than three digits, or a second kind, is the
    /// decimal one), and the mark when it is the only one and three digits follow it (`1,000`, `1.000`: a group
    /// mark or a decimal one, as the file declares; without a declaration a comma groups and a point is decimal).
    /// In beancount a comma groups thousands and nothing else, and a point is the decimal mark.
    static func number(_ chars: [Character], _ i: inout Int, beancount: Bool = false) -> (amount: Amount, ambiguous: Character?)? {
        var j = i
        var text: [Character] = []
        while j < chars.count && (chars[j].isASCII && (chars[j].isNumber || chars[j] == "," || chars[j] == ".")) {
            text.append(chars[j])
            j += 1
            // A space between digits groups them (`1 000,00`), as hledger reads it.
            if !beancount && j + 1 < chars.count && chars[j] == " " && chars[j - 1].isNumber && chars[j + 1].isASCII && chars[j + 1].isNumber {
                j += 1
            }
        }
        guard text.first?.isNumber == true || (text.count > 1 && (text[0] == "." || text[0] == ",")) else { return nil }
        // A mark at the end is the decimal mark of a number without decimals (`$100.`, `1,234.`), as ledger and
        // hledger read it; a mark of its kind before it is then a second decimal mark.
        var trailing: Character?
        if let last = text.last, !last.isNumber {
            guard text.count > 1, text[text.count - 2].isNumber else { return nil }
            trailing = text.removeLast()
        }
        let marks = text.enumerated().filter { !$0.element.isNumber }
        if let trailing, marks.contains(where: { $0.element == trailing }) { return nil }
        var decimalAt: Int?
        var ambiguous: Character?
        if trailing != nil {
            // (No decimals: the marks before it group.)
            if beancount && trailing == "," { return nil }
        } else if beancount {
            // `1,234,567.89`: one to three digits, then groups of three, each after a comma, before any point.
            let point = marks.first { $0.element == "." }?.offset
            let commas = marks.filter { $0.element == "," }.map(\.offset)
            if let first = commas.first {
                let whole = point ?? text.count
                guard (1...3).contains(first), commas.last! < whole,
                      zip(commas, commas.dropFirst() + [whole]).allSatisfy({ $1 - $0 == 4 }) else { return nil }
            }
            decimalAt = point
        } else if let last = marks.last {
            let kinds = Set(marks.map(\.element))
            let digitsAfter = text.count - last.offset - 1
            if kinds.count == 2 || marks.count == 1 && (digitsAfter != 3 || last.element == ".") { decimalAt = last.offset }
            if kinds.count == 1 && marks.count > 1 && last.element == "." && digitsAfter != 3 { decimalAt = last.offset }
            if marks.count == 1 && digitsAfter == 3 {
                // `0,075` groups nothing: its comma is a decimal one, as hledger (and ledger's own tests) read it.
                if last.offset == 1 && text[0] == "0" { decimalAt = last.offset } else { ambiguous = last.element }
            }
        }
        var units: Int64 = 0
        var scale: UInt8 = 0
        var digits = 0
        for (n, c) in text.enumerated() {
            if let d = c.wholeNumberValue {
                digits += 1
                if digits > 18 { return nil }
                units = units * 10 + Int64(d)
                if let at = decimalAt, n > at { scale += 1 }
            } else if let at = decimalAt, n != at, marks.contains(where: { $0.offset == n && $0.element == text[at] }) {
                return nil // two decimal marks
            }
        }
        i = j
        return (Amount(units: units, scale: scale), ambiguous)
    }

    /// Ledger's amount expressions: numbers with commodities, `+ - * /` and parentheses.
    struct Expression {
        var chars: [Character]
        var i: Int
        var marks = Marks()
        struct Value { var amount: Amount?; var symbol: String? }

        mutating func spaces() { while i < chars.count && (chars[i] == " " || chars[i] == "\t") { i += 1 } }

        /// Parentheses open now; a hostile file's thousands of them end the reading instead of the stack.
        var depth = 0

        mutating func parseParenthesized() -> Value? {
            guard i < chars.count, chars[i] == "(", depth < 64 else { return nil }
            i += 1
            depth += 1
            defer { depth -= 1 }
            guard let v = sum() else { return nil }
            spaces()
            guard i < chars.count, chars[i] == ")" else { return nil }
            i += 1
            return v
        }

        mutating func sum() -> Value? {
            guard var left = product() else { return nil }
            while true {
                spaces()
                guard i < chars.count, chars[i] == "+" || chars[i] == "-" else { return left }
                let minus = chars[i] == "-"
                i += 1
                guard let right = product() else { return nil }
                left = Value(amount: left.amount.flatMap { a in right.amount.flatMap { a.adding(minus ? -$0 : $0) } },
                             symbol: left.symbol ?? right.symbol)
            }
        }

        mutating func product() -> Value? {
            guard var left = factor() else { return nil }
            while true {
                spaces()
                guard i < chars.count, chars[i] == "*" || chars[i] == "/" else { return left }
                let divide = chars[i] == "/"
                i += 1
                guard let right = factor() else { return nil }
                let value: Amount? = left.amount.flatMap { a in right.amount.flatMap { b in divide ? a.dividedExactly(by: b) : a.multiplied(by: b) } }
                left = Value(amount: value, symbol: left.symbol ?? right.symbol)
            }
        }

        mutating func factor() -> Value? {
            spaces()
            guard i < chars.count else { return nil }
            if chars[i] == "(" { return parseParenthesized() }
            if chars[i] == "-" {
                i += 1
                guard depth < 64 else { return nil }
                depth += 1
                defer { depth -= 1 }
                guard let v = factor() else { return nil }
                return Value(amount: v.amount.map { -$0 }, symbol: v.symbol)
            }
            var j = i
            guard let (amount, symbol) = PostingAmount.plain(chars, &j, marks: marks) else { return nil }
            i = j
            return Value(amount: amount, symbol: symbol)
        }
    }
}

extension Amount {
    /// The product, when it fits.
    public func multiplied(by other: Amount) -> Amount? {
        let (u, overflow) = units.multipliedReportingOverflow(by: other.units)
        let scale = Int(self.scale) + Int(other.scale)
        guard !overflow, scale <= Int(Amount.maxScale) else { return nil }
        return Amount(units: u, scale: UInt8(scale))
    }

    /// The quotient, when it is exact within the largest scale.
    public func dividedExactly(by other: Amount) -> Amount? {
        guard other.units != 0 else { return nil }
        // a/b = (ua / 10^sa) / (ub / 10^sb); try growing scales until the division is exact.
        for extra in 0...Int(Amount.maxScale) {
            let scale = Int(scale) - Int(other.scale) + extra
            guard scale <= Int(Amount.maxScale) else { return nil }
            var numerator = Int128(units)
            for _ in 0..<(extra + max(0, -scale)) {
                let (n, overflow) = numerator.multipliedReportingOverflow(by: 10)
                if overflow { return nil }
                numerator = n
            }
            let denominator = Int128(other.units)
            if numerator % denominator == 0 {
                let q = numerator / denominator
                guard let u = Int64(exactly: q) else { return nil }
                return Amount(units: u, scale: UInt8(max(0, scale)))
            }
        }
        return nil
    }
}
