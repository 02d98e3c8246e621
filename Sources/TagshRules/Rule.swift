import TagshModel
import TagshQuery

/// What a rule does to each transaction it matches.
public enum Action: Sendable, Equatable, CustomStringConvertible {
    case category(String?)
    case intent(Intent?)
    case addTag(String)
    case removeTag(String)
    case note(String?)

    public var description: String {
        switch self {
        case .category(let c): "category " + Lexer.quote(c ?? "none")
        case .intent(let i): "intent " + (i?.description ?? "none")
        case .addTag(let t): "+" + t
        case .removeTag(let t): "-" + t
        case .note(let n): "note " + Lexer.quote(n ?? "")
        }
    }

    var field: ChangeSet.Field {
        switch self {
        case .category: .category
        case .intent: .intent
        case .addTag, .removeTag: .tags
        case .note: .note
        }
    }
}

/// A named, recurring decision: a query and the actions for what it matches.
public struct Rule: Sendable, Equatable {
    public var name: String
    /// The query as typed (for display, the sidecar and `rule show`).
    public var queryText: String
    public var query: Query
    public var actions: [Action]

    public init(name: String, queryText: String, query: Query, actions: [Action]) {
        self.name = name
        self.queryText = queryText
        self.query = query
        self.actions = actions
    }

    /// The command that defines this rule.
    public var definition: String {
        "rule \(name) \(queryText) => " + actions.map(\.description).joined(separator: ", ")
    }

    /// Which fields the rule sets.
    public var fields: Set<ChangeSet.Field> { Set(actions.map(\.field)) }
}

/// Why a rule's words could not be read, with the span to mark.
public struct RuleError: Error, Sendable {
    public var message: String
    public var span: Range<Int>?
}

public enum RuleParser {
    /// A rule name: letters, digits and `- _ . /`, 1 to 64 characters.
    public static func validName(_ name: String) -> Bool {
        !name.isEmpty && name.count <= 64 && name.allSatisfy { $0.isLetter || $0.isNumber || "-_./".contains($0) }
    }

    /// Splits `QUERY => ACTIONS` words at the unquoted `=>`; nil when there is none.
    public static func split(_ words: [Word]) -> (query: [Word], arrow: Word, actions: [Word])? {
        guard let i = words.firstIndex(where: { $0.text == "=>" && !$0.isQuoted }) else { return nil }
        return (Array(words[..<i]), words[i], Array(words[(i + 1)...]))
    }

    /// Parses the action words: `category NAME`, `intent VALUE`, `+tag`,
    /// `-tag`, `note TEXT`, separated by commas (attached or on their own).
    public static func actions(_ words: [Word], arrow: Word) throws(RuleError) -> [Action] {
        // Group words into actions at commas.
        var groups: [[Word]] = [[]]
        for w in words {
            if w.text == "," && !w.isQuoted { groups.append([]); continue }
            if w.raw.hasSuffix(",") && !w.raw.hasSuffix("\\,") && w.text.hasSuffix(",") {
                var trimmed = w
                trimmed.text.removeLast()
                groups[groups.count - 1].append(trimmed)
                groups.append([])
            } else {
                groups[groups.count - 1].append(w)
            }
        }
        var actions: [Action] = []
        for group in groups where !group.isEmpty {
            var rest = group[...]
            while let first = rest.first {
                let text = first.text
                if text.hasPrefix("+") || text.hasPrefix("-") {
                    let name = String(text.dropFirst())
                    if let problem = TagName.validate(name) {
                        throw RuleError(message: "bad tag '\(name)' in a rule: \(problem)", span: first.span)
                    }
                    actions.append(text.hasPrefix("+") ? .addTag(name) : .removeTag(name))
                    rest = rest.dropFirst()
                    continue
                }
                let args = Array(rest.dropFirst())
                switch text.lowercased() {
                case "category":
                    guard args.count == 1 else {
                        throw RuleError(message: "`category` takes one name (quote a name with spaces)", span: first.span)
                    }
                    actions.append(.category(args[0].text.lowercased() == "none" ? nil : args[0].text))
                case "intent":
                    guard args.count == 1 else { throw RuleError(message: "`intent` takes one value", span: first.span) }
                    if args[0].text.lowercased() == "none" {
                        actions.append(.intent(nil))
                    } else {
                        guard let i = Intent(name: args[0].text) else {
                            throw RuleError(message: "unknown intent '\(args[0].text)': use need, want, culture, unexpected or none",
                                            span: args[0].span)
                        }
                        actions.append(.intent(i))
                    }
                case "note":
                    let text = args.map(\.text).joined(separator: " ")
                    actions.append(.note(text.isEmpty ? nil : text))
                default:
                    throw RuleError(message: "unknown action '\(text)': use category NAME, intent VALUE, +tag, -tag or note TEXT",
                                    span: first.span)
                }
                rest = []
            }
        }
        if actions.isEmpty { throw RuleError(message: "a rule needs at least one action after =>", span: arrow.span) }
        return actions
    }
}
