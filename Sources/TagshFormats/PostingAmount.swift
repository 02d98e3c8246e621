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
    enum Reading: Equatable {
        case amount(Amount, symbol: String?)
        /// Something the peers read (an expression, a value tagsh cannot hold) that tagsh keeps without a value.
        case unknown
        /// Not an amount in any of the forms.
        case invalid
    }

    static func read(_ text: String) -> Reading {
        let chars = Array(text)
        var i = 0
        while i < chars.count && (chars[i] == " " || chars[i] == "\t") { i += 1 }
        guard i < chars.count else { return .invalid }
        if chars[i] == "(" {
            var parser = Expression(chars: chars, i: i)
            guard let value = parser.parseParenthesized() else { return .unknown }
            return value.amount.map { .amount($0, symbol: value.symbol) } ?? .unknown
        }
        guard let (amount, symbol) = plain(chars, &i) else {
            // More digits than tagsh holds exactly: the peers read it, tagsh keeps it without a value.
            return chars[i...].filter(\.isNumber).count > 18 ? .unknown : .invalid
        }
        // What may follow: a lot price, date or note, a cost, a balance assertion.
        if i < chars.count && !"{[(@=".contains(chars[i]) { return .invalid }
        return .amount(amount, symbol: symbol)
    }

    /// A number with an optional commodity before or after it, starting at `i`;
    /// `i` ends after it (and its spacing). What follows (`@`, `{`, `=` ...) is the caller's.
    static func plain(_ chars: [Character], _ i: inout Int) -> (Amount, String?)? {
        let start = i
        func spaces() { while i < chars.count && (chars[i] == " " || chars[i] == "\t") { i += 1 } }
        var negative = false
        if i < chars.count && (chars[i] == "-" || chars[i] == "+") { negative = chars[i] == "-"; i += 1; spaces() }
        var symbol: String?
        if i < chars.count, let s = commodity(chars, &i, prefix: true) { symbol = s; spaces() }
        if i < chars.count && (chars[i] == "-" || chars[i] == "+") { if chars[i] == "-" { negative.toggle() }; i += 1 }
        guard let number = self.number(chars, &i) else { i = start; return nil }
        if symbol == nil {
            let afterNumber = i
            spaces()
            if i < chars.count, let s = commodity(chars, &i, prefix: false) { symbol = s } else { i = afterNumber }
        }
        spaces()
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

    /// Digits with `,` or `.` marks (the last mark followed by other than three digits, or a second kind, is the decimal one).
    static func number(_ chars: [Character], _ i: inout Int) -> Amount? {
        var j = i
        var text: [Character] = []
        while j < chars.count && (chars[j].isASCII && (chars[j].isNumber || chars[j] == "," || chars[j] == ".")) {
            text.append(chars[j])
            j += 1
        }
        guard text.first?.isNumber == true || (text.count > 1 && (text[0] == "." || text[0] == ",")) else { return nil }
        guard text.last?.isNumber == true else { return nil } // `10.` or `1,`
        let marks = text.enumerated().filter { !$0.element.isNumber }
        var decimalAt: Int?
        if let last = marks.last {
            let kinds = Set(marks.map(\.element))
            let digitsAfter = text.count - last.offset - 1
            if kinds.count == 2 || marks.count == 1 && (digitsAfter != 3 || last.element == ".") { decimalAt = last.offset }
            if kinds.count == 1 && marks.count > 1 && last.element == "." && digitsAfter != 3 { decimalAt = last.offset }
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
        return Amount(units: units, scale: scale)
    }

    /// Ledger's amount expressions: numbers with commodities, `+ - * /` and parentheses.
    struct Expression {
        var chars: [Character]
        var i: Int
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
            guard let (amount, symbol) = PostingAmount.plain(chars, &j) else { return nil }
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
