import Rendering

/// A plain table for terminal output: a header row, aligned columns, cut with `…` to fit the width.
///
/// Numbers can be right-aligned. When the table is too wide, free text (titles, authors, names, labels) gives way
/// first, so that facts of a fixed width (ids, dates, times, numbers, statuses) stay whole; only when the text has no
/// more to give are the facts cut too. A fact column with a value longer than ``longestFact`` (a card number of 100
/// letters) cannot stay whole in any terminal and gives way with the free text, rather than taking its room.
///
/// When the width cannot hold the facts whole with at least ``leastText`` cells for each text column, as on a phone's
/// terminal, the table is shown as records instead (like psql's expanded mode): one line per column, its title then
/// its value, wrapped at spaces, records apart by an empty line. Nothing is cut there but a word wider than a line.
///
/// For example:
///
///     var table = TextTable(columns: [.init("ID", alignRight: true), .init("Title", .text), .init("Due")])
///     table.append(["12", "Dune", "2026-12-17"])
///     print(table.render(width: 80))
struct TextTable {
    struct Column {
        /// What a column's values are, which decides which columns are cut first when the table is too wide.
        enum Content {
            /// Values of a fixed width that mean nothing cut (ids, dates, times, numbers, statuses): cut last.
            case fact
            /// Free text of any length (titles, authors, names, labels): cut first.
            case text
        }

        var title: String
        var content: Content
        var alignRight: Bool
        init(_ title: String, _ content: Content = .fact, alignRight: Bool = false) {
            self.title = title
            self.content = content
            self.alignRight = alignRight
        }
    }

    var columns: [Column]
    private(set) var rows: [[String]] = []

    /// The widest a fact column may be and still be kept whole before free text is cut: wider than any date, time,
    /// id or status the commands show, narrower than a line's free text.
    static let longestFact = 28

    /// The fewest cells a column of free text keeps in a table (fewer when its values are shorter); below it the rows
    /// are shown as records.
    static let leastText = 6

    init(columns: [Column]) {
        self.columns = columns
    }

    mutating func append(_ row: [String]) {
        precondition(row.count == columns.count, "a row needs one cell per column")
        rows.append(row.map(TerminalText.sanitized))
    }

    /// The table as lines ending in newlines, no line wider than `width` cells (when `width` leaves each column at
    /// least one cell and one space between them): a table, or records when a table would have to cut the facts or
    /// leave the text too little room.
    func render(width: Int) -> String {
        let count = columns.count
        let natural = columns.indices.map { index in
            ([columns[index].title] + rows.map { $0[index] }).map(DisplayWidth.of).max() ?? 0
        }
        var widths = natural
        // Columns two cells apart, one when that leaves each too little room; the widest columns shrink until the
        // table fits, each keeping at least 3 cells (fewer when the width has no room for 3): first the columns of
        // free text, then, when they have no more to give, all of them.
        let gap = widths.reduce(0, +) + 2 * (count - 1) <= width || 5 * count - 2 <= width ? 2 : 1
        let available = max(width - gap * (count - 1), count)
        let least = min(3, max(1, available / max(1, count)))
        let text = columns.indices.filter { columns[$0].content == .text || widths[$0] > Self.longestFact }
        for shrinking in [text, Array(columns.indices)] {
            while widths.reduce(0, +) > available {
                guard let widest = shrinking.max(by: { widths[$0] < widths[$1] }), widths[widest] > least else {
                    break
                }
                widths[widest] -= 1
            }
        }
        let factsWhole = columns.indices.allSatisfy { text.contains($0) || widths[$0] == natural[$0] }
        let textRoomy = text.allSatisfy { widths[$0] >= min(natural[$0], Self.leastText) }
        if !rows.isEmpty && !(factsWhole && textRoomy) { return records(width: width) }
        func line(_ cells: [String]) -> String {
            var parts: [String] = []
            for (index, cell) in cells.enumerated() {
                let fitted = TerminalText.truncated(cell, toWidth: widths[index])
                let padding = String(repeating: " ", count: max(0, widths[index] - DisplayWidth.of(fitted)))
                let isLast = index == cells.count - 1
                if columns[index].alignRight {
                    parts.append(padding + TerminalText.isolated(fitted))
                } else {
                    parts.append(TerminalText.isolated(fitted) + (isLast ? "" : padding))
                }
            }
            return parts.joined(separator: String(repeating: " ", count: gap))
        }
        var lines = [line(columns.map(\.title))]
        lines += rows.map(line)
        return lines.joined(separator: "\n") + "\n"
    }

    /// The rows as records: each column's title, then its value wrapped at spaces beside it (under it when the titles
    /// leave the value less than half the line); an empty line between records.
    private func records(width: Int) -> String {
        let titleWidth = columns.map { DisplayWidth.of($0.title) }.max() ?? 0
        let beside = titleWidth + 2 <= width / 2
        let valueWidth = beside ? width - titleWidth - 2 : width - 2
        var lines: [String] = []
        for (number, row) in rows.enumerated() {
            if number > 0 { lines.append("") }
            for (index, column) in columns.enumerated() {
                let title = TerminalText.truncated(column.title, toWidth: width)
                let values = row[index].isEmpty ? [] : TerminalText.wrapped(row[index], width: valueWidth)
                if beside {
                    let pad = String(repeating: " ", count: titleWidth - DisplayWidth.of(title) + 2)
                    let indent = String(repeating: " ", count: titleWidth + 2)
                    lines.append(values.isEmpty ? title : title + pad + values[0])
                    lines += values.dropFirst().map { indent + $0 }
                } else {
                    lines.append(title)
                    lines += values.map { "  " + $0 }
                }
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
