import ArgumentParsing
import Formats
import Library
import LibraryScreen
import Rendering
import Seeding

/// `books` (the catalog as a table) and `books add`.
enum BookCommands {
    static let defaultPerPage = 50

    static func list(_ context: CommandContext) throws -> ExitCode {
        let parsed = context.parsed
        let search = try SearchOption.value(of: parsed)
        var page = try parsed.integer("page", in: 1...1_000_000_000) ?? 1
        var perPage = try parsed.integer("per-page", in: 1...LibraryStore.maxPerPage) ?? defaultPerPage
        let store = try context.openStore(.reads)
        if parsed.flag("all") {
            if parsed.isPresent("page") || parsed.isPresent("per-page") {
                throw UsageError(
                    .conflictingOptions("--all", parsed.isPresent("page") ? "--page" : "--per-page"),
                    commandPath: parsed.path)
            }
            page = 1
            perPage = try context.countForAll(in: store, search: search)
        }
        let result = try context.withDatabase {
            try store.libraryPage(page: page, perPage: perPage, viewerID: nil, search: search)
        }
        switch context.options.format {
        case .json:
            let document: JSONValue = .object(members: [
                ("version", 1), ("page", .int(result.page)), ("perPage", .int(result.perPage)),
                ("pageCount", .int(result.pageCount)), ("totalCount", .int(result.totalCount)),
                ("search", .init(optional: result.search)),
                ("books", .array(result.entries.map { bookJSON($0.book, availability: $0.availability) })),
            ])
            context.console.out(document.serialized(pretty: true) + "\n")
        case .text:
            func pageCommand(_ number: Int) -> String {
                var command = "\(context.program) books --page \(number)"
                if perPage != defaultPerPage { command += " --per-page \(perPage)" }
                if let search = result.search { command += " --search " + shellQuoted(search) }
                return command
            }
            guard !result.entries.isEmpty else {
                let pages = result.pageCount == 1 ? "1 page" : "\(result.pageCount) pages"
                let why: String
                if let search, result.totalCount == 0 {
                    why = "No books match “\(search)”."
                } else if let search {
                    let books = result.totalCount == 1 ? "1 book matches" : "\(result.totalCount) books match"
                    why =
                        "Page \(page) is past the end: \(books) “\(search)”, on \(pages). "
                        + "See the last page: \(pageCommand(max(result.pageCount, 1)))"
                } else if result.totalCount == 0 {
                    why = "The library has no books yet. Add the demo catalog with: \(context.program) seed"
                } else {
                    let books = result.totalCount == 1 ? "1 book" : "\(result.totalCount) books"
                    why =
                        "Page \(page) is past the end: the library has \(books), on \(pages). "
                        + "See the last page: \(pageCommand(max(result.pageCount, 1)))"
                }
                context.say(why)
                return .success
            }
            var table = TextTable(columns: [
                .init("ID", alignRight: true), .init("Title", .text), .init("Author", .text),
                .init("Year", alignRight: true),
                .init("Status"),
            ])
            for entry in result.entries {
                table.append([
                    String(entry.book.id), entry.book.title, entry.book.author,
                    entry.book.year.map(LibraryScreen.yearText) ?? "",
                    status(entry.availability),
                ])
            }
            context.console.out(table.render(width: context.options.width))
            let books = result.totalCount == 1 ? "1 book" : "\(result.totalCount) books"
            var footer = "Page \(result.page) of \(result.pageCount) · \(books)"
            if result.page > 1 && result.page <= result.pageCount {
                footer += " · previous: " + pageCommand(result.page - 1)
            }
            if result.hasNextPage { footer += " · next: " + pageCommand(result.page + 1) }
            context.say(footer)
        }
        return .success
    }

    static func add(_ context: CommandContext) throws -> ExitCode {
        let parsed = context.parsed
        // A number option takes a whole number as every option does (`Validation.integer`: no spaces, no `+`, no
        // `5.0`), then the library's rule for the field; the spreadsheet forms an import reads are not options.
        func value<T>(
            _ option: String, expected: String, wholeNumber: Bool = false, field: TextField? = nil,
            _ parse: (String) throws(FieldParsing.FieldProblem) -> T?
        ) throws -> T? {
            guard let text = parsed.string(option) else { return nil }
            let display = parsed.availableOptions.first { $0.name == option }?.display ?? "--\(option)"
            // A character the field may not hold (a control, a bidirectional override) is said as such: the value as
            // an error shows it has that character taken out, and would look right.
            if let field {
                do { try field.checkCharacters(text) } catch { throw Failure(message: error.sentence, code: .usage) }
            }
            do {
                if wholeNumber { _ = try Validation.integer(text, for: display) }
                return try parse(text)
            } catch {
                throw UsageError(.invalidValue(text, for: display, expected: expected), commandPath: parsed.path)
            }
        }
        let draft = NewBook(
            title: try CommandText.checked(parsed.string("title") ?? "", .title),
            author: try CommandText.checked(parsed.string("author") ?? "", .author),
            year: try value("year", expected: LibraryRules.yearRule, wholeNumber: true, FieldParsing.year),
            pages: try value(
                "pages", expected: "a whole number from 1 to \(LibraryRules.maxPages)", wholeNumber: true,
                FieldParsing.pages),
            description: try CommandText.checked(parsed.string("description") ?? "", .description),
            isbn: try value(
                "isbn", expected: "an ISBN-10 or ISBN-13 whose check digit holds (ISBN-13s start with 978 or 979)",
                field: .isbn, FieldParsing.isbn))
        let store = try context.openStore(.writes)
        try context.writeReported(store) { store in
            let book = try store.addBook(draft)
            switch context.options.format {
            case .json:
                context.console.out(
                    JSONValue.object(members: [("version", 1), ("book", bookJSON(book, availability: .available))])
                        .serialized() + "\n")
            case .text:
                context.say("Added \(book.title) as book #\(book.id).")
            }
        }
        return .success
    }

    static func status(_ availability: Availability) -> String {
        switch availability {
        case .available: "available"
        case .heldByYou(let due), .onLoan(let due): "on loan, due back \(due.date)"
        case .lost: "lost"
        case .withdrawn: "withdrawn"
        }
    }

    /// A book as `--json books` and `--json books add` write it: the catalog's fields, the stored `status`
    /// (`available`, `lost`, `withdrawn`), and `availability` and `dueAt` as the screen's book items have them.
    static func bookJSON(_ book: Book, availability: Availability) -> JSONValue {
        .object(members: [
            ("id", .int(book.id)), ("title", .string(book.title)), ("author", .string(book.author)),
            ("year", book.year.map { .int($0) } ?? .null), ("pages", book.pages.map { .int($0) } ?? .null),
            ("isbn", .init(optional: book.isbn)), ("description", .string(book.description)),
            ("status", .string(book.status.rawValue)), ("availability", .string(availability.name)),
            ("dueAt", .init(optional: availability.dueAt?.iso8601)),
        ])
    }
}
