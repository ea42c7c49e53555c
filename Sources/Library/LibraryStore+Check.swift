extension LibraryStore {
    /// What is wrong with the library's data, in words, as librarycli's own writes never leave it but other tools
    /// can (`sqlite3` with `PRAGMA foreign_keys=off`, a hand-written `DELETE`, triggers disabled on PostgreSQL): the
    /// kept book count (`library_stats`) against the books, then every row that names a book, client or token that
    /// does not exist. Empty when nothing is wrong; reads only, in one snapshot.
    ///
    /// ```swift
    /// for problem in try store.dataProblems() { print(problem) }
    /// // "the kept book count is 0, but there are 49 books"
    /// // "1 loan names a book that does not exist (loan #1 names book #999)"
    /// ```
    public func dataProblems() throws -> [String] {
        try reading {
            var problems: [String] = []
            let (kept, books) =
                try database.fetchOne(
                    "SELECT (SELECT book_count FROM library_stats WHERE id = 1), (SELECT count(*) FROM books)"
                ) { ($0.intOrNil(0), $0.int(1)) } ?? (nil, 0)
            if kept != books {
                let counted = "there \(books == 1 ? "is 1 book" : "are \(books) books")"
                problems.append(
                    kept.map { "the kept book count is \($0), but \(counted)" }
                        ?? "the kept book count is missing, but \(counted)")
            }
            for reference in Self.references {
                let found = try database.fetchOne(
                    """
                    SELECT count(*) OVER (), r.\(reference.key), r.\(reference.column) FROM \(reference.table) r
                    WHERE r.\(reference.column) IS NOT NULL
                      AND NOT EXISTS (SELECT 1 FROM \(reference.parent) p WHERE p.id = r.\(reference.column))
                    ORDER BY r.\(reference.key) LIMIT 1
                    """
                ) { (count: $0.int(0), key: $0.int(1), missing: $0.int(2)) }
                guard let found else { continue }
                let rows = found.count == 1 ? "1 \(reference.noun) names" : "\(found.count) \(reference.noun)s name"
                problems.append(
                    "\(rows) a \(reference.parentNoun) that does not exist "
                        + "(\(reference.example(found.key, found.missing)))")
            }
            return problems
        }
    }

    /// A column that names a row of another table (a foreign key), and how to word a row that names a missing one.
    private struct Reference: Sendable {
        var table: String
        var key: String
        var column: String
        var parent: String
        var noun: String
        var parentNoun: String
        var example: @Sendable (Int, Int) -> String
    }

    /// Every foreign key of the schema, in the order they are checked.
    private static let references = [
        Reference(
            table: "loans", key: "id", column: "book_id", parent: "books", noun: "loan", parentNoun: "book",
            example: { "loan #\($0) names book #\($1)" }),
        Reference(
            table: "loans", key: "id", column: "client_id", parent: "clients", noun: "loan", parentNoun: "client",
            example: { "loan #\($0) names client #\($1)" }),
        Reference(
            table: "tokens", key: "id", column: "client_id", parent: "clients", noun: "token", parentNoun: "client",
            example: { "token #\($0) names client #\($1)" }),
        Reference(
            table: "client_pins", key: "client_id", column: "client_id", parent: "clients", noun: "PIN",
            parentNoun: "client", example: { _, client in "the PIN of client #\(client)" }),
        Reference(
            table: "idempotency_keys", key: "id", column: "token_id", parent: "tokens", noun: "idempotency key",
            parentNoun: "token", example: { "idempotency key #\($0) names token #\($1)" }),
    ]
}
