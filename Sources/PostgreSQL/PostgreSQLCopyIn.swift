/// The rows of a `COPY ... FROM STDIN` in progress (`PostgreSQLConnection.copy`), sent in COPY's text format in
/// blocks of about 64 KiB.
///
/// ```swift
/// try connection.copy("COPY settings (key, value) FROM STDIN") { copy in
///     try copy.row(["default_client", "1"])
/// }
/// ```
public struct PostgreSQLCopyIn {
    let connection: PostgreSQLConnection
    private var buffer: [UInt8] = []

    init(connection: PostgreSQLConnection) {
        self.connection = connection
        buffer.reserveCapacity(1 << 16 + 4096)
    }

    /// Adds one row: a value a column, nil for NULL. Tabs, newlines, carriage returns and backslashes in values are
    /// escaped, so any text goes through unchanged.
    ///
    /// ```swift
    /// try copy.row(["Ann", nil, "2026-11-29T14:40:00Z"])
    /// ```
    public mutating func row(_ values: [String?]) throws {
        for (index, value) in values.enumerated() {
            if index > 0 { buffer.append(UInt8(ascii: "\t")) }
            guard let value else {
                buffer.append(UInt8(ascii: "\\"))
                buffer.append(UInt8(ascii: "N"))
                continue
            }
            for byte in value.utf8 {
                switch byte {
                case UInt8(ascii: "\\"): buffer.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
                case UInt8(ascii: "\t"): buffer.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
                case UInt8(ascii: "\n"): buffer.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
                case UInt8(ascii: "\r"): buffer.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
                default: buffer.append(byte)
                }
            }
        }
        buffer.append(UInt8(ascii: "\n"))
        if buffer.count >= 1 << 16 { try flush() }
    }

    mutating func flush() throws {
        guard !buffer.isEmpty else { return }
        try connection.putCopyData(buffer)
        buffer.removeAll(keepingCapacity: true)
    }
}
