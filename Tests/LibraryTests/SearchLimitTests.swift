import Library
import StoreTestSupport
import Testing

/// Search text is limited in length (issue 10, item 7): a longer text is refused as bad input, never run.
@Suite struct SearchLimitTests {
    @Test(arguments: StoreKind.available)
    func textUpToTheLimitIsSearched(kind: StoreKind) throws {
        let fixture = try Fixture(kind: kind, books: 3)
        let longest = String(repeating: "a", count: BookSearch.maxLength)
        #expect(try fixture.store.libraryPage(page: 1, perPage: 10, search: longest).totalCount == 0)
        // White space around the text does not count.
        let padded = "   " + longest + "\n\t "
        #expect(try fixture.store.libraryPage(page: 1, perPage: 10, search: padded).totalCount == 0)
    }

    @Test(
        arguments: StoreKind.available,
        [
            String(repeating: "a", count: BookSearch.maxLength + 1),
            String(repeating: "%", count: 25_000),
            String(repeating: "word ", count: 10_000),
            String(repeating: "e\u{301}", count: 150),  // 150 characters, 300 code points
        ])
    func longerTextIsRefused(kind: StoreKind, text: String) throws {
        let fixture = try Fixture(kind: kind, books: 3)
        #expect {
            try fixture.store.libraryPage(page: 1, perPage: 10, search: text)
        } throws: { error in
            guard case LibraryError.invalidInput(let reason, _) = error else { return false }
            return reason.contains("at most \(BookSearch.maxLength) characters")
        }
    }

    @Test func theRuleIsOneValue() throws {
        #expect(BookSearch.maxLength == 200)
        #expect(try BookSearch("  ") == nil)
        #expect(try BookSearch(" dune ")?.text == "dune")
        #expect(throws: LibraryError.self) { try BookSearch(String(repeating: "x", count: 201)) }
    }
}
