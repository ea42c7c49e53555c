import Sections

/// The boxed layouts: a card holding all items, grid cells and a row of cards.
extension TextRenderer {
    // MARK: - Card

    /// One full-width box: the header's title in the top border, then the items separated by rules, or the empty
    /// state; custom supplementaries and the footer follow below the box.
    func cardSection(_ section: Section, marks: ChangeMarks) -> [String] {
        var top: [Segment] = []
        if let header = section.header {
            top.append(Self.titleWithCount(header, .bold))
            if let mark = marks.mark(forSection: section.id) ?? marks.mark(forSupplementary: header.id) {
                top += [Segment(" "), Self.tag(mark)]
            }
        }
        var blocks: [(content: [[Segment]], mark: ChangeMarks.Mark?)] = []
        if let header = section.header {
            let body = supplementaryBodyContent(header, room: width - 4)
            if !body.isEmpty { blocks.append((body, nil)) }
        }
        if section.items.isEmpty, let empty = section.emptyState {
            let body = [[Self.titleWithCount(empty, .dim)]] + supplementaryBodyContent(empty, room: width - 4)
            blocks.append((body, marks.mark(forSupplementary: empty.id)))
        }
        for item in section.items {
            blocks.append((itemLines(item, room: width - 4), marks.mark(forItem: item.id)))
        }
        var out = [topBorder(top, width: width)]
        let painter = LinePainter(color: color)
        let side = painter.paint("│", .dim)
        for (index, block) in blocks.enumerated() {
            if index > 0 { out.append(painter.paint("├" + TerminalText.repeated("─", count: width - 2) + "┤", .dim)) }
            for segments in Self.tagged(block.content, block.mark) {
                for line in painter.flow(segments, width: width - 4) {
                    out.append(side + " " + line + " " + side)
                }
            }
        }
        out.append(bottomBorder(width: width))
        for custom in section.customSupplementaries {
            out += supplementaryBlock(custom, style: .bold, marks: marks)
        }
        if let footer = section.footer { out += supplementaryBlock(footer, style: .dim, marks: marks) }
        return out
    }

    // MARK: - Grid

    /// Items in rows of boxed cells, as many per row as `layout.columns(forWidth:)` allows.
    func gridItems(_ section: Section, marks: ChangeMarks) -> [String] {
        let spacing = drawnSpacing(section.layout)
        let columns = fittingColumns(section.layout.columns(forWidth: width), spacing: spacing)
        let cellWidth = (width - (columns - 1) * spacing) / columns
        var out: [String] = []
        var start = 0
        while start < section.items.count {
            let rowItems = Array(section.items[start..<min(start + columns, section.items.count)])
            out += cellRow(rowItems, cellWidth: cellWidth, spacing: spacing, marks: marks, trailer: nil)
            start += columns
        }
        return out
    }

    // MARK: - Row

    /// As many cards of `minimumItemWidth` as fit on one line, then `+N more` beside them (or below if no room),
    /// with the command of the header's `show-all` action when there is one.
    func rowItems(_ section: Section, marks: ChangeMarks) -> [String] {
        let spacing = drawnSpacing(section.layout)
        let cardWidth = max(6, min(width, section.layout.minimumItemWidth))
        let fitting = max(1, (width + spacing) / (cardWidth + spacing))
        guard section.items.count > fitting else {
            return cellRow(section.items, cellWidth: cardWidth, spacing: spacing, marks: marks, trailer: nil)
        }
        func more(_ shown: Int, naming: Bool) -> String {
            let hidden = section.items.dropFirst(shown)
            var text = "+\(hidden.count) more"
            let inserted = hidden.filter { marks.mark(forItem: $0.id) == .inserted }.count
            let updated = hidden.filter { marks.mark(forItem: $0.id) == .updated }.count
            if inserted > 0 { text += ", \(inserted) new" }
            if updated > 0 { text += ", \(updated) changed" }
            if naming, let all = section.header?.actions.first(where: { $0.id == Self.showAllActionID }) {
                text += " → " + all.command
            }
            return text
        }
        func rowWidth(_ shown: Int, naming: Bool) -> Int {
            shown * cardWidth + shown * spacing + DisplayWidth.of(more(shown, naming: naming))
        }
        // How many cards show does not depend on the command: it goes below the cards when it does not fit beside.
        var shown = fitting
        if rowWidth(shown, naming: false) > width && shown > 1 { shown -= 1 }
        let items = Array(section.items.prefix(shown))
        if rowWidth(shown, naming: true) <= width {
            return cellRow(
                items, cellWidth: cardWidth, spacing: spacing, marks: marks, trailer: more(shown, naming: true))
        }
        let below = LinePainter(color: color).flow([Segment(more(shown, naming: true), .dim)], width: width - 2)
        return cellRow(items, cellWidth: cardWidth, spacing: spacing, marks: marks, trailer: nil)
            + below.map { "  " + $0 }
    }

    // MARK: - Private

    /// The layout's spacing, at most the width: a wider gap fits no two items on a line either, and draws the same.
    private func drawnSpacing(_ layout: Layout) -> Int {
        min(layout.spacing, width)
    }

    /// Columns reduced so that each cell keeps at least 6 cells.
    private func fittingColumns(_ columns: Int, spacing: Int) -> Int {
        min(columns, max(1, (width + spacing) / (6 + spacing)))
    }

    /// Boxed cells side by side, all as tall as the tallest; `trailer` is written after the last cell on the
    /// title line. Each line is written once, cell after cell: the cells' own lines are never made and joined.
    private func cellRow(
        _ items: [Item], cellWidth: Int, spacing: Int, marks: ChangeMarks, trailer: String?
    ) -> [String] {
        let contents = items.map { itemLines($0, room: cellWidth - 4, compact: true) }
        let height = contents.map(\.count).max() ?? 0
        let painter = LinePainter(color: color)
        let side = painter.paint("│", .dim)
        let gap = TerminalText.repeated(" ", count: spacing)
        let lineBytes = items.count * (cellWidth * 3 + spacing + 16)
        var out: [String] = []
        out.reserveCapacity(height + 2)
        // The top borders, with each cell's mark.
        var top = ""
        top.reserveCapacity(lineBytes)
        for (index, item) in items.enumerated() {
            if index > 0 { top += gap }
            top += topBorder(marks.mark(forItem: item.id).map { [Self.tag($0)] } ?? [], width: cellWidth)
        }
        out.append(top)
        for lineIndex in 0..<height {
            var line = ""
            line.reserveCapacity(lineBytes)
            for (index, content) in contents.enumerated() {
                if index > 0 { line += gap }
                line += side
                line += " "
                painter.fit(lineIndex < content.count ? content[lineIndex] : [], width: cellWidth - 4, into: &line)
                line += " "
                line += side
            }
            out.append(line)
        }
        let bottom = bottomBorder(width: cellWidth)
        out.append(Array(repeating: bottom, count: items.count).joined(separator: gap))
        if let trailer { out[1] += gap + painter.paint(trailer, .dim) }
        return out
    }

    /// `┌─ title ───┐` of exactly `width` cells, or a plain border when the title is empty.
    private func topBorder(_ title: [Segment], width: Int) -> String {
        let painter = LinePainter(color: color)
        let titleWidth = min(
            max(0, width - 6), title.reduce(0) { $0 + DisplayWidth.of(TerminalText.sanitized($1.text)) })
        guard titleWidth > 0 else {
            return painter.paint("┌" + TerminalText.repeated("─", count: width - 2) + "┐", .dim)
        }
        let rest = TerminalText.repeated("─", count: width - 5 - titleWidth)
        return painter.paint("┌─ ", .dim) + painter.fit(title, width: titleWidth)
            + painter.paint(" " + rest + "┐", .dim)
    }

    private func bottomBorder(width: Int) -> String {
        LinePainter(color: color).paint("└" + TerminalText.repeated("─", count: width - 2) + "┘", .dim)
    }
}
