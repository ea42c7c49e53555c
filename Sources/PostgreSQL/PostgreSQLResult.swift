import CLibPQ

/// A statement's result, freed when the last reference to it goes (rows keep it alive while they are used).
///
/// ```swift
/// let result = try connection.run("SELECT id, title FROM books", [])
/// for index in 0..<result.rowCount { print(result.row(index).string(1)) }
/// ```
public final class PostgreSQLResult {
    let handle: OpaquePointer

    init(owning handle: OpaquePointer) {
        self.handle = handle
    }

    deinit {
        libpq.PQclear!(handle)
    }

    /// The number of rows returned.
    ///
    /// ```swift
    /// print(result.rowCount)
    /// ```
    public var rowCount: Int { Int(libpq.PQntuples!(handle)) }

    /// The number of rows the command changed (or returned), from its command tag; 0 when it tells none.
    ///
    /// ```swift
    /// print(try connection.run("DELETE FROM settings", []).affectedRows)
    /// ```
    public var affectedRows: Int {
        guard let text = libpq.PQcmdTuples!(handle) else { return 0 }
        return Int(String(cString: text)) ?? 0
    }

    /// Row `index` (0-based).
    ///
    /// ```swift
    /// let first = result.row(0)
    /// ```
    public func row(_ index: Int) -> PostgreSQLRow {
        precondition(index >= 0 && index < rowCount, "row \(index) is out of range")
        return PostgreSQLRow(result: self, index: Int32(index))
    }
}

/// One row of a result, read by 0-based column index in the text format.
///
/// ```swift
/// try connection.forEachRow("SELECT id, title, year FROM books") { row in
///     print(row.int(0), row.string(1), row.intOrNil(2) ?? 0)
/// }
/// ```
public struct PostgreSQLRow {
    let result: PostgreSQLResult
    let index: Int32

    /// The number of columns.
    ///
    /// ```swift
    /// print(row.count)
    /// ```
    public var count: Int { Int(libpq.PQnfields!(result.handle)) }

    /// Whether column `column` is NULL.
    ///
    /// ```swift
    /// if row.isNull(2) { print("no year") }
    /// ```
    public func isNull(_ column: Int) -> Bool { libpq.PQgetisnull!(result.handle, index, Int32(column)) == 1 }

    /// The column's text ("" for NULL).
    ///
    /// ```swift
    /// print(row.string(1))
    /// ```
    public func string(_ column: Int) -> String {
        guard let value = libpq.PQgetvalue!(result.handle, index, Int32(column)) else { return "" }
        return String(cString: value)
    }

    /// The column as an integer (0 for NULL or text that is not one).
    ///
    /// ```swift
    /// let id = row.int(0)
    /// ```
    public func int(_ column: Int) -> Int { Int(int64(column)) }

    /// The column as a 64-bit integer (0 for NULL or text that is not one).
    ///
    /// ```swift
    /// let id = row.int64(0)
    /// ```
    public func int64(_ column: Int) -> Int64 {
        guard let value = libpq.PQgetvalue!(result.handle, index, Int32(column)) else { return 0 }
        var pointer = value
        var negative = false
        if pointer.pointee == CChar(UInt8(ascii: "-")) {
            negative = true
            pointer += 1
        }
        var number: Int64 = 0
        while pointer.pointee >= CChar(UInt8(ascii: "0")) && pointer.pointee <= CChar(UInt8(ascii: "9")) {
            number = number &* 10 &+ Int64(pointer.pointee - CChar(UInt8(ascii: "0")))
            pointer += 1
        }
        return negative ? -number : number
    }

    /// The column as a boolean (`t`/`true`, or a non-zero integer).
    ///
    /// ```swift
    /// if row.bool(0) { print("yes") }
    /// ```
    public func bool(_ column: Int) -> Bool {
        let text = string(column)
        return text == "t" || text == "true" || (Int(text) ?? 0) != 0
    }

    /// The column as a double (0 for NULL).
    ///
    /// ```swift
    /// let rank = row.double(3)
    /// ```
    public func double(_ column: Int) -> Double { Double(string(column)) ?? 0 }

    /// A `bytea` column's bytes (from its `\x` hex text).
    ///
    /// ```swift
    /// let hash = row.bytes(1)
    /// ```
    public func bytes(_ column: Int) -> [UInt8] {
        let text = Array(string(column).utf8)
        guard text.count >= 2, text[0] == UInt8(ascii: "\\"), text[1] == UInt8(ascii: "x") else { return text }
        func nibble(_ byte: UInt8) -> UInt8 {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
            default: 0
            }
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity((text.count - 2) / 2)
        var position = 2
        while position + 1 < text.count {
            bytes.append(nibble(text[position]) << 4 | nibble(text[position + 1]))
            position += 2
        }
        return bytes
    }

    /// The column as an integer, or nil for NULL.
    ///
    /// ```swift
    /// let year = row.intOrNil(2)
    /// ```
    public func intOrNil(_ column: Int) -> Int? { isNull(column) ? nil : int(column) }

    /// The column's text, or nil for NULL.
    ///
    /// ```swift
    /// let isbn = row.stringOrNil(6)
    /// ```
    public func stringOrNil(_ column: Int) -> String? { isNull(column) ? nil : string(column) }
}

/// Bytes written as the text a `bytea` parameter takes (`\x` and hex digits).
///
/// ```swift
/// PostgreSQLBytes.text([0xde, 0xad])  // "\\xdead"
/// ```
public enum PostgreSQLBytes {
    /// `\x` followed by two lower-case hex digits a byte.
    ///
    /// ```swift
    /// let parameter = PostgreSQLBytes.text(hash)
    /// ```
    public static func text(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = [UInt8(ascii: "\\"), UInt8(ascii: "x")]
        text.reserveCapacity(2 + bytes.count * 2)
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}
