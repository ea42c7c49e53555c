// MARK: - Items

extension Changeset {
    /// An item that left a kept section: its id, old path and old section id.
    ///
    ///     ItemDelete(id: "book-12", sectionID: "client-books", path: ItemPath(section: 1, item: 0))
    public struct ItemDelete: Hashable, Sendable {
        /// The item's id.
        public var id: String
        /// The id of the section it left.
        public var sectionID: String
        /// Its path among the old visible sections.
        public var path: ItemPath

        /// Creates an item delete.
        ///
        ///     ItemDelete(id: "a", sectionID: "s", path: ItemPath(section: 0, item: 0))
        public init(id: String, sectionID: String, path: ItemPath) {
            self.id = id
            self.sectionID = sectionID
            self.path = path
        }
    }

    /// An item that arrived in a kept section: its content, new path and new section id.
    ///
    ///     ItemInsert(item: dune, sectionID: "client-books", path: ItemPath(section: 1, item: 0))
    public struct ItemInsert: Hashable, Sendable {
        /// The item, with its content.
        public var item: Item
        /// The id of the section it arrived in.
        public var sectionID: String
        /// Its path among the new visible sections.
        public var path: ItemPath
        /// The item's id.
        public var id: String { item.id }

        /// Creates an item insert.
        ///
        ///     ItemInsert(item: dune, sectionID: "s", path: ItemPath(section: 0, item: 0))
        public init(item: Item, sectionID: String, path: ItemPath) {
            self.item = item
            self.sectionID = sectionID
            self.path = path
        }
    }

    /// An item that left its relative order, or went from one kept section to another.
    ///
    ///     ItemMove(id: "book-12", fromSectionID: "library-books", from: ItemPath(section: 2, item: 5),
    ///              toSectionID: "client-books", to: ItemPath(section: 1, item: 0))
    public struct ItemMove: Hashable, Sendable {
        /// The item's id.
        public var id: String
        /// The id of the section it was in.
        public var fromSectionID: String
        /// Its path among the old visible sections.
        public var from: ItemPath
        /// The id of the section it is in now.
        public var toSectionID: String
        /// Its path among the new visible sections.
        public var to: ItemPath

        /// Creates an item move.
        ///
        ///     ItemMove(id: "a", fromSectionID: "s", from: ItemPath(section: 0, item: 0),
        ///              toSectionID: "s", to: ItemPath(section: 0, item: 3))
        public init(id: String, fromSectionID: String, from: ItemPath, toSectionID: String, to: ItemPath) {
            self.id = id
            self.fromSectionID = fromSectionID
            self.from = from
            self.toSectionID = toSectionID
            self.to = to
        }
    }

    /// An item of a kept section whose content changed: its new content, new path and section id.
    ///
    ///     ItemUpdate(item: duneHeld, sectionID: "client-books", path: ItemPath(section: 1, item: 0))
    public struct ItemUpdate: Hashable, Sendable {
        /// The item, with its new content.
        public var item: Item
        /// The id of the section it is in now.
        public var sectionID: String
        /// Its path among the new visible sections.
        public var path: ItemPath
        /// Its path among the old visible sections, in the batch-safe form (see `Changeset.batchSafe(from:to:)`),
        /// where an updated item is never moved; nil in the standard form.
        public var from: ItemPath?
        /// The item's id.
        public var id: String { item.id }

        /// Creates an item update.
        ///
        ///     ItemUpdate(item: dune, sectionID: "s", path: ItemPath(section: 0, item: 0))
        public init(item: Item, sectionID: String, path: ItemPath, from: ItemPath? = nil) {
            self.item = item
            self.sectionID = sectionID
            self.path = path
            self.from = from
        }
    }
}
