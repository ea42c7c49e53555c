/// The difference between two snapshots' visible sections, as plain data in stages, like DifferenceKit's
/// `StagedChangeset`: made by `Snapshot.changes(from:)`, replayed by `apply(to:)`.
///
/// Everything is named by identifiers and by indices. Indices of deletes and of move sources are positions in the
/// OLD snapshot's visible sections; indices of inserts, move destinations and updates are positions in the NEW one's
/// (the batch-update convention of UIKit and AppKit). Each list is sorted by its index (deletes by old index, the
/// rest by new index). See `Snapshot.changes(from:)` for the stage order and the rules.
///
/// For example:
///
///     let changes = new.changes(from: old)
///     for move in changes.itemMoves { print(move.id, move.from, "->", move.to) }
///     print(changes.summary)  // sections -0 +1 ~0 ^0 | items -2 +0 ~1 ^3 | supplementaries -0 +1 ~1
public struct Changeset: Hashable, Sendable, CustomStringConvertible {
    /// Sections that left, by old index.
    public var sectionDeletes: [SectionDelete]
    /// Sections that arrived, with their whole content (their items and supplementaries are not listed again).
    public var sectionInserts: [SectionInsert]
    /// Kept sections that left their relative order.
    public var sectionMoves: [SectionMove]
    /// Kept sections whose layout or empty behaviour changed.
    public var sectionUpdates: [SectionUpdate]
    /// Items that left a kept section (gone, or now in an inserted section).
    public var itemDeletes: [ItemDelete]
    /// Items that arrived in a kept section (new, or from a deleted section).
    public var itemInserts: [ItemInsert]
    /// Items that left their relative order within a kept section, or went from one kept section to another.
    public var itemMoves: [ItemMove]
    /// Items in kept sections, moved or not, whose content changed; they carry the new content.
    public var itemUpdates: [ItemUpdate]
    /// Supplementaries no longer shown in a kept section, such as an empty state once an item arrives.
    public var supplementaryDeletes: [SupplementaryDelete]
    /// Supplementaries newly shown in a kept section, such as an empty state once the last item leaves.
    public var supplementaryInserts: [SupplementaryInsert]
    /// Supplementaries of kept sections whose content changed, such as a header's count.
    public var supplementaryUpdates: [SupplementaryUpdate]
    /// How the whole-screen empty state changed, if it did.
    public var screenEmptyState: ScreenEmptyStateChange?

    /// Creates a changeset; usually made by `Snapshot.changes(from:)`.
    ///
    ///     Changeset()  // no changes
    public init(
        sectionDeletes: [SectionDelete] = [], sectionInserts: [SectionInsert] = [], sectionMoves: [SectionMove] = [],
        sectionUpdates: [SectionUpdate] = [], itemDeletes: [ItemDelete] = [], itemInserts: [ItemInsert] = [],
        itemMoves: [ItemMove] = [], itemUpdates: [ItemUpdate] = [], supplementaryDeletes: [SupplementaryDelete] = [],
        supplementaryInserts: [SupplementaryInsert] = [], supplementaryUpdates: [SupplementaryUpdate] = [],
        screenEmptyState: ScreenEmptyStateChange? = nil
    ) {
        self.sectionDeletes = sectionDeletes
        self.sectionInserts = sectionInserts
        self.sectionMoves = sectionMoves
        self.sectionUpdates = sectionUpdates
        self.itemDeletes = itemDeletes
        self.itemInserts = itemInserts
        self.itemMoves = itemMoves
        self.itemUpdates = itemUpdates
        self.supplementaryDeletes = supplementaryDeletes
        self.supplementaryInserts = supplementaryInserts
        self.supplementaryUpdates = supplementaryUpdates
        self.screenEmptyState = screenEmptyState
    }

    /// Whether nothing changed.
    ///
    ///     snapshot.changes(from: snapshot).isEmpty  // true
    public var isEmpty: Bool {
        sectionDeletes.isEmpty && sectionInserts.isEmpty && sectionMoves.isEmpty && sectionUpdates.isEmpty
            && itemDeletes.isEmpty && itemInserts.isEmpty && itemMoves.isEmpty && itemUpdates.isEmpty
            && supplementaryDeletes.isEmpty && supplementaryInserts.isEmpty && supplementaryUpdates.isEmpty
            && screenEmptyState == nil
    }

    /// One line for logs: counts per stage as `-deleted +inserted ~updated ^moved`, and the screen empty state.
    ///
    ///     changes.summary  // sections -0 +0 ~0 ^0 | items -1 +0 ~0 ^0 | supplementaries -0 +1 ~1 | screen empty: inserted
    public var summary: String {
        if isEmpty { return "no changes" }
        var line =
            "sections -\(sectionDeletes.count) +\(sectionInserts.count) ~\(sectionUpdates.count) ^\(sectionMoves.count)"
            + " | items -\(itemDeletes.count) +\(itemInserts.count) ~\(itemUpdates.count) ^\(itemMoves.count)"
            + " | supplementaries -\(supplementaryDeletes.count) +\(supplementaryInserts.count)"
            + " ~\(supplementaryUpdates.count)"
        if let screenEmptyState { line += " | screen empty: \(screenEmptyState.name)" }
        return line
    }

    /// The same as `summary`.
    ///
    ///     print(changes)  // sections -0 +1 ~0 ^0 | ...
    public var description: String { summary }
}

// MARK: - Sections

extension Changeset {
    /// A section that left: its id and old index.
    ///
    ///     SectionDelete(id: "client-books", index: 1)
    public struct SectionDelete: Hashable, Sendable {
        /// The section's id.
        public var id: String
        /// Its index among the old visible sections.
        public var index: Int

        /// Creates a section delete.
        ///
        ///     SectionDelete(id: "a", index: 0)
        public init(id: String, index: Int) {
            self.id = id
            self.index = index
        }
    }

    /// A section that arrived: its new index and whole content.
    ///
    ///     SectionInsert(section: Section(id: "a"), index: 0)
    public struct SectionInsert: Hashable, Sendable {
        /// The section as it is now, items and supplementaries included.
        public var section: Section
        /// Its index among the new visible sections.
        public var index: Int
        /// The section's id.
        public var id: String { section.id }

        /// Creates a section insert.
        ///
        ///     SectionInsert(section: Section(id: "a"), index: 0)
        public init(section: Section, index: Int) {
            self.section = section
            self.index = index
        }
    }

    /// A kept section that left its relative order.
    ///
    ///     SectionMove(id: "library-books", from: 2, to: 0)
    public struct SectionMove: Hashable, Sendable {
        /// The section's id.
        public var id: String
        /// Its index among the old visible sections.
        public var from: Int
        /// Its index among the new visible sections.
        public var to: Int

        /// Creates a section move.
        ///
        ///     SectionMove(id: "a", from: 0, to: 1)
        public init(id: String, from: Int, to: Int) {
            self.id = id
            self.from = from
            self.to = to
        }
    }

    /// A kept section whose layout or empty behaviour changed, with the new values.
    ///
    ///     SectionUpdate(id: "library-books", index: 2, layout: .list, whenEmpty: .hide)
    public struct SectionUpdate: Hashable, Sendable {
        /// The section's id.
        public var id: String
        /// Its index among the new visible sections.
        public var index: Int
        /// The new layout.
        public var layout: Layout
        /// The new empty behaviour.
        public var whenEmpty: Section.EmptyBehavior
        /// Its index among the old visible sections, in the batch-safe form (where an updated section is never
        /// moved); nil in the standard form.
        public var from: Int?

        /// Creates a section update.
        ///
        ///     SectionUpdate(id: "a", index: 0, layout: .card, whenEmpty: .showEmptyState)
        public init(id: String, index: Int, layout: Layout, whenEmpty: Section.EmptyBehavior, from: Int? = nil) {
            self.id = id
            self.index = index
            self.layout = layout
            self.whenEmpty = whenEmpty
            self.from = from
        }
    }
}
