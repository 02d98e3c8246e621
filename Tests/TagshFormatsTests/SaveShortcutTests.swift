import Testing
import TagshModel
@testable import TagshFormats
import TagshTestSupport

/// A journal block whose change only adds tags, an intent or a note is rewritten on its bytes
/// (`JournalWriter.addingOnly`); whatever it gives must be what the long way (`JournalWriter.rewrite`, on `String`
/// lines) gives the same block.
struct SaveShortcutTests {
    /// Descriptions, some with non-ASCII beside where a comment starts.
    static let descriptions = ["COFFEE SHOP", "Café Zoë", "Cafe\u{301} NOIR", "RENT", "Zoë", "e\u{301}", "BÄCKEREI MÜLLER", "\u{600}X"]
    /// Header comments (after the description) and comment lines (after the indent), as the tests' files spell them.
    static let comments = ["; coffee:", "; :a:b:", "; trip: paris, food:", "; Note: paid back", "; intent: want", "; intent: maybe",
                           "; just words", "# hash comment", "; gift:, work:", "; note: a, b, c", "; Intent: Need", ";coffee:",
                           "; food:  ;  x", "; é: x", ";\u{301} gift:", "; gift: ü", "; :trip:"]
    static let tagNames = ["coffee", "gift", "trip:paris", "a", "b", "food", "work", "Trip", "é:x", "new/one"]
    static let notes = ["paid back", "split with Ana", "a, b, c", "Zoë's"]

    static func block(_ r: inout SplitMix, eol: String) -> String {
        var lines: [String] = []
        var header = "2024-0\(1 + r.below(9))-1\(r.below(10))" + (r.chance(50) ? " * " : " ") + r.pick(descriptions)
        if r.chance(50) { header += r.pick(["  ", " ", "\t", ""]) + r.pick(comments) }
        lines.append(header)
        for _ in 0..<r.pick([0, 0, 1, 2]) { lines.append(r.pick(["    ", "  ", "\t", " \t"]) + r.pick(comments)) }
        let indent = r.pick(["    ", "  ", "\t"])
        // Now and then a combining mark right after the indent, which a `Character` walk takes with the space.
        lines.append(indent + (r.chance(3) ? "\u{301}" : "") + "Expenses:Food" + "  " + "\(1 + r.below(90)).\(10 + r.below(90)) EUR" + (r.chance(20) ? "  ; posting: note" : ""))
        if r.chance(20) { lines.append(indent + "    ; under the posting") }
        lines.append(indent + "Assets:Checking")
        // Lines that end both ways, now and then (a file edited on two systems).
        return lines.enumerated().map { i, l in l + (r.chance(3) ? (eol == "\n" ? "\r\n" : "\n") : eol) }.joined()
    }

    /// Each row mostly keeps its tags and gains one more (`tagChance` percent); now and then one is taken off, or the
    /// row gets a new intent or note.
    static func change(_ ledger: inout Ledger, _ r: inout SplitMix, adding names: [String], tagChance: Int, intentChance: Int, noteChance: Int) {
        for row in 0..<ledger.count {
            var tags = ledger.tagNames(row)
            if r.chance(tagChance) { tags.append(r.pick(names)) }
            if r.chance(10), !tags.isEmpty { tags.remove(at: r.below(tags.count)) }
            ledger.tagSet[row] = ledger.internTagSet(tags)
            if r.chance(intentChance) { ledger.intent[row] = UInt8(r.below(5)) }
            if r.chance(noteChance) { ledger.note[row] = r.chance(20) ? 0 : ledger.notes.intern(r.pick(notes)) }
        }
    }

    @Test(arguments: ["\n", "\r\n"], [TagStyle.hledger, .ledger])
    func theShortcutWritesWhatTheLongWayWrites(_ eol: String, _ style: TagStyle) throws {
        var r = SplitMix(seed: eol == "\n" ? 7 : 11)
        let prologue = "account Expenses:Food" + eol + "account Assets:Checking" + eol + eol
        let blocks = (0..<3_000).map { _ in Self.block(&r, eol: eol) }
        let bytes = Array((prologue + blocks.joined(separator: eol)).utf8)
        let loaded = try LedgerDocument.read(bytes, fileName: "s.journal", format: .journal, options: ReadOptions())
        guard case .text(var layout) = loaded.document.layout else { Issue.record("not a text layout"); return }
        layout.tagStyle = style
        var ledger = loaded.ledger
        #expect(ledger.count == blocks.count)
        Self.change(&ledger, &r, adding: Self.tagNames, tagChance: 70, intentChance: 25, noteChance: 20)
        let rows = Array(0..<ledger.count)[...]
        let file = layout.files[0]
        let short = try TextWriter.rewrite(rows, file: file, layout: layout, ledger: ledger, categoryChanged: [], shortcuts: true).get()
        let long = try TextWriter.rewrite(rows, file: file, layout: layout, ledger: ledger, categoryChanged: [], shortcuts: false).get()
        #expect(short.edits.count == long.edits.count)
        var taken = 0, adding = 0
        for (row, (s, l)) in zip(short.edits, long.edits).enumerated() {
            #expect(s.start == l.start && s.end == l.end)
            #expect(s.bytes == l.bytes, "row \(row): \(String(decoding: l.bytes, as: UTF8.self).debugDescription)")
            let shortcut = file.bytes.withUnsafeBufferPointer {
                JournalWriter.addingOnly($0, layout.rowStart[row], layout.rowEnd[row], row: row, ledger: ledger, style: style)
            }
            if let shortcut {
                taken += 1
                if shortcut.count > l.end - l.start { adding += 1 }
            }
        }
        // The shortcut is the common way, and it adds lines: a shortcut that always gave up would pass the above.
        #expect(taken > ledger.count / 3, "the shortcut took \(taken) of \(ledger.count) blocks")
        #expect(adding > ledger.count / 4, "the shortcut added to \(adding) of \(ledger.count) blocks")
        // A block whose category changed goes the long way.
        let travel = ledger.categories.intern("Travel")
        let moved = Set(stride(from: 0, to: ledger.count, by: 3).filter { ledger.category[$0] != 0 })
        for row in moved { ledger.category[row] = travel }
        let withCategory = try TextWriter.rewrite(rows, file: file, layout: layout, ledger: ledger, categoryChanged: moved, shortcuts: true).get()
        let withCategoryLong = try TextWriter.rewrite(rows, file: file, layout: layout, ledger: ledger, categoryChanged: moved, shortcuts: false).get()
        #expect(withCategory.edits.map(\.bytes) == withCategoryLong.edits.map(\.bytes))
        #expect(withCategory.edits.filter { String(decoding: $0.bytes, as: UTF8.self).contains("Expenses:Travel") }.count == moved.count)
        #expect(moved.count > ledger.count / 4)
    }

    /// `JournalWriter.settle` matches a found tag to a wanted one as `(name + ":" + value).lowercased()` would, without
    /// building those strings when all is ASCII.
    @Test func settlingMatchesAsTheLowerCasedKeys() {
        func key(_ t: (name: String, value: String)) -> String { (t.name + ":" + t.value).lowercased() }
        let parts = ["gift", "GIFT", "Gift", "a:b", "a", "b:", "b", "", "intent", "want", "maybe", "note", "@", "`", "é", "e\u{301}", "É", "[", "{"]
        var r = SplitMix(seed: 3)
        var matched = 0
        for _ in 0..<20_000 {
            let desired = (0..<r.below(4)).map { _ in (name: r.pick(parts), value: r.pick(parts)) }
            let found = (0..<r.below(4)).map { _ in FoundTag(name: r.pick(parts), value: r.pick(parts), range: 0..<0, ledgerStyle: false) }
            // What settling was before it compared bytes.
            var wanted = desired.map(key)
            var keep: [Bool] = []
            for f in found {
                if let i = wanted.firstIndex(of: key((f.name, f.value))) { wanted.remove(at: i); keep.append(true) } else {
                    keep.append(f.name.lowercased() == "intent" && Intent(name: f.value) == nil)
                }
            }
            let additions = desired.filter { wanted.contains(key($0)) }
            let got = JournalWriter.settle(found, desired)
            #expect(got.keep == keep)
            #expect(got.additions.map(key) == additions.map(key))
            matched += keep.filter { $0 }.count
        }
        #expect(matched > 1_000)
    }

    static let payees = ["\"COFFEE SHOP\" \"\"", "\"Caf\u{e9}\" \"latte\"", "\"RENT\"", "\"A \\\"quoted\\\" payee\" \"x\"", "\"#not a tag\" \"\"",
                             // A combining mark after a quote, which a `Character` walk takes with it.
                             "\"\u{301}#odd\" \"\"", "\"x\" \"\u{301}\" "]
    static let headerTails = ["", " #coffee", " #gift #work", " ^link-1", " #food ^link-2 #trip", "  ; a comment", " #coffee ; #gift in a comment",
                              " #Coffee", " #gift\t"]
    static let metadata = ["intent: \"want\"", "intent: \"maybe\"", "note: \"paid back\"", "note: \"a \\\"b\\\" c\"", "other: \"x\"",
                           "note: \"Zo\u{eb}\"", "; a comment line", "intent: need", "note:\"tight\""]
    static let beanTags = ["coffee", "gift", "work", "food", "trip", "Coffee", "new-one", "bad tag", "holiday"]

    static func beancountBlock(_ r: inout SplitMix, eol: String) -> String {
        var lines = ["2024-0\(1 + r.below(9))-1\(r.below(10)) " + r.pick(["*", "!", "txn"]) + " " + r.pick(payees) + r.pick(headerTails)]
        for _ in 0..<r.pick([0, 0, 1, 2]) { lines.append(r.pick(["  ", "    ", "\t"]) + r.pick(metadata)) }
        let indent = r.pick(["  ", "    ", "\t"])
        lines.append(indent + "Expenses:Food  \(1 + r.below(90)).\(10 + r.below(90)) EUR")
        if r.chance(15) { lines.append(indent + "  note: \"a posting's\"") }
        lines.append(indent + "Assets:Checking")
        return lines.map { l in l + (r.chance(3) ? (eol == "\n" ? "\r\n" : "\n") : eol) }.joined()
    }

    /// `BeancountWriter.addingOnly` gives what `BeancountWriter.rewrite` gives, as the journal's shortcut does.
    @Test(arguments: ["\n", "\r\n"])
    func theBeancountShortcutWritesWhatTheLongWayWrites(_ eol: String) throws {
        var r = SplitMix(seed: eol == "\n" ? 5 : 13)
        var text = "2000-01-01 open Expenses:Food" + eol + "2000-01-01 open Assets:Checking" + eol + eol
        var count = 0
        for k in 0..<3_000 {
            // A stretch of transactions under a pushed tag.
            if k == 1_000 { text += "pushtag #holiday" + eol + eol }
            if k == 1_300 { text += "poptag #holiday" + eol + eol }
            text += Self.beancountBlock(&r, eol: eol) + eol
            count += 1
        }
        let loaded = try LedgerDocument.read(Array(text.utf8), fileName: "s.beancount", format: .beancount, options: ReadOptions())
        guard case .text(let layout) = loaded.document.layout else { Issue.record("not a text layout"); return }
        var ledger = loaded.ledger
        #expect(ledger.count == count)
        Self.change(&ledger, &r, adding: Self.beanTags, tagChance: 75, intentChance: 15, noteChance: 10)
        let file = layout.files[0]
        var taken = 0, adding = 0, refused = 0
        for row in 0..<ledger.count {
            // Row by row: the long way refuses some rows (a tag beancount cannot spell, a pushed tag taken off).
            let short = TextWriter.rewrite([row], file: file, layout: layout, ledger: ledger, categoryChanged: [], shortcuts: true)
            let long = TextWriter.rewrite([row], file: file, layout: layout, ledger: ledger, categoryChanged: [], shortcuts: false)
            switch (short, long) {
            case let (.success(s), .success(l)):
                #expect(s.edits.map(\.bytes) == l.edits.map(\.bytes), "row \(row): \(String(decoding: l.edits[0].bytes, as: UTF8.self).debugDescription)")
            case let (.failure(s), .failure(l)): #expect(s.message == l.message); refused += 1
            default: Issue.record("row \(row): \(short) against \(long)")
            }
            let shortcut = file.bytes.withUnsafeBufferPointer {
                BeancountWriter.addingOnly($0, layout.rowStart[row], layout.rowEnd[row], row: row, ledger: ledger, pushed: layout.pushedTags[row] ?? [])
            }
            if let shortcut {
                taken += 1
                if shortcut.count > layout.rowEnd[row] - layout.rowStart[row] { adding += 1 }
            }
        }
        #expect(taken > ledger.count / 4, "the shortcut took \(taken) of \(ledger.count) blocks")
        #expect(adding > ledger.count / 6, "the shortcut added to \(adding) of \(ledger.count) blocks")
        #expect(refused > 100)
    }
}
