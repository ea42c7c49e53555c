import Sections
import Testing

// MARK: - Replaying a changeset

@Suite("Apply")
struct ApplyTests {
    let old = Snapshot(sections: [Section(id: "a", items: [book("1"), book("2")])])

    @Test("replaying reproduces what the new snapshot draws, empty states included")
    func replays() throws {
        let new = Snapshot(
            sections: [Section(id: "b"), Section(id: "a", emptyState: emptyState("ae"))],
            emptyState: emptyState("screen"))
        let replayed = try new.changes(from: old).apply(to: old)
        #expect(DrawnScreen(replayed) == DrawnScreen(new))
        #expect(replayed.shownEmptyState == emptyState("screen"))
    }

    @Test("a changeset that does not fit the snapshot throws instead of trapping")
    func mismatch() {
        let outOfRange = Changeset(itemDeletes: [.init(id: "9", sectionID: "a", path: ItemPath(section: 0, item: 9))])
        #expect(throws: SnapshotError.self) { try outOfRange.apply(to: old) }
        let twice = Changeset(sectionDeletes: [.init(id: "a", index: 0), .init(id: "a", index: 0)])
        #expect(throws: SnapshotError.self) { try twice.apply(to: old) }
        let wrongUpdate = Changeset(itemUpdates: [
            .init(item: book("7"), sectionID: "a", path: ItemPath(section: 0, item: 0))
        ])
        #expect(throws: SnapshotError.self) { try wrongUpdate.apply(to: old) }
        let farInsert = Changeset(itemInserts: [
            .init(item: book("7"), sectionID: "a", path: ItemPath(section: 0, item: 5))
        ])
        #expect(throws: SnapshotError.self) { try farInsert.apply(to: old) }
        let badSection = Changeset(itemInserts: [
            .init(item: book("7"), sectionID: "z", path: ItemPath(section: 3, item: 0))
        ])
        #expect(throws: SnapshotError.self) { try badSection.apply(to: old) }
        let noScreenEmpty = Changeset(screenEmptyState: .deleted(id: "screen"))
        #expect(throws: SnapshotError.changesetMismatch(#"screen empty state "screen""#)) {
            try noScreenEmpty.apply(to: old)
        }
    }
}
