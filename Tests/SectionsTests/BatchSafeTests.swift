import Sections
import Testing

@Suite("The batch-safe form")
struct BatchSafeTests {
    @Test("an item both moved and updated becomes a delete at its old path and an insert at its new one")
    func movedAndUpdatedItem() throws {
        let old = Snapshot(sections: [Section(id: "s", items: [book("a"), book("b"), book("c")])])
        let new = Snapshot(sections: [Section(id: "s", items: [book("c", "New"), book("a"), book("b", "B2")])])
        let standard = new.changes(from: old)
        #expect(standard.itemMoves.map(\.id) == ["c"])
        #expect(Set(standard.itemUpdates.map(\.id)) == ["b", "c"])
        let safe = new.changes(from: old, form: .batchSafe)
        #expect(safe.itemMoves.isEmpty)
        #expect(safe.itemDeletes == [.init(id: "c", sectionID: "s", path: ItemPath(section: 0, item: 2))])
        #expect(
            safe.itemInserts == [.init(item: book("c", "New"), sectionID: "s", path: ItemPath(section: 0, item: 0))])
        #expect(
            safe.itemUpdates == [
                .init(
                    item: book("b", "B2"), sectionID: "s", path: ItemPath(section: 0, item: 2),
                    from: ItemPath(section: 0, item: 1))
            ])
        #expect(DrawnScreen(try safe.apply(to: old)) == DrawnScreen(new))
        #expect(new.changes(from: old, form: .standard) == standard)
        #expect(standard.itemUpdates.allSatisfy { $0.from == nil })
    }

    @Test("a supplementary update carries its old index: a footer after an empty state that goes, in a moved section")
    func supplementaryUpdateOrigin() throws {
        let footer = { (count: Int) in Supplementary(kind: .footer, id: "bf", title: "Footer", count: count) }
        let old = Snapshot(sections: [
            Section(id: "a", items: [book("1")]),
            Section(id: "b", header: header("bh", count: 0), footer: footer(0), emptyState: emptyState("be")),
        ])
        let new = Snapshot(sections: [
            Section(
                id: "b", items: [book("2")], header: header("bh", count: 1), footer: footer(1),
                emptyState: emptyState("be")),
            Section(id: "a", items: [book("1")]),
        ])
        let standard = new.changes(from: old)
        #expect(standard.supplementaryUpdates.allSatisfy { $0.from == nil })
        let safe = new.changes(from: old, form: .batchSafe)
        let updates = safe.supplementaryUpdates.map { [$0.supplementary.id: [$0.index, $0.from]] }
        #expect(updates == [["bh": [0, 0]], ["bf": [1, 2]]])
        #expect(DrawnScreen(try safe.apply(to: old)) == DrawnScreen(new))
    }

    @Test("a section both moved and updated becomes a delete and an insert; moves across its border change sides")
    func movedAndUpdatedSection() throws {
        let old = Snapshot(sections: [
            Section(id: "a", items: [book("1"), book("2")]), Section(id: "b", items: [book("3")]),
        ])
        let new = Snapshot(sections: [
            Section(id: "b", items: [book("3"), book("1")]),
            Section(id: "a", layout: .card, items: [book("2", "T2"), book("4")]),
        ])
        let standard = new.changes(from: old)
        #expect(!standard.sectionMoves.isEmpty && !standard.sectionUpdates.isEmpty)
        let safe = standard.batchSafe(from: old, to: new)
        #expect(Set(safe.sectionMoves.map(\.id)).isDisjoint(with: safe.sectionUpdates.map(\.id)))
        #expect(DrawnScreen(try safe.apply(to: old)) == DrawnScreen(new))
    }

    @Test("3,000 random pairs: the batch-safe changeset replays exactly and never moves what it updates")
    func randomPairs() throws {
        var generator = SnapshotGenerator(seed: 0xBA7C_5AFE)
        var split = (items: 0, sections: 0, origins: 0)
        for round in 0..<3_000 {
            let old = generator.snapshot()
            let new = generator.snapshot()
            let standard = new.changes(from: old)
            let safe = standard.batchSafe(from: old, to: new)
            try check(safe, old: old, new: new, round: round)
            split.items += standard.itemMoves.count - safe.itemMoves.count
            split.sections += standard.sectionMoves.count - safe.sectionMoves.count
            split.origins += safe.itemUpdates.count
        }
        // The generator must make the pairs the form exists for.
        #expect(split.items > 300)
        #expect(split.sections > 30)
        #expect(split.origins > 300)
    }

    @Test("with duplicate ids (hand-made snapshots) it still replays exactly")
    func duplicates() throws {
        var generator = SnapshotGenerator(seed: 99)
        generator.allowDuplicates = true
        for round in 0..<1_000 {
            let old = generator.snapshot()
            let new = generator.snapshot()
            try check(new.changes(from: old, form: .batchSafe), old: old, new: new, round: round, uniqueIDs: false)
        }
    }

    private func check(_ safe: Changeset, old: Snapshot, new: Snapshot, round: Int, uniqueIDs: Bool = true) throws {
        #expect(DrawnScreen(try safe.apply(to: old)) == DrawnScreen(new), "round \(round): \(safe.summary)")
        let before = old.visibleSections
        let after = new.visibleSections
        #expect(Set(safe.itemMoves.map(\.to)).isDisjoint(with: safe.itemUpdates.map(\.path)), "round \(round)")
        #expect(Set(safe.sectionMoves.map(\.to)).isDisjoint(with: safe.sectionUpdates.map(\.index)))
        if uniqueIDs {
            #expect(Set(safe.itemMoves.map(\.id)).isDisjoint(with: safe.itemUpdates.map(\.id)), "round \(round)")
            #expect(Set(safe.itemDeletes.map(\.id)).isDisjoint(with: safe.itemMoves.map(\.id)))
        }
        for update in safe.itemUpdates {
            let from = try #require(update.from, "round \(round): update without its old path")
            #expect(before[from.section].items[from.item].id == update.id, "round \(round)")
            #expect(before[from.section].id == after[update.path.section].id)
            #expect(after[update.path.section].items[update.path.item] == update.item)
        }
        for update in safe.sectionUpdates {
            let from = try #require(update.from)
            #expect(before[from].id == update.id)
        }
        for update in safe.supplementaryUpdates {
            let from = try #require(update.from, "round \(round): supplementary update without its old index")
            let shown = before.contains { section in
                section.id == update.sectionID && section.supplementaries.indices.contains(from)
                    && section.supplementaries[from].id == update.supplementary.id
                    && section.supplementaries[from].kind == update.supplementary.kind
            }
            #expect(shown, "round \(round): \(update.supplementary.id) was not at \(from) in the old section")
        }
        #expect(safe.itemDeletes.map(\.path) == safe.itemDeletes.map(\.path).sorted())
        #expect(safe.itemInserts.map(\.path) == safe.itemInserts.map(\.path).sorted())
        #expect(safe.sectionDeletes.map(\.index) == safe.sectionDeletes.map(\.index).sorted())
        #expect(safe.sectionInserts.map(\.index) == safe.sectionInserts.map(\.index).sorted())
        #expect(Set(safe.itemDeletes.map(\.path)).isDisjoint(with: safe.itemMoves.map(\.from)))
        #expect(Set(safe.itemInserts.map(\.path)).isDisjoint(with: safe.itemMoves.map(\.to)))
    }
}
