import Sections

// MARK: - Small fixtures shared by the tests

/// A book item with the given id and title.
func book(_ id: String, _ title: String = "Title") -> Item {
    Item(id: id, kind: "book", title: title)
}

/// A header with a count, as the library screen shows.
func header(_ id: String, count: Int) -> Supplementary {
    Supplementary(kind: .header, id: id, title: "Header \(id)", count: count)
}

/// An empty state.
func emptyState(_ id: String) -> Supplementary {
    Supplementary(kind: .empty, id: id, title: "Nothing in \(id)")
}

/// What a front draws for a section: everything but the stored-but-hidden empty state.
struct DrawnSection: Hashable {
    var id: String
    var layout: Layout
    var whenEmpty: Section.EmptyBehavior
    var items: [Item]
    var supplementaries: [Supplementary]

    init(_ section: Section) {
        id = section.id
        layout = section.layout
        whenEmpty = section.whenEmpty
        items = section.items
        supplementaries = section.supplementaries
    }
}

/// What a front draws for a snapshot: its visible sections and the shown whole-screen empty state.
struct DrawnScreen: Hashable {
    var sections: [DrawnSection]
    var emptyState: Supplementary?

    init(_ snapshot: Snapshot) {
        sections = snapshot.visibleSections.map(DrawnSection.init)
        emptyState = snapshot.shownEmptyState
    }
}
