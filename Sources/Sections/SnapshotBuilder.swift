// MARK: - Builders

/// Builds a list of sections declaratively, with `if`, `if/else`, `for`, optionals and arrays of sections.
///
/// For example:
///
///     let result = try Snapshot.build(onDuplicate: .throw) {
///         Section(id: "client-info", layout: .card) { Item(id: "client-1", kind: "client", title: "Hi") }
///         if showBooks {
///             Section(id: "client-books", layout: .row()) { for b in books { Item(id: b.id, kind: "book", title: b.title) } }
///         }
///     }
@resultBuilder
public enum SectionsBuilder {
    /// One section.
    ///
    ///     Section(id: "a")
    public static func buildExpression(_ section: Section) -> [Section] { [section] }

    /// A section that may be missing, such as `optionalSection`.
    ///
    ///     maybeBanner  // Section?
    public static func buildExpression(_ section: Section?) -> [Section] { section.map { [$0] } ?? [] }

    /// Sections made from data, such as `groups.map { Section(id: $0.id) }`.
    ///
    ///     groups.map { Section(id: $0) }
    public static func buildExpression(_ sections: [Section]) -> [Section] { sections }

    /// Joins the parts of a block in order.
    ///
    ///     Section(id: "a"); Section(id: "b")
    public static func buildBlock(_ parts: [Section]...) -> [Section] { parts.flatMap { $0 } }

    /// An `if` without `else`.
    ///
    ///     if show { Section(id: "a") }
    public static func buildOptional(_ part: [Section]?) -> [Section] { part ?? [] }

    /// The first branch of an `if/else` or `switch`.
    ///
    ///     if wide { Section(id: "grid") } else { Section(id: "list") }
    public static func buildEither(first part: [Section]) -> [Section] { part }

    /// The second branch of an `if/else` or `switch`.
    ///
    ///     if wide { Section(id: "grid") } else { Section(id: "list") }
    public static func buildEither(second part: [Section]) -> [Section] { part }

    /// A `for` loop.
    ///
    ///     for name in names { Section(id: name) }
    public static func buildArray(_ parts: [[Section]]) -> [Section] { parts.flatMap { $0 } }

    /// An `if #available` block.
    ///
    ///     if #available(macOS 15, *) { Section(id: "new") }
    public static func buildLimitedAvailability(_ part: [Section]) -> [Section] { part }
}

/// Builds a section's items declaratively, with `if`, `if/else`, `for`, optionals and arrays of items.
///
/// For example:
///
///     Section(id: "library-books", layout: .grid()) {
///         for book in books { Item(id: "book-\(book.id)", kind: "book", title: book.title) }
///         if hasMore { Item(id: "more", kind: "more", title: "More…") }
///     }
@resultBuilder
public enum ItemsBuilder {
    /// One item.
    ///
    ///     Item(id: "a", kind: "book", title: "Dune")
    public static func buildExpression(_ item: Item) -> [Item] { [item] }

    /// An item that may be missing.
    ///
    ///     maybeGreeting  // Item?
    public static func buildExpression(_ item: Item?) -> [Item] { item.map { [$0] } ?? [] }

    /// Items made from data, such as `books.map(makeItem)`.
    ///
    ///     books.map(makeItem)
    public static func buildExpression(_ items: [Item]) -> [Item] { items }

    /// Joins the parts of a block in order.
    ///
    ///     Item(id: "a", kind: "k", title: "A"); Item(id: "b", kind: "k", title: "B")
    public static func buildBlock(_ parts: [Item]...) -> [Item] { parts.flatMap { $0 } }

    /// An `if` without `else`.
    ///
    ///     if held { Item(id: "a", kind: "k", title: "A") }
    public static func buildOptional(_ part: [Item]?) -> [Item] { part ?? [] }

    /// The first branch of an `if/else` or `switch`.
    ///
    ///     if held { returnItem } else { takeItem }
    public static func buildEither(first part: [Item]) -> [Item] { part }

    /// The second branch of an `if/else` or `switch`.
    ///
    ///     if held { returnItem } else { takeItem }
    public static func buildEither(second part: [Item]) -> [Item] { part }

    /// A `for` loop.
    ///
    ///     for book in books { makeItem(book) }
    public static func buildArray(_ parts: [[Item]]) -> [Item] { parts.flatMap { $0 } }

    /// An `if #available` block.
    ///
    ///     if #available(macOS 15, *) { newItem }
    public static func buildLimitedAvailability(_ part: [Item]) -> [Item] { part }
}

// MARK: - Building sections and snapshots

extension Section {
    /// Creates a section whose items are built declaratively.
    ///
    ///     Section(id: "client-books", layout: .row(), header: header, emptyState: empty) {
    ///         for book in held { Item(id: "book-\(book.id)", kind: "book", title: book.title) }
    ///     }
    public init(
        id: String, layout: Layout = .list, header: Supplementary? = nil, footer: Supplementary? = nil,
        emptyState: Supplementary? = nil, customSupplementaries: [Supplementary] = [],
        whenEmpty: EmptyBehavior = .showEmptyState, @ItemsBuilder items: () throws -> [Item]
    ) rethrows {
        self.init(
            id: id, layout: layout, items: try items(), header: header, footer: footer, emptyState: emptyState,
            customSupplementaries: customSupplementaries, whenEmpty: whenEmpty)
    }
}

extension Snapshot {
    /// Builds a snapshot declaratively, checking that section ids and item ids (across the snapshot) are unique.
    ///
    /// Under `.throw`, any clash throws `SnapshotError.duplicateIdentifiers` naming every clash; under
    /// `.dropAndReport`, later occurrences are dropped and listed in `BuildResult.duplicates`.
    ///
    ///     let screen = try Snapshot.build(onDuplicate: .dropAndReport) {
    ///         Section(id: "client-info", layout: .card) { greeting }
    ///         if showBooks { Section(id: "client-books", layout: .row()) { for b in books { item(b) } } }
    ///     }.snapshot
    public static func build(
        emptyState: Supplementary? = nil, onDuplicate policy: DuplicatePolicy = .throw,
        @SectionsBuilder _ sections: () throws -> [Section]
    ) throws -> BuildResult {
        try deduplicated(Snapshot(sections: try sections(), emptyState: emptyState), onDuplicate: policy)
    }

    /// Checks a snapshot made by other means for duplicate identifiers, as `build(emptyState:onDuplicate:_:)` does.
    ///
    ///     let clean = try Snapshot.deduplicated(handMade, onDuplicate: .dropAndReport).snapshot
    public static func deduplicated(_ snapshot: Snapshot, onDuplicate policy: DuplicatePolicy) throws -> BuildResult {
        var seenSections = Set<String>()
        var seenItems = Set<String>()
        var duplicates: [Duplicate] = []
        var kept: [Section] = []
        kept.reserveCapacity(snapshot.sections.count)
        for var section in snapshot.sections {
            guard seenSections.insert(section.id).inserted else {
                duplicates.append(Duplicate(kind: .section, id: section.id, sectionID: section.id))
                continue
            }
            var items: [Item] = []
            items.reserveCapacity(section.items.count)
            for item in section.items {
                if seenItems.insert(item.id).inserted {
                    items.append(item)
                } else {
                    duplicates.append(Duplicate(kind: .item, id: item.id, sectionID: section.id))
                }
            }
            section.items = items
            kept.append(section)
        }
        if policy == .throw && !duplicates.isEmpty {
            throw SnapshotError.duplicateIdentifiers(duplicates)
        }
        return BuildResult(snapshot: Snapshot(sections: kept, emptyState: snapshot.emptyState), duplicates: duplicates)
    }
}
