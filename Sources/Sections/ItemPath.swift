/// Where an item sits: the index of its section and its index within that section.
///
/// In a `Changeset`, paths of deletes and of move sources are in the old snapshot's visible sections, paths of
/// inserts, move destinations and updates in the new one's.
///
/// For example:
///
///     let path = ItemPath(section: 1, item: 0)  // the first item of the second section
public struct ItemPath: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The index of the section.
    public var section: Int
    /// The index of the item within its section.
    public var item: Int

    /// Creates an item path.
    ///
    ///     ItemPath(section: 0, item: 3)
    public init(section: Int, item: Int) {
        self.section = section
        self.item = item
    }

    /// Orders paths by section, then by item.
    ///
    ///     ItemPath(section: 0, item: 9) < ItemPath(section: 1, item: 0)  // true
    public static func < (lhs: ItemPath, rhs: ItemPath) -> Bool {
        (lhs.section, lhs.item) < (rhs.section, rhs.item)
    }

    /// The path as `section.item`, such as `1.0`.
    ///
    ///     ItemPath(section: 1, item: 0).description  // "1.0"
    public var description: String { "\(section).\(item)" }
}
