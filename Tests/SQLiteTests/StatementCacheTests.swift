import CSQLite
import Testing

@testable import SQLite

@Suite struct StatementCacheTests {
    let directory = TemporaryDirectory()

    func open() throws -> Database {
        let db = try Database(path: directory.file("cache.db"))
        try db.execute(
            script: """
                CREATE TABLE node (id INTEGER PRIMARY KEY, parent INTEGER) STRICT;
                INSERT INTO node VALUES (1, NULL), (2, 1), (3, 1), (4, 2), (5, 3), (6, 2);
                """)
        return db
    }

    /// The statements the connection holds prepared (SQLite's own list of them).
    func preparedCount(_ db: Database) -> Int {
        var count = 0
        var statement = sqlite3_next_stmt(db.connection.handle, nil)
        while let current = statement {
            count += 1
            statement = sqlite3_next_stmt(db.connection.handle, current)
        }
        return count
    }

    @Test("the same SQL run inside its own row loop (a recursive walk) does not rewind the outer loop")
    func recursiveWalkWithOneSQL() throws {
        let db = try open()
        let sql = "SELECT id FROM node WHERE parent = ? ORDER BY id"
        var visited: [Int] = []
        func walk(_ parent: Int) throws {
            try #require(visited.count < 20, "the walk loops")
            try db.cachedStatement(sql).forEachRow([parent]) { row in
                let id = row.int(0)
                visited.append(id)
                try walk(id)
                #expect(row.int(0) == id, "the outer row is still readable")
            }
        }
        try walk(1)
        #expect(visited == [2, 4, 6, 3, 5])
    }

    @Test("fetchAll, fetchOne and execute of the same SQL inside a fetchAll's decode")
    func sameSQLInsideDecode() throws {
        let db = try open()
        let sql = "SELECT id FROM node WHERE parent = ? ORDER BY id"
        let pairs = try db.fetchAll(sql, [1]) { row in
            let children = try db.fetchAll(sql, [row.int(0)]) { $0.int(0) }
            let first = try db.fetchOne(sql, [row.int(0)]) { $0.int(0) }
            try db.execute(sql, [row.int(0)])
            return (row.int(0), children, first)
        }
        #expect(pairs.map(\.0) == [2, 3])
        #expect(pairs.map(\.1) == [[4, 6], [5]])
        #expect(pairs.map(\.2) == [4, 5])
    }

    @Test("a statement not in use is handed out again")
    func idleStatementIsReused() throws {
        let db = try open()
        let first = try db.cachedStatement("SELECT count(*) FROM node")
        #expect(try first.fetchOne { $0.int(0) } == 6)
        #expect(try db.cachedStatement("SELECT count(*) FROM node") === first)
    }

    @Test("the cache keeps at most statementCacheCapacity statements, the least recently used dropped first")
    func cacheIsBounded() throws {
        let db = try open()
        let kept = try db.cachedStatement("SELECT count(*) FROM node")
        let dropped = try db.cachedStatement("SELECT max(id) FROM node")
        let before = preparedCount(db)
        for number in 0..<(Database.statementCacheCapacity * 4) {
            #expect(try db.fetchOne("SELECT \(number) + id FROM node WHERE id = 1") { $0.int(0) } == number + 1)
            _ = try db.cachedStatement("SELECT count(*) FROM node")
        }
        #expect(try db.cachedStatement("SELECT count(*) FROM node") === kept)
        #expect(try db.cachedStatement("SELECT max(id) FROM node") !== dropped)
        // The two statements held here, and at most the capacity in the cache.
        #expect(preparedCount(db) <= Database.statementCacheCapacity + 2)
        #expect(preparedCount(db) > before)
    }

    @Test("a statement dropped from the cache while it is stepped runs to its end")
    func droppedWhileSteppedStillWorks() throws {
        let db = try open()
        var seen: [Int] = []
        try db.cachedStatement("SELECT id FROM node ORDER BY id").forEachRow { row in
            for number in 0...Database.statementCacheCapacity {
                _ = try db.fetchOne("SELECT \(number)") { $0.int(0) }
            }
            seen.append(row.int(0))
        }
        #expect(seen == [1, 2, 3, 4, 5, 6])
    }
}
