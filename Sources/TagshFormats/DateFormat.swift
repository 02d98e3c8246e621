import TagshModel

/// How dates are written in a CSV file.
///
/// The three orders read every common bank form: `-`, `/`, `.`, spaces and
/// commas between the parts, two- or four-digit years, month names in several
/// languages (`07 Nov 2013`, `Jan 5, 2024`, `3. März 2024`), `20121231`, a
/// trailing `.` (`2019.04.19.`), and a time and zone after the date
/// (`2017-04-25T03:15:53`, `2018-02-25 12:34:56 +0000`), which is ignored:
/// a transaction keeps the calendar date the bank wrote. An explicit pattern
/// (`--date-format %d %b %Y`) reads exactly what it says.
public enum DateFormat: Sendable, Equatable, CustomStringConvertible {
    /// Year, month, day (`2024-03-05`, `2024/03/05`, `20240305`).
    case ymd
    /// Month, day, year (`03/05/2024`, `Mar 5, 2024`), as US banks write.
    case mdy
    /// Day, month, year (`05.03.2024`, `05/03/24`, `5 Mar 2024`).
    case dmy
    /// A strftime-like pattern given with `--date-format`.
    case pattern(DatePattern)

    /// Parses a `--date-format` value: a pattern with `%d %m %y %Y %b %B %H %M %S %z`
    /// and literal text, or the words `ymd`, `mdy`, `dmy`.
    public init?(pattern: String) {
        // The common orders read with the tolerant reader (which also takes `-`, `/` or `.`).
        switch pattern {
        case "ymd", "%Y-%m-%d", "%Y/%m/%d", "%Y.%m.%d": self = .ymd; return
        case "mdy", "%m/%d/%Y", "%m-%d-%Y", "%m.%d.%Y": self = .mdy; return
        case "dmy", "%d/%m/%Y", "%d.%m.%Y", "%d-%m-%Y": self = .dmy; return
        default: break
        }
        guard let p = DatePattern(pattern) else { return nil }
        self = .pattern(p)
    }

    /// The pattern that reads this format back with `--date-format`.
    public var pattern: String {
        switch self {
        case .ymd: "%Y-%m-%d"
        case .mdy: "%m/%d/%Y"
        case .dmy: "%d/%m/%Y"
        case .pattern(let p): p.source
        }
    }

    public var description: String {
        switch self {
        case .ymd: "year-month-day"
        case .mdy: "month/day/year"
        case .dmy: "day/month/year"
        case .pattern(let p): p.source
        }
    }

    /// Parses a date field (surrounding spaces allowed).
    public func parse(_ f: UnsafeBufferPointer<UInt8>) -> Day? {
        switch self {
        case .pattern(let p): return p.parse(f)
        case .ymd, .mdy, .dmy:
            // A date that starts with a four-digit year reads year first in every order (`DateTokens.day(in:)`).
            if let day = DateFormat.isoDay(f) { return day }
            if self != .ymd, let (a, b, year) = DateFormat.twoTwoYear(f) {
                return self == .mdy ? Day(year: year, month: a, day: b) : Day(year: year, month: b, day: a)
            }
            guard let t = DateTokens(f) else { return nil }
            return t.day(in: self)
        }
    }

    /// `NN.NN.NNNN`, `NN/NN/NNNN` or `NN-NN-NNNN` exactly, or the same with a two-digit year (`02/08/24`, read as
    /// `DateTokens.year` reads it): its two numbers and the year, read without tokenizing (a bank writes every
    /// date one way); nil for anything else, which the general reading then decides.
    @inline(__always)
    static func twoTwoYear(_ b: UnsafeBufferPointer<UInt8>) -> (Int, Int, Int)? {
        guard b.count == 10 || b.count == 8, b[2] == b[5], b[2] == 0x2E || b[2] == 0x2F || b[2] == 0x2D else { return nil }
        guard let a = number(b, 0, 2), let m = number(b, 3, 2), let y = number(b, 6, b.count - 6),
              let year = b.count == 10 ? y : DateTokens.year(y, 2) else { return nil }
        return (a, m, year)
    }

    /// The decimal number of `count` digits at `from`, nil if one is not a digit.
    @inline(__always)
    static func number(_ b: UnsafeBufferPointer<UInt8>, _ from: Int, _ count: Int) -> Int? {
        var v = 0
        for j in from..<(from + count) {
            let c = b[j]
            guard c >= 0x30 && c <= 0x39 else { return nil }
            v = v * 10 + Int(c - 0x30)
        }
        return v
    }

    /// `YYYY-MM-DD` exactly, read without tokenizing (most files write every date so); nil for anything
    /// else, which the general reading then decides.
    @inline(__always)
    static func isoDay(_ b: UnsafeBufferPointer<UInt8>) -> Day? {
        guard b.count == 10, b[4] == 0x2D, b[7] == 0x2D else { return nil }
        guard let year = number(b, 0, 4), let month = number(b, 5, 2), let day = number(b, 8, 2) else { return nil }
        return Day(year: year, month: month, day: day)
    }

    /// Parses text (for tests and the prompt).
    public func parse(_ text: String) -> Day? {
        var bytes = Array(text.utf8)
        return bytes.withUnsafeMutableBufferPointer { parse(UnsafeBufferPointer($0)) }
    }

    /// What a single date says about the order of day and month: `.dmy` when
    /// its first part is above 12, `.mdy` when its second is, `.ymd` when it
    /// starts with the year or names the month, nil when it cannot tell.
    public static func evidence(_ f: UnsafeBufferPointer<UInt8>) -> DateFormat? {
        guard let t = DateTokens(f) else { return nil }
        return t.evidence
    }

    public static func evidence(_ text: String) -> DateFormat? { DateTokens.of(text)?.evidence }
}

/// The parts of a date field: up to three numbers or month names, then
/// whatever time and zone follow.
struct DateTokens {
    var numbers: (Int, Int, Int) = (0, 0, 0)
    var lengths: (Int, Int, Int) = (0, 0, 0)
    /// How many parts there are (numbers and a month name together).
    var count = 0
    /// The month a name gave (1-12), and where among the parts it stood.
    var namedMonth = 0
    var namedAt = -1

    init?(_ f: UnsafeBufferPointer<UInt8>) {
        var i = 0
        let n = f.count
        while i < n, f[i] == 0x20 || f[i] == 0x09 || f[i] == 0x22 { i += 1 }
        var end = n
        while end > i, f[end - 1] == 0x20 || f[end - 1] == 0x09 || f[end - 1] == 0x22 { end -= 1 }
        guard i < end else { return nil }
        while i < end && count < 3 {
            let b = f[i]
            if b >= 0x30 && b <= 0x39 {
                var v = 0, len = 0
                while i < end, f[i] >= 0x30, f[i] <= 0x39 {
                    v = v * 10 + Int(f[i] - 0x30)
                    len += 1
                    i += 1
                    if len > 8 { return nil }
                }
                if len == 8 && count == 0 {
                    // 20121231
                    numbers = (v / 10000, (v / 100) % 100, v % 100)
                    lengths = (4, 2, 2)
                    count = 3
                    break
                }
                if len > 4 { return nil }
                set(count, v, len)
                count += 1
            } else if DateTokens.isLetter(b) {
                let start = i
                while i < end, DateTokens.isLetter(f[i]) || f[i] >= 0x80 { i += 1 }
                // A date with a time: `2017-04-25T03:15:53` — a T after the three parts is handled below.
                guard let month = MonthNames.month(UnsafeBufferPointer(rebasing: f[start..<i])), namedAt < 0 else { return nil }
                namedMonth = month
                namedAt = count
                count += 1
                if i < end && f[i] == 0x2E { i += 1 } // `Jan.`
            } else if b == 0x2D || b == 0x2F || b == 0x2E || b == 0x20 || b == 0x2C || b == 0x09 {
                i += 1
            } else {
                return nil
            }
            // Separators between parts.
            while count < 3, i < end, f[i] == 0x2D || f[i] == 0x2F || f[i] == 0x2E || f[i] == 0x20 || f[i] == 0x2C { i += 1 }
        }
        guard count == 3 else { return nil }
        // What follows the date: a trailing dot, then a time and zone, which are not the date's business.
        if i < end && f[i] == 0x2E { i += 1 }
        if i < end {
            guard f[i] == 0x54 || f[i] == 0x20 || f[i] == 0x09 else { return nil } // T or space
            i += 1
            var sawDigit = false
            while i < end {
                let b = f[i]
                if b >= 0x30 && b <= 0x39 { sawDigit = true } else if !(b == 0x3A || b == 0x2E || b == 0x2B || b == 0x2D || b == 0x20
                    || b == 0x5A || DateTokens.isLetter(b)) { return nil }
                i += 1
            }
            guard sawDigit else { return nil }
        }
    }

    /// The parts of a date written as text.
    static func of(_ text: String) -> DateTokens? {
        var bytes = Array(text.utf8)
        return bytes.withUnsafeMutableBufferPointer { DateTokens(UnsafeBufferPointer($0)) }
    }

    static func isLetter(_ b: UInt8) -> Bool { (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) }

    mutating func set(_ index: Int, _ v: Int, _ len: Int) {
        switch index {
        case 0: numbers.0 = v; lengths.0 = len
        case 1: numbers.1 = v; lengths.1 = len
        default: numbers.2 = v; lengths.2 = len
        }
    }

    /// The two numbers beside the month name, in order, with their lengths (a date has three parts). A tuple: as
    /// an array of the numbers, two arrays were made and freed for every date a name was read in.
    var besideName: (first: (Int, Int), second: (Int, Int)) {
        switch namedAt {
        case 0: return ((numbers.1, lengths.1), (numbers.2, lengths.2))
        case 1: return ((numbers.0, lengths.0), (numbers.2, lengths.2))
        default: return ((numbers.0, lengths.0), (numbers.1, lengths.1))
        }
    }

    static func year(_ v: Int, _ len: Int) -> Int? {
        switch len {
        case 4: return v
        case 2: return v < 70 ? 2000 + v : 1900 + v // two-digit years: 1970-2069
        default: return nil
        }
    }

    func day(in order: DateFormat) -> Day? {
        if namedAt >= 0 {
            let (first, second) = besideName
            // `2013 Nov 07`, `07 Nov 2013`, `Nov 7, 2013`, `10 Feb 18`.
            if first.1 == 4 {
                return Day(year: first.0, month: namedMonth, day: second.0)
            }
            guard first.1 <= 2, let y = DateTokens.year(second.0, second.1) else { return nil }
            return Day(year: y, month: namedMonth, day: first.0)
        }
        let (a, b, c) = numbers
        if lengths.0 == 4 {
            guard lengths.1 <= 2, lengths.2 <= 2 else { return nil }
            return Day(year: a, month: b, day: c)
        }
        guard lengths.0 <= 2, lengths.1 <= 2, let y = DateTokens.year(c, lengths.2) else { return nil }
        switch order {
        case .mdy: return Day(year: y, month: a, day: b)
        case .dmy: return Day(year: y, month: b, day: a)
        case .ymd:
            // `18-02-22` read year first only when asked to.
            guard let yy = DateTokens.year(a, lengths.0) else { return nil }
            return Day(year: yy, month: b, day: c)
        case .pattern: return nil
        }
    }

    var evidence: DateFormat? {
        if namedAt >= 0 || lengths.0 == 4 { return .ymd }
        let (a, b, _) = numbers
        if a > 12 && b <= 12 { return .dmy }
        if b > 12 && a <= 12 { return .mdy }
        return nil
    }
}

/// Month names and abbreviations in the languages bank exports come in, ASCII-folded.
enum MonthNames {
    static let table: [String: Int] = {
        let lists: [[String]] = [
            // English
            ["january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november", "december"],
            ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"],
            ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sept", "oct", "nov", "dec"],
            // German
            ["januar", "februar", "maerz", "april", "mai", "juni", "juli", "august", "september", "oktober", "november", "dezember"],
            ["jan", "feb", "mrz", "apr", "mai", "jun", "jul", "aug", "sep", "okt", "nov", "dez"],
            ["jaen", "feb", "maer", "apr", "mai", "jun", "jul", "aug", "sep", "okt", "nov", "dez"],
            // Dutch
            ["januari", "februari", "maart", "april", "mei", "juni", "juli", "augustus", "september", "oktober", "november", "december"],
            ["jan", "feb", "mrt", "apr", "mei", "jun", "jul", "aug", "sep", "okt", "nov", "dec"],
            // French
            ["janvier", "fevrier", "mars", "avril", "mai", "juin", "juillet", "aout", "septembre", "octobre", "novembre", "decembre"],
            ["janv", "fevr", "mars", "avr", "mai", "juin", "juil", "aout", "sept", "oct", "nov", "dec"],
            // Spanish
            ["enero", "febrero", "marzo", "abril", "mayo", "junio", "julio", "agosto", "septiembre", "octubre", "noviembre", "diciembre"],
            ["ene", "feb", "mar", "abr", "may", "jun", "jul", "ago", "sep", "oct", "nov", "dic"],
            // Italian
            ["gennaio", "febbraio", "marzo", "aprile", "maggio", "giugno", "luglio", "agosto", "settembre", "ottobre", "novembre", "dicembre"],
            ["gen", "feb", "mar", "apr", "mag", "giu", "lug", "ago", "set", "ott", "nov", "dic"],
            // Portuguese
            ["janeiro", "fevereiro", "marco", "abril", "maio", "junho", "julho", "agosto", "setembro", "outubro", "novembro", "dezembro"],
            ["jan", "fev", "mar", "abr", "mai", "jun", "jul", "ago", "set", "out", "nov", "dez"],
        ]
        var out: [String: Int] = [:]
        for list in lists { for (i, name) in list.enumerated() where out[name] == nil { out[name] = i + 1 } }
        return out
    }()

    /// The names by their folded bytes (`Key`), in 256 places found from a multiply of those bytes (open
    /// addressing): what `month` looks up. (A `Dictionary` of keys hashed them with `Hasher`, two fifths of the
    /// time of reading a date with a month name.) Each place holds a name's two words, its length and its month (0 when empty):
    /// the length too, as a word may hold a NUL byte, which the words alone do not tell from their padding.
    static let places: [(low: UInt64, high: UInt64, count: Int, month: Int)] = {
        var out = [(low: UInt64, high: UInt64, count: Int, month: Int)](repeating: (0, 0, 0, 0), count: 256)
        for (name, month) in table {
            var key = Key()
            for b in name.utf8 { _ = key.append(b) }
            var p = key.place
            while out[p].month != 0 { p = (p + 1) & 255 }
            out[p] = (key.low, key.high, key.count, month)
        }
        return out
    }()

    /// Up to 16 bytes of a folded word, packed.
    struct Key {
        var low: UInt64 = 0, high: UInt64 = 0
        var count = 0

        /// Where the search for the key starts among `places`.
        var place: Int { Int(truncatingIfNeeded: ((low ^ (high &* 0x9E37_79B9_7F4A_7C15)) &* 0xff51_afd7_ed55_8ccd) >> 56) }

        /// Adds a byte; false when the key is full.
        mutating func append(_ b: UInt8) -> Bool {
            guard count < 16 else { return false }
            if count < 8 { low |= UInt64(b) << (8 * UInt64(count)) } else { high |= UInt64(b) << (8 * UInt64(count - 8)) }
            count += 1
            return true
        }
    }

    /// The month a word names (case-insensitive; ä, é, û and ç folded to ae, e, u and c, written as one character
    /// or as a letter and its combining mark), or nil.
    ///
    /// Folded byte by byte into 16 bytes, with no `String`: the `String` lower-cased and searched four times for
    /// those letters cost 2.5 µs a date, and made a 200,000-row export with dates like `03-May-2024` open five
    /// times slower than Python's `csv.reader` splits it. The same as lower-casing the word as a `String` and
    /// replacing the four letters (`MonthNamesTests` compares both), but for the Kelvin sign (K), which that
    /// lower-cased to an ASCII k.
    static func month(_ word: UnsafeBufferPointer<UInt8>) -> Int? {
        guard word.count >= 3, word.count <= 12 else { return nil }
        var key = Key()
        // The ASCII letter before, while a combining mark may still follow it (0: none).
        var base: UInt8 = 0
        var i = 0
        while i < word.count {
            let b = word[i]
            if b < 0x80 {
                let lower = b >= 0x41 && b <= 0x5A ? b | 0x20 : b
                guard key.append(lower) else { return nil }
                base = lower
                i += 1
                continue
            }
            guard i + 1 < word.count else { return nil }
            let next = word[i + 1]
            i += 2
            switch (b, next) {
            case (0xC3, 0xA4), (0xC3, 0x84): guard key.append(0x61), key.append(0x65) else { return nil } // ä Ä
            case (0xC3, 0xA9), (0xC3, 0x89): guard key.append(0x65) else { return nil } // é É
            case (0xC3, 0xBB), (0xC3, 0x9B): guard key.append(0x75) else { return nil } // û Û
            case (0xC3, 0xA7), (0xC3, 0x87): guard key.append(0x63) else { return nil } // ç Ç
            // A combining mark after its letter: the diaeresis makes a into ae; the acute, circumflex and cedilla
            // over e, u and c leave them as they are.
            case (0xCC, 0x88) where base == 0x61: guard key.append(0x65) else { return nil }
            case (0xCC, 0x81) where base == 0x65, (0xCC, 0x82) where base == 0x75, (0xCC, 0xA7) where base == 0x63: break
            default: return nil
            }
            base = 0
        }
        guard key.count > 0 else { return nil }
        return places.withUnsafeBufferPointer { places in
            var p = key.place
            while places[p].month != 0 {
                if places[p].low == key.low && places[p].high == key.high && places[p].count == key.count { return places[p].month }
                p = (p + 1) & 255
            }
            return nil
        }
    }
}

/// An explicit date pattern: `%d %m %y %Y %b %B %H %M %S %z` and literal text
/// (a space matches any run of spaces; `%%` is a percent sign).
public struct DatePattern: Sendable, Equatable {
    public let source: String
    enum Piece: Equatable { case day, month, year2, year4, monthName, hour, minute, second, zone, literal(UInt8), space }
    let pieces: [Piece]

    public init?(_ source: String) {
        guard source.contains("%") else { return nil }
        var pieces: [Piece] = []
        var it = Array(source.utf8).makeIterator()
        var hasDay = false, hasMonth = false, hasYear = false
        while let b = it.next() {
            if b == 0x25 {
                guard let d = it.next() else { return nil }
                switch d {
                case UInt8(ascii: "d"), UInt8(ascii: "e"): pieces.append(.day); hasDay = true
                case UInt8(ascii: "m"): pieces.append(.month); hasMonth = true
                case UInt8(ascii: "y"): pieces.append(.year2); hasYear = true
                case UInt8(ascii: "Y"): pieces.append(.year4); hasYear = true
                case UInt8(ascii: "b"), UInt8(ascii: "B"), UInt8(ascii: "h"): pieces.append(.monthName); hasMonth = true
                case UInt8(ascii: "H"): pieces.append(.hour)
                case UInt8(ascii: "M"): pieces.append(.minute)
                case UInt8(ascii: "S"): pieces.append(.second)
                case UInt8(ascii: "z"), UInt8(ascii: "Z"): pieces.append(.zone)
                case 0x25: pieces.append(.literal(0x25))
                default: return nil
                }
            } else if b == 0x20 {
                pieces.append(.space)
            } else {
                pieces.append(.literal(b))
            }
        }
        guard hasDay, hasMonth, hasYear else { return nil }
        self.source = source
        self.pieces = pieces
    }

    func parse(_ f: UnsafeBufferPointer<UInt8>) -> Day? {
        var i = 0, end = f.count
        while i < end, f[i] == 0x20 { i += 1 }
        while end > i, f[end - 1] == 0x20 { end -= 1 }
        var day = 0, month = 0, year = 0
        func number(max: Int, exactly: Bool = false) -> Int? {
            var v = 0, len = 0
            while i < end, len < max, f[i] >= 0x30, f[i] <= 0x39 { v = v * 10 + Int(f[i] - 0x30); len += 1; i += 1 }
            return len == 0 || (exactly && len != max) ? nil : v
        }
        for piece in pieces {
            switch piece {
            case .day: guard let v = number(max: 2) else { return nil }; day = v
            case .month: guard let v = number(max: 2) else { return nil }; month = v
            case .year4: guard let v = number(max: 4, exactly: true) else { return nil }; year = v
            case .year2: guard let v = number(max: 2, exactly: true), let y = DateTokens.year(v, 2) else { return nil }; year = y
            case .hour, .minute, .second: guard number(max: 2) != nil else { return nil }
            case .monthName:
                let start = i
                while i < end, DateTokens.isLetter(f[i]) || f[i] >= 0x80 { i += 1 }
                guard let m = MonthNames.month(UnsafeBufferPointer(rebasing: f[start..<i])) else { return nil }
                month = m
                if i < end && f[i] == 0x2E { i += 1 }
            case .zone:
                if i < end, f[i] == 0x5A { i += 1; continue }
                guard i < end, f[i] == 0x2B || f[i] == 0x2D else { return nil }
                i += 1
                guard number(max: 2, exactly: true) != nil else { return nil }
                if i < end, f[i] == 0x3A { i += 1 }
                guard number(max: 2, exactly: true) != nil else { return nil }
            case .space:
                guard i < end, f[i] == 0x20 else { return nil }
                while i < end, f[i] == 0x20 { i += 1 }
            case .literal(let b):
                guard i < end, f[i] == b else { return nil }
                i += 1
            }
        }
        guard i == end else { return nil }
        return Day(year: year, month: month, day: day)
    }
}
