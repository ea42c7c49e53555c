import Formats
import Foundation
import HTTP
import Library
import LibraryScreen
import LibraryServer
import Rendering
import SQLite
import StoreTestSupport
import Testing

@Suite("serve: loans and books")
struct LoanRouteTests {
    @Test("take answers 201 with outcomes, changes and the screen; refusals are 409 problems with stable codes")
    func takeAndRefusals() throws {
        let library = try TestLibrary()
        let ann = try library.token(client: 1)
        let bob = try library.token(client: 2)
        try library.serve { service in
            let taken = try call(service.port, "POST", "/v1/loans", token: ann, json: #"{"bookIds": [3, 4]}"#)
            #expect(taken.status == 201)
            let json = try taken.json
            #expect(value(json, "outcomes", 0, "action") == .string("take"))
            #expect(value(json, "outcomes")?.arrayValue?.map { $0["bookId"] } == [.int(3), .int(4)])
            let inserted = value(json, "changes", "items", "inserted")?.arrayValue?.compactMap { $0["id"]?.stringValue }
            #expect(inserted == ["client-book-3", "client-book-4"])
            #expect(value(json, "screen", "version") == .int(1))
            #expect(taken[header: "ETag"] == "\"\(json["etag"]?.stringValue ?? "")\"")
            // The screen now is the one the take answered with.
            let screen = try call(service.port, "GET", "/v1/screen", token: ann)
            #expect(screen[header: "ETag"] == taken[header: "ETag"])

            let again = try call(service.port, "POST", "/v1/loans", token: ann, json: #"{"bookIds": [3]}"#)
            #expect(again.status == 409)
            #expect(again.code == "already-yours")
            #expect(again[header: "Content-Type"] == "application/problem+json; charset=utf-8")
            let onLoan = try call(service.port, "POST", "/v1/loans", token: bob, json: #"{"bookIds": [5, 3]}"#)
            #expect(onLoan.status == 409)
            #expect(onLoan.code == "on-loan")
            let missing = try call(service.port, "POST", "/v1/loans", token: bob, json: #"{"bookIds": [999999]}"#)
            #expect(missing.status == 404)
            #expect(missing.code == "no-such-book")
            let tooMany = try call(
                service.port, "POST", "/v1/loans", token: ann, json: #"{"bookIds": [10, 11, 12, 13]}"#)
            #expect(tooMany.status == 409)
            #expect(tooMany.code == "loan-limit-reached")
        }
        // All or none: Bob got neither 5 nor 3, Ann only 3 and 4.
        let store = try library.store()
        #expect(try store.openLoans(clientID: 2, now: TestLibrary.now).isEmpty)
        #expect(try store.openLoans(clientID: 1, now: TestLibrary.now).map(\.book.id).sorted() == [3, 4])
    }

    @Test("a run of takes and returns by two clients: every change answers the screen as built afresh from the store")
    func changesAnswerFreshScreens() throws {
        let library = try TestLibrary()
        let tokens = [try library.token(client: 1), try library.token(client: 2)]
        var random = SeededRandom(seed: 0x5C4EE)
        try library.serve { service in
            var answered = 0
            for _ in 0..<60 {
                let client = Int.random(in: 0...1, using: &random)
                let book = Int.random(in: 1...7, using: &random)
                // The screen is built from the previous version's cards: a take, a return, a refusal (another
                // client's book, the loan limit) or a change by the other client must all give the same document.
                let response =
                    Bool.random(using: &random)
                    ? try call(
                        service.port, "POST", "/v1/loans", token: tokens[client], json: "{\"bookIds\": [\(book)]}")
                    : try call(service.port, "DELETE", "/v1/loans/\(book)", token: tokens[client])
                guard response.status == 200 || response.status == 201 else {
                    #expect(response.status == 409)
                    continue
                }
                answered += 1
                let fresh = LibraryScreen.snapshot(
                    from: try library.store().clientScreen(
                        clientID: client + 1, page: 1, perPage: 20, now: TestLibrary.now))
                #expect(try response.json["screen"] == JSONRenderer.document(fresh))
                let screen = try call(service.port, "GET", "/v1/screen", token: tokens[client])
                #expect(try screen.json == JSONRenderer.document(fresh))
            }
            #expect(answered >= 20)
        }
    }

    @Test("Prefer: return=minimal answers the outcomes alone, with Preference-Applied; the change is made all the same")
    func minimalAnswers() throws {
        let library = try TestLibrary()
        let ann = try library.token(client: 1)
        try library.serve { service in
            let minimal = [("Prefer", "return=minimal")]
            let taken = try call(
                service.port, "POST", "/v1/loans", token: ann, headers: minimal, json: #"{"bookIds": [3, 4]}"#)
            #expect(taken.status == 201)
            #expect(taken[header: "Preference-Applied"] == "return=minimal")
            let json = try taken.json
            #expect(json.objectValue?.keys == ["outcomes"])
            #expect(value(json, "outcomes")?.arrayValue?.map { $0["bookId"] } == [.int(3), .int(4)])
            #expect(try library.store().openLoans(clientID: 1, now: TestLibrary.now).map(\.book.id) == [3, 4])
            // The screen read afterwards shows the change.
            let screen = try call(service.port, "GET", "/v1/screen", token: ann).json
            #expect(value(screen, "sections", 1, "items")?.arrayValue?.count == 2)
            let returned = try call(
                service.port, "DELETE", "/v1/loans/3", token: ann,
                headers: [("Prefer", "handling=lenient, return=minimal")])
            #expect(returned.status == 200)
            #expect(try returned.json.objectValue?.keys == ["outcomes"])
            // A retry with the same Idempotency-Key replays the minimal answer, saying so again.
            let keyed = minimal + [("Idempotency-Key", "min-1")]
            let first = try call(
                service.port, "POST", "/v1/loans", token: ann, headers: keyed, json: #"{"bookIds": [5]}"#)
            let replay = try call(
                service.port, "POST", "/v1/loans", token: ann, headers: keyed, json: #"{"bookIds": [5]}"#)
            #expect(first.status == 201)
            #expect(replay.status == 201)
            #expect(replay.body == first.body)
            #expect(replay[header: "Preference-Applied"] == "return=minimal")
            #expect(replay[header: "Idempotent-Replayed"] == "true")
            // A refusal is the same problem either way; another preference gets the whole answer.
            let refused = try call(
                service.port, "POST", "/v1/loans", token: ann, headers: minimal, json: #"{"bookIds": [4]}"#)
            #expect(refused.code == "already-yours")
            let whole = try call(
                service.port, "DELETE", "/v1/loans/4", token: ann, headers: [("Prefer", "return=representation")])
            #expect(whole[header: "Preference-Applied"] == nil)
            #expect(try whole.json["screen"] != nil)
        }
    }

    @Test("a lost book is 409 not-lendable")
    func notLendable() throws {
        let library = try TestLibrary()
        try library.store().setStatus(.lost, bookID: 7)
        let token = try library.token(client: 1)
        try library.serve { service in
            let response = try call(service.port, "POST", "/v1/loans", token: token, json: #"{"bookIds": [7]}"#)
            #expect(response.status == 409)
            #expect(response.code == "not-lendable")
        }
    }

    @Test("return is DELETE /v1/loans/ID (200, same shape); another client's book is 409 not-yours, nothing changed")
    func returnAndNotYours() throws {
        let library = try TestLibrary()
        let ann = try library.token(client: 1)
        let bob = try library.token(client: 2)
        try library.store().take(bookIDs: [6], clientID: 1, now: TestLibrary.now)
        try library.serve { service in
            let before = try call(service.port, "GET", "/v1/screen", token: bob)
            let notYours = try call(service.port, "DELETE", "/v1/loans/6", token: bob)
            #expect(notYours.status == 409)
            #expect(notYours.code == "not-yours")
            let after = try call(service.port, "GET", "/v1/screen", token: bob)
            #expect(after[header: "ETag"] == before[header: "ETag"])
            #expect(try library.store().openLoans(clientID: 1, now: TestLibrary.now).map(\.book.id) == [6])

            let returned = try call(service.port, "DELETE", "/v1/loans/6", token: ann)
            #expect(returned.status == 200)
            let json = try returned.json
            #expect(value(json, "outcomes", 0, "action") == .string("return"))
            #expect(value(json, "changes", "items", "deleted", 0, "id") == .string("client-book-6"))
            #expect(json["screen"] != nil)
            let twice = try call(service.port, "DELETE", "/v1/loans/6", token: ann)
            #expect(twice.code == "not-yours")
            let badID = try call(service.port, "DELETE", "/v1/loans/abc", token: ann)
            #expect(badID.status == 400)
        }
    }

    @Test("renewal: 200 twice, then 409 renewal-limit; an overdue loan is 409 overdue")
    func renewals() throws {
        let library = try TestLibrary()
        let ann = try library.token(client: 1)
        try library.store().take(bookIDs: [8], clientID: 1, now: TestLibrary.now)
        let longAgo = Timestamp(year: 2026, month: 1, day: 1)!
        try library.store().take(bookIDs: [9], clientID: 1, now: longAgo)
        try library.serve { service in
            for count in 1...LibraryRules.maxRenewals {
                let renewed = try call(service.port, "POST", "/v1/loans/8/renewal", token: ann)
                #expect(renewed.status == 200)
                #expect(value(try renewed.json, "outcomes", 0, "renewals") == .int(count))
            }
            let limit = try call(service.port, "POST", "/v1/loans/8/renewal", token: ann)
            #expect(limit.status == 409)
            #expect(limit.code == "renewal-limit")
            let overdue = try call(service.port, "POST", "/v1/loans/9/renewal", token: ann)
            #expect(overdue.status == 409)
            #expect(overdue.code == "overdue")
            let open = try call(service.port, "GET", "/v1/loans", token: ann).json
            #expect(open["loans"]?.arrayValue?.map { $0["bookId"] } == [.int(9), .int(8)])
            #expect(value(open, "loans", 0, "overdue") == .bool(true))
            let bad = try call(service.port, "GET", "/v1/loans?state=lost", token: ann)
            #expect(bad.status == 400)
            _ = try call(service.port, "DELETE", "/v1/loans/9", token: ann)
            let returned = try call(service.port, "GET", "/v1/loans?state=returned", token: ann).json
            #expect(returned["loans"]?.arrayValue?.map { $0["bookId"] } == [.int(9)])
        }
    }

    @Test("16 clients taking the same book at once: exactly one 201, fifteen 409 on-loan")
    func sixteenAtOnce() throws {
        let library = try TestLibrary()
        let store = try library.store()
        var tokens: [String] = []
        for index in 0..<16 {
            let client = try store.addClient(name: "Racer \(index)", now: TestLibrary.now)
            tokens.append(try store.createToken(for: .client(client.id), now: TestLibrary.now).token)
        }
        try library.serve(threads: 4) { service in
            let statuses = Shared<[Int: (Int, String?)]>([:])
            let port = service.port
            let workers = tokens.enumerated().map { index, token in
                Background {
                    let response = try? call(port, "POST", "/v1/loans", token: token, json: #"{"bookIds": [15]}"#)
                    statuses.withLock { $0[index] = (response?.status ?? 0, response?.code) }
                }
            }
            for worker in workers { #expect(worker.join()) }
            let results = statuses.withLock { Array($0.values) }
            #expect(results.count == 16)
            #expect(results.filter { $0.0 == 201 }.count == 1)
            #expect(results.filter { $0.0 == 409 && $0.1 == "on-loan" }.count == 15)
        }
        #expect(try store.openLoans(clientID: 1, now: TestLibrary.now).isEmpty)
    }

    @Test("books: keyset pages with next and Link, search, one book, 404")
    func books() throws {
        let library = try TestLibrary()
        let token = try library.token(client: 1)
        try library.store().take(bookIDs: [2], clientID: 1, now: TestLibrary.now)
        try library.serve { service in
            let first = try call(service.port, "GET", "/v1/books?limit=2", token: token)
            #expect(first.status == 200)
            let json = try first.json
            #expect(json["books"]?.arrayValue?.map { $0["id"] } == [.int(1), .int(2)])
            #expect(value(json, "books", 1, "availability") == .string("yours"))
            #expect(json["next"] == .string("2"))
            #expect(first[header: "Link"] == "</v1/books?after=2&limit=2>; rel=\"next\"")
            let second = try call(service.port, "GET", "/v1/books?after=2&limit=2", token: token).json
            #expect(second["books"]?.arrayValue?.map { $0["id"] } == [.int(3), .int(4)])
            var after = 0
            var seen: [Int] = []
            for _ in 0..<1_000 {
                let page = try call(service.port, "GET", "/v1/books?after=\(after)&limit=7", token: token).json
                seen += page["books"]?.arrayValue?.compactMap { $0["id"]?.intValue } ?? []
                guard let next = page["next"]?.stringValue, let id = Int(next) else { break }
                after = id
            }
            #expect(seen == Array(1...(try library.store().bookCount())))
            let found = try call(service.port, "GET", "/v1/books?search=odyssey", token: token).json
            #expect(value(found, "books", 0, "title") == .string("The Odyssey"))
            let one = try call(service.port, "GET", "/v1/books/1", token: token)
            #expect(try one.json["title"] == .string("The Odyssey"))
            // One book has the shape it has in a page: its availability (and due date) for the caller.
            let yours = try call(service.port, "GET", "/v1/books/2", token: token).json
            #expect(yours == value(json, "books", 1))
            #expect(yours["availability"] == .string("yours"))
            #expect(try one.json == value(json, "books", 0))
            let none = try call(service.port, "GET", "/v1/books/999999", token: token)
            #expect(none.status == 404)
            #expect(none.code == "no-such-book")
            #expect(try call(service.port, "GET", "/v1/books?limit=0", token: token).status == 400)
        }
    }

    @Test("librarian: POST /v1/books and /v1/clients (201); a client's token is 403")
    func librarianAdds() throws {
        let library = try TestLibrary()
        let librarian = try library.librarianToken()
        let client = try library.token(client: 1)
        try library.serve { service in
            let book = try call(
                service.port, "POST", "/v1/books", token: librarian,
                json: #"{"title": "Dune", "author": "Frank Herbert", "year": 1965}"#)
            #expect(book.status == 201)
            let id = try #require(try book.json["id"]?.intValue)
            #expect(book[header: "Location"] == "/v1/books/\(id)")
            let refused = try call(service.port, "POST", "/v1/books", token: client, json: #"{"title": "X"}"#)
            #expect(refused.status == 403)
            #expect(refused.code == "librarian-only")
            let blank = try call(service.port, "POST", "/v1/books", token: librarian, json: #"{"title": " "}"#)
            #expect(blank.status == 400)
            let person = try call(
                service.port, "POST", "/v1/clients", token: librarian, json: #"{"name": "Zoe", "loanLimit": 3}"#)
            #expect(person.status == 201)
            #expect(try person.json["loanLimit"] == .int(3))
            let taken = try call(
                service.port, "POST", "/v1/clients", token: librarian,
                json: #"{"name": "Zed", "cardNumber": "C-0001"}"#)
            #expect(taken.status == 409)
            #expect(taken.code == "card-number-taken")
            #expect(try call(service.port, "POST", "/v1/clients", token: client, json: #"{"name": "Q"}"#).status == 403)
        }
    }

    @Test("librarian: POST /v1/books keeps an ISBN as ISBN-13 digits and refuses one whose check digit fails (400)")
    func addBookISBN() throws {
        let library = try TestLibrary()
        let librarian = try library.librarianToken()
        let before = try library.store().libraryPage(page: 1, perPage: 1).totalCount
        try library.serve { service in
            let ten = try call(
                service.port, "POST", "/v1/books", token: librarian, json: #"{"title": "T", "isbn": "0-306-40615-2"}"#)
            #expect(ten.status == 201)
            #expect(try ten.json["isbn"] == .string("9780306406157"))
            for bad in ["9780306406158", "1234567890", "0", "12345"] {
                let refused = try call(
                    service.port, "POST", "/v1/books", token: librarian, json: #"{"title": "U", "isbn": "\#(bad)"}"#)
                #expect(refused.status == 400, "\(bad)")
                #expect(refused.code == "invalid-input", "\(bad)")
                #expect(try refused.json["member"] == .string("isbn"))
                #expect(try refused.json["detail"]?.stringValue?.contains("'\(bad)'") == true)
            }
            let blank = try call(
                service.port, "POST", "/v1/books", token: librarian, json: #"{"title": "V", "isbn": " "}"#)
            #expect(blank.status == 201)
            #expect(try blank.json["isbn"] == .null)
        }
        // Only T and V were added.
        #expect(try library.store().libraryPage(page: 1, perPage: 1).totalCount == before + 2)
    }

    @Test("Idempotency-Key: a retry replays the kept response (also after a restart); another body is 422")
    func idempotency() throws {
        let library = try TestLibrary()
        let token = try library.token(client: 1)
        let first = try library.serve { service in
            let response = try call(
                service.port, "POST", "/v1/loans", token: token, headers: [("Idempotency-Key", "k-1")],
                json: #"{"bookIds": [12]}"#)
            #expect(response.status == 201)
            let retry = try call(
                service.port, "POST", "/v1/loans", token: token, headers: [("Idempotency-Key", "k-1")],
                json: #"{"bookIds": [12]}"#)
            #expect(retry.status == 201)
            #expect(retry.body == response.body)
            #expect(retry[header: "Idempotent-Replayed"] == "true")
            let other = try call(
                service.port, "POST", "/v1/loans", token: token, headers: [("Idempotency-Key", "k-1")],
                json: #"{"bookIds": [13]}"#)
            #expect(other.status == 422)
            #expect(other.code == "idempotency-key-reused")
            // A refusal is kept too.
            let refused = try call(
                service.port, "DELETE", "/v1/loans/14", token: token, headers: [("Idempotency-Key", "k-2")])
            #expect(refused.status == 409)
            let bad = try call(
                service.port, "DELETE", "/v1/loans/12", token: token, headers: [("Idempotency-Key", "")])
            #expect(bad.status == 400)
            return response
        }
        try library.serve { service in
            let replay = try call(
                service.port, "POST", "/v1/loans", token: token, headers: [("Idempotency-Key", "k-1")],
                json: #"{"bookIds": [12]}"#)
            #expect(replay.status == 201)
            #expect(replay.body == first.body)
        }
        let loans =
            try library.store().loanHistory(clientID: 1)
            + library.store().openLoans(
                clientID: 1, now: TestLibrary.now)
        #expect(loans.map(\.book.id) == [12])
    }

    @Test("the actions in the screen document carry requests that work as they are")
    func actionsAsRequests() throws {
        let library = try TestLibrary()
        let token = try library.token(client: 1)
        try library.serve { service in
            let screen = try call(service.port, "GET", "/v1/screen", token: token).json
            let grid = try #require(screen["sections"]?.arrayValue?.first { $0["id"] == .string("library-books") })
            let take = try #require(
                grid["items"]?.arrayValue?.lazy.compactMap { $0["actions"]?.arrayValue?.first }.first {
                    $0["id"] == .string("take")
                })
            let method = try #require(take["method"]?.stringValue)
            let href = try #require(take["href"]?.stringValue)
            let body = try #require(take["body"]).serialized(pretty: false)
            let taken = try call(service.port, method, href, token: token, json: body)
            #expect(taken.status == 201)
            let ret = try #require(
                value(try taken.json, "changes", "items", "inserted", 0, "item", "actions", 0))
            #expect(ret["id"] == .string("return"))
            let returned = try call(
                service.port, try #require(ret["method"]?.stringValue), try #require(ret["href"]?.stringValue),
                token: token)
            #expect(returned.status == 200)
            let footer = value(screen, "sections", 2, "supplementaries")?.arrayValue?.first {
                $0["kind"] == .string("footer")
            }
            let next = try #require(footer?["actions"]?.arrayValue?.first { $0["id"] == .string("next-page") })
            #expect(next["href"] == .string("/v1/screen?page=2"))
            #expect(try call(service.port, "GET", "/v1/screen?page=2", token: token).status == 200)
        }
    }

    @Test("while another process holds the write lock, reads still answer and a change is 503 with Retry-After")
    func busyDatabase() throws {
        let library = try TestLibrary()
        let token = try library.token(client: 1)
        let service = try library.start(busyTimeoutMilliseconds: 200)
        defer { service.stop() }
        #expect(try call(service.port, "GET", "/v1/screen", token: token).status == 200)  // records the token's use
        let writer = try Database(path: library.path)
        try writer.execute("BEGIN IMMEDIATE")
        let read = try call(service.port, "GET", "/v1/screen", token: token)
        #expect(read.status == 200)
        let busy = try call(service.port, "POST", "/v1/loans", token: token, json: #"{"bookIds": [1]}"#)
        #expect(busy.status == 503)
        #expect(busy.code == "busy")
        #expect(busy[header: "Retry-After"] == "1")
        try writer.execute("ROLLBACK")
        let taken = try call(service.port, "POST", "/v1/loans", token: token, json: #"{"bookIds": [1]}"#)
        #expect(taken.status == 201)
    }
}
