/// A mistake in editing, building or applying a snapshot that a caller can cause, such as an unknown identifier.
///
/// Editing methods that throw leave the snapshot unchanged.
///
/// For example:
///
///     do { try snapshot.deleteItems(["book-99"]) } catch let error as SnapshotError { print(error) }
///     // no item with id "book-99"
public enum SnapshotError: Error, Hashable, Sendable, CustomStringConvertible {
    /// No section has this identifier.
    case unknownSection(String)
    /// No item has this identifier.
    case unknownItem(String)
    /// Identifiers that are already taken or given twice, in the order they were found.
    case duplicateIdentifiers([Duplicate])
    /// An edit tried to change an item's identifier, which reloads and reconfigures keep.
    case identifierChanged(from: String, to: String)
    /// A section or item cannot be placed relative to itself.
    case relativeToItself(String)
    /// A changeset does not fit the snapshot it was applied to; the text says where.
    case changesetMismatch(String)

    /// A one-line message for people.
    ///
    ///     SnapshotError.unknownSection("x").description  // no section with id "x"
    public var description: String {
        switch self {
        case .unknownSection(let id):
            return "no section with id \"\(id)\""
        case .unknownItem(let id):
            return "no item with id \"\(id)\""
        case .duplicateIdentifiers(let duplicates):
            return "duplicate identifiers: " + duplicates.map(\.description).joined(separator: ", ")
        case .identifierChanged(let from, let to):
            return "an item's id cannot change (from \"\(from)\" to \"\(to)\")"
        case .relativeToItself(let id):
            return "\"\(id)\" cannot be placed relative to itself"
        case .changesetMismatch(let detail):
            return "the changeset does not fit this snapshot: \(detail)"
        }
    }
}
