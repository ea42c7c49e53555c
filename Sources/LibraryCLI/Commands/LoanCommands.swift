import Formats
import Library
import LibraryScreen
import Rendering
import Sections

/// `take`, `return`, `renew` and `history`: the client's loans.
enum LoanCommands {
    static func take(_ context: CommandContext) throws -> ExitCode {
        try change(context, verb: "take") { store, client, ids in
            try store.take(bookIDs: ids, clientID: client.id, now: context.now)
        } describe: { loaned in
            "Took \(loaned.book.title) (#\(loaned.book.id)), due \(loaned.loan.dueAt.date)."
        }
    }

    static func returnBooks(_ context: CommandContext) throws -> ExitCode {
        try change(context, verb: "return") { store, client, ids in
            try store.returnBooks(bookIDs: ids, clientID: client.id, now: context.now)
        } describe: { loaned in
            let late = loaned.loan.dueAt < context.now ? " (it was due \(loaned.loan.dueAt.date))" : ""
            return "Returned \(loaned.book.title) (#\(loaned.book.id))\(late)."
        }
    }

    static func renew(_ context: CommandContext) throws -> ExitCode {
        try change(context, verb: "renew") { store, client, ids in
            [try store.renew(bookID: ids[0], clientID: client.id, now: context.now)]
        } describe: { loaned in
            "Renewed \(loaned.book.title) (#\(loaned.book.id)): now due \(loaned.loan.dueAt.date) "
                + "(renewal \(loaned.loan.renewals) of \(LibraryStore.maxRenewals))."
        }
    }

    static func history(_ context: CommandContext) throws -> ExitCode {
        let store = try context.openStore(.reads)
        let client = try context.currentClient(in: store)
        let loans = try context.withDatabase { try store.loanHistory(clientID: client.id, limit: 1_000) }
        switch context.options.format {
        case .json:
            let document: JSONValue = [
                "version": 1, "clientId": .int(client.id),
                "history": .array(loans.map { loanJSON($0, action: nil) }),
            ]
            context.console.out(document.serialized(pretty: true) + "\n")
        case .text:
            guard !loans.isEmpty else {
                context.console.out("\(client.name) has returned no books yet.\n")
                return .success
            }
            var table = TextTable(columns: [
                .init("Returned"), .init("Taken"), .init("ID", alignRight: true), .init("Title"), .init("Author"),
            ])
            for loaned in loans {
                table.append([
                    loaned.loan.returnedAt?.date ?? "", loaned.loan.takenAt.date, String(loaned.book.id),
                    loaned.book.title, loaned.book.author,
                ])
            }
            context.console.out(table.render(width: context.options.width))
        }
        return .success
    }

    // MARK: - Private

    /// Reads the screen, makes the change in one write transaction, reads the screen again, and prints one line per
    /// book and the screen with what changed marked.
    private static func change(
        _ context: CommandContext, verb: String,
        _ perform: (LibraryStore, Client, [Int]) throws -> [LoanedBook],
        describe: (LoanedBook) -> String
    ) throws -> ExitCode {
        var ids: [Int] = []
        for id in try context.parsed.positiveIntegers("book-id") where !ids.contains(id) { ids.append(id) }
        let store = try context.openStore(.writes)
        let client = try context.currentClient(in: store)
        func screen() throws -> Snapshot {
            let screen = try context.withDatabase {
                try store.clientScreen(
                    clientID: client.id, page: 1, perPage: ListCommand.defaultPerPage, now: context.now)
            }
            return LibraryScreen.snapshot(from: screen, program: context.program)
        }
        let before = try screen()
        let outcomes = try context.withDatabase { try perform(store, client, ids) }
        let after = try screen()
        let changes = after.changes(from: before)
        switch context.options.format {
        case .text:
            context.console.out(outcomes.map(describe).joined(separator: "\n") + "\n\n")
            ScreenOutput.print(after, context: context, changes: changes)
        case .json:
            let outcomeValues = outcomes.map { loanJSON($0, action: verb) }
            ScreenOutput.print(after, context: context, changes: changes, extra: [("outcomes", .array(outcomeValues))])
        }
        return .success
    }

    static func loanJSON(_ loaned: LoanedBook, action: String?) -> JSONValue {
        var members: [(key: String, value: JSONValue)] = []
        if let action { members.append(("action", .string(action))) }
        members += [
            ("bookId", .int(loaned.book.id)), ("title", .string(loaned.book.title)),
            ("author", .string(loaned.book.author)), ("takenAt", .string(loaned.loan.takenAt.iso8601)),
            ("dueAt", .string(loaned.loan.dueAt.iso8601)),
            ("returnedAt", .init(optional: loaned.loan.returnedAt?.iso8601)),
            ("renewals", .int(loaned.loan.renewals)),
        ]
        return .object(members: members)
    }
}
