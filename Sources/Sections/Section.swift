/// One section of a snapshot: a stable identifier, a layout hint, its items and its supplementaries.
///
/// The empty state is derived, never stored as a flag: while `items` is empty, `supplementaries` shows the declared
/// `emptyState` in the items' place and the header stays. A section can instead ask to be hidden while empty.
///
/// For example, the article's "client books" row:
///
///     let books = Section(
///         id: "client-books", layout: .row(cardWidth: 26),
///         header: Supplementary(kind: .header, id: "client-books-header", title: "Your books", count: 0),
///         emptyState: Supplementary(kind: .empty, id: "client-books-empty",
///                                   title: "You don't have any books right now!"))
///     books.supplementaries.map(\.kind)  // [.header, .empty]
public struct Section: Hashable, Sendable, Identifiable {
    /// What a section does while it has no items.
    public enum EmptyBehavior: String, Hashable, Sendable {
        /// Keep the section and its header, and show the empty state in place of the items.
        case showEmptyState
        /// Leave the whole section out of `Snapshot.visibleSections`.
        case hide
    }

    /// The stable identity, unique in a snapshot, such as `library-books`.
    public var id: String
    /// How the section would like its items laid out.
    public var layout: Layout
    /// The items, in order.
    public var items: [Item]
    /// Shown above the items, if any.
    public var header: Supplementary?
    /// Shown below the items, if any.
    public var footer: Supplementary?
    /// Shown in place of the items while there are none (kind `.empty`), if any.
    public var emptyState: Supplementary?
    /// Supplementaries of other named kinds, shown after the items in this order.
    public var customSupplementaries: [Supplementary]
    /// What the section does while it has no items.
    public var whenEmpty: EmptyBehavior

    /// Creates a section.
    ///
    ///     Section(id: "client-info", layout: .card, items: [greeting])
    public init(
        id: String, layout: Layout = .list, items: [Item] = [], header: Supplementary? = nil,
        footer: Supplementary? = nil, emptyState: Supplementary? = nil, customSupplementaries: [Supplementary] = [],
        whenEmpty: EmptyBehavior = .showEmptyState
    ) {
        self.id = id
        self.layout = layout
        self.items = items
        self.header = header
        self.footer = footer
        self.emptyState = emptyState
        self.customSupplementaries = customSupplementaries
        self.whenEmpty = whenEmpty
    }

    /// Whether the section has no items. Derived from the items, so it cannot go stale.
    ///
    ///     Section(id: "s").isEmpty  // true
    public var isEmpty: Bool { items.isEmpty }

    /// Whether the section is left out of the screen: it is empty and asked to be hidden while empty.
    ///
    ///     Section(id: "s", whenEmpty: .hide).isHidden  // true
    public var isHidden: Bool { items.isEmpty && whenEmpty == .hide }

    /// The supplementaries shown now, in drawing order: header; the empty state while there are no items; the custom
    /// kinds; footer.
    ///
    ///     section.supplementaries.first?.kind  // .header
    public var supplementaries: [Supplementary] {
        var shown: [Supplementary] = []
        if let header { shown.append(header) }
        if items.isEmpty, let emptyState { shown.append(emptyState) }
        shown.append(contentsOf: customSupplementaries)
        if let footer { shown.append(footer) }
        return shown
    }
}
