// MARK: - Supplementaries

extension Changeset {
    /// A supplementary no longer shown in a kept section: its identity (section id, kind, id) and old position.
    ///
    ///     SupplementaryDelete(sectionID: "client-books", kind: .empty, id: "client-books-empty",
    ///                         sectionIndex: 1, index: 1)
    public struct SupplementaryDelete: Hashable, Sendable {
        /// The id of its section.
        public var sectionID: String
        /// Its kind.
        public var kind: SupplementaryKind
        /// Its id.
        public var id: String
        /// Its section's index among the old visible sections.
        public var sectionIndex: Int
        /// Its index in the old section's `supplementaries`.
        public var index: Int

        /// Creates a supplementary delete.
        ///
        ///     SupplementaryDelete(sectionID: "s", kind: .footer, id: "f", sectionIndex: 0, index: 1)
        public init(sectionID: String, kind: SupplementaryKind, id: String, sectionIndex: Int, index: Int) {
            self.sectionID = sectionID
            self.kind = kind
            self.id = id
            self.sectionIndex = sectionIndex
            self.index = index
        }
    }

    /// A supplementary newly shown in a kept section: its content and new position.
    ///
    ///     SupplementaryInsert(sectionID: "client-books", supplementary: empty, sectionIndex: 1, index: 1)
    public struct SupplementaryInsert: Hashable, Sendable {
        /// The id of its section.
        public var sectionID: String
        /// The supplementary, with its content (its `kind` and `id` complete the identity).
        public var supplementary: Supplementary
        /// Its section's index among the new visible sections.
        public var sectionIndex: Int
        /// Its index in the new section's `supplementaries`.
        public var index: Int

        /// Creates a supplementary insert.
        ///
        ///     SupplementaryInsert(sectionID: "s", supplementary: footer, sectionIndex: 0, index: 1)
        public init(sectionID: String, supplementary: Supplementary, sectionIndex: Int, index: Int) {
            self.sectionID = sectionID
            self.supplementary = supplementary
            self.sectionIndex = sectionIndex
            self.index = index
        }
    }

    /// A supplementary of a kept section whose content changed: its new content and new position.
    ///
    ///     SupplementaryUpdate(sectionID: "client-books", supplementary: headerWithCount2, sectionIndex: 1, index: 0)
    public struct SupplementaryUpdate: Hashable, Sendable {
        /// The id of its section.
        public var sectionID: String
        /// The supplementary, with its new content.
        public var supplementary: Supplementary
        /// Its section's index among the new visible sections.
        public var sectionIndex: Int
        /// Its index in the new section's `supplementaries`.
        public var index: Int
        /// Its index in the old section's `supplementaries`, in the batch-safe form (see
        /// `Changeset.batchSafe(from:to:)`), for toolkits that reload by old positions; nil in the standard form.
        public var from: Int?

        /// Creates a supplementary update.
        ///
        ///     SupplementaryUpdate(sectionID: "s", supplementary: header, sectionIndex: 0, index: 0)
        public init(sectionID: String, supplementary: Supplementary, sectionIndex: Int, index: Int, from: Int? = nil) {
            self.sectionID = sectionID
            self.supplementary = supplementary
            self.sectionIndex = sectionIndex
            self.index = index
            self.from = from
        }
    }

    /// How the whole-screen empty state (`Snapshot.shownEmptyState`) changed.
    ///
    ///     changes.screenEmptyState  // .inserted(nothingHere) when the last item left
    public enum ScreenEmptyStateChange: Hashable, Sendable {
        /// It appeared.
        case inserted(Supplementary)
        /// It disappeared; the associated value is its id.
        case deleted(id: String)
        /// The same one (same kind and id) is shown with new content.
        case updated(Supplementary)
        /// Another one (different kind or id) is shown instead.
        case replaced(oldID: String, with: Supplementary)

        /// The case's name for logs: `inserted`, `deleted`, `updated` or `replaced`.
        ///
        ///     ScreenEmptyStateChange.deleted(id: "x").name  // "deleted"
        public var name: String {
            switch self {
            case .inserted: "inserted"
            case .deleted: "deleted"
            case .updated: "updated"
            case .replaced: "replaced"
            }
        }

        /// The empty state shown afterwards, if any.
        ///
        ///     ScreenEmptyStateChange.inserted(empty).shown  // empty
        public var shown: Supplementary? {
            switch self {
            case .inserted(let new), .updated(let new), .replaced(_, let new): new
            case .deleted: nil
            }
        }
    }
}
