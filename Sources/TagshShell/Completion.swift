import TagshModel
import TagshQuery
import TagshRules

/// What completion offers from the open ledger, most used first. Built once
/// per change to the ledger (see `Session.completionData`).
public struct CompletionData: Sendable {
    public var tags: [String] = []
    public var categories: [String] = []
    public var customCategories: [String] = []
    /// The descriptions, most used first, as names matched in place (see `MerchantNames`).
    public var merchantNames = MerchantNames()
    public var ruleNames: [String] = []
    /// The tags the transactions of a TARGET word carry, most used first (nil: not a target).
    public var tagsOfTarget: @Sendable (String) -> [String]? = { _ in nil }

    public init(tags: [String] = [], categories: [String] = [], customCategories: [String] = [], merchants: [String] = [],
                ruleNames: [String] = [], tagsOfTarget: @escaping @Sendable (String) -> [String]? = { _ in nil }) {
        self.tags = tags
        self.categories = categories
        self.customCategories = customCategories
        self.merchantNames = MerchantNames(merchants)
        self.ruleNames = ruleNames
        self.tagsOfTarget = tagsOfTarget
    }

    /// Every description, most used first.
    public var merchants: [String] { merchantNames.matching("") }
}

/// Where the word being typed falls in a command's grammar.
enum Grammar {
    struct Expected {
        var parameter: Command.Parameter
        /// The word the form's TARGET took (for `-tag`, the tags that target has).
        var target: String?
        /// The word before this one (a setting's name, for its value).
        var previous: String?
    }

    /// The parameters a form allows after `words`, for the word that comes next.
    static func expected(_ form: [Command.Parameter], words: [String]) -> [Expected] {
        match(form, 0, words, 0, target: nil)
    }

    private static func match(_ ps: [Command.Parameter], _ p: Int, _ words: [String], _ w: Int, target: String?) -> [Expected] {
        guard p < ps.count else { return [] }
        let param = ps[p]
        let previous = w > 0 ? words[w - 1] : nil
        if case .optional(let inner) = param {
            return match(inner + ps[(p + 1)...], 0, words, w, target: target) + match(ps, p + 1, words, w, target: target)
        }
        if param.isGreedy {
            let stop = firstKeyword(ps[(p + 1)...])
            var end = w
            while end < words.count && words[end].lowercased() != stop { end += 1 }
            // Rule names are names: after `preview tag:none => category`, the word is no rule name's.
            if case .rule = param, !words[w..<end].allSatisfy(RuleParser.validName) { return [] }
            if end == words.count {
                return [Expected(parameter: param, target: target, previous: previous)] + match(ps, p + 1, words, end, target: target)
            }
            return match(ps, p + 1, words, end, target: target)
        }
        if w == words.count { return [Expected(parameter: param, target: target, previous: previous)] }
        if case .keyword(let k) = param, words[w].lowercased() != k { return [] }
        if case .choice(let options) = param, !options.contains(words[w].lowercased()) { return [] }
        // A TARGET is an id, ids and ranges, @ or all: `delete` is not one, so `category delete` is the other form.
        if param == .target, !looksLikeTarget(words[w]) { return [] }
        return match(ps, p + 1, words, w + 1, target: param == .target ? words[w] : target)
    }

    static func looksLikeTarget(_ word: String) -> Bool {
        word == "@" || word.lowercased() == "all" || word.first?.isNumber == true || word.hasPrefix("{")
    }

    /// Whether a form takes exactly these words (optional parts left out, greedy parts taking any number).
    static func accepts(_ form: [Command.Parameter], words: [String]) -> Bool {
        accepts(form[...], words[...])
    }

    private static func accepts(_ ps: ArraySlice<Command.Parameter>, _ words: ArraySlice<String>) -> Bool {
        guard let param = ps.first else { return words.isEmpty }
        let rest = ps.dropFirst()
        if case .optional(let inner) = param {
            return accepts(ArraySlice(inner + rest), words) || accepts(rest, words)
        }
        if param.isGreedy {
            let end = firstKeyword(rest).flatMap { stop in words.firstIndex { $0.lowercased() == stop } } ?? words.endIndex
            if case .rule = param, !words[..<end].allSatisfy(RuleParser.validName) { return false }
            return accepts(rest, words[end...])
        }
        guard let word = words.first else { return false }
        if case .keyword(let k) = param, word.lowercased() != k { return false }
        if case .choice(let options) = param, !options.contains(word.lowercased()) { return false }
        if param == .target && !looksLikeTarget(word) { return false }
        if case .rule = param, !RuleParser.validName(word) { return false }
        return accepts(rest, words.dropFirst())
    }

    /// The first fixed word among parameters (inside optional ones too): where a greedy one stops.
    private static func firstKeyword(_ ps: ArraySlice<Command.Parameter>) -> String? {
        for p in ps {
            switch p {
            case .keyword(let k): return k
            case .optional(let inner): if let k = firstKeyword(inner[...]) { return k }
            default: continue
            }
        }
        return nil
    }
}

/// The words a completion offers: a list, or descriptions matched in place and made into words (`desc:NAME`)
/// only when they are listed. A Tab reads how many there are and their bytes for the common prefix: a `desc:` Tab
/// on a million descriptions may match half a million, and making a `String` of each was most of its time.
public struct CompletionWords: Sendable {
    enum Source: Sendable {
        case list([String])
        /// The names a prefix matched, each after `head`, quoted as `Completer.quotedWord` quotes them.
        case names(MerchantNames, MerchantNames.Match, head: [UInt8])
        /// Each of a list after `head`, quoted so: `tag:` and `cat:` values (on the 1M `wide` shape, `count tag:`
        /// and Tab offered 49,000 tags, and making a `String` of each was the Tab's 5-8 ms).
        /// (Lists in turn, not joined: a copy of 49,000 names, each retained, cost a tenth of the Tab.)
        case headed([[String]], head: [UInt8])
    }
    var source: Source

    init(_ list: [String]) { source = .list(list) }
    init(names: MerchantNames, match: MerchantNames.Match, head: [UInt8]) { source = .names(names, match, head: head) }
    /// Names already most used first.
    init(names: MerchantNames, ids: [UInt32], head: [UInt8]) { source = .names(names, MerchantNames.match(rankedIDs: ids), head: head) }
    init(_ lists: [[String]], head: [UInt8]) { source = .headed(lists, head: head) }

    public var count: Int {
        switch source {
        case .list(let l): l.count
        case .names(_, let match, _): match.count
        case .headed(let lists, _): lists.reduce(0) { $0 + $1.count }
        }
    }

    /// The words' common prefix as `LineEditor.longestCommonPrefix` reads it, when the names' sorted ranges
    /// tell it without reading each word (`MerchantNames.commonWordPrefix`).
    public var knownCommonPrefix: String? {
        guard case .names(let names, let match, let head) = source else { return nil }
        return names.commonWordPrefix(match, head: head)
    }

    /// The words, best first.
    public var strings: [String] {
        switch source {
        case .list(let l): return l
        case .names(let names, let match, let head):
            let ids = names.ranked(match)
            var out: [String] = []
            out.reserveCapacity(ids.count)
            names.forEachName(ids) { out.append(Completer.quotedWord(head, $0)); return true }
            return out
        case .headed(let lists, let head):
            return lists.flatMap { l in
                l.map { name in
                    var name = name
                    return name.withUTF8 { Completer.quotedWord(head, $0) }
                }
            }
        }
    }

    /// Calls `body` with each word's UTF-8, best first, until it returns false; a word of a name is written into
    /// one buffer, not made a `String`.
    public func forEachUTF8(_ body: (UnsafeBufferPointer<UInt8>) -> Bool) {
        switch source {
        case .list(let l):
            for s in l {
                var copy = s
                guard copy.withUTF8(body) else { return }
            }
        case .names(let names, let match, let head):
            let ids = names.ranked(match)
            var buffer = [UInt8](repeating: 0, count: 256)
            names.forEachName(ids) { name in CompletionWords.word(head, name, &buffer, body) }
        case .headed(let lists, let head):
            var buffer = [UInt8](repeating: 0, count: 256)
            for l in lists {
                for s in l {
                    var name = s
                    guard name.withUTF8({ CompletionWords.word(head, $0, &buffer, body) }) else { return }
                }
            }
        }
    }

    /// `body` of the word `head` and `name` make, written into `buffer` (grown when it is short) unless only
    /// `Completer.quoted` can quote the name.
    private static func word(_ head: [UInt8], _ name: UnsafeBufferPointer<UInt8>, _ buffer: inout [UInt8],
                             _ body: (UnsafeBufferPointer<UInt8>) -> Bool) -> Bool {
        guard let size = Completer.plainWordSize(head, name) else {
            var word = Completer.quotedWord(head, name)
            return word.withUTF8(body)
        }
        if buffer.count < size { buffer = [UInt8](repeating: 0, count: size * 2) }
        return buffer.withUnsafeMutableBufferPointer { out in
            let n = Completer.writeWord(head, name, into: out)
            return body(UnsafeBufferPointer(rebasing: out[..<n]))
        }
    }
}

/// Tab completion as a pure function: the text before the cursor in, the
/// candidates for the word being typed out. The libedit glue only inserts.
public struct Completer {
    /// Lists a folder's entries (name, is a folder); injected so tests need no disk.
    public var listDirectory: (String) -> [(name: String, isDirectory: Bool)]
    /// The ledger's names; nil when no ledger is open.
    public var data: () -> CompletionData?
    let registry: CommandRegistry

    public init(registry: CommandRegistry = .standard, data: @escaping () -> CompletionData? = { nil },
                listDirectory: @escaping (String) -> [(name: String, isDirectory: Bool)]) {
        self.registry = registry
        self.data = data
        self.listDirectory = listDirectory
    }

    public struct Result: Equatable, Sendable {
        /// Characters before the cursor that the candidates replace.
        public var replacing: Int
        /// The candidates, as a Tab reads them (their texts made only when asked).
        public var words: CompletionWords
        /// The candidates' texts.
        public var candidates: [String] { words.strings }

        init(replacing: Int, candidates: [String]) { (self.replacing, words) = (replacing, CompletionWords(candidates)) }
        init(replacing: Int, words: CompletionWords) { (self.replacing, self.words) = (replacing, words) }

        public static func == (a: Result, b: Result) -> Bool { a.replacing == b.replacing && a.candidates == b.candidates }
    }

    public func complete(_ textBeforeCursor: String) -> Result {
        let (before, current) = Completer.split(textBeforeCursor)
        let words = (try? Lexer.words(in: before)) ?? []
        func offer(_ c: [String]) -> Result { Result(replacing: current.count, candidates: c) }
        func offer(_ c: CompletionWords) -> Result { Result(replacing: current.count, words: c) }
        if words.isEmpty { return offer(matching(current, registry.commands.map(\.name).sorted())) }
        guard let command = registry.command(named: words[0].text) else { return Result(replacing: 0, candidates: []) }
        let args = Array(words.dropFirst()).map(\.text)
        let d = data() ?? CompletionData()

        // An option's value, as the option declares it; then the options themselves.
        if let last = args.last, let option = command.options.first(where: { "--" + $0.name == last }) {
            switch option.value {
            case .flag: break
            case .choice(let words): return offer(matching(current, words))
            case .category: return offer(matching(unquote(current), d.categories + ["none"]).map(quoted))
            case .color: return offer(matching(current, Color.NamedColor.allCases.map(\.rawValue)))
            case .dateFormat: return offer(matching(current, ["%Y-%m-%d", "%m/%d/%Y", "%d/%m/%Y", "%d.%m.%Y"]))
            case .integer, .text: return offer([])
            }
        }
        // The words the command's forms expect here, derived from its declaration.
        var positional: [String] = []
        var skipValue = false
        for a in args {
            if skipValue { skipValue = false; continue }
            if a.hasPrefix("--"), let o = command.options.first(where: { "--" + $0.name == a }) {
                skipValue = o.value != .flag
                continue
            }
            positional.append(a)
        }
        // The options of the form begun (`category new X --` offers --color and --icon, not --reassign).
        if current.hasPrefix("--") { return offer(matching(current, command.options(forFirstWord: positional.first).map { "--" + $0.name })) }
        var found = CompletionWords([])
        var seen = Set<String>()
        let expected = command.forms.flatMap { Grammar.expected($0, words: positional) }
        let wantsRuleName = expected.contains { if case .rule = $0.parameter { true } else { false } }
        // Where a rule name fits too, a word without `:` is a rule name, not a query term.
        let ruleNameHere = wantsRuleName && !current.contains(":") && !current.hasPrefix("-") && !current.hasPrefix("(")
        for e in expected {
            var c: [String]
            // Descriptions are kept as names until they are listed.
            if case .query = e.parameter, !ruleNameHere, let words = descriptionWords(current, d) ?? listedTermWords(current, d) {
                if found.count == 0 { found = words; continue }
                c = words.strings
            } else {
                switch e.parameter {
                case .keyword(let k): c = current.isEmpty ? [] : matching(current, [k])
                case .target:
                    // `{QUERY}`: the query's first term completes as a query term does.
                    c = current.hasPrefix("{") ? queryTerm(String(current.dropFirst()), d).map { "{" + $0 } : []
                case .actions: c = actionWord(current, after: positional, d)
                case .value, .rest, .optional: c = []
                case .tagEdits:
                    if current.hasPrefix("+") {
                        c = matching(String(current.dropFirst()), d.tags, lead: "+")
                    } else if current.hasPrefix("-") {
                        c = matching(String(current.dropFirst()), e.target.flatMap(d.tagsOfTarget) ?? [], lead: "-")
                    } else {
                        c = []
                    }
                case .query:
                    // (A query in braces is a query too: `count {tag:coffee}`.)
                    c = ruleNameHere ? [] : current.hasPrefix("{") ? queryTerm(String(current.dropFirst()), d).map { "{" + $0 } : queryTerm(current, d)
                case .rule: c = matching(current, d.ruleNames)
                case .category(let orNone, let customOnly):
                    c = matching(unquote(current), customOnly ? d.customCategories : d.categories)
                    if orNone { c += matching(unquote(current), ["none"]) }
                    c = c.map(quoted)
                case .tag: c = matching(current, d.tags)
                case .choice(let words): c = matching(current, words)
                case .file, .files: c = paths(current)
                case .command: c = matching(current, (registry.commands.map(\.name) + ["query"]).sorted())
                case .setting: c = matching(current, Settings.names)
                case .settingValue:
                    switch e.previous {
                    case "color": c = matching(current, Settings.ColorMode.allCases.map(\.rawValue))
                    case "width": c = matching(current, ["auto"])
                    case "pager": c = matching(current, ["on", "off"])
                    default: c = []
                    }
                }
            }
            // Forms can offer the same word twice; a set keeps this linear for 100,000 tags.
            if found.count == 0 {
                found = CompletionWords(c)
            } else if !c.isEmpty {
                var list = found.strings
                if seen.isEmpty { seen = Set(list) }
                for x in c where seen.insert(x).inserted { list.append(x) }
                found = CompletionWords(list)
            }
        }
        return offer(found)
    }

    /// The intents, then none: what an intent's value may be, in a query or a rule.
    static let intentWords = Intent.allCases.map(\.description) + ["none"]

    /// A rule's action being typed after `=>` (`words`: the positional words before it): at an action's start its
    /// names, `+` and `-` every tag (a rule has no target whose tags `-` could offer), after `category` the
    /// categories or none, after `intent` the intents or none; nothing inside a note, nor once an action has its
    /// value (a comma starts the next). Before, Tab offered nothing anywhere after `=>`.
    func actionWord(_ current: String, after words: [String], _ d: CompletionData) -> [String] {
        guard let arrow = words.firstIndex(of: "=>") else { return [] }
        var action: [String] = []
        for w in words[(arrow + 1)...] {
            if w.hasSuffix(",") { action = [] } else { action.append(w) }
        }
        // (A comma inside quotes is part of a name: `"Gifts, etc`.)
        if current.hasSuffix(","), !current.hasPrefix("\""), !current.hasPrefix("'") { return [] }
        // Tags may come several to an action, and before its name (`+a -b category Food`), as the parser reads them.
        let named = action.drop { $0.hasPrefix("+") || $0.hasPrefix("-") }
        switch named.first?.lowercased() {
        case nil:
            if current.hasPrefix("+") { return matching(String(current.dropFirst()), d.tags, lead: "+") }
            if current.hasPrefix("-") { return matching(String(current.dropFirst()), d.tags, lead: "-") }
            return matching(current, ["category", "intent", "note"])
        case "category" where named.count == 1:
            return (matching(unquote(current), d.categories) + matching(unquote(current), ["none"])).map(quoted)
        case "intent" where named.count == 1:
            return matching(current, Completer.intentWords)
        default:
            return []
        }
    }

    /// A `desc:` or `merchant:` term's completions as names matched in place (nil for any other word).
    func descriptionWords(_ word: String, _ d: CompletionData) -> CompletionWords? {
        guard let (lead, key, value) = Completer.termParts(word), key == "desc" || key == "merchant" else { return nil }
        return CompletionWords(names: d.merchantNames, match: d.merchantNames.matches(unquote(value)), head: Array((lead + key + ":").utf8))
    }

    /// A query term's lead (`-`, `(`), its key lower-cased, and its value as typed; nil without a `:`.
    static func termParts(_ word: String) -> (lead: String, key: String, value: String)? {
        var term = Substring(word)
        var lead = ""
        while let f = term.first, f == "-" || f == "(" { lead.append(f); term = term.dropFirst() }
        guard let colon = term.firstIndex(of: ":") else { return nil }
        return (lead, term[..<colon].lowercased(), String(term[term.index(after: colon)...]))
    }

    /// Completes one query term: keys (`da` → `date:`), then values after
    /// `tag:`, `cat:`, `intent:`, `desc:`/`merchant:`; a leading `-` is kept.
    func queryTerm(_ word: String, _ d: CompletionData) -> [String] {
        guard let (lead, key, typed) = Completer.termParts(word) else {
            let lead = String(word.prefix { $0 == "-" || $0 == "(" })
            return matching(String(word.dropFirst(lead.count)), QueryParser.keys.map { $0 + ":" }).map { lead + $0 }
        }
        switch key {
        case "tag", "cat": return listedTermWords(word, d)?.strings ?? []
        case "intent": return matching(unquote(typed), Completer.intentWords).map { lead + key + ":" + quoted($0) }
        case "desc", "merchant": return descriptionWords(word, d)?.strings ?? []
        default: return []
        }
    }

    /// A `tag:` or `cat:` term's completions, made into words only when they are listed (nil for any other word).
    /// Large lists are matched as they are (no copy); the few special words are matched apart.
    func listedTermWords(_ word: String, _ d: CompletionData) -> CompletionWords? {
        guard let (lead, key, typed) = Completer.termParts(word), key == "tag" || key == "cat" else { return nil }
        let value = unquote(typed)
        let found = key == "tag" ? [matching(value, d.tags), matching(value, ["none", "any"])]
            : [matching(value, d.categories), matching(value, ["none"])]
        return CompletionWords(found, head: Array((lead + key + ":").utf8))
    }

    /// Candidates that start with `typed`, ignoring case, in the given order.
    func matching(_ typed: String, _ candidates: [String]) -> [String] {
        if typed.isEmpty { return candidates }
        let t = typed.lowercased()
        let tBytes = Array(t.utf8)
        return candidates.filter { Completer.hasPrefixIgnoringCase($0, t, tBytes) }
    }

    /// `lead` and each candidate that starts with `typed`, in one pass (no list of
    /// the matches first: with 100,000 tags, every one may match `+t`).
    func matching(_ typed: String, _ candidates: [String], lead: String) -> [String] {
        let t = typed.lowercased()
        let tBytes = Array(t.utf8)
        let leadBytes = Array(lead.utf8)
        var out: [String] = []
        if typed.count <= 1 { out.reserveCapacity(candidates.count) }
        for c in candidates {
            // One look at the name's bytes both tests it and builds the word, made at once from the bytes (with
            // 100,000 tags every one may match `+t`, and appending to a String was most of the Tab).
            let word: String?? = c.utf8.withContiguousStorageIfAvailable { name -> String? in
                switch Completer.asciiPrefixMatch(name, tBytes) {
                case false?: return nil
                case nil: return c.lowercased().hasPrefix(t) ? lead + c : nil
                case true?: break
                }
                return String(unsafeUninitializedCapacity: leadBytes.count + name.count) { buffer in
                    var at = 0
                    for b in leadBytes { buffer[at] = b; at += 1 }
                    for b in name { buffer[at] = b; at += 1 }
                    return at
                }
            }
            if let known = word {
                if let w = known { out.append(w) }
            } else if Completer.hasPrefixIgnoringCase(c, t, tBytes) {
                out.append(lead + c)
            }
        }
        return out
    }

    /// Case-insensitive prefix test without allocating for ASCII names (the
    /// common case: 100,000 tags are filtered on every Tab).
    static func hasPrefixIgnoringCase(_ s: String, _ lowerPrefix: String, _ prefixBytes: [UInt8]) -> Bool {
        if let known = s.utf8.withContiguousStorageIfAvailable({ asciiPrefixMatch($0, prefixBytes) }), let known { return known }
        return s.lowercased().hasPrefix(lowerPrefix)
    }

    /// Whether `name` starts with the lower-case `prefix`, ASCII letters compared without case; nil when a
    /// byte beyond ASCII comes before the answer (then only a Unicode lower-casing can tell).
    static func asciiPrefixMatch(_ name: UnsafeBufferPointer<UInt8>, _ prefix: [UInt8]) -> Bool? {
        for i in prefix.indices {
            guard i < name.count else { return false }
            let b = name[i]
            if b >= 0x80 || prefix[i] >= 0x80 { return nil }
            if (b >= 0x41 && b <= 0x5A ? b + 0x20 : b) != prefix[i] { return false }
        }
        return true
    }

    /// A name as it must be typed: double-quoted when it holds spaces or quoting characters.
    func quoted(_ name: String) -> String { Completer.quoted(name) }

    static func quoted(_ name: String) -> String {
        // The characters that need quoting are ASCII: test the UTF-8 (this runs for every value offered).
        if !name.isEmpty, !name.utf8.contains(where: { Completer.needsQuoting[Int($0)] }) { return name }
        return "\"" + name.replacingAll("\\", with: "\\\\").replacingAll("\"", with: "\\\"") + "\""
    }

    /// `head` then `name` as `quoted` writes it, made from the bytes at once. (`quoted` escapes a quote or a
    /// backslash that is a character of its own: one a combining mark follows is not, so a name beyond ASCII
    /// that holds either goes through `quoted`.)
    static func quotedWord(_ head: [UInt8], _ name: UnsafeBufferPointer<UInt8>) -> String {
        guard let size = plainWordSize(head, name) else { return String(decoding: head, as: UTF8.self) + quoted(String(decoding: name, as: UTF8.self)) }
        return String(unsafeUninitializedCapacity: size) { writeWord(head, name, into: $0) }
    }

    func quotedWord(_ head: [UInt8], _ name: UnsafeBufferPointer<UInt8>) -> String { Completer.quotedWord(head, name) }

    /// The most bytes `writeWord` writes for `name`; nil for a name beyond ASCII that holds a quote or a backslash,
    /// which only `quoted` can quote.
    static func plainWordSize(_ head: [UInt8], _ name: UnsafeBufferPointer<UInt8>) -> Int? {
        if name.contains(where: { $0 >= 0x80 }) && name.contains(where: { $0 == 0x22 || $0 == 0x5C }) { return nil }
        return head.count + name.count * 2 + 2
    }

    /// Writes `head` then `name` as `quoted` writes it into `out` (of `plainWordSize` bytes); how many it wrote.
    static func writeWord(_ head: [UInt8], _ name: UnsafeBufferPointer<UInt8>, into out: UnsafeMutableBufferPointer<UInt8>) -> Int {
        let plain = !name.isEmpty && !name.contains { Completer.needsQuoting[Int($0)] }
        var n = 0
        for b in head { out[n] = b; n += 1 }
        if plain {
            for b in name { out[n] = b; n += 1 }
            return n
        }
        out[n] = 0x22; n += 1
        for b in name {
            if b == 0x5C || b == 0x22 { out[n] = 0x5C; n += 1 }
            out[n] = b; n += 1
        }
        out[n] = 0x22; n += 1
        return n
    }

    /// The bytes of `" \t'\"\\$`,;(){}"`, by value (a brace in a word of its own would be a `{QUERY}`).
    static let needsQuoting: [Bool] = {
        var table = [Bool](repeating: false, count: 256)
        for b in " \t'\"\\$`,;(){}".utf8 { table[Int(b)] = true }
        return table
    }()

    /// The typed part of a value as the lexer reads it (`Lexer.words`): quotes taken away, and the backslash
    /// escapes completion itself writes (`\"`, `\\`, `\ `) undone; an unfinished quote or escape at the end is
    /// what is being typed.
    func unquote(_ s: String) -> String {
        var out = ""
        var quote: Character?
        let chars = Array(s)
        var i = 0
        while i < chars.count {
            let c = chars[i]
            if let q = quote {
                if c == q {
                    quote = nil
                } else if q == "\"" && c == "\\" && i + 1 < chars.count && "\"\\$`".contains(chars[i + 1]) {
                    out.append(chars[i + 1])
                    i += 1
                } else if !(q == "\"" && c == "\\" && i + 1 == chars.count) {
                    out.append(c)
                }
            } else if c == "\"" || c == "'" {
                quote = c
            } else if c == "\\" {
                if i + 1 < chars.count { out.append(chars[i + 1]) }
                i += 1
            } else {
                out.append(c)
            }
            i += 1
        }
        return out
    }

    /// Splits the text before the cursor into what comes before the current
    /// word and the word itself; spaces inside quotes do not end a word.
    static func split(_ text: String) -> (before: String, current: String) {
        var quote: Character?
        var start = text.startIndex
        var i = text.startIndex
        while i < text.endIndex {
            let c = text[i]
            if let q = quote {
                if c == q {
                    quote = nil
                } else if q == "\"" && c == "\\" {
                    // `\"` inside double quotes does not end them.
                    i = text.index(after: i)
                    if i == text.endIndex { break }
                }
            } else if c == "\"" || c == "'" {
                quote = c
            } else if c == "\\" {
                i = text.index(after: i)
                if i == text.endIndex { break }
            } else if c == " " || c == "\t" {
                start = text.index(after: i)
            }
            i = text.index(after: i)
        }
        return (String(text[..<start]), String(text[start...]))
    }

    /// File and folder names completing a path; folders end with `/`.
    func paths(_ typed: String) -> [String] {
        let folder: String, prefix: String
        if let slash = typed.lastIndex(of: "/") {
            folder = String(typed[...slash])
            prefix = String(typed[typed.index(after: slash)...])
        } else {
            folder = ""
            prefix = typed
        }
        let entries = listDirectory(folder.isEmpty ? "." : folder)
            .filter { !$0.name.hasPrefix(".") || prefix.hasPrefix(".") }
            .filter { $0.name.lowercased().hasPrefix(prefix.lowercased()) }
            .sorted { $0.name < $1.name }
        return entries.map { folder + $0.name + ($0.isDirectory ? "/" : "") }
    }
}

extension Session {
    /// Forgets what completion counted from the rows (`merchantNames`, `annotationUse`): rows came or went, or
    /// another ledger (or its earlier sessions' steps) was read.
    func forgetCompletionCounts() {
        merchantNames = nil
        annotationUse = nil
    }

    /// Waits for what `completionData` started on another thread: the names sorted for Tab, and grouped and
    /// indexed for the first suggestion (for the benchmark, which times what comes after).
    public func waitForPreparedWork() {
        merchantNames?.waitUntilSorted()
        _ = preparedSuggestions?.value
    }

    /// The names completion offers, most used first; rebuilt only after a change.
    public func completionData() -> CompletionData? {
        guard let ledger else { return nil }
        if let cache = completionCache, cache.generation == generation { return cache.data }
        let use = annotationUse ?? AnnotationUse(ledger)
        annotationUse = use
        let tagOrder = ledger.tags.ids.filter { use.transactions(tag: $0) > 0 }
            .sorted { use.transactions(tag: $0) > use.transactions(tag: $1) }
        let tagNames = tagOrder.map { ledger.tags[$0] }
        let cats = ledger.categories.liveIDs.sorted { use.transactions(category: $0) > use.transactions(category: $1) }
        let merchants = merchantNames ?? MerchantNames(ledger)
        merchantNames = merchants
        // While the prompt waits, the names are grouped, and the transactions indexed, for the first suggestion
        // too (on another thread: on a million rows, building the index was a quarter of `wide`'s first `suggest`
        // and nearly all of the generated ledger's). The thread holds the ledger as it is now until the index is
        // built: a change made meanwhile copies the columns it writes.
        if suggestIndex == nil && preparedSuggestions == nil {
            let snapshot = ledger, version = ledgerVersion
            preparedSuggestions = Pending {
                let groups = NameGroups(snapshot.merchants)
                var index = SuggestIndex(ledger: snapshot, nameGroups: groups)
                index.countLargeGroups(ledger: snapshot)
                return PreparedSuggestions(nameGroups: groups, index: index, ledgerVersion: version)
            }
        }
        let rank = Dictionary(uniqueKeysWithValues: tagOrder.enumerated().map { ($1, $0) })
        let sets = ledger.tagSets, tagSetColumn = ledger.tagSet, tags = ledger.tags, selection = self.selection
        let count = ledger.count
        var data = CompletionData(
            tags: tagNames,
            categories: cats.map { ledger.categories[$0].name },
            customCategories: cats.filter { !ledger.categories[$0].isDefault }.map { ledger.categories[$0].name },
            ruleNames: rules.map(\.name),
            tagsOfTarget: { target in
                guard case .success(let rows) = TargetSyntax.rows(target, count: count, selection: selection) else { return nil }
                var present = Set<UInt32>()
                var seenSets = Set<UInt32>()
                for row in rows where seenSets.insert(tagSetColumn[row]).inserted { present.formUnion(sets[tagSetColumn[row]]) }
                return present.sorted { (rank[$0] ?? .max) < (rank[$1] ?? .max) }.map { tags[$0] }
            })
        data.merchantNames = merchants
        completionCache = (generation, data)
        return data
    }
}
