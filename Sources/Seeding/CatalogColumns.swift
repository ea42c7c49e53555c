import Library

/// Which column of a catalog file holds which fact, found from the header by name, case-insensitively, with the
/// common aliases of real data sets (`authors`, `original_publication_year`, `isbn13`, ...). Extra columns are ignored.
///
/// For example, the goodbooks-10k header:
///
///     let columns = try CatalogColumns(header: ["book_id", "isbn", "isbn13", "authors",
///                                               "original_publication_year", "original_title", "title"])
///     let record = try columns.record(from: row)
public struct CatalogColumns: Sendable {
    /// Why a header or a row could not be read: the column (by 1-based index and name) and the reason.
    public struct Problem: Error, Hashable, Sendable {
        /// The 1-based column, or nil when the problem is the header as a whole.
        public var column: Int?
        /// The column's header name, or nil when the problem is the header as a whole.
        public var columnName: String?
        /// What is wrong, in plain words.
        public var reason: String
    }

    /// Header names accepted for each fact, in order of preference.
    public static let aliases: [(fact: String, names: [String])] = [
        ("title", ["title", "name", "book_title", "original_title"]),
        ("author", ["author", "authors", "author_name", "writer", "by"]),
        ("year", ["year", "original_publication_year", "publication_year", "year_published", "published"]),
        ("pages", ["pages", "num_pages", "number_of_pages", "page_count"]),
        ("isbn", ["isbn13", "isbn_13", "isbn", "isbn10", "isbn_10"]),
        ("description", ["description", "summary", "blurb"]),
        ("status", ["status"]),
    ]

    let header: [String]
    let title: [Int]
    let author: [Int]
    let year: [Int]
    let pages: [Int]
    let isbn: [Int]
    let description: [Int]
    let status: [Int]
    /// The facts the header has a column for (the title always).
    let fields: BookFields

    /// Finds the columns in a header row. Throws when no column can hold the title.
    ///
    ///     let columns = try CatalogColumns(header: ["Title", "Authors", "Year"])
    public init(header: [String]) throws(Problem) {
        self.header = header
        let normalized = try Self.uniqueNames(header)
        func columns(_ fact: String) -> [Int] {
            let names = Self.aliases.first { $0.fact == fact }?.names ?? []
            return names.compactMap { name in normalized.firstIndex(of: name) }
        }
        title = columns("title")
        author = columns("author")
        year = columns("year")
        pages = columns("pages")
        isbn = columns("isbn")
        description = columns("description")
        status = columns("status")
        var fields: BookFields = .title
        if !author.isEmpty { fields.insert(.author) }
        if !year.isEmpty { fields.insert(.year) }
        if !pages.isEmpty { fields.insert(.pages) }
        if !description.isEmpty { fields.insert(.description) }
        self.fields = fields
        guard !title.isEmpty else {
            throw Problem(
                column: nil, columnName: nil,
                reason: "no title column: the header needs one of \(Self.aliases[0].names.joined(separator: ", "))")
        }
    }

    /// Every column (0-based) that ``record(from:warn:)`` reads; the others' fields are never looked at.
    ///
    ///     try CatalogColumns(header: ["id", "title", "authors"]).usedColumns  // [1, 2]
    public var usedColumns: Set<Int> {
        Set(title + author + year + pages + isbn + description + status)
    }

    /// Names (as matched) that librarycli's own `--json books` and `--json clients` write and an import reads
    /// nothing from: ids, times and the computed availability. A file that has them gets no warning for them.
    static let writtenButNotRead: Set<String> = ["id", "createdat", "availability", "dueat"]

    /// The columns (0-based) of a header that an import of `aliases` reads nothing from, for a warning each:
    /// columns without a name and the names librarycli writes but does not read (`writtenButNotRead`) are left out.
    ///
    ///     CatalogColumns.unusedColumns(["title", "Autor", "id", ""], aliases: CatalogColumns.aliases)  // [1]
    static func unusedColumns(_ header: [String], aliases: [(fact: String, names: [String])]) -> [Int] {
        let known = Set(aliases.flatMap(\.names)).union(writtenButNotRead)
        return header.indices.filter { index in
            let name = normalizedName(header[index])
            return !name.isEmpty && !known.contains(name)
        }
    }

    /// The words of a warning about a column nothing is read from: `'loanLimt' is not used; known columns: name,
    /// card_number, ... and their aliases` (each fact's first name; `word` is `columns`, or `keys` for JSON).
    ///
    ///     CatalogColumns.unusedReason("Autor", aliases: CatalogColumns.aliases, word: "columns")
    static func unusedReason(_ name: String, aliases: [(fact: String, names: [String])], word: String) -> String {
        "'\(name)' is not used; " + knownNames(aliases, word: word)
    }

    /// The words of one warning about the columns of a header nothing is read from (0-based `columns`): `column 3
    /// 'loanLimt' is not used; known columns: ...` for one, `17 columns are not used: 'book_id' (1), ...; known
    /// columns: ...` for more, so that a file of many extra columns (an export of another program) gives one line
    /// and the warnings about its rows stay in sight.
    ///
    ///     CatalogColumns.unusedColumnsReason(["title", "id", "url"], columns: [1, 2], aliases: CatalogColumns.aliases)
    ///     // "2 columns are not used: 'id' (2), 'url' (3); known columns: title, author, ... and their aliases"
    static func unusedColumnsReason(_ header: [String], columns: [Int], aliases: [(fact: String, names: [String])])
        -> String
    {
        guard columns.count > 1 else {
            return columns.map { "column \($0 + 1) " + unusedReason(header[$0], aliases: aliases, word: "columns") }
                .joined()
        }
        var list = columns.prefix(listedUnusedColumns).map { "'\(header[$0])' (\($0 + 1))" }.joined(separator: ", ")
        if columns.count > listedUnusedColumns { list += " and \(columns.count - listedUnusedColumns) more" }
        return "\(columns.count) columns are not used: \(list); " + knownNames(aliases, word: "columns")
    }

    /// How many unused columns the warning names; the rest it counts (a file may have up to 10,000 columns).
    static let listedUnusedColumns = 20

    /// Each fact by the name librarycli itself writes for it (the fact's own name when it is one of its names, as
    /// `isbn` is, though `isbn13` is the name preferred when a file has both), else its first.
    private static func knownNames(_ aliases: [(fact: String, names: [String])], word: String) -> String {
        let names = aliases.map { $0.names.contains($0.fact) ? $0.fact : $0.names[0] }
        return "known \(word): \(names.joined(separator: ", ")) and their aliases"
    }

    /// A header name as it is matched: trimmed, lower case, spaces and hyphens as underscores (`" Page Count"` →
    /// `page_count`, `ISBN-13` → `isbn_13`).
    static func normalizedName(_ name: String) -> String {
        FieldParsing.trimmed(name).lowercased().replacing(" ", with: "_").replacing("-", with: "_")
    }

    /// The header's names as they are matched (trimmed, any case, spaces and hyphens as underscores), refusing a name
    /// that appears twice that way (`Title,title`): which of the two would hold the title is anybody's guess.
    ///
    ///     try CatalogColumns.uniqueNames(["Title", "Author"])  // ["title", "author"]
    public static func uniqueNames(_ header: [String]) throws(Problem) -> [String] {
        var seen: [String: Int] = [:]
        var names: [String] = []
        for (index, name) in header.enumerated() {
            let normalized = normalizedName(name)
            // A column without a name (a spreadsheet's trailing comma) holds nothing the import reads.
            if !normalized.isEmpty, let first = seen[normalized] {
                throw Problem(
                    column: index + 1, columnName: name,
                    reason: "the column '\(normalized)' appears more than once (columns \(first + 1) and \(index + 1))")
            }
            seen[normalized] = index
            names.append(normalized)
        }
        return names
    }

    /// Reads one row (its fields in header order) as a book. Its `fields` are the facts the header has a column for:
    /// an empty cell gives an empty value (a book matched loses it), a missing column gives none (a book matched
    /// keeps it). The first non-empty of several alias columns wins
    /// (a data set's `title` before its `original_title`), except ISBNs, where the first usable one wins; a row whose
    /// ISBNs are all unusable is read without one, and `warn` is told why, once for each unusable value.
    ///
    ///     let record = try columns.record(from: ["Dune", "Frank Herbert", "1965"])
    public func record(from fields: [String], warn: (Problem) -> Void = { _ in }) throws(Problem) -> BookRecord {
        func value(_ candidates: [Int]) -> (column: Int, text: String)? {
            for column in candidates where column < fields.count {
                let text = FieldParsing.trimmed(fields[column])
                if !text.isEmpty { return (column, text) }
            }
            return nil
        }
        guard let title = value(title) else {
            throw Problem(column: self.title[0] + 1, columnName: header[self.title[0]], reason: "the title is empty")
        }
        let author = value(author)
        let description = value(description)
        for (found, field) in [(title, TextField.title), (author, .author), (description, .description)] {
            guard let found else { continue }
            do {
                try field.check(found.text)
            } catch {
                throw Problem(column: found.column + 1, columnName: header[found.column], reason: error.reason)
            }
        }
        var record = BookRecord(title: title.text)
        record.fields = self.fields
        record.author = author?.text ?? ""
        record.description = description?.text ?? ""
        if let year = value(year) {
            record.year = try parse(year.column) { text throws(FieldParsing.FieldProblem) in
                try FieldParsing.year(text)
            }
        }
        if let pages = value(pages) {
            record.pages = try parse(pages.column) { text throws(FieldParsing.FieldProblem) in
                try FieldParsing.pages(text)
            }
        }
        if let status = value(status) {
            record.status = try parse(status.column) { text throws(FieldParsing.FieldProblem) in
                try FieldParsing.status(text)
            }
        }
        // An unusable ISBN is not worth refusing a file for (real catalogs hold ISBNs that spreadsheets mangled):
        // the first usable one wins, and if none is usable the book goes in without one and `warn` hears of each
        // value left out.
        var isbnProblems: [Problem] = []
        for column in isbn where column < fields.count {
            do {
                if let isbn = try FieldParsing.isbn(fields[column]) {
                    record.isbn = isbn
                    isbnProblems = []
                    break
                }
            } catch {
                isbnProblems.append(Problem(column: column + 1, columnName: header[column], reason: error.reason))
            }
        }
        for problem in isbnProblems { warn(problem) }
        return record

        func parse<T>(
            _ column: Int, _ parser: (String) throws(FieldParsing.FieldProblem) -> T?
        ) throws(Problem) -> T? {
            do {
                return try parser(fields[column])
            } catch {
                throw Problem(column: column + 1, columnName: header[column], reason: error.reason)
            }
        }
    }
}
