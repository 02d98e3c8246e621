/// A text table fitted to a width: columns that may shrink are cut with `…`.
struct Table {
    struct Column {
        var header: String
        var alignRight = false
        /// May be narrowed (down to `minWidth`) to fit the width.
        var shrinkable = false
        var minWidth = 4
        /// When the table does not fit, columns with a drop rank are left out, the highest rank first, before
        /// any is narrowed below its minimum (a header is never cut: `CATEGO…` helps nobody).
        var drop: Int? = nil
        /// Cut between words (tags, notes), not inside one: `trip/lisbon coffee` → `trip/lisbon …`.
        var cutAtWords = false
    }

    /// A cell's plain text, and how to colour it once cut to width.
    struct Cell {
        var text: String
        var paint: ((String) -> String)?

        init(_ text: String, paint: ((String) -> String)? = nil) {
            self.text = text
            self.paint = paint
        }
    }

    var columns: [Column]
    var rows: [[Cell]] = []

    init(_ columns: [Column]) { self.columns = columns }

    mutating func add(_ cells: [Cell]) { rows.append(cells) }

    /// The column widths that fit `width` (nil: no limit).
    func widths(fitting width: Int?) -> [Int] {
        fit(contentWidths(check: {}), to: width)
    }

    /// The widest cell of each column; `check` runs every 4096 rows.
    private func contentWidths<E: Error>(check: () throws(E) -> Void) throws(E) -> [Int] {
        var w = columns.map { TextSafety.displayWidth($0.header) }
        for (r, row) in rows.enumerated() {
            if r % 4096 == 0 { try check() }
            for (i, cell) in row.enumerated() where i < w.count {
                w[i] = max(w[i], TextSafety.displayWidth(cell.text))
            }
        }
        return w
    }

    /// The widest first word of each column cut at words (0 for the others): narrower, a word would be cut.
    private func firstWordWidths() -> [Int] {
        var w = [Int](repeating: 0, count: columns.count)
        for i in columns.indices where columns[i].cutAtWords {
            for row in rows where i < row.count {
                w[i] = max(w[i], TextSafety.displayWidth(String(row[i].text.prefix { $0 != " " })))
            }
        }
        return w
    }

    /// Narrows content widths `w` to fit `width`; a dropped column gets width 0 (left out).
    private func fit(_ content: [Int], to width: Int?) -> [Int] {
        var w = content
        guard let width else { return w }
        // The narrowest a column gets before columns are dropped: its minimum, but never less than its header.
        let words = firstWordWidths()
        let floor = columns.indices.map { i in
            columns[i].shrinkable ? min(w[i], max(columns[i].minWidth, TextSafety.displayWidth(columns[i].header), words[i])) : w[i]
        }
        func total(_ w: [Int]) -> Int {
            let shown = w.filter { $0 > 0 }
            return shown.reduce(0, +) + 2 * max(0, shown.count - 1)
        }
        // Drop columns, highest rank first, while even their neighbours at their floor would not fit.
        var dropped = Set<Int>()
        while total(columns.indices.map { dropped.contains($0) ? 0 : floor[$0] }) > width,
              let i = columns.indices.filter({ columns[$0].drop != nil && !dropped.contains($0) }).max(by: { columns[$0].drop! < columns[$1].drop! }) {
            dropped.insert(i)
        }
        for i in dropped { w[i] = 0 }
        var excess = total(w) - width
        // Then narrow the widest shrinkable column down to its floor,
        // then, if that is not enough, down to one column.
        for floorOf in [{ (i: Int) in floor[i] }, { (_: Int) in 1 }] {
            while excess > 0 {
                guard let i = columns.indices.filter({ columns[$0].shrinkable && w[$0] > floorOf($0) })
                    .max(by: { w[$0] < w[$1] }) else { break }
                let cut = min(excess, w[i] - floorOf(i), max(1, (w[i] - floorOf(i) + 1) / 2))
                w[i] -= cut
                excess -= cut
            }
        }
        return w
    }

    func render(width: Int?, style: Style) -> String {
        let w = widths(fitting: width)
        var out = ""
        out.reserveCapacity(rows.count * 80)
        out += header(w, style: style) + "\n"
        for row in rows { out += line(row, w) + "\n" }
        return out
    }

    /// Writes the table a few hundred lines at a time and asks between them
    /// whether Ctrl-C was pressed, so a listing of a million rows stops while
    /// it is measured or written (output to a terminal blocks while it scrolls).
    func write(to out: Printer, width: Int?, session: Session) throws(ShellError) {
        let w = fit(try contentWidths { () throws(ShellError) in try session.checkInterrupted() }, to: width)
        var chunk = Array((header(w, style: out.style) + "\n").utf8)
        for (i, row) in rows.enumerated() {
            if i % 512 == 0 {
                try session.checkInterrupted()
                out.text(String(decoding: chunk, as: UTF8.self))
                chunk.removeAll(keepingCapacity: true)
            }
            line(row, w, into: &chunk)
            chunk.append(0x0A)
        }
        try session.checkInterrupted()
        out.text(String(decoding: chunk, as: UTF8.self))
    }

    func header(_ w: [Int], style: Style) -> String {
        let cells = columns.indices.filter { w[$0] > 0 || content0($0) }.map {
            TextSafety.pad(TextSafety.truncate(columns[$0].header, toWidth: w[$0]), w[$0], alignRight: columns[$0].alignRight)
        }
        return style.bold(cells.joined(separator: "  ").trimmingTrailingSpaces())
    }

    /// A column whose content is empty and whose header is empty (a bar column) keeps its place at width 0.
    private func content0(_ i: Int) -> Bool { columns[i].header.isEmpty }

    func line(_ row: [Cell], _ w: [Int]) -> String {
        var out: [UInt8] = []
        line(row, w, into: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// Appends a row's line (cells cut and padded to `w`, two spaces apart, no trailing spaces), built as bytes:
    /// a listing of 70,000 rows spent most of its time padding and joining `String`s.
    func line(_ row: [Cell], _ w: [Int], into out: inout [UInt8]) {
        let lineStart = out.count
        var first = true
        for (i, cell) in row.enumerated() where i < w.count && (w[i] > 0 || content0(i)) {
            if !first { out.append(0x20); out.append(0x20) }
            first = false
            let width = w[i]
            let cut: String, cutWidth: Int
            if TextSafety.isPrintableASCII(cell.text) && cell.text.utf8.count <= width {
                cut = cell.text
                cutWidth = cell.text.utf8.count
            } else {
                cut = columns[i].cutAtWords ? TextSafety.truncateAtWords(cell.text, toWidth: width) : TextSafety.truncate(cell.text, toWidth: width)
                cutWidth = TextSafety.displayWidth(cut)
            }
            let fill = max(0, width - cutWidth)
            let shown = cut.isEmpty ? cut : cell.paint.map { $0(cut) } ?? cut
            if columns[i].alignRight {
                out.append(contentsOf: repeatElement(0x20, count: fill))
                out.append(contentsOf: shown.utf8)
            } else {
                out.append(contentsOf: shown.utf8)
                out.append(contentsOf: repeatElement(0x20, count: fill))
            }
        }
        while out.count > lineStart && out[out.count - 1] == 0x20 { out.removeLast() }
    }
}

extension String {
    /// Without its trailing spaces. (On bytes: a space never joins the character before it, and a Substring's
    /// `dropLast` counts the whole string each time, which made every `ls` line quadratic in its trailing spaces.)
    func trimmingTrailingSpaces() -> String {
        let bytes = utf8
        var end = bytes.endIndex
        while end > bytes.startIndex, bytes[bytes.index(before: end)] == 0x20 { end = bytes.index(before: end) }
        return end == bytes.endIndex ? self : String(decoding: bytes[..<end], as: UTF8.self)
    }
}
