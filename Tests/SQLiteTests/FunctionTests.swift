import SQLite
import Testing

@Suite struct FunctionTests {
    @Test func aDefinedFunctionMapsTextAndNull() throws {
        let db = try Database(path: ":memory:")
        try db.defineFunction("shout") { $0.uppercased() + "!" }
        #expect(try db.fetchOne("SELECT shout(?)", ["héllo"]) { $0.string(0) } == "HÉLLO!")
        #expect(try db.fetchOne("SELECT shout(NULL) IS NULL") { $0.int(0) } == 1)
        #expect(try db.fetchOne("SELECT shout(42)") { $0.string(0) } == "42!")
        #expect(try db.fetchOne("SELECT shout('')") { $0.string(0) } == "!")
        // Text with a NUL inside keeps its length.
        #expect(try db.fetchOne("SELECT length(CAST(shout(?) AS BLOB))", ["a\u{0}b"]) { $0.int(0) } == 4)
    }

    @Test func redefiningReplacesTheBody() throws {
        let db = try Database(path: ":memory:")
        try db.defineFunction("f") { _ in "one" }
        try db.defineFunction("f") { _ in "two" }
        #expect(try db.fetchOne("SELECT f('x')") { $0.string(0) } == "two")
    }

    @Test func aFunctionIsPerConnection() throws {
        let db = try Database(path: ":memory:")
        #expect(throws: SQLiteError.self) { try db.fetchOne("SELECT nowhere('x')") { $0.string(0) } }
    }
}
