import TagshFormats
import TagshModel
import TagshQuery

/// The sidecar `LEDGER.tagsh`: custom categories, rules and settings as tagsh
/// commands. It is the person's file as much as tagsh's.
///
/// Loading it runs each command quietly and goes on past a bad one (reported
/// as FILE:LINE). Saving rewrites it minimally: a line stays byte for byte
/// unless what it declares changed; a line tagsh did not understand, a
/// comment, or a command it does not own (`set color never`) is kept as
/// written; new declarations are appended.
struct Sidecar {
    /// One command (its physical lines, continuations included) or one blank or comment line.
    struct Chunk {
        var text: String
        /// The first physical line, for FILE:LINE.
        var line: Int
        /// The joined command, nil for blank and comment lines.
        var command: String?
        /// What the command declares (`rule:coffee`), nil when it declares nothing tagsh owns.
        var key: String?
    }

    var path: String
    var chunks: [Chunk] = []
    /// The file's bytes as read (nil: there is no file yet).
    var original: [UInt8]?

    init(path: String) {
        self.path = path
        guard FileIO.exists(path), let bytes = try? FileIO.read(path).bytes else { return }
        original = bytes
        var reader = ScriptReader()
        var pendingLines: [String] = []
        var pendingStart = 0
        let lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        for (i, raw) in lines.enumerated() {
            let number = i + 1
            if pendingLines.isEmpty { pendingStart = number }
            pendingLines.append(String(raw))
            if let (command, _) = reader.feed(String(raw), lineNumber: number) {
                chunks.append(Chunk(text: pendingLines.joined(separator: "\n"), line: pendingStart, command: command,
                                    key: Sidecar.key(of: command)))
                pendingLines = []
            } else if reader.pending == nil {
                chunks.append(Chunk(text: pendingLines.joined(separator: "\n"), line: pendingStart, command: nil, key: nil))
                pendingLines = []
            }
        }
        if !pendingLines.isEmpty, let (command, _) = reader.finish() {
            chunks.append(Chunk(text: pendingLines.joined(separator: "\n"), line: pendingStart, command: command,
                                key: Sidecar.key(of: command)))
        }
    }

    /// How the sidecar says the CSV file is read (`columns set date=1,... --date-format %d/%m/%Y`), if it says.
    var reading: (map: ColumnMap?, dateFormat: DateFormat?) {
        guard let chunk = chunks.last(where: { $0.key == "columns" }), let command = chunk.command,
              let words = try? Lexer.words(in: command).map(\.text), words.count >= 2 else { return (nil, nil) }
        var map: ColumnMap?, format: DateFormat?
        var i = 2
        while i < words.count {
            if words[i] == "--date-format", i + 1 < words.count { format = DateFormat(pattern: words[i + 1]); i += 2; continue }
            map = try? ColumnMap(parsing: words[i])
            i += 1
        }
        return (map, format)
    }

    /// Declarations by key (the first of a key wins).
    static func byKey(_ declarations: [(key: String, text: String)]) -> [String: String] {
        Dictionary(declarations.map { ($0.key, $0.text) }, uniquingKeysWith: { first, _ in first })
    }

    /// What a command declares, as the key `declarations` uses.
    static func key(of command: String) -> String? {
        guard let words = try? Lexer.words(in: command).map(\.text), let first = words.first?.lowercased() else { return nil }
        switch first {
        case "category" where words.count >= 3 && words[1].lowercased() == "new":
            return "category:" + words[2].lowercased()
        case "rule" where words.count >= 2 && !["show", "delete", "check"].contains(words[1].lowercased()):
            return "rule:" + words[1]
        case "set" where words.count == 3 && SettingEdit.persisted.contains(words[1].lowercased()):
            return "set:" + words[1].lowercased()
        case "columns" where words.count >= 3 && words[1].lowercased() == "set":
            return "columns"
        case "include" where words.count == 2:
            return "include:" + words[1]
        default:
            return nil
        }
    }

    /// The new text: unchanged declarations and every line tagsh does not own
    /// kept as written, changed ones rewritten in place, removed ones dropped,
    /// new ones appended. `baseline` is what the session declared when the file was read.
    func render(declarations: [(key: String, text: String)], baseline: [String: String]) -> [UInt8] {
        let desired = Sidecar.byKey(declarations)
        let order = Dictionary(declarations.enumerated().map { ($0.element.key, $0.offset) }, uniquingKeysWith: { a, _ in a })
        let inFile = Set(chunks.compactMap(\.key))
        var emitted = Set<String>()
        var out: [String] = []
        for chunk in chunks {
            guard let key = chunk.key else { out.append(chunk.text); continue }
            let now = desired[key], then = baseline[key]
            // A new declaration that comes before this one (a rule deleted and brought back by undo) goes here,
            // so rules keep their order.
            if now != nil, let at = order[key] {
                for d in declarations[..<at] where !inFile.contains(d.key) && !emitted.contains(d.key) {
                    out.append(d.text)
                    emitted.insert(d.key)
                }
            }
            if now == then {
                // Unchanged, or never understood by this session (a bad line, or --no-init): kept as written.
                out.append(chunk.text)
                if now != nil { emitted.insert(key) }
            } else if let now, !emitted.contains(key) {
                out.append(now)
                emitted.insert(key)
            }
            // Otherwise the declaration was removed (or is a duplicate of one rewritten above): dropped.
        }
        let new = declarations.filter { !emitted.contains($0.key) }.map(\.text)
        if out.isEmpty || original == nil {
            if new.isEmpty { return [] }
            out = ["# tagsh sidecar: custom categories, rules and settings, sourced when the ledger is opened",
                   "# and rewritten by `save` (lines it does not understand are kept as they are)."] + new + [""]
        } else if !new.isEmpty {
            // Before the final newline, if the file has one.
            if out.last == "" { out.removeLast(); out += new + [""] } else { out += new + [""] }
        }
        return Array(out.joined(separator: "\n").utf8)
    }
}

/// A file that keeps declarations: an open file's sidecar, or a rules file shared across files and months.
struct DeclarationStore {
    enum Kind: Equatable { case sidecar, rules }
    var sidecar: Sidecar
    var kind: Kind
    /// A rules file's name as `include` or --rules gave it (before `~` is expanded).
    var name: String?
    /// What the session declared for this store right after it was read or written.
    var baseline: [String: String] = [:]

    init(sidecar: Sidecar, kind: Kind) {
        self.sidecar = sidecar
        self.kind = kind
    }

    var path: String { sidecar.path }
}

extension Session {
    /// Every declaration of the session's own state, in order: categories (those the ledger's files do not
    /// bring by themselves), includes of rules files, rules, persisted settings that differ from the defaults.
    /// (Column mappings belong to each file: `declarations(forStore:)` adds them.)
    func sessionDeclarations() -> [(key: String, text: String)] {
        guard let ledger else { return [] }
        var out: [(String, String)] = []
        var used = [Bool](repeating: false, count: Int(ledger.categories.ids.upperBound))
        for c in ledger.category where Int(c) < used.count { used[Int(c)] = true }
        for id in ledger.categories.liveIDs where !ledger.categories[id].isDefault {
            let c = ledger.categories[id]
            // A category the file itself brings (used by a row, or declared there) comes back without help.
            if (used[Int(id)] || fileCategories.contains(id)) && c.color == nil && c.icon == nil { continue }
            var line = "category new " + Lexer.quote(c.name)
            if let color = c.color { line += " --color " + Lexer.quote(color.description) }
            if let icon = c.icon { line += " --icon " + Lexer.quote(String(icon)) }
            out.append(("category:" + c.name.lowercased(), line))
        }
        for store in stores where store.kind == .rules && !rulesFiles.contains(store.path) {
            // A rules file named by `include` in a sidecar (not by --rules) is included again by that sidecar.
            let name = store.name ?? store.path
            out.append(("include:" + name, "include " + Lexer.quote(name)))
        }
        for rule in rules { out.append(("rule:" + rule.name, rule.definition)) }
        let defaults = Settings()
        if settings.maxTags != defaults.maxTags { out.append(("set:max-tags", "set max-tags \(settings.maxTags)")) }
        if settings.sample != defaults.sample { out.append(("set:sample", "set sample \(settings.sample)")) }
        return out
    }

    /// The store a new declaration goes to: rules and categories to the first rules file when there is one,
    /// everything else (and everything, without a rules file) to the first file's sidecar.
    func defaultStore(for key: String) -> Int? {
        if key.hasPrefix("rule:") || key.hasPrefix("category:"), let r = stores.firstIndex(where: { $0.kind == .rules }) { return r }
        return stores.firstIndex { $0.kind == .sidecar }
    }

    /// The store that keeps a declaration.
    func store(for key: String) -> Int? {
        if let owner = owners[key], owner < stores.count { return owner }
        return defaultStore(for: key)
    }

    /// Where the rule named `name` is (or will be) saved, for messages.
    func ruleHome(_ name: String) -> String? {
        store(for: "rule:" + name).map { stores[$0].path }
    }

    /// The declarations one store keeps: those it owns, and for a sidecar its own file's column mapping.
    func declarations(forStore index: Int) -> [(key: String, text: String)] {
        var out = sessionDeclarations().filter { store(for: $0.key) == index }
        let this = stores[index]
        if this.kind == .sidecar, let f = files.first(where: { $0.path.map(Session.sidecarPath(for:)) == this.path }),
           case .csv(let layout) = f.document.layout, layout.columnMap != nil || layout.dateFormatGiven {
            var line = "columns set"
            if let map = layout.columnMap { line += " " + Lexer.quote(map.description) }
            if layout.dateFormatGiven { line += " --date-format " + Lexer.quote(layout.dateFormat.pattern) }
            out.insert(("columns", line), at: out.firstIndex { $0.key.hasPrefix("rule:") || $0.key.hasPrefix("set:") } ?? out.count)
        }
        return out
    }

    /// The declarations of the first file's sidecar (tests and the reopen checks read them).
    func declarations() -> [(key: String, text: String)] {
        stores.isEmpty ? sessionDeclarations() : declarations(forStore: 0)
    }

    /// Adds a rules file to the stores (loaded by the caller); false when it is already one.
    @discardableResult
    func addRulesStore(_ path: String, name: String? = nil) -> Bool {
        let resolved = FileIO.resolvingLinks(path)
        guard !stores.contains(where: { FileIO.resolvingLinks($0.path) == resolved }) else { return false }
        var store = DeclarationStore(sidecar: Sidecar(path: path), kind: .rules)
        store.name = name
        stores.append(store)
        return true
    }

    /// Runs one store's commands: quietly, journalling nothing, going on past a bad line. What it declares is its own.
    func load(store index: Int) {
        let sidecar = stores[index].sidecar
        loading = .sidecar
        defer { loading = nil }
        for chunk in sidecar.chunks {
            guard let command = chunk.command else { continue }
            execute(command, origin: (sidecar.path, chunk.line))
            if let key = chunk.key, owners[key] == nil { owners[key] = index }
        }
    }

    /// Rewrites each store whose declarations changed (a rules file is created when it gets its first rule).
    func writeSidecars() throws(ShellError) {
        let all = stores.indices.map { declarations(forStore: $0) }
        for i in stores.indices {
            let now = all[i]
            var store = stores[i]
            let bytes = store.sidecar.render(declarations: now, baseline: store.baseline)
            if bytes != (store.sidecar.original ?? []) {
                if store.kind == .rules, let slash = store.path.lastIndex(of: "/") {
                    FileIO.makeFolders(String(store.path[..<slash]))
                }
                do throws(FileError) { try FileIO.writeAtomically(bytes, to: store.path) } catch { throw .file(error) }
                store.sidecar = Sidecar(path: store.path)
            }
            store.baseline = Sidecar.byKey(now)
            stores[i] = store
        }
        // What the stores declared is now theirs.
        for i in stores.indices { for d in all[i] where owners[d.key] == nil { owners[d.key] = i } }
    }
}
