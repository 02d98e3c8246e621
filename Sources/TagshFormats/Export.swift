import TagshModel

/// Writes a whole ledger afresh in a format, for `export` and other programs.
public enum Export {
    public static func render(_ ledger: Ledger, as format: LedgerFormat) throws(Diagnostic) -> [UInt8] {
        switch format {
        case .csv: return Array(csv(ledger).utf8)
        case .json: return Array(json(ledger).utf8)
        case .journal, .beancount:
            throw Diagnostic("exporting to \(format) is not supported yet; use csv or json")
        }
    }

    /// The header of `csv`: one column per field.
    public static let csvHeader = "Date,Description,Amount,Currency,Account,Category,Tags,Notes,Intent"

    /// A CSV with one column per field, annotations included, tags joined by `;`.
    public static func csv(_ ledger: Ledger) -> String {
        var out = csvHeader + "\n"
        out.reserveCapacity(ledger.count * 80)
        for row in 0..<ledger.count {
            out += csvLine(ledger.transaction(row))
            out += "\n"
        }
        return out
    }

    /// One transaction as a line of `csv` (no line break).
    public static func csvLine(_ t: Transaction) -> String {
        let fields = [
            t.day.description, t.merchant, t.amount.description, t.currency, t.account, t.category ?? "",
            t.tags.joined(separator: ";"), t.note ?? "", t.intent?.description ?? "",
        ]
        return fields.map { csvField($0) }.joined(separator: ",")
    }

    /// Quotes a CSV field when it holds a delimiter, a quote, a line break or edge spaces.
    public static func csvField(_ s: String, delimiter: Character = ",") -> String {
        let needs = s.contains { $0 == delimiter || $0 == "\"" || $0 == "\n" || $0 == "\r" || $0 == ";" && delimiter == ";" }
            || s.first == " " || s.last == " "
        guard needs else { return s }
        return "\"" + s.split(separator: "\"", omittingEmptySubsequences: false).joined(separator: "\"\"") + "\""
    }

    /// The whole model as JSON: transactions (amounts as exact decimal
    /// strings), categories and tags with their counts.
    public static func json(_ ledger: Ledger) -> String {
        var out = "{\n  \"transactions\": ["
        out.reserveCapacity(ledger.count * 200)
        for row in 0..<ledger.count {
            out += row == 0 ? "\n    " : ",\n    "
            out += json(ledger.transaction(row))
        }
        out += "\n  ],\n  \"categories\": ["
        for (i, id) in ledger.categories.liveIDs.enumerated() {
            let c = ledger.categories[id]
            out += i == 0 ? "\n    " : ",\n    "
            out += "{\"name\": \(jsonString(c.name)), \"default\": \(c.isDefault), "
            out += "\"color\": \(c.color.map { jsonString($0.description) } ?? "null"), "
            out += "\"icon\": \(c.icon.map { jsonString(String($0)) } ?? "null")}"
        }
        out += "\n  ],\n  \"tags\": [\(ledger.usedTagIDs().map { jsonString(ledger.tags[$0]) }.joined(separator: ", "))]\n}\n"
        return out
    }

    /// One transaction as a one-line JSON object.
    public static func json(_ t: Transaction) -> String {
        "{\"id\": \(t.id), \"date\": \"\(t.day)\", \"merchant\": \(jsonString(t.merchant)), "
            + "\"amount\": \"\(t.amount)\", \"currency\": \(jsonString(t.currency)), "
            + "\"account\": \(jsonString(t.account)), "
            + "\"intent\": \(t.intent.map { jsonString($0.description) } ?? "null"), "
            + "\"category\": \(t.category.map { jsonString($0) } ?? "null"), "
            + "\"tags\": [\(t.tags.map { jsonString($0) }.joined(separator: ", "))], "
            + "\"note\": \(t.note.map { jsonString($0) } ?? "null")}"
    }

    /// A JSON string literal.
    public static func jsonString(_ s: String) -> String {
        var out = "\""
        for u in s.unicodeScalars {
            switch u {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if u.value < 0x20 || u.value == 0x7F {
                    let hex = String(u.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(u)
                }
            }
        }
        return out + "\""
    }
}
