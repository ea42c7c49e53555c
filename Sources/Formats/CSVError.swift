/// A problem found while reading CSV, with where it sits in the file.
///
/// For example:
///
///     do {
///         var reader = try CSVReader(string: "a,b\n1,2,3\n")
///         while let record = try reader.next() { print(record.fields) }
///     } catch let error as CSVError {
///         print(error)  // line 2, field 3 (byte 5): row has 3 fields, header has 2
///     }
public struct CSVError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What went wrong.
    public enum Reason: Hashable, Sendable, CustomStringConvertible {
        /// The file has no header row (it is empty, or holds only a byte order mark or blank lines).
        case missingHeader
        /// A header name appears twice.
        case duplicateHeaderName(String)
        /// A quoted field is still open at the end of the file.
        case unterminatedQuotedField
        /// A `"` appears inside a field that did not start with a quote.
        case quoteInUnquotedField
        /// Something other than a comma or line break follows a closing quote.
        case charactersAfterClosingQuote
        /// A carriage return outside quotes that is not followed by a line feed.
        case bareCarriageReturn
        /// A row has a different number of fields than the header.
        case fieldCountMismatch(found: Int, expected: Int)
        /// A field's bytes are not valid UTF-8.
        case invalidUTF8
        /// A NUL (zero) byte, which never belongs in a text file.
        case nulByte
        /// A field is larger than the reader's limit, in bytes.
        case fieldTooLarge(limit: Int)
        /// A row has more columns than the reader's limit.
        case tooManyColumns(limit: Int)

        /// A plain-language explanation, such as `row has 5 fields, header has 7`.
        public var description: String {
            switch self {
            case .missingHeader: "the file has no header row"
            case .duplicateHeaderName(let name): "header name \"\(name)\" appears more than once"
            case .unterminatedQuotedField: "quoted field is not closed before the end of the file"
            case .quoteInUnquotedField:
                "a quote (\") inside a field that is not quoted; quote the field and double the quote"
            case .charactersAfterClosingQuote: "characters after a closing quote; expected a comma or a line break"
            case .bareCarriageReturn: "a carriage return (CR) not followed by a line feed; lines must end in LF or CRLF"
            case .fieldCountMismatch(let found, let expected):
                "row has \(found) \(found == 1 ? "field" : "fields"), header has \(expected)"
            case .invalidUTF8: "invalid UTF-8"
            case .nulByte: "a NUL byte"
            case .fieldTooLarge(let limit): "field is larger than \(limit) bytes"
            case .tooManyColumns(let limit): "row has more than \(limit) columns"
            }
        }
    }

    /// The 1-based physical line where the problem sits (for an unclosed quote: where the quoted field opens;
    /// for a wrong field count: where the record starts).
    public var line: Int
    /// The 1-based index of the field (column) concerned: for a short row, the first one missing; for a long row, the
    /// first one past the header.
    public var field: Int
    /// The 1-based byte column within `line` where the problem sits.
    public var byteColumn: Int
    /// What went wrong.
    public var reason: Reason

    /// Creates an error.
    ///
    ///     CSVError(line: 2, field: 1, byteColumn: 1, reason: .nulByte)
    public init(line: Int, field: Int, byteColumn: Int, reason: Reason) {
        self.line = line
        self.field = field
        self.byteColumn = byteColumn
        self.reason = reason
    }

    /// The error as one line: `line 2, field 3 (byte 5): row has 3 fields, header has 2`.
    public var description: String {
        "line \(line), field \(field) (byte \(byteColumn)): \(reason)"
    }
}
