import Sections
import Testing

// MARK: - Building snapshots declaratively

@Suite("Builder")
struct BuilderTests {
    struct Book {
        var id: Int
        var title: String
    }

    private func screen(showBooks: Bool, wide: Bool, books: [Book], banner: Section?) throws -> Snapshot {
        try Snapshot.build(emptyState: emptyState("screen")) {
            Section(id: "client-info", layout: .card) { Item(id: "client-1", kind: "client", title: "Hey John Doe!") }
            banner
            if showBooks {
                Section(id: "client-books", layout: .row(), header: header("client-books-header", count: books.count)) {
                    for b in books { Item(id: "book-\(b.id)", kind: "book", title: b.title) }
                    if books.isEmpty { nil as Item? }
                }
            }
            if wide {
                Section(id: "library", layout: .grid()) { books.map { book("lib-\($0.id)", $0.title) } }
            } else {
                Section(id: "library", layout: .list) {
                    for b in books.prefix(1) { book("lib-\(b.id)", b.title) }
                    book("more", "More…")
                }
            }
            for extra in ["x", "y"] { Section(id: "extra-\(extra)", whenEmpty: .hide) {} }
        }.snapshot
    }

    @Test("if, if/else, for, optionals and data-driven sections build in order")
    func builds() throws {
        let books = [Book(id: 12, title: "Dune"), Book(id: 7, title: "Emma")]
        let banner = Section(id: "banner", items: [book("hello")])
        let full = try screen(showBooks: true, wide: true, books: books, banner: banner)
        #expect(full.sectionIdentifiers == ["client-info", "banner", "client-books", "library", "extra-x", "extra-y"])
        #expect(full.itemIdentifiers(inSection: "client-books") == ["book-12", "book-7"])
        #expect(full.section(id: "client-books")?.header?.count == 2)
        #expect(full.section(id: "library")?.layout == .grid())
        #expect(full.emptyState == emptyState("screen"))

        let narrow = try screen(showBooks: false, wide: false, books: books, banner: nil)
        #expect(narrow.sectionIdentifiers == ["client-info", "library", "extra-x", "extra-y"])
        #expect(narrow.itemIdentifiers(inSection: "library") == ["lib-12", "more"])
        #expect(narrow.visibleSections.map(\.id) == ["client-info", "library"])
    }

    @Test("a section built with an items builder equals one given an array")
    func sectionBuilder() {
        let built = Section(id: "s", layout: .card, footer: header("f", count: 1), whenEmpty: .hide) {
            book("1")
            [book("2"), book("3")]
        }
        #expect(
            built
                == Section(
                    id: "s", layout: .card, items: [book("1"), book("2"), book("3")], footer: header("f", count: 1),
                    whenEmpty: .hide))
    }
}
