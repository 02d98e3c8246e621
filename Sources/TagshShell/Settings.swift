import TagshModel

/// Options changed with `set NAME VALUE` and listed by `set`.
public struct Settings: Sendable, Equatable {
    public enum ColorMode: String, Sendable, CaseIterable { case auto, always, never }

    /// The most tags a transaction may hold.
    public var maxTags = 10
    /// How many changed transactions `preview` shows by default.
    public var sample = 5
    public var color: ColorMode = .auto
    /// Table width in columns; nil follows the terminal.
    public var width: Int?
    /// At the prompt, output longer than the screen goes through `$PAGER`.
    public var pager = true
    /// Suggestions below this confidence are not made (chosen from `suggest --backtest` on the demo and generated ledgers).
    public var suggestThreshold = 0.8

    public init() {}

    /// Every setting: name, current value as text, and what it does.
    public var all: [(name: String, value: String, help: String)] {
        [
            ("max-tags", String(maxTags), "the most tags one transaction may hold (1-1000)"),
            ("sample", String(sample), "how many changed transactions preview shows (1-10000)"),
            ("color", color.rawValue, "colour output: auto (on a terminal), always or never"),
            ("width", width.map(String.init) ?? "auto", "table width in columns, or auto to follow the terminal"),
            ("suggest-threshold", Settings.decimal(suggestThreshold), "the confidence below which nothing is suggested (0-1)"),
            ("pager", pager ? "on" : "off", "at the prompt, output longer than the screen goes through $PAGER (default less -RFX)"),
        ]
    }

    public static var names: [String] { Settings().all.map(\.name) }

    /// 0.8 → "0.80".
    public static func decimal(_ p: Double) -> String {
        twoDecimals(hundredths: Int((p * 100).rounded()))
    }

    /// Sets one option from its text value; returns a message when refused.
    public mutating func set(_ name: String, _ value: String) -> String? {
        switch name {
        case "max-tags":
            guard let n = Int(value), (1...1000).contains(n) else { return "max-tags takes a whole number from 1 to 1000" }
            maxTags = n
        case "sample":
            guard let n = Int(value), (1...10000).contains(n) else { return "sample takes a whole number from 1 to 10000" }
            sample = n
        case "color", "colour":
            guard let m = ColorMode(rawValue: value.lowercased()) else { return "color takes auto, always or never" }
            color = m
        case "width":
            if value.lowercased() == "auto" { width = nil; return nil }
            guard let n = Int(value), (20...1000).contains(n) else { return "width takes auto or a whole number from 20 to 1000" }
            width = n
        case "pager":
            switch value.lowercased() {
            case "on": pager = true
            case "off": pager = false
            default: return "pager takes on or off"
            }
        case "suggest-threshold":
            guard let p = Double(value), p >= 0, p <= 1 else { return "suggest-threshold takes a number from 0 to 1, such as 0.8" }
            suggestThreshold = p
        default:
            return "unknown setting '\(name)' (settings: \(Settings.names.joined(separator: ", ")))"
        }
        return nil
    }
}
