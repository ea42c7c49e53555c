// MARK: - Looking things up

/// Look-ups by identifier over every section of the snapshot, hidden ones included, in the style of Apple's
/// diffable data source snapshot. Each is linear in the size of the snapshot; if an id occurs twice (a snapshot made
/// by hand), the first occurrence is found.
extension Snapshot {
    /// The identifiers of all sections, in order.
    ///
    ///     snapshot.sectionIdentifiers  // ["client-info", "client-books", "library-books"]
    public var sectionIdentifiers: [String] { sections.map(\.id) }

    /// The identifiers of all items, section by section.
    ///
    ///     snapshot.itemIdentifiers.count  // 43
    public var itemIdentifiers: [String] { sections.flatMap { $0.items.map(\.id) } }

    /// The number of sections, hidden ones included.
    ///
    ///     snapshot.numberOfSections  // 3
    public var numberOfSections: Int { sections.count }

    /// The number of items in all sections.
    ///
    ///     snapshot.numberOfItems  // 43
    public var numberOfItems: Int { sections.reduce(0) { $0 + $1.items.count } }

    /// The number of items in a section, or `nil` if no section has the id.
    ///
    ///     snapshot.numberOfItems(inSection: "client-books")  // 2
    public func numberOfItems(inSection id: String) -> Int? { section(id: id)?.items.count }

    /// The identifiers of a section's items, in order, or `nil` if no section has the id.
    ///
    ///     snapshot.itemIdentifiers(inSection: "client-books")  // ["book-12", "book-7"]
    public func itemIdentifiers(inSection id: String) -> [String]? { section(id: id)?.items.map(\.id) }

    /// The section with this identifier, if any.
    ///
    ///     snapshot.section(id: "client-info")?.layout  // .card
    public func section(id: String) -> Section? { index(ofSection: id).map { sections[$0] } }

    /// The index in `sections` of the section with this identifier, if any.
    ///
    ///     snapshot.index(ofSection: "library-books")  // 2
    public func index(ofSection id: String) -> Int? { sections.firstIndex { $0.id == id } }

    /// The item with this identifier, if any.
    ///
    ///     snapshot.item(id: "book-12")?.title  // "Dune"
    public func item(id: String) -> Item? {
        indexPath(ofItem: id).map { sections[$0.section].items[$0.item] }
    }

    /// Where the item with this identifier is, counting every section in `sections` (hidden ones included), if
    /// anywhere.
    ///
    ///     snapshot.indexPath(ofItem: "book-12")  // ItemPath(section: 1, item: 0)
    public func indexPath(ofItem id: String) -> ItemPath? {
        for (sectionIndex, section) in sections.enumerated() {
            if let itemIndex = section.items.firstIndex(where: { $0.id == id }) {
                return ItemPath(section: sectionIndex, item: itemIndex)
            }
        }
        return nil
    }

    /// The identifier of the section holding the item, if any.
    ///
    ///     snapshot.sectionID(containingItem: "book-12")  // "client-books"
    public func sectionID(containingItem id: String) -> String? {
        indexPath(ofItem: id).map { sections[$0.section].id }
    }
}
