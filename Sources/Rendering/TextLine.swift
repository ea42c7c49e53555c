/// A piece of one output line: text with an optional style. Styles are applied after the text is fitted.
///
/// `keptTail` characters at the end of the text stay whole when the segment must be cut: what comes before them
/// gives way instead (`Miguel de Cerva… · 1605`, `Library: books matching “the th…” (35)`).
struct Segment: Sendable {
    var text: String
    var style: ANSIStyle?
    var keptTail: Int

    init(_ text: String, _ style: ANSIStyle? = nil, keptTail: Int = 0) {
        self.text = text
        self.style = style
        self.keptTail = keptTail
    }
}

/// Fitting segments and drawing lines, with or without colour. Every function returns text of a known width.
struct LinePainter: Sendable {
    /// Whether to write ANSI styles.
    var color: Bool

    // MARK: - Fitting

    /// The segments sanitised, cut with `…` to `width` cells if needed (before a segment's kept tail), styled, then
    /// padded: exactly `width` cells.
    func fit(_ segments: [Segment], width: Int) -> String {
        var out = ""
        fit(segments, width: width, into: &out)
        return out
    }

    /// The same, written at the end of `out`.
    func fit(_ segments: [Segment], width: Int, into out: inout String) {
        guard width > 0 else { return }
        let cleaned = segments.map { Segment(TerminalText.sanitized($0.text), $0.style, keptTail: $0.keptTail) }
        let widths = cleaned.map { DisplayWidth.of($0.text) }
        let total = widths.reduce(0, +)
        var used = 0
        for (index, segment) in cleaned.enumerated() {
            if total <= width || used + widths[index] <= width - 1 {
                out += paint(segment.text, segment.style)
                used += widths[index]
            } else {
                let piece = TerminalText.truncated(segment.text, toWidth: width - used, keepingLast: segment.keptTail)
                out += paint(piece, segment.style)
                used += DisplayWidth.of(piece)
                break
            }
        }
        TerminalText.appendSpaces(max(0, width - used), to: &out)
    }

    /// One segment wrapped at spaces into lines of exactly `width` cells, each styled.
    func wrap(_ segment: Segment, width: Int) -> [String] {
        TerminalText.wrapped(segment.text, width: width).map { line in
            let used = DisplayWidth.of(line)
            return paint(line, segment.style, isolate: false) + TerminalText.repeated(" ", count: max(0, width - used))
        }
    }

    /// Lines of `width` cells: a single segment is wrapped, several segments are fitted on one line.
    func flow(_ segments: [Segment], width: Int) -> [String] {
        segments.count == 1 ? wrap(segments[0], width: width) : [fit(segments, width: width)]
    }

    /// Text in a style, isolated if right-to-left; styles only when colouring.
    func paint(_ text: String, _ style: ANSIStyle?, isolate: Bool = true) -> String {
        let shown = isolate ? TerminalText.isolated(text) : text
        guard let style else { return shown }
        return style.apply(shown, enabled: color)
    }

}
