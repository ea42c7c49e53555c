/// An identifier that appeared more than once where it must be unique: a section id, or an item id in a snapshot.
///
/// For example:
///
///     let clash = Duplicate(kind: .item, id: "book-12", sectionID: "library-books")
///     clash.description  // item "book-12" (in section "library-books")
public struct Duplicate: Hashable, Sendable, CustomStringConvertible {
    /// What the identifier names.
    public enum Kind: String, Hashable, Sendable {
        /// A section id.
        case section
        /// An item id.
        case item
    }

    /// What the identifier names.
    public var kind: Kind
    /// The identifier that clashed.
    public var id: String
    /// The section holding the later (rejected or dropped) occurrence; for a section, its own id.
    public var sectionID: String

    /// Creates a duplicate report.
    ///
    ///     Duplicate(kind: .section, id: "client-info", sectionID: "client-info")
    public init(kind: Kind, id: String, sectionID: String) {
        self.kind = kind
        self.id = id
        self.sectionID = sectionID
    }

    /// The report as text, such as `section "a"` or `item "b" (in section "a")`.
    ///
    ///     Duplicate(kind: .section, id: "a", sectionID: "a").description  // section "a"
    public var description: String {
        switch kind {
        case .section: "section \"\(id)\""
        case .item: "item \"\(id)\" (in section \"\(sectionID)\")"
        }
    }
}

/// What building a snapshot does when an identifier appears twice.
///
/// For example:
///
///     let result = try Snapshot.build(onDuplicate: .dropAndReport) { sections }
public enum DuplicatePolicy: Hashable, Sendable {
    /// Throw `SnapshotError.duplicateIdentifiers` naming every clash.
    case `throw`
    /// Keep the first occurrence, drop later ones (a dropped section takes its items with it), and report them.
    case dropAndReport
}

/// A built snapshot and the duplicates dropped while building it (always empty under `DuplicatePolicy.throw`).
///
/// For example:
///
///     let result = try Snapshot.build(onDuplicate: .dropAndReport) { sections }
///     for clash in result.duplicates { log("dropped \(clash)") }
public struct BuildResult: Hashable, Sendable {
    /// The snapshot, free of duplicate identifiers.
    public var snapshot: Snapshot
    /// The later occurrences that were dropped, in the order they were found.
    public var duplicates: [Duplicate]

    /// Creates a build result.
    ///
    ///     BuildResult(snapshot: Snapshot(), duplicates: [])
    public init(snapshot: Snapshot, duplicates: [Duplicate]) {
        self.snapshot = snapshot
        self.duplicates = duplicates
    }
}
