import Sections

/// Draws a snapshot as plain text for a terminal or a log: box-drawing, one blank line between sections, no line
/// wider than `width` cells, ANSI colour only when asked.
///
/// Each section starts with its header as a rule (`── Your books (3) ───…`) or, for card layouts, as the title of the
/// card's border. Lists show one item block per item, grids as many boxed cells per row as the layout's
/// `columns(forWidth:)` allows, rows as many cards as fit and then `+N more`. An empty section shows its empty state
/// under its header; a snapshot whose every section is empty shows its whole-screen empty state alone. Changed
/// things carry one mark everywhere, `(new)` or `(changed)`: after the first line of a block or a card's item, in a
/// header's rule, or in a cell's top border. A row that cannot show all its items ends with `+N more`, followed by
/// the command of its header's `show-all` action when it has one (that action is drawn only there).
///
/// For example:
///
///     let text = TextRenderer(width: 80, color: false).render(snapshot)
///     print(text, terminator: "")
public struct TextRenderer: Sendable {
    /// The narrowest width drawn; smaller widths are raised to this.
    ///
    ///     TextRenderer(width: 5).width  // 20
    public static let minimumWidth = 20

    /// The widest width drawn; larger widths (up to `Int.max`) are lowered to this, as `librarycli --width` allows.
    ///
    ///     TextRenderer(width: .max).width  // 1000
    public static let maximumWidth = 1_000

    /// The width in terminal cells no line exceeds.
    public let width: Int
    /// Whether ANSI styles are written.
    public let color: Bool

    /// Creates a renderer; the width is kept within ``minimumWidth``...``maximumWidth``.
    ///
    ///     TextRenderer(width: 120, color: true)
    public init(width: Int, color: Bool = false) {
        self.width = min(max(Self.minimumWidth, width), Self.maximumWidth)
        self.color = color
    }

    // MARK: - Rendering

    /// The snapshot as text, every line ending with a newline.
    ///
    ///     TextRenderer(width: 80).render(snapshot, marks: ChangeMarks(updatedItems: ["book-12"]))
    public func render(_ snapshot: Snapshot, marks: ChangeMarks = .none) -> String {
        let lines = lines(snapshot, marks: marks)
        var text = ""
        text.reserveCapacity(lines.reduce(0) { $0 + $1.utf8.count + 1 })
        for line in lines {
            text += line
            text += "\n"
        }
        return text
    }

    /// The snapshot as lines without their newlines, trailing spaces removed.
    ///
    ///     TextRenderer(width: 40).lines(snapshot).first  // "┌─ Your account ───…┐"
    public func lines(_ snapshot: Snapshot, marks: ChangeMarks = .none) -> [String] {
        var out: [String] = []
        if let empty = snapshot.shownEmptyState {
            out = supplementaryBlock(empty, style: .bold, marks: marks)
        } else {
            for (index, section) in snapshot.visibleSections.enumerated() {
                if index > 0 { out.append("") }
                out += sectionLines(section, marks: marks)
            }
        }
        return out.map(Self.trimmingTrailingSpaces)
    }

    // MARK: - Sections

    private var painter: LinePainter { LinePainter(color: color) }

    private func sectionLines(_ section: Section, marks: ChangeMarks) -> [String] {
        if section.layout.style == .card { return cardSection(section, marks: marks) }
        var out: [String] = []
        if let header = section.header {
            var body = header
            if section.layout.style == .row { body.actions.removeAll { $0.id == Self.showAllActionID } }
            out.append(headerRule(header, sectionMark: marks.mark(forSection: section.id), marks: marks))
            out += gutterBlock(supplementaryBodyContent(body, room: width - 2), mark: nil)
        }
        if section.items.isEmpty {
            if let empty = section.emptyState {
                out += supplementaryBlock(empty, style: .dim, marks: marks)
            }
        } else {
            switch section.layout.style {
            case .list, .card:
                out += listItems(section.items, marks: marks)
                if section.footer != nil || !section.customSupplementaries.isEmpty { out.append("") }
            case .grid: out += gridItems(section, marks: marks)
            case .row: out += rowItems(section, marks: marks)
            }
        }
        for custom in section.customSupplementaries {
            out += supplementaryBlock(custom, style: .bold, marks: marks)
        }
        if let footer = section.footer {
            out += supplementaryBlock(footer, style: .dim, marks: marks)
        }
        return out
    }

    /// `── Your books (3) ───…` across the full width, with a `(new)` / `(changed)` tag when marked.
    private func headerRule(_ header: Supplementary, sectionMark: ChangeMarks.Mark?, marks: ChangeMarks) -> String {
        var segments = [Self.titleWithCount(header, .bold)]
        if let mark = sectionMark ?? marks.mark(forSupplementary: header.id) {
            segments.append(Segment(" "))
            segments.append(Self.tag(mark))
        }
        let lead = painter.paint("── ", .dim)
        let titleWidth = min(width - 4, segments.reduce(0) { $0 + DisplayWidth.of(TerminalText.sanitized($1.text)) })
        let title = painter.fit(segments, width: titleWidth)
        let dashes = max(0, width - 4 - titleWidth)
        // No rule at all when the title takes the line: a lone dimmed space would outlast the trimming of the line.
        let rule = dashes > 0 ? painter.paint(" " + TerminalText.repeated("─", count: dashes), .dim) : ""
        return lead + title + rule
    }

    // MARK: - Lists

    private func listItems(_ items: [Item], marks: ChangeMarks) -> [String] {
        var out: [String] = []
        for (index, item) in items.enumerated() {
            if index > 0 { out.append("") }
            out += gutterBlock(itemLines(item, room: width - 2), mark: marks.mark(forItem: item.id))
        }
        return out
    }

    // MARK: - Supplementaries

    /// A supplementary as flowing text under a 2-cell gutter: title, subtitle, lines, actions.
    func supplementaryBlock(_ supplementary: Supplementary, style: ANSIStyle, marks: ChangeMarks) -> [String] {
        var content = [[Self.titleWithCount(supplementary, style)]]
        content += supplementaryBodyContent(supplementary, room: width - 2)
        return gutterBlock(content, mark: marks.mark(forSupplementary: supplementary.id))
    }

    /// A supplementary's subtitle, lines and actions (its title is drawn by the caller).
    func supplementaryBodyContent(_ supplementary: Supplementary, room: Int) -> [[Segment]] {
        var content: [[Segment]] = []
        if let subtitle = supplementary.subtitle { content.append([Segment(subtitle, .dim)]) }
        content += supplementary.lines.map { [Segment($0)] }
        for action in supplementary.actions { content += Self.actionLines(action, room: room, compact: false) }
        return content
    }

    /// Content lines flowed into `width - 2` cells after a 2-cell gutter, the mark's tag after the first line.
    private func gutterBlock(_ content: [[Segment]], mark: ChangeMarks.Mark?) -> [String] {
        var out: [String] = []
        for segments in Self.tagged(content, mark) {
            for line in painter.flow(segments, width: width - 2) {
                out.append("  " + line)
            }
        }
        return out
    }

    /// The content with the mark's `(new)` / `(changed)` tag after its first line.
    static func tagged(_ content: [[Segment]], _ mark: ChangeMarks.Mark?) -> [[Segment]] {
        guard let mark, !content.isEmpty else { return content }
        var tagged = content
        tagged[0] += [Segment(" "), tag(mark)]
        return tagged
    }

    // MARK: - Content

    /// An item's content lines: title, subtitle, lines, badges, then the actions, for `room` cells; `compact`
    /// (in cells) shows an action too long for its line as its command alone.
    func itemLines(_ item: Item, room: Int, compact: Bool = false) -> [[Segment]] {
        var content = [[Segment(item.title, .bold)]]
        if let subtitle = item.subtitle { content.append([Segment(subtitle, .dim, keptTail: item.subtitleKeptTail)]) }
        content += item.lines.map { [Segment($0)] }
        if !item.badges.isEmpty {
            var badges: [Segment] = []
            for (index, badge) in item.badges.enumerated() {
                if index > 0 { badges.append(Segment(" · ", .dim)) }
                badges.append(Segment(badge.text, Self.style(of: badge.style)))
            }
            content.append(badges)
        }
        for action in item.actions { content += Self.actionLines(action, room: room, compact: compact) }
        return content
    }

    /// `Take → librarycli take 12` when it fits in `room`; otherwise the command alone after `→ ` (compact) or the
    /// title and `→` on one line and the command indented on the next. A command is never cut: one wider than its
    /// line is folded across lines between shell words, each line but the last ending in ` \`, so that the lines paste
    /// as one command (see `TerminalText.foldedCommand`). An action that is
    /// disabled shows why instead of a command to run (`Take: You have 5 of your 5 books; …`), dimmed.
    static func actionLines(_ action: Action, room: Int, compact: Bool) -> [[Segment]] {
        if let reason = action.disabledReason {
            return TerminalText.folded("\(action.title): \(reason)", width: max(1, room)).map { [Segment($0, .dim)] }
        }
        let full = [Segment(action.title, .cyan), Segment(" → ", .dim), Segment(action.command)]
        let fullWidth = full.reduce(0) { $0 + DisplayWidth.of(TerminalText.sanitized($1.text)) }
        if fullWidth <= room { return [full] }
        let command = TerminalText.foldedCommand(action.command, width: max(1, room - 2))
        if compact {
            return command.enumerated().map { index, piece in
                [Segment(index == 0 ? "→ " : "  ", .dim), Segment(piece)]
            }
        }
        return [[Segment(action.title, .cyan), Segment(" →", .dim)]] + command.map { [Segment("  "), Segment($0)] }
    }

    /// The id of a row header's action that lists every item, written on the row's `+N more` line.
    ///
    ///     Action(id: TextRenderer.showAllActionID, title: "All your books", command: "librarycli loans")
    public static let showAllActionID = "show-all"

    /// The title and its count (`Library (35)`) as one segment whose count and kept tail stay whole when cut.
    static func titleWithCount(_ supplementary: Supplementary, _ style: ANSIStyle) -> Segment {
        guard let count = supplementary.count else {
            return Segment(supplementary.title, style, keptTail: supplementary.titleKeptTail)
        }
        let counted = " (\(count))"
        return Segment(supplementary.title + counted, style, keptTail: supplementary.titleKeptTail + counted.count)
    }

    static func tag(_ mark: ChangeMarks.Mark) -> Segment {
        switch mark {
        case .inserted: Segment("(new)", .boldGreen)
        case .updated: Segment("(changed)", .boldYellow)
        }
    }

    static func style(of badge: Badge.Style) -> ANSIStyle {
        switch badge {
        case .info: .cyan
        case .positive: .green
        case .warning: .red
        case .muted: .dim
        }
    }

    // MARK: - Private

    /// The line without trailing spaces, also those just before a closing reset, so colour never changes the text.
    private static func trimmingTrailingSpaces(_ line: String) -> String {
        // On the UTF-8 bytes: a space (0x20) is never part of another character's encoding, nor joined to the
        // character before it, so this is the same as dropping space characters from the end.
        let reset: [UInt8] = [0x1B, 0x5B, 0x30, 0x6D]  // ESC [ 0 m
        let bytes = line.utf8
        var end = bytes.endIndex
        while end > bytes.startIndex && bytes[bytes.index(before: end)] == 0x20 { end = bytes.index(before: end) }
        var endsInReset = false
        if bytes.distance(from: bytes.startIndex, to: end) >= reset.count + 1,
            bytes[bytes.index(end, offsetBy: -reset.count)..<end].elementsEqual(reset),
            bytes[bytes.index(end, offsetBy: -reset.count - 1)] == 0x20
        {
            endsInReset = true
            end = bytes.index(end, offsetBy: -reset.count)
            while end > bytes.startIndex && bytes[bytes.index(before: end)] == 0x20 {
                end = bytes.index(before: end)
            }
        }
        guard end != bytes.endIndex || endsInReset else { return line }
        var result = String(Substring(line.utf8[..<end]))
        if endsInReset { result += "\u{1B}[0m" }
        return result
    }
}
