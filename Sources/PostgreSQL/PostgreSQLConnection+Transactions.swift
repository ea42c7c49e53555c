extension PostgreSQLConnection {
    /// Runs `body` in one transaction: READ COMMITTED for writes (rows are locked with `SELECT ... FOR UPDATE`
    /// where a rule needs it), REPEATABLE READ READ ONLY for reads (one snapshot for all of `body`'s queries).
    /// Commits when `body` returns, rolls back when it throws. Errors such as a lost serialization race
    /// (`PostgreSQLError.isRetryable`) are thrown: the caller decides whether to run `body` again. Transactions do not
    /// nest: called inside one, it throws SQLSTATE 25001 (active_sql_transaction) before doing anything; use
    /// `savepoint` for a nested unit of work.
    ///
    /// ```swift
    /// let id = try connection.transaction { connection in
    ///     try connection.fetchOne("INSERT INTO clients (name) VALUES (?) RETURNING id", ["Ann"]) { $0.int(0) }
    /// }
    /// ```
    public func transaction<T>(readOnly: Bool = false, _ body: (PostgreSQLConnection) throws -> T) throws -> T {
        guard !isInTransaction else {
            throw PostgreSQLError(
                sqlState: "25001",
                message: "a transaction is already open: transactions do not nest; use savepoint { } inside it",
                sql: readOnly ? "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY" : "BEGIN")
        }
        try execute(script: readOnly ? "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY" : "BEGIN")
        let value: T
        do {
            value = try body(self)
        } catch {
            rollbackQuietly()
            throw error
        }
        let tag: String
        do {
            tag = try command("COMMIT")
        } catch {
            rollbackQuietly()
            throw error
        }
        // COMMIT of a transaction in which a statement failed (its error caught and ignored) rolls back instead:
        // that is a failure, never a silent success.
        guard tag == "COMMIT" else {
            throw PostgreSQLError(
                sqlState: "25P02", message: "the transaction was rolled back: a statement in it had failed")
        }
        return value
    }

    /// Runs `body` inside a savepoint of the open transaction: released when it returns, rolled back to (the
    /// transaction goes on) when it throws. Outside a transaction it throws SQLSTATE 25P01 (no_active_sql_transaction)
    /// before doing anything.
    ///
    /// ```swift
    /// try connection.transaction { connection in
    ///     try? connection.savepoint { try $0.execute("INSERT INTO settings VALUES (?, ?)", ["k", "v"]) }
    /// }
    /// ```
    public func savepoint<T>(_ body: (PostgreSQLConnection) throws -> T) throws -> T {
        guard isInTransaction else {
            throw PostgreSQLError(
                sqlState: "25P01", message: "a savepoint needs an open transaction: use transaction { } around it",
                sql: "SAVEPOINT librarycli")
        }
        try execute(script: "SAVEPOINT librarycli")
        do {
            let value = try body(self)
            try execute(script: "RELEASE SAVEPOINT librarycli")
            return value
        } catch {
            try? execute(script: "ROLLBACK TO SAVEPOINT librarycli; RELEASE SAVEPOINT librarycli")
            throw error
        }
    }

    /// Ends an open transaction without keeping it (nothing happens when none is open or the connection broke).
    ///
    /// ```swift
    /// connection.rollbackQuietly()
    /// ```
    public func rollbackQuietly() {
        guard isConnected, isInTransaction else { return }
        try? execute(script: "ROLLBACK")
    }
}
