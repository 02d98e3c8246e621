import TagshFormats
import TagshModel

/// How ledger values look in listings. Every string from the ledger passes
/// through `TextSafety.sanitize` here before it reaches the terminal.
struct Render {
    let ledger: Ledger
    let style: Style
    /// Display decimals by currency id: the most any amount in that currency
    /// has, so a column of amounts lines up (as hledger does).
    let scales: [UInt8]

    init(ledger: Ledger, style: Style) {
        self.ledger = ledger
        self.style = style
        scales = Render.displayScales(ledger)
    }

    static func displayScales(_ ledger: Ledger) -> [UInt8] {
        var scales = [UInt8](repeating: 0, count: ledger.currencies.count + 1)
        ledger.currency.withUnsafeBufferPointer { cur in
            ledger.amountScale.withUnsafeBufferPointer { sc in
                for i in 0..<cur.count where sc[i] > scales[Int(cur[i])] { scales[Int(cur[i])] = sc[i] }
            }
        }
        return scales
    }

    /// `-1,234.56 EUR`, or `-$5.00` for a symbol currency.
    static func amount(_ a: Amount, currency: String, minimumScale: UInt8 = 0) -> String {
        withCurrency(a.formatted(grouping: true, minimumScale: minimumScale), negative: a.isNegative, currency)
    }

    /// A total as `amount` writes an amount (`overflow` for a sum past 128 bits, with its currency).
    static func amount(_ t: Total, currency: String, minimumScale: UInt8 = 0) -> String {
        withCurrency(t.formatted(grouping: true, minimumScale: minimumScale), negative: t.isNegative && !t.overflowed, currency)
    }

    private static func withCurrency(_ number: String, negative: Bool, _ currency: String) -> String {
        if currency.isEmpty { return number }
        if currency.count <= 2, !currency.contains(where: { $0.isLetter }) {
            return negative ? "-" + currency + String(number.dropFirst()) : currency + number
        }
        return number + " " + TextSafety.sanitize(currency)
    }

    func amount(_ row: Int) -> String {
        let c = ledger.currency[row]
        return Render.amount(ledger.amount(row), currency: ledger.currencies[c], minimumScale: scales[Int(c)])
    }

    func amount(_ a: Amount, currency c: UInt32) -> String {
        Render.amount(a, currency: ledger.currencies[c], minimumScale: scales[Int(c)])
    }

    /// A field of `--csv` output: quoted as CSV needs, with control characters
    /// neutralised as in tables (the output goes to a terminal; `--json` keeps them exactly).
    static func csvField(_ s: String) -> String { Export.csvField(TextSafety.sanitize(s)) }

    /// A transaction as a line of `ls --csv`: `export`'s columns, control characters neutralised.
    static func csvLine(_ t: Transaction) -> String {
        var t = t
        t.merchant = TextSafety.sanitize(t.merchant)
        t.account = TextSafety.sanitize(t.account)
        t.currency = TextSafety.sanitize(t.currency)
        t.category = t.category.map(TextSafety.sanitize)
        t.tags = t.tags.map(TextSafety.sanitize)
        t.note = t.note.map(TextSafety.sanitize)
        return Export.csvLine(t)
    }

    func merchant(_ row: Int) -> String { TextSafety.sanitize(ledger.merchants[ledger.merchant[row]]) }

    func intentMark(_ row: Int) -> (plain: String, styled: String) {
        guard let i = ledger.intentValue(row) else { return ("", "") }
        return (String(i.mark), style.paint(String(i.mark), i.color))
    }

    func category(_ id: UInt32) -> (plain: String, styled: String) {
        guard id != 0 else { return ("", "") }
        let c = ledger.categories[id]
        let text = (c.icon.map { String($0) + " " } ?? "") + TextSafety.sanitize(c.name)
        return (text, style.paint(text, c.color))
    }

    func tagChip(_ name: String) -> String {
        style.paint256(TextSafety.sanitize(name), TagName.palette[TagName.paletteIndex(for: name)])
    }

    /// A transaction's tags, space-separated, as plain text (a table paints each once it is cut to width).
    func tags(_ row: Int) -> String {
        ledger.tagNames(row).map(TextSafety.sanitize).joined(separator: " ")
    }
}
