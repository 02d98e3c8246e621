/// A column mapping a person gives (`--columns date=1,description=Details,amount=5`)
/// or tagsh infers for a file without a header row. Positions are 1-based as typed.
public struct ColumnMap: Sendable, Equatable, CustomStringConvertible {
    public enum Reference: Sendable, Equatable, CustomStringConvertible {
        case position(Int)
        case name(String)

        public var description: String {
            switch self {
            case .position(let p): String(p)
            case .name(let n): n.contains(where: { $0 == "," || $0 == "=" || $0 == " " }) ? "\"" + n + "\"" : n
            }
        }
    }

    public var entries: [(role: ColumnRole, column: Reference)]

    public init(_ entries: [(role: ColumnRole, column: Reference)]) { self.entries = entries }

    public static func == (a: ColumnMap, b: ColumnMap) -> Bool {
        a.entries.count == b.entries.count && zip(a.entries, b.entries).allSatisfy { $0.role == $1.role && $0.column == $1.column }
    }

    /// Reads `date=1,description=Details,amount=5`; roles are date, description, amount, debit, credit,
    /// currency, account, category, tags, notes, intent, direction, fee.
    public init(parsing text: String) throws(MapError) {
        var out: [(ColumnRole, Reference)] = []
        for part in ColumnMap.split(text) {
            let pieces = part.split(separator: "=", maxSplits: 1).map { String($0).trimmingSpaces() }
            guard pieces.count == 2, !pieces[1].isEmpty else { throw MapError(message: "'\(part)' is not ROLE=COLUMN") }
            let roleName = pieces[0].lowercased() == "payee" || pieces[0].lowercased() == "merchant" ? "description" : pieces[0].lowercased()
            guard let role = ColumnRole(rawValue: roleName), role != .status else {
                throw MapError(message: "unknown role '\(pieces[0])': use " + ColumnRole.allCases.filter { $0 != .status }.map(\.rawValue).joined(separator: ", "))
            }
            if out.contains(where: { $0.0 == role }) { throw MapError(message: "\(role.rawValue) is given twice") }
            var name = pieces[1]
            if name.count >= 2, name.first == "\"", name.last == "\"" { name = String(name.dropFirst().dropLast()) }
            if let p = Int(name) {
                guard p >= 1 else { throw MapError(message: "column positions start at 1") }
                out.append((role, .position(p)))
            } else {
                out.append((role, .name(name)))
            }
        }
        guard out.contains(where: { $0.0 == .date }), out.contains(where: { $0.0 == .description }),
              out.contains(where: { [.amount, .debit, .credit].contains($0.0) }) else {
            throw MapError(message: "a mapping needs date, description and amount (or debit and credit)")
        }
        entries = out
    }

    /// `date=1,description=5,amount=2`.
    public var description: String { entries.map { "\($0.role.rawValue)=\($0.column)" }.joined(separator: ",") }

    public struct MapError: Error, Sendable { public var message: String }

    static func split(_ text: String) -> [String] {
        var parts: [String] = [], current = "", quoted = false
        for c in text {
            if c == "\"" { quoted.toggle(); current.append(c) } else if c == "," && !quoted { parts.append(current); current = "" } else { current.append(c) }
        }
        if !current.trimmingSpaces().isEmpty { parts.append(current) }
        return parts
    }

    /// The columns this mapping names, resolved against a header (nil for a file without one).
    func columns(header: [String]?) throws(MapError) -> CSVColumns {
        var slots: [ColumnRole: Int] = [:]
        for (role, ref) in entries {
            switch ref {
            case .position(let p): slots[role] = p - 1
            case .name(let n):
                guard let header else { throw MapError(message: "the file has no header row, so columns are given by position (\(role.rawValue)=3)") }
                guard let i = header.firstIndex(where: { HeaderVocabulary.normalized($0) == HeaderVocabulary.normalized(n) }) else {
                    throw MapError(message: "no column named '\(n)' (columns: \(header.joined(separator: ", ")))")
                }
                slots[role] = i
            }
        }
        var c = CSVColumns(date: slots[.date] ?? 0, description: slots[.description] ?? 0, amount: slots[.amount],
                           debit: slots[.debit], credit: slots[.credit])
        c.currency = slots[.currency]
        c.account = slots[.account]
        c.category = slots[.category]
        c.tags = slots[.tags]
        c.notes = slots[.notes]
        c.intent = slots[.intent]
        c.direction = slots[.direction]
        c.fee = slots[.fee]
        return c
    }

    /// A header row as a key for remembering its mapping: its names, normalized, joined.
    public static func signature(of header: [String]) -> String {
        header.map(HeaderVocabulary.normalized).joined(separator: "\u{1F}")
    }

    /// The mapping that describes `columns` by header name (a file with a header row).
    init(namesOf c: CSVColumns, header: [String]) {
        self.init(positionsOf: c)
        entries = entries.map { e in
            // A name that is empty or not unique is kept as a position.
            guard case .position(let p) = e.column, p - 1 < header.count else { return e }
            let name = header[p - 1]
            let norm = HeaderVocabulary.normalized(name)
            guard !norm.isEmpty, header.filter({ HeaderVocabulary.normalized($0) == norm }).count == 1 else { return e }
            return (e.role, .name(name))
        }
    }

    /// The mapping that describes `columns` by position.
    public init(positionsOf c: CSVColumns) {
        var e: [(ColumnRole, Reference)] = [(.date, .position(c.date + 1)), (.description, .position(c.description + 1))]
        let optional: [(ColumnRole, Int?)] = [(.amount, c.amount), (.debit, c.debit), (.credit, c.credit), (.direction, c.direction),
                                              (.fee, c.fee), (.currency, c.currency), (.account, c.account), (.category, c.category),
                                              (.tags, c.tags), (.notes, c.notes), (.intent, c.intent)]
        for (role, i) in optional { if let i { e.append((role, .position(i + 1))) } }
        entries = e
    }
}
