// MARK: - Editing sections

/// Edits by identifier in the style of Apple's diffable data source snapshot. Every edit checks first and changes
/// nothing when it throws: an unknown id throws `SnapshotError.unknownSection` or `.unknownItem`, a section id or item
/// id already in the snapshot throws `SnapshotError.duplicateIdentifiers`. Edits see every section, hidden ones
/// included, and take linear time in the size of the snapshot.
extension Snapshot {
    /// Adds sections at the end.
    ///
    ///     try snapshot.appendSections([Section(id: "library-books", layout: .grid())])
    public mutating func appendSections(_ newSections: [Section]) throws {
        try checkNew(newSections)
        sections.append(contentsOf: newSections)
    }

    /// Inserts sections just before the section with the given id.
    ///
    ///     try snapshot.insertSections([banner], beforeSection: "client-info")
    public mutating func insertSections(_ newSections: [Section], beforeSection id: String) throws {
        let index = try requireSection(id)
        try checkNew(newSections)
        sections.insert(contentsOf: newSections, at: index)
    }

    /// Inserts sections just after the section with the given id.
    ///
    ///     try snapshot.insertSections([clientBooks], afterSection: "client-info")
    public mutating func insertSections(_ newSections: [Section], afterSection id: String) throws {
        let index = try requireSection(id)
        try checkNew(newSections)
        sections.insert(contentsOf: newSections, at: index + 1)
    }

    /// Removes the sections with the given ids, and their items.
    ///
    ///     try snapshot.deleteSections(["client-books"])
    public mutating func deleteSections(_ ids: [String]) throws {
        for id in ids { _ = try requireSection(id) }
        let doomed = Set(ids)
        sections.removeAll { doomed.contains($0.id) }
    }

    /// Moves a section to just before another.
    ///
    ///     try snapshot.moveSection("library-books", beforeSection: "client-books")
    public mutating func moveSection(_ id: String, beforeSection other: String) throws {
        try moveSection(id, relativeTo: other, after: false)
    }

    /// Moves a section to just after another.
    ///
    ///     try snapshot.moveSection("client-info", afterSection: "library-books")
    public mutating func moveSection(_ id: String, afterSection other: String) throws {
        try moveSection(id, relativeTo: other, after: true)
    }
}

// MARK: - Editing items

extension Snapshot {
    /// Adds items at the end of the section with the given id.
    ///
    ///     try snapshot.appendItems([dune, emma], toSection: "library-books")
    public mutating func appendItems(_ items: [Item], toSection id: String) throws {
        let index = try requireSection(id)
        try checkNew(items, in: id)
        sections[index].items.append(contentsOf: items)
    }

    /// Inserts items just before the item with the given id, in its section.
    ///
    ///     try snapshot.insertItems([dune], beforeItem: "book-7")
    public mutating func insertItems(_ items: [Item], beforeItem id: String) throws {
        let path = try requireItem(id)
        try checkNew(items, in: sections[path.section].id)
        sections[path.section].items.insert(contentsOf: items, at: path.item)
    }

    /// Inserts items just after the item with the given id, in its section.
    ///
    ///     try snapshot.insertItems([emma], afterItem: "book-12")
    public mutating func insertItems(_ items: [Item], afterItem id: String) throws {
        let path = try requireItem(id)
        try checkNew(items, in: sections[path.section].id)
        sections[path.section].items.insert(contentsOf: items, at: path.item + 1)
    }

    /// Removes the items with the given ids.
    ///
    ///     try snapshot.deleteItems(["book-12"])
    public mutating func deleteItems(_ ids: [String]) throws {
        for id in ids { _ = try requireItem(id) }
        let doomed = Set(ids)
        for index in sections.indices where sections[index].items.contains(where: { doomed.contains($0.id) }) {
            sections[index].items.removeAll { doomed.contains($0.id) }
        }
    }

    /// Moves an item to just before another, in that item's section (which may be another section).
    ///
    ///     try snapshot.moveItem("book-12", beforeItem: "book-3")
    public mutating func moveItem(_ id: String, beforeItem other: String) throws {
        try moveItem(id, relativeTo: other, after: false)
    }

    /// Moves an item to just after another, in that item's section (which may be another section).
    ///
    ///     try snapshot.moveItem("book-12", afterItem: "book-3")
    public mutating func moveItem(_ id: String, afterItem other: String) throws {
        try moveItem(id, relativeTo: other, after: true)
    }

    /// Moves an item to the end of a section, which may be its own or another (empty or not).
    ///
    ///     try snapshot.moveItem("book-12", toSection: "client-books")
    public mutating func moveItem(_ id: String, toSection sectionID: String) throws {
        let from = try requireItem(id)
        _ = try requireSection(sectionID)
        let item = sections[from.section].items.remove(at: from.item)
        let target = index(ofSection: sectionID)!
        sections[target].items.append(item)
    }

    /// Replaces the content of items, matched by id; identity and position are kept.
    ///
    ///     try snapshot.reloadItems([Item(id: "book-12", kind: "book", title: "Dune (2nd ed.)")])
    public mutating func reloadItems(_ items: [Item]) throws {
        let paths = try items.map { try requireItem($0.id) }
        for (path, item) in zip(paths, items) {
            sections[path.section].items[path.item] = item
        }
    }

    /// Changes items in place, matched by id; identity and position are kept, and changing the id throws.
    ///
    ///     try snapshot.reconfigureItems(["book-12"]) { $0.badges = [Badge(text: "✓ yours", style: .positive)] }
    public mutating func reconfigureItems(_ ids: [String], _ update: (inout Item) throws -> Void) throws {
        let paths = try ids.map { try requireItem($0) }
        var changed: [(ItemPath, Item)] = []
        for path in paths {
            var item = sections[path.section].items[path.item]
            try update(&item)
            let id = sections[path.section].items[path.item].id
            guard item.id == id else { throw SnapshotError.identifierChanged(from: id, to: item.id) }
            changed.append((path, item))
        }
        for (path, item) in changed {
            sections[path.section].items[path.item] = item
        }
    }
}

// MARK: - Private

extension Snapshot {
    private func requireSection(_ id: String) throws -> Int {
        guard let index = index(ofSection: id) else { throw SnapshotError.unknownSection(id) }
        return index
    }

    private func requireItem(_ id: String) throws -> ItemPath {
        guard let path = indexPath(ofItem: id) else { throw SnapshotError.unknownItem(id) }
        return path
    }

    /// Throws if new sections clash with existing sections or items, or with each other.
    private func checkNew(_ newSections: [Section]) throws {
        var sectionIDs = Set(sections.map(\.id))
        var itemIDs = Set(itemIdentifiers)
        var duplicates: [Duplicate] = []
        for section in newSections {
            if !sectionIDs.insert(section.id).inserted {
                duplicates.append(Duplicate(kind: .section, id: section.id, sectionID: section.id))
            }
            for item in section.items where !itemIDs.insert(item.id).inserted {
                duplicates.append(Duplicate(kind: .item, id: item.id, sectionID: section.id))
            }
        }
        if !duplicates.isEmpty { throw SnapshotError.duplicateIdentifiers(duplicates) }
    }

    /// Throws if new items clash with existing items or with each other.
    private func checkNew(_ items: [Item], in sectionID: String) throws {
        var itemIDs = Set(itemIdentifiers)
        let duplicates = items.filter { !itemIDs.insert($0.id).inserted }
            .map { Duplicate(kind: .item, id: $0.id, sectionID: sectionID) }
        if !duplicates.isEmpty { throw SnapshotError.duplicateIdentifiers(duplicates) }
    }

    private mutating func moveSection(_ id: String, relativeTo other: String, after: Bool) throws {
        let from = try requireSection(id)
        _ = try requireSection(other)
        guard id != other else { throw SnapshotError.relativeToItself(id) }
        let section = sections.remove(at: from)
        let anchor = index(ofSection: other)!
        sections.insert(section, at: after ? anchor + 1 : anchor)
    }

    private mutating func moveItem(_ id: String, relativeTo other: String, after: Bool) throws {
        let from = try requireItem(id)
        _ = try requireItem(other)
        guard id != other else { throw SnapshotError.relativeToItself(id) }
        let item = sections[from.section].items.remove(at: from.item)
        let anchor = indexPath(ofItem: other)!
        sections[anchor.section].items.insert(item, at: after ? anchor.item + 1 : anchor.item)
    }
}
