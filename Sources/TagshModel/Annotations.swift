/// Why money was spent: one of four fixed values, or none.
public enum Intent: UInt8, Sendable, CaseIterable, CustomStringConvertible {
    case need = 1, want, culture, unexpected

    public init?(name: String) {
        switch name.lowercased() {
        case "need": self = .need
        case "want": self = .want
        case "culture": self = .culture
        case "unexpected": self = .unexpected
        default: return nil
        }
    }

    public var description: String {
        switch self {
        case .need: "need"
        case .want: "want"
        case .culture: "culture"
        case .unexpected: "unexpected"
        }
    }

    /// The one-letter mark used in listings.
    public var mark: Character {
        switch self {
        case .need: "N"
        case .want: "W"
        case .culture: "C"
        case .unexpected: "U"
        }
    }

    /// The fixed colour of the intent.
    public var color: Color {
        switch self {
        case .need: .named(.blue)
        case .want: .named(.magenta)
        case .culture: .named(.cyan)
        case .unexpected: .named(.red)
        }
    }
}

/// A colour as the user gave it: a named terminal colour or `#rrggbb`.
public enum Color: Sendable, Hashable, CustomStringConvertible {
    case named(NamedColor)
    case rgb(UInt8, UInt8, UInt8)

    public enum NamedColor: String, Sendable, CaseIterable {
        case black, red, green, yellow, blue, magenta, cyan, white
        case gray, brightRed = "bright-red", brightGreen = "bright-green", brightYellow = "bright-yellow"
        case brightBlue = "bright-blue", brightMagenta = "bright-magenta", brightCyan = "bright-cyan"
        case orange, purple, pink, brown, teal
    }

    /// Parses `#rrggbb` or a colour name; nil when neither.
    public init?(parsing text: String) {
        let t = text.lowercased()
        if t.hasPrefix("#"), t.count == 7, let v = UInt32(t.dropFirst(), radix: 16) {
            self = .rgb(UInt8(v >> 16), UInt8((v >> 8) & 0xff), UInt8(v & 0xff))
        } else if let named = NamedColor(rawValue: t == "grey" ? "gray" : t) {
            self = .named(named)
        } else {
            return nil
        }
    }

    public var description: String {
        switch self {
        case .named(let n): n.rawValue
        case .rgb(let r, let g, let b):
            "#" + [r, g, b].map { $0 < 16 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined()
        }
    }
}

/// A category: default (built in, cannot be deleted) or custom.
public struct Category: Sendable, Equatable {
    public var name: String
    public var isDefault: Bool
    public var color: Color?
    public var icon: Character?
    /// Deleted custom categories keep their id (so undo can restore them) but are hidden.
    public var isDeleted = false

    public init(name: String, isDefault: Bool, color: Color? = nil, icon: Character? = nil) {
        self.name = name
        self.isDefault = isDefault
        self.color = color
        self.icon = icon
    }

    /// The built-in categories, in display order, with their colours.
    public static let defaults: [Category] = [
        ("Food", Color.named(.orange)), ("Groceries", .named(.green)), ("Transport", .named(.blue)),
        ("Shopping", .named(.magenta)), ("Bills", .named(.yellow)), ("Housing", .named(.brown)),
        ("Health", .named(.brightGreen)), ("Entertainment", .named(.purple)), ("Travel", .named(.cyan)),
        ("Income", .named(.brightGreen)), ("Transfer", .named(.gray)), ("Other", .named(.white)),
    ].map { Category(name: $0.0, isDefault: true, color: $0.1) }
}

/// The categories of a ledger: the defaults first, then custom ones. Names
/// are compared case-insensitively. Id 0 means "no category". Ids are never
/// reused: a deleted custom category keeps its id, hidden, so undo can bring it back.
public struct CategoryTable: Sendable {
    public private(set) var info: [Category] = [Category(name: "", isDefault: false)]
    /// Lower-cased name of each live category → id.
    private var index: [String: UInt32] = [:]

    public init() {
        for c in Category.defaults { add(c) }
    }

    /// Every id ever allocated, deleted ones included (for sizing tables).
    public var ids: Range<UInt32> { 1..<UInt32(info.count) }
    /// The ids of categories that exist now, in order.
    public var liveIDs: [UInt32] { ids.filter { !info[Int($0)].isDeleted } }
    public subscript(id: UInt32) -> Category { info[Int(id)] }

    /// The id of the existing category called `name` (case-insensitive).
    public func id(of name: String) -> UInt32? { index[name.lowercased()] }

    /// The id of the category named `name`, creating a custom one when new.
    public mutating func intern(_ name: String) -> UInt32 {
        id(of: name) ?? add(Category(name: name, isDefault: false))
    }

    /// Adds a category under a new id.
    @discardableResult
    public mutating func add(_ category: Category) -> UInt32 {
        let id = UInt32(info.count)
        info.append(category)
        if !category.isDeleted { index[category.name.lowercased()] = id }
        return id
    }

    /// Replaces what is stored under an id (rename, recolour, delete, undo).
    public mutating func replace(_ id: UInt32, with category: Category) {
        let old = info[Int(id)]
        if index[old.name.lowercased()] == id { index[old.name.lowercased()] = nil }
        info[Int(id)] = category
        if !category.isDeleted { index[category.name.lowercased()] = id }
    }
}
