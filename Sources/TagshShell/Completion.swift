import TagshQuery

/// Tab completion as a pure function: the text before the cursor in, the
/// candidates for the word being typed out. The libedit glue only inserts.
public struct Completer {
    /// Lists a folder's entries (name, is a folder); injected so tests need no disk.
    public var listDirectory: (String) -> [(name: String, isDirectory: Bool)]
    let registry: CommandRegistry

    public init(registry: CommandRegistry = .standard,
                listDirectory: @escaping (String) -> [(name: String, isDirectory: Bool)]) {
        self.registry = registry
        self.listDirectory = listDirectory
    }

    public struct Result: Equatable, Sendable {
        /// Characters before the cursor that the candidates replace.
        public var replacing: Int
        public var candidates: [String]
    }

    public func complete(_ textBeforeCursor: String) -> Result {
        // The word being typed starts after the last unquoted space.
        let chars = Array(textBeforeCursor)
        var start = chars.count
        while start > 0 && chars[start - 1] != " " && chars[start - 1] != "\t" { start -= 1 }
        let current = String(chars[start...])
        let before = String(chars[..<start])
        let words = (try? Lexer.words(in: before)) ?? []
        if words.isEmpty {
            return Result(replacing: current.count, candidates: matching(current, registry.commands.map(\.name).sorted()))
        }
        guard let command = registry.command(named: words[0].text) else { return Result(replacing: 0, candidates: []) }
        switch command.arguments {
        case .command where words.count == 1:
            return Result(replacing: current.count, candidates: matching(current, (registry.commands.map(\.name) + ["query"]).sorted()))
        case .settings where words.count == 1:
            return Result(replacing: current.count, candidates: matching(current, Settings.names))
        case .file:
            if current.hasPrefix("--") { break }
            return Result(replacing: current.count, candidates: paths(current))
        default:
            break
        }
        if current.hasPrefix("--") {
            return Result(replacing: current.count, candidates: matching(current, command.options.map { "--" + $0.name }))
        }
        return Result(replacing: 0, candidates: [])
    }

    /// Candidates that start with `typed`, ignoring case, in the given order.
    func matching(_ typed: String, _ candidates: [String]) -> [String] {
        let t = typed.lowercased()
        var seen = Set<String>()
        return candidates.filter { $0.lowercased().hasPrefix(t) && seen.insert($0).inserted }
    }

    /// File and folder names completing a path; folders end with `/`.
    func paths(_ typed: String) -> [String] {
        let folder: String, prefix: String
        if let slash = typed.lastIndex(of: "/") {
            folder = String(typed[...slash])
            prefix = String(typed[typed.index(after: slash)...])
        } else {
            folder = ""
            prefix = typed
        }
        let entries = listDirectory(folder.isEmpty ? "." : folder)
            .filter { !$0.name.hasPrefix(".") || prefix.hasPrefix(".") }
            .filter { $0.name.lowercased().hasPrefix(prefix.lowercased()) }
            .sorted { $0.name < $1.name }
        return entries.map { folder + $0.name + ($0.isDirectory ? "/" : "") }
    }
}
