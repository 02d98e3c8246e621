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
        let semicolon = commentStart(header)
        var block = Block(header: header, headerCommentStart: semicolon, lines: lines, commentLines: [], postings: [])
        for n in lines.indices.dropFirst() {
            // The first character after the indent, on the UTF-8: spaces, tabs, `;` and `#` are single bytes.
            guard let c = lines[n].utf8.first(where: { $0 != 0x20 && $0 != 0x09 }) else { continue }
            if c == 0x3B || c == 0x23 {
                block.commentLines.append(n)
                continue
            }
            // The first posting's indent is what new comment lines use.
            block.postings = [Posting(line: n, accountRange: 0..<0, account: "", amountStart: nil, amountText: nil)]
            break
        }
        return block
    }

    /// The character offset of a line's first `;` (a header's comment, or a comment line's), if it has one.
    static func commentStart(_ line: String) -> Int? {
        if line.isASCII { return line.utf8.firstIndex(of: 0x3B).map { line.utf8.distance(from: line.utf8.startIndex, to: $0) } }
        return line.firstIndex(of: ";").map { line.distance(from: line.startIndex, to: $0) }
    }

    /// The header's comment, the comment lines before the first posting, and
    /// the postings: what a save edits. (Reading is `TextReader`'s, on bytes.)
    static func parseBlock(_ lines: [String]) -> Block {
        let header = lines[0]
        let semicolon = commentStart(header)
        var block = Block(header: header, headerCommentStart: semicolon, lines: lines, commentLines: [], postings: [])
        for (n, line) in lines.enumerated().dropFirst() {
            switch BlockLine.scan(line, dialect: .journal) {
            case .blank, .metadata: continue
            case .comment: if block.postings.isEmpty { block.commentLines.append(n) }
            case .posting(let span): block.postings.append(TextPosting(line: n, span: span, in: line))
            }
        }
        return block
    }

    /// The year a `year 2024`, `Y 2024`, `Y2024` or `apply year 2024` directive sets.
    static func yearDirective(_ line: String) -> Int? {
        var rest = Substring(line)
        if rest.hasPrefix("apply year") { rest = rest.dropFirst(10) } else if rest.hasPrefix("year") { rest = rest.dropFirst(4) }
        else if rest.hasPrefix("Y") { rest = rest.dropFirst(1) } else { return nil }
        let word = String(rest).trimmingCharacters(in: " \t").prefix { $0 != " " && $0 != "\t" && $0 != ";" }
        guard (1...4).contains(word.count), word.allSatisfy({ $0.isASCII }), let y = Int(word) else { return nil }
        return y
    }

    /// A timeclock line: `i`, `I`, `o` or `O`, a space, then a date (`i 2013/04/05 09:30:00 Internal:Meeting`).
    static func isTimeclock(_ line: String) -> Bool {
        let u = Array(line.utf8.prefix(3))
        return u.count == 3 && (u[0] == 0x69 || u[0] == 0x49 || u[0] == 0x6F || u[0] == 0x4F) && (u[1] == 0x20 || u[1] == 0x09)
            && line.utf8.dropFirst(1).drop(while: { $0 == 0x20 || $0 == 0x09 }).first.map { $0 >= 0x30 && $0 <= 0x39 } == true
    }

    static func read(_ bytes: [UInt8], path: String, stamp: FileStamp?, options: ReadOptions,
                     load: @escaping (String) throws(FileError) -> (bytes: [UInt8], stamp: FileStamp)) throws(Diagnostic) -> LoadedLedger {
        var reader = TextReader(dialect: .journal, options: options, load: load)
        try reader.readFile(bytes, path: path, stamp: stamp)
        if reader.sawAssignment {
            // A balance assignment's amount needs every account's running balance, which a reading without one
            // does not keep (it would cost every posting of every file): read again, keeping them. In file order,
            // as ledger works them out; hledger goes by date, which is the same order in a file sorted by date.
            reader = TextReader(dialect: .journal, options: options, load: load)
            reader.tracksBalances = true
            try reader.readFile(bytes, path: path, stamp: stamp)
        }
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
