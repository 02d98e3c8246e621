import Foundation
import Testing
import TagshModel
@testable import TagshShell

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
}
