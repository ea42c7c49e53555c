/// A typed value carried for scripts and app fronts (the JSON document), such as a book's numeric id.
///
/// For example:
///
///     let value: FieldValue = .int(12)
public enum FieldValue: Hashable, Sendable {
    case null
    case bool(Bool)
    case int(Int)
    case double(Double)
    case string(String)
}

/// A named value of an item or supplementary, kept in order, for the JSON document.
///
/// For example:
///
///     let field = Field("bookId", .int(12))
public struct Field: Hashable, Sendable {
    /// The key, in lower camel case, such as `bookId`.
    public var key: String
    /// The value.
    public var value: FieldValue

    /// Creates a field.
    ///
    ///     Field("dueAt", .string("2026-12-13T10:00:00Z"))
    public init(_ key: String, _ value: FieldValue) {
        self.key = key
        self.value = value
    }
}
