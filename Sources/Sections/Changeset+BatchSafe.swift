// The batch-safe form of a changeset: what UIKit's `performBatchUpdates` and IGListKit's batch updates accept.
//
// In the standard form an item of a kept section can be both moved and updated (its update carries the new content
// at its NEW path), and a kept section can be both moved and updated. UIKit refuses a move and a reload of the same
// item in one batch, and IGListKit turns such a pair into a delete plus an insert. The batch-safe form does the same:
//
//  - a kept section that is both moved and updated becomes a section delete (old index) plus a section insert (new
//    index, with its whole content); its own item and supplementary entries go (they come with the insert), items it
//    sent to other kept sections become inserts there, and items it received from them become deletes there;
//  - an item that is both moved and updated becomes an item delete (old path) plus an item insert (new path, new
//    content);
//  - every remaining item, supplementary or section update, which is then never moved, also carries its OLD position
//    (`from`), the coordinates batch updates reload by.
//
// Applying the batch-safe changeset to the old snapshot gives the same screen as the standard one.

extension Snapshot {
    /// The changes from `old` in the chosen form: `.standard` is `changes(from:)`, `.batchSafe` is
    /// `Changeset.batchSafe(from:to:)` of it.
    ///
    ///     let changes = new.changes(from: old, form: .batchSafe)
    ///     Set(changes.itemMoves.map(\.id)).isDisjoint(with: changes.itemUpdates.map(\.id))  // true
    public func changes(from old: Snapshot, form: Changeset.Form) -> Changeset {
        let changes = changes(from: old)
        switch form {
        case .standard: return changes
        case .batchSafe: return changes.batchSafe(from: old, to: self)
        }
    }
}

extension Changeset {
    /// The forms a changeset can be written in.
    ///
    ///     Changeset.Form(rawValue: "batch-safe")  // .batchSafe
    public enum Form: String, Hashable, Sendable, CaseIterable {
        /// As the diff makes it: an item (or section) may be both moved and updated.
        case standard
        /// No item or section is both moved and updated (such a pair is a delete plus an insert), and updates
        /// carry their old position too.
        case batchSafe = "batch-safe"
    }

    /// This changeset (from `old` to `new`, as `new.changes(from: old)` made it) in the batch-safe form: no item or
    /// section both moved and updated, and every update with its old position (see the top of this file).
    ///
    ///     let safe = new.changes(from: old).batchSafe(from: old, to: new)
    ///     try safe.apply(to: old)  // draws what new draws
    public func batchSafe(from old: Snapshot, to new: Snapshot) -> Changeset {
        var result = self
        result.splitMovedAndUpdatedSections(new: new.visibleSections)
        result.splitMovedAndUpdatedItems()
        result.setUpdateOrigins(before: old.visibleSections, after: new.visibleSections)
        return result
    }

    // MARK: - Private

    private mutating func splitMovedAndUpdatedSections(new after: [Section]) {
        let updated = Set(sectionUpdates.map(\.index))
        let split = sectionMoves.filter { updated.contains($0.to) }
        guard !split.isEmpty else { return }
        let oldIndices = Set(split.map(\.from))
        let newIndices = Set(split.map(\.to))
        sectionMoves.removeAll { newIndices.contains($0.to) }
        sectionUpdates.removeAll { newIndices.contains($0.index) }
        sectionDeletes += split.map { SectionDelete(id: $0.id, index: $0.from) }
        sectionDeletes.sort { $0.index < $1.index }
        sectionInserts += split.map { SectionInsert(section: after[$0.to], index: $0.to) }
        sectionInserts.sort { $0.index < $1.index }

        // Entries inside the split sections come with the inserted section; moves across their border become a
        // delete or an insert on the other side.
        itemDeletes.removeAll { oldIndices.contains($0.path.section) }
        itemInserts.removeAll { newIndices.contains($0.path.section) }
        itemUpdates.removeAll { newIndices.contains($0.path.section) }
        var moves: [ItemMove] = []
        var becameInserts = Set<ItemPath>()
        for move in itemMoves {
            let fromSplit = oldIndices.contains(move.from.section)
            let toSplit = newIndices.contains(move.to.section)
            switch (fromSplit, toSplit) {
            case (false, false):
                moves.append(move)
            case (true, true):
                break
            case (true, false):
                let item = after[move.to.section].items[move.to.item]
                itemInserts.append(ItemInsert(item: item, sectionID: move.toSectionID, path: move.to))
                becameInserts.insert(move.to)
            case (false, true):
                itemDeletes.append(ItemDelete(id: move.id, sectionID: move.fromSectionID, path: move.from))
            }
        }
        itemMoves = moves
        itemUpdates.removeAll { becameInserts.contains($0.path) }
        itemDeletes.sort { $0.path < $1.path }
        itemInserts.sort { $0.path < $1.path }
        supplementaryDeletes.removeAll { oldIndices.contains($0.sectionIndex) }
        supplementaryInserts.removeAll { newIndices.contains($0.sectionIndex) }
        supplementaryUpdates.removeAll { newIndices.contains($0.sectionIndex) }
    }

    private mutating func splitMovedAndUpdatedItems() {
        let updates = Dictionary(itemUpdates.map { ($0.path, $0) }, uniquingKeysWith: { first, _ in first })
        var split = Set<ItemPath>()
        for move in itemMoves {
            guard let update = updates[move.to] else { continue }
            split.insert(move.to)
            itemDeletes.append(ItemDelete(id: move.id, sectionID: move.fromSectionID, path: move.from))
            itemInserts.append(ItemInsert(item: update.item, sectionID: update.sectionID, path: move.to))
        }
        guard !split.isEmpty else { return }
        itemMoves.removeAll { split.contains($0.to) }
        itemUpdates.removeAll { split.contains($0.path) }
        itemDeletes.sort { $0.path < $1.path }
        itemInserts.sort { $0.path < $1.path }
    }

    /// Gives each update (never moved now) its old position: in a kept section, the elements that were neither
    /// placed (inserted, moved in) nor removed (deleted, moved out) keep their relative order, so the k-th position
    /// not placed in the new list is the k-th element that stayed in the old one.
    private mutating func setUpdateOrigins(before: [Section], after: [Section]) {
        let placedSections = Set(sectionInserts.map(\.index)).union(sectionMoves.map(\.to))
        let leftSections = Set(sectionDeletes.map(\.index)).union(sectionMoves.map(\.from))
        var sectionOrigins = Self.origins(
            newCount: after.count, placed: placedSections, oldCount: before.count, left: leftSections)
        for index in sectionUpdates.indices {
            sectionUpdates[index].from = sectionOrigins[sectionUpdates[index].index]
        }

        // Items and supplementaries of a moved section are updated in it too: their section's old index is the move's.
        for move in sectionMoves where sectionOrigins.indices.contains(move.to) { sectionOrigins[move.to] = move.from }
        // A supplementary is never moved within its section (they are shown in a fixed order of kinds): its old
        // index is where the same kind and id was shown in the old section.
        for index in supplementaryUpdates.indices {
            let update = supplementaryUpdates[index]
            guard sectionOrigins.indices.contains(update.sectionIndex),
                let oldSection = sectionOrigins[update.sectionIndex], before.indices.contains(oldSection)
            else { continue }
            supplementaryUpdates[index].from = before[oldSection].supplementaries.firstIndex {
                $0.kind == update.supplementary.kind && $0.id == update.supplementary.id
            }
        }
        var placedItems = [Set<Int>](repeating: [], count: after.count)
        for insert in itemInserts where placedItems.indices.contains(insert.path.section) {
            placedItems[insert.path.section].insert(insert.path.item)
        }
        for move in itemMoves where placedItems.indices.contains(move.to.section) {
            placedItems[move.to.section].insert(move.to.item)
        }
        var leftItems = [Set<Int>](repeating: [], count: before.count)
        for delete in itemDeletes where leftItems.indices.contains(delete.path.section) {
            leftItems[delete.path.section].insert(delete.path.item)
        }
        for move in itemMoves where leftItems.indices.contains(move.from.section) {
            leftItems[move.from.section].insert(move.from.item)
        }
        var itemOrigins: [Int: [Int?]] = [:]
        for index in itemUpdates.indices {
            let path = itemUpdates[index].path
            guard after.indices.contains(path.section), let oldSection = sectionOrigins[path.section] else { continue }
            if itemOrigins[path.section] == nil {
                itemOrigins[path.section] = Self.origins(
                    newCount: after[path.section].items.count, placed: placedItems[path.section],
                    oldCount: before[oldSection].items.count, left: leftItems[oldSection])
            }
            if let item = itemOrigins[path.section]?[path.item] {
                itemUpdates[index].from = ItemPath(section: oldSection, item: item)
            }
        }
    }

    /// For each new position, the old position of the element that stayed there, or nil for a placed one.
    private static func origins(newCount: Int, placed: Set<Int>, oldCount: Int, left: Set<Int>) -> [Int?] {
        var staying = (0..<oldCount).lazy.filter { !left.contains($0) }.makeIterator()
        return (0..<newCount).map { placed.contains($0) ? nil : staying.next() }
    }
}
