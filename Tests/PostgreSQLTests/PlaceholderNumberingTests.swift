import PostgreSQL
import Testing

/// One SQL text for both stores: `?` becomes `$1`, `$2`... except inside literals, identifiers and comments.
@Suite struct PlaceholderNumberingTests {
    @Test(arguments: [
        ("SELECT 1", "SELECT 1"),
        ("SELECT ? || '?'", "SELECT $1 || '?'"),
        ("UPDATE books SET status = ? WHERE id = ?", "UPDATE books SET status = $1 WHERE id = $2"),
        ("SELECT 'it''s ?', ?", "SELECT 'it''s ?', $1"),
        ("SELECT \"odd?name\" FROM t WHERE a = ?", "SELECT \"odd?name\" FROM t WHERE a = $1"),
        ("SELECT ? -- why?\n, ?", "SELECT $1 -- why?\n, $2"),
        ("SELECT ?, ?, ?, ?, ?, ?, ?, ?, ?, ?", "SELECT $1, $2, $3, $4, $5, $6, $7, $8, $9, $10"),
    ])
    func numbersPlaceholdersOutsideQuotesAndComments(sql: String, expected: String) {
        #expect(PostgreSQLConnection.numberingPlaceholders(sql) == expected)
    }
}
