import Formats
import Foundation
import HTTP
import Library
import LibraryServer
import Testing

@Suite("serve: what an Idempotency-Key's retry must repeat")
struct IdempotentRetryTests {
    @Test("a retry with another query is another request (422), in whatever order its parameters come")
    func queryIsPartOfTheRequest() throws {
        let library = try TestLibrary()
        let token = try library.token(client: 1)
        try library.serve { service in
            let key = [("Idempotency-Key", "q-1")]
            let first = try call(
                service.port, "POST", "/v1/loans?perPage=2&page=1", token: token, headers: key,
                json: #"{"bookIds": [12]}"#)
            #expect(first.status == 201)
            let otherQuery = try call(
                service.port, "POST", "/v1/loans?perPage=5&page=1", token: token, headers: key,
                json: #"{"bookIds": [12]}"#)
            #expect(otherQuery.status == 422)
            #expect(otherQuery.code == "idempotency-key-reused")
            #expect(otherQuery[header: "Idempotent-Replayed"] == nil)
            let noQuery = try call(
                service.port, "POST", "/v1/loans", token: token, headers: key, json: #"{"bookIds": [12]}"#)
            #expect(noQuery.code == "idempotency-key-reused")
            // The same parameters in another order (and encoded otherwise) are the same request.
            let reordered = try call(
                service.port, "POST", "/v1/loans?page=%31&perPage=2", token: token, headers: key,
                json: #"{"bookIds": [12]}"#)
            #expect(reordered.status == 201)
            #expect(reordered[header: "Idempotent-Replayed"] == "true")
            #expect(reordered.body == first.body)
        }
    }

    @Test("a parameter no route reads (a front's cache-buster) does not make another request")
    func unreadParametersDoNotCount() throws {
        let library = try TestLibrary()
        let token = try library.token(client: 1)
        let librarian = try library.librarianToken()
        try library.serve { service in
            let key = [("Idempotency-Key", "c-1")]
            let first = try call(
                service.port, "POST", "/v1/loans?perPage=2&_=1", token: token, headers: key,
                json: #"{"bookIds": [12]}"#)
            #expect(first.status == 201)
            for target in ["/v1/loans?perPage=2&_=2", "/v1/loans?_=3&perPage=2&PerPage=9"] {
                let retry = try call(
                    service.port, "POST", target, token: token, headers: key, json: #"{"bookIds": [12]}"#)
                #expect(retry.status == 201, "\(target)")
                #expect(retry[header: "Idempotent-Replayed"] == "true", "\(target)")
                #expect(retry.body == first.body, "\(target)")
            }
            // A parameter the route reads still counts.
            let otherPage = try call(
                service.port, "POST", "/v1/loans?perPage=3&_=1", token: token, headers: key,
                json: #"{"bookIds": [12]}"#)
            #expect(otherPage.code == "idempotency-key-reused")
            // A route that reads no parameter compares none.
            let book = [("Idempotency-Key", "c-2")]
            let added = try call(
                service.port, "POST", "/v1/books?_=1", token: librarian, headers: book, json: #"{"title":"Zed"}"#)
            #expect(added.status == 201)
            let again = try call(
                service.port, "POST", "/v1/books?_=2&page=4", token: librarian, headers: book,
                json: #"{"title":"Zed"}"#)
            #expect(again.status == 201)
            #expect(again[header: "Idempotent-Replayed"] == "true")
            #expect(again.body == added.body)
        }
    }

    @Test("for a return or a renewal, no body and {} are the same body")
    func noBodyIsEmptyObject() throws {
        let library = try TestLibrary()
        let token = try library.token(client: 1)
        try library.store().take(bookIDs: [12, 13], clientID: 1, now: TestLibrary.now)
        try library.serve { service in
            let returned = try call(
                service.port, "DELETE", "/v1/loans/12", token: token, headers: [("Idempotency-Key", "n-1")])
            #expect(returned.status == 200)
            let withObject = try call(
                service.port, "DELETE", "/v1/loans/12", token: token, headers: [("Idempotency-Key", "n-1")],
                json: "{ }")
            #expect(withObject.status == 200)
            #expect(withObject[header: "Idempotent-Replayed"] == "true")
            #expect(withObject.body == returned.body)

            let renewed = try call(
                service.port, "POST", "/v1/loans/13/renewal", token: token, headers: [("Idempotency-Key", "n-2")],
                json: "{}")
            #expect(renewed.status == 200)
            let withoutBody = try call(
                service.port, "POST", "/v1/loans/13/renewal", token: token, headers: [("Idempotency-Key", "n-2")])
            #expect(withoutBody.status == 200)
            #expect(withoutBody[header: "Idempotent-Replayed"] == "true")
            #expect(withoutBody.body == renewed.body)
        }
    }

    @Test("a JSON body is compared as JSON: white space and member order do not make another request")
    func jsonBodyIsCanonical() throws {
        let library = try TestLibrary()
        let librarian = try library.librarianToken()
        try library.serve { service in
            let key = [("Idempotency-Key", "b-1")]
            let first = try call(
                service.port, "POST", "/v1/clients", token: librarian, headers: key,
                json: #"{"name":"Zoe","loanLimit":3}"#)
            #expect(first.status == 201)
            let spaced = try call(
                service.port, "POST", "/v1/clients", token: librarian, headers: key,
                json: "{ \"loanLimit\" : 3,\n  \"name\": \"Zoe\" }")
            #expect(spaced.status == 201)
            #expect(spaced[header: "Idempotent-Replayed"] == "true")
            #expect(spaced.body == first.body)
            let other = try call(
                service.port, "POST", "/v1/clients", token: librarian, headers: key,
                json: #"{"name":"Zoe","loanLimit":4}"#)
            #expect(other.code == "idempotency-key-reused")
        }
    }

    @Test("a response kept before the query was hashed (its hash the raw body's) is still replayed until it expires")
    func responsesKeptEarlierStillReplay() throws {
        let library = try TestLibrary()
        let token = try library.token(client: 1)
        let store = try library.store()
        let principal = try #require(try store.authenticate(token: token, now: TestLibrary.now))
        let body = Array(#"{"bookIds": [12]}"#.utf8)
        let kept = StoredResponse(
            status: 201, headers: [.init(name: "Content-Type", value: "application/json")], body: Array("{}".utf8))
        try store.storeResponse(
            kept,
            for: IdempotentRequest(
                principal: principal.tokenID, key: "old-1", method: "POST", path: "/v1/loans",
                bodyHash: Secrets.sha256(body)),
            now: TestLibrary.now)
        try library.serve { service in
            let retry = try call(
                service.port, "POST", "/v1/loans?perPage=2", token: token,
                headers: [("Idempotency-Key", "old-1"), ("Content-Type", "application/json")], body: body)
            #expect(retry.status == 201)
            #expect(retry[header: "Idempotent-Replayed"] == "true")
            #expect(retry.body == Array("{}".utf8))
        }
    }
}
