import Formats
import Foundation
import HTTP
import Library
import Testing

@testable import LibraryServer

@Suite("serve: search paging, problems and bodies")
struct SearchBodiesAndProblemTests {
    @Test("search results stop at 10,000: the last page is cut there and offers no next link; past it is 400")
    func searchNeverOffersARefusedNextPage() throws {
        let library = try TestLibrary()
        let store = try library.store()
        try store.write { store in
            for number in 0..<10_050 {
                _ = try store.addBook(NewBook(title: "Zyxwar \(number)"))
            }
        }
        let token = try library.token(client: 1)
        try library.serve { service in
            let page = try call(service.port, "GET", "/v1/books?search=zyxwar&limit=1000&after=8000", token: token)
            #expect(page.status == 200)
            let link = try #require(page[header: "Link"])
            #expect(link.contains("after=9000"))
            let next = try call(service.port, "GET", "/v1/books?search=zyxwar&limit=1000&after=9000", token: token)
            #expect(next.status == 200)
            #expect(next[header: "Link"] == nil)
            #expect(try next.json["next"] == .null)
            #expect(try next.json["capped"] == .bool(true))
            #expect(try next.json["books"]?.arrayValue?.count == 1_000)
            // A page that crosses the cap is cut at it.
            let crossing = try call(service.port, "GET", "/v1/books?search=zyxwar&limit=100&after=9950", token: token)
            #expect(crossing.status == 200)
            #expect(try crossing.json["books"]?.arrayValue?.count == 50)
            #expect(crossing[header: "Link"] == nil)
            let past = try call(service.port, "GET", "/v1/books?search=zyxwar&after=10000", token: token)
            #expect(past.status == 400)
            #expect(try past.json["parameter"] == .string("after"))
        }
    }

    @Test("a search that is too long is a bad-parameter problem naming 'search', with every standard member")
    func longSearchNamesItsParameter() throws {
        let library = try TestLibrary()
        let token = try library.token(client: 1)
        try library.serve { service in
            let search = String(repeating: "a", count: 201)
            for target in ["/v1/screen?search=\(search)", "/v1/books?search=\(search)"] {
                let response = try call(service.port, "GET", target, token: token)
                #expect(response.status == 400)
                let json = try response.json
                #expect(json["code"] == .string("bad-parameter"))
                #expect(json["parameter"] == .string("search"))
                #expect(json["detail"]?.stringValue?.contains("'search'") == true)
                #expect(json["type"] == .string("about:blank"))
                #expect(json["title"] == .string("Bad Request"))
                #expect(json["status"] == .int(400))
            }
        }
    }

    @Test("sign-out is idempotent in effect: a repeat with the same Idempotency-Key is 401 unknown-token, not a replay")
    func signOutRepeat() throws {
        let library = try TestLibrary()
        let token = try library.token(client: 1)
        try library.serve { service in
            let key = [("Idempotency-Key", "sign-out-1")]
            let first = try call(service.port, "DELETE", "/v1/sessions/current", token: token, headers: key)
            #expect(first.status == 204)
            let again = try call(service.port, "DELETE", "/v1/sessions/current", token: token, headers: key)
            #expect(again.status == 401)
            #expect(again.code == "unknown-token")
            #expect(again[header: "Idempotent-Replayed"] == nil)
        }
        let readme = try String(contentsOfFile: Self.packageRoot + "/README.md", encoding: .utf8)
        #expect(readme.contains("Every POST and DELETE but sign-in and sign-out takes an `Idempotency-Key`"))
    }

    @Test("bodies refuse members they do not take: 'pin' on POST /v1/clients is 400 invalid-body naming it")
    func unknownMembers() throws {
        let library = try TestLibrary()
        let librarian = try library.librarianToken()
        let client = try library.token(client: 1)
        try library.serve { service in
            let pin = try call(
                service.port, "POST", "/v1/clients", token: librarian,
                json: #"{"name": "Pat", "cardNumber": "C-0100", "pin": "1234"}"#)
            #expect(pin.status == 400)
            #expect(pin.code == "invalid-body")
            #expect(try pin.json["member"] == .string("pin"))
            #expect(try library.store().client(cardNumber: "C-0100") == nil)
            let take = try call(service.port, "POST", "/v1/loans", token: client, json: #"{"bookIds": [1], "x": 1}"#)
            #expect(take.status == 400)
            #expect(try take.json["member"] == .string("x"))
            let signIn = try call(
                service.port, "POST", "/v1/sessions",
                json: #"{"cardNumber": "C-0001", "pin": "1111", "remember": true}"#)
            #expect(signIn.status == 400)
            let book = try call(
                service.port, "POST", "/v1/books", token: librarian, json: #"{"title": "T", "subtitle": "S"}"#)
            #expect(book.status == 400)
            #expect(try book.json["member"] == .string("subtitle"))
            // A return and a renewal take no body: a member is refused, and nothing is done.
            #expect(
                try call(service.port, "POST", "/v1/loans", token: client, json: #"{"bookIds": [1]}"#).status == 201)
            for (method, path) in [("DELETE", "/v1/loans/1"), ("POST", "/v1/loans/1/renewal")] {
                let refused = try call(service.port, method, path, token: client, json: #"{"x": 1}"#)
                #expect(refused.status == 400, "\(method) \(path)")
                #expect(try refused.json["member"] == .string("x"), "\(method) \(path)")
                let detail = try refused.json["detail"]?.stringValue ?? ""
                #expect(detail.hasSuffix("this route takes no members (send no body, or {})."), "\(detail)")
            }
            #expect(
                try library.store().openLoans(clientID: 1, now: TestLibrary.now).first { $0.book.id == 1 }?.loan
                    .renewals == 0)
            #expect(try call(service.port, "DELETE", "/v1/loans/1", token: client).status == 200)
        }
    }

    @Test("sign-in trims the card number as adding a client does and answers it as kept; failures count toward it")
    func signInTrimsTheCard() throws {
        let library = try TestLibrary()
        try library.serve { service in
            let padded = try call(
                service.port, "POST", "/v1/sessions", json: #"{"cardNumber": " C-0002 ", "pin": "2222"}"#)
            #expect(padded.status == 201)
            let lowercase = try call(
                service.port, "POST", "/v1/sessions", json: #"{"cardNumber": "  c-0001  ", "pin": "1111"}"#)
            #expect(lowercase.status == 201)
            #expect(try lowercase.json["cardNumber"] == .string("C-0001"), "the card as kept, not as typed")
            #expect(try lowercase.json["clientId"] == .int(1))
            for _ in 0..<5 {
                let wrong = try call(
                    service.port, "POST", "/v1/sessions", json: #"{"cardNumber": "\tC-0003 ", "pin": "0000"}"#)
                #expect(wrong.status == 401)
            }
            let locked = try call(
                service.port, "POST", "/v1/sessions", json: #"{"cardNumber": "C-0003", "pin": "3333"}"#)
            #expect(locked.status == 429)
        }
    }

    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path
}

@Suite("serve: the README lists every problem code")
struct ProblemCodeListTests {
    @Test("every code a problem is made with in HTTP and LibraryServer appears in README's list")
    func readmeListsEveryCode() throws {
        let root = SearchBodiesAndProblemTests.packageRoot
        let readme = try String(contentsOfFile: root + "/README.md", encoding: .utf8)
        var codes: Set<String> = []
        for folder in ["Sources/HTTP", "Sources/LibraryServer"] {
            for name in try FileManager.default.contentsOfDirectory(atPath: root + "/" + folder)
            where name.hasSuffix(".swift") {
                let text = try String(contentsOfFile: root + "/" + folder + "/" + name, encoding: .utf8)
                for line in text.split(separator: "\n") where !line.trimmingCharacters(in: .whitespaces).hasPrefix("//")
                {
                    // `code: "on-loan"`, and ProblemMapping's `(status, code) = (.conflict, "on-loan")`.
                    let markers = line.contains("(status, code) = (") ? ["code: \"", ", \""] : ["code: \""]
                    for marker in markers {
                        var rest = Substring(line)
                        while let range = rest.range(of: marker) {
                            rest = rest[range.upperBound...]
                            let word = rest.prefix { $0.isLowercase || $0 == "-" }
                            if !word.isEmpty && rest.dropFirst(word.count).hasPrefix("\"") {
                                codes.insert(String(word))
                            }
                        }
                    }
                }
            }
        }
        #expect(codes.count >= 35, "\(codes.sorted())")
        for code in codes.sorted() {
            #expect(readme.contains("`\(code)`"), "README does not list \(code)")
        }
    }
}

@Suite("serve: the API description's screen parameters")
struct OpenAPIParameterTests {
    @Test("page and perPage have their maxima; the three loan changes take page, perPage and search")
    func screenParameters() throws {
        let json = try JSONParser.parse(Array(OpenAPI.document.utf8))
        #expect(value(json, "components", "parameters", "perPage", "schema", "maximum") == .int(10_000))
        #expect(value(json, "components", "parameters", "page", "schema", "maximum") == .int(1_000_000_000))
        for (path, method) in [
            ("/v1/loans", "post"), ("/v1/loans/{bookId}", "delete"), ("/v1/loans/{bookId}/renewal", "post"),
        ] {
            let references = (value(json, "paths", path, method, "parameters")?.arrayValue ?? []).compactMap {
                $0["$ref"]?.stringValue
            }
            for name in ["page", "perPage", "search"] {
                #expect(references.contains("#/components/parameters/\(name)"), "\(method) \(path) \(name)")
            }
        }
    }

    @Test("every operation's default answer is a problem")
    func defaultProblems() throws {
        let json = try JSONParser.parse(Array(OpenAPI.document.utf8))
        let paths = try #require(json["paths"]?.objectValue)
        var operations = 0
        for path in paths.keys {
            for method in paths[path]?.objectValue?.keys.map({ $0 }) ?? [] {
                operations += 1
                let answer = value(json, "paths", path, method, "responses", "default", "$ref")
                #expect(answer == .string("#/components/responses/Problem"), "\(method) \(path)")
            }
        }
        #expect(operations >= 18)
    }

    @Test("the librarian's bodies are described with exactly the members the routes take, and the rules' bounds")
    func librarianBodies() throws {
        let json = try JSONParser.parse(Array(OpenAPI.document.utf8))
        for (path, members) in [("/v1/books", BookRoutes.bookMembers), ("/v1/clients", BookRoutes.clientMembers)] {
            let schema = value(json, "paths", path, "post", "requestBody", "content", "application/json", "schema")
            let described = schema?["properties"]?.objectValue?.keys.map { $0 } ?? []
            #expect(Set(described) == Set(members), "\(path)")
            #expect(schema?["additionalProperties"] == .bool(false), "\(path)")
        }
        let year = value(
            json, "paths", "/v1/books", "post", "requestBody", "content", "application/json", "schema",
            "properties", "year")
        #expect(year?["minimum"] == .int(LibraryRules.years.lowerBound))
        #expect(year?["maximum"] == .int(LibraryRules.years.upperBound))
    }
}
