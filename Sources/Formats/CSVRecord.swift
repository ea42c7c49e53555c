// MARK: - Limits

/// Bounds that keep a hostile CSV file from exhausting memory.
///
/// For example:
///
///     let limits = CSVLimits(maxFieldBytes: 64 * 1024, maxColumns: 100)
///     var reader = try CSVReader(bytes: bytes, limits: limits)
public struct CSVLimits: Hashable, Sendable {
    /// The largest field accepted, in bytes (after removing quotes). Defaults to 1 MiB.
    public var maxFieldBytes: Int
    /// The most columns a row (including the header) may have. Defaults to 10,000.
    public var maxColumns: Int

    /// Creates limits; the defaults are 1 MiB per field and 10,000 columns.
    ///
    ///     CSVLimits()  // 1 MiB fields, 10,000 columns
    public init(maxFieldBytes: Int = 1 << 20, maxColumns: Int = 10_000) {
        precondition(maxFieldBytes > 0 && maxColumns > 0, "CSV limits must be positive")
        self.maxFieldBytes = maxFieldBytes
        self.maxColumns = maxColumns
    }
}

// MARK: - Header

/// The names in a CSV file's first row, with lookup from name to column index.
///
/// For example:
///
///     let reader = try CSVReader(string: "title,author\n")
///     reader.header.names            // ["title", "author"]
///     reader.header.index(of: "author")  // 1
public struct CSVHeader: Hashable, Sendable {
    /// The column names, in file order.
    public let names: [String]
    private let indexes: [String: Int]

    /// Creates a header from distinct names; empty names (any number of them) name no column.
    ///
    ///     CSVHeader(names: ["title", "author", ""])
    public init(names: [String]) {
        var indexes: [String: Int] = [:]
        for (index, name) in names.enumerated() where !name.isEmpty {
            precondition(indexes.updateValue(index, forKey: name) == nil, "duplicate CSV header name \(name)")
        }
        self.names = names
        self.indexes = indexes
    }

    /// The number of columns.
    ///
    ///     CSVHeader(names: ["a", "b"]).count  // 2
    public var count: Int { names.count }

    /// The 0-based index of the column called `name`, or nil when there is none.
    ///
    ///     header.index(of: "title")  // 0
    public func index(of name: String) -> Int? {
        indexes[name]
    }

    /// Compares the names only.
    public static func == (lhs: CSVHeader, rhs: CSVHeader) -> Bool {
        lhs.names == rhs.names
    }

    /// Hashes the names only.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(names)
    }
}

// MARK: - Record

/// One CSV row after the header: its fields as strings and the line it starts on.
///
/// For example:
///
///     var reader = try CSVReader(string: "title,year\nDune,1965\n")
///     let record = try reader.next()!
///     record["title"]  // "Dune"
///     record[1]        // "1965"
///     record.line      // 2
public struct CSVRecord: Hashable, Sendable {
    /// The 1-based physical line where the record starts.
    public let line: Int
    /// The fields, one per header column, unquoted and decoded.
    public let fields: [String]
    /// The header of the file the record comes from.
    public let header: CSVHeader

    /// Creates a record; the reader makes these.
    ///
    ///     CSVRecord(line: 2, fields: ["Dune"], header: CSVHeader(names: ["title"]))
    public init(line: Int, fields: [String], header: CSVHeader) {
        self.line = line
        self.fields = fields
        self.header = header
    }

    /// The field at a 0-based column index.
    ///
    ///     record[0]  // "Dune"
    public subscript(index: Int) -> String {
        fields[index]
    }

    /// The field in the column called `name`, or nil when the header has no such column.
    ///
    ///     record["title"]  // "Dune"
    public subscript(name: String) -> String? {
        guard let index = header.index(of: name), index < fields.count else { return nil }
        return fields[index]
    }
}
