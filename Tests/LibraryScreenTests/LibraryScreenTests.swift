import Library
import Sections
import Testing

@testable import LibraryScreen

@Suite("The library screen's sections")
struct LibraryScreenTests {
    @Test("three sections with stable ids, in the article's order")
    func sectionIDs() {
        let screen = LibraryScreen.snapshot(from: Fixture.screen())
        #expect(screen.visibleSections.map(\.id) == ["client-info", "client-books", "library-books"])
        #expect(screen.visibleSections.map(\.layout.style) == [.card, .row, .grid])
    }

    @Test(
        "the greeting's message follows how many books the client holds",
        arguments: [
            (0, "You have 0 books out of 5. Time to find your best book!"),
            (1, "You have 1 book out of 5. Don't forget to return it on time."),
            (4, "You have 4 books out of 5. Don't forget to return them on time."),
            (5, "You have 5 books out of 5. You can't take more books: return at least one first."),
        ])
    func messageByCount(held: Int, expected: String) throws {
        let screen = LibraryScreen.snapshot(from: Fixture.screen(heldIDs: Array(1...6).prefix(held).map { $0 }))
        let info = try #require(screen.sections.first { $0.id == "client-info" })
        #expect(info.items.count == 1)
        #expect(info.items[0].title == "Hey John Doe!")
        #expect(info.items[0].lines == [expected])
        #expect(info.items[0].fields.contains(Field("booksHeld", .int(held))))
    }

    @Test("a client whose limit is 0 is not told to return a book they do not have")
    func messageAtLimitZero() {
        #expect(
            LibraryScreen.message(held: 0, limit: 0)
                == "You have 0 books out of 0. Your card does not allow borrowing books right now.")
        #expect(!LibraryScreen.message(held: 0, limit: 0).contains("return"))
    }

    @Test("with no books held, the client's row keeps its header and shows the article's empty view")
    func emptyClientBooks() throws {
        let screen = LibraryScreen.snapshot(from: Fixture.screen())
        let row = try #require(screen.sections.first { $0.id == "client-books" })
        #expect(row.items.isEmpty)
        #expect(row.supplementaries.map(\.kind) == [.header, .empty])
        #expect(row.supplementaries[1].title == "You don't have any books right now!")
        #expect(row.supplementaries[1].lines.joined().contains("librarycli take <book-id>"))
    }

    @Test("a client whose card allows no loans is told why in the empty view, not how to take a book")
    func emptyClientBooksAtLimitZero() throws {
        let screen = LibraryScreen.snapshot(from: Fixture.screen(limit: 0))
        let row = try #require(screen.sections.first { $0.id == "client-books" })
        #expect(
            row.supplementaries[1].lines == [
                "Your card does not allow borrowing books right now (its loan limit is 0)."
            ])
        let grid = try #require(screen.sections.first { $0.id == "library-books" })
        #expect(grid.items.allSatisfy { $0.actions.allSatisfy { !$0.isEnabled } })
    }

    @Test("an empty library: the client's empty view does not ask to pick a book from it")
    func emptyClientBooksInAnEmptyLibrary() throws {
        let screen = LibraryScreen.snapshot(from: Fixture.screen(count: 0, totalCount: 0))
        let row = try #require(screen.sections.first { $0.id == "client-books" })
        #expect(row.supplementaries[1].title == "You don't have any books right now!")
        #expect(row.supplementaries[1].lines.isEmpty)
        // A search that finds nothing shows no book below to pick either.
        let searched = LibraryScreen.snapshot(from: Fixture.screen(count: 0, totalCount: 0, search: "zzz"))
        let searchedRow = try #require(searched.sections.first { $0.id == "client-books" })
        #expect(searchedRow.supplementaries[1].lines.isEmpty)
    }

    @Test("held books carry their due date, an overdue mark, a return action and a renew action refused when overdue")
    func heldBooks() throws {
        let data = Fixture.screen(heldIDs: [2, 3], overdueIDs: [2])
        let row = try #require(LibraryScreen.snapshot(from: data).sections.first { $0.id == "client-books" })
        let item = try #require(row.items.first)
        #expect(item.id == "client-book-2")
        #expect(item.lines == ["Due 2026-12-13"])
        #expect(item.badges == [Badge(text: "overdue", style: .warning)])
        #expect(
            item.actions == [
                Action(
                    id: "return", title: "Return", command: "librarycli return 2",
                    request: Action.Request(method: "DELETE", href: "/v1/loans/2")),
                Action(
                    id: "renew", title: "Renew", command: "librarycli renew 2",
                    request: Action.Request(method: "POST", href: "/v1/loans/2/renewal"),
                    disabledReason: "It is overdue: please return it."),
            ])
        #expect(item.fields.contains(Field("bookId", .int(2))))
        #expect(row.supplementaries.map(\.kind) == [.header])
        // A loan on time, not renewed yet, may be renewed.
        let onTime = try #require(row.items.last)
        #expect(onTime.actions.last?.id == "renew" && onTime.actions.last?.isEnabled == true)
    }

    @Test("a loan renewed as often as the rules allow has its Renew refused, with the store's rule")
    func renewedTooOften() throws {
        let book = Book(
            id: 7, title: "Emma", author: "Jane Austen", year: 1815, pages: nil, description: "", isbn: nil,
            status: .available)
        var loan = Loan(
            id: 1, bookID: 7, clientID: 1, takenAt: try Timestamp(iso8601: "2026-11-01T00:00:00Z"),
            dueAt: try Timestamp(iso8601: "2026-12-29T00:00:00Z"), returnedAt: nil, renewals: LibraryRules.maxRenewals)
        let item = LibraryScreen.clientBookItem(
            LoanedBook(book: book, loan: loan, isOverdue: false), program: "librarycli")
        #expect(
            item.actions.last?.disabledReason == "Renewed \(LibraryRules.maxRenewals) times already: please return it.")
        loan.renewals = LibraryRules.maxRenewals - 1
        let again = LibraryScreen.clientBookItem(
            LoanedBook(book: book, loan: loan, isOverdue: false), program: "librarycli")
        #expect(again.actions.last?.isEnabled == true)
    }

    @Test("library books: checkmark on the client's own, on loan with due date, take action on available ones")
    func libraryAvailability() throws {
        let screen = LibraryScreen.snapshot(from: Fixture.screen(count: 3, heldIDs: [1], othersIDs: [2]))
        let grid = try #require(screen.sections.first { $0.id == "library-books" })
        #expect(grid.items.map(\.id) == ["book-1", "book-2", "book-3"])
        #expect(grid.items[0].badges == [Badge(text: "✓ yours", style: .positive)])
        #expect(grid.items[0].actions.map(\.id) == ["return"])
        #expect(grid.items[1].badges == [Badge(text: "on loan, due back 2026-12-20", style: .muted)])
        #expect(grid.items[1].actions.isEmpty)
        #expect(grid.items[2].badges.isEmpty)
        #expect(
            grid.items[2].actions == [
                Action(
                    id: "take", title: "Take", command: "librarycli take 3",
                    request: Action.Request(
                        method: "POST", href: "/v1/loans", body: .object([("bookIds", .array([.int(3)]))])))
            ])
    }

    @Test(
        "at the loan limit every Take is offered disabled, with the store's refusal as its reason; below it none is",
        arguments: [(2, 2, true), (1, 2, false), (0, 0, true), (3, 2, true)])
    func takeDisabledAtTheLimit(held: Int, limit: Int, disabled: Bool) throws {
        let data = Fixture.screen(count: 6, heldIDs: Array((1...6).prefix(held)), limit: limit)
        let screen = LibraryScreen.snapshot(from: data)
        let grid = try #require(screen.sections.first { $0.id == "library-books" })
        let takes = grid.items.flatMap(\.actions).filter { $0.id == "take" }
        #expect(takes.count == 6 - held)
        let reason =
            limit == 0
            ? "Your card does not allow borrowing books right now (its loan limit is 0)."
            : "You have \(held) of your \(limit) books; you cannot take 1 more book."
        for take in takes {
            #expect(take.disabledReason == (disabled ? reason : nil))
            #expect(take.isEnabled == !disabled)
            #expect(take.request?.href == "/v1/loans", "still the request: the server has the last word")
        }
        let returns = grid.items.flatMap(\.actions).filter { $0.id == "return" }
        #expect(returns.count == held && returns.allSatisfy { $0.isEnabled })
        let info = try #require(screen.sections.first { $0.id == "client-info" })
        #expect(info.items[0].badges.contains(Badge(text: "limit reached", style: .muted)) == disabled)
    }

    @Test("the footer says which page and how many in all; its actions go to the previous and next page, once each")
    func footer() throws {
        let data = Fixture.screen(count: 3, page: 2, perPage: 3, totalCount: 10)
        let grid = try #require(LibraryScreen.snapshot(from: data).sections.first { $0.id == "library-books" })
        #expect(grid.footer?.title == "Page 2 of 4 · 10 books")
        #expect(grid.footer?.actions.map(\.id) == ["previous-page", "next-page"])
        #expect(
            grid.footer?.actions.map(\.command) == [
                "librarycli list --page 1 --per-page 3", "librarycli list --page 3 --per-page 3",
            ])
        let first = Fixture.screen(count: 20, page: 1, perPage: 20, totalCount: 50)
        let firstGrid = try #require(LibraryScreen.snapshot(from: first).sections.first { $0.id == "library-books" })
        #expect(firstGrid.footer?.title == "Page 1 of 3 · 50 books")
        #expect(
            firstGrid.footer?.actions.map(\.command) == ["librarycli list --page 2", "librarycli list --per-page 40"])
        let last = Fixture.screen(count: 1, page: 4, perPage: 3, totalCount: 10)
        let lastGrid = try #require(LibraryScreen.snapshot(from: last).sections.first { $0.id == "library-books" })
        #expect(lastGrid.footer?.title == "Page 4 of 4 · 10 books")
        #expect(lastGrid.footer?.actions.map(\.command) == ["librarycli list --page 3 --per-page 3"])
        let searched = Fixture.screen(count: 2, page: 1, perPage: 2, totalCount: 5, search: "l'été")
        let searchedGrid = try #require(
            LibraryScreen.snapshot(from: searched).sections.first { $0.id == "library-books" })
        #expect(
            searchedGrid.footer?.actions.first?.command == "librarycli list --page 2 --per-page 2 --search 'l'\\''été'")
        let one = Fixture.screen(count: 1, page: 1, perPage: 20, totalCount: 1)
        let oneGrid = try #require(LibraryScreen.snapshot(from: one).sections.first { $0.id == "library-books" })
        #expect(oneGrid.footer?.title == "Page 1 of 1 · 1 book")
        #expect(oneGrid.footer?.actions.isEmpty == true)
    }

    @Test(
        "overdue books change the greeting",
        arguments: [
            (3, 1, "You have 1 overdue book: please return it. You hold 3 books out of 5."),
            (3, 2, "You have 2 overdue books: please return them. You hold 3 books out of 5."),
            (1, 1, "You have 1 overdue book: please return it. You hold 1 book out of 5."),
        ])
    func overdueGreeting(held: Int, overdue: Int, expected: String) throws {
        #expect(LibraryScreen.message(held: held, limit: 5, overdue: overdue) == expected)
        let ids = Array(1...held)
        let screen = LibraryScreen.snapshot(
            from: Fixture.screen(heldIDs: ids, overdueIDs: Array(ids.prefix(overdue))))
        let info = try #require(screen.sections.first { $0.id == "client-info" })
        #expect(info.items[0].lines == [expected])
    }

    @Test("the client's row names the command that lists every loan, and a book of one page says so")
    func showAllAndSingularPages() throws {
        let screen = LibraryScreen.snapshot(from: Fixture.screen(heldIDs: [1, 2]))
        let row = try #require(screen.sections.first { $0.id == "client-books" })
        #expect(
            row.header?.actions == [
                Action(
                    id: "show-all", title: "All your books", command: "librarycli loans",
                    request: Action.Request(method: "GET", href: "/v1/loans"))
            ])
        let empty = try #require(
            LibraryScreen.snapshot(from: Fixture.screen()).sections.first { $0.id == "client-books" })
        #expect(empty.header?.actions.isEmpty == true)
        #expect(LibraryScreen.yearText(-725) == "725 BC")
        #expect(LibraryScreen.yearText(1965) == "1965")
    }

    @Test(
        "the library's empty state says why it is empty",
        arguments: [
            (nil, 0, "The library has no books yet."),
            ("zzz", 0, "No books match “zzz”."),
            (nil, 10, "Page 9 is past the end: there is 1 page."),
            ("tolkien", 2, "Page 9 is past the end: 2 books match “tolkien”, on 1 page."),
            ("tolkien", 1, "Page 9 is past the end: 1 book matches “tolkien”, on 1 page."),
            ("dune", 45, "Page 9 is past the end: 45 books match “dune”, on 3 pages."),
        ] as [(String?, Int, String)])
    func emptyLibrary(search: String?, total: Int, title: String) throws {
        let data = Fixture.screen(count: 0, page: 9, perPage: 20, totalCount: total, search: search)
        #expect(data.library.entries.isEmpty)
        let snapshot = LibraryScreen.snapshot(from: data)
        let grid = try #require(snapshot.sections.first { $0.id == "library-books" })
        #expect(grid.items.isEmpty)
        #expect(grid.supplementaries.map(\.kind) == [.header, .empty])
        #expect(grid.supplementaries[1].title == title)
        // Nothing below to pick from: the client's empty state does not say to pick one.
        let yours = try #require(snapshot.sections.first { $0.id == "client-books" })
        #expect(yours.emptyState?.title == "You don't have any books right now!")
        #expect(yours.emptyState?.lines == [])
    }

    @Test("the client's empty state says to pick a book when the library below shows some")
    func pickOne() throws {
        let yours = try #require(
            LibraryScreen.snapshot(from: Fixture.screen(search: "dune")).sections.first { $0.id == "client-books" })
        #expect(yours.emptyState?.lines == ["Pick one from the library below: librarycli take <book-id>"])
    }

    @Test("a search paged past its end points to its last page, with the same search and page size")
    func searchPastTheEnd() throws {
        let data = Fixture.screen(count: 0, page: 9, perPage: 10, totalCount: 45, search: "dune")
        let grid = try #require(LibraryScreen.snapshot(from: data).sections.first { $0.id == "library-books" })
        let empty = grid.supplementaries[1]
        #expect(empty.title == "Page 9 is past the end: 45 books match “dune”, on 5 pages.")
        // The action carries the command; no line repeats it (the terminal wrote both).
        #expect(empty.lines == [])
        #expect(empty.actions.map(\.id) == ["last-page"])
        #expect(empty.actions.first?.command == "librarycli list --page 5 --per-page 10 --search dune")
        #expect(empty.actions.first?.request?.href == "/v1/screen?page=5&perPage=10&search=dune")
        #expect(empty.fields == [Field("page", .int(9)), Field("pageCount", .int(5)), Field("totalCount", .int(45))])
    }

    @Test("a page past the end without a search points to the first page, with the same page size")
    func pastTheEnd() throws {
        let data = Fixture.screen(count: 0, page: 9, perPage: 10, totalCount: 45, search: nil)
        let grid = try #require(LibraryScreen.snapshot(from: data).sections.first { $0.id == "library-books" })
        let empty = grid.supplementaries[1]
        #expect(empty.title == "Page 9 is past the end: there are 5 pages.")
        #expect(empty.lines == [])
        #expect(empty.actions.map(\.id) == ["first-page"])
        #expect(empty.actions.first?.command == "librarycli list --per-page 10")
        #expect(empty.actions.first?.request?.href == "/v1/screen?perPage=10")
        #expect(empty.fields == [Field("page", .int(9)), Field("pageCount", .int(5)), Field("totalCount", .int(45))])
    }
}

@Suite("The screen's actions as requests")
struct ActionRequestTests {
    @Test("every action of the screen carries its HTTP form beside its command")
    func everyActionHasARequest() throws {
        let screen = LibraryScreen.snapshot(from: Fixture.screen(heldIDs: [1, 2]))
        var actions: [Action] = []
        for section in screen.sections {
            actions += section.items.flatMap(\.actions)
            actions += section.supplementaries.flatMap(\.actions)
        }
        #expect(!actions.isEmpty)
        for action in actions {
            #expect(action.request != nil, "\(action.id) has no request")
        }
    }

    @Test("page requests keep the page size and the search, percent-encoded")
    func pageRequests() {
        #expect(ActionRequests.screen(page: 2, perPage: 20, search: nil).href == "/v1/screen?page=2")
        #expect(
            ActionRequests.screen(page: 3, perPage: 50, search: "garcía márquez").href
                == "/v1/screen?page=3&perPage=50&search=garc%C3%ADa%20m%C3%A1rquez")
        #expect(
            ActionRequests.screen(page: nil, perPage: 40, search: "a&b").href == "/v1/screen?perPage=40&search=a%26b")
    }

    @Test("shellQuoted writes a word a terminal would not show as it is with escapes, so a hint names the same file")
    func shellQuoting() {
        #expect(shellQuoted("library.sqlite") == "library.sqlite")
        #expect(shellQuoted("my library.sqlite") == "'my library.sqlite'")
        #expect(shellQuoted("it's.db") == "'it'\\''s.db'")
        #expect(shellQuoted("ta\tb.db") == "$'ta\\tb.db'")
        #expect(shellQuoted("ev\u{202E}il's\\.db") == "$'ev\\u202eil\\'s\\\\.db'")
        #expect(shellQuoted("a\u{1B}b") == "$'a\\x1bb'")
    }
}
