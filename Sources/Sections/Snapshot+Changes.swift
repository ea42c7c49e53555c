// The diff: `new.changes(from: old)`.
//
// It compares the VISIBLE sections of two snapshots (`Snapshot.visibleSections`), Heckel-style: hash tables keyed by
// identity, then a longest increasing subsequence per list to find the few elements that really left their order.
// It takes O(n log n) time in the number of sections, items and supplementaries, never quadratic time.
// The item stages (5-8), where the bulk of the work is, are a linear kernel in `Snapshot+ItemChanges.swift`.
//
// Stages, in the order a front applies them (and `Changeset.apply(to:)` replays them):
//
//  1. section deletes   old index        sections whose id is gone (their items and supplementaries go with them)
//  2. section inserts   new index        sections whose id is new, with their whole content
//  3. section moves     old -> new index kept sections outside the longest run that kept its relative order
//  4. section updates   new index        kept sections whose `layout` or `whenEmpty` changed
//  5. item deletes      old path         items gone from a kept section (gone altogether or now in an inserted one)
//  6. item inserts      new path         items new in a kept section (new altogether or from a deleted one)
//  7. item moves        old -> new path  items that went to another kept section, and, within a section, the items
//                                        outside the longest run of kept items that kept their relative order
//  8. item updates      new path         items of kept sections whose content changed, moved or not
//  9. supplementary deletes, 10. inserts, 11. updates, per kept section: identity is section id + kind + id;
//     a content change is an update; the derived empty state appearing or disappearing is an insert or a delete;
//     a custom supplementary that left its relative order is a delete and an insert
// 12. the whole-screen empty state (`Snapshot.shownEmptyState`): inserted, deleted, updated or replaced
//
// Identifiers ought to be unique (sections in a snapshot, items across a snapshot, supplementaries per section and
// kind); `Snapshot.build` guarantees it. A snapshot made by hand with duplicates is still diffed without trapping: the
// k-th occurrence of an id in the old snapshot is matched with the k-th occurrence in the new one, so the first
// occurrence keeps its identity and later ones are distinct elements (the paths in the changeset stay exact).

// MARK: - Diff

extension Snapshot {
    /// The changes that turn `old`'s visible sections into this snapshot's, in stages (see the top of this file).
    ///
    ///     let changes = new.changes(from: old)
    ///     changes.itemMoves.map(\.id)  // ["book-12"]
    ///     try changes.apply(to: old)   // new's visible sections
    public func changes(from old: Snapshot) -> Changeset {
        var diff = Differ(old: old.visibleSections, new: visibleSections)
        diff.diffSections()
        diff.diffItems()
        diff.diffSupplementaries()
        var changes = diff.changes
        changes.screenEmptyState = Self.screenEmptyStateChange(from: old.shownEmptyState, to: shownEmptyState)
        return changes
    }

    private static func screenEmptyStateChange(
        from old: Supplementary?, to new: Supplementary?
    ) -> Changeset.ScreenEmptyStateChange? {
        switch (old, new) {
        case (nil, nil):
            return nil
        case (nil, let new?):
            return .inserted(new)
        case (let old?, nil):
            return .deleted(id: old.id)
        case (let old?, let new?):
            if old == new { return nil }
            if old.kind == new.kind && old.id == new.id { return .updated(new) }
            return .replaced(oldID: old.id, with: new)
        }
    }
}

// MARK: - Private

/// The identity of a section: its id and which occurrence of that id it is (0 unless ids are duplicated).
private struct Key: Hashable {
    var id: String
    var occurrence: Int
}

/// The identity of a supplementary within its section: kind, id, and which occurrence of both it is.
private struct SupplementaryKey: Hashable {
    var kind: SupplementaryKind
    var id: String
    var occurrence: Int
}

/// Numbers repeated ids so that every key is unique.
private struct KeyMaker {
    private var seen: [String: Int] = [:]
    private var seenSupplementaries: [SupplementaryKey: Int] = [:]

    mutating func key(_ id: String) -> Key {
        let occurrence = seen[id, default: 0]
        seen[id] = occurrence + 1
        return Key(id: id, occurrence: occurrence)
    }

    mutating func key(_ element: Supplementary) -> SupplementaryKey {
        var key = SupplementaryKey(kind: element.kind, id: element.id, occurrence: 0)
        let occurrence = seenSupplementaries[key, default: 0]
        seenSupplementaries[key] = occurrence + 1
        key.occurrence = occurrence
        return key
    }
}

/// The diff in progress: the section stages here, the item stages in `Snapshot+ItemChanges.swift`.
struct Differ {
    let old: [Section]
    let new: [Section]
    var changes = Changeset()
    /// For each old section, the index of the same section among the new ones, if kept.
    var oldToNew: [Int?]
    /// For each new section, the index of the same section among the old ones, if kept.
    var newToOld: [Int?]

    init(old: [Section], new: [Section]) {
        self.old = old
        self.new = new
        oldToNew = [Int?](repeating: nil, count: old.count)
        newToOld = [Int?](repeating: nil, count: new.count)
    }

    mutating func diffSections() {
        var oldKeys = KeyMaker()
        var oldIndex: [Key: Int] = [:]
        for (index, section) in old.enumerated() { oldIndex[oldKeys.key(section.id)] = index }
        var newKeys = KeyMaker()
        for (index, section) in new.enumerated() {
            if let match = oldIndex[newKeys.key(section.id)] {
                newToOld[index] = match
                oldToNew[match] = index
            }
        }
        for (index, section) in old.enumerated() where oldToNew[index] == nil {
            changes.sectionDeletes.append(.init(id: section.id, index: index))
        }
        var kept: [Int] = []
        for (index, section) in new.enumerated() {
            if newToOld[index] == nil {
                changes.sectionInserts.append(.init(section: section, index: index))
            } else {
                kept.append(index)
            }
        }
        let staying = longestIncreasingSubsequenceMask(kept.map { newToOld[$0]! })
        for (position, index) in kept.enumerated() {
            let from = newToOld[index]!
            let (before, after) = (old[from], new[index])
            if !staying[position] {
                changes.sectionMoves.append(.init(id: after.id, from: from, to: index))
            }
            if before.layout != after.layout || before.whenEmpty != after.whenEmpty {
                changes.sectionUpdates.append(
                    .init(id: after.id, index: index, layout: after.layout, whenEmpty: after.whenEmpty))
            }
        }
    }

    mutating func diffSupplementaries() {
        for (section, match) in newToOld.enumerated() {
            guard let oldSection = match else { continue }
            diffSupplementaries(old: oldSection, new: section)
        }
        changes.supplementaryDeletes.sort { ($0.sectionIndex, $0.index) < ($1.sectionIndex, $1.index) }
    }

    mutating func diffSupplementaries(old oldSection: Int, new newSection: Int) {
        let sectionID = new[newSection].id
        let before = old[oldSection].supplementaries
        let after = new[newSection].supplementaries
        if before == after { return }
        var oldIndex: [SupplementaryKey: Int] = [:]
        var oldKeys = KeyMaker()
        for (index, element) in before.enumerated() {
            oldIndex[oldKeys.key(element)] = index
        }
        var newKeys = KeyMaker()
        var matched = [Bool](repeating: false, count: before.count)
        var candidates: [(index: Int, from: Int)] = []
        var inserted: [Int] = []
        for (index, element) in after.enumerated() {
            if let from = oldIndex[newKeys.key(element)] {
                candidates.append((index, from))
            } else {
                inserted.append(index)
            }
        }
        let staying = longestIncreasingSubsequenceMask(candidates.map(\.from))
        for (position, candidate) in candidates.enumerated() {
            if staying[position] {
                matched[candidate.from] = true
                if before[candidate.from] != after[candidate.index] {
                    changes.supplementaryUpdates.append(
                        .init(
                            sectionID: sectionID, supplementary: after[candidate.index], sectionIndex: newSection,
                            index: candidate.index))
                }
            } else {
                inserted.append(candidate.index)
            }
        }
        for (index, element) in before.enumerated() where !matched[index] {
            changes.supplementaryDeletes.append(
                .init(sectionID: sectionID, kind: element.kind, id: element.id, sectionIndex: oldSection, index: index))
        }
        for index in inserted.sorted() {
            changes.supplementaryInserts.append(
                .init(sectionID: sectionID, supplementary: after[index], sectionIndex: newSection, index: index))
        }
    }
}
