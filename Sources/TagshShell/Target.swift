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
///
/// Written as bytes: a `String` a range, joined, was half of `intent @ want` over the 900,000 rows `select
/// amt:<-5` leaves of a million (the recovery journal and scripts get the ids, so they replay without the
/// selection).
func idRanges(_ rows: [Int]) -> String {
    guard var start = rows.first else { return "none" }
    var out: [UInt8] = []
    var last = start
    for r in rows.dropFirst() {
        if r == last + 1 { last = r; continue }
        appendRange(start, last, to: &out)
        start = r
        last = r
    }
    appendRange(start, last, to: &out)
    return String(decoding: out, as: UTF8.self)
}

/// `,` (but first), then the ids of rows `start...last`: `7` or `9-12`.
private func appendRange(_ start: Int, _ last: Int, to out: inout [UInt8]) {
    if !out.isEmpty { out.append(0x2C) }
    appendDecimal(start + 1, to: &out)
    if last != start {
        out.append(0x2D)
        appendDecimal(last + 1, to: &out)
    }
}

/// The decimal digits of `n` (a minus first), written from the last into a buffer on the stack, then appended at
/// once.
private func appendDecimal(_ n: Int, to out: inout [UInt8]) {
    var buffer: (UInt64, UInt64, UInt64) = (0, 0, 0) // 24 bytes: an Int's 19 digits and a sign
    withUnsafeMutableBytes(of: &buffer) { raw in
        let d = raw.bindMemory(to: UInt8.self)
        var v = n.magnitude, i = d.count
        repeat { i -= 1; d[i] = 0x30 + UInt8(truncatingIfNeeded: v % 10); v /= 10 } while v > 0
        if n < 0 { i -= 1; d[i] = 0x2D }
        out.append(contentsOf: UnsafeBufferPointer(rebasing: d[i...]))
    }
}

/// "3 transactions", "1 transaction".
func plural(_ n: Int, _ word: String) -> String { "\(n) \(word)\(n == 1 ? "" : "s")" }
