// The item stages of the diff (5-8 at the top of `Snapshot+Changes.swift`): a linear kernel after Heckel's algorithm
// (as in DifferenceKit), run once the sections are matched.
//
// Items are numbered by their POSITION in the flattened old list (section by section). Each old id is hashed once,
// when the old items are entered in a table; a new id at most once, when a new item looks itself up. Everything else
// works on those positions, in plain integer arrays.
//
//  pass 1  old items, last to first: the table maps an id to its first old position; a second occurrence of the
//          same id (only in snapshots made by hand) is chained behind the first, so the k-th new occurrence claims
//          the k-th old one
//  pass 2  new items, section by section: each claims its old position (when old ids are unique, an item whose id
//          is the one right after the previous item's old position claims it without a look-up, as in Heckel's
//          neighbour passes, so runs of items that kept their order cost one string comparison each); in a kept
//          section, the longest run of items from the matching old section that kept their relative order stays,
//          and one walk in new order reports inserts, moves and updates (so each list comes out sorted by new path)
//  pass 3  old items of kept sections that no item of a kept new section claimed: the deletes, in old order
//
// Content is compared only for items that are kept, property by property in place (`Item.isContentEqual(_:_:)`).

// MARK: - Item stages

extension Differ {
    /// Finds the item deletes, inserts, moves and updates between the matched sections.
    mutating func diffItems() {
        // Pass 1: every old item's path, and the table from id to old position.
        var oldPaths = ContiguousArray<ItemPath>()
        oldPaths.reserveCapacity(old.reduce(0) { $0 + $1.items.count })
        for (section, content) in old.enumerated() {
            for item in content.items.indices { oldPaths.append(ItemPath(section: section, item: item)) }
        }
        var table = OccurrenceTable(oldSections: old, count: oldPaths.count)

        // Pass 2: claim, then report inserts, moves and updates per kept new section.
        // For each old position, the index of the new section whose item claimed it, or -1.
        var claimedBy = ContiguousArray<Int>(repeating: -1, count: oldPaths.count)
        var sources = ContiguousArray<Int>()
        for (section, content) in new.enumerated() {
            sources.removeAll(keepingCapacity: true)
            // The old position after the one the previous item claimed: where an unmoved item's id would be.
            var guess = 0
            for item in content.items.indices {
                let id = content.items[item].id
                var source: Int
                if table.idsAreUnique && guess < oldPaths.count && claimedBy[guess] < 0
                    && oldID(at: oldPaths[guess]) == id
                {
                    source = guess
                } else {
                    source = table.claim(id)
                    // With unique old ids, the only occurrence may already be taken by the neighbour rule.
                    if source >= 0 && claimedBy[source] >= 0 { source = -1 }
                }
                if source >= 0 {
                    claimedBy[source] = section
                    guess = source + 1
                }
                sources.append(source)
            }
            if let oldSection = newToOld[section] {
                reportItems(inNewSection: section, fromOldSection: oldSection, sources: sources, oldPaths: oldPaths)
            }
        }

        // Pass 3: the deletes.
        for (position, path) in oldPaths.enumerated() where oldToNew[path.section] != nil {
            let claimer = claimedBy[position]
            if claimer >= 0 && newToOld[claimer] != nil { continue }
            let content = old[path.section]
            changes.itemDeletes.append(.init(id: content.items[path.item].id, sectionID: content.id, path: path))
        }
    }

    /// The id of the old item at `path`.
    private func oldID(at path: ItemPath) -> String {
        old[path.section].items[path.item].id
    }

    /// Reports the inserts, moves and updates of one kept new section, in item order.
    ///
    /// `sources` holds, for each of its items, the old position it claimed, or -1.
    private mutating func reportItems(
        inNewSection section: Int, fromOldSection oldSection: Int, sources: ContiguousArray<Int>,
        oldPaths: ContiguousArray<ItemPath>
    ) {
        // Items that were already in the matching old section stay if they belong to the longest run in old order.
        var stayingCandidates: [Int] = []
        stayingCandidates.reserveCapacity(sources.count)
        for source in sources where source >= 0 && oldPaths[source].section == oldSection {
            stayingCandidates.append(oldPaths[source].item)
        }
        let staying = longestIncreasingSubsequenceMask(stayingCandidates)
        var candidate = 0
        // The items are read from local arrays, so that comparing them does not copy them.
        let (sectionID, items) = (new[section].id, new[section].items)
        let oldItems = old[oldSection].items
        for (item, source) in sources.enumerated() {
            let to = ItemPath(section: section, item: item)
            guard source >= 0, oldToNew[oldPaths[source].section] != nil else {
                changes.itemInserts.append(.init(item: items[item], sectionID: sectionID, path: to))
                continue
            }
            let from = oldPaths[source]
            var moved = true
            if from.section == oldSection {
                moved = !staying[candidate]
                candidate += 1
            }
            if moved {
                changes.itemMoves.append(
                    .init(
                        id: items[item].id, fromSectionID: old[from.section].id, from: from, toSectionID: sectionID,
                        to: to))
            }
            let before = from.section == oldSection ? oldItems : old[from.section].items
            if contentDiffers(before, from.item, items, item) {
                changes.itemUpdates.append(.init(item: items[item], sectionID: sectionID, path: to))
            }
        }
    }
}

// MARK: - Private

/// Whether `old[oldIndex]` and `new[newIndex]` differ in content, compared in place: reading them through the arrays'
/// subscripts and calling `isContentEqual(to:)` would copy both items (retaining every string and array in them) for
/// every kept item, which once took a third of the diff's time.
private func contentDiffers(_ old: [Item], _ oldIndex: Int, _ new: [Item], _ newIndex: Int) -> Bool {
    old.withUnsafeBufferPointer { old in
        new.withUnsafeBufferPointer { new in
            !Item.isContentEqual(old.baseAddress! + oldIndex, new.baseAddress! + newIndex)
        }
    }
}

/// Old item positions by id, each handed out once, in order: Heckel's symbol table, with duplicates chained.
private struct OccurrenceTable {
    /// For each id, its first old position not claimed yet, or -1 once all are claimed.
    private var firstUnclaimed: [String: Int] = [:]
    /// For each old position, the next old position with the same id, or -1.
    private var nextOccurrence: ContiguousArray<Int>
    /// Whether no id occurs twice among the old items (always so in snapshots from `Snapshot.build`).
    private(set) var idsAreUnique = true

    /// Enters the items of `oldSections` (`count` in all), last to first, so that each chain runs forward.
    init(oldSections: [Section], count: Int) {
        firstUnclaimed.reserveCapacity(count)
        nextOccurrence = ContiguousArray(repeating: -1, count: count)
        var position = count
        for content in oldSections.reversed() {
            for item in content.items.indices.reversed() {
                position -= 1
                if let next = firstUnclaimed.updateValue(position, forKey: content.items[item].id) {
                    nextOccurrence[position] = next
                    idsAreUnique = false
                }
            }
        }
    }

    /// Claims the first unclaimed old position of `id`, or returns -1 if there is none.
    mutating func claim(_ id: String) -> Int {
        guard let index = firstUnclaimed.index(forKey: id) else { return -1 }
        let position = firstUnclaimed.values[index]
        if position >= 0 { firstUnclaimed.values[index] = nextOccurrence[position] }
        return position
    }
}
