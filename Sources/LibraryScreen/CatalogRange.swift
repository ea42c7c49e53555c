import Library

/// Which part of the library's catalog a screen shows.
///
/// For example:
///
///     let screen = try LibraryScreen.load(from: store, clientID: 1, range: .page(2, perPage: 20), now: now)
public enum CatalogRange: Hashable, Sendable {
    /// Page `page` (from 1) of `perPage` books.
    case page(Int, perPage: Int)
    /// Every book (or every match of the search) on one page: at most ``LibraryStore/maxPerPage`` of them.
    case all
}

extension LibraryScreen {
    /// Reads everything one client's screen shows in one read transaction: the client, the books they hold, and the
    /// asked part of the catalog (or of a search) with each book's availability.
    ///
    /// - throws: `LibraryError.noSuchClient` for an unknown client; `SQLiteError` when the database fails.
    ///
    ///     let screen = try LibraryScreen.load(from: store, clientID: 1, range: .page(1, perPage: 20), now: now)
    ///     let snapshot = LibraryScreen.snapshot(from: screen)
    public static func load(
        from store: LibraryStore, clientID: Int, range: CatalogRange, search: String? = nil, now: Timestamp
    ) throws -> ClientScreen {
        try store.read { store in
            let (page, perPage): (Int, Int)
            switch range {
            case .page(let number, let size): (page, perPage) = (number, size)
            case .all: (page, perPage) = (1, min(max(1, try store.bookCount()), LibraryStore.maxPerPage))
            }
            return try store.clientScreen(clientID: clientID, page: page, perPage: perPage, now: now, search: search)
        }
    }
}
