import Library
import Sections

/// A screen's sections together with what they were built from, so that the next version of the same screen can
/// copy the cards whose facts did not change instead of building them again (as a collection view reuses cells).
///
/// The result never depends on what is reused: `LibraryScreen.build(screen, reusing: previous).snapshot` equals
/// `LibraryScreen.snapshot(from: screen)` for every `previous`.
///
///     let first = LibraryScreen.build(try store.clientScreen(clientID: 1, page: 1, perPage: 20, now: now))
///     let next = LibraryScreen.build(try store.clientScreen(clientID: 1, page: 1, perPage: 20, now: now),
///                                    reusing: first)
///     next.snapshot  // the cards of books that did not change are `first`'s
public struct BuiltScreen: Sendable {
    /// What the sections were built from.
    public let screen: ClientScreen
    /// The three sections, in the order `LibraryScreen.snapshot(from:)` gives them.
    public let snapshot: Snapshot
    /// How the snapshot was built: cards are reused only between screens built the same way.
    let showsAll: Bool
    let program: String
}

extension LibraryScreen {
    /// Builds the three sections from what was read for one client, copying from `previous` every card (an
    /// item) whose facts are the same there: the whole snapshot when nothing changed, else the client's card
    /// when the summary is the same, each held book's card when its loan is the same, and each library book's
    /// card when its entry is the same and so is the reason Take cannot be used.
    ///
    /// - parameter previous: an earlier version of the screen, of any client or page; it only saves work.
    ///
    ///     let built = LibraryScreen.build(screen, program: "librarycli", reusing: lastVersion)
    ///     built.snapshot.visibleSections.map(\.id)  // ["client-info", "client-books", "library-books"]
    public static func build(
        _ screen: ClientScreen, showsAll: Bool = false, program: String = "librarycli",
        reusing previous: BuiltScreen? = nil
    ) -> BuiltScreen {
        // Cards carry their screen's query in their actions' hrefs: only a screen of the same query lends its cards.
        let previous = previous.flatMap {
            $0.showsAll == showsAll && $0.program == program
                && ActionRequests.screenQuery(of: $0.screen.library) == ActionRequests.screenQuery(of: screen.library)
                ? $0 : nil
        }
        if let previous, previous.screen == screen { return previous }
        let clientInfo =
            previous.flatMap { $0.screen.summary == screen.summary ? $0.snapshot.sections[0] : nil }
            ?? clientInfoSection(screen)
        let snapshot = Snapshot(sections: [
            clientInfo,
            clientBooksSection(screen, program: program, reusing: previous),
            libraryBooksSection(screen, showsAll: showsAll, program: program, reusing: previous),
        ])
        return BuiltScreen(screen: screen, snapshot: snapshot, showsAll: showsAll, program: program)
    }

    /// The items for `sources`, in order: each one copied from `previous` where an equal source (found at the same
    /// position, else by `id`) was made into an item before, else made by `make`. `previous.items` holds the items
    /// made from `previous.sources`, one for one.
    static func reusedItems<Source: Equatable>(
        _ sources: [Source], previous: (sources: [Source], items: [Item])?, id: (Source) -> Int,
        make: (Source) -> Item
    ) -> [Item] {
        guard let previous, previous.sources.count == previous.items.count, !previous.sources.isEmpty else {
            return sources.map(make)
        }
        var byID: [Int: Int]? = nil  // made the first time a source is not at its old position
        var items: [Item] = []
        items.reserveCapacity(sources.count)
        for (index, source) in sources.enumerated() {
            if index < previous.sources.count && previous.sources[index] == source {
                items.append(previous.items[index])
                continue
            }
            if byID == nil {
                var positions: [Int: Int] = [:]
                positions.reserveCapacity(previous.sources.count)
                for (position, old) in previous.sources.enumerated() {
                    positions[id(old)] = positions[id(old)] ?? position
                }
                byID = positions
            }
            if let position = byID?[id(source)], previous.sources[position] == source {
                items.append(previous.items[position])
            } else {
                items.append(make(source))
            }
        }
        return items
    }
}
