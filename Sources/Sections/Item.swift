/// One item of a section: a stable identity apart from its content.
///
/// Two items with the same `id` are the same thing (the same book); if anything else differs, the diff reports an
/// update, not a delete and an insert. Items of different kinds (`kind`) may share a snapshot. Item ids are unique
/// across the whole snapshot, so an item can move between sections.
///
/// For example:
///
///     let book = Item(
///         id: "book-12", kind: "book", title: "Dune", subtitle: "Frank Herbert, 1965",
///         badges: [Badge(text: "✓ yours", style: .positive)],
///         actions: [Action(id: "return", title: "Return", command: "librarycli return 12")],
///         fields: [Field("bookId", .int(12))])
public struct Item: Hashable, Sendable, Identifiable {
    /// The stable identity, unique in a snapshot, such as `book-12`.
    public var id: String
    /// What kind of thing this is, such as `book` or `client`, for fronts that draw kinds differently.
    public var kind: String
    /// The main line.
    public var title: String
    /// A second, quieter line, if any.
    public var subtitle: String?
    /// How many characters at the end of `subtitle` stay whole when a front must shorten it: what comes before them
    /// gives way instead. 7 for `Miguel de Cervantes · 1605` keeps ` · 1605` (`Miguel de Cerva… · 1605`).
    public var subtitleKeptTail: Int
    /// Further lines of text, in order.
    public var lines: [String]
    /// Marks shown beside the title.
    public var badges: [Badge]
    /// What a front can do with the item.
    public var actions: [Action]
    /// Typed values for scripts and app fronts.
    public var fields: [Field]

    /// Creates an item.
    ///
    ///     Item(id: "client-1", kind: "client", title: "Hey John Doe!")
    public init(
        id: String, kind: String, title: String, subtitle: String? = nil, subtitleKeptTail: Int = 0,
        lines: [String] = [], badges: [Badge] = [], actions: [Action] = [], fields: [Field] = []
    ) {
        self.id = id
        self.kind = kind
        self.title = title
        self.subtitle = subtitle
        self.subtitleKeptTail = subtitleKeptTail
        self.lines = lines
        self.badges = badges
        self.actions = actions
        self.fields = fields
    }

    /// Whether everything but the identity is equal: `false` for the same id means the item was updated.
    ///
    ///     old.isContentEqual(to: new)  // false after a checkmark appeared
    public func isContentEqual(to other: Item) -> Bool {
        self == other
    }
}

// MARK: - Comparing in place

extension Item {
    /// The same as `lhs.pointee.isContentEqual(to: rhs.pointee)`, property by property, without copying the items.
    ///
    /// The diff compares every kept item; passing whole items would copy both first. Lists every stored property:
    /// `ItemEqualityTests` fails when a property is added here or there without the other.
    static func isContentEqual(_ lhs: UnsafePointer<Item>, _ rhs: UnsafePointer<Item>) -> Bool {
        lhs.pointee.id == rhs.pointee.id && lhs.pointee.kind == rhs.pointee.kind
            && lhs.pointee.title == rhs.pointee.title && lhs.pointee.subtitle == rhs.pointee.subtitle
            && lhs.pointee.subtitleKeptTail == rhs.pointee.subtitleKeptTail
            && lhs.pointee.lines == rhs.pointee.lines && lhs.pointee.badges == rhs.pointee.badges
            && lhs.pointee.actions == rhs.pointee.actions && lhs.pointee.fields == rhs.pointee.fields
    }
}
