import TagshModel

/// Finds which rows of a bank export are already in the ledger, so that
/// next month's export (which overlaps this month's) adds only what is new.
///
/// A row whose bank id (OFX's FITID, a CSV's Transaction ID column) equals a
/// ledger row's is that row, whatever else differs; two rows whose bank ids
/// differ are never the same transaction.
///
/// Otherwise a row is a duplicate of a ledger row with the same currency and amount,
/// a date within `window` days and a similar description; each ledger row
/// stands for one export row only, so two identical coffees on one day stay
/// two when the ledger has one. Exact matches (same day, same description)
/// are paired first, so the result does not depend on the order exports are
/// imported in. A row whose amount and date match but whose description does
/// not is doubtful: it is imported, and listed.
///
/// Only ledger rows within the export's dates (± the window) are indexed, by
/// amount, so a 100,000-row export against a million-row ledger costs a hash
/// lookup per row, not a scan.
public struct ImportMatcher {
    public enum Verdict: Equatable, Sendable {
        case new
        /// Already in the ledger as this row.
        case duplicate(of: Int, reason: String)
        /// Imported, but a ledger row with the same amount near that date has another description.
        case doubtful(near: Int, reason: String)
    }

    public var window: Int

    public init(window: Int = 4) { self.window = window }

    struct Key: Hashable {
        var currency: String
        var units: Int64
        var scale: UInt8
    }

    /// The amount with trailing zeros dropped, so 4.5 and 4.50 meet.
    static func key(_ a: Amount, currency: String) -> Key {
        var u = a.units, s = a.scale
        while s > 0 && u % 10 == 0 { u /= 10; s -= 1 }
        return Key(currency: currency, units: u, scale: s)
    }

    /// A description reduced to its words: lower case, digits and punctuation dropped (card numbers, store numbers).
    public static func words(_ text: String) -> [Substring] {
        text.lowercased().split { !$0.isLetter }.filter { $0.count > 1 }
    }

    /// Whether two descriptions name the same thing: equal words, one's words within the other's, or half shared.
    public static func similar(_ a: [Substring], _ b: [Substring]) -> Bool {
        if a == b { return true }
        if a.isEmpty || b.isEmpty { return false }
        let sa = Set(a), sb = Set(b)
        if sa.isSubset(of: sb) || sb.isSubset(of: sa) { return true }
        return sa.intersection(sb).count * 2 >= min(sa.count, sb.count) + 1
    }

    /// The verdict for each row of `incoming`, compared with the ledger rows `candidates` (those in the same account).
    /// `currency` gives the currency each incoming row will have in the ledger (an export may name none).
    /// With `byAccount`, a row matches only a ledger row of the same account (an export with an account column).
    /// `bankIDs` gives each incoming row's bank id and a ledger row's ("" for none), when both sides have them.
    public func match(_ incoming: Ledger, against ledger: Ledger, candidates: [Int], currency: ((Int) -> String)? = nil,
                      byAccount: Bool = false, bankIDs: (incoming: [String], ledger: (Int) -> String)? = nil) -> [Verdict] {
        guard incoming.count > 0 else { return [] }
        let lo = incoming.days.min()! - Int32(window), hi = incoming.days.max()! + Int32(window)
        var index: [Key: [Int32]] = [:]
        var ledgerWords: [UInt32: [Substring]] = [:]
        for r in candidates where ledger.days[r] >= lo && ledger.days[r] <= hi {
            let c = ledger.currencies[ledger.currency[r]]
            index[ImportMatcher.key(ledger.amount(r), currency: byAccount ? ledger.accounts[ledger.account[r]] + "\u{1}" + c : c),
                  default: []].append(Int32(r))
        }
        var used = Set<Int32>()
        var verdicts = [Verdict](repeating: .new, count: incoming.count)
        var incomingWords: [UInt32: [Substring]] = [:]
        func wordsOf(_ row: Int) -> [Substring] {
            let m = incoming.merchant[row]
            if let w = incomingWords[m] { return w }
            let w = ImportMatcher.words(incoming.merchants[m])
            incomingWords[m] = w
            return w
        }
        func ledgerWordsOf(_ row: Int32) -> [Substring] {
            let m = ledger.merchant[Int(row)]
            if let w = ledgerWords[m] { return w }
            let w = ImportMatcher.words(ledger.merchants[m])
            ledgerWords[m] = w
            return w
        }
        let keys = (0..<incoming.count).map {
            let c = currency?($0) ?? incoming.currencies[incoming.currency[$0]]
            return ImportMatcher.key(incoming.amount($0), currency: byAccount ? incoming.accounts[incoming.account[$0]] + "\u{1}" + c : c)
        }
        // Pass 0: the same bank id. Two rows whose bank ids differ are never paired by the passes after it.
        var ledgerIDs: [Int32: String] = [:]
        func idsDiffer(_ i: Int, _ r: Int32) -> Bool {
            guard let bankIDs, !bankIDs.incoming[i].isEmpty, let theirs = ledgerIDs[r] else { return false }
            return theirs != bankIDs.incoming[i]
        }
        if let bankIDs {
            var byID: [String: Int32] = [:]
            for rows in index.values {
                for r in rows {
                    let id = bankIDs.ledger(Int(r))
                    guard !id.isEmpty else { continue }
                    ledgerIDs[r] = id
                    if byID[id] == nil { byID[id] = r }
                }
            }
            for i in 0..<incoming.count where !bankIDs.incoming[i].isEmpty {
                if let r = byID[bankIDs.incoming[i]], !used.contains(r) {
                    used.insert(r)
                    verdicts[i] = .duplicate(of: Int(r), reason: "the same bank id \(bankIDs.incoming[i])")
                }
            }
        }
        // Pass 1: same day, same words.
        for i in 0..<incoming.count where verdicts[i] == .new {
            guard let rows = index[keys[i]] else { continue }
            let w = wordsOf(i)
            if let r = rows.first(where: { !used.contains($0) && ledger.days[Int($0)] == incoming.days[i] && !idsDiffer(i, $0) && ledgerWordsOf($0) == w }) {
                used.insert(r)
                verdicts[i] = .duplicate(of: Int(r), reason: "same date, amount and description")
            }
        }
        // Pass 2: within the window, similar words; the nearest date first. Only ledger rows within the export's
        // own dates: a row before the export began is not in it (yesterday's coffee is not today's).
        let first = lo + Int32(window), last = hi - Int32(window)
        for i in 0..<incoming.count where verdicts[i] == .new {
            guard let rows = index[keys[i]] else { continue }
            let w = wordsOf(i), day = incoming.days[i]
            let near = rows.filter {
                let d = ledger.days[Int($0)]
                return !used.contains($0) && abs(d - day) <= Int32(window) && d >= first && d <= last && !idsDiffer(i, $0)
            }
                .sorted { (abs(ledger.days[Int($0)] - day), $0) < (abs(ledger.days[Int($1)] - day), $1) }
            if let r = near.first(where: { ImportMatcher.similar(ledgerWordsOf($0), w) }) {
                used.insert(r)
                let d = abs(Int(ledger.days[Int(r)] - day))
                verdicts[i] = .duplicate(of: Int(r), reason: d == 0 ? "same date and amount, similar description"
                                            : "same amount, similar description, \(d) day\(d == 1 ? "" : "s") apart")
            } else if let r = near.first {
                verdicts[i] = .doubtful(near: Int(r), reason: "same amount \(abs(Int(ledger.days[Int(r)] - day))) days apart, another description")
            }
        }
        return verdicts
    }

    /// An inflow in one account and an equal outflow in another within `days` days: a transfer between them.
    /// Each row is in one pair at most; rows already in `excluded` are left out. Pairs involve at least one of `rows`.
    public static func transferPairs(in ledger: Ledger, rows: [Int], among all: [Int], days: Int = 3, excluded: Set<Int> = [])
        -> [(out: Int, in: Int)]
    {
        guard !rows.isEmpty else { return [] }
        let wanted = Set(rows)
        var byAmount: [Key: [Int]] = [:]
        let lo = rows.map { ledger.days[$0] }.min()! - Int32(days), hi = rows.map { ledger.days[$0] }.max()! + Int32(days)
        for r in all where ledger.days[r] >= lo && ledger.days[r] <= hi && !excluded.contains(r) && ledger.amount(r).units > 0 {
            byAmount[key(ledger.amount(r), currency: ledger.currencies[ledger.currency[r]]), default: []].append(r)
        }
        var used = Set<Int>()
        var pairs: [(Int, Int)] = []
        for r in all where !excluded.contains(r) && ledger.amount(r).units < 0 && ledger.days[r] >= lo && ledger.days[r] <= hi {
            let k = key(-ledger.amount(r), currency: ledger.currencies[ledger.currency[r]])
            guard let ins = byAmount[k] else { continue }
            let candidates = ins.filter { i in
                !used.contains(i) && ledger.account[i] != ledger.account[r] && abs(ledger.days[i] - ledger.days[r]) <= Int32(days)
                    && (wanted.contains(i) || wanted.contains(r))
            }
            guard !used.contains(r), let best = candidates.min(by: { abs(ledger.days[$0] - ledger.days[r]) < abs(ledger.days[$1] - ledger.days[r]) })
            else { continue }
            used.insert(r)
            used.insert(best)
            pairs.append((r, best))
        }
        return pairs
    }
}
