/// Which parts of a snapshot changed since the previous one, so renderers can mark them.
///
/// Renderers know nothing of the diff: the CLI fills these sets from its changeset. The text renderer writes one
/// mark for each, wherever the thing is drawn: `(new)` for inserted things and `(changed)` for updated ones (in bold
/// when coloured).
///
/// For example:
///
///     let marks = ChangeMarks(insertedItems: ["book-12"], updatedSupplementaries: ["client-books-header"])
///     marks.mark(forItem: "book-12")  // .inserted
public struct ChangeMarks: Hashable, Sendable {
    /// How one thing changed.
    public enum Mark: String, Hashable, Sendable {
        /// It appeared.
        case inserted
        /// It was there before and its content changed.
        case updated
    }

    /// Ids of items that appeared (including items moved in from another section).
    public var insertedItems: Set<String>
    /// Ids of items whose content changed.
    public var updatedItems: Set<String>
    /// Ids of supplementaries that appeared, such as an empty state shown after the last book was returned.
    public var insertedSupplementaries: Set<String>
    /// Ids of supplementaries whose content changed, such as a header whose count moved.
    public var updatedSupplementaries: Set<String>
    /// Ids of sections that appeared.
    public var insertedSections: Set<String>

    /// Creates change marks; every set defaults to empty.
    ///
    ///     ChangeMarks(updatedItems: ["book-12"])
    public init(
        insertedItems: Set<String> = [], updatedItems: Set<String> = [], insertedSupplementaries: Set<String> = [],
        updatedSupplementaries: Set<String> = [], insertedSections: Set<String> = []
    ) {
        self.insertedItems = insertedItems
        self.updatedItems = updatedItems
        self.insertedSupplementaries = insertedSupplementaries
        self.updatedSupplementaries = updatedSupplementaries
        self.insertedSections = insertedSections
    }

    /// No marks: what `list` renders with.
    ///
    ///     TextRenderer(width: 80).render(snapshot, marks: .none)
    public static let none = ChangeMarks()

    /// Whether nothing is marked.
    ///
    ///     ChangeMarks.none.isEmpty  // true
    public var isEmpty: Bool {
        insertedItems.isEmpty && updatedItems.isEmpty && insertedSupplementaries.isEmpty
            && updatedSupplementaries.isEmpty && insertedSections.isEmpty
    }

    /// The mark of an item, if any; insertion wins over update.
    ///
    ///     marks.mark(forItem: "book-3")  // nil
    public func mark(forItem id: String) -> Mark? {
        if insertedItems.contains(id) { return .inserted }
        return updatedItems.contains(id) ? .updated : nil
    }

    /// The mark of a supplementary, if any; insertion wins over update.
    ///
    ///     marks.mark(forSupplementary: "client-books-header")  // .updated
    public func mark(forSupplementary id: String) -> Mark? {
        if insertedSupplementaries.contains(id) { return .inserted }
        return updatedSupplementaries.contains(id) ? .updated : nil
    }

    /// The mark of a section: `.inserted` if it appeared, else `nil`.
    ///
    ///     marks.mark(forSection: "client-books")  // nil
    public func mark(forSection id: String) -> Mark? {
        insertedSections.contains(id) ? .inserted : nil
    }
}
