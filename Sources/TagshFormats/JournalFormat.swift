import TagshModel

/// hledger / ledger journals: transactions are read into the model, and
/// everything else (directives, comments, periodic and automated
/// transactions, unknown syntax) is kept byte for byte.
enum JournalFormat {
    typealias Posting = TextPosting

    /// A transaction block, split up.
    struct Block {
        var header: String
        var headerCommentStart: Int?
        var lines: [String]
        /// Indices (into `lines`) of transaction-level comment lines.
        var commentLines: [Int]
        var postings: [Posting]
    }

    /// The header and the comment lines before the first posting, without
    /// reading postings (a save that changes only tags needs no more).
    static func parseHeaderAndComments(_ lines: [String]) -> Block {
        let header = lines[0]
        let semicolon = header.firstIndex(of: ";").map { header.distance(from: header.startIndex, to: $0) }
        var block = Block(header: header, headerCommentStart: semicolon, lines: lines, commentLines: [], postings: [])
        for (n, line) in lines.enumerated().dropFirst() {
            let trimmed = line.drop { $0 == " " || $0 == "\t" }
            if trimmed.isEmpty { continue }
            guard trimmed.first == ";" || trimmed.first == "#" else { break }
            block.commentLines.append(n)
        }
        // The first posting's indent is what new comment lines use.
        if let first = lines.dropFirst().firstIndex(where: { l in
            let t = l.drop { $0 == " " || $0 == "\t" }
            return !t.isEmpty && t.first != ";" && t.first != "#"
        }) {
            block.postings = [Posting(line: first, accountRange: 0..<0, account: "", amountStart: nil, amountText: nil)]
        }
        return block
    }

    /// The header's comment, the comment lines before the first posting, and
    /// the postings: what a save edits. (Reading is `TextReader`'s, on bytes.)
    static func parseBlock(_ lines: [String]) -> Block {
        let header = lines[0]
        let semicolon = Array(header).firstIndex(of: ";")
        var block = Block(header: header, headerCommentStart: semicolon, lines: lines, commentLines: [], postings: [])
        for (n, line) in lines.enumerated().dropFirst() {
            let lc = Array(line)
            var j = 0
            while j < lc.count && (lc[j] == " " || lc[j] == "\t") { j += 1 }
            if j >= lc.count { continue }
            if lc[j] == ";" || lc[j] == "#" {
                if block.postings.isEmpty { block.commentLines.append(n) }
                continue
            }
            if (lc[j] == "*" || lc[j] == "!") && j + 1 < lc.count && lc[j + 1] == " " { j += 2 }
            let accountStart = j
            var k = j
            // The account ends at two spaces, a tab, a `;`, or the end.
            while k < lc.count {
                if lc[k] == "\t" || lc[k] == ";" { break }
                if lc[k] == " " && k + 1 < lc.count && lc[k + 1] == " " { break }
                if lc[k] == " " && k + 1 == lc.count { break }
                k += 1
            }
            var account = String(lc[accountStart..<k])
            if (account.hasPrefix("(") && account.hasSuffix(")")) || (account.hasPrefix("[") && account.hasSuffix("]")) {
                account = String(account.dropFirst().dropLast())
            }
            var a = k
            while a < lc.count && (lc[a] == " " || lc[a] == "\t") { a += 1 }
            var amountText: String?
            var amountStart: Int?
            if a < lc.count && lc[a] != ";" {
                let end = lc[a...].firstIndex(of: ";") ?? lc.count
                amountText = String(lc[a..<end]).trimmingCharacters(in: " \t")
                amountStart = a
            }
            block.postings.append(Posting(line: n, accountRange: accountStart..<k, account: account, amountStart: amountStart,
                                          amountText: amountText?.isEmpty == true ? nil : amountText))
        }
        return block
    }

    /// An amount as a journal writes it, without cost (`@`) or balance assertion (`=`).
    static func amount(_ text: String) -> (amount: Amount, symbol: String?)? {
        var t = Substring(text)
        if let cut = t.firstIndex(where: { $0 == "@" || $0 == "=" || $0 == "{" }) { t = t[..<cut] }
        let cleaned = String(t).replacingAll("\"", with: "").trimmingCharacters(in: " \t")
        return AmountParser.parse(cleaned, decimalComma: false) ?? AmountParser.parse(cleaned, decimalComma: true)
    }

    static func read(_ bytes: [UInt8], path: String, stamp: FileStamp?, options: ReadOptions,
                     load: @escaping (String) throws(FileError) -> (bytes: [UInt8], stamp: FileStamp)) throws(Diagnostic) -> LoadedLedger {
        var reader = TextReader(dialect: .journal, options: options, load: load)
        try reader.readFile(bytes, path: path, stamp: stamp)
        return reader.finish(mainBytes: bytes, format: .journal)
    }
}

extension String {
    /// The part before two spaces or a tab (journal account names end there).
    func components(separatedByTwoSpaces _: Void) -> String {
        var out = ""
        var prev: Character?
        for c in self {
            if c == "\t" || (c == " " && prev == " ") { return out.trimmingCharacters(in: " ") }
            out.append(c)
            prev = c
        }
        return out.trimmingCharacters(in: " ")
    }
}
