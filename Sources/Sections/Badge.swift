/// A short mark shown beside an item's title, such as a checkmark on a book the client holds.
///
/// For example:
///
///     let held = Badge(text: "✓ yours", style: .positive)
public struct Badge: Hashable, Sendable {
    /// How a renderer should emphasise a badge. Renderers without colour show the text alone.
    public enum Style: String, Hashable, Sendable, CaseIterable {
        /// Neutral information.
        case info
        /// Good news, such as "yours".
        case positive
        /// Something that needs attention, such as "overdue".
        case warning
        /// Something unavailable, such as "on loan".
        case muted
    }

    /// The text of the badge.
    public var text: String
    /// The emphasis of the badge.
    public var style: Style

    /// Creates a badge.
    ///
    ///     Badge(text: "overdue", style: .warning)
    public init(text: String, style: Style = .info) {
        self.text = text
        self.style = style
    }
}
