/// What a supplementary is for: a header, a footer, an empty state, or any named kind.
///
/// For example:
///
///     let kind: SupplementaryKind = .custom("banner")
public enum SupplementaryKind: Hashable, Sendable, Comparable {
    /// Shown above a section's items.
    case header
    /// Shown in place of a section's items while it has none; the header stays.
    case empty
    /// Any other named kind, shown after the items and before the footer.
    case custom(String)
    /// Shown below a section's items.
    case footer

    /// The kind's name in documents: `header`, `footer`, `empty` or the custom name.
    ///
    ///     SupplementaryKind.custom("banner").name  // "banner"
    public var name: String {
        switch self {
        case .header: "header"
        case .empty: "empty"
        case .custom(let name): name
        case .footer: "footer"
        }
    }
}

/// A view that belongs to a section rather than to one item: a header, a footer, an empty state or a named kind.
///
/// Supplementaries have an identity (`kind` and `id`) apart from their content, so a header whose count changes is
/// an update in the diff.
///
/// For example:
///
///     let header = Supplementary(
///         kind: .header, id: "library-books-header", title: "Library", count: 42,
///         actions: [Action(id: "search", title: "Search", command: "librarycli list --search <text>")])
public struct Supplementary: Hashable, Sendable {
    /// What the supplementary is for.
    public var kind: SupplementaryKind
    /// The stable identity within its section and kind.
    public var id: String
    /// The main line.
    public var title: String
    /// How many characters at the end of `title` stay whole when a front must shorten it: what comes before them
    /// gives way instead. 1 for `Library: books matching “the”` keeps the closing quote. The count (drawn after
    /// the title) is never cut either.
    public var titleKeptTail: Int
    /// A second, quieter line, if any.
    public var subtitle: String?
    /// A count shown with the title, such as the number of books, if any.
    public var count: Int?
    /// Further lines of text, in order.
    public var lines: [String]
    /// What a front can do from here, such as header buttons.
    public var actions: [Action]
    /// Typed values for scripts and app fronts.
    public var fields: [Field]

    /// Creates a supplementary.
    ///
    ///     Supplementary(kind: .empty, id: "client-books-empty", title: "You don't have any books right now!")
    public init(
        kind: SupplementaryKind, id: String, title: String, titleKeptTail: Int = 0, subtitle: String? = nil,
        count: Int? = nil, lines: [String] = [], actions: [Action] = [], fields: [Field] = []
    ) {
        self.kind = kind
        self.id = id
        self.title = title
        self.titleKeptTail = titleKeptTail
        self.subtitle = subtitle
        self.count = count
        self.lines = lines
        self.actions = actions
        self.fields = fields
    }
}
