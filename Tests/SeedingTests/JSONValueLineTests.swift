import Testing

@testable import Seeding

@Suite("A pretty-printed JSON array's errors name the bad value's line")
struct JSONValueLineTests {
    @Test("a bad value on line 8 of an object starting on line 5 is reported at line 8")
    func valueLine() throws {
        let library = try TestLibrary()
        let path = try library.write(
            "p.json",
            "[\n  {\n    \"title\": \"A\"\n  },\n  {\n    \"title\": \"B\",\n    \"author\": \"x\",\n    \"year\": 0\n  }\n]\n"
        )
        do {
            _ = try library.importFiles(["p.json"])
            Issue.record("imported")
        } catch let error as DataError {
            #expect(error.line == 8, "\(error)")
            #expect(error.description.hasPrefix("\(path): line 8, key \"year\""), "\(error)")
        }
    }

    @Test("the member's line is found past nested values and strings holding braces; nil for a key not there")
    func memberLine() {
        let text = "[{\"a\": {\"year\": [1,\n2]},\n \"s\": \"}{,\\\"\",\n \"year\":\n 0}]"
        // The value's line (5), not its key's (4).
        #expect(CatalogSource.memberLine(key: "year", objectLine: 1, in: Array(text.utf8)) == 5)
        #expect(CatalogSource.memberLine(key: "pages", objectLine: 1, in: Array(text.utf8)) == nil)
    }
}
