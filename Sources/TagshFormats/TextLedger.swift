import TagshModel

/// One file of a plain-text ledger (the main file, or one it includes).
public struct TextFile: Sendable {
    public var path: String
    public var bytes: [UInt8]
    public var stamp: FileStamp?
}

/// How tags are written in a journal: hledger's `; coffee:, trip:paris` or ledger's `; :coffee:`.
public enum TagStyle: Sendable { case hledger, ledger }

/// Everything needed to write a journal or beancount ledger back: its files,
/// and for each transaction the file and byte range of its block.
public struct TextLayout: Sendable {
    public enum Dialect: Sendable { case journal, beancount }
    public var dialect: Dialect
    public var files: [TextFile]
    public var rowFile: [Int32] = []
    public var rowStart: [Int] = []
    public var rowEnd: [Int] = []
    /// Accounts declared (`account` / `open`), to know when a category needs a new declaration.
    public var declaredAccounts: Set<String> = []
    public var tagStyle: TagStyle = .hledger
    /// Where new declarations go in the main file: after the last one, or at the top.
    public var declarationInsertAt = 0
    /// The line ending of the main file.
    public var lineEnding: [UInt8] = [0x0A]
    /// Whether the first amount with decimals is written with a decimal comma (`54,20 EUR`): a journal's new
    /// transactions (an import) are written so.
    public var decimalComma = false
    /// Whether an amount with decimals has been read yet (`decimalComma` is settled by the first).
    var decimalMarkSeen = false
    /// Beancount: tags a row gets from `pushtag` (lower-cased), which are not on its own line.
    public var pushedTags: [Int: Set<String>] = [:]
    /// The main file's `include` paths that are relative to its folder, as written: a copy of the main file in
    /// another folder would not find them.
    public var relativeIncludes: [String] = []
    /// A journal's `alias` directives, by the rows they are in force from (the writer names a category's account
    /// as the reader did).
    var aliasScopes: [AliasScope] = []
    /// What the reader noticed and kept as it is (timeclock lines), for `open` and `info`.
    public var notes: [String] = []
}

/// A posting line of a journal or beancount transaction, split up.
struct TextPosting {
    var line: Int
    /// Character offsets of the account name in the line.
    var accountRange: Range<Int>
    var account: String
    /// Offset of the amount text (after the spacing), if any.
    var amountStart: Int?
    var amountText: String?

    init(line: Int, accountRange: Range<Int>, account: String, amountStart: Int?, amountText: String?) {
        self.line = line
        self.accountRange = accountRange
        self.account = account
        self.amountStart = amountStart
        self.amountText = amountText
    }

    /// A posting as `BlockLine` found it in line number `line` (character offsets).
    init(line: Int, span: BlockLine.PostingSpan, in text: String) {
        if text.isASCII {
            // A character is a byte: slice the UTF-8 (an array of Characters costs more than the whole edit).
            let bytes = Array(text.utf8)
            self.init(line: line, accountRange: span.written, account: String(decoding: bytes[span.account], as: UTF8.self),
                      amountStart: span.amount?.lowerBound, amountText: span.amount.map { String(decoding: bytes[$0], as: UTF8.self) })
            return
        }
        let chars = Array(text)
        self.init(line: line, accountRange: span.written, account: String(chars[span.account]), amountStart: span.amount?.lowerBound,
                  amountText: span.amount.map { String(chars[$0]) })
    }

    /// A posting's flag: `*` or `!` in a journal; in beancount also `& # ? % P S T C U R M` (each followed by a space).
    static func isFlag(_ c: UInt8, dialect: TextLayout.Dialect) -> Bool {
        switch dialect {
        case .journal: c == 0x2A || c == 0x21
        // `* ! & # ? % P S T C U R M`
        case .beancount: c == 0x2A || c == 0x21 || c == 0x26 || c == 0x23 || c == 0x3F || c == 0x25 || c == 0x50 || c == 0x53
            || c == 0x54 || c == 0x43 || c == 0x55 || c == 0x52 || c == 0x4D
        }
    }
}

/// Accounts and the category they stand for.
enum AccountKind {
    /// The category of an expense or income account: the part below the top
    /// level (`Expenses:Food:Coffee` → `Food:Coffee`), "" for the bare top level;
    /// nil for any other account.
    /// The bare top level of an income account reads as the category named like it
    /// (`Income` → Income), so that category Income on `Income:Salary` can write `Income`.
    static func category(of account: String) -> String? {
        // The top level, lower-cased: on the UTF-8 (a Character walk costs more, and this runs for every posting a save edits).
        let top = account.utf8.split(separator: 0x3A, maxSplits: 1, omittingEmptySubsequences: false).first
            .map { String(decoding: $0, as: UTF8.self).lowercased() } ?? ""
        guard expenseTops.contains(top) || incomeTops.contains(top) else { return nil }
        if account.count > top.count { return String(account.dropFirst(top.count + 1)) }
        return incomeTops.contains(top) ? account : ""
    }

    static let expenseTops: Set<String> = ["expenses", "expense"]
    static let incomeTops: Set<String> = ["income", "revenue", "revenues"]

    static func isIncome(_ account: String) -> Bool { incomeTops.contains(account.prefix { $0 != ":" }.lowercased()) }

    /// The account for a category below a posting's top level, in the file's letter case:
    /// the top itself for the category named like it, lower case below a lower-case top.
    static func account(top: String, category: String) -> String {
        if category.isEmpty || category.lowercased() == top.lowercased() { return top }
        return top + ":" + (top.contains(where: \.isUppercase) ? category : category.lowercased())
    }

    static func topLevel(of account: String) -> String { String(account.prefix { $0 != ":" }) }
}

/// One tag found in a comment, with where it is in its line (character offsets).
struct FoundTag {
    var name: String
    var value: String
    /// Character range of the whole token in the line, including a trailing `, ` separator.
    var range: Range<Int>
    var ledgerStyle: Bool
}

enum CommentTags {
    /// Tags in the text of a comment (after `;`), hledger's and ledger's way:
    /// `name:value` up to a comma or the end, and `:a:b:` runs of bare tags.
    static func find(in comment: String, offset: Int) -> [FoundTag] {
        comment.isASCII ? find(Array(comment.utf8), offset: offset) : find(Array(comment), offset: offset)
    }

    private static func find<U: TextUnit>(_ chars: [U], offset: Int) -> [FoundTag] {
        var out: [FoundTag] = []
        var i = 0
        func isBlank(_ c: U) -> Bool { c == .space || c == .tab }
        while i < chars.count {
            // A tag starts at the beginning or after a space or comma.
            if i > 0 && !(isBlank(chars[i - 1]) || chars[i - 1] == .comma) { i += 1; continue }
            if chars[i] == .colon {
                // ledger style :a:b:
                var j = i + 1
                var names: [String] = []
                var currentStart = j
                var ok = false
                while j < chars.count && !isBlank(chars[j]) {
                    if chars[j] == .colon {
                        if currentStart == j { break }
                        names.append(U.string(chars[currentStart..<j]))
                        currentStart = j + 1
                        ok = true
                    }
                    j += 1
                }
                if ok && currentStart == j && !names.isEmpty {
                    for n in names { out.append(FoundTag(name: n, value: "", range: (offset + i)..<(offset + j), ledgerStyle: true)) }
                    i = j
                    continue
                }
                i += 1
                continue
            }
            var j = i
            while j < chars.count && !(isBlank(chars[j]) || chars[j] == .colon || chars[j] == .comma) { j += 1 }
            if j > i && j < chars.count && chars[j] == .colon {
                let name = U.string(chars[i..<j])
                var k = j + 1
                // A note that opens its comment runs to the end of it, commas and all, as ledger reads it.
                let opensComment = chars[..<i].allSatisfy(isBlank)
                if opensComment && name.lowercased() == "note" { k = chars.count }
                while k < chars.count && chars[k] != .comma { k += 1 }
                let value = U.string(chars[(j + 1)..<k]).trimmingCharacters(in: " \t")
                var end = k
                if end < chars.count && chars[end] == .comma {
                    end += 1
                    while end < chars.count && chars[end] == .space { end += 1 }
                }
                out.append(FoundTag(name: name, value: value, range: (offset + i)..<(offset + end), ledgerStyle: false))
                i = k
                continue
            }
            i = max(j, i + 1)
        }
        return out
    }
}

/// One unit of a line the writers scan: a byte of an ASCII line (the fast
/// path) or a `Character` of any other. The scans compare units only with
/// ASCII characters, so on an ASCII line both give the same offsets; an array
/// of Characters costs more than the rest of an edit.
protocol TextUnit: Equatable {
    init(asciiByte: UInt8)
    static func string<C: Collection>(_ units: C) -> String where C.Element == Self
    static func units(_ text: String) -> [Self]
}

extension TextUnit {
    static var space: Self { Self(asciiByte: 0x20) }
    static var tab: Self { Self(asciiByte: 0x09) }
    static var quote: Self { Self(asciiByte: 0x22) }
    static var hash: Self { Self(asciiByte: 0x23) }
    static var comma: Self { Self(asciiByte: 0x2C) }
    static var colon: Self { Self(asciiByte: 0x3A) }
    static var semicolon: Self { Self(asciiByte: 0x3B) }
    static var backslash: Self { Self(asciiByte: 0x5C) }
    static var caret: Self { Self(asciiByte: 0x5E) }
}

extension UInt8: TextUnit {
    init(asciiByte: UInt8) { self = asciiByte }
    static func string<C: Collection>(_ units: C) -> String where C.Element == UInt8 { String(decoding: units, as: UTF8.self) }
    static func units(_ text: String) -> [UInt8] { Array(text.utf8) }
}

extension Character: TextUnit {
    init(asciiByte: UInt8) { self = Character(Unicode.Scalar(asciiByte)) }
    static func string<C: Collection>(_ units: C) -> String where C.Element == Character { String(units) }
    static func units(_ text: String) -> [Character] { Array(text) }
}
