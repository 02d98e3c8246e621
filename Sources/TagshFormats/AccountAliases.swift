/// A journal's `alias` directives, which rename accounts as they are read: `alias food = Expenses:Food` makes a
/// posting to `food` (or `food:snacks`) one to `Expenses:Food` (`Expenses:Food:snacks`), from that line to an
/// `end aliases` line, in included files too.
///
/// Read as hledger reads them, where ledger 3.3 agrees: a plain name matches the whole account or its leading
/// part up to a colon, with its letter case; `alias /REGEX/ = REPLACEMENT` (hledger's; ledger takes it for a
/// plain name that no account has) replaces every match, ignoring case, with `\1` for a group. The last alias
/// defined is applied first, and each one after it sees what the ones before it made. What is written in the file
/// is never changed: a posting to `food` stays `food` on a save that does not change its category.
struct AccountAliases: Sendable {
    /// (`@unchecked`: a `Regex` is not marked `Sendable`, but nothing here changes one once it is made.)
    enum Rule: @unchecked Sendable {
        case plain(old: String, new: String)
        case regex(Regex<AnyRegexOutput>, replacement: String)
    }

    /// In the order they were defined.
    private(set) var rules: [Rule] = []

    var isEmpty: Bool { rules.isEmpty }

    /// Adds the alias an `alias OLD = NEW` line (without `alias `) defines; false when it defines none that
    /// hledger reads (no `=`, an empty side, a regex that does not compile), which is kept as it is and ignored.
    mutating func add(_ definition: Substring) -> Bool {
        let d = String(definition).trimmingCharacters(in: " \t")
        // A regex runs to the `/` before the `=` (it may hold an `=` of its own).
        var eq = d.firstIndex(of: "=")
        if d.first == "/" {
            var i = d.index(after: d.startIndex)
            eq = nil
            while let slash = d[i...].firstIndex(of: "/") {
                let after = d[d.index(after: slash)...].drop { $0 == " " || $0 == "\t" }
                if after.first == "=" { eq = after.startIndex; break }
                i = d.index(after: slash)
            }
        }
        guard let eq else { return false }
        let old = String(d[..<eq]).trimmingCharacters(in: " \t")
        let new = String(d[d.index(after: eq)...]).trimmingCharacters(in: " \t")
        guard !old.isEmpty else { return false }
        if old.count >= 2, old.first == "/", old.last == "/" {
            guard let regex = try? Regex(String(old.dropFirst().dropLast())).ignoresCase() else { return false }
            rules.append(.regex(regex, replacement: new))
        } else {
            guard !new.isEmpty else { return false }
            rules.append(.plain(old: old, new: new))
        }
        return true
    }

    mutating func removeAll() { rules.removeAll() }

    /// The account `written` names under these aliases.
    func apply(_ written: String) -> String {
        var name = written
        for rule in rules.reversed() {
            switch rule {
            case .plain(let old, let new):
                if name == old {
                    name = new
                } else if name.hasPrefix(old), name.utf8.count > old.utf8.count {
                    let rest = name.utf8.index(name.utf8.startIndex, offsetBy: old.utf8.count)
                    if name.utf8[rest] == 0x3A { name = new + name[rest...] }
                }
            case .regex(let regex, let replacement):
                name = name.replacing(regex) { match in AccountAliases.expand(replacement, match.output) }
            }
        }
        return name
    }

    /// `replacement` with each `\N` (N a digit) replaced by group N of the match, empty when it took no part.
    static func expand(_ replacement: String, _ output: AnyRegexOutput) -> String {
        guard replacement.contains("\\") else { return replacement }
        var out = ""
        var chars = replacement.makeIterator()
        while let c = chars.next() {
            guard c == "\\" else { out.append(c); continue }
            guard let d = chars.next() else { out.append(c); break }
            if let n = d.wholeNumberValue, n < output.count {
                if let s = output[n].substring { out += s }
            } else {
                out.append(d)
            }
        }
        return out
    }
}

/// The aliases in force from each row on: `layout.aliasScopes[k]` holds from row `from` to the next scope's row.
/// Rows are numbered in the order they are read, included files in their place, so a row's aliases are the last
/// scope that starts at or before it (new rows, appended by an import at the end of the main file, are read by
/// the peers under the aliases in force there, which is the last scope).
struct AliasScope: Sendable {
    var from: Int
    var aliases: AccountAliases
}

extension [AliasScope] {
    /// The aliases row `row` is read under: none before the first scope.
    func aliases(atRow row: Int) -> AccountAliases? {
        var lo = 0, hi = count
        while lo < hi {
            let mid = (lo + hi) / 2
            if self[mid].from <= row { lo = mid + 1 } else { hi = mid }
        }
        return lo == 0 ? nil : self[lo - 1].aliases
    }
}
