import TagshModel

/// How ledger values look in listings. Every string from the ledger passes
/// through `TextSafety.sanitize` here before it reaches the terminal.
struct Render {
    let ledger: Ledger
    let style: Style

    /// `-1,234.56 EUR`, or `-$5.00` for a symbol currency.
    static func amount(_ a: Amount, currency: String) -> String {
        let number = a.formatted(grouping: true)
        if currency.isEmpty { return number }
        if currency.count <= 2, !currency.contains(where: { $0.isLetter }) {
            return a.isNegative ? "-" + currency + String(number.dropFirst()) : currency + number
        }
        return number + " " + TextSafety.sanitize(currency)
    }

    func amount(_ row: Int) -> String {
        Render.amount(ledger.amount(row), currency: ledger.currencies[ledger.currency[row]])
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

    func tags(_ row: Int) -> (plain: String, styled: String) {
        let names = ledger.tagNames(row)
        return (names.map(TextSafety.sanitize).joined(separator: " "), names.map(tagChip).joined(separator: " "))
    }
}
