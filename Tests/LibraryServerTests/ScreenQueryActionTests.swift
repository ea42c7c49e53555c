import Formats
import HTTP
import Library
import LibraryServer
import Testing

@Suite("serve: actions on a paged or searched screen")
struct ScreenQueryActionTests {
    @Test("a Take and its Return carry the screen's query: their answers are changes against that screen")
    func actionsCarryTheScreensQuery() throws {
        let library = try TestLibrary()
        let token = try library.token(client: 1)
        try library.serve { service in
            let target = "/v1/screen?perPage=5&page=2&search=the"
            let screen = try call(service.port, "GET", target, token: token).json
            let grid = try #require(screen["sections"]?.arrayValue?.first { $0["id"] == .string("library-books") })
            let take = try #require(
                grid["items"]?.arrayValue?.lazy.compactMap { $0["actions"]?.arrayValue?.first }.first {
                    $0["id"] == .string("take")
                })
            let href = try #require(take["href"]?.stringValue)
            #expect(href == "/v1/loans?page=2&perPage=5&search=the")
            let search = try #require(
                grid["supplementaries"]?.arrayValue?.first { $0["kind"] == .string("header") }?["actions"]?
                    .arrayValue?.first)
            #expect(search["href"] == .string("/v1/screen?perPage=5&search={text}"))
            let taken = try call(
                service.port, "POST", href, token: token, json: try #require(take["body"]).serialized(pretty: false))
            #expect(taken.status == 201)
            let json = try taken.json
            // The answer's screen is the one GET gives for the same query.
            let after = try call(service.port, "GET", target, token: token)
            #expect(after[header: "ETag"] == taken[header: "ETag"])
            // The card that changed in the grid carries a Return for the same screen.
            let updated = value(json, "changes", "items", "updated")?.arrayValue ?? []
            let hrefs = updated.compactMap { value($0, "item", "actions", 0, "href")?.stringValue }
            #expect(!hrefs.isEmpty)
            #expect(hrefs.allSatisfy { $0.hasSuffix("?page=2&perPage=5&search=the") })
            let inserted = try #require(
                value(json, "changes", "items", "inserted", 0, "item", "actions", 0, "href")?.stringValue)
            #expect(inserted.hasSuffix("?page=2&perPage=5&search=the"))
            let returned = try call(service.port, "DELETE", inserted, token: token)
            #expect(returned.status == 200)
            let back = try call(service.port, "GET", target, token: token)
            #expect(back[header: "ETag"] == returned[header: "ETag"])
            // The default screen's hrefs carry no query.
            let plain = try call(service.port, "GET", "/v1/screen", token: token).json
            let plainTake = value(plain, "sections", 2, "items", 0, "actions", 0, "href")?.stringValue
            #expect(plainTake?.contains("?") == false)
        }
    }
}
