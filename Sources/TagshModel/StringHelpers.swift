extension String {
    /// Whether every character is ASCII, so a character offset is a byte offset (the writers' fast paths).
    public var isASCII: Bool {
        utf8.withContiguousStorageIfAvailable { bytes in
            var high: UInt8 = 0
            for b in bytes { high |= b }
            return high < 0x80
        } ?? utf8.allSatisfy { $0 < 0x80 }
    }

    /// The string without leading and trailing characters from `set`.
    public func trimmingCharacters(in set: String) -> String {
        var s = Substring(self)
        while let f = s.first, set.contains(f) { s = s.dropFirst() }
        while let l = s.last, set.contains(l) { s = s.dropLast() }
        return String(s)
    }

    /// Every occurrence of `target` replaced (Foundation-free).
    public func replacingAll(_ target: String, with replacement: String) -> String {
        // A one-byte target that is not there (the usual case) costs a byte scan, not a substring search:
        // completion quotes every description it offers, and tens of thousands can match.
        if target.utf8.count == 1, let byte = target.utf8.first, !utf8.contains(byte) { return self }
        return split(separator: target, omittingEmptySubsequences: false).joined(separator: replacement)
    }
}

/// A share or a confidence in hundredths, as `0.80` or `1.00` (Foundation-free). A function, not a
/// `String` initializer: an unlabelled `String.init` reference (`ids.map(String.init)`) would pick that.
public func twoDecimals(hundredths: Int) -> String {
    "\(hundredths / 100).\(hundredths % 100 < 10 ? "0" : "")\(hundredths % 100)"
}

extension Array where Element == UInt8 {
    /// How many line feeds the bytes hold before `end` (a line number less one), a word at a time, and the two
    /// halves at once from 4 MB: `show` counts them before a record half-way down a million-row file, where one
    /// byte at a time took 10-60 ms, and a word at a time on one core 20-35 ms of the 1M `wide` shape's 143 MB.
    public func lineFeeds(before end: Int) -> Int {
        withUnsafeBytes { raw in
            let end = Swift.min(Swift.max(end, 0), raw.count)
            return Parallel.halves(end, threshold: 4 << 20) { Self.lineFeeds(in: UnsafeRawBufferPointer(rebasing: raw[$0])) }.reduce(0, +)
        }
    }

    /// How many line feeds `raw` holds.
    static func lineFeeds(in raw: UnsafeRawBufferPointer) -> Int {
        var n = 0, i = 0
        // A byte equal to 0x0A is a zero byte of `w ^ 0x0A0A...`; those are counted exactly by the high bits of
        // ((x & 0x7F7F...) + 0x7F7F...) | x, which are clear only for zero bytes.
        let ones: UInt64 = 0x0101_0101_0101_0101, lows: UInt64 = 0x7F7F_7F7F_7F7F_7F7F
        while i + 8 <= raw.count {
            let x = raw.loadUnaligned(fromByteOffset: i, as: UInt64.self) ^ (ones &* 0x0A)
            let nonzero = (((x & lows) &+ lows) | x) & ~lows
            n += 8 - nonzero.nonzeroBitCount
            i += 8
        }
        while i < raw.count {
            if raw[i] == 0x0A { n += 1 }
            i += 1
        }
        return n
    }
}

/// A value read from a file in single quotes, as an error message shows it: past `limit` characters, its first ones
/// and "…" (the window of the line under the message shows where it is). A 50 MB field in the date column, quoted
/// whole, made a 50 MB message.
public func quotedValue<S: StringProtocol>(_ value: S, limit: Int = 48) -> String {
    guard value.utf8.count > limit else { return "'" + String(value) + "'" }
    let head = value.prefix(limit)
    return "'" + String(head) + (head.endIndex == value.endIndex ? "'" : "…'")
}
