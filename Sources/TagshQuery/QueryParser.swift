import TagshModel

/// Why a query could not be parsed, with the character span of the offending
/// text in the command line.
public struct QueryError: Error, Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        case unknownKey(String)
        case emptyValue(key: String)
        /// The pattern, and what the engine says is wrong with it (nil: a control character).
        case badRegex(String, reason: String?)
        case unclosedRegex(String)
        case badAmount(String)
        case badDate(String)
        case badID(String)
        case badIntent(String)
        case badStatus(String)
        case badColumn(String)
        case unmatchedOpen
        case unmatchedClose
        case tooDeep
        case missingOperand(after: String)
    }
    public var kind: Kind
    public var span: Range<Int>

    public var message: String {
        switch kind {
        case .unknownKey(let k):
            "unknown query key '\(k):' (keys: \(QueryParser.keys.map { $0 + ":" }.joined(separator: " ")))"
        case .emptyValue(let k): "'\(k):' needs a value"
        case .badRegex(let r, let reason): QueryParser.badRegexMessage(r, reason: reason ?? "it holds a control character")
        case .unclosedRegex(let r): "regular expression \(r) has no closing /"
        case .badAmount(let a): "bad amount '\(a)': use amt:N, amt:<N, amt:<=N, amt:>N, amt:>=N or amt:A..B"
        case .badDate(let d):
            "bad date '\(d)': use YYYY, YYYY-MM, YYYY-MM-DD, 2024q1, a named period (today, thismonth, lastyear, 'last 30 days', ...) or a range A..B, ..B, A.."
        case .badID(let i): "bad id '\(i)': use id:N, id:A..B or a list, id:3,5,10-12"
        case .badIntent(let i): "unknown intent '\(i)': use need, want, culture, unexpected or none"
        case .badStatus(let v): "unknown status '\(v)': use status:pending or status:booked"
        case .badColumn(let v): "bad column test '\(v)': use col:NAME=VALUE, col:NAME:TEXT or col:NAME:/REGEX/"
        case .unmatchedOpen: "'(' is never closed"
        case .tooDeep: "the query nests too deeply (more than \(QueryParser.maxDepth) levels of not, - or parentheses)"
        case .unmatchedClose: "')' without a matching '('"
        case .missingOperand(let op): "'\(op)' needs a term after it"
        }
    }
}

/// Parses the query language of SPEC §3 from the words of a command line.
///
/// A pure function of its input: `or`, `not`, parentheses and `-TERM`; terms
/// ANDed by juxtaposition; `not` binds tighter than AND, which binds tighter
/// than `or`.
public enum QueryParser {
    /// The term keys, in the order completion offers them.
    public static let keys = ["desc", "payee", "merchant", "tag", "cat", "intent", "amt", "date", "note", "acct", "id", "status", "col", "file"]

    /// `today` anchors relative periods (`date:lastmonth`); it is an argument so that a query's meaning is a pure function.
    public static func parse(_ words: [Word], today: Day = .today) throws(QueryError) -> Query {
        var tokens: [Token] = []
        for w in joiningRegexes(words) { tokens.append(contentsOf: split(w)) }
        if tokens.isEmpty { return .all }
        var p = Parser(tokens: tokens, today: today)
        let q = try p.parseOr()
        if p.pos < tokens.count {
            // Only a stray ')' can stop the top-level parse early.
            throw QueryError(kind: .unmatchedClose, span: tokens[p.pos].span)
        }
        return q
    }

    /// Joins the words of a regular expression typed with spaces (`desc:/blue bottle/`) into one word,
    /// keeping the spacing between them; a regex never closed is left for the parser to report.
    static func joiningRegexes(_ words: [Word]) -> [Word] {
        var out: [Word] = []
        var i = 0
        while i < words.count {
            let w = words[i]
            if let open = w.text.firstRange(of: ":/"), !(w.text[open.upperBound...].hasSuffix("/") && w.text.count > w.text.distance(from: w.text.startIndex, to: open.upperBound)),
               let close = words[(i + 1)...].firstIndex(where: { $0.text.hasSuffix("/") }) {
                var text = w.text, raw = w.raw
                for j in (i + 1)...close {
                    let gap = String(repeating: " ", count: max(1, words[j].span.lowerBound - words[j - 1].span.upperBound))
                    text += gap + words[j].text
                    raw += gap + words[j].raw
                }
                out.append(Word(text: text, raw: raw, span: w.span.lowerBound..<words[close].span.upperBound))
                i = close + 1
                continue
            }
            out.append(w)
            i += 1
        }
        return out
    }

    /// How deeply `not`, `-` and parentheses may nest.
    public static let maxDepth = 200

    /// Parses one term (`tag:coffee`, `-amt:>5`, `starbucks`).
    public static func parseTerm(_ text: String, span: Range<Int>, today: Day = .today) throws(QueryError) -> Query {
        // Leading `-` signs, folded without recursion: an even number cancels out.
        var rest = Substring(text)
        var negations = 0
        while rest.first == "-", rest.dropFirst().first != nil { rest = rest.dropFirst(); negations += 1 }
        if negations > 0 {
            let inner = try parseTerm(String(rest), span: (span.lowerBound + negations)..<span.upperBound, today: today)
            return negations % 2 == 1 ? .not(inner) : inner
        }
        if text == "@" { return .term(.selection) }
        // `all` is a target word; as a query it means every transaction, not merchants containing "all".
        if text.lowercased() == "all" { return .all }
        // Text before the first colon that cannot be a key (a space, a `*`: `'PAYPAL *NETFLIX: DE'`) makes the
        // word a merchant text as a whole; a single word before it is a key, known or not.
        guard let colon = text.firstIndex(of: ":"),
              text[..<colon].allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" }) else {
            return .term(.merchant(.contains(text.lowercased())))
        }
        let key = text[..<colon].lowercased()
        let value = String(text[text.index(after: colon)...])
        guard keys.contains(key) else { throw QueryError(kind: .unknownKey(key), span: span) }
        if value.isEmpty { throw QueryError(kind: .emptyValue(key: key), span: span) }
        // Comma lists are either value (`cat:food,groceries`, `tag:coffee,tea`); a comma followed by a space stays
        // part of a name (`cat:"Gifts, etc"`).
        if ["cat", "tag", "intent", "id"].contains(key), value.contains(","), !value.contains(", "), !value.hasPrefix("/") {
            let parts = value.split(separator: ",").map { String(key) + ":" + $0 }
            guard !parts.isEmpty else { throw QueryError(kind: .emptyValue(key: key), span: span) }
            var alternatives: [Query] = []
            for part in parts { alternatives.append(try parseTerm(part, span: span, today: today)) }
            return alternatives.count == 1 ? alternatives[0] : .or(alternatives)
        }
        switch key {
        case "desc", "merchant", "payee": return .term(.merchant(try textPattern(value, span)))
        case "note":
            switch value.lowercased() {
            case "none": return .term(.hasNote(false))
            case "any": return .term(.hasNote(true))
            default: return .term(.note(try textPattern(value, span)))
            }
        case "acct": return .term(.account(try textPattern(value, span)))
        case "tag":
            switch value.lowercased() {
            case "none": return .term(.tag(.none))
            case "any": return .term(.tag(.any))
            default:
                if let r = try regex(value, span) { return .term(.tag(.regex(r))) }
                // `tag:trip/` (what Tab leaves after the common prefix) means trip and its children.
                var name = Substring(value.lowercased())
                while name.count > 1, let last = name.last, last == "/" || last == ":" { name = name.dropLast() }
                return .term(.tag(.named(String(name))))
            }
        case "cat":
            if value.lowercased() == "none" { return .term(.category(.none)) }
            if let r = try regex(value, span) { return .term(.category(.regex(r))) }
            return .term(.category(.named(value.lowercased())))
        case "intent":
            if value.lowercased() == "none" { return .term(.intent(nil)) }
            guard let intent = Intent(name: value) else { throw QueryError(kind: .badIntent(value), span: span) }
            return .term(.intent(intent))
        case "amt":
            guard let test = amountTest(value) else { throw QueryError(kind: .badAmount(value), span: span) }
            return .term(.amount(test))
        case "date":
            guard let range = dateRange(value, today: today) else { throw QueryError(kind: .badDate(value), span: span) }
            return .term(.date(range))
        case "status":
            switch value.lowercased() {
            case "pending": return .term(.pending(true))
            case "booked", "cleared", "posted": return .term(.pending(false))
            default: throw QueryError(kind: .badStatus(value), span: span)
            }
        case "col":
            // col:NAME=VALUE, or col:NAME:TEXT / col:NAME:/REGEX/
            guard let sep = value.firstIndex(where: { $0 == "=" || $0 == ":" }), sep != value.startIndex else {
                throw QueryError(kind: .badColumn(value), span: span)
            }
            let name = String(value[..<sep]), rest = String(value[value.index(after: sep)...])
            if value[sep] == "=" { return .term(.column(name: name, .equals(rest.lowercased()))) }
            guard !rest.isEmpty else { throw QueryError(kind: .badColumn(value), span: span) }
            return .term(.column(name: name, .matches(try textPattern(rest, span))))
        case "file":
            // The file a transaction comes from, when several are open: a column every row has.
            guard !value.isEmpty else { throw QueryError(kind: .badColumn(value), span: span) }
            return .term(.column(name: Query.fileColumn, .matches(try textPattern(value, span))))
        default: // "id"
            guard let range = idRange(value) else { throw QueryError(kind: .badID(value), span: span) }
            return .term(.id(range))
        }
    }

    static func textPattern(_ value: String, _ span: Range<Int>) throws(QueryError) -> TextPattern {
        if let r = try regex(value, span) { return .regex(r) }
        return .contains(value.lowercased())
    }

    /// `bad regular expression /(/: expected ')'`: the pattern and what is wrong with it (the engine's words).
    public static func badRegexMessage(_ source: String, reason: String) -> String {
        "bad regular expression /\(source)/: \(reason)"
    }

    static func regex(_ value: String, _ span: Range<Int>) throws(QueryError) -> Regex? {
        guard value.hasPrefix("/") else { return nil }
        // `desc:/a b/` typed without quotes arrives as `desc:/a`: say so rather than search for "/a".
        guard value.count >= 2, value.hasSuffix("/") else { throw QueryError(kind: .unclosedRegex(value), span: span) }
        let source = String(value.dropFirst().dropLast())
        // Control characters cannot be typed, and Foundation leaks memory compiling a pattern with a NUL.
        if source.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) {
            throw QueryError(kind: .badRegex(source.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7F ? "?" : String($0) }.joined(),
                                             reason: nil), span: span)
        }
        // The engine's message says what is wrong (`expected ')'`, `quantifier '*' must appear after expression`).
        do { return try Regex(source) } catch { throw QueryError(kind: .badRegex(source, reason: String(describing: error)), span: span) }
    }

    // MARK: amounts

    /// Whether a number is compared signed: it has a sign, or is zero (as in hledger).
    static func isSigned(_ text: String, _ value: Amount) -> Bool {
        text.hasPrefix("-") || text.hasPrefix("+") || value.units == 0
    }

    static func amountTest(_ text: String) -> AmountTest? {
        if let dots = text.firstRange(of: "..") {
            let a = String(text[..<dots.lowerBound]), b = String(text[dots.upperBound...])
            guard let lo = number(a), let hi = number(b) else { return nil }
            let signed = isSigned(a, lo) || isSigned(b, hi)
            return AmountTest(lower: (.ge, lo), upper: (.le, hi), absolute: !signed)
        }
        for op in [AmountTest.Op.le, .ge, .lt, .gt, .eq] where text.hasPrefix(op.rawValue) {
            let rest = String(text.dropFirst(op.rawValue.count))
            guard let v = number(rest) else { return nil }
            let signed = isSigned(rest, v)
            switch op {
            case .lt, .le: return AmountTest(lower: nil, upper: (op, v), absolute: !signed)
            default: return AmountTest(lower: (op, v), upper: nil, absolute: !signed)
            }
        }
        guard let v = number(text) else { return nil }
        return AmountTest(lower: (.eq, v), upper: nil, absolute: !isSigned(text, v))
    }

    /// `-5.75`, `+10`, `1000`: digits with an optional sign and `.` decimals.
    public static func number(_ text: String) -> Amount? {
        var s = Substring(text)
        var negative = false
        if s.first == "-" || s.first == "+" { negative = s.first == "-"; s = s.dropFirst() }
        guard !s.isEmpty else { return nil }
        var units: Int64 = 0
        var scale: UInt8 = 0
        var seenPoint = false
        var digits = 0
        for c in s {
            if c == "." {
                if seenPoint { return nil }
                seenPoint = true
                continue
            }
            guard let d = c.wholeNumberValue, c.isASCII else { return nil }
            digits += 1
            if digits > 18 { return nil }
            units = units * 10 + Int64(d)
            if seenPoint { scale += 1 }
        }
        if digits == 0 { return nil }
        return Amount(units: negative ? -units : units, scale: scale)
    }

    // MARK: dates

    static func dateRange(_ text: String, today: Day = .today) -> DateRange? {
        if let dots = text.firstRange(of: "..") {
            let a = text[..<dots.lowerBound], b = text[dots.upperBound...]
            if a.isEmpty && b.isEmpty { return nil }
            var from: Day?, through: Day?
            if !a.isEmpty { guard let p = period(a, today: today) else { return nil }; from = p.from }
            if !b.isEmpty { guard let p = period(b, today: today) else { return nil }; through = p.through }
            return DateRange(from: from, through: through)
        }
        guard let p = period(Substring(text), today: today) else { return nil }
        return DateRange(from: p.from, through: p.through)
    }

    /// Periods named relative to today, as hledger names them: today, yesterday, thisweek, lastweek (weeks start
    /// on Monday), thismonth, lastmonth, thisquarter, lastquarter, thisyear, lastyear, `last N days`; and `2024q1`.
    static func relativePeriod(_ text: Substring, today: Day) -> (from: Day, through: Day)? {
        let t = text.lowercased().replacingAll(" ", with: "")
        let (y, m, _) = today.components
        func month(_ year: Int, _ month: Int) -> (Day, Day)? {
            var yy = year, mm = month
            while mm < 1 { mm += 12; yy -= 1 }
            guard let a = Day(year: yy, month: mm, day: 1), let b = Day(year: yy, month: mm, day: Day.daysIn(month: mm, year: yy)) else { return nil }
            return (a, b)
        }
        func quarter(_ year: Int, _ q: Int) -> (Day, Day)? {
            guard (1...4).contains(q), let a = month(year, q * 3 - 2), let b = month(year, q * 3) else { return nil }
            return (a.0, b.1)
        }
        // Monday of this week (1970-01-01 was a Thursday).
        let weekday = (Int(today.daysSinceEpoch) % 7 + 10) % 7 // 0 = Monday
        let monday = today.adding(days: -weekday)
        switch t {
        case "today": return (today, today)
        case "yesterday": return (today.adding(days: -1), today.adding(days: -1))
        case "thisweek": return (monday, monday.adding(days: 6))
        case "lastweek": return (monday.adding(days: -7), monday.adding(days: -1))
        case "thismonth": return month(y, m)
        case "lastmonth": return month(y, m - 1)
        case "thisquarter": return quarter(y, (m - 1) / 3 + 1)
        case "lastquarter": return (m - 1) / 3 == 0 ? quarter(y - 1, 4) : quarter(y, (m - 1) / 3)
        case "thisyear": return (Day(year: y, month: 1, day: 1) ?? today, Day(year: y, month: 12, day: 31) ?? today)
        case "lastyear": return (Day(year: y - 1, month: 1, day: 1) ?? today, Day(year: y - 1, month: 12, day: 31) ?? today)
        default: break
        }
        if t.hasPrefix("last"), t.hasSuffix("days"), let n = Int(t.dropFirst(4).dropLast(4)), n >= 1 {
            return (today.adding(days: -(n - 1)), today)
        }
        if t.count == 6, let q = t.firstIndex(of: "q"), let year = Int(t[..<q]), let n = Int(t[t.index(after: q)...]) {
            return quarter(year, n)
        }
        return nil
    }

    /// A year, month or day as the first and last day it covers, or a period named relative to today.
    static func period(_ text: Substring, today: Day = .today) -> (from: Day, through: Day)? {
        if let relative = relativePeriod(text, today: today) { return relative }
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard (1...3).contains(parts.count), parts[0].count == 4,
              parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy { $0.isASCII && $0.isNumber } }),
              let y = Int(parts[0]) else { return nil }
        if parts.count == 1 {
            guard let a = Day(year: y, month: 1, day: 1), let b = Day(year: y, month: 12, day: 31) else { return nil }
            return (a, b)
        }
        guard parts[1].count <= 2, let m = Int(parts[1]), (1...12).contains(m) else { return nil }
        if parts.count == 2 {
            guard let a = Day(year: y, month: m, day: 1),
                  let b = Day(year: y, month: m, day: Day.daysIn(month: m, year: y)) else { return nil }
            return (a, b)
        }
        guard parts[2].count <= 2, let d = Int(parts[2]), let day = Day(year: y, month: m, day: d) else { return nil }
        return (day, day)
    }

    /// `N`, `A..B`, or `A-B` as a TARGET writes a range (so `ls id:12,15,20-24` lists what `tag 12,15,20-24` tags).
    static func idRange(_ text: String) -> ClosedRange<Int>? {
        if let dash = text.firstIndex(of: "-"), dash != text.startIndex, !text.contains("..") {
            return idRange(text[..<dash] + ".." + text[text.index(after: dash)...])
        }
        if let dots = text.firstRange(of: "..") {
            guard let a = Int(text[..<dots.lowerBound]), let b = Int(text[dots.upperBound...]), a >= 1, a <= b else {
                return nil
            }
            return a...b
        }
        guard let n = Int(text), n >= 1 else { return nil }
        return n...n
    }

    // MARK: tokens

    enum TokenKind: Equatable { case open, close, or, not, term(String) }
    struct Token { var kind: TokenKind; var span: Range<Int> }

    /// Splits a word into tokens: unquoted leading `(` or `-(`, and trailing `)`,
    /// become their own tokens; `or` and `not` are operators unless quoted.
    static func split(_ word: Word) -> [Token] {
        if word.isQuoted && !(word.raw.hasPrefix("(") || word.raw.hasSuffix(")")) {
            return [Token(kind: .term(word.text), span: word.span)]
        }
        var tokens: [Token] = []
        var text = Substring(word.text)
        var raw = Substring(word.raw)
        var start = word.span.lowerBound
        var end = word.span.upperBound
        while true {
            if raw.hasPrefix("-(") {
                tokens.append(Token(kind: .not, span: start..<(start + 1)))
                tokens.append(Token(kind: .open, span: (start + 1)..<(start + 2)))
                raw = raw.dropFirst(2); text = text.dropFirst(2); start += 2
            } else if raw.hasPrefix("(") {
                tokens.append(Token(kind: .open, span: start..<(start + 1)))
                raw = raw.dropFirst(); text = text.dropFirst(); start += 1
            } else { break }
        }
        var closes: [Token] = []
        while raw.hasSuffix(")") && !raw.hasSuffix("\\)") && !raw.isEmpty {
            closes.append(Token(kind: .close, span: (end - 1)..<end))
            raw = raw.dropLast(); text = text.dropLast(); end -= 1
        }
        if !text.isEmpty {
            let lowered = text.lowercased()
            if raw == text && lowered == "or" {
                tokens.append(Token(kind: .or, span: start..<end))
            } else if raw == text && lowered == "not" {
                tokens.append(Token(kind: .not, span: start..<end))
            } else if raw == text && lowered == "and" {
                // `and` is what juxtaposition means already.
            } else {
                tokens.append(Token(kind: .term(String(text)), span: start..<end))
            }
        }
        tokens.append(contentsOf: closes.reversed())
        return tokens
    }

    struct Parser {
        let tokens: [Token]
        let today: Day
        var pos = 0
        var depth = 0

        mutating func parseOr() throws(QueryError) -> Query {
            var parts = [try parseAnd()]
            while pos < tokens.count, tokens[pos].kind == .or {
                let op = tokens[pos]
                pos += 1
                guard pos < tokens.count, tokens[pos].kind != .close, tokens[pos].kind != .or else {
                    throw QueryError(kind: .missingOperand(after: "or"), span: op.span)
                }
                parts.append(try parseAnd())
            }
            return parts.count == 1 ? parts[0] : .or(parts)
        }

        mutating func parseAnd() throws(QueryError) -> Query {
            var parts: [Query] = []
            while pos < tokens.count, tokens[pos].kind != .or, tokens[pos].kind != .close {
                parts.append(try parseUnary())
            }
            if parts.isEmpty {
                let span = pos < tokens.count ? tokens[pos].span : (tokens.last?.span ?? 0..<0)
                throw QueryError(kind: .missingOperand(after: pos > 0 ? describe(tokens[pos - 1]) : "or"), span: span)
            }
            return parts.count == 1 ? parts[0] : .and(parts)
        }

        func describe(_ t: Token) -> String {
            switch t.kind {
            case .open: "("
            case .close: ")"
            case .or: "or"
            case .not: "not"
            case .term(let s): s
            }
        }

        mutating func parseUnary() throws(QueryError) -> Query {
            let t = tokens[pos]
            depth += 1
            defer { depth -= 1 }
            if depth > QueryParser.maxDepth { throw QueryError(kind: .tooDeep, span: t.span) }
            switch t.kind {
            case .not:
                pos += 1
                guard pos < tokens.count, tokens[pos].kind != .close, tokens[pos].kind != .or else {
                    throw QueryError(kind: .missingOperand(after: "not"), span: t.span)
                }
                return .not(try parseUnary())
            case .open:
                pos += 1
                if pos < tokens.count, tokens[pos].kind == .close {
                    throw QueryError(kind: .missingOperand(after: "("), span: t.lowerBoundSpan(to: tokens[pos]))
                }
                let inner = try parseOr()
                guard pos < tokens.count, tokens[pos].kind == .close else {
                    throw QueryError(kind: .unmatchedOpen, span: t.span)
                }
                pos += 1
                return inner
            case .term(let text):
                pos += 1
                return try QueryParser.parseTerm(text, span: t.span, today: today)
            case .close, .or:
                throw QueryError(kind: .unmatchedClose, span: t.span)
            }
        }
    }
}

extension QueryParser.Token {
    func lowerBoundSpan(to other: QueryParser.Token) -> Range<Int> { span.lowerBound..<other.span.upperBound }
}
