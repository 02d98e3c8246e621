/// Namespace for the command declarations, one per file in `Commands/`.
public enum Commands {}

/// Every command, in the order `help` lists them within a group.
public struct CommandRegistry: Sendable {
    public let commands: [Command]

    public static let standard: CommandRegistry = CommandRegistry(commands: [
        Commands.open, Commands.importCommand, Commands.save, Commands.export, Commands.info, Commands.columns,
        Commands.ls, Commands.select, Commands.count, Commands.show, Commands.tags, Commands.merchants,
        Commands.categories, Commands.intents, Commands.summary, Commands.chart,
        Commands.tag, Commands.intent, Commands.category, Commands.note, Commands.review,
        Commands.transfers, Commands.rule, Commands.rules, Commands.include, Commands.preview, Commands.apply, Commands.suggest,
        Commands.undo, Commands.redo, Commands.history, Commands.blame,
        Commands.source, Commands.edit, Commands.record, Commands.recover, Commands.discard, Commands.set, Commands.echo, Commands.help, Commands.quit,
    ])

    /// The command called `name` or one of its aliases (case-insensitive).
    public func command(named name: String) -> Command? {
        let n = name.lowercased()
        return commands.first { $0.name == n || $0.aliases.contains(n) }
    }

    /// Every name and alias, sorted.
    public var allNames: [String] { commands.flatMap { [$0.name] + $0.aliases }.sorted() }

    /// The nearest command name to a mistyped one, if one is near enough.
    public func suggestion(for typed: String) -> String? {
        let t = typed.lowercased()
        if let best = nearestName(to: t, among: allNames) { return best }
        return allNames.first { $0.hasPrefix(t) && t.count >= 2 }
    }
}

/// The name among `names` nearest to `typed` (lower-cased), within a third of its length in edits (one at least):
/// what a mistyped command or option most likely meant; nil when none is that near.
func nearestName(to typed: String, among names: [String]) -> String? {
    let t = typed.lowercased()
    return names.map { ($0, editDistance(t, $0)) }.filter { $0.1 <= max(1, t.count / 3) }.min { $0.1 < $1.1 }?.0
}

/// Edit distance over characters, a swap of two neighbours counting as one edit (`tga` is one from `tag`,
/// as typing slips usually are; plain Levenshtein made it two, too far for a suggestion).
func editDistance(_ a: String, _ b: String) -> Int {
    let a = Array(a), b = Array(b)
    if a.isEmpty { return b.count }
    if b.isEmpty { return a.count }
    var before = [Int](repeating: 0, count: b.count + 1)
    var prev = Array(0...b.count)
    var cur = prev
    for i in 1...a.count {
        cur[0] = i
        for j in 1...b.count {
            cur[j] = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] { cur[j] = min(cur[j], before[j - 2] + 1) }
        }
        (before, prev, cur) = (prev, cur, before)
    }
    return prev[b.count]
}
