import TagshModel
import TagshQuery

/// The TARGET syntax, shared by annotating commands and completion: an id
/// (`412`), a list with ranges (`412,415,420-430`), `@` (the selection), `all`,
/// or `{QUERY}`: every transaction the query matches (the braces are one word).
enum TargetSyntax {
    enum Problem: Error, Equatable {
        case noSelection
        case emptySelection
        case malformed
        case outOfRange(Int)
    }

    /// The rows (0-based) a TARGET names, sorted, without repeats.
    static func rows(_ text: String, count: Int, selection: [Int]?) -> Result<[Int], Problem> {
        switch text.lowercased() {
        case "all": return .success(Array(0..<count))
        case "@":
            guard let selection else { return .failure(.noSelection) }
            return selection.isEmpty ? .failure(.emptySelection) : .success(selection)
        default:
            // The ranges in order, overlaps merged: `1-100000` is a hundred thousand rows, not a set to sort.
            var ranges: [ClosedRange<Int>] = []
            for part in text.split(separator: ",", omittingEmptySubsequences: false) {
                let bounds = part.split(separator: "-", omittingEmptySubsequences: false)
                guard (1...2).contains(bounds.count), let lo = Int(bounds[0]), let hi = Int(bounds[bounds.count - 1]), lo <= hi else {
                    return .failure(.malformed)
                }
                guard lo >= 1, hi <= count else { return .failure(.outOfRange(lo < 1 ? lo : hi)) }
                ranges.append((lo - 1)...(hi - 1))
            }
            var rows: [Int] = []
            for r in ranges.sorted(by: { $0.lowerBound < $1.lowerBound }) {
                let from = max(r.lowerBound, (rows.last ?? -1) + 1)
                if from <= r.upperBound { rows += from...r.upperBound }
            }
            return .success(rows)
        }
    }
}

extension Invocation {
    /// The rows a TARGET word names (see `TargetSyntax`), or an error pointing at the word.
    mutating func target(_ w: Word, in ledger: Ledger) throws(ShellError) -> [Int] {
        if w.text.hasPrefix("{") && w.text.hasSuffix("}") && w.text.count >= 2 && !w.isQuoted {
            // `{QUERY}`: every transaction the query matches.
            let inner = String(w.text.dropFirst().dropLast())
            let words: [Word]
            do throws(Lexer.Problem) { words = try Lexer.words(in: inner) } catch { throw .usage("\(w.text) is not a query", span: w.span) }
            guard !words.isEmpty else { throw .usage("{} holds no query: write {QUERY}, e.g. {uber eats} or {tag:none amt:<0}", span: w.span) }
            let query: Query
            do throws(ShellError) { query = try self.query(words) } catch {
                // The error points into the braces: shift its caret by where the query starts in the line.
                throw error.shifted(by: w.span.lowerBound + 1)
            }
            let rows = self.rows(matching: query, in: ledger).rows
            guard !rows.isEmpty else { throw .usage("\(w.text) matches no transaction", span: w.span) }
            // The recovery journal replays the ids the query matched then.
            replayLine = Self.replacing(w.span, in: line, with: idRanges(rows))
            return rows
        }
        switch TargetSyntax.rows(w.text, count: ledger.count, selection: session.selection) {
        case .success(let rows):
            if w.text == "@" {
                // Scripts and the recovery journal get the ids, so they replay without the selection.
                replayLine = Self.replacing(w.span, in: line, with: idRanges(rows))
                if let limited = session.selectionLimited {
                    let rest = Array(line)[w.span.upperBound...]
                    afterNote = "@ is what the last listing showed: \(limited.shown) of the \(limited.total) transactions its query matches; "
                        + "`\(nameWord.text) {\(limited.query)}\(String(rest))` would take all \(limited.total)"
                }
            }
            return rows
        case .failure(.noSelection):
            throw .usage("there is no selection yet: `ls` or `select` sets @", span: w.span)
        case .failure(.emptySelection):
            throw .usage("the selection @ is empty: the last ls or select matched nothing", span: w.span)
        case .failure(.malformed):
            throw .usage("'\(w.text)' is not a target: use an id (412), a list and ranges (412,415,420-430), @, all or {QUERY}", span: w.span)
        case .failure(.outOfRange(let bad)):
            throw .usage("no transaction \(bad): ids run from 1 to \(ledger.count)", span: w.span)
        }
    }
}

extension Invocation {
    static func replacing(_ span: Range<Int>, in line: String, with text: String) -> String {
        let chars = Array(line)
        return String(chars[..<span.lowerBound]) + text + String(chars[span.upperBound...])
    }
}

/// Rows as a TARGET: `1-3,7,9-12` (ids, 1-based); `1-0` is never produced.
func idRanges(_ rows: [Int]) -> String {
    guard !rows.isEmpty else { return "none" }
    var parts: [String] = []
    var start = rows[0], last = rows[0]
    for r in rows.dropFirst() {
        if r == last + 1 { last = r; continue }
        parts.append(start == last ? "\(start + 1)" : "\(start + 1)-\(last + 1)")
        start = r
        last = r
    }
    parts.append(start == last ? "\(start + 1)" : "\(start + 1)-\(last + 1)")
    return parts.joined(separator: ",")
}

/// "3 transactions", "1 transaction".
func plural(_ n: Int, _ word: String) -> String { "\(n) \(word)\(n == 1 ? "" : "s")" }
