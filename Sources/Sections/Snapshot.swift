/// The whole screen at one moment: an ordered list of sections, and what to show when every section is empty.
///
/// Snapshots are plain values: build one, render it, or diff it against the previous one with `changes(from:)`.
///
/// For example:
///
///     let screen = Snapshot(
///         sections: [clientInfo, clientBooks, libraryBooks],
///         emptyState: Supplementary(kind: .empty, id: "screen-empty", title: "Nothing here yet"))
///     screen.visibleSections.map(\.id)  // ["client-info", "client-books", "library-books"]
public struct Snapshot: Hashable, Sendable {
    /// Every section, in order, including those hidden while empty.
    public var sections: [Section]
    /// Shown instead of the sections when every visible section is empty, if any.
    public var emptyState: Supplementary?

    /// Creates a snapshot.
    ///
    ///     Snapshot(sections: [Section(id: "a"), Section(id: "b")])
    public init(sections: [Section] = [], emptyState: Supplementary? = nil) {
        self.sections = sections
        self.emptyState = emptyState
    }

    /// The sections on screen: all but those hidden while empty. Renderers and the diff work on these.
    ///
    ///     Snapshot(sections: [Section(id: "a", whenEmpty: .hide)]).visibleSections  // []
    public var visibleSections: [Section] { sections.filter { !$0.isHidden } }

    /// Whether no visible section has an item.
    ///
    ///     Snapshot().isEmpty  // true
    public var isEmpty: Bool { visibleSections.allSatisfy(\.isEmpty) }

    /// The whole-screen empty state, while every visible section is empty and one was given.
    ///
    ///     Snapshot(emptyState: nothing).shownEmptyState  // nothing
    public var shownEmptyState: Supplementary? { isEmpty ? emptyState : nil }
}
