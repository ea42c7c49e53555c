import Formats
import Library
import LibraryScreen
import Rendering
import Sections

/// `take`, `return`, `renew`, `loans` and `history`: the client's loans.
enum LoanCommands {
    static func take(_ context: CommandContext) throws -> ExitCode {
        try change(context, verb: "take") { store, client, ids, now in
            try store.take(bookIDs: ids, clientID: client.id, now: now)
        } describe: { loaned, _ in
            "Took \(loaned.book.title) (#\(loaned.book.id)), due \(loaned.loan.dueAt.date)."
        }
    }

    static func returnBooks(_ context: CommandContext) throws -> ExitCode {
        try change(context, verb: "return") { store, client, ids, now in
            try store.returnBooks(bookIDs: ids, clientID: client.id, now: now)
        } describe: { loaned, now in
            let late = loaned.loan.dueAt < now ? " (it was due \(loaned.loan.dueAt.date))" : ""
            return "Returned \(loaned.book.title) (#\(loaned.book.id))\(late)."
        }
    }

    static func renew(_ context: CommandContext) throws -> ExitCode {
        try change(context, verb: "renew") { store, client, ids, now in
            [try store.renew(bookID: ids[0], clientID: client.id, now: now)]
        } describe: { loaned, _ in
            "Renewed \(loaned.book.title) (#\(loaned.book.id)): now due \(loaned.loan.dueAt.date) "
                + "(renewal \(loaned.loan.renewals) of \(LibraryRules.maxRenewals))."
        }
    }

    /// Every open loan of the client with its due date, soonest due first, overdue ones marked: what the screen's
    /// row of books cannot show when it says "+N more".
    static func loans(_ context: CommandContext) throws -> ExitCode {
        let now = try context.now
        let (store, client) = try context.openStoreAsClient(.reads)
        let loans = try context.withDatabase { try store.openLoans(clientID: client.id, now: now) }.sorted {
            ($0.loan.dueAt, $0.book.id) < ($1.loan.dueAt, $1.book.id)
        }
        let overdue = loans.filter(\.isOverdue).count
        switch context.options.format {
        case .json:
            let document: JSONValue = .object(members: [
                ("version", 1), ("clientId", .int(client.id)), ("loanLimit", .int(client.loanLimit)),
                ("overdue", .int(overdue)),
                ("loans", .array(loans.map { loanJSON($0, action: nil, overdue: $0.isOverdue) })),
            ])
            context.console.out(document.serialized(pretty: true) + "\n")
        case .text:
            guard !loans.isEmpty else {
                context.say(
                    "\(client.name) has no books on loan. Take one with: \(context.clientProgram) take <book-id>")
                return .success
            }
            var table = TextTable(columns: [
                .init("Due"), .init("ID", alignRight: true), .init("Title", .text), .init("Author", .text),
                .init("Renewed"),
            ])
            for loaned in loans {
                table.append([
                    loaned.loan.dueAt.date + (loaned.isOverdue ? " overdue" : ""), String(loaned.book.id),
                    loaned.book.title, loaned.book.author, "\(loaned.loan.renewals) of \(LibraryRules.maxRenewals)",
                ])
            }
            context.console.out(table.render(width: context.options.width))
            let books = loans.count == 1 ? "1 book" : "\(loans.count) books"
            var summary = "\(client.name) has \(books) of \(client.loanLimit)"
            if overdue > 0 { summary += "; \(overdue) overdue: please return \(overdue == 1 ? "it" : "them")" }
            context.say(summary + ".")
        }
        return .success
    }

    static func history(_ context: CommandContext) throws -> ExitCode {
        let (store, client) = try context.openStoreAsClient(.reads)
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
                context.say("\(client.name) has returned no books yet.")
                return .success
            }
            var table = TextTable(columns: [
                .init("Returned"), .init("Taken"), .init("ID", alignRight: true), .init("Title", .text),
                .init("Author", .text),
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

    /// In one write transaction: reads the screen, makes the change, reads the screen again, and prints one line per
    /// book and the screen with what changed marked; the change commits only once that output is written.
    private static func change(
        _ context: CommandContext, verb: String,
        _ perform: (LibraryStore, Client, [Int], Timestamp) throws -> [LoanedBook],
        describe: (LoanedBook, Timestamp) -> String
    ) throws -> ExitCode {
        var ids: [Int] = []
        var repeated: [Int] = []
        for id in try context.parsed.positiveIntegers("book-id") {
            if !ids.contains(id) {
                ids.append(id)
            } else if !repeated.contains(id) {
                repeated.append(id)
            }
        }
        let now = try context.now
        let (store, client) = try context.openStoreAsClient(.writes)
        func screen() throws -> Snapshot {
            let screen = try context.withDatabase {
                try store.clientScreen(
                    clientID: client.id, page: 1, perPage: ListCommand.defaultPerPage, now: now)
            }
            return LibraryScreen.snapshot(from: screen, program: context.clientProgram)
        }
        for id in repeated { context.note("Book #\(id) is named more than once; it counts once.") }
        try context.writeReported(store) { store in
            let before = try screen()
            let outcomes = try perform(store, client, ids, now)
            let after = try screen()
            let changes = after.changes(from: before)
            switch context.options.format {
            case .text:
                for outcome in outcomes { context.say(describe(outcome, now)) }
                context.say("")
                ScreenOutput.print(after, context: context, changes: changes)
            case .json:
                let outcomeValues = outcomes.map { loanJSON($0, action: verb) }
                ScreenOutput.print(
                    after, context: context, changes: changes, extra: [("outcomes", .array(outcomeValues))])
            }
        }
        return .success
    }

    static func loanJSON(_ loaned: LoanedBook, action: String?, overdue: Bool? = nil) -> JSONValue {
        var members: [(key: String, value: JSONValue)] = []
        if let action { members.append(("action", .string(action))) }
        members += [
            ("bookId", .int(loaned.book.id)), ("title", .string(loaned.book.title)),
            ("author", .string(loaned.book.author)), ("takenAt", .string(loaned.loan.takenAt.iso8601)),
            ("dueAt", .string(loaned.loan.dueAt.iso8601)),
            ("returnedAt", .init(optional: loaned.loan.returnedAt?.iso8601)),
            ("renewals", .int(loaned.loan.renewals)),
        ]
        if let overdue { members.append(("overdue", .bool(overdue))) }
        return .object(members: members)
    }
}
