import Formats
import Rendering
import Sections
import Testing

/// The change-set JSON (`--json take`, the server's `changes`) held to golden files, for changesets that use every
/// stage: sections deleted, inserted, moved and updated; items deleted, inserted, moved and updated; supplementaries
/// deleted, inserted and updated; the screen's empty state shown and hidden.
@Suite struct ChangesetJSONTests {
    /// A screen reshaped in every way the change-set form can say: the client's row moves to the end and gains a
    /// book, the library loses a header and two books and reorders the rest, a new section appears, the client's
    /// card changes, the card section trades its header for a footer and changes layout.
    static let reshaped = Snapshot(
        sections: [
            Section(
                id: "client-info", layout: .list,
                items: [
                    Item(
                        id: "client-1", kind: "client", title: "Hey John Doe!", subtitle: "Member since 2024-03-02",
                        lines: ["4 books on loan"],
                        fields: [Field("clientId", .int(1)), Field("name", .string("John Doe"))])
                ],
                footer: Supplementary(kind: .footer, id: "client-info-footer", title: "Card renewed")),
            Section(
                id: "notices", layout: .card, items: [Item(id: "notice-1", kind: "notice", title: "Closed Monday")]),
            Section(
                id: "library-books", layout: .grid(minimumItemWidth: 28),
                items: Array(LibraryFixture.libraryBooks.items.dropFirst(2).reversed()),
                footer: LibraryFixture.libraryBooks.footer),
            LibraryFixture.clientBooks(
                LibraryFixture.clientBookItems + [
                    Item(id: "client-book-40", kind: "book", title: "Beloved", subtitle: "Toni Morrison")
                ]),
        ],
        emptyState: LibraryFixture.screenEmpty)

    static let cases: [(name: String, before: Snapshot, after: Snapshot)] = [
        ("take", LibraryFixture.screenWithoutLoans, LibraryFixture.screen),
        ("return", LibraryFixture.screen, LibraryFixture.screenWithoutLoans),
        ("reshaped", LibraryFixture.screen, reshaped),
        ("emptied", LibraryFixture.screen, Snapshot(emptyState: LibraryFixture.screenEmpty)),
        ("filled", Snapshot(emptyState: LibraryFixture.screenEmpty), LibraryFixture.screen),
    ]

    @Test(arguments: cases.indices, Changeset.Form.allCases)
    func changesMatchGolden(index: Int, form: Changeset.Form) throws {
        let (name, before, after) = Self.cases[index]
        let changes = after.changes(from: before, form: form)
        let value = JSONRenderer.changes(changes)
        try GoldenFile.check(value.serialized(pretty: true) + "\n", named: "changes-\(name)-\(form.rawValue).json")

        // Written into a larger document, the same text as the value's.
        var json = JSONTextWriter()
        json.beginObject()
        json.key("changes")
        JSONRenderer.write(changes, to: &json)
        json.endObject()
        #expect(String(decoding: json.bytes, as: UTF8.self) == #"{"changes":"# + value.serialized(pretty: false) + "}")
    }
}
