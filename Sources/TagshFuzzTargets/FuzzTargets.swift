import TagshFormats
import TagshModel
import TagshQuery
import TagshShell

/// The functions libFuzzer drives (`scripts/fuzz TARGET SECONDS`) and the
/// tests replay on every input kept in `Tests/Fuzz/Regressions/TARGET/`.
/// Each must return normally for any input: a crash or a hang is a bug.
public enum FuzzTargets {
    public static let names = ["csv", "journal", "beancount", "query", "tokenizer"]

    public static func run(_ target: String, _ bytes: [UInt8]) {
        switch target {
        case "csv": reader(bytes, .csv, "fuzz.csv")
        case "journal": reader(bytes, .journal, "fuzz.journal")
        case "beancount": reader(bytes, .beancount, "fuzz.beancount")
        case "query": query(bytes)
        case "tokenizer": tokenizer(bytes)
        default: preconditionFailure("unknown fuzz target \(target)")
        }
    }

    /// Reading never crashes; what is read saves back byte-identical; an
    /// edit renders without crashing and reads back.
    static func reader(_ bytes: [UInt8], _ format: LedgerFormat, _ name: String) {
        let noIncludes: (String) throws(FileError) -> (bytes: [UInt8], stamp: FileStamp) = { p throws(FileError) in
            throw FileError(path: p, kind: .notFound, whileWriting: false)
        }
        for skipBad in [false, true] {
            guard let loaded = try? LedgerDocument.read(bytes, fileName: name, format: format,
                                                        options: ReadOptions(skipBad: skipBad), load: noIncludes) else { continue }
            let same = try? loaded.document.renderMain(loaded.ledger, changedRows: [])
            precondition(same == nil || same == bytes, "an unchanged save is not byte-identical")
            guard loaded.ledger.count > 0 else { continue }
            var edited = loaded.ledger
            edited.tagSet[0] = edited.internTagSet(["fuzz"])
            edited.intent[0] = Intent.want.rawValue
            if let out = try? loaded.document.renderMain(edited, changedRows: [0]) {
                _ = try? LedgerDocument.read(out, fileName: name, format: format, options: ReadOptions(skipBad: true), load: noIncludes)
            }
        }
    }

    static let ledger: Ledger = {
        var l = Ledger()
        for (i, name) in ["STARBUCKS 1", "Café ☕", "UBER *TRIP", ""].enumerated() {
            l.append(day: Day(daysSinceEpoch: Int32(19_000 + i)), merchant: l.merchants.intern(name),
                     amount: Amount(units: Int64(-100 * i), scale: 2), currency: l.currencies.intern("EUR"),
                     account: l.accounts.intern("Checking"), intent: Intent(rawValue: UInt8(i % 5)),
                     category: i == 0 ? 0 : l.categories.intern("Food"), tagSet: l.internTagSet(i == 1 ? ["coffee", "trip/x"] : []),
                     note: 0)
        }
        return l
    }()

    /// Any text parses to a query or an error with a span inside the text; a query evaluates.
    static func query(_ bytes: [UInt8]) {
        let text = String(decoding: bytes, as: UTF8.self)
        guard let words = try? Lexer.words(in: text) else { return }
        do {
            let q = try QueryParser.parse(words)
            _ = QueryEvaluator(ledger: ledger, selection: [0, 2]).rows(matching: q)
        } catch {
            let count = Array(text).count
            precondition(error.span.lowerBound >= 0 && error.span.upperBound <= count, "a query error points outside the text")
        }
    }

    /// Any text splits into words (or an error) and script lines join.
    static func tokenizer(_ bytes: [UInt8]) {
        let text = String(decoding: bytes, as: UTF8.self)
        if let words = try? Lexer.words(in: text) {
            for w in words { _ = try? Lexer.words(in: Lexer.quote(w.text)) }
        }
        var reader = ScriptReader()
        for (i, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            _ = reader.feed(String(line), lineNumber: i + 1)
        }
        _ = reader.finish()
    }
}
