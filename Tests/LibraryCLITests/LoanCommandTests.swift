import Testing

@Suite("take, return, renew and history from the command line")
struct LoanCommandTests {
    @Test("take prints one line per book with its due date, then the screen with the change marked")
    func take() throws {
        let sandbox = Sandbox()
        sandbox.makeSmallLibrary()
        let result = sandbox.run(["take", "1", "3"])
        #expect(result.code == 0, "\(result.err)")
        let lines = result.out.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines[0] == "Took Dune (#1), due 2026-12-13.")
        #expect(lines[1] == "Took Les Misérables (#3), due 2026-12-13.")
        #expect(result.out.contains("You have 2 books out of 5."))
        #expect(result.out.contains("(new)"))
        #expect(result.out.contains("✓ yours"))
    }

    @Test("several ids: all or none")
    func allOrNone() throws {
        let sandbox = Sandbox()
        sandbox.makeSmallLibrary()
        let before = try sandbox.dump()
        let result = sandbox.run(["take", "1", "99"])
        #expect(result.code == 1)
        #expect(result.err == "Error: There is no book #99.\n")
        #expect(result.out.isEmpty)
        #expect(try sandbox.dump() == before)
    }

    @Test("refusals exit 1 with a plain reason and change nothing")
    func refusals() throws {
        let sandbox = Sandbox()
        sandbox.makeSmallLibrary()
        #expect(sandbox.run(["take", "1"]).code == 0)
        let before = try sandbox.dump()

        let again = sandbox.run(["take", "1"])
        #expect(again.code == 1)
        #expect(again.err.contains("You already have Dune (#1)"))

        let other = sandbox.run(["--client", "2", "take", "1"])
        #expect(other.code == 1)
        #expect(other.err.contains("Dune (#1) is on loan to someone else, due back 2026-12-13."))

        let notYours = sandbox.run(["--client", "2", "return", "1"])
        #expect(notYours.code == 1)
        #expect(notYours.err.contains("You do not have Dune (#1) on loan."))

        #expect(try sandbox.dump() == before)
    }

    @Test("the limit: a client at the limit is refused")
    func limit() {
        let sandbox = Sandbox()
        sandbox.makeSmallLibrary()
        #expect(sandbox.run(["--client", "2", "take", "1", "2"]).code == 0)
        let refused = sandbox.run(["--client", "2", "take", "3"])
        #expect(refused.code == 1)
        #expect(refused.err.contains("You have 2 of your 2 books"))
    }

    @Test("return, then a second return of the same book is refused")
    func returnTwice() {
        let sandbox = Sandbox()
        sandbox.makeSmallLibrary()
        sandbox.run(["take", "2"])
        let returned = sandbox.run(["return", "2"])
        #expect(returned.code == 0)
        #expect(returned.out.hasPrefix("Returned Crime and Punishment (#2).\n"))
        #expect(returned.out.contains("You don't have any books right now!"))
        let again = sandbox.run(["return", "2"])
        #expect(again.code == 1)
    }

    @Test("renew extends the due date; LIBRARY_NOW sets the clock")
    func renew() {
        let sandbox = Sandbox()
        sandbox.makeSmallLibrary()
        sandbox.run(["take", "1"])
        let renewed = sandbox.run(["renew", "1"])
        #expect(renewed.code == 0)
        #expect(renewed.out.hasPrefix("Renewed Dune (#1): now due 2026-12-27 (renewal 1 of 2)."))
        sandbox.now = "2027-02-01T00:00:00Z"
        let overdue = sandbox.run(["renew", "1"])
        #expect(overdue.code == 1)
        #expect(overdue.err.contains("cannot be renewed"))
        let list = sandbox.run(["list"])
        #expect(list.out.contains("Due 2026-12-27"))
        #expect(list.out.contains("1 overdue"))
    }

    @Test("history lists returned loans, newest first")
    func history() {
        let sandbox = Sandbox()
        sandbox.makeSmallLibrary()
        #expect(sandbox.run(["history"]).out == "John Doe has returned no books yet.\n")
        sandbox.run(["take", "1", "2"])
        sandbox.now = "2026-12-01T10:00:00Z"
        sandbox.run(["return", "1"])
        sandbox.now = "2026-12-02T10:00:00Z"
        sandbox.run(["return", "2"])
        let history = sandbox.run(["history"])
        #expect(history.code == 0)
        let lines = history.out.split(separator: "\n")
        #expect(lines.count == 3)
        #expect(lines[1].contains("2026-12-02") && lines[1].contains("Crime and Punishment"))
        #expect(lines[2].contains("2026-12-01") && lines[2].contains("Dune"))
    }

    @Test("JSON: the sections document with the change set and the per-book outcomes")
    func takeJSON() throws {
        let sandbox = Sandbox()
        sandbox.makeSmallLibrary()
        sandbox.run(["take", "2"])
        let result = sandbox.run(["--json", "take", "1"])
        #expect(result.code == 0)
        let document = try parseJSON(result.out)
        #expect(document["version"] as? Int == 1)
        let sections = try #require(document["sections"] as? [[String: Any]])
        #expect(sections.map { $0["id"] as? String } == ["client-info", "client-books", "library-books"])
        let outcomes = try #require(document["outcomes"] as? [[String: Any]])
        #expect(outcomes.count == 1)
        #expect(outcomes[0]["bookId"] as? Int == 1)
        #expect(outcomes[0]["action"] as? String == "take")
        #expect(outcomes[0]["dueAt"] as? String == "2026-12-13T23:59:59Z")
        let changes = try #require(document["changes"] as? [String: Any])
        let items = try #require(changes["items"] as? [String: Any])
        let inserted = try #require(items["inserted"] as? [[String: Any]])
        #expect(inserted.map { $0["id"] as? String } == ["client-book-1"])
        let updated = try #require(items["updated"] as? [[String: Any]])
        #expect(Set(updated.compactMap { $0["id"] as? String }) == ["book-1", "client-1"])
    }
}
