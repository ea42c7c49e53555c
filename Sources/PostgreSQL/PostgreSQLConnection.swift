import CLibPQ

#if canImport(Glibc)
    import Glibc
#endif

/// One connection to a PostgreSQL server, through libpq, speaking the text format both ways.
///
/// Statements run through `execute`, `fetchAll`, `fetchOne` and `forEachRow` are prepared once per connection and
/// reused (named by their SQL text). Parameters are `$1`, `$2`... or `?` (numbered in order; see
/// `numberingPlaceholders`), bound as text, never spliced into the SQL. Like libpq's `PGconn`, a connection belongs
/// to one thread at a time. Notices from the server are dropped rather than written to stderr.
///
/// ```swift
/// let connection = try PostgreSQLConnection(url: "postgresql:///library?host=/run/postgresql")
/// try connection.execute("INSERT INTO clients (name, card_number, created_at) VALUES (?, ?, now())", ["Ann", "C-1"])
/// let names = try connection.fetchAll("SELECT name FROM clients ORDER BY id") { $0.string(0) }
/// ```
public final class PostgreSQLConnection {
    let handle: OpaquePointer
    private var prepared: [String: String] = [:]
    /// The rows this connection's INSERT, UPDATE, DELETE and COPY statements have written since it opened.
    ///
    /// ```swift
    /// let before = connection.rowsWritten
    /// ```
    public private(set) var rowsWritten = 0
    private var nextStatement = 0
    /// The passwords of the connection string and the one libpq used, longest first: taken out of every message.
    private let secrets: [String]
    /// The user name (role) the connection signed in as.
    ///
    /// ```swift
    /// print(connection.user ?? "-")  // "librarian"
    /// ```
    public let user: String?

    /// Connects with a libpq connection string: a URL (`postgresql://user@host:5432/db`,
    /// `postgresql:///db?host=/run/postgresql`) or `key=value` pairs. Passwords come from the URL, `PGPASSWORD` or
    /// `~/.pgpass`, as libpq reads them. The session is set to UTC, ISO dates and UTF-8.
    /// Throws `PostgreSQLURLError` for a URL whose user name, password and host could be read in more than one way
    /// (an unencoded `@` in a password: see `PostgreSQLConnectionURL.ambiguity(in:)`), before connecting, and
    /// `PostgreSQLError` (`isUnavailable`, `isAuthenticationFailure`, `isNoSuchDatabase`). No message of either
    /// holds a password: every one the connection string holds, or libpq used, is replaced by `***`.
    ///
    /// ```swift
    /// let connection = try PostgreSQLConnection(url: "postgresql://librarian@127.0.0.1:5432/library")
    /// ```
    public init(url: String, applicationName: String = "librarycli") throws {
        if let ambiguity = PostgreSQLConnectionURL.ambiguity(in: url) {
            throw PostgreSQLURLError(message: ambiguity)
        }
        if let problem = libpqLoad.problem {
            throw PostgreSQLError(sqlState: "08001", message: problem)
        }
        var secrets = Self.passwords(in: url)
        // A connection string libpq cannot read is refused as such (08P01), not as a server out of reach.
        var parseError: UnsafeMutablePointer<CChar>?
        if let options = libpq.PQconninfoParse!(url, &parseError) {
            libpq.PQconninfoFree!(options)
        } else {
            let message = parseError.map { Self.oneLine(String(cString: $0)) } ?? "invalid connection string"
            if let parseError { libpq.PQfreemem!(parseError) }
            throw PostgreSQLError(sqlState: "08P01", message: Self.withoutSecrets(message, secrets))
        }
        guard let handle = libpq.PQconnectdb!(url) else {
            throw PostgreSQLError(sqlState: "08001", message: "libpq could not allocate a connection")
        }
        // The password libpq used, wherever it found it (PGPASSWORD, ~/.pgpass).
        if let used = libpq.PQpass!(handle).map({ String(cString: $0) }), !used.isEmpty, !secrets.contains(used) {
            secrets.append(used)
            secrets.sort { $0.count > $1.count }
        }
        guard libpq.PQstatus!(handle) == CONNECTION_OK else {
            let message = Self.withoutSecrets(Self.connectionMessage(handle), secrets)
            libpq.PQfinish!(handle)
            throw PostgreSQLError(sqlState: Self.connectionSQLState(message), message: message)
        }
        self.handle = handle
        self.secrets = secrets
        user = libpq.PQuser!(handle).map { String(cString: $0) }
        var table = libpq
        librarycli_pq_silence_notices(&table, handle)
        try execute(
            script: "SET TimeZone = 'UTC'; SET DateStyle = 'ISO, YMD'; SET client_encoding = 'UTF8'; "
                + "SET application_name = '\(applicationName.filter { $0.isLetter || $0.isNumber || $0 == "-" })'")
    }

    deinit {
        libpq.PQfinish!(handle)
    }

    /// Whether a transaction (or a failed one) is open on the connection.
    ///
    /// ```swift
    /// if !connection.isInTransaction { try connection.execute(script: "BEGIN") }
    /// ```
    public var isInTransaction: Bool {
        let status = libpq.PQtransactionStatus!(handle)
        return status == PQTRANS_INTRANS || status == PQTRANS_INERROR || status == PQTRANS_ACTIVE
    }

    /// Whether the connection is still usable (false once the server went away).
    ///
    /// ```swift
    /// if !connection.isConnected { connection = try PostgreSQLConnection(url: url) }
    /// ```
    public var isConnected: Bool { libpq.PQstatus!(handle) == CONNECTION_OK }

    /// The server's version number, such as 150018 for 15.18.
    ///
    /// ```swift
    /// print(connection.serverVersion >= 150000)
    /// ```
    public var serverVersion: Int { Int(libpq.PQserverVersion!(handle)) }

    /// Runs one or more statements without parameters through the simple query protocol (scripts, `BEGIN`,
    /// `COMMIT`, `SET`, migrations).
    ///
    /// ```swift
    /// try connection.execute(script: "BEGIN; LOCK TABLE books; COMMIT")
    /// ```
    public func execute(script: String) throws {
        _ = try command(script)
    }

    /// Runs `script` as `execute(script:)` does and returns the command tag of its last statement ("COMMIT",
    /// "ROLLBACK", "INSERT 0 1", ...).
    ///
    /// ```swift
    /// if try connection.command("COMMIT") == "ROLLBACK" { print("the transaction had failed") }
    /// ```
    public func command(_ script: String) throws -> String {
        guard let result = libpq.PQexec!(handle, script) else { throw connectionError(sql: script) }
        defer { libpq.PQclear!(result) }
        // PQexec returns the last result; earlier errors stop the script, so this one tells.
        try check(result, sql: script)
        return libpq.PQcmdStatus!(result).map { String(cString: $0) } ?? ""
    }

    /// Runs one statement with parameters; returns the number of rows it changed (or returned).
    ///
    /// ```swift
    /// let changed = try connection.execute("UPDATE books SET status = ? WHERE id = ?", ["lost", "12"])
    /// ```
    @discardableResult
    public func execute(_ sql: String, _ parameters: [String?] = []) throws -> Int {
        let result = try run(sql, parameters)
        return result.affectedRows
    }

    /// Runs a query and decodes every row.
    ///
    /// ```swift
    /// let titles = try connection.fetchAll("SELECT title FROM books WHERE author = ?", ["Tolkien"]) { $0.string(0) }
    /// ```
    public func fetchAll<T>(_ sql: String, _ parameters: [String?] = [], _ decode: (PostgreSQLRow) throws -> T)
        throws -> [T]
    {
        let result = try run(sql, parameters)
        var values: [T] = []
        values.reserveCapacity(result.rowCount)
        for index in 0..<result.rowCount {
            values.append(try decode(PostgreSQLRow(result: result, index: Int32(index))))
        }
        return values
    }

    /// Runs a query and decodes its first row, if any.
    ///
    /// ```swift
    /// let count = try connection.fetchOne("SELECT count(*) FROM books") { $0.int(0) } ?? 0
    /// ```
    public func fetchOne<T>(_ sql: String, _ parameters: [String?] = [], _ decode: (PostgreSQLRow) throws -> T)
        throws -> T?
    {
        let result = try run(sql, parameters)
        guard result.rowCount > 0 else { return nil }
        return try decode(PostgreSQLRow(result: result, index: 0))
    }

    /// Runs a query and calls `body` with each row.
    ///
    /// ```swift
    /// try connection.forEachRow("SELECT id FROM books") { print($0.int(0)) }
    /// ```
    public func forEachRow(_ sql: String, _ parameters: [String?] = [], _ body: (PostgreSQLRow) throws -> Void)
        throws
    {
        let result = try run(sql, parameters)
        for index in 0..<result.rowCount {
            try body(PostgreSQLRow(result: result, index: Int32(index)))
        }
    }

    /// Runs a statement (prepared once per connection) and returns its whole result.
    ///
    /// ```swift
    /// let result = try connection.run("SELECT id FROM books WHERE id > ?", ["10"])
    /// print(result.rowCount)
    /// ```
    public func run(_ sql: String, _ parameters: [String?]) throws -> PostgreSQLResult {
        let name = try statementName(for: sql)
        let result = try withCStrings(parameters) { values in
            libpq.PQexecPrepared!(handle, name, Int32(parameters.count), values, nil, nil, 0)
        }
        guard let result else { throw connectionError(sql: sql) }
        do {
            try check(result, sql: sql)
        } catch {
            libpq.PQclear!(result)
            throw error
        }
        let answer = PostgreSQLResult(owning: result)
        if let tag = libpq.PQcmdStatus!(result), tag.pointee != CChar(UInt8(ascii: "S")) {
            rowsWritten += answer.affectedRows
        }
        return answer
    }

    // MARK: - Statements

    /// `sql` with each `?` outside quotes, identifiers and comments replaced by `$1`, `$2`..., in order, so one SQL
    /// text written with `?` runs on SQLite and PostgreSQL alike. SQL without `?` is returned as it is.
    ///
    /// ```swift
    /// PostgreSQLConnection.numberingPlaceholders("SELECT ? || '?'")  // "SELECT $1 || '?'"
    /// ```
    public static func numberingPlaceholders(_ sql: String) -> String {
        guard sql.utf8.contains(UInt8(ascii: "?")) else { return sql }
        var output: [UInt8] = []
        output.reserveCapacity(sql.utf8.count + 16)
        let bytes = Array(sql.utf8)
        var index = 0
        var number = 0
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "'"), UInt8(ascii: "\""):
                // A quoted literal or identifier, with doubled quotes inside.
                output.append(byte)
                index += 1
                while index < bytes.count {
                    output.append(bytes[index])
                    if bytes[index] == byte {
                        if index + 1 < bytes.count && bytes[index + 1] == byte {
                            output.append(bytes[index + 1])
                            index += 2
                            continue
                        }
                        index += 1
                        break
                    }
                    index += 1
                }
            case UInt8(ascii: "-") where index + 1 < bytes.count && bytes[index + 1] == UInt8(ascii: "-"):
                while index < bytes.count && bytes[index] != UInt8(ascii: "\n") {
                    output.append(bytes[index])
                    index += 1
                }
            case UInt8(ascii: "?"):
                number += 1
                output.append(UInt8(ascii: "$"))
                output.append(contentsOf: String(number).utf8)
                index += 1
            default:
                output.append(byte)
                index += 1
            }
        }
        return String(decoding: output, as: UTF8.self)
    }

    private func statementName(for sql: String) throws -> String {
        if let name = prepared[sql] { return name }
        nextStatement += 1
        let name = "librarycli_\(nextStatement)"
        let text = Self.numberingPlaceholders(sql)
        guard let result = libpq.PQprepare!(handle, name, text, 0, nil) else { throw connectionError(sql: sql) }
        defer { libpq.PQclear!(result) }
        try check(result, sql: sql)
        prepared[sql] = name
        return name
    }

    // MARK: - Notifications

    /// Starts listening on `channel`: a fixed name of letters, digits and underscores (any other throws SQLSTATE
    /// 42602, invalid_name, before reaching the server).
    ///
    /// ```swift
    /// try connection.listen("librarycli_changes")
    /// ```
    public func listen(_ channel: String) throws {
        let isName =
            !channel.isEmpty
            && channel.utf8.allSatisfy {
                $0 == UInt8(ascii: "_") || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains($0 | 0x20)
                    || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0)
            }
        guard isName else {
            throw PostgreSQLError(
                sqlState: "42602", message: "a channel name is letters, digits and underscores", sql: "LISTEN")
        }
        try execute(script: "LISTEN \(channel)")
    }

    /// The notifications that arrived, waiting up to `timeoutMilliseconds` for the first when none is pending.
    /// Throws `PostgreSQLError` (`isUnavailable`) when the connection broke.
    ///
    /// ```swift
    /// for note in try connection.notifications(waitingAtMost: 1_000) { print(note.channel, note.payload) }
    /// ```
    public func notifications(waitingAtMost timeoutMilliseconds: Int) throws -> [PostgreSQLNotification] {
        var arrived = try drainNotifications()
        if arrived.isEmpty && timeoutMilliseconds > 0 {
            var table = libpq
            let ready = librarycli_pq_wait_readable(&table, handle, Int32(clamping: timeoutMilliseconds))
            if ready < 0 { throw connectionError(sql: nil) }
            if ready > 0 { arrived = try drainNotifications() }
        }
        return arrived
    }

    private func drainNotifications() throws -> [PostgreSQLNotification] {
        guard libpq.PQconsumeInput!(handle) == 1 else { throw connectionError(sql: nil) }
        var arrived: [PostgreSQLNotification] = []
        while let notify = libpq.PQnotifies!(handle) {
            arrived.append(
                PostgreSQLNotification(
                    channel: String(cString: notify.pointee.relname), payload: String(cString: notify.pointee.extra),
                    processID: Int(notify.pointee.be_pid)))
            libpq.PQfreemem!(notify)
        }
        return arrived
    }

    // MARK: - COPY

    /// Runs `COPY table (columns) FROM STDIN` and lets `body` send the rows; returns the rows copied. A throw
    /// from `body` ends the copy with an error, so nothing of it is kept.
    ///
    /// ```swift
    /// try connection.copy("COPY clients (name, card_number, created_at) FROM STDIN") { copy in
    ///     try copy.row(["Ann", "C-1", "2026-11-29T14:40:00Z"])
    /// }
    /// ```
    @discardableResult
    public func copy(_ sql: String, _ body: (inout PostgreSQLCopyIn) throws -> Void) throws -> Int {
        guard let start = libpq.PQexec!(handle, sql) else { throw connectionError(sql: sql) }
        let status = libpq.PQresultStatus!(start)
        if status != PGRES_COPY_IN {
            defer { libpq.PQclear!(start) }
            try check(start, sql: sql)
            throw PostgreSQLError(sqlState: "42601", message: "not a COPY FROM STDIN statement", sql: sql)
        }
        libpq.PQclear!(start)
        var copy = PostgreSQLCopyIn(connection: self)
        var failure: Error?
        do {
            try body(&copy)
            try copy.flush()
            guard libpq.PQputCopyEnd!(handle, nil) == 1 else { throw connectionError(sql: sql) }
        } catch {
            failure = error
            _ = libpq.PQputCopyEnd!(handle, "librarycli stopped the copy")
        }
        var rows = 0
        var serverError: Error?
        while let result = libpq.PQgetResult!(handle) {
            do {
                try check(result, sql: sql)
                rows = libpq.PQcmdTuples!(result).flatMap { Int(String(cString: $0)) } ?? rows
                rowsWritten += rows
            } catch {
                serverError = serverError ?? error
            }
            libpq.PQclear!(result)
        }
        if let failure { throw failure }
        if let serverError { throw serverError }
        return rows
    }

    func putCopyData(_ bytes: [UInt8]) throws {
        let sent = bytes.withUnsafeBufferPointer { buffer in
            buffer.baseAddress!.withMemoryRebound(to: CChar.self, capacity: buffer.count) {
                libpq.PQputCopyData!(handle, $0, Int32(buffer.count))
            }
        }
        guard sent == 1 else { throw connectionError(sql: nil) }
    }

    // MARK: - Errors

    func check(_ result: OpaquePointer, sql: String?) throws {
        switch libpq.PQresultStatus!(result) {
        case PGRES_COMMAND_OK, PGRES_TUPLES_OK, PGRES_EMPTY_QUERY, PGRES_COPY_IN, PGRES_SINGLE_TUPLE:
            return
        default:
            func field(_ code: Int32) -> String? {
                guard let value = libpq.PQresultErrorField!(result, code) else { return nil }
                return String(cString: value)
            }
            let state = field(librarycli_pq_diag_sqlstate()) ?? (isConnected ? "XX000" : "08006")
            let message = field(librarycli_pq_diag_message()) ?? Self.connectionMessage(handle)
            throw PostgreSQLError(
                sqlState: state, message: Self.withoutSecrets(message, secrets),
                detail: field(librarycli_pq_diag_detail()).map { Self.withoutSecrets($0, secrets) },
                constraint: field(librarycli_pq_diag_constraint()),
                table: field(librarycli_pq_diag_table()), column: field(librarycli_pq_diag_column()), sql: sql,
                user: user.map { Self.withoutSecrets($0, secrets) })
        }
    }

    func connectionError(sql: String?) -> PostgreSQLError {
        PostgreSQLError(
            sqlState: "08006", message: Self.withoutSecrets(Self.connectionMessage(handle), secrets), sql: sql,
            user: user.map { Self.withoutSecrets($0, secrets) })
    }

    /// libpq's last message on one line (it names the server and the user; callers take out the passwords with
    /// `withoutSecrets`).
    static func connectionMessage(_ handle: OpaquePointer) -> String {
        guard let text = libpq.PQerrorMessage!(handle) else { return "the connection failed" }
        return oneLine(String(cString: text))
    }

    /// A libpq message on one line: its lines as sentences ("Connection refused. Is the server running...?"),
    /// runs of spaces as one ("FATAL:  database" becomes "FATAL: database").
    static func oneLine(_ text: String) -> String {
        var message = ""
        for line in text.split(whereSeparator: \.isNewline).map({ $0.trimmingSpaces() }) where !line.isEmpty {
            if let last = message.last { message += ".?!:".contains(last) ? " " : ". " }
            message += line
        }
        while message.contains("  ") { message = message.replacing("  ", with: " ") }
        return message.isEmpty ? "the connection failed" : message
    }

    /// `message` with every password of `conninfo` replaced by `***`: libpq quotes a URL it cannot read whole,
    /// and a percent-encoded part it cannot decode, password or not.
    ///
    /// ```swift
    /// PostgreSQLConnection.withoutPasswords("bad \"s3cret\"", of: "postgresql://u:s3cret@h/db")  // "bad \"***\""
    /// ```
    public static func withoutPasswords(_ message: String, of conninfo: String) -> String {
        withoutSecrets(message, passwords(in: conninfo))
    }

    static func withoutSecrets(_ message: String, _ secrets: [String]) -> String {
        var text = message
        for secret in secrets where !secret.isEmpty { text = text.replacing(secret, with: "***") }
        return text
    }

    /// The passwords `conninfo` holds, longest first: as libpq reads them, and as written: in a URL's user
    /// information or `password` parameters (as written and percent-decoded, see
    /// `PostgreSQLConnectionURL.passwords(in:)`), or in every `password` pair of `key=value` pairs.
    ///
    /// ```swift
    /// PostgreSQLConnection.passwords(in: "host=db password='a b'")  // ["a b"]
    /// ```
    public static func passwords(in conninfo: String) -> [String] {
        var found: [String] = []
        if libpqLoad.problem == nil {
            var parseError: UnsafeMutablePointer<CChar>?
            if let options = libpq.PQconninfoParse!(conninfo, &parseError) {
                var option = options
                while let keyword = option.pointee.keyword {
                    if PostgreSQLConnectionURL.secretKeys.contains(String(cString: keyword)),
                        let value = option.pointee.val
                    {
                        found.append(String(cString: value))
                    }
                    option += 1
                }
                libpq.PQconninfoFree!(options)
            }
            if let parseError { libpq.PQfreemem!(parseError) }
        }
        if PostgreSQLConnectionURL.isURL(conninfo) {
            found += PostgreSQLConnectionURL.passwords(in: conninfo)
        } else {
            found += keywordValuePairs(conninfo).filter { PostgreSQLConnectionURL.secretKeys.contains($0.key) }.map(
                \.value)
        }
        return Set(found.filter { !$0.isEmpty }).sorted { $0.count > $1.count || $0.count == $1.count && $0 < $1 }
    }

    /// The `key=value` pairs of a libpq connection string, read as libpq reads them: white space around `=`, a
    /// value in single quotes (with `\'` and `\\` inside) or up to white space (with `\` escaping the next
    /// character). Reading stops at the first thing that is not a pair.
    static func keywordValuePairs(_ conninfo: String) -> [(key: String, value: String)] {
        var pairs: [(key: String, value: String)] = []
        var rest = Substring(conninfo)
        func skipSpaces() { rest = rest.drop { $0.isWhitespace } }
        while true {
            skipSpaces()
            let key = rest.prefix { $0 != "=" && !$0.isWhitespace }
            guard !key.isEmpty else { return pairs }
            rest = rest.dropFirst(key.count)
            skipSpaces()
            guard rest.first == "=" else { return pairs }
            rest = rest.dropFirst()
            skipSpaces()
            // A quoted value ends at its closing quote (dropped), a bare one at white space; `\` escapes in both.
            let quoted = rest.first == "'"
            if quoted { rest = rest.dropFirst() }
            var value = ""
            while let character = rest.first, quoted ? character != "'" : !character.isWhitespace {
                rest = rest.dropFirst()
                if character == "\\", let next = rest.first {
                    value.append(next)
                    rest = rest.dropFirst()
                } else {
                    value.append(character)
                }
            }
            if quoted { rest = rest.dropFirst() }
            pairs.append((String(key), value))
        }
    }

    /// An SQLSTATE for a failed connection, from libpq's message (libpq gives none before a session exists).
    /// The words are libpq's own: the names it quotes (a host, a role, a database, a value it cannot read) are left
    /// out first, so a host named `nosuchhost.invalid` is not taken for an invalid connection string. A server that
    /// refuses the SSL the URL asks for (`sslmode=require` against a server without SSL, a certificate that does
    /// not verify) is 08P01 like a connection string libpq cannot read: trying again cannot help.
    static func connectionSQLState(_ text: String) -> String {
        let message = unquoted(text)
        if message.contains("does not support SSL") || message.contains("SSL was required")
            || message.contains("certificate verify failed") || message.contains("server certificate for")
        {
            return "08P01"
        }
        if message.contains("password authentication failed") || message.contains("no password supplied")
            || message.contains("authentication failed")
        {
            return "28P01"
        }
        if message.contains("role") && message.contains("does not exist") { return "28000" }
        if message.contains("database") && message.contains("does not exist") { return "3D000" }
        if message.contains("the database system is starting up") { return "57P03" }
        if message.contains("the database system is shutting down") { return "57P03" }
        if message.contains("too many clients") { return "53300" }
        if message.contains("invalid") || message.contains("missing") && message.contains("=") { return "08P01" }
        return "08001"
    }

    /// `text` without the parts libpq puts in double quotes (`database "x" does not exist` becomes
    /// `database "" does not exist`).
    static func unquoted(_ text: String) -> String {
        var result = ""
        var quoted = false
        for character in text {
            if character == "\"" {
                quoted.toggle()
                result.append(character)
            } else if !quoted {
                result.append(character)
            }
        }
        return result
    }
}

/// A notification received from `LISTEN`.
///
/// ```swift
/// let note = PostgreSQLNotification(channel: "librarycli_changes", payload: "loans", processID: 4242)
/// ```
public struct PostgreSQLNotification: Sendable, Equatable {
    /// The channel it was sent on.
    public var channel: String
    /// Its payload ("" when none).
    public var payload: String
    /// The server process that sent it.
    public var processID: Int

    /// Creates a value.
    ///
    /// ```swift
    /// PostgreSQLNotification(channel: "c", payload: "", processID: 1)
    /// ```
    public init(channel: String, payload: String, processID: Int) {
        self.channel = channel
        self.payload = payload
        self.processID = processID
    }
}

extension Substring {
    fileprivate func trimmingSpaces() -> String {
        var text = self
        while let first = text.first, first == " " || first == "\t" { text.removeFirst() }
        while let last = text.last, last == " " || last == "\t" { text.removeLast() }
        return String(text)
    }
}

/// Calls `body` with the parameters as C strings (NULL for nil) that live for the call.
func withCStrings<R>(_ values: [String?], _ body: ([UnsafePointer<CChar>?]) throws -> R) rethrows -> R {
    var pointers: [UnsafeMutablePointer<CChar>?] = []
    pointers.reserveCapacity(values.count)
    defer { for pointer in pointers { free(pointer) } }
    for value in values {
        pointers.append(value.map { strdup($0) })
    }
    return try body(pointers.map { UnsafePointer($0) })
}
