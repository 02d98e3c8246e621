import Foundation
import Testing
import TagshModel
import TagshRules
@testable import TagshShell
@testable import TagshTerminal
import TagshTestSupport

/// What Tab offers is worked out from counts kept up to date by each step, and from descriptions ranked once:
/// both must say what counting the ledger afresh says.
struct CompletionDataTests {
    /// Every tag's and category's count, as the session keeps it, against a count of the ledger as it is now.
    static func expectCountsMatch(_ s: Session, after command: String, sourceLocation: SourceLocation = #_sourceLocation) {
        _ = s.completionData() // what the prompt does after each command
        guard let ledger = s.ledger, let kept = s.annotationUse else {
            Issue.record("no counts kept after \(command)", sourceLocation: sourceLocation)
            return
        }
        let fresh = AnnotationUse(ledger)
        let tags = ledger.tags.ids.filter { kept.transactions(tag: $0) != fresh.transactions(tag: $0) }
        let cats = ledger.categories.ids.filter { kept.transactions(category: $0) != fresh.transactions(category: $0) }
        #expect(tags.isEmpty && cats.isEmpty && kept.transactions(category: 0) == fresh.transactions(category: 0),
                "after \(command): tags \(tags.map { ledger.tags[$0] }), categories \(cats.map { ledger.categories[$0].name })",
                sourceLocation: sourceLocation)
    }

    @Test func keptCountsFollowEveryStepDoneAndUndone() throws {
        let (dir, path) = try scratchFile("bank.csv", prefix: "tagsh-completion")
        defer { try? FileManager.default.removeItem(at: dir) }
        try "Date,Description,Amount\n2025-03-01,STARBUCKS 1234,-4.75\n2025-03-02,SALARY,3200.00\n"
            .write(toFile: path, atomically: true, encoding: .utf8)
        let export = dir.appendingPathComponent("export.csv").path
        try "Date,Description,Amount\n2025-03-04,ALBERT HEIJN,-23.40\n".write(toFile: export, atomically: true, encoding: .utf8)
        let sink = BufferSink()
        let s = Session(sink: sink)
        s.openDemo()
        let commands = [
            "tag 1-40 +zz-new", "tag 1-10 -coffee", "tag 5 -zz-new +coffee +trip/rome", "category 1-30 Travel",
            "category new Cafes", "category 31-60 Cafes", "category 31 none", "intent 1-9 want", "note 2 hello",
            "rule r1 tag:coffee => +morning -subscription category Food", "rule r2 amt:<-100 => +big", "apply --all",
            "undo", "undo 3", "redo", "redo 3", "category rename Cafes Coffeehouses", "category delete Coffeehouses --reassign Food",
            "undo", "tag all +everything", "undo", "redo", "undo", "apply suggestions --min-confidence 0.9", "undo",
            "redo", "open \(path)", "tag 1 +a +b", "import \(export)", "tag 3 +a", "undo", "undo", "redo", "tag 2 +b",
        ]
        for command in commands {
            sink.reset()
            #expect(s.execute(command) == .ok, "\(command): \(sink.err)")
            Self.expectCountsMatch(s, after: command)
        }
        #expect(s.completionData()?.tags == ["b", "a"])
    }

    /// The names the prompt groups, and the index it builds, for the first suggestion while it waits
    /// (`preparedSuggestions`) are the open ledger's: forgotten when an import adds rows (and names) and when
    /// another file is opened, even one with as many names; the suggestions are those of an index built then,
    /// that groups the names itself.
    @Test func namesGroupedWhileThePromptWaitsAreTheLedgers() throws {
        let (dir, path) = try scratchFile("bank.csv", prefix: "tagsh-prepared")
        defer { try? FileManager.default.removeItem(at: dir) }
        func csv(_ rows: [(String, String)]) -> String {
            "Date,Description,Amount,Category,Tags\n"
                + rows.enumerated().map { "2025-03-\(10 + $0.offset % 9),\($0.element.0),-\($0.offset + 1).00,\($0.element.1),\n" }.joined()
        }
        // Names alike (numbers aside) and sharing words, with categories to suggest from; as many names in each file.
        func names(_ a: String, _ b: String, _ c: String) -> [(String, String)] {
            (1...4).map { ("\(a) \($0)", "Food") } + (1...4).map { ("\(b) \($0)", "Travel") } + [("\(a) \(c)", ""), ("\(c) 1", "")]
        }
        try csv(names("CAFE ROMA", "UBER TRIP", "PARKING")).write(toFile: path, atomically: true, encoding: .utf8)
        let export = dir.appendingPathComponent("export.csv").path
        try csv([("CAFE ROMA 9", "Travel"), ("CAFE ROMA 8", "Travel"), ("TRAIN TRIP 7", "Food"), ("SUN GARAGE", "Travel")])
            .write(toFile: export, atomically: true, encoding: .utf8)
        let other = dir.appendingPathComponent("other.csv").path
        try csv(names("BAKERY SUN", "TRAIN TICKET", "MARKET")).write(toFile: other, atomically: true, encoding: .utf8)
        let s = Session(sink: BufferSink())
        func expectFreshSuggestions(_ step: String) throws {
            let ledger = try #require(s.ledger)
            var fresh = SuggestIndex(ledger: ledger)
            var suggested = 0
            for row in 0..<ledger.count {
                let expected = fresh.suggest(row: row, ledger: ledger, threshold: 0)
                #expect(s.suggestions(row: row, threshold: 0) == expected, "\(step), row \(row + 1)")
                suggested += expected.count
            }
            #expect(suggested > 0, "\(step)")
        }
        #expect(s.execute("open \(path)") == .ok)
        _ = s.completionData()
        #expect(s.preparedSuggestions != nil)
        try expectFreshSuggestions("open")
        #expect(s.execute("open \(other)") == .ok)
        #expect(s.preparedSuggestions == nil)
        _ = s.completionData()
        try expectFreshSuggestions("open another")
        #expect(s.execute("import \(export)") == .ok)
        #expect(s.preparedSuggestions == nil && s.suggestIndex == nil)
        _ = s.completionData()
        try expectFreshSuggestions("import")
        #expect(s.execute("undo") == .ok)
        #expect(s.preparedSuggestions == nil)
        _ = s.completionData()
        try expectFreshSuggestions("undo")
    }

    /// The index the prompt builds while it waits is used only while no transaction has changed since: after a
    /// change, the first suggestion is an index's built then (with the names the prompt grouped), and the prepared
    /// one is let go once taken either way.
    @Test func anIndexPreparedBeforeAChangeIsNotUsed() throws {
        let (dir, path) = try scratchFile("bank.csv", prefix: "tagsh-prepared-index")
        defer { try? FileManager.default.removeItem(at: dir) }
        // A merchant of several rows, all Food: its consistency, which the index sums when it is built, falls when
        // two of them become Travel, and with it the confidence of what is suggested for its row without one.
        let rows = (1...4).map { "2025-03-0\($0),CAFE ROMA,-\($0).00,Food,\n" } + (1...4).map { "2025-03-1\($0),UBER TRIP,-\($0).00,Travel,\n" }
            + ["2025-03-20,CAFE ROMA,-9.00,,\n", "2025-03-21,PARKING 1,-9.00,,\n"]
        try ("Date,Description,Amount,Category,Tags\n" + rows.joined()).write(toFile: path, atomically: true, encoding: .utf8)
        for change in [nil, "category 1-2 Travel"] {
            let s = Session(sink: BufferSink())
            #expect(s.execute("open \(path)") == .ok)
            _ = s.completionData()
            s.waitForPreparedWork()
            #expect(s.preparedSuggestions != nil)
            if let change { #expect(s.execute(change) == .ok) }
            let ledger = try #require(s.ledger)
            var fresh = SuggestIndex(ledger: ledger)
            let expected = fresh.suggest(row: 8, ledger: ledger, threshold: 0)
            #expect(!expected.isEmpty)
            #expect(s.suggestions(row: 8, threshold: 0) == expected, "\(change ?? "unchanged")")
            #expect(s.preparedSuggestions == nil)
        }
    }

    /// Descriptions matched in place: by prefix without case (ASCII by bytes, beyond ASCII by lower-casing),
    /// most used first, ties in the order first read, and none that no transaction has or that is empty.
    @Test func descriptionsMatchByPrefixMostUsedFirst() throws {
        let (dir, path) = try scratchFile("bank.csv", prefix: "tagsh-completion")
        defer { try? FileManager.default.removeItem(at: dir) }
        // Two rows without a description, which is never offered (`desc:""` is not a query).
        let rows = ["STARBUCKS 1", "Stadtwerke", "ÉPICERIE", "starbucks 2", "épicerie fine", "STARBUCKS 1", "ALDI",
                    "Stadtwerke", "STARBUCKS 1", "Éclair", "", ""]
        try ("Date,Description,Amount\n" + rows.map { "2025-03-01,\($0),-1.00\n" }.joined())
            .write(toFile: path, atomically: true, encoding: .utf8)
        let s = Session(sink: BufferSink())
        #expect(s.execute("open \(path)") == .ok)
        let names = try #require(s.completionData()?.merchantNames)
        #expect(names.matching("") == ["STARBUCKS 1", "Stadtwerke", "ÉPICERIE", "starbucks 2", "épicerie fine", "ALDI", "Éclair"])
        #expect(names.matching("st") == ["STARBUCKS 1", "Stadtwerke", "starbucks 2"])
        #expect(names.matching("STARB") == ["STARBUCKS 1", "starbucks 2"])
        #expect(names.matching("é") == ["ÉPICERIE", "épicerie fine", "Éclair"])
        #expect(names.matching("Épi") == ["ÉPICERIE", "épicerie fine"])
        #expect(names.matching("x").isEmpty)
        // The same as ranking and filtering the names as strings, on the demo.
        let demo = Session(sink: BufferSink())
        demo.openDemo()
        let ledger = try #require(demo.ledger)
        var use = [Int](repeating: 0, count: ledger.merchants.count + 1)
        for m in ledger.merchant { use[Int(m)] += 1 }
        let ranked = ledger.merchants.ids.filter { use[Int($0)] > 0 }
            .sorted { (use[Int($0)], $1) > (use[Int($1)], $0) }.map { ledger.merchants[$0] }
        let offered = try #require(demo.completionData()?.merchantNames)
        for prefix in ["", "s", "st", "A", "am", "uber", "q"] {
            #expect(offered.matching(prefix) == ranked.filter { $0.lowercased().hasPrefix(prefix.lowercased()) }, "\(prefix)")
        }
    }

    /// Names are matched within the group of the typed first byte and the group beyond ASCII: the same as
    /// filtering every name as strings, where the case folds or composes across groups (the Kelvin sign, a
    /// decomposed é), from every first byte.
    @Test func descriptionsMatchAcrossFirstByteGroups() {
        let list = ["\u{212A}ELVIN", "kiosk", "Kebab", "e\u{301}cole", "École", "ecole", "İSTANBUL", "istanbul", "Ístria",
                    "ßtrasse", "ss", "123 MAIN", "_under", "[bracket", "{brace}", "\"quoted\"", "a b", "Zeta", "zulu", "日本",
                    "ǅungla", "ǆ", "Ǆ", "\u{1F600} smile", "~tilde", "@at", "ＡＢＣ", "", "abc"]
        let names = MerchantNames(list)
        let typed = ["", "k", "K", "\u{212A}", "e", "é", "e\u{301}", "É", "ec", "i", "İ", "ı", "ß", "s", "ss", "1", "_", "[", "{",
                     "\"", "a", "a ", "z", "Z", "日", "ǆ", "ǅ", "\u{1F600}", "~", "@", "ａ", "ａｂ", "x", "ab", "abc", "abcd"]
        // Every name read as the matching has always read one: ASCII bytes compared folded, else as strings.
        func matches(_ name: String, _ t: String) -> Bool {
            var copy = name
            return copy.withUTF8 { Completer.asciiPrefixMatch($0, Array(t.lowercased().utf8)) } ?? name.lowercased().hasPrefix(t.lowercased())
        }
        for t in typed {
            #expect(names.matching(t) == list.filter { matches($0, t) }, "\(t)")
        }
        #expect(names.matching("k") == ["\u{212A}ELVIN", "kiosk", "Kebab"])
        #expect(names.matching("a") == ["a b", "abc"])
        #expect(MerchantNames([""]).matching("a").isEmpty && MerchantNames([""]).matching("") == [""])
    }

    /// A `desc:` completion's words are made from the names' bytes at once: the same words as quoting each name.
    @Test func descriptionWordsAreQuotedAsNames() {
        let list = ["STARBUCKS 1", "plain", "say \"hi\"", "back\\slash", "semi;colon", "brace{", "café au lait", "tab\there", "o'neil",
                    "$dollar", "(paren)", "日本", "comma,", "`tick`", "Joe\"\u{301}s Bar", "a\\\u{301}b", "Café \"Q\"", ""]
        let completer = Completer(listDirectory: { _ in [] })
        let names = MerchantNames(list)
        for lead in ["", "-", "(", "-("] {
            let head = Array((lead + "desc:").utf8)
            #expect(names.matching("") { completer.quotedWord(head, $0) } == list.map { lead + "desc:" + completer.quoted($0) })
        }
    }

    /// A `desc:` Tab keeps the names matched as ids and writes each word's bytes into one buffer: the bytes of the
    /// words `strings` makes, the same count, and the same common prefix as the words made first. Also through
    /// `Completer.complete`, with many matches (read off the ranking rather than sorted) and few.
    @Test func descriptionWordsReadInPlaceAreTheWordsMade() {
        let list = ["STARBUCKS 1", "plain", "say \"hi\"", "back\\slash", "semi;colon", "café au lait", "tab\there", "o'neil",
                    "日本", "Joe\"\u{301}s Bar", "a\\\u{301}b", "Café \"Q\"", "", "Starbucks 2", "starbucks \"3\""]
        let many = (0..<9_000).map { i in ["CINEMA AMSTERDAM \(i)", "cinema berlin \(i)", "Garden \(i)"][i % 3] }
        for names in [list, many] {
            let table = MerchantNames(names)
            for typed in ["", "s", "st", "STARB", "c", "cinema", "CINEMA AMSTERDAM 1", "é", "x", "g", "ga"] {
                if names == many {
                    // In the order given (the ranking), many matches or few.
                    #expect(table.matching(typed) == many.filter { $0.lowercased().hasPrefix(typed.lowercased()) }, "\(typed)")
                }
                for lead in ["", "-("] {
                    let words = CompletionWords(names: table, ids: table.matchingIDs(typed), head: Array((lead + "desc:").utf8))
                    let made = words.strings
                    #expect(made == table.matching(typed).map { lead + "desc:" + Completer.quoted($0) }, "\(typed)")
                    var read: [[UInt8]] = []
                    words.forEachUTF8 { read.append(Array($0)); return true }
                    #expect(read == made.map { Array($0.utf8) } && words.count == made.count, "\(typed)")
                    #expect(LineEditor.longestCommonPrefix(words) == LineEditor.longestCommonPrefix(made), "\(typed)")
                }
            }
        }
        // Ranked by use, not in the order first read: many matches are read off the ranking in its order.
        var ledger = Ledger()
        func use(_ i: Int) -> Int { 1 + (i * 7) % 5 }
        for (i, name) in many.enumerated() {
            let id = ledger.merchants.intern(name)
            for _ in 0..<use(i) {
                ledger.append(day: Day(year: 2025, month: 1, day: 1)!, merchant: id, amount: Amount(units: -100, scale: 2), currency: 0,
                              account: 0, intent: nil, category: 0, tagSet: 0, note: 0)
            }
        }
        let byUse = MerchantNames(ledger)
        let order = many.indices.sorted { (use($0), $1) > (use($1), $0) }.map { many[$0] }
        for typed in ["", "c", "cinema", "CINEMA AMSTERDAM 1", "g", "garden 77"] {
            #expect(byUse.matching(typed) == order.filter { $0.lowercased().hasPrefix(typed.lowercased()) }, "\(typed)")
        }
        // A `{QUERY}` target's first term completes as a query term does.
        let few = Completer(data: { CompletionData(merchants: ["STARBUCKS 1", "Stadtwerke", "REWE", "say \"hi\""]) }, listDirectory: { _ in [] })
        #expect(few.complete("tag {desc:st").candidates == ["{desc:\"STARBUCKS 1\"", "{desc:Stadtwerke"])
        #expect(few.complete("tag {-desc:sa").candidates == ["{-desc:\"say \\\"hi\\\"\""])
        #expect(few.complete("tag {desc:x").candidates.isEmpty)
        let completer = Completer(data: { CompletionData(merchants: many) }, listDirectory: { _ in [] })
        for text in ["count desc:c", "ls -desc:cin", "count desc:\"CINEMA AMSTERDAM 4", "count merchant:g", "count desc:"] {
            let r = completer.complete(text)
            let typed = String(text.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)[1])
            let expected = many.filter { $0.lowercased().hasPrefix(typed.lowercased().replacingOccurrences(of: "\"", with: "")) }
            #expect(r.words.count == expected.count && r.candidates.count == expected.count && expected.count > 0, "\(text)")
            #expect(r.candidates.first.map { $0.contains(expected[0]) } == true, "\(text)")
        }
    }

    /// A `tag:` or `cat:` Tab makes its words only when they are listed: the bytes `forEachUTF8` writes are those of
    /// the words `strings` makes, which are each value after the term's head, quoted as `Completer.quoted` quotes it
    /// (the special words after the list), with the same count and common prefix.
    @Test func tagAndCategoryWordsReadInPlaceAreTheWordsMade() {
        let tags = ["coffee", "Coffee-bar", "say \"hi\"", "back\\slash", "semi;colon", "café", "Joe\"\u{301}s", "trip/rome", "nonstop"]
        let categories = ["Food", "Gifts, etc", "nope", "Noodles"]
        let completer = Completer(data: { CompletionData(tags: tags, categories: categories) }, listDirectory: { _ in [] })
        for (text, values) in [("count tag:", tags + ["none", "any"]), ("ls -tag:co", ["coffee", "Coffee-bar"]), ("ls (tag:n", ["nonstop", "none"]),
                               ("count tag:\"say", ["say \"hi\""]), ("ls cat:", categories + ["none"]), ("ls cat:no", ["nope", "Noodles", "none"]),
                               ("count tag:x", [])] {
            let word = String(text.split(separator: " ").last!)
            let head = String(word.prefix { $0 != ":" }) + ":"
            let words = completer.complete(text).words
            let made = words.strings
            #expect(made == values.map { head + Completer.quoted($0) }, "\(text)")
            var read: [[UInt8]] = []
            words.forEachUTF8 { read.append(Array($0)); return true }
            #expect(read == made.map { Array($0.utf8) } && words.count == made.count, "\(text)")
            #expect(LineEditor.longestCommonPrefix(words) == LineEditor.characterCommonPrefix(made), "\(text)")
        }
    }

    /// Names sorted by their words (`MerchantNames.WordIndex`) give a Tab what the scan of every name gives: the
    /// same count, the same words most used first, the same common prefix. Names share stems past eight bytes
    /// (each sort pass reads eight) in both cases, hold spaces or quoting characters (a word quotes them),
    /// quotes, backslashes, tabs and bytes beyond ASCII (not sorted, matched apart);
    /// runs sorted by radix (from 500 names here) and by comparison.
    @Test func sortedNamesAreTheScannedNames() throws {
        var g = SplitMix(seed: 7)
        let pieces = ["a", "A", "b", "B", "z", "Z", " ", "-", "0", "9", "'", ",", "(", "_", "~", "[", "`", "!", "\"", "\\", "é", "\t", "K"]
        // The first 18 pieces are those a word holds as they are. Names of the first half of the stems hold only
        // those (their Tabs are answered from the ranges); of the other half, one piece in ten is any.
        func piece(_ any: Bool) -> String { pieces[Int.random(in: 0..<(any && Int.random(in: 0..<10, using: &g) == 0 ? pieces.count : 18), using: &g)] }
        let stems = (0..<40).map { k in (0..<Int.random(in: 0...19, using: &g)).map { _ in piece(k >= 20) }.joined() }
        func name() -> String {
            let k = Int.random(in: 0..<40, using: &g)
            // The stem in another case now and then: the common prefix is spelled as the most used spells it.
            let stem = Int.random(in: 0..<3, using: &g) == 0 ? stems[k].uppercased() : stems[k]
            return stem + (0..<Int.random(in: 0...12, using: &g)).map { _ in piece(k >= 20) }.joined()
        }
        var ledger = Ledger()
        for _ in 0..<30_000 {
            let id = ledger.merchants.intern(name())
            for _ in 0..<Int.random(in: 1...3, using: &g) {
                ledger.append(day: Day(year: 2025, month: 1, day: 1)!, merchant: id, amount: Amount(units: -100, scale: 2), currency: 0,
                              account: 0, intent: nil, category: 0, tagSet: 0, note: 0)
            }
        }
        // Names alike but for case, alone under their prefix: quoted, their words share the closing quote too.
        for name in ["Joe's Cafe", "JOE'S CAFE", "Qx Plain", "qX PLAIN", "qx plain", "Quux", "QUUX", "Zq-1", "zQ-1"] {
            let id = ledger.merchants.intern(name)
            ledger.append(day: Day(year: 2025, month: 1, day: 1)!, merchant: id, amount: Amount(units: -100, scale: 2), currency: 0,
                          account: 0, intent: nil, category: 0, tagSet: 0, note: 0)
        }
        let sorted = MerchantNames(ledger, sorting: .now(radixFrom: 500)), scanned = MerchantNames(ledger, sorting: .never)
        #expect(sorted.isSorted && !scanned.isSorted)
        // Each class is in the order of its names' bytes, ASCII letters folded (names alike but for case in any order).
        do {
            let index = try #require(sorted.matches("").index)
            for ids in [index.plain.ids, index.quoted.ids] {
                var keys: [[UInt8]] = []
                sorted.forEachName(ids) { keys.append($0.map { $0 &- 0x41 < 26 ? $0 | 0x20 : $0 }); return true }
                let apart = zip(keys, keys.dropFirst()).enumerated().first { $0.element.1.lexicographicallyPrecedes($0.element.0) }
                #expect(apart == nil && keys.count > 1_000, "\(keys.count) names, out of order at \(apart?.offset ?? -1)")
            }
        }
        // Typed: prefixes of names, in other cases too, and words no name starts with.
        var typed = ["", "a", "A", "z", "\"", "\\", "é", "\t", "a ", "zzzzzzzzzzzzzzzzzzzz", "K", "k", "\u{212A}", "jo", "JOE'S CAFE", "qx",
                     "Qx plain", "quu", "QUUX", "zq", "ZQ-1"]
        // Every prefix of some names: each sort pass orders eight bytes, and a pass left out shows as a range
        // of some length that is not one.
        for _ in 0..<50 {
            let n = name()
            for length in 1...max(1, min(n.count, 16)) {
                let cut = String(n.prefix(length))
                typed.append(Bool.random(using: &g) ? cut.uppercased() : cut)
            }
        }
        var fromRanges = 0
        for (i, t) in typed.enumerated() {
            for head in i % 5 == 0 ? ["desc:", "-(merchant:"] : ["desc:"] {
                let a = CompletionWords(names: sorted, match: sorted.matches(t), head: Array(head.utf8))
                let b = CompletionWords(names: scanned, match: scanned.matches(t), head: Array(head.utf8))
                #expect(a.count == b.count, "\(t)")
                let (sa, sb) = (a.strings, b.strings)
                guard sa == sb else {
                    let at = zip(sa, sb).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(sa.count, sb.count)
                    Issue.record("\(t): \(sa.count) and \(sb.count) words, first apart at \(at)")
                    continue
                }
                #expect(b.knownCommonPrefix == nil)
                let m = sorted.matches(t)
                if m.others.isEmpty && m.count > 0 { #expect(sorted.mostUsed(m) == sorted.ranked(m).first, "\(t)") }
                #expect(LineEditor.longestCommonPrefix(a) == LineEditor.longestCommonPrefix(b), "\(t)")
                // Read from the ranges whenever only sorted names match (with nothing typed, whenever only sorted
                // names are offered), and there are two or more.
                #expect((a.knownCommonPrefix != nil) == (m.others.isEmpty && m.count == m.plain.count + m.quoted.count && m.count > 1), "\(t)")
                if a.knownCommonPrefix != nil { fromRanges += 1 }
            }
        }
        #expect(fromRanges > 100, "\(fromRanges) of \(typed.count)")
    }

    /// Names sharing a stem of 199,998 bytes (each eight a pass of the sort) are sorted, and a Tab reads them
    /// as the scan does: the sort once recursed a level per eight bytes, and such names overflowed its stack.
    @Test func namesSharingALongStemAreSorted() throws {
        let stem = String(repeating: "AB CD EF ", count: 200_000 / 9)
        let list = (0..<40).map { stem + String(39 - $0) } + ["AB", "ab cd"]
        let sorted = MerchantNames(list, sorting: .now()), scanned = MerchantNames(list, sorting: .never)
        #expect(sorted.isSorted)
        let index = try #require(sorted.matches("").index)
        #expect(index.quoted.ids.count == 41)
        for typed in ["a", "ab cd e", stem + "1", stem.lowercased() + "3"] {
            let a = CompletionWords(names: sorted, match: sorted.matches(typed), head: Array("desc:".utf8))
            let b = CompletionWords(names: scanned, match: scanned.matches(typed), head: Array("desc:".utf8))
            #expect(a.count == b.count && a.strings == b.strings && a.knownCommonPrefix != nil, "\(typed.suffix(3))")
            #expect(LineEditor.longestCommonPrefix(a) == LineEditor.longestCommonPrefix(b), "\(typed.suffix(3))")
        }
    }

    /// The common prefix of Tab's candidates read as bytes, where it can be, is the one read by `Character`;
    /// case folded, the first candidate's spelling kept.
    @Test func commonPrefixAsBytesIsTheCharacterOne() {
        let sets: [[String]] = [
            ["desc:\"CINEMA AMSTERDAM 01", "desc:\"CINEMA AMSTERDAM 02", "desc:\"cinema berlin"],
            ["Starbucks", "STARBUCKS 2", "starbucks"], ["abc"], [], ["abc", "abd", ""], ["ab", "abe\u{301}x"],
            ["abe", "abe\u{301}"], ["abé", "abe"], ["ab\r\n", "ab\r"], ["x\u{212A}", "xk"], ["tag:trip/paris", "tag:trip:lisbon"],
            ["日本", "日本語"], ["a\u{301}", "a"], ["same", "same", "same"], ["Zz", "zZ", "ZZtop"],
        ]
        for set in sets {
            #expect(LineEditor.longestCommonPrefix(set) == LineEditor.characterCommonPrefix(set), "\(set)")
        }
        #expect(LineEditor.asciiCommonPrefix(sets[0]) == "desc:\"CINEMA ")
        #expect(LineEditor.asciiCommonPrefix(sets[1]) == "Starbucks")
        struct Seeded: RandomNumberGenerator {
            var state: UInt64
            mutating func next() -> UInt64 {
                state = state &* 6364136223846793005 &+ 1442695040888963407
                return state ^ (state >> 29)
            }
        }
        var g = Seeded(state: 42)
        let alphabet = ["a", "A", "b", "B", " ", "\"", "e\u{301}", "é", "\u{212A}", "k", "ß"]
        for _ in 0..<300 {
            let stem = (0..<Int.random(in: 0...4, using: &g)).map { _ in alphabet.randomElement(using: &g)! }.joined()
            let set = (0..<Int.random(in: 1...5, using: &g)).map { _ in
                stem + (0..<Int.random(in: 0...3, using: &g)).map { _ in alphabet.randomElement(using: &g)! }.joined()
            }
            #expect(LineEditor.longestCommonPrefix(set) == LineEditor.characterCommonPrefix(set), "\(set)")
        }
    }
}

/// The shell's completion words are what the line editor reads, as in `tagsh`.
extension CompletionWords: CompletionCandidates {}
