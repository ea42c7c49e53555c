import Formats
import Foundation
import Rendering
import Sections
import Testing

@Suite struct JSONRendererTests {
    @Test func libraryScreenMatchesGolden() throws {
        let json = JSONRenderer(pretty: true).render(LibraryFixture.screen)
        try GoldenFile.check(json, named: "library.json")
        let compact = JSONRenderer(pretty: false).render(LibraryFixture.screen)
        try GoldenFile.check(compact, named: "library-compact.json")
        #expect(compact.split(separator: "\n").count == 1)
    }

    @Test func outputParsesBackAsTheSameDocument() throws {
        let pretty = try Self.parse(JSONRenderer(pretty: true).render(LibraryFixture.screen))
        let compact = try Self.parse(JSONRenderer(pretty: false).render(LibraryFixture.screen))
        #expect(pretty == compact)
        #expect(pretty["version"] as? Int == 1)
        let sections = try #require(pretty["sections"] as? [[String: Any]])
        #expect(sections.map { $0["id"] as? String } == ["client-info", "client-books", "library-books"])
        #expect(pretty["emptyState"] == nil)
    }

    @Test func membersAreWrittenInAFixedOrder() {
        let json = JSONRenderer(pretty: false).render(LibraryFixture.screen)
        let book =
            #"{"id":"book-12","kind":"book","title":"Dune","subtitle":"Frank Herbert","lines":[],"#
            + #""badges":[{"text":"✓ yours","style":"positive"}],"actions":[],"bookId":12,"available":false}"#
        #expect(json.contains(book))
        #expect(json.hasPrefix(#"{"version":1,"sections":[{"id":"client-info","layout":{"style":"card","#))
        #expect(
            json.contains(
                #""supplementaries":[{"kind":"header","id":"client-books-header","title":"Your books","count":3,"lines":[],"#
                    + #""actions":[{"id":"show-all","title":"All your books","command":"librarycli loans"}]}],"#
                    + #""whenEmpty":"showEmptyState"}"#
            ))
        #expect(JSONRenderer().render(LibraryFixture.screen) == JSONRenderer().render(LibraryFixture.screen))
    }

    @Test func disabledActionsSayWhy() {
        let take = Action(
            id: "take", title: "Take", command: "librarycli take 3",
            request: Action.Request(method: "POST", href: "/v1/loans", body: .object([("bookIds", .array([.int(3)]))])),
            disabledReason: "You have 5 of your 5 books; you cannot take 1 more book.")
        #expect(
            JSONRenderer.action(take).serialized(pretty: false)
                == #"{"id":"take","title":"Take","command":"librarycli take 3","method":"POST","href":"/v1/loans","#
                + #""body":{"bookIds":[3]},"disabled":true,"reason":"You have 5 of your 5 books; you cannot take 1 "#
                + #"more book."}"#)
        var enabled = take
        enabled.disabledReason = nil
        #expect(!JSONRenderer.action(enabled).serialized(pretty: false).contains("disabled"))
    }

    @Test func fieldsAreFlattenedUnlessTheirKeyIsTaken() throws {
        let item = Item(
            id: "x", kind: "book", title: "T",
            fields: [
                Field("bookId", .int(3)), Field("title", .string("clash")), Field("subtitle", .null),
                Field("bookId", .int(4)), Field("ratio", .double(.nan)), Field("score", .double(0.5)),
            ])
        let json = JSONRenderer.item(item).serialized(pretty: false)
        #expect(
            json == #"{"id":"x","kind":"book","title":"T","lines":[],"badges":[],"actions":[],"bookId":3,"ratio":null,"#
                + #""score":0.5,"fields":{"title":"clash","subtitle":null,"bookId":4}}"#)
        let header = Supplementary(kind: .custom("banner"), id: "b", title: "Hi", fields: [Field("count", .int(9))])
        #expect(
            JSONRenderer.supplementary(header).serialized(pretty: false)
                == #"{"kind":"banner","id":"b","title":"Hi","lines":[],"actions":[],"fields":{"count":9}}"#)
    }

    @Test func emptyStatesAndHiddenSections() throws {
        let snapshot = Snapshot(
            sections: [LibraryFixture.clientBooks([]), Section(id: "hidden", whenEmpty: .hide)],
            emptyState: LibraryFixture.screenEmpty)
        let document = try Self.parse(JSONRenderer().render(snapshot))
        let sections = try #require(document["sections"] as? [[String: Any]])
        #expect(sections.count == 1)
        let supplementaries = try #require(sections[0]["supplementaries"] as? [[String: Any]])
        #expect(supplementaries.map { $0["kind"] as? String } == ["header", "empty"])
        let empty = try #require(document["emptyState"] as? [String: Any])
        #expect(empty["title"] as? String == "The library is empty")
    }

    @Test func extraMembersFollowTheSnapshot() throws {
        let changes: JSONValue = ["inserted": ["client-book-31"]]
        let json = JSONRenderer(pretty: false).render(
            Snapshot(), extra: [("changes", changes), ("outcomes", [["command": "take", "ok": true]])])
        #expect(
            json == #"{"version":1,"sections":[],"changes":{"inserted":["client-book-31"]},"#
                + #""outcomes":[{"command":"take","ok":true}]}"# + "\n")
        _ = try Self.parse(json)
    }

    @Test func hostileStringsStayValidJSON() throws {
        let title = "Evil\u{1B}[2J \"quoted\" \\ \u{0}\n\u{10348} 👨‍👩‍👧"
        let snapshot = Snapshot(sections: [Section(id: "s", items: [Item(id: "i", kind: "k", title: title)])])
        let document = try Self.parse(JSONRenderer().render(snapshot))
        let sections = try #require(document["sections"] as? [[String: Any]])
        let items = try #require(sections[0]["items"] as? [[String: Any]])
        #expect(items[0]["title"] as? String == title)
    }

    // MARK: - Helpers

    static func parse(_ json: String) throws -> NSDictionary {
        try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? NSDictionary)
    }
}
