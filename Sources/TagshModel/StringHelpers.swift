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
