#if canImport(Glibc)
import Glibc
#endif
import TagshFormats

/// Column mappings remembered across files, by header row, in
/// `$XDG_CONFIG_HOME/tagsh/columns` (one `SIGNATURE<TAB>MAP` per line): the
/// mapping given for this month's export reads next month's, which has the
/// same header but a new file name and no sidecar yet.
struct ColumnMemory {
    let path: String

    func read() -> [String: ColumnMap] {
        guard FileIO.exists(path), let bytes = try? FileIO.read(path).bytes else { return [:] }
        var out: [String: ColumnMap] = [:]
        for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n") {
            let parts = line.split(separator: "\t", maxSplits: 1)
            guard parts.count == 2, let map = try? ColumnMap(parsing: String(parts[1])) else { continue }
            out[String(parts[0])] = map
        }
        return out
    }

    /// Remembers a mapping for a header row (replacing an older one for the same header).
    func remember(_ map: ColumnMap, header: [String]) throws(FileError) {
        var all = read()
        let key = ColumnMap.signature(of: header)
        guard all[key] != map else { return }
        all[key] = map
        let text = all.keys.sorted().map { $0 + "\t" + (all[$0]?.description ?? "") }.joined(separator: "\n") + "\n"
        if let slash = path.lastIndex(of: "/") { FileIO.makeFolders(String(path[..<slash])) }
        try FileIO.writeAtomically(Array(text.utf8), to: path)
    }
}

/// The account each bank export goes to, remembered by its header row in
/// `$XDG_CONFIG_HOME/tagsh/accounts` (one `SIGNATURE<TAB>ACCOUNT` per line),
/// so next month's `import` needs no `--account`.
struct AccountMemory {
    let path: String

    func read() -> [String: String] {
        guard FileIO.exists(path), let bytes = try? FileIO.read(path).bytes else { return [:] }
        var out: [String: String] = [:]
        for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n") {
            let parts = line.split(separator: "\t", maxSplits: 1)
            if parts.count == 2 { out[String(parts[0])] = String(parts[1]) }
        }
        return out
    }

    func remember(_ account: String, header: [String]) throws(FileError) {
        var all = read()
        let key = ColumnMap.signature(of: header)
        guard all[key] != account else { return }
        all[key] = account
        let text = all.keys.sorted().map { $0 + "\t" + (all[$0] ?? "") }.joined(separator: "\n") + "\n"
        if let slash = path.lastIndex(of: "/") { FileIO.makeFolders(String(path[..<slash])) }
        try FileIO.writeAtomically(Array(text.utf8), to: path)
    }
}
