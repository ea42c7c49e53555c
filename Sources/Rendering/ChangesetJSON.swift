import Formats
import Sections

extension JSONRenderer {
    /// A changeset as JSON, naming sections, items and supplementaries by the ids of the sections document, with
    /// their indices (old ones for deletes and moves' `from`, new ones otherwise), stage by stage in the order the
    /// changeset documents. Inserted sections carry their whole content (`section`, as in the document) and
    /// updated ones their new `layout` and `whenEmpty`. In the batch-safe form (`Changeset.batchSafe(from:to:)`) updated items,
    /// supplementaries and sections also carry their old index as `from` (an item's or supplementary's section is the
    /// same, by id, since it did not move). Inserted and updated items carry their new content, so a front can draw them as they are.
    ///
    /// For example, taking book 12:
    ///
    ///     JSONRenderer.changes(after.changes(from: before)).serialized()
    ///     // {"sections": {...}, "items": {"deleted": [], "inserted": [{"id": "client-book-12", ...}], ...}, ...}
    public static func changes(_ changes: Changeset) -> JSONValue {
        value { write(changes, to: &$0) }
    }

    /// Writes a changeset to `json` as `changes(_:)` describes it: the one description of the form, which
    /// `changes(_:)` reads back.
    ///
    ///     var json = JSONTextWriter()
    ///     JSONRenderer.write(after.changes(from: before), to: &json)  // {"sections":{...},"items":{...},...}
    public static func write(_ changes: Changeset, to json: inout JSONTextWriter) {
        json.beginObject()
        json.key(Keys.sections)
        json.beginObject()
        list(Keys.deleted, changes.sectionDeletes, to: &json) { delete, json in
            json.key(Keys.id)
            json.string(delete.id)
            json.key(Keys.index)
            json.int(delete.index)
        }
        list(Keys.inserted, changes.sectionInserts, to: &json) { insert, json in
            json.key(Keys.id)
            json.string(insert.id)
            json.key(Keys.index)
            json.int(insert.index)
            json.key(Keys.section)
            write(insert.section, to: &json)
        }
        list(Keys.moved, changes.sectionMoves, to: &json) { move, json in
            json.key(Keys.id)
            json.string(move.id)
            json.key(Keys.from)
            json.int(move.from)
            json.key(Keys.to)
            json.int(move.to)
        }
        list(Keys.updated, changes.sectionUpdates, to: &json) { update, json in
            json.key(Keys.id)
            json.string(update.id)
            json.key(Keys.index)
            json.int(update.index)
            if let from = update.from {
                json.key(Keys.from)
                json.int(from)
            }
            json.key(Keys.layout)
            write(update.layout, to: &json)
            json.key(Keys.whenEmpty)
            json.string(update.whenEmpty.rawValue)
        }
        json.endObject()
        json.key(Keys.items)
        json.beginObject()
        list(Keys.deleted, changes.itemDeletes, to: &json) { delete, json in
            at(delete.id, section: delete.sectionID, path: delete.path, to: &json)
        }
        list(Keys.inserted, changes.itemInserts, to: &json) { insert, json in
            at(insert.id, section: insert.sectionID, path: insert.path, item: insert.item, to: &json)
        }
        list(Keys.moved, changes.itemMoves, to: &json) { move, json in
            json.key(Keys.id)
            json.string(move.id)
            json.key(Keys.fromSection)
            json.string(move.fromSectionID)
            json.key(Keys.from)
            json.int(move.from.item)
            json.key(Keys.toSection)
            json.string(move.toSectionID)
            json.key(Keys.to)
            json.int(move.to.item)
        }
        list(Keys.updated, changes.itemUpdates, to: &json) { update, json in
            at(update.id, section: update.sectionID, path: update.path, from: update.from, item: update.item, to: &json)
        }
        json.endObject()
        json.key(Keys.supplementaries)
        json.beginObject()
        list(Keys.deleted, changes.supplementaryDeletes, to: &json) { delete, json in
            supplementary(delete.id, kind: delete.kind, section: delete.sectionID, index: delete.index, to: &json)
        }
        list(Keys.inserted, changes.supplementaryInserts, to: &json) { insert, json in
            supplementary(
                insert.supplementary.id, kind: insert.supplementary.kind, section: insert.sectionID,
                index: insert.index, content: insert.supplementary, to: &json)
        }
        list(Keys.updated, changes.supplementaryUpdates, to: &json) { update, json in
            supplementary(
                update.supplementary.id, kind: update.supplementary.kind, section: update.sectionID,
                index: update.index, from: update.from, content: update.supplementary, to: &json)
        }
        json.endObject()
        json.key(Keys.emptyState)
        if let change = changes.screenEmptyState {
            json.beginObject()
            json.key(Keys.change)
            json.string(change.name)
            if let shown = change.shown {
                json.key(Keys.supplementary)
                write(shown, to: &json)
            }
            json.endObject()
        } else {
            json.value(.null)
        }
        json.endObject()
    }

    // MARK: - Private

    /// `"name": [{...}, ...]`, each element an object whose members `members` writes.
    private static func list<Element>(
        _ name: JSONTextWriter.Key, _ elements: [Element], to json: inout JSONTextWriter,
        _ members: (Element, inout JSONTextWriter) -> Void
    ) {
        json.key(name)
        json.beginArray()
        for element in elements {
            json.beginObject()
            members(element, &json)
            json.endObject()
        }
        json.endArray()
    }

    private static func at(
        _ id: String, section: String, path: ItemPath, from: ItemPath? = nil, item: Item? = nil,
        to json: inout JSONTextWriter
    ) {
        json.key(Keys.id)
        json.string(id)
        json.key(Keys.section)
        json.string(section)
        json.key(Keys.index)
        json.int(path.item)
        if let from {
            json.key(Keys.from)
            json.int(from.item)
        }
        if let item {
            json.key(Keys.item)
            write(item, to: &json)
        }
    }

    private static func supplementary(
        _ id: String, kind: SupplementaryKind, section: String, index: Int, from: Int? = nil,
        content: Supplementary? = nil, to json: inout JSONTextWriter
    ) {
        json.key(Keys.id)
        json.string(id)
        json.key(Keys.kind)
        json.string(kind.name)
        json.key(Keys.section)
        json.string(section)
        json.key(Keys.index)
        json.int(index)
        if let from {
            json.key(Keys.from)
            json.int(from)
        }
        if let content {
            json.key(Keys.supplementary)
            write(content, to: &json)
        }
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
