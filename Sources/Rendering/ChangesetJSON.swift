import Formats
import Sections

extension JSONRenderer {
    /// A changeset as JSON, naming sections, items and supplementaries by the ids of the sections document, with
    /// their indices (old ones for deletes and moves' `from`, new ones otherwise), stage by stage in the order the
    /// changeset documents. Inserted sections carry their whole content (`section`, as in the document) and
    /// updated ones their new `layout` and `whenEmpty`. In the batch-safe form (`Changeset.batchSafe(from:to:)`) updated items and sections also
    /// carry their old index as `from` (an item's section is the same, by id, since it did not move). Inserted and updated items carry their new content, so a front can draw them as they are.
    ///
    /// For example, taking book 12:
    ///
    ///     JSONRenderer.changes(after.changes(from: before)).serialized()
    ///     // {"sections": {...}, "items": {"deleted": [], "inserted": [{"id": "client-book-12", ...}], ...}, ...}
    public static func changes(_ changes: Changeset) -> JSONValue {
        .object(members: [
            (
                "sections",
                .object(members: [
                    (
                        "deleted",
                        .array(changes.sectionDeletes.map { ["id": .string($0.id), "index": .int($0.index)] })
                    ),
                    (
                        "inserted",
                        .array(
                            changes.sectionInserts.map {
                                ["id": .string($0.id), "index": .int($0.index), "section": section($0.section)]
                            })
                    ),
                    (
                        "moved",
                        .array(
                            changes.sectionMoves.map {
                                ["id": .string($0.id), "from": .int($0.from), "to": .int($0.to)]
                            })
                    ),
                    (
                        "updated",
                        .array(
                            changes.sectionUpdates.map { update in
                                var members: [(key: String, value: JSONValue)] = [
                                    ("id", .string(update.id)), ("index", .int(update.index)),
                                ]
                                if let from = update.from { members.append(("from", .int(from))) }
                                members.append(("layout", layout(update.layout)))
                                members.append(("whenEmpty", .string(update.whenEmpty.rawValue)))
                                return .object(members: members)
                            })
                    ),
                ])
            ),
            (
                "items",
                .object(members: [
                    (
                        "deleted",
                        .array(changes.itemDeletes.map { at($0.id, section: $0.sectionID, path: $0.path) })
                    ),
                    (
                        "inserted",
                        .array(
                            changes.itemInserts.map {
                                at($0.id, section: $0.sectionID, path: $0.path, item: $0.item)
                            })
                    ),
                    (
                        "moved",
                        .array(
                            changes.itemMoves.map { move in
                                .object(members: [
                                    ("id", .string(move.id)),
                                    ("fromSection", .string(move.fromSectionID)), ("from", .int(move.from.item)),
                                    ("toSection", .string(move.toSectionID)), ("to", .int(move.to.item)),
                                ])
                            })
                    ),
                    (
                        "updated",
                        .array(
                            changes.itemUpdates.map {
                                at($0.id, section: $0.sectionID, path: $0.path, from: $0.from, item: $0.item)
                            })
                    ),
                ])
            ),
            (
                "supplementaries",
                .object(members: [
                    (
                        "deleted",
                        .array(
                            changes.supplementaryDeletes.map {
                                supplementary($0.id, kind: $0.kind, section: $0.sectionID, index: $0.index)
                            })
                    ),
                    (
                        "inserted",
                        .array(
                            changes.supplementaryInserts.map {
                                supplementary(
                                    $0.supplementary.id, kind: $0.supplementary.kind, section: $0.sectionID,
                                    index: $0.index, content: $0.supplementary)
                            })
                    ),
                    (
                        "updated",
                        .array(
                            changes.supplementaryUpdates.map {
                                supplementary(
                                    $0.supplementary.id, kind: $0.supplementary.kind, section: $0.sectionID,
                                    index: $0.index, content: $0.supplementary)
                            })
                    ),
                ])
            ),
            ("emptyState", screenEmptyState(changes.screenEmptyState)),
        ])
    }

    // MARK: - Private

    private static func at(
        _ id: String, section: String, path: ItemPath, from: ItemPath? = nil, item: Item? = nil
    ) -> JSONValue {
        var members: [(key: String, value: JSONValue)] = [
            ("id", .string(id)), ("section", .string(section)), ("index", .int(path.item)),
        ]
        if let from { members.append(("from", .int(from.item))) }
        if let item { members.append(("item", JSONRenderer.item(item))) }
        return .object(members: members)
    }

    private static func supplementary(
        _ id: String, kind: SupplementaryKind, section: String, index: Int, content: Supplementary? = nil
    ) -> JSONValue {
        var members: [(key: String, value: JSONValue)] = [
            ("id", .string(id)), ("kind", .string(kind.name)), ("section", .string(section)), ("index", .int(index)),
        ]
        if let content { members.append(("supplementary", JSONRenderer.supplementary(content))) }
        return .object(members: members)
    }

    private static func screenEmptyState(_ change: Changeset.ScreenEmptyStateChange?) -> JSONValue {
        guard let change else { return .null }
        var members: [(key: String, value: JSONValue)] = [("change", .string(change.name))]
        if let shown = change.shown { members.append(("supplementary", JSONRenderer.supplementary(shown))) }
        return .object(members: members)
    }
}

extension ChangeMarks {
    /// The marks of a changeset: inserted and updated items, sections and supplementaries. An item moved from
    /// elsewhere counts as updated, so its new place is drawn marked.
    ///
    ///     let marks = ChangeMarks(after.changes(from: before))
    public init(_ changes: Changeset) {
        self.init(
            insertedItems: Set(changes.itemInserts.map(\.id)),
            updatedItems: Set(changes.itemUpdates.map(\.id)).union(changes.itemMoves.map(\.id)),
            insertedSupplementaries: Set(changes.supplementaryInserts.map(\.supplementary.id)),
            updatedSupplementaries: Set(changes.supplementaryUpdates.map(\.supplementary.id)),
            insertedSections: Set(changes.sectionInserts.map(\.id)))
    }
}
