/// Bad data inside an input file (the CLI's exit code 65): where it is and why. Nothing is imported when a file
/// has one.
///
/// For example:
///
///     do {
///         _ = try CatalogFile.read(path: "books.csv")
///     } catch let error as DataError {
///         print(error)  // "books.csv: line 12, column 3 (year): '19x7' is not a year (...)"
///     }
public struct DataError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The file's name as given.
    public var file: String
    /// The 1-based line, when known.
    public var line: Int?
    /// The 1-based CSV column, when known.
    public var column: Int?
    /// The CSV column's header name or the JSON key, when known.
    public var field: String?
    /// What is wrong, in plain words.
    public var reason: String

    /// Creates an error.
    ///
    ///     DataError(file: "books.csv", line: 12, column: 3, field: "year", reason: "'19x7' is not a year")
    public init(file: String, line: Int? = nil, column: Int? = nil, field: String? = nil, reason: String) {
        self.file = file
        self.line = line
        self.column = column
        self.field = field
        self.reason = reason
    }

    /// One line: `books.csv: line 12, column 3 (year): ...` or `books.json: line 4, key "year": ...`.
    public var description: String {
        var parts: [String] = []
        if let line { parts.append("line \(line)") }
        switch (column, field) {
        case (let column?, let field?): parts.append("column \(column) (\(field))")
        case (let column?, nil): parts.append("column \(column)")
        case (nil, let field?): parts.append("key \"\(field)\"")
        case (nil, nil): break
        }
        guard !parts.isEmpty else { return "\(file): \(reason)" }
        return "\(file): \(parts.joined(separator: ", ")): \(reason)"
    }
}
