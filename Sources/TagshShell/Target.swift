import TagshModel
import TagshQuery

extension Invocation {
    /// The rows a TARGET word names: an id (`412`), a list with ranges
    /// (`412,415,420-430`), `@` (the selection) or `all`. Sorted, without repeats.
    func target(_ w: Word, in ledger: Ledger) throws(ShellError) -> [Int] {
        let text = w.text.lowercased()
        if text == "all" { return Array(0..<ledger.count) }
        if text == "@" {
            guard let selection = session.selection else {
                throw .usage("there is no selection yet: `ls` or `select` sets @", span: w.span)
            }
            return selection
        }
        var rows = Set<Int>()
        for part in text.split(separator: ",", omittingEmptySubsequences: false) {
            let bounds = part.split(separator: "-", omittingEmptySubsequences: false)
            guard (1...2).contains(bounds.count), let lo = Int(bounds[0]), let hi = Int(bounds[bounds.count - 1]), lo <= hi else {
                throw .usage("'\(w.text)' is not a target: use an id (412), a list and ranges (412,415,420-430), @ or all", span: w.span)
            }
            guard lo >= 1, hi <= ledger.count else {
                let bad = lo < 1 ? lo : hi
                throw .usage("no transaction \(bad): ids run from 1 to \(ledger.count)", span: w.span)
            }
            for id in lo...hi { rows.insert(id - 1) }
        }
        return rows.sorted()
    }
}

/// "3 transactions", "1 transaction".
func plural(_ n: Int, _ word: String) -> String { "\(n) \(word)\(n == 1 ? "" : "s")" }
