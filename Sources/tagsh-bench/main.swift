// tagsh-bench: times tagsh operations on a ledger file, in process, through
// Session.execute (the same path as the prompt). Not part of the tests.
//
//   swift build -c release --product tagsh-bench
//   .build/release/tagsh-bench FILE [COMMAND...]
//
// The file is copied and opened first. With no COMMAND it runs a standard set. With TAGSH_BENCH_REPEAT=N, each
// Tab and each command that changes nothing runs N times, and the least time is printed. `complete:TEXT` times one
// completion of TEXT instead of running it (its candidates and their common prefix, as a Tab takes them); `trim` returns freed heap to the system (the rss after it
// is what is live); `warm` rebuilds the completion
// lists as the prompt does after each command; `settle` waits for what that starts on another thread (the
// descriptions sorted for Tab, grouped for the first suggestion), and its time is that wait. `review:N:QUERY` runs a
// review with N Space keys (`decide:N:QUERY`: N `w` keys, each a change) and prints its start, then each key's mean
// and slowest time to the next wait for a key and to the next screen. Prints each command's wall time and the resident memory (VmRSS, VmHWM from
// /proc/self/status) after it.
import Foundation
import TagshShell
import TagshTerminal

/// glibc's `malloc_trim`, which the Glibc module does not export.
@_silgen_name("malloc_trim") func mallocTrim(_ pad: Int) -> Int32

func memory() -> (rss: Int, peak: Int) {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return (0, 0) }
    func kb(_ key: String) -> Int {
        for line in status.split(separator: "\n") where line.hasPrefix(key) {
            return Int(line.split(separator: " ").dropFirst().first ?? "0") ?? 0
        }
        return 0
    }
    return (kb("VmRSS:") / 1024, kb("VmHWM:") / 1024)
}

/// A console that notes when each key is asked for, around the scripted one.
final class TimedConsole: Console {
    let inner: ScriptedConsole
    var waits: [ContinuousClock.Instant] = []
    init(_ inner: ScriptedConsole) { self.inner = inner }
    func readKey() -> Key {
        waits.append(ContinuousClock.now)
        return inner.readKey()
    }
    func readLine(prompt: String, initial: String, complete: @escaping (String) -> (replacing: Int, candidates: [String])) -> String? {
        inner.readLine(prompt: prompt, initial: initial, complete: complete)
    }
    var size: (columns: Int, rows: Int) { inner.size }
    var redraws: Bool { inner.redraws }
    func edit(_ text: String) -> String? { inner.edit(text) }
}

/// The shell's completion words are what the line editor reads, as in `tagsh`.
extension CompletionWords: CompletionCandidates {}

func milliseconds(_ d: Duration) -> Double { Double(d.components.seconds) * 1000 + Double(d.components.attoseconds) / 1e15 }

let arguments = Array(CommandLine.arguments.dropFirst())
let usage = "usage: tagsh-bench FILE [COMMAND...]  (see the comment at the top of Sources/tagsh-bench/main.swift)\n"
if arguments.first == "--help" || arguments.first == "-h" {
    print(usage, terminator: "")
    exit(0)
}
guard let file = arguments.first else {
    FileHandle.standardError.write(Data(usage.utf8))
    exit(2)
}
guard FileManager.default.isReadableFile(atPath: file) else {
    FileHandle.standardError.write(Data("tagsh-bench: cannot read \(file)\n".utf8) + Data(usage.utf8))
    exit(2)
}
// The copies of runs that were killed (a timeout, Ctrl-C) before they removed theirs: a million-row copy is
// 50-150 MB, and such runs had left gigabytes in the temporary folder.
for name in (try? FileManager.default.contentsOfDirectory(atPath: NSTemporaryDirectory())) ?? [] where name.hasPrefix("tagsh-bench-") {
    let pid = name.dropFirst("tagsh-bench-".count).prefix { $0.isNumber }
    if let pid = Int32(pid), kill(pid, 0) != 0, errno == ESRCH { try? FileManager.default.removeItem(atPath: NSTemporaryDirectory() + name) }
}
let scratch = NSTemporaryDirectory() + "tagsh-bench-\(getpid())-" + (file as NSString).lastPathComponent
var commands = ["open \(scratch)"] + arguments.dropFirst()
if commands.count == 1 {
    commands += [
        "count", "count 'desc:/^STAR/'", "count tag:coffee amt:<-5",
        "tag all +x", "undo", "redo", "undo", "redo", "select tag:coffee", "intent @ want", "save",
        "undo 2", "save",
    ]
}
try? FileManager.default.removeItem(atPath: scratch)
// The file's contents, not a link to it: a copied symbolic link is a link, and a save through it (tagsh saves to
// the link's target) changed the benchmark's own data.
// (Copied by the kernel, a gigabyte a call: `FileManager.copyItem` made 4 KB `sendfile` calls, 35,000 of them and
// about 5 s for a 143 MB file, before every run.)
func copyFile(_ from: String, to: String) -> Bool {
    let source = open(from, O_RDONLY)
    guard source >= 0 else { return false }
    defer { close(source) }
    let target = open(to, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    guard target >= 0 else { return false }
    defer { close(target) }
    while true {
        let n = sendfile(target, source, nil, 1 << 30)
        if n == 0 { return true }
        if n < 0 && errno != EINTR { return false }
    }
}
guard copyFile((file as NSString).resolvingSymlinksInPath, to: scratch) else {
    FileHandle.standardError.write(Data("tagsh-bench: cannot copy \(file) to \(scratch)\n".utf8))
    exit(1)
}
defer {
    // The copy, and what its saves leave beside it (a history after `tag all` of the merchants shape is 114 MB).
    for path in [scratch, scratch + ".bak", scratch + ".tagsh-history"] { try? FileManager.default.removeItem(atPath: path) }
}

/// The output, noting when each screen is handed on (`review` flushes each screen it draws).
final class TimedSink: OutputSink {
    let inner = BufferSink()
    var flushes: [ContinuousClock.Instant] = []
    var err: String { inner.err }
    func reset() { inner.reset() }
    func write(_ text: String, to stream: OutputChannel) { inner.write(text, to: stream) }
    func flush() { flushes.append(ContinuousClock.now) }
}

let sink = TimedSink()
let session = Session(sink: sink)
let completer = Completer(registry: session.registry, data: { session.completionData() }, listDirectory: { _ in [] })
print("command".padding(toLength: 34, withPad: " ", startingAt: 0) + "      ms   rss MB  peak MB")
let repeats = max(1, Int(ProcessInfo.processInfo.environment["TAGSH_BENCH_REPEAT"] ?? "") ?? 1)
/// One Tab, as the line editor takes it: the candidates for `text` (the cursor at its end), then their longest
/// common prefix. Returns how many candidates there were.
@MainActor func tab(_ text: String) -> Int {
    let found = completer.complete(text).words
    _ = LineEditor.longestCommonPrefix(found)
    return found.count
}
for command in commands {
    sink.reset()
    let stepsBefore = (count: session.steps.count, position: session.position)
    let clock = ContinuousClock()
    let start = clock.now
    // `complete:TEXT` times one Tab: the completion of TEXT (the cursor at its end).
    var status = Session.Status.ok
    var candidates: Int?
    if command.hasPrefix("review:") || command.hasPrefix("decide:") {
        // `review:N:QUERY` runs `review QUERY` with N keys (Space: the next transaction drawn) and prints two rows:
        // the loop's start (its merchant index and first screen, up to its first wait for a key), then the mean
        // and the slowest of the N keys, each timed from the key to the loop's next wait.
        let parts = command.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false).map(String.init)
        let keys = Int(parts[1]) ?? 0
        // (`decide:N:QUERY`: the key `w`, intent want, which changes each transaction and moves on.)
        let key = command.hasPrefix("decide:") ? "w" : "<Space>"
        let console = TimedConsole(ScriptedConsole(Array(repeating: key, count: keys).joined(separator: " ") + " q"))
        session.console = console
        status = session.execute("review " + parts[2])
        let waits = console.waits.map { $0 - start }.map(milliseconds)
        let m = memory()
        func row(_ label: String, _ ms: Double, _ more: String = "") {
            print(String(label.prefix(34)).padding(toLength: 34, withPad: " ", startingAt: 0) + String(format: "%8.2f %8d %8d", ms, m.rss, m.peak)
                  + more + (status == .ok ? "" : "  FAILED: " + sink.err))
        }
        let verb = parts[0]
        row(verb + " start " + parts[2], waits.first ?? 0)
        let steps = zip(waits.dropFirst(), waits).map { $0 - $1 }
        if !steps.isEmpty {
            row(verb + " key " + parts[2], steps.reduce(0, +) / Double(steps.count), String(format: "  (slowest %.2f)", steps.max() ?? 0))
            // From each key to the next screen handed on (the work done ahead for the screen after it, before
            // the next wait, is in the row above and not here).
            let flushes = sink.flushes.map { $0 - start }.map(milliseconds)
            let shown = waits.dropLast().compactMap { w in flushes.first { $0 >= w }.map { $0 - w } }
            if !shown.isEmpty {
                row(verb + " key to screen " + parts[2], shown.reduce(0, +) / Double(shown.count),
                    String(format: "  (slowest %.2f)", shown.max() ?? 0))
            }
        }
        sink.flushes = []
        continue
    }
    if command == "trim" {
        // Gives freed heap back to the system, so the next figure is what is live.
        _ = mallocTrim(0)
    } else if command == "settle" {
        // Until the other thread has sorted the descriptions, a `desc:` Tab scans them; until it has grouped
        // them, the first suggestion groups them.
        session.waitForPreparedWork()
    } else if command == "warm" {
        // What the prompt does after each command: rebuild the completion lists.
        _ = session.completionData()
    } else if command.hasPrefix("complete:") {
        candidates = tab(String(command.dropFirst(9)))
    } else {
        status = session.execute(command)
    }
    var ms = milliseconds(clock.now - start)
    // With TAGSH_BENCH_REPEAT=N, a Tab, or a command that changed nothing (no step made or undone) and is not a
    // save, an open or a setting, runs N times and its least time is printed (marked `min of N`).
    var repeated = 1
    let unchanged = command.hasPrefix("complete:")
        || (!["save", "open", "set", "source", "undo", "redo", "apply"].contains(command.split(separator: " ").first.map(String.init) ?? "")
            && session.steps.count == stepsBefore.count && session.position == stepsBefore.position)
    if repeats > 1, status == .ok, unchanged, command != "warm", command != "settle", command != "trim" {
        for _ in 1..<repeats {
            sink.reset()
            let again = clock.now
            if command.hasPrefix("complete:") {
                _ = tab(String(command.dropFirst(9)))
            } else {
                _ = session.execute(command)
            }
            ms = min(ms, milliseconds(clock.now - again))
        }
        repeated = repeats
    }
    let m = memory()
    let label = String(command.prefix(34)).padding(toLength: 34, withPad: " ", startingAt: 0)
    // (A Tab that offers nothing is timed all the same: a ledger without tags has none to offer.)
    print(label + String(format: "%8.1f %8d %8d", ms, m.rss, m.peak) + (status == .ok ? "" : "  FAILED: " + sink.err)
          + (candidates == 0 ? "  no candidates" : "") + (repeated > 1 ? "  min of \(repeated)" : ""))
}
