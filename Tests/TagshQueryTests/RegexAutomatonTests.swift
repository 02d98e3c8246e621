import Testing
@testable import TagshQuery
import TagshTestSupport

/// The automaton must give the engine's answer (`contains` ignoring case) on every ASCII text for every pattern
/// it accepts, and refuse (nil) the patterns whose meaning it does not follow.
@Suite struct RegexAutomatonTests {
    /// The engine's answer, as `Regex` in Query.swift asks it.
    static func engine(_ pattern: String, _ text: String) throws -> Bool {
        text.contains(try _StringProcessing.Regex<AnyRegexOutput>(pattern).ignoresCase())
    }

    static func answer(_ automaton: inout RegexAutomaton, _ text: String) -> Bool {
        var copy = text
        return copy.withUTF8 { automaton.matches($0) }
    }

    @Test(arguments: [
        // literals, case, escaped metacharacters
        ("star", "STARBUCKS", true), ("STAR", "starbucks", true), ("star", "stbr", false), ("a b", "A B", true),
        ("a.c", "abc", true), ("a.c", "ac", false), ("a.c", "a\tc", true), ("a\\.c", "abc", false), ("a\\.c", "A.C", true),
        ("\\$5", "PRICE $5", true), ("c:\\/temp", "c:/temp", true), ("\\(x\\)", "(x)", true), ("\\[x\\]", "[x]", true),
        ("\\{1\\}", "{1}", true), ("a\\*b", "a*b", true), ("a\\+", "a+", true), ("\\?", "why?", true), ("a\\|b", "a|b", true),
        ("a\\|b", "a", false), ("\\^x", "a^x", true), ("x\\$", "x$y", true), ("a\\-b", "a-b", true), ("\\\\", "a\\b", true),
        ("\\ ", "a b", true), ("]", "a]", true), ("}", "}", true), ("#1", "#1", true), ("@", "`", false), ("`", "@", false),
        // classes
        ("[a-f]", "E", true), ("[a-f]", "G", false), ("[A-F]", "e", true), ("[^a-f]", "E", false), ("[^a-f]", "EG", true),
        ("[abc]", "XBX", true), ("[0-9]", "a1", true), ("[^0-9]", "123", false), ("[a-z0-9]", "--7", true), ("[a-z0-9]", "--", false),
        ("[-a]", "-", true), ("[a-]", "-", true), ("[-]", "-", true), ("[\\]]", "]", true), ("[\\-x]", "-", true), ("[.]", "a", false),
        ("[\\d.]", ".", true), ("[\\s]", "\t", true), ("[^\\S]", "\t", true), ("[a^]", "^", true), ("[^^]", "^", false),
        ("[Z-a]", "z", true), ("[Z-a]", "_", true), ("[\\t- ]", "\t", true),
        // the engine's class folding adds "`" to `@` (not the other way)
        ("[@]", "`", true), ("[@-B]", "`", true), ("[`]", "@", false), ("[^@]", "`", false), ("[@\\d]", "`", true), ("[^@\\d]", "`", false),
        // shorthand classes
        ("\\d", "x5", true), ("\\d", "five", false), ("\\D", "555", false), ("\\w", "_", true), ("\\w", "-!", false),
        ("\\W", "a_1", false), ("\\s", "a\tb", true), ("\\s", "ab", false), ("\\S", " \t", false), ("\\t", "a\tb", true),
        // groups and alternation
        ("(ab)+c", "ababc", true), ("(ab)+c", "ac", false), ("(?:ab|cd)e", "cde", true), ("(a|)b", "b", true), ("(a|b)(c|d)", "bd", true),
        ("((a|b)c)+d", "acbcd", true), ("((a|b)c)+d", "abd", false), ("amzn|amazon", "AMAZON MKTP", true), ("x|y|z", "abc", false),
        ("(?<name>ab)c", "abc", true), ("(?P<n>a)(?'m'b)", "AB", true), ("a||b", "zzz", true), ("", "", true), ("()", "x", true),
        // quantifiers
        ("x{2,3}y?", "xxy", true), ("x{2,3}y", "xy", false), ("[0-9]{6}", "REF 123456", true), ("[0-9]{6}", "REF 12345", false),
        ("a{2}", "a a", false), ("a{2,}", "caaat", true), ("a{,2}b", "b", true), ("ab{0}c", "ac", true), ("ab{0}c", "abc", false),
        ("colou?r", "COLOR", true), ("a*?b", "b", true), ("a+?b", "b", false), ("a{2,3}?b", "aab", true), ("x*", "", true), ("x+", "", false),
        ("(a|b)*c", "c", true), ("(a*b)*c", "abc", true), ("a{3}", "aa", false), ("(ab){2}", "abab", true), ("(ab){2}", "abba", false),
        // anchors
        ("^star", "STARBUCKS", true), ("^star", "THE STAR", false), ("bucks$", "STARBUCKS", true), ("bucks$", "STARBUCKS 1", false),
        ("^$", "", true), ("^$", " ", false), ("$", "abc", true), ("^", "abc", true), ("foo|^bar", "a bar", false), ("foo|^bar", "bar x", true),
        ("foo|^bar", "x foo", true), ("(^a|b)c", "xac", false), ("(^a|b)c", "ac", true), ("(^a|b)c", "xbc", true), ("a$|b", "ab", true),
        ("a$|c", "ab", false), ("a$b", "ab", false), ("x(y$|z)", "xy", true), ("x(y$|z)", "xyq", false), ("^\\d+\\.\\d\\d$", "12.50", true),
        ("\\d+\\.\\d\\d$", "TOTAL 12.5", false), ("^(uber|lyft)", "LYFT RIDE", true), ("^(uber|lyft)", "MY UBER", false),
        ("(a$)?b", "ab", true), ("(^a|b){2,}c", "abbc", true), ("(^a|b){2,}c", "babc", false), ("(^|x)a", "ba", false), ("(^|x)a", "a", true), ("a(b|$)", "xa", true),
    ])
    func answersAsTheEngineDoes(pattern: String, text: String, expected: Bool) throws {
        #expect(try Self.engine(pattern, text) == expected, "the engine on /\(pattern)/ and \(text.debugDescription)")
        guard var automaton = RegexAutomaton(pattern) else {
            Issue.record("/\(pattern)/ not compiled")
            return
        }
        #expect(Self.answer(&automaton, text) == expected, "/\(pattern)/ on \(text.debugDescription)")
    }

    @Test(arguments: [
        // back references, lookarounds, atomic groups, comments, flags, branch reset
        "(a)\\1", "(?<n>a)\\k<n>", "(?P=n)", "(?=a)", "(?!a)", "(?<=a)b", "(?<!a)b", "(?>a)", "a(?#c)b", "(?i)a", "(?x)a b", "(?|a)",
        // escapes not followed: word boundaries, quoting, code points, properties, anchors, letters the engine takes literally
        "\\bword", "\\Bx", "\\Qa.b\\E", "\\x41", "\\u{41}", "\\N{SPACE}", "\\p{L}", "\\P{L}", "\\g1", "\\R", "\\X", "\\h", "\\v", "\\K",
        "\\G", "\\A", "\\z", "\\Z", "\\n", "\\0", "\\y", "[\\b]", "[\\x41]", "\\",
        // classes: POSIX, nested, set operations, `]` first, ranges with shorthands, reversed, a `-` after a range, unclosed
        "[[:alpha:]]", "[a[b]]", "[a-z--b]", "[a&&b]", "[a~~b]", "[a-~~]", "[--]", "[]a]", "[^]a]", "[]", "[a-\\d]", "[\\d-z]", "[b-a]", "[a-z-9]", "[a",
        // quantifiers: possessive, stacked, on nothing, on anchors, `{` not a quantifier, too large
        "a*+", "a++", "a?+", "a{2}+", "a**", "a*??", "a{2}{3}", "*a", "a|*b", "(*a)", "^*", "$+", "x{", "x{a}", "x{,}", "x{ 2}", "x{2 }",
        "{2}", "(^)*a", "(^|.){2,}x", "(a|)*b", "(a*)+", "(a?){2}", "(()){3}", "(?:$)?", "a{1001}", "a{1,1001}", "a{2,1}", "(a{100}){101}", "((a{10}){10}){101}",
        // groups: unbalanced, bad or repeated names
        "(", ")", "a)", "(a", "(?<1n>a)", "(?<n>a)(?<n>b)", "(?<>a)", "(?Pa)",
        // beyond printable ASCII
        "café", "a\tb", "a\nb",
    ])
    func refusesWhatItDoesNotFollow(pattern: String) {
        #expect(RegexAutomaton(pattern) == nil, "/\(pattern)/")
    }

    /// Patterns such as queries use, all of which must compile.
    static let realistic = [
        "[0-9]{6}", "^(uber|lyft)", "st.r", "\\d+\\.\\d\\d$", "amzn|amazon", "a.*b.*c", "^[^ ]+ [0-9]+$", "(ab|cd)*e", "x{2,3}y?",
        "starbucks", "^starbucks", "bucks$", "^star.*bucks$", "uber\\s*\\*?\\s*trip", "amzn mktp", "amazon\\.(com|co\\.uk)",
        "\\d{4}-\\d{2}-\\d{2}", "ref\\s*\\d+", "^pos ", "card \\d{4}$", "[a-z]+\\d+", "^\\w+$", "\\W{2,}", "(coffee|cafe|espresso)",
        "tfl|oyster", "^(tesco|sainsbury'?s|asda|aldi|lidl)", "paypal \\*", "[^a-z0-9 ]", "\\$\\d+", "^\\s", "\\s$", "\\s{2}",
        "netflix|spotify|disney\\+", "^dd ", "(?:direct debit|dd) ", "[0-9a-f]{8}", "#\\d+", "x*", "", ".", "^$", "^.{20,}$",
        "^.{0,5}$", "(a|b)*c", "a?b?c?", "(?<store>tesco) \\d+", "[A-F0-9]{4,}", "gbp|eur|usd", "\\d{1,3}(,\\d{3})+", "^[a-z]",
        "[^\\s]+$", "(^| )uber( |$)", "o{2}", "co+l", "^the ", "ltd\\.?$", "\\(\\d+\\)", "[\\[\\]]", "1\\.5|2\\.5", "[@`]",
        "(\\d)(\\d)", "z{0,2}q", "[a-c]{2,}?x", "(ab|a)(bc|c)$", "^(a|ab)(c|bcd)(d*)$",
    ]

    /// Descriptions as they come.
    static let descriptions = [
        "", " ", "STARBUCKS 1234", "starbucks", "THE STARBUCKS", "STAR", "UBER *TRIP 5F2X", "UBER   TRIP", "LYFT RIDE 123456",
        "AMZN Mktp US*2K4", "AMAZON.CO.UK", "amazon.com", "TESCO STORES 3312", "Sainsburys S/mkt", "SAINSBURY'S", "DD VODAFONE",
        "DIRECT DEBIT NETFLIX", "Disney+ 7.99", "PAYPAL *EBAY", "TFL TRAVEL CH", "CARD 1234", "CARD 1234 ", "REF 2024-01-05",
        "ref:00123456", "COFFEE#12", "CAFE (2)", "GBP 1,234,567", "PRICE $12.50", "12.50", "deadbeef cafe", "LTD.", "Acme Ltd",
        "POS 0042 TESCO", "\tTAB LEADS", "TRAILS TAB\t", "[x]", "@home", "`tick`", "abcabc", "aaaa", "xxxy", "coool", "zzq", "abcd",
        "a very long description that goes on, 1234567890",
    ]

    /// Texts made of pieces of the pattern (its letter runs in any case) and bytes around them, so that
    /// matches and near misses both happen.
    static func texts(for pattern: String, count: Int, _ rng: inout SplitMix) -> [String] {
        var words: [String] = []
        var run = ""
        for ch in pattern {
            if ch.isLetter { run.append(ch) } else if !run.isEmpty { words.append(run); run = "" }
        }
        if !run.isEmpty { words.append(run) }
        let bytes = Array("0123456789 .-*$#(),'\t@`_xyz")
        return (0..<count).map { _ in
            var text = ""
            for _ in 0..<rng.below(7) {
                if !words.isEmpty && rng.below(3) == 0 {
                    let word = words[rng.below(words.count)]
                    text += [word, word.uppercased(), word.lowercased()][rng.below(3)]
                } else {
                    text.append(bytes[rng.below(bytes.count)])
                }
            }
            return text
        }
    }

    @Test func realisticPatternsAgreeWithTheEngine() throws {
        var rng = SplitMix(seed: 1)
        var matched = 0, total = 0
        for pattern in Self.realistic {
            guard var automaton = RegexAutomaton(pattern), var small = RegexAutomaton(pattern, maxStates: 2) else {
                Issue.record("/\(pattern)/ not compiled")
                continue
            }
            for text in Self.descriptions + Self.texts(for: pattern, count: 60, &rng) {
                let expected = try Self.engine(pattern, text)
                #expect(Self.answer(&automaton, text) == expected, "/\(pattern)/ on \(text.debugDescription)")
                #expect(Self.answer(&small, text) == expected, "/\(pattern)/ on \(text.debugDescription), small cache")
                matched += expected ? 1 : 0
                total += 1
            }
        }
        // Not vacuous: the texts match often, and miss often.
        #expect(matched > total / 10 && matched < total * 9 / 10, "\(matched) of \(total)")
    }

    /// Random patterns over a small alphabet, with random texts over it: wherever the automaton compiles a
    /// pattern it must agree with the engine, and it must refuse every pattern the engine refuses.
    @Test func randomPatternsAgreeWithTheEngine() throws {
        var rng = SplitMix(seed: 42)
        var compiled = 0, matched = 0, total = 0
        let patterns = 600
        for _ in 0..<patterns {
            let pattern = RandomPattern.alternation(depth: 2, &rng)
            let valid = (try? _StringProcessing.Regex<AnyRegexOutput>(pattern)) != nil
            guard var automaton = RegexAutomaton(pattern, maxStates: rng.below(2) == 0 ? 3 : RegexAutomaton.defaultMaxStates) else { continue }
            guard valid else {
                Issue.record("/\(pattern)/ compiled, but the engine refuses it")
                continue
            }
            compiled += 1
            for _ in 0..<40 {
                let text = String((0..<rng.below(10)).map { _ in RandomPattern.textCharacters[rng.below(RandomPattern.textCharacters.count)] })
                let expected = try Self.engine(pattern, text)
                #expect(Self.answer(&automaton, text) == expected, "/\(pattern)/ on \(text.debugDescription)")
                matched += expected ? 1 : 0
                total += 1
            }
        }
        #expect(compiled > patterns / 2, "\(compiled) of \(patterns) compiled")
        #expect(matched > total / 10 && matched < total * 9 / 10, "\(matched) of \(total)")
    }
}


/// Random patterns from a small grammar over `abAB01 .-@`` and the constructs the automaton supports, with
/// some it refuses or the engine refuses (a quantified anchor, a range such as `b-A`, `[a[b]]`, `[&&]`) mixed in.
enum RandomPattern {
    static let textCharacters = Array("abAB01 .-@`_\t~&^]#\\")
    static let literals = ["a", "b", "A", "B", "0", "1", " ", "-", "@", "`", "_", "\\.", "\\-", "\\t", "\\@", "]", "}", "#", "\\\\", "\\$"]
    static let escapes = ["\\d", "\\w", "\\s", "\\D", "\\W", "\\S", "."]
    static let classItems = ["a", "b", "A", "0", "1", " ", ".", "-", "@", "`", "_", "a-b", "A-B", "0-9", "@-B", "Z-a", "b-A", "\\d", "\\w", "\\s", "\\S", "\\D", "\\W", "\\t", "\\-", "\\]", "\\^", "^", "&", "~", "[", "a-~"]
    static let quantifiers = ["*", "+", "?", "{2}", "{1,3}", "{0,2}", "{2,}", "{,2}", "*?", "+?", "??", "{1,2}?", "{0}"]

    static func alternation(depth: Int, _ rng: inout SplitMix) -> String {
        let count = rng.below(4) == 0 ? 2 + rng.below(2) : 1
        return (0..<count).map { _ in sequence(depth: depth, &rng) }.joined(separator: "|")
    }

    static func sequence(depth: Int, _ rng: inout SplitMix) -> String {
        (0..<rng.below(5)).map { _ in piece(depth: depth, &rng) }.joined()
    }

    static func piece(depth: Int, _ rng: inout SplitMix) -> String {
        let a = atom(depth: depth, &rng)
        return rng.below(5) < 2 ? a + quantifiers[rng.below(quantifiers.count)] : a
    }

    static func atom(depth: Int, _ rng: inout SplitMix) -> String {
        switch rng.below(12) {
        case 0...4: return literals[rng.below(literals.count)]
        case 5: return escapes[rng.below(escapes.count)]
        case 6, 7:
            let items = (0..<1 + rng.below(3)).map { _ in classItems[rng.below(classItems.count)] }.joined()
            return "[" + (rng.below(3) == 0 ? "^" : "") + items + "]"
        case 8, 9:
            guard depth > 0 else { return literals[rng.below(literals.count)] }
            return (rng.below(2) == 0 ? "(" : "(?:") + alternation(depth: depth - 1, &rng) + ")"
        case 10: return "^"
        default: return "$"
        }
    }
}
