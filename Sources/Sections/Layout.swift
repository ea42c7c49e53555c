/// How a section would like its items laid out. Sizes are in terminal cells; graphical fronts may scale them.
///
/// For example, the article's library grid (2 columns on narrow screens, 4 on wide ones):
///
///     let grid = Layout.grid(minimumItemWidth: 28)
///     grid.columns(forWidth: 80)   // 2
///     grid.columns(forWidth: 120)  // 4
public struct Layout: Hashable, Sendable {
    /// The arrangement of the items.
    public enum Style: String, Hashable, Sendable, CaseIterable {
        /// One item per row, full width.
        case list
        /// As many columns as fit, each at least `minimumItemWidth` wide.
        case grid
        /// One horizontal row of cards, each `minimumItemWidth` wide, scrolling sideways (the article's orthogonal
        /// section); a text renderer shows as many as fit and then "+N more".
        case row
        /// One boxed card holding all the items, such as client information.
        case card
    }

    /// The arrangement.
    public var style: Style
    /// The narrowest an item may be drawn, in cells (grid columns and row cards).
    public var minimumItemWidth: Int
    /// The gap between items, in cells.
    public var spacing: Int

    /// Creates a layout hint.
    ///
    ///     Layout(style: .row, minimumItemWidth: 24, spacing: 1)
    public init(style: Style, minimumItemWidth: Int = 24, spacing: Int = 1) {
        self.style = style
        self.minimumItemWidth = max(1, minimumItemWidth)
        self.spacing = max(0, spacing)
    }

    /// A list: one item per row.
    ///
    ///     let layout = Layout.list
    public static let list = Layout(style: .list)

    /// A boxed card holding all the items.
    ///
    ///     let layout = Layout.card
    public static let card = Layout(style: .card)

    /// A grid whose column count follows the available width.
    ///
    ///     Layout.grid(minimumItemWidth: 30, spacing: 2)
    public static func grid(minimumItemWidth: Int = 24, spacing: Int = 1) -> Layout {
        Layout(style: .grid, minimumItemWidth: minimumItemWidth, spacing: spacing)
    }

    /// A horizontal row of cards.
    ///
    ///     Layout.row(cardWidth: 26)
    public static func row(cardWidth: Int = 24, spacing: Int = 1) -> Layout {
        Layout(style: .row, minimumItemWidth: cardWidth, spacing: spacing)
    }

    /// How many columns (grid) or cards (row) of at least `minimumItemWidth` fit in `width` cells, at least 1.
    ///
    /// Any `Int` is accepted, without overflow: a width narrower than one item (or negative) gives 1, and so do an
    /// item width or spacing too large for two items to fit.
    ///
    ///     Layout.grid(minimumItemWidth: 28).columns(forWidth: 40)  // 1
    ///     Layout.grid(minimumItemWidth: 10, spacing: .max).columns(forWidth: 80)  // 1
    public func columns(forWidth width: Int) -> Int {
        switch style {
        case .list, .card:
            return 1
        case .grid, .row:
            // n items and n-1 gaps must fit: n*w + (n-1)*s <= width, so n-1 <= (width-w) / (w+s).
            let (step, overflow) = minimumItemWidth.addingReportingOverflow(spacing)
            guard width > minimumItemWidth, !overflow else { return 1 }
            return 1 + (width - minimumItemWidth) / step
        }
    }
}
