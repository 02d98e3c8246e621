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
    ///
    /// Read from the columns, with a bit per row for `rows`, `excluded` and the rows paired, and amounts keyed by
    /// the currency's id: over a million rows, a `Set` of row numbers and a currency's name hashed per row took
    /// 0.2 s. (The rows are one ledger's, so a currency's id is its name.)
    public static func transferPairs(in ledger: Ledger, rows: [Int], among all: [Int], days: Int = 3, excluded: Set<Int> = [])
        -> [(out: Int, in: Int)]
    {
        guard !rows.isEmpty else { return [] }
        // All in one account: nothing is a transfer between two, and the inflows need not be gathered (on the 1M `eu`
        // shape, one account and 65 merchants, gathering them was most of 49-78 ms).
        if let first = all.first {
            let account = ledger.account[first]
            if ledger.account.withUnsafeBufferPointer({ column in all.allSatisfy { column[$0] == account } }) { return [] }
        }
        func key(_ r: Int, negated: Bool) -> AmountRows.Amount {
            var u = ledger.amountUnits[r], s = ledger.amountScale[r]
            if negated { u = -u }
            while s > 0 && u % 10 == 0 { u /= 10; s -= 1 }
            return AmountRows.Amount(units: u, scale: s, currency: ledger.currency[r])
        }
        let n = ledger.count
        // (Bits set in plain loops: `RowSet(rowCount:rows:)`, generic over the sequence, took a third of the command.)
        let everyRowWanted = rows.count == n
        var wanted = RowSet(rowCount: everyRowWanted ? 0 : n), skip = RowSet(rowCount: n)
        if !everyRowWanted { for r in rows { wanted.insert(r) } }
        for r in excluded where r >= 0 && r < n { skip.insert(r) }
        var lo = Int32.max, hi = Int32.min
        for r in rows { lo = min(lo, ledger.days[r]); hi = max(hi, ledger.days[r]) }
        lo -= Int32(days); hi += Int32(days)
        // The inflows of each amount, by day, each with its place in `all` (which breaks ties).
        struct Inflow { var day: Int32; var place: Int32; var row: Int }
        var byAmount: [AmountRows.Amount: [Inflow]] = [:]
        // A bit per hash of the inflows' keys: most outflows have an amount no inflow has, and are passed over
        // without a dictionary look-up.
        var seen = [UInt64](repeating: 0, count: 1 << 14)
        func bit(_ k: AmountRows.Amount) -> Int { Int(truncatingIfNeeded: k.mix >> 44) } // 20 bits
        // (The place is the row's in `all`: it orders an amount's inflows as their places among them do.)
        for (place, r) in all.enumerated() where ledger.amountUnits[r] > 0 && ledger.days[r] >= lo && ledger.days[r] <= hi && !skip.contains(r) {
            let k = key(r, negated: false)
            byAmount[k, default: []].append(Inflow(day: ledger.days[r], place: Int32(truncatingIfNeeded: place), row: r))
            let b = bit(k)
            seen[b >> 6] |= 1 << UInt64(b & 63)
        }
        // An outflow looks only at the inflows of its amount within `days` of it, found by halving: it looked at every
        // inflow of its amount, which over years of recurring amounts is thousands.
        for k in byAmount.keys { byAmount[k]!.sort { $0.day < $1.day } }
        var used = RowSet(rowCount: n)
        var pairs: [(Int, Int)] = []
        for r in all where ledger.amountUnits[r] < 0 && ledger.days[r] >= lo && ledger.days[r] <= hi && !skip.contains(r) {
            let k = key(r, negated: true)
            let b = bit(k)
            // (An outflow is paired only as itself, here: no earlier row can have used it.)
            guard seen[b >> 6] & (1 << UInt64(b & 63)) != 0, let ins = byAmount[k] else { continue }
            let day = ledger.days[r]
            var at = 0, end = ins.count
            while at < end {
                let mid = (at + end) / 2
                if ins[mid].day < day - Int32(days) { at = mid + 1 } else { end = mid }
            }
            // The nearest in days, the first of the nearest in `all`'s order (as `min(by:)` took it).
            var best: Inflow?
            var bestGap = Int32.max
            while at < ins.count && ins[at].day <= day + Int32(days) {
                let i = ins[at]
                at += 1
                guard !used.contains(i.row), ledger.account[i.row] != ledger.account[r],
                      everyRowWanted || wanted.contains(i.row) || wanted.contains(r) else { continue }
                let gap = abs(i.day - day)
                if gap < bestGap || gap == bestGap && i.place < best!.place { (best, bestGap) = (i, gap) }
            }
            guard let best = best?.row else { continue }
            used.insert(r)
            used.insert(best)
            pairs.append((r, best))
        }
        return pairs
    }
}
