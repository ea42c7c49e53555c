// MARK: - Applying a changeset

extension Changeset {
    /// Replays the stages on `old`'s visible sections, giving the new snapshot's visible sections and shown empty
    /// state.
    ///
    /// Elements placed by index (inserts, move destinations) take their new positions; the elements that stayed keep
    /// their relative order and fill the remaining positions, as in a UIKit batch update. The result's sections are
    /// rebuilt from what is shown: a section's `emptyState` is kept only while it is shown, and the snapshot's
    /// `emptyState` is its shown one. A changeset that does not fit `old` throws `SnapshotError.changesetMismatch`.
    ///
    ///     let replayed = try new.changes(from: old).apply(to: old)
    ///     replayed.visibleSections == new.visibleSections  // true when no empty state is declared but hidden
    public func apply(to old: Snapshot) throws -> Snapshot {
        let before = old.visibleSections
        let layout = try sectionLayout(oldCount: before.count)
        var oldFor = [Int?](repeating: nil, count: layout.count)
        for (index, slot) in layout.enumerated() {
            if case .kept(let from) = slot { oldFor[index] = from }
        }
        let items = try replayItems(before: before, oldFor: oldFor)
        let supplementaries = try replaySupplementaries(before: before, oldFor: oldFor)
        var after: [Section] = []
        after.reserveCapacity(layout.count)
        for (index, slot) in layout.enumerated() {
            switch slot {
            case .inserted(let section):
                after.append(section)
            case .kept(let from):
                var section = Section(
                    id: before[from].id, layout: before[from].layout, items: items[index]!,
                    whenEmpty: before[from].whenEmpty)
                section.setShown(supplementaries[index]!)
                after.append(section)
            }
        }
        for update in sectionUpdates {
            guard after.indices.contains(update.index), after[update.index].id == update.id else {
                throw SnapshotError.changesetMismatch("section update \"\(update.id)\" at \(update.index)")
            }
            after[update.index].layout = update.layout
            after[update.index].whenEmpty = update.whenEmpty
        }
        return Snapshot(sections: after, emptyState: try replayScreenEmptyState(old.shownEmptyState))
    }
}

// MARK: - Private

private enum SectionSlot {
    case inserted(Section)
    case kept(Int)
}

extension Section {
    /// Sets the stored supplementaries from a shown list (header, empty state, custom kinds, footer).
    fileprivate mutating func setShown(_ shown: [Supplementary]) {
        header = shown.first { $0.kind == .header }
        emptyState = shown.first { $0.kind == .empty }
        footer = shown.first { $0.kind == .footer }
        customSupplementaries = shown.filter {
            if case .custom = $0.kind { return true } else { return false }
        }
    }
}

extension Changeset {
    private func sectionLayout(oldCount: Int) throws -> [SectionSlot] {
        var leaving = Set<Int>()
        for delete in sectionDeletes {
            guard delete.index >= 0 && delete.index < oldCount, leaving.insert(delete.index).inserted else {
                throw SnapshotError.changesetMismatch("section delete \"\(delete.id)\" at \(delete.index)")
            }
        }
        for move in sectionMoves {
            guard move.from >= 0 && move.from < oldCount, leaving.insert(move.from).inserted else {
                throw SnapshotError.changesetMismatch("section move \"\(move.id)\" from \(move.from)")
            }
        }
        let placed =
            sectionInserts.map { ($0.index, SectionSlot.inserted($0.section)) }
            + sectionMoves.map { ($0.to, SectionSlot.kept($0.from)) }
        let staying = (0..<oldCount).filter { !leaving.contains($0) }.map { SectionSlot.kept($0) }
        return try fill(placed: placed, staying: staying, what: "sections")
    }

    private func replayItems(before: [Section], oldFor: [Int?]) throws -> [[Item]?] {
        var leaving = Set<ItemPath>()
        for delete in itemDeletes {
            guard before.contains(delete.path), leaving.insert(delete.path).inserted else {
                throw SnapshotError.changesetMismatch("item delete \"\(delete.id)\" at \(delete.path)")
            }
        }
        var placed = [[(Int, Item)]](repeating: [], count: oldFor.count)
        for move in itemMoves {
            guard before.contains(move.from), leaving.insert(move.from).inserted,
                oldFor.indices.contains(move.to.section)
            else { throw SnapshotError.changesetMismatch("item move \"\(move.id)\" from \(move.from)") }
            placed[move.to.section].append((move.to.item, before[move.from.section].items[move.from.item]))
        }
        for insert in itemInserts {
            guard oldFor.indices.contains(insert.path.section) else {
                throw SnapshotError.changesetMismatch("item insert \"\(insert.id)\" at \(insert.path)")
            }
            placed[insert.path.section].append((insert.path.item, insert.item))
        }
        var result = [[Item]?](repeating: nil, count: oldFor.count)
        for (section, match) in oldFor.enumerated() {
            guard let from = match else {
                if !placed[section].isEmpty { throw SnapshotError.changesetMismatch("items placed in new section") }
                continue
            }
            let staying = before[from].items.indices.filter { !leaving.contains(ItemPath(section: from, item: $0)) }
                .map { before[from].items[$0] }
            result[section] = try fill(placed: placed[section], staying: staying, what: "items of section \(section)")
        }
        for update in itemUpdates {
            let path = update.path
            guard result.indices.contains(path.section), let items = result[path.section],
                items.indices.contains(path.item), items[path.item].id == update.id
            else { throw SnapshotError.changesetMismatch("item update \"\(update.id)\" at \(path)") }
            result[path.section]![path.item] = update.item
        }
        return result
    }

    private func replaySupplementaries(before: [Section], oldFor: [Int?]) throws -> [[Supplementary]?] {
        let shownBefore = before.map(\.supplementaries)
        var leaving = Set<ItemPath>()
        for delete in supplementaryDeletes {
            let path = ItemPath(section: delete.sectionIndex, item: delete.index)
            guard shownBefore.indices.contains(path.section), shownBefore[path.section].indices.contains(path.item),
                leaving.insert(path).inserted
            else { throw SnapshotError.changesetMismatch("supplementary delete \"\(delete.id)\" at \(path)") }
        }
        var placed = [[(Int, Supplementary)]](repeating: [], count: oldFor.count)
        for insert in supplementaryInserts {
            guard oldFor.indices.contains(insert.sectionIndex), oldFor[insert.sectionIndex] != nil else {
                throw SnapshotError.changesetMismatch("supplementary insert \"\(insert.supplementary.id)\"")
            }
            placed[insert.sectionIndex].append((insert.index, insert.supplementary))
        }
        var result = [[Supplementary]?](repeating: nil, count: oldFor.count)
        for (section, match) in oldFor.enumerated() {
            guard let from = match else { continue }
            let staying = shownBefore[from].indices.filter { !leaving.contains(ItemPath(section: from, item: $0)) }
                .map { shownBefore[from][$0] }
            result[section] = try fill(placed: placed[section], staying: staying, what: "supplementaries")
        }
        for update in supplementaryUpdates {
            let element = update.supplementary
            guard result.indices.contains(update.sectionIndex), let shown = result[update.sectionIndex],
                shown.indices.contains(update.index), shown[update.index].kind == element.kind,
                shown[update.index].id == element.id
            else { throw SnapshotError.changesetMismatch("supplementary update \"\(element.id)\"") }
            result[update.sectionIndex]![update.index] = element
        }
        return result
    }

    private func replayScreenEmptyState(_ shown: Supplementary?) throws -> Supplementary? {
        guard let change = screenEmptyState else { return shown }
        switch change {
        case .inserted(let new):
            guard shown == nil else { throw SnapshotError.changesetMismatch("screen empty state already shown") }
            return new
        case .deleted(let id), .replaced(let id, _):
            guard shown?.id == id else { throw SnapshotError.changesetMismatch("screen empty state \"\(id)\"") }
            return change.shown
        case .updated(let new):
            guard shown?.id == new.id else { throw SnapshotError.changesetMismatch("screen empty state \"\(new.id)\"") }
            return new
        }
    }

    /// Puts placed elements at their indices and the staying ones, in order, in the remaining positions.
    private func fill<Element>(placed: [(Int, Element)], staying: [Element], what: String) throws -> [Element] {
        let count = placed.count + staying.count
        var slots = [Element?](repeating: nil, count: count)
        for (index, element) in placed {
            guard index >= 0 && index < count, slots[index] == nil else {
                throw SnapshotError.changesetMismatch("\(what): position \(index) is out of range or taken twice")
            }
            slots[index] = element
        }
        var next = staying.makeIterator()
        for index in slots.indices where slots[index] == nil {
            slots[index] = next.next()
        }
        return slots.map { $0! }
    }
}

extension [Section] {
    fileprivate func contains(_ path: ItemPath) -> Bool {
        indices.contains(path.section) && self[path.section].items.indices.contains(path.item)
    }
}
