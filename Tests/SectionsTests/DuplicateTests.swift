import Sections
import Testing

// MARK: - Duplicate identifiers never crash

@Suite("Duplicates")
struct DuplicateTests {
    @SectionsBuilder
    private func clashing() -> [Section] {
        Section(id: "a") {
            book("1")
            book("2")
            book("1")
        }
        Section(id: "b") { book("2") }
        Section(id: "a") { book("9") }
    }

    private let expected = [
        Duplicate(kind: .item, id: "1", sectionID: "a"),
        Duplicate(kind: .item, id: "2", sectionID: "b"),
        Duplicate(kind: .section, id: "a", sectionID: "a"),
    ]

    @Test("building throws, naming the section and item ids that clashed")
    func throwsByDefault() {
        #expect(throws: SnapshotError.duplicateIdentifiers(expected)) {
            try Snapshot.build { clashing() }
        }
        #expect(throws: SnapshotError.duplicateIdentifiers(expected)) {
            try Snapshot.build(onDuplicate: .throw) { clashing() }
        }
        let message = SnapshotError.duplicateIdentifiers(expected).description
        #expect(message == #"duplicate identifiers: item "1" (in section "a"), item "2" (in section "b"), section "a""#)
    }

    @Test("dropAndReport keeps first occurrences and reports the dropped ones")
    func dropAndReport() throws {
        let result = try Snapshot.build(onDuplicate: .dropAndReport) { clashing() }
        #expect(result.duplicates == expected)
        #expect(result.snapshot.sectionIdentifiers == ["a", "b"])
        #expect(result.snapshot.itemIdentifiers == ["1", "2"])
    }

    @Test("a clean build reports nothing")
    func clean() throws {
        let result = try Snapshot.build(onDuplicate: .dropAndReport) { Section(id: "a") { book("1") } }
        #expect(result.duplicates.isEmpty)
        #expect(try Snapshot.deduplicated(result.snapshot, onDuplicate: .throw) == result)
    }

    @Test("the diff matches the k-th occurrence of an id with the k-th: the first keeps its identity")
    func diffWithDuplicates() throws {
        let old = Snapshot(sections: [Section(id: "a", items: [book("1", "first"), book("1", "second")])])
        let new = Snapshot(sections: [Section(id: "a", items: [book("0"), book("1", "first")])])
        let changes = new.changes(from: old)
        #expect(changes.itemDeletes == [.init(id: "1", sectionID: "a", path: ItemPath(section: 0, item: 1))])
        #expect(changes.itemInserts.map(\.id) == ["0"])
        #expect(changes.itemUpdates.isEmpty && changes.itemMoves.isEmpty)
        #expect(DrawnScreen(try changes.apply(to: old)) == DrawnScreen(new))
    }

    @Test("the diff copes with duplicate section ids too")
    func duplicateSections() throws {
        let old = Snapshot(sections: [Section(id: "a", items: [book("1")]), Section(id: "a", items: [book("2")])])
        let new = Snapshot(sections: [Section(id: "a", items: [book("2")])])
        let changes = new.changes(from: old)
        #expect(changes.sectionDeletes == [.init(id: "a", index: 1)])
        #expect(DrawnScreen(try changes.apply(to: old)) == DrawnScreen(new))
    }

    @Test("an id repeated only in the new snapshot: the first occurrence keeps the item, later ones are inserted")
    func duplicateOnlyInNew() throws {
        let old = Snapshot(sections: [Section(id: "a", items: [book("1"), book("2"), book("3")])])
        let new = Snapshot(
            sections: [Section(id: "a", items: [book("1"), book("2"), book("2"), book("3"), book("2")])])
        let changes = new.changes(from: old)
        #expect(changes.itemInserts.map(\.path) == [ItemPath(section: 0, item: 2), ItemPath(section: 0, item: 4)])
        #expect(changes.itemMoves.isEmpty && changes.itemDeletes.isEmpty && changes.itemUpdates.isEmpty)
        #expect(DrawnScreen(try changes.apply(to: old)) == DrawnScreen(new))
    }
}
