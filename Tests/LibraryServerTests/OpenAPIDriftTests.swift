import Formats
import Foundation
import HTTP
import HTTPTestSupport
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

    /// What is wrong with `answer` for `schema` (the `$ref`s resolved in the document): its type, a missing required
    /// member, an undescribed member where the schema lists them (an item's and supplementary's fields excepted), a
    /// value outside an `enum` or unlike a `const`, each of an array's items, each alternative of a `oneOf`.
    func problems(_ answer: JSONValue, _ schema: JSONValue, at path: String) -> [String] {
        if let reference = schema["$ref"]?.stringValue {
            let name = String(reference.split(separator: "/").last ?? "")
            guard let named = value(document, "components", "schemas", name) else {
                return ["\(path): no schema \(reference)"]
            }
            return problems(answer, named, at: path)
        }
        if let alternatives = schema["oneOf"]?.arrayValue {
            let fitting = alternatives.filter { problems(answer, $0, at: path).isEmpty }
            return fitting.count == 1 ? [] : ["\(path): fits \(fitting.count) of oneOf"]
        }
        var found: [String] = []
        let types = schema["type"].map { $0.arrayValue?.compactMap(\.stringValue) ?? [$0.stringValue ?? ""] } ?? []
        if !types.isEmpty {
            let actual: String
            switch answer {
            case .null: actual = "null"
            case .bool: actual = "boolean"
            case .string: actual = "string"
            case .array: actual = "array"
            case .object: actual = "object"
            default: actual = answer.intValue != nil ? "integer" : "number"
            }
            guard types.contains(actual) || (actual == "integer" && types.contains("number")) else {
                return ["\(path): \(actual), not \(types)"]
            }
        }
        if let allowed = schema["enum"]?.arrayValue, !allowed.contains(answer) {
            found.append("\(path): \(answer) is not in the enum")
        }
        if let constant = schema["const"], constant != answer { found.append("\(path): \(answer) is not \(constant)") }
        if let items = schema["items"], let array = answer.arrayValue {
            for (index, element) in array.enumerated() { found += problems(element, items, at: "\(path)[\(index)]") }
        }
        if let object = answer.objectValue {
            let required = schema["required"]?.arrayValue?.compactMap(\.stringValue) ?? []
            for name in required where object[name] == nil { found.append("\(path): lacks \(name)") }
            if let properties = schema["properties"]?.objectValue {
                // Items and supplementaries carry their fields as members too.
                let open = properties["fields"] != nil
                for member in object.members {
                    if let property = properties[member.key] {
                        found += problems(member.value, property, at: "\(path).\(member.key)")
                    } else if !open {
                        found.append("\(path): \(member.key) is not described")
                    }
                }
            }
        }
        return found
    }

    /// The schema an operation's answer with `status` names.
    func answerSchema(_ path: String, _ method: String, _ status: Int) -> JSONValue? {
        value(document, "paths", path, method, "responses", "\(status)", "content", "application/json", "schema")
    }

    @Test("every JSON answer of every route fits the schema its operation names: types, required members, enums")
    func answersFitTheirSchemas() throws {
        let library = try TestLibrary()
        let librarian = try library.librarianToken()
        try library.store().take(bookIDs: [3], clientID: 1, now: try TestLibrary.now.adding(days: -20))
        let service = try LibraryService.start(
            databasePath: library.path, configuration: ServerConfiguration(host: "127.0.0.1", port: 0, threads: 4),
            demoSignIns: [DemoSignIn(name: "John Doe", cardNumber: "C-0001", pin: "1111")], now: { TestLibrary.now })
        defer { service.stop() }
        let port = service.port
        var checked: Set<String> = []
        func check(
            _ method: String, _ target: String, token: String? = nil, headers: [(String, String)] = [],
            json: String? = nil, path: String, status: Int
        ) throws -> TestClient.Response {
            let answer = try call(port, method.uppercased(), target, token: token, headers: headers, json: json)
            #expect(answer.status == status, "\(method) \(target): \(answer.text)")
            let schema = try #require(answerSchema(path, method, status), "\(method) \(path) \(status) has no schema")
            let found = problems(try answer.json, schema, at: "\(method) \(target)")
            #expect(found.isEmpty, "\(found.prefix(10))")
            checked.insert("\(method) \(path)")
            return answer
        }
        _ = try check("get", "/healthz", path: "/healthz", status: 200)
        _ = try check("get", "/v1/demo", path: "/v1/demo", status: 200)
        let session = try check(
            "post", "/v1/sessions", json: #"{"cardNumber":"C-0001","pin":"1111"}"#, path: "/v1/sessions",
            status: 201)
        let token = try #require(try session.json["token"]?.stringValue)
        let screen = try check("get", "/v1/screen?perPage=3", token: token, path: "/v1/screen", status: 200)
        let etag = String(try #require(screen[header: "ETag"]).dropFirst().dropLast())
        _ = try check(
            "get", "/v1/screen/changes?since=unknown&perPage=3", token: token, path: "/v1/screen/changes",
            status: 200)
        _ = try check(
            "post", "/v1/loans?perPage=3", token: token, json: #"{"bookIds":[1,2]}"#, path: "/v1/loans", status: 201)
        _ = try check(
            "get", "/v1/screen/changes?since=\(etag)&perPage=3&changes=batch-safe", token: token,
            path: "/v1/screen/changes", status: 200)
        _ = try check(
            "post", "/v1/loans/1/renewal?perPage=3", token: token, path: "/v1/loans/{bookId}/renewal", status: 200)
        _ = try check("delete", "/v1/loans/2?perPage=3", token: token, path: "/v1/loans/{bookId}", status: 200)
        _ = try check(
            "post", "/v1/loans", token: token, headers: [("Prefer", "return=minimal")], json: #"{"bookIds":[4]}"#,
            path: "/v1/loans", status: 201)
        _ = try check("get", "/v1/loans", token: token, path: "/v1/loans", status: 200)
        _ = try check("get", "/v1/loans?state=returned", token: token, path: "/v1/loans", status: 200)
        _ = try check("get", "/v1/books?limit=5", token: token, path: "/v1/books", status: 200)
        _ = try check("get", "/v1/books/3", token: token, path: "/v1/books/{id}", status: 200)
        _ = try check(
            "post", "/v1/books", token: librarian, json: #"{"title":"New"}"#, path: "/v1/books", status: 201)
        _ = try check(
            "post", "/v1/clients", token: librarian, json: #"{"name":"Zoe"}"#, path: "/v1/clients", status: 201)
        let problem = try call(port, "GET", "/v1/screen?page=0", token: token)
        let problemSchema = try #require(value(document, "components", "schemas", "Problem"))
        #expect(problems(try problem.json, problemSchema, at: "problem").isEmpty)
        // Every operation answering JSON (with a schema) was checked.
        var answeringJSON: Set<String> = []
        for (path, method, operation) in operations {
            for status in operation["responses"]?.objectValue?.keys ?? []
            where Int(status).map({ $0 < 300 }) == true
                && value(operation, "responses", status, "content", "application/json") != nil
            {
                answeringJSON.insert("\(method) \(path)")
            }
        }
        #expect(answeringJSON.subtracting(checked).isEmpty, "not checked: \(answeringJSON.subtracting(checked))")
    }

    @Test("the Idempotency-Key's schema is the server's rule: printable ASCII without spaces, 1 to 255 characters")
    func idempotencyKeySchema() throws {
        let schema = try #require(value(document, "components", "parameters", "IdempotencyKey", "schema"))
        #expect(schema["pattern"] == .string("^[!-~]+$"))
        #expect(schema["minLength"]?.intValue == AccessRules.idempotencyKeyLengths.lowerBound)
        #expect(schema["maxLength"]?.intValue == AccessRules.idempotencyKeyLengths.upperBound)
        let pattern = try Regex(try #require(schema["pattern"]?.stringValue))
        for key in ["k1", "7d1e-ab_C~!", String(repeating: "x", count: 255), "a b", "é", "tab\t", ""] {
            let fits = (try? pattern.wholeMatch(in: key)) != nil && key.count <= 255
            #expect(fits == (AccessRules.idempotencyKeyProblem(key) == nil), "\(key)")
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
