import Sections
import Testing

// MARK: - Applying the changeset reproduces the new snapshot

@Suite("Diff properties")
struct DiffPropertyTests {
    @Test("3,000 random pairs: applying the changeset to old draws new; indices in range; no move is also a delete")
    func randomPairs() throws {
        var generator = SnapshotGenerator(seed: 0x5EC7_1025)
        var totals = (moves: 0, updates: 0, supplementaryChanges: 0, sectionMoves: 0)
        for round in 0..<3_000 {
            let old = generator.snapshot()
            let new = round.isMultiple(of: 2) ? generator.snapshot() : edited(old, random: &generator.random)
            let changes = new.changes(from: old)
            try checkChangeset(changes, old: old, new: new, round: round)
            #expect(old.changes(from: old).isEmpty)
            totals.moves += changes.itemMoves.count
            totals.updates += changes.itemUpdates.count
            totals.sectionMoves += changes.sectionMoves.count
            totals.supplementaryChanges +=
                changes.supplementaryInserts.count + changes.supplementaryDeletes.count
                + changes.supplementaryUpdates.count
        }
        // The generator must actually exercise every stage, or the property says little.
        #expect(totals.moves > 1_000)
        #expect(totals.updates > 1_000)
        #expect(totals.sectionMoves > 100)
        #expect(totals.supplementaryChanges > 1_000)
    }

    @Test("hand-made snapshots with duplicate ids are diffed without trapping and replay exactly")
    func duplicatePairs() throws {
        var generator = SnapshotGenerator(seed: 42)
        generator.allowDuplicates = true
        var sawDuplicates = false
        for round in 0..<1_000 {
            let old = generator.snapshot()
            let new = generator.snapshot()
            sawDuplicates = sawDuplicates || Set(old.itemIdentifiers).count < old.numberOfItems
            try checkChangeset(new.changes(from: old), old: old, new: new, round: round, uniqueIDs: false)
        }
        #expect(sawDuplicates)
    }

    @Test("100,000 items with 10,000 moved: about 10,000 moves are reported, not most of the list")
    func movesAreMinimalAtScale() throws {
        var random = SplitMix64(seed: 7)
        let items = (0..<100_000).map { book("b\($0)") }
        var moved = items
        let picked = random.shuffled(Array(moved.indices)).prefix(10_000).sorted(by: >)
        var taken: [Item] = []
        for index in picked { taken.append(moved.remove(at: index)) }
        for item in taken { moved.insert(item, at: random.below(moved.count + 1)) }
        let old = Snapshot(sections: [Section(id: "all", items: items)])
        let new = Snapshot(sections: [Section(id: "all", items: moved)])
        let changes = new.changes(from: old)
        #expect(changes.itemMoves.count <= 10_000)
        #expect(changes.itemMoves.count >= 9_000)
        #expect(changes.itemInserts.isEmpty && changes.itemDeletes.isEmpty && changes.itemUpdates.isEmpty)
        #expect(try changes.apply(to: old).sections[0].items == moved)
    }
}

// MARK: - Private

/// Checks every property of a changeset between two snapshots.
private func checkChangeset(
    _ changes: Changeset, old: Snapshot, new: Snapshot, round: Int, uniqueIDs: Bool = true
) throws {
    let before = old.visibleSections
    let after = new.visibleSections
    let replayed = try changes.apply(to: old)
    let replaysExactly = DrawnScreen(replayed) == DrawnScreen(new)
    #expect(replaysExactly, "round \(round): \(changes.summary)")
    #expect(changes.isEmpty == (DrawnScreen(old) == DrawnScreen(new)), "round \(round)")

    func inOld(_ path: ItemPath) -> Bool {
        before.indices.contains(path.section) && before[path.section].items.indices.contains(path.item)
    }
    func inNew(_ path: ItemPath) -> Bool {
        after.indices.contains(path.section) && after[path.section].items.indices.contains(path.item)
    }
    for delete in changes.itemDeletes {
        #expect(inOld(delete.path) && before[delete.path.section].items[delete.path.item].id == delete.id)
    }
    for move in changes.itemMoves {
        #expect(inOld(move.from) && before[move.from.section].items[move.from.item].id == move.id)
        #expect(inNew(move.to) && after[move.to.section].items[move.to.item].id == move.id)
    }
    for insert in changes.itemInserts {
        #expect(inNew(insert.path) && after[insert.path.section].items[insert.path.item] == insert.item)
    }
    for update in changes.itemUpdates {
        #expect(inNew(update.path) && after[update.path.section].items[update.path.item] == update.item)
    }
    for delete in changes.sectionDeletes { #expect(before.indices.contains(delete.index)) }
    for insert in changes.sectionInserts { #expect(after.indices.contains(insert.index)) }
    for move in changes.sectionMoves { #expect(before.indices.contains(move.from) && after.indices.contains(move.to)) }

    let movedFrom = Set(changes.itemMoves.map(\.from))
    #expect(changes.itemDeletes.allSatisfy { !movedFrom.contains($0.path) }, "round \(round): moved and deleted")
    if uniqueIDs {
        #expect(Set(changes.itemMoves.map(\.id)).isDisjoint(with: changes.itemDeletes.map(\.id)))
        #expect(Set(changes.itemInserts.map(\.id)).isDisjoint(with: changes.itemDeletes.map(\.id)))
    }
    #expect(changes.itemDeletes.map(\.path) == changes.itemDeletes.map(\.path).sorted())
    #expect(changes.itemInserts.map(\.path) == changes.itemInserts.map(\.path).sorted())
    #expect(changes.itemMoves.map(\.to) == changes.itemMoves.map(\.to).sorted())
    #expect(changes.itemUpdates.map(\.path) == changes.itemUpdates.map(\.path).sorted())
}

/// A few random edits made through the editing API; edits that do not apply are skipped.
private func edited(_ snapshot: Snapshot, random: inout SplitMix64) -> Snapshot {
    var result = snapshot
    var fresh = 0
    for _ in 0..<(1 + random.below(6)) {
        let items = result.itemIdentifiers
        let sections = result.sectionIdentifiers
        let anyItem = items.isEmpty ? "none" : items[random.below(items.count)]
        let otherItem = items.isEmpty ? "none" : items[random.below(items.count)]
        let anySection = sections.isEmpty ? "none" : sections[random.below(sections.count)]
        let otherSection = sections.isEmpty ? "none" : sections[random.below(sections.count)]
        fresh += 1
        switch random.below(9) {
        case 0: try? result.moveItem(anyItem, beforeItem: otherItem)
        case 1: try? result.moveItem(anyItem, afterItem: otherItem)
        case 2: try? result.moveItem(anyItem, toSection: anySection)
        case 3: try? result.deleteItems([anyItem])
        case 4: try? result.appendItems([book("new-\(fresh)")], toSection: anySection)
        case 5: try? result.reconfigureItems([anyItem]) { $0.title += "!" }
        case 6: try? result.moveSection(anySection, beforeSection: otherSection)
        case 7: try? result.deleteSections([anySection])
        default:
            try? result.insertSections(
                [Section(id: "new-s\(fresh)", items: [book("new-i\(fresh)")])], afterSection: anySection)
        }
    }
    return result
}
