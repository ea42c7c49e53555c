import Sections
import Testing

// MARK: - Editing a snapshot by identifier

@Suite("Editing")
struct EditingTests {
    private func sample() -> Snapshot {
        Snapshot(sections: [
            Section(id: "a", items: [book("1"), book("2")]),
            Section(id: "b", items: [book("3")]),
            Section(id: "c", whenEmpty: .hide),
        ])
    }

    private func layout(_ snapshot: Snapshot) -> [String] {
        snapshot.sections.map { "\($0.id):" + $0.items.map(\.id).joined(separator: ",") }
    }

    @Test("sections are appended, inserted before and after, moved and deleted")
    func sections() throws {
        var snapshot = sample()
        try snapshot.appendSections([Section(id: "d")])
        try snapshot.insertSections([Section(id: "x")], beforeSection: "a")
        try snapshot.insertSections([Section(id: "y", items: [book("9")])], afterSection: "b")
        #expect(snapshot.sectionIdentifiers == ["x", "a", "b", "y", "c", "d"])
        try snapshot.moveSection("x", afterSection: "d")
        try snapshot.moveSection("c", beforeSection: "a")
        #expect(snapshot.sectionIdentifiers == ["c", "a", "b", "y", "d", "x"])
        try snapshot.deleteSections(["y", "d"])
        #expect(layout(snapshot) == ["c:", "a:1,2", "b:3", "x:"])
        #expect(snapshot.item(id: "9") == nil)
    }

    @Test("items are appended, inserted before and after, and deleted")
    func items() throws {
        var snapshot = sample()
        try snapshot.appendItems([book("4")], toSection: "c")
        try snapshot.insertItems([book("0")], beforeItem: "1")
        try snapshot.insertItems([book("5"), book("6")], afterItem: "3")
        try snapshot.deleteItems(["2", "5"])
        #expect(layout(snapshot) == ["a:0,1", "b:3,6", "c:4"])
    }

    @Test("items move within their section, before or after an item in another, or to the end of any section")
    func moves() throws {
        var snapshot = sample()
        try snapshot.moveItem("1", afterItem: "2")
        #expect(layout(snapshot) == ["a:2,1", "b:3", "c:"])
        try snapshot.moveItem("3", beforeItem: "2")
        #expect(layout(snapshot) == ["a:3,2,1", "b:", "c:"])
        try snapshot.moveItem("2", toSection: "c")
        try snapshot.moveItem("1", toSection: "a")
        #expect(layout(snapshot) == ["a:3,1", "b:", "c:2"])
    }

    @Test("reload replaces content and reconfigure changes it in place, keeping identity and position")
    func reloadAndReconfigure() throws {
        var snapshot = sample()
        try snapshot.reloadItems([book("2", "Emma")])
        try snapshot.reconfigureItems(["3"]) { $0.subtitle = "Jane Austen" }
        #expect(snapshot.item(id: "2")?.title == "Emma")
        #expect(snapshot.item(id: "3")?.subtitle == "Jane Austen")
        #expect(layout(snapshot) == layout(sample()))
        let before = snapshot
        #expect(throws: SnapshotError.identifierChanged(from: "3", to: "33")) {
            try snapshot.reconfigureItems(["3"]) { $0.id = "33" }
        }
        #expect(snapshot == before)
    }

    @Test("unknown ids throw and leave the snapshot unchanged")
    func unknownIDs() {
        var snapshot = sample()
        #expect(throws: SnapshotError.unknownSection("zz")) { try snapshot.appendItems([book("7")], toSection: "zz") }
        #expect(throws: SnapshotError.unknownSection("zz")) { try snapshot.deleteSections(["a", "zz"]) }
        #expect(throws: SnapshotError.unknownSection("zz")) { try snapshot.moveSection("a", afterSection: "zz") }
        #expect(throws: SnapshotError.unknownItem("99")) { try snapshot.deleteItems(["1", "99"]) }
        #expect(throws: SnapshotError.unknownItem("99")) { try snapshot.insertItems([book("7")], afterItem: "99") }
        #expect(throws: SnapshotError.unknownItem("99")) { try snapshot.moveItem("99", toSection: "a") }
        #expect(throws: SnapshotError.unknownItem("99")) { try snapshot.reloadItems([book("1"), book("99")]) }
        #expect(throws: SnapshotError.relativeToItself("1")) { try snapshot.moveItem("1", beforeItem: "1") }
        #expect(throws: SnapshotError.relativeToItself("a")) { try snapshot.moveSection("a", afterSection: "a") }
        #expect(snapshot == sample())
    }

    @Test("ids already taken throw duplicateIdentifiers naming every clash")
    func takenIDs() {
        var snapshot = sample()
        #expect(
            throws: SnapshotError.duplicateIdentifiers([
                Duplicate(kind: .section, id: "b", sectionID: "b"),
                Duplicate(kind: .item, id: "1", sectionID: "b"),
            ])
        ) { try snapshot.appendSections([Section(id: "b", items: [book("1"), book("8")])]) }
        #expect(
            throws: SnapshotError.duplicateIdentifiers([
                Duplicate(kind: .item, id: "3", sectionID: "a"), Duplicate(kind: .item, id: "7", sectionID: "a"),
            ])
        ) { try snapshot.appendItems([book("3"), book("7"), book("7")], toSection: "a") }
        #expect(snapshot == sample())
    }
}

// MARK: - Looking things up

@Suite("Look-ups")
struct LookupTests {
    let snapshot = Snapshot(sections: [
        Section(id: "a", items: [book("1"), book("2")]), Section(id: "hidden", whenEmpty: .hide),
        Section(id: "b", items: [book("3", "Dune")]),
    ])

    @Test("sections and items are found by id, with paths counted over all sections")
    func found() {
        #expect(snapshot.section(id: "b")?.items.count == 1)
        #expect(snapshot.index(ofSection: "b") == 2)
        #expect(snapshot.item(id: "3")?.title == "Dune")
        #expect(snapshot.indexPath(ofItem: "3") == ItemPath(section: 2, item: 0))
        #expect(snapshot.sectionID(containingItem: "2") == "a")
        #expect(snapshot.itemIdentifiers(inSection: "a") == ["1", "2"])
        #expect(snapshot.itemIdentifiers == ["1", "2", "3"])
        #expect(snapshot.sectionIdentifiers == ["a", "hidden", "b"])
        #expect(snapshot.numberOfSections == 3 && snapshot.numberOfItems == 3)
        #expect(snapshot.numberOfItems(inSection: "hidden") == 0)
    }

    @Test("unknown ids give nil")
    func missing() {
        #expect(snapshot.section(id: "zz") == nil)
        #expect(snapshot.item(id: "zz") == nil)
        #expect(snapshot.indexPath(ofItem: "zz") == nil)
        #expect(snapshot.sectionID(containingItem: "zz") == nil)
        #expect(snapshot.itemIdentifiers(inSection: "zz") == nil)
        #expect(snapshot.numberOfItems(inSection: "zz") == nil)
    }

    @Test("item paths print as section.item and sort by section first")
    func paths() {
        #expect(ItemPath(section: 1, item: 0).description == "1.0")
        #expect(ItemPath(section: 0, item: 9) < ItemPath(section: 1, item: 0))
    }
}
