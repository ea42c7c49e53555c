import CSQLite

extension Database {
    /// Defines (or redefines) a deterministic SQL function of one text argument on this connection: `body` maps
    /// the argument's text to a text result; NULL gives NULL. Defined per connection, so SQL that uses it (a
    /// migration's backfill, a check) runs only where it was defined.
    ///
    /// ```swift
    /// try db.defineFunction("shout") { $0.uppercased() }
    /// try db.fetchOne("SELECT shout('hi')") { $0.string(0) }  // "HI"
    /// ```
    public func defineFunction(_ name: String, _ body: @escaping @Sendable (String) -> String) throws {
        let box = Unmanaged.passRetained(TextFunction(body)).toOpaque()
        let code = sqlite3_create_function_v2(
            connection.handle, name, 1, SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS, box,
            { context, count, arguments in
                guard let context, count == 1, let argument = arguments?[0],
                    sqlite3_value_type(argument) != SQLITE_NULL
                else {
                    sqlite3_result_null(context)
                    return
                }
                let function = Unmanaged<TextFunction>.fromOpaque(sqlite3_user_data(context)).takeUnretainedValue()
                let length = Int(sqlite3_value_bytes(argument))
                let text =
                    sqlite3_value_text(argument).map {
                        String(decoding: UnsafeBufferPointer(start: $0, count: length), as: UTF8.self)
                    } ?? ""
                var result = function.body(text)
                result.withUTF8 { bytes in
                    sqlite3_result_text64(
                        context, bytes.baseAddress.map { UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self) },
                        sqlite3_uint64(bytes.count), librarycli_sqlite3_transient(), UInt8(SQLITE_UTF8))
                }
            }, nil, nil,
            { box in
                if let box { Unmanaged<TextFunction>.fromOpaque(box).release() }
            })
        guard code == SQLITE_OK else {
            // sqlite3_create_function_v2 calls the destructor itself when it fails.
            throw SQLiteError(code: code, message: "cannot define the SQL function \(name)")
        }
    }
}

/// The Swift body of a function defined with `defineFunction`, kept alive by SQLite until it is redefined or the
/// connection closes.
private final class TextFunction {
    let body: @Sendable (String) -> String

    init(_ body: @escaping @Sendable (String) -> String) {
        self.body = body
    }
}
