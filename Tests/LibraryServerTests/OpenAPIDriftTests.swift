import Formats
import Foundation
import HTTP
import Library
import Testing

@testable import LibraryServer

/// The API description against what the server does: the bodies it takes, the answers it lists, the members of
/// its problems and of the books it answers.
@Suite("serve: the API description says what the server does")
struct OpenAPIDriftTests {
    let document: JSONValue

    init() throws {
        document = try JSONParser.parse(Array(OpenAPI.document.utf8))
    }

    /// Every operation: path, method and the operation's object.
    var operations: [(path: String, method: String, operation: JSONValue)] {
        (document["paths"]?.objectValue?.members ?? []).flatMap { path in
            (path.value.objectValue?.members ?? []).map { (path.key, $0.key, $0.value) }
        }
    }

    @Test("every JSON body is described with exactly the members its route takes, and refuses others")
    func bodies() throws {
        let taken: [String: [String]] = [
            "post /v1/books": BookRoutes.bookMembers, "post /v1/clients": BookRoutes.clientMembers,
            "post /v1/loans": LoanRoutes.takeMembers, "post /v1/sessions": SessionRoutes.signInMembers,
        ]
        var described: Set<String> = []
        for (path, method, operation) in operations {
            guard let schema = value(operation, "requestBody", "content", "application/json", "schema") else {
                continue
            }
            let name = "\(method) \(path)"
            described.insert(name)
            let members = try #require(taken[name], "\(name) has a body the test does not know")
            #expect(Set(schema["properties"]?.objectValue?.keys.map { $0 } ?? []) == Set(members), "\(name)")
            #expect(schema["additionalProperties"] == .bool(false), "\(name)")
            // A body can be bad: 400 (bad-json, invalid-body, invalid-input).
            #expect(value(operation, "responses", "400") != nil, "\(name) lists no 400")
        }
        #expect(described == Set(taken.keys))
    }

    @Test("an operation with an id in its path lists 400 (a bad id) and 404 (no such book)")
    func pathIDs() {
        var checked = 0
        for (path, method, operation) in operations {
            let integers = (operation["parameters"]?.arrayValue ?? []).filter {
                $0["in"] == .string("path") && value($0, "schema", "type") == .string("integer")
            }
            guard !integers.isEmpty else { continue }
            checked += 1
            #expect(value(operation, "responses", "400") != nil, "\(method) \(path) lists no 400")
            #expect(value(operation, "responses", "404") != nil, "\(method) \(path) lists no 404")
        }
        #expect(checked == 3)
    }

    @Test("the Problem schema has every extension member a problem is made with in HTTP and LibraryServer")
    func problemMembers() throws {
        let properties = Set(value(document, "components", "schemas", "Problem", "properties")?.objectValue?.keys ?? [])
        let root = SearchBodiesAndProblemTests.packageRoot
        var keys: Set<String> = []
        // `extensions: ["line": ...]`, `extensions.append(("bookId", ...))`, `extensions += [("limit", ...), ...]`.
        let patterns = [#/"([A-Za-z]+)": /#, #/\("([A-Za-z]+)", /#]
        for folder in ["Sources/HTTP", "Sources/LibraryServer"] {
            for name in try FileManager.default.contentsOfDirectory(atPath: root + "/" + folder)
            where name.hasSuffix(".swift") {
                let text = try String(contentsOfFile: root + "/" + folder + "/" + name, encoding: .utf8)
                for line in text.split(separator: "\n")
                where line.contains("extensions") && !line.trimmingCharacters(in: .whitespaces).hasPrefix("//") {
                    for pattern in patterns {
                        for match in line.matches(of: pattern) { keys.insert(String(match.output.1)) }
                    }
                }
            }
        }
        #expect(keys.isSuperset(of: ["line", "member", "parameter", "bookId", "limit", "retryAfter"]), "\(keys)")
        for key in keys.sorted() {
            #expect(properties.contains(key), "the Problem schema lacks '\(key)'")
        }
    }

    @Test("books as answered have the members their schemas describe, and every required one")
    func bookAnswers() throws {
        let library = try TestLibrary()
        let token = try library.token(client: 1)
        let librarian = try library.librarianToken()
        try library.store().take(bookIDs: [2], clientID: 1, now: TestLibrary.now)
        try library.serve { service in
            func check(_ answer: JSONValue, _ schemaName: String, _ context: String) {
                let schema = value(document, "components", "schemas", schemaName)
                let properties = Set(schema?["properties"]?.objectValue?.keys ?? [])
                let members = Set(answer.objectValue?.keys ?? [])
                #expect(members.isSubset(of: properties), "\(context): \(members.subtracting(properties))")
                let required = Set(schema?["required"]?.arrayValue?.compactMap(\.stringValue) ?? [])
                #expect(required.isSubset(of: members), "\(context): lacks \(required.subtracting(members))")
            }
            for target in ["/v1/books?limit=3", "/v1/books?search=the&limit=3"] {
                let page = try call(service.port, "GET", target, token: token).json
                check(page, "BookPage", target)
                for book in page["books"]?.arrayValue ?? [] { check(book, "Book", target) }
            }
            check(try call(service.port, "GET", "/v1/books/2", token: token).json, "Book", "GET /v1/books/2")
            let added = try call(service.port, "POST", "/v1/books", token: librarian, json: #"{"title": "New"}"#)
            check(try added.json, "Book", "POST /v1/books")
            // And the schemas are the ones the operations answer with.
            let operations = [
                ("/v1/books", "get", "200", "BookPage"), ("/v1/books/{id}", "get", "200", "Book"),
                ("/v1/books", "post", "201", "Book"),
            ]
            for (path, method, status, schema) in operations {
                let answered = value(
                    document, "paths", path, method, "responses", status, "content", "application/json", "schema",
                    "$ref")
                #expect(answered == .string("#/components/schemas/\(schema)"), "\(method) \(path)")
            }
        }
    }
}
