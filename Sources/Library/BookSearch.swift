/// A search of the catalog: the user's text, trimmed and checked against the library's limit.
///
/// Empty or white-space-only text is no search at all; text longer than `maxLength` is refused.
///
/// ```swift
/// let search = try BookSearch("  tolkien hobbit ")  // text "tolkien hobbit"
/// try BookSearch("   ")                             // nil: the whole library
/// ```
public struct BookSearch: Sendable, Hashable {
    /// The longest search text the library takes: 200 characters (Unicode code points), white space around it
    /// not counted.
    ///
    /// ```swift
    /// BookSearch.maxLength  // 200
    /// ```
    public static let maxLength = 200

    /// The text as the user typed it, without white space around it.
    public let text: String

    /// The search for `text`; nil when it is empty or only white space. Throws `LibraryError.invalidInput` when
    /// it is longer than `maxLength`.
    ///
    /// ```swift
    /// let search = try BookSearch("garcía márquez")
    /// ```
    public init?(_ text: String) throws(LibraryError) {
        let text = trimmed(text)
        guard !text.isEmpty else { return nil }
        guard let problem = Self.lengthProblem(text) else {
            self.text = text
            return
        }
        throw LibraryError.invalidInput("Search text must be \(problem).")
    }

    /// Nil when `text` (trimmed) is short enough, else what is wrong with it: "at most 200 characters (this one
    /// has 201)". For front ends that report the problem in their own words before opening the library.
    ///
    /// ```swift
    /// BookSearch.lengthProblem("dune")  // nil
    /// ```
    public static func lengthProblem(_ text: String) -> String? {
        let length = trimmed(text).unicodeScalars.count
        guard length > maxLength else { return nil }
        return "at most \(maxLength) characters (this one has \(length))"
    }
}
