import SQLite

extension LibraryStore {
    // MARK: - First use

    /// Runs `body` once in the library's life, even when several processes start on a new database together: the
    /// check and `body` run in one IMMEDIATE transaction and are marked done in `settings` (`first_use`), so the
    /// others wait and then find it done. (On PostgreSQL the transaction first takes an advisory lock, which
    /// makes the others wait there; the check after it sees the first one's commit.) Returns what `body` returned,
    /// or nil when the first use was handled already. A throw from `body` rolls everything back and leaves the
    /// first use to do.
    ///
    /// ```swift
    /// let seeded = try store.firstUse(now: now) { store in try seedDemo(into: store) }
    /// ```
    public func firstUse<T>(now: Timestamp, _ body: (LibraryStore) throws -> T) throws -> T? {
        if try isFirstUseDone() { return nil }
        return try write { store in
            // On PostgreSQL the others wait here, as for SQLite's write lock, and then find it done.
            try database.lockUntilCommit(.firstUse)
            if try store.isFirstUseDone() { return nil }
            let value = try body(store)
            try database.execute(
                "INSERT INTO settings (key, value) VALUES (?, ?)", [Self.firstUseKey, now.iso8601])
            return value
        }
    }

    /// Whether the library's first use was handled already (by `firstUse`), so slow preparations for it (hashing the
    /// demo PINs) can be skipped.
    ///
    /// ```swift
    /// if try !store.isFirstUseDone() { prepare() }
    /// ```
    public func isFirstUseDone() throws -> Bool {
        try reading {
            try database.fetchOne("SELECT 1 FROM settings WHERE key = ?", [Self.firstUseKey]) { _ in true } ?? false
        }
    }

    // MARK: - Private

    private static let firstUseKey = "first_use"
}
