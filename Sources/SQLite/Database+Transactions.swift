import CSQLite
import Glibc

extension Database {
    // MARK: - Transactions

    /// Runs `body` in an IMMEDIATE transaction: commits if it returns, rolls back and rethrows if it throws.
    ///
    /// BEGIN IMMEDIATE takes the write lock up front, so a busy database fails here (after the busy timeout)
    /// with `SQLiteError.isBusy`, never half-way through. With a `DatabaseOptions.writeGate`, it first waits for
    /// the other writers of this process sharing the gate; the two waits share the one busy timeout, so a write
    /// behind another that waits for a writer of another process fails after the timeout, not twice it.
    ///
    /// Transactions do not nest: called while a transaction is open (inside another `write` or `read`), it throws
    /// an `SQLiteError` with `SQLITE_MISUSE` before doing anything; use `savepoint` for a nested unit of work.
    ///
    /// A file moved, renamed, deleted or replaced while open (``hasMoved``) is not written: once the transaction
    /// began, and again before it commits, it rolls back and throws an `SQLiteError` that `isMoved`, as what it
    /// committed would be lost.
    ///
    /// ```swift
    /// let id = try db.write { db in
    ///     try db.execute("INSERT INTO clients (name, card_number, created_at) VALUES (?, ?, ?)", [name, card, now])
    ///     return Int(db.lastInsertedRowID)
    /// }
    /// ```
    public func write<T>(_ body: (Database) throws -> T) throws -> T {
        // Before the gate: a nested write would otherwise wait for itself there.
        guard !isInTransaction else { throw SQLiteError.nestedTransaction(begin: "BEGIN IMMEDIATE") }
        guard let gate = options.writeGate else { return try immediateTransaction(body) }
        let timeout = options.busyTimeoutMilliseconds
        let start = Self.monotonicMilliseconds()
        return try gate.pass(waitingAtMost: timeout) {
            let waited = Self.monotonicMilliseconds() - start
            guard waited > 0 else { return try immediateTransaction(body) }
            // What is left of the timeout for BEGIN IMMEDIATE (0: fail at once if another process writes), then
            // the whole timeout again for what the transaction does.
            let handle = connection.handle
            sqlite3_busy_timeout(handle, Int32(clamping: max(0, timeout - waited)))
            var restored = false
            defer { if !restored { sqlite3_busy_timeout(handle, Int32(clamping: timeout)) } }
            return try immediateTransaction { db in
                sqlite3_busy_timeout(handle, Int32(clamping: timeout))
                restored = true
                return try body(db)
            }
        }
    }

    /// An IMMEDIATE transaction that refuses a file that moved (see `write`).
    private func immediateTransaction<T>(_ body: (Database) throws -> T) throws -> T {
        try transaction(begin: "BEGIN IMMEDIATE") { db in
            if hasMoved { throw SQLiteError.moved(path: path) }
            let value = try body(db)
            if hasMoved { throw SQLiteError.moved(path: path) }
            return value
        }
    }

    /// Milliseconds of a clock that only moves forward (not the wall clock).
    private static func monotonicMilliseconds() -> Int {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Int(now.tv_sec) * 1_000 + Int(now.tv_nsec) / 1_000_000
    }

    /// Runs `body` in a DEFERRED (read) transaction, so all its reads see one snapshot.
    ///
    /// The transaction is read-only: a statement that writes inside it (`sqlite3_stmt_readonly` says so before it
    /// runs) throws an `SQLiteError` with `SQLITE_MISUSE` at once, so a write never starts as a read and upgrades
    /// later (which can fail busy at once); writes belong in `write`, which is IMMEDIATE. (Not `PRAGMA
    /// query_only`: setting it expires every prepared statement of the connection, so each read would compile its
    /// cached statements again.)
    ///
    /// Like `write`, it throws an `SQLiteError` with `SQLITE_MISUSE` when a transaction is already open; use
    /// `savepoint` inside one.
    ///
    /// ```swift
    /// let (clients, books) = try db.read { db in
    ///     (try db.fetchOne("SELECT count(*) FROM clients") { $0.int(0) },
    ///      try db.fetchOne("SELECT count(*) FROM books") { $0.int(0) })
    /// }
    /// ```
    public func read<T>(_ body: (Database) throws -> T) throws -> T {
        guard !isInTransaction else { throw SQLiteError.nestedTransaction(begin: "BEGIN DEFERRED") }
        connection.isReading = true
        defer { connection.isReading = false }
        return try transaction(begin: "BEGIN DEFERRED", body)
    }

    /// Runs `body` in a savepoint inside the current transaction: rolled back to on throw, released otherwise.
    ///
    /// ```swift
    /// try db.write { db in
    ///     _ = try? db.savepoint { db in try db.execute("INSERT ...") }  // undone alone if it throws
    /// }
    /// ```
    public func savepoint<T>(_ body: (Database) throws -> T) throws -> T {
        savepointCounter += 1
        let name = "librarycli_savepoint_\(savepointCounter)"
        defer { savepointCounter -= 1 }
        try execute(script: "SAVEPOINT \(name)")
        let value: T
        do {
            value = try body(self)
        } catch {
            try? execute(script: "ROLLBACK TO \(name); RELEASE \(name)")
            throw error
        }
        try execute(script: "RELEASE \(name)")
        return value
    }

    // MARK: - Private

    private func transaction<T>(begin: String, _ body: (Database) throws -> T) throws -> T {
        guard !isInTransaction else { throw SQLiteError.nestedTransaction(begin: begin) }
        try execute(begin)
        let value: T
        do {
            value = try body(self)
        } catch {
            rollbackIfNeeded()
            throw error
        }
        do {
            try execute("COMMIT")
        } catch {
            rollbackIfNeeded()
            throw error
        }
        return value
    }

    private func rollbackIfNeeded() {
        // SQLite may already have rolled back (for example after SQLITE_FULL); ROLLBACK would then fail.
        if isInTransaction {
            try? execute("ROLLBACK")
        }
    }
}
