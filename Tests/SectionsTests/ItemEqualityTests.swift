import Testing

@testable import Sections

// MARK: - Comparing items in place agrees with ==

@Suite("Item equality")
struct ItemEqualityTests {
    @Test("the in-place content comparison sees a change in every stored property, like ==")
    func everyPropertyCounts() {
        let base = Item(
            id: "book-1", kind: "book", title: "Dune", subtitle: "Frank Herbert", lines: ["412 pages"],
            badges: [Badge(text: "✓ yours", style: .positive)],
            actions: [Action(id: "return", title: "Return", command: "librarycli return 1")],
            fields: [Field("bookId", .int(1))])
        let variants: [(String, (inout Item) -> Void)] = [
            ("id", { $0.id = "book-2" }),
            ("kind", { $0.kind = "client" }),
            ("title", { $0.title = "Emma" }),
            ("subtitle", { $0.subtitle = nil }),
            ("subtitleKeptTail", { $0.subtitleKeptTail = 7 }),
            ("lines", { $0.lines.append("new") }),
            ("badges", { $0.badges[0].style = .muted }),
            ("actions", { $0.actions[0].command = "librarycli take 1" }),
            ("fields", { $0.fields[0].value = .int(2) }),
        ]
        // A property added to Item must be added to `Item.isContentEqual(_:_:)` and to this list.
        #expect(Mirror(reflecting: base).children.map(\.label) == variants.map(\.0))
        var copy = base
        #expect(inPlace(base, copy) && base == copy)
        for (name, change) in variants {
            copy = base
            change(&copy)
            #expect(base != copy, "\(name)")
            #expect(!inPlace(base, copy), "\(name)")
            #expect(!inPlace(copy, base), "\(name)")
        }
    }

    private func inPlace(_ lhs: Item, _ rhs: Item) -> Bool {
        var (lhs, rhs) = (lhs, rhs)
        return Item.isContentEqual(&lhs, &rhs)
    }
}
