import Sections
import Testing

// MARK: - Exact changesets for small hand-made cases

@Suite("Diff by hand")
struct DiffTests {
    typealias C = Changeset

    private func screen(_ sections: Section...) -> Snapshot { Snapshot(sections: sections) }

    @Test("equal snapshots give an empty changeset")
    func equal() {
        let old = screen(Section(id: "a", items: [book("1"), book("2")], header: header("h", count: 2)))
        let changes = old.changes(from: old)
        #expect(changes.isEmpty)
        #expect(changes == Changeset())
        #expect(changes.summary == "no changes")
    }

    @Test("an item inserted in the middle")
    func insert() throws {
        let old = screen(Section(id: "a", items: [book("1"), book("3")]))
        let new = screen(Section(id: "a", items: [book("1"), book("2"), book("3")]))
        let changes = new.changes(from: old)
        #expect(
            changes == C(itemInserts: [.init(item: book("2"), sectionID: "a", path: ItemPath(section: 0, item: 1))]))
        #expect(changes.summary == "sections -0 +0 ~0 ^0 | items -0 +1 ~0 ^0 | supplementaries -0 +0 ~0")
    }

    @Test("items deleted are named by id, old section and old path")
    func delete() {
        let old = screen(Section(id: "a"), Section(id: "b", items: [book("1"), book("2"), book("3")]))
        let new = screen(Section(id: "a"), Section(id: "b", items: [book("2")]))
        #expect(
            new.changes(from: old).itemDeletes == [
                .init(id: "1", sectionID: "b", path: ItemPath(section: 1, item: 0)),
                .init(id: "3", sectionID: "b", path: ItemPath(section: 1, item: 2)),
            ])
    }

    @Test("a content change is an update at the new path, not a delete and an insert")
    func update() {
        let old = screen(Section(id: "a", items: [book("1", "Dune"), book("2")]))
        var held = book("1", "Dune")
        held.badges = [Badge(text: "✓ yours", style: .positive)]
        let new = screen(Section(id: "a", items: [book("0"), held, book("2")]))
        let changes = new.changes(from: old)
        #expect(changes.itemUpdates == [.init(item: held, sectionID: "a", path: ItemPath(section: 0, item: 1))])
        #expect(changes.itemDeletes.isEmpty && changes.itemMoves.isEmpty)
        #expect(changes.itemInserts.map(\.id) == ["0"])
    }

    @Test("moving one item to the front within a section is one move")
    func moveWithin() {
        let old = screen(Section(id: "a", items: ["1", "2", "3", "4"].map { book($0) }))
        let new = screen(Section(id: "a", items: ["4", "1", "2", "3"].map { book($0) }))
        #expect(
            new.changes(from: old)
                == C(itemMoves: [
                    .init(
                        id: "4", fromSectionID: "a", from: ItemPath(section: 0, item: 3), toSectionID: "a",
                        to: ItemPath(section: 0, item: 0))
                ]))
    }

    @Test("a reversed list of n items keeps one in place and reports n - 1 moves")
    func reversed() throws {
        let items = (0..<50).map { book("\($0)") }
        let old = screen(Section(id: "a", items: items))
        let new = screen(Section(id: "a", items: items.reversed()))
        let changes = new.changes(from: old)
        #expect(changes.itemMoves.count == 49)
        #expect(try changes.apply(to: old) == new)
    }

    @Test("an item moving between sections with new content is a move and an update")
    func moveBetweenWithUpdate() {
        let old = screen(
            Section(id: "mine", items: [book("7")]), Section(id: "library", items: [book("12", "Dune"), book("3")]))
        let taken = book("12", "Dune ✓")
        let new = screen(Section(id: "mine", items: [book("7"), taken]), Section(id: "library", items: [book("3")]))
        let changes = new.changes(from: old)
        #expect(
            changes.itemMoves == [
                .init(
                    id: "12", fromSectionID: "library", from: ItemPath(section: 1, item: 0), toSectionID: "mine",
                    to: ItemPath(section: 0, item: 1))
            ])
        #expect(changes.itemUpdates == [.init(item: taken, sectionID: "mine", path: ItemPath(section: 0, item: 1))])
        #expect(changes.itemDeletes.isEmpty && changes.itemInserts.isEmpty)
    }

    @Test("section inserts carry their content; their items are not listed again")
    func sectionInsert() {
        let inserted = Section(id: "b", items: [book("2")], header: header("bh", count: 1))
        let old = screen(Section(id: "a", items: [book("1")]))
        let new = screen(Section(id: "a", items: [book("1")]), inserted)
        #expect(new.changes(from: old) == C(sectionInserts: [.init(section: inserted, index: 1)]))
    }

    @Test("an item that leaves a kept section for an inserted one is an item delete")
    func intoInsertedSection() {
        let old = screen(Section(id: "a", items: [book("1"), book("2")]))
        let new = screen(Section(id: "a", items: [book("1")]), Section(id: "b", items: [book("2")]))
        #expect(
            new.changes(from: old)
                == C(
                    sectionInserts: [.init(section: new.sections[1], index: 1)],
                    itemDeletes: [.init(id: "2", sectionID: "a", path: ItemPath(section: 0, item: 1))]))
    }

    @Test("a deleted section takes its items along; an item that leaves it for a kept section is an insert")
    func sectionDelete() {
        let old = screen(Section(id: "a", items: [book("1"), book("2")]), Section(id: "b", items: [book("3")]))
        let new = screen(Section(id: "b", items: [book("3"), book("2")]))
        #expect(
            new.changes(from: old)
                == C(
                    sectionDeletes: [.init(id: "a", index: 0)],
                    itemInserts: [.init(item: book("2"), sectionID: "b", path: ItemPath(section: 0, item: 1))]))
    }

    @Test("swapping the first section to the end is one section move")
    func sectionMove() {
        let old = screen(Section(id: "a"), Section(id: "b"), Section(id: "c"))
        let new = screen(Section(id: "b"), Section(id: "c"), Section(id: "a"))
        #expect(new.changes(from: old) == C(sectionMoves: [.init(id: "a", from: 0, to: 2)]))
    }

    @Test("a layout change is a section update")
    func sectionUpdate() {
        let old = screen(Section(id: "a", layout: .list))
        let new = screen(Section(id: "a", layout: .grid(minimumItemWidth: 28)))
        #expect(
            new.changes(from: old)
                == C(sectionUpdates: [
                    .init(id: "a", index: 0, layout: .grid(minimumItemWidth: 28), whenEmpty: .showEmptyState)
                ]))
    }

    @Test("a header whose count changes is a supplementary update")
    func headerCount() {
        let old = screen(Section(id: "a", items: [book("1")], header: header("ah", count: 1)))
        let new = screen(Section(id: "a", items: [book("1"), book("2")], header: header("ah", count: 2)))
        let changes = new.changes(from: old)
        #expect(
            changes.supplementaryUpdates == [
                .init(sectionID: "a", supplementary: header("ah", count: 2), sectionIndex: 0, index: 0)
            ])
        #expect(changes.supplementaryInserts.isEmpty && changes.supplementaryDeletes.isEmpty)
    }

    @Test("removing the last item shows the section's empty state (insert) and the screen's")
    func emptyStateAppears() {
        let screenEmpty = Supplementary(kind: .empty, id: "screen", title: "Nothing here")
        let old = Snapshot(
            sections: [
                Section(id: "a", items: [book("1")], header: header("ah", count: 1), emptyState: emptyState("ae"))
            ],
            emptyState: screenEmpty)
        let new = Snapshot(
            sections: [Section(id: "a", header: header("ah", count: 0), emptyState: emptyState("ae"))],
            emptyState: screenEmpty)
        let changes = new.changes(from: old)
        #expect(
            changes
                == C(
                    itemDeletes: [.init(id: "1", sectionID: "a", path: ItemPath(section: 0, item: 0))],
                    supplementaryInserts: [
                        .init(sectionID: "a", supplementary: emptyState("ae"), sectionIndex: 0, index: 1)
                    ],
                    supplementaryUpdates: [
                        .init(sectionID: "a", supplementary: header("ah", count: 0), sectionIndex: 0, index: 0)
                    ],
                    screenEmptyState: .inserted(screenEmpty)))
        // And back: the empty states are deleted.
        let back = old.changes(from: new)
        #expect(back.supplementaryDeletes == [.init(sectionID: "a", kind: .empty, id: "ae", sectionIndex: 0, index: 1)])
        #expect(back.screenEmptyState == .deleted(id: "screen"))
    }

    @Test("a section hidden while empty disappears as a section delete when its last item leaves")
    func hiddenWhenEmpty() {
        let old = screen(Section(id: "a", items: [book("1")]), Section(id: "b", items: [book("2")], whenEmpty: .hide))
        let new = screen(Section(id: "a", items: [book("1")]), Section(id: "b", whenEmpty: .hide))
        #expect(new.changes(from: old) == C(sectionDeletes: [.init(id: "b", index: 1)]))
        #expect(old.changes(from: new) == C(sectionInserts: [.init(section: old.sections[1], index: 1)]))
    }

    @Test("a custom supplementary that left its order is a delete and an insert")
    func customReorder() throws {
        let x = Supplementary(kind: .custom("banner"), id: "x", title: "X")
        let y = Supplementary(kind: .custom("banner"), id: "y", title: "Y")
        let old = screen(Section(id: "a", customSupplementaries: [x, y]))
        let new = screen(Section(id: "a", customSupplementaries: [y, x]))
        let changes = new.changes(from: old)
        #expect(changes.supplementaryDeletes.count == 1 && changes.supplementaryInserts.count == 1)
        #expect(DrawnScreen(try changes.apply(to: old)) == DrawnScreen(new))
    }

    @Test("the screen empty state's content or identity changing is an update or a replacement")
    func screenEmptyStateChanges() {
        let one = Supplementary(kind: .empty, id: "screen", title: "Nothing")
        let other = Supplementary(kind: .empty, id: "screen", title: "Nothing at all")
        let third = Supplementary(kind: .empty, id: "welcome", title: "Welcome")
        #expect(
            Snapshot(emptyState: other).changes(from: Snapshot(emptyState: one)).screenEmptyState == .updated(other))
        #expect(
            Snapshot(emptyState: third).changes(from: Snapshot(emptyState: one)).screenEmptyState
                == .replaced(oldID: "screen", with: third))
        #expect(Snapshot(emptyState: third).changes(from: Snapshot(emptyState: one)).summary.hasSuffix("replaced"))
    }
}
