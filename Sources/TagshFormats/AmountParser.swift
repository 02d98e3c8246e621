import TagshModel

/// Reads amounts as banks write them: `-1,234.56`, `(12.00)`, `$5`,
/// `1.234,56` (with a decimal comma), `12.00-`, `EUR 5`, `5 €`.
public enum AmountParser {
    /// The amount and the currency symbol or code written beside it, if any.
    public static func parse(_ b: UnsafeBufferPointer<UInt8>, decimalComma: Bool) -> (amount: Amount, symbol: String?)? {
        if let plain = plain(b, decimalComma: decimalComma) { return (plain, nil) }
        if let signed = symbolThenPlain(b, decimalComma: decimalComma) { return signed }
        if let coded = plainThenCode(b, decimalComma: decimalComma) { return coded }
        return parseWhole(b, decimalComma: decimalComma)
    }

    /// `5228.00 USD`, `-4.75 EUR`: a plain amount (`plain`), one space, then a code of capital letters other than
    /// `CR`, `DR` and `DB` (which `parseWhole` reads as a direction); nil for anything else, which `parse` then reads
    /// whole. Journals and beancount files write most amounts so, and read whole they were a twelfth of the open of
    /// a million-transaction beancount file.
    @inline(__always)
    static func plainThenCode(_ b: UnsafeBufferPointer<UInt8>, decimalComma: Bool) -> (amount: Amount, symbol: String?)? {
        let n = b.count
        guard n >= 3, b[n - 1] &- 0x41 < 26 else { return nil }
        var k = n - 1
        while k > 0 && b[k - 1] &- 0x41 < 26 { k -= 1 }
        guard k >= 2, b[k - 1] == 0x20 else { return nil }
        if n - k == 2 && (b[k] == 0x43 && b[k + 1] == 0x52 || b[k] == 0x44 && (b[k + 1] == 0x52 || b[k + 1] == 0x42)) { return nil }
        guard let amount = plain(UnsafeBufferPointer(rebasing: b[..<(k - 1)]), decimalComma: decimalComma) else { return nil }
        return (amount, String(decoding: UnsafeBufferPointer(rebasing: b[k...]), as: UTF8.self))
    }

    /// `$5`, `£1,234.56`, `-€3.00`: a minus or not, then `$`, `£` or `€`, then a plain amount that starts with a digit
    /// (`plain`); nil for anything else, which `parse` then reads whole. Exports that write every amount so (UK
    /// banks with `£`, US ones with `$`) read the whole way spent a twelfth of their open there.
    @inline(__always)
    static func symbolThenPlain(_ b: UnsafeBufferPointer<UInt8>, decimalComma: Bool) -> (amount: Amount, symbol: String?)? {
        let n = b.count
        let negative = n > 0 && b[0] == 0x2D
        let i = negative ? 1 : 0
        let symbol: String, length: Int
        if i < n && b[i] == 0x24 {
            (symbol, length) = ("$", 1)
        } else if i + 1 < n && b[i] == 0xC2 && b[i + 1] == 0xA3 {
            (symbol, length) = ("£", 2)
        } else if i + 2 < n && b[i] == 0xE2 && b[i + 1] == 0x82 && b[i + 2] == 0xAC {
            (symbol, length) = ("€", 3)
        } else {
            return nil
        }
        let rest = UnsafeBufferPointer(rebasing: b[(i + length)...])
        guard let first = rest.first, first &- 0x30 < 10, let amount = plain(rest, decimalComma: decimalComma) else { return nil }
        return (negative ? -amount : amount, symbol)
    }

    /// `parse` without the shortcut for plain amounts (the tests compare the two).
    static func parseWhole(_ b: UnsafeBufferPointer<UInt8>, decimalComma: Bool) -> (amount: Amount, symbol: String?)? {
        var s = 0, e = b.count
        func isSpace(_ i: Int) -> Bool { b[i] == 0x20 || b[i] == 0x09 }
        while s < e && isSpace(s) { s += 1 }
        while e > s && isSpace(e - 1) { e -= 1 }
        guard s < e else { return nil }
        var negative = false
        if b[s] == 0x28 && b[e - 1] == 0x29 { negative = true; s += 1; e -= 1 } // (12.00)
        let decimalMark: UInt8 = decimalComma ? 0x2C : 0x2E
        let groupMark: UInt8 = decimalComma ? 0x2E : 0x2C

        var units: Int64 = 0
        var scale: UInt8 = 0
        var digits = 0
        var seenDecimal = false
        var seenSign = false
        var symbolStart = -1, symbolEnd = -1
        var numberStarted = false, numberEnded = false
        var i = s
        while i < e {
            let c = b[i]
            if c >= 0x30 && c <= 0x39 {
                if numberEnded { return nil }
                numberStarted = true
                digits += 1
                if digits > 18 { return nil }
                units = units * 10 + Int64(c - 0x30)
                if seenDecimal { scale += 1 }
            } else if c == 0x2E && !numberStarted && symbolStart >= 0 && symbolEnd == i {
                // A dot inside a currency symbol written before the number (`د.ا. 4.750`).
                symbolEnd = i + 1
            } else if c == decimalMark && numberStarted && !numberEnded {
                if seenDecimal { return nil }
                seenDecimal = true
            } else if (c == groupMark || c == 0x27) && numberStarted && !seenDecimal && !numberEnded {
                // Grouping: 1,234 or 1'234; must be followed by a digit.
                guard i + 1 < e, b[i + 1] >= 0x30 && b[i + 1] <= 0x39 else { return nil }
            } else if (c == 0x2D || c == 0x2B) && !seenSign && (!numberStarted || i == e - 1) {
                seenSign = true
                if c == 0x2D { negative.toggle() }
            } else if c == 0x20 || (c == 0xC2 && i + 1 < e && b[i + 1] == 0xA0) {
                // A space, or a no-break space, between symbol and number, or grouping digits.
                if c == 0xC2 { i += 1 }
                if numberStarted && i + 1 < e && b[i + 1] >= 0x30 && b[i + 1] <= 0x39 && !seenDecimal {
                    // "1 234,56": grouping.
                } else if numberStarted {
                    numberEnded = true
                }
            } else {
                // A currency symbol or code, before or after the number, in one run.
                guard c >= 0x80 || (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A) || c == 0x24 else { return nil }
                if numberStarted { numberEnded = true }
                if symbolStart < 0 {
                    symbolStart = i
                    symbolEnd = i + 1
                } else if symbolEnd == i {
                    symbolEnd = i + 1
                } else {
                    return nil
                }
            }
            i += 1
        }
        guard digits > 0 else { return nil }
        if seenDecimal && scale == 0 { return nil }
        var symbol: String?
        if symbolStart >= 0 {
            // `12.00 CR`, `12.00 DR`: a direction, not a currency (compared as bytes: this runs for every amount).
            let isTwoLetters = symbolEnd - symbolStart == 2
            let first = b[symbolStart] | 0x20, second = b[symbolStart + (isTwoLetters ? 1 : 0)] | 0x20
            if isTwoLetters && first == 0x63 && second == 0x72 { // cr
            } else if isTwoLetters && first == 0x64 && (second == 0x72 || second == 0x62) { // dr, db
                negative.toggle()
            } else {
                symbol = String(decoding: UnsafeBufferPointer(rebasing: b[symbolStart..<symbolEnd]), as: UTF8.self)
            }
        }
        return (Amount(units: negative ? -units : units, scale: scale), symbol)
    }

    /// What a direction column's word says: -1 money out, +1 money in, nil when it is not a direction.
    public static func direction(_ word: String) -> Int? {
        switch word.trimmingSpaces().lowercased() {
        case "af", "debit", "d", "dr", "db", "s", "soll", "-", "withdrawal", "out", "debet", "uit", "débit", "cargo", "debe",
             "dare", "débito", "obciążenie", "výdaj", "uttag", "dbit": return -1
        case "bij", "credit", "c", "cr", "h", "haben", "+", "k", "kredit", "kredīts", "kredyt", "deposit", "in", "crédit", "abono", "haber", "avere", "crédito",
             "uznanie", "příjem", "insättning": return 1
        default: return nil
        }
    }

    /// An amount written plainly, `-1,234.56` (`-1.234,56` with a decimal comma): an optional minus, digits with
    /// grouping marks, and at most one decimal mark with digits after it, nothing else; nil for anything else, which `parse` then
    /// reads whole. Most bank exports write every amount so, and this reads it in one pass of few tests.
    @inline(__always)
    static func plain(_ b: UnsafeBufferPointer<UInt8>, decimalComma: Bool) -> Amount? {
        let n = b.count
        // At most 18 digits, as `parse` allows; and it ends with a digit (`4.75 USD` is told at once).
        guard n > 0, n <= 18, b[n - 1] &- 0x30 < 10 else { return nil }
        let mark: UInt8 = decimalComma ? 0x2C : 0x2E, group: UInt8 = decimalComma ? 0x2E : 0x2C
        var i = b[0] == 0x2D ? 1 : 0
        var units: Int64 = 0, scale: UInt8 = 0, digits = 0, seenMark = false
        while i < n {
            let c = b[i]
            if c &- 0x30 < 10 {
                units = units * 10 + Int64(c &- 0x30)
                digits += 1
                if seenMark { scale += 1 }
            } else if c == mark && digits > 0 && !seenMark {
                seenMark = true
            } else if c == group && digits > 0 && !seenMark && b[i + 1] &- 0x30 < 10 {
                // Grouping (`1.234,56`), followed by a digit as `parse` requires (the text ends in one).
            } else {
                return nil
            }
            i += 1
        }
        guard digits > 0, !seenMark || scale > 0 else { return nil }
        return Amount(units: b[0] == 0x2D ? -units : units, scale: scale)
    }

    public static func parse(_ text: String, decimalComma: Bool) -> (amount: Amount, symbol: String?)? {
        var copy = text
        return copy.withUTF8 { parse($0, decimalComma: decimalComma) }
    }
}
