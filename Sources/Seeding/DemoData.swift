import Library

/// The built-in demo catalog and clients, embedded from `seed/` at build time (see the EmbedFiles plugin), so
/// `librarycli seed` works from any directory.
///
/// For example:
///
///     DemoData.books.count    // 49
///     DemoData.clients.first  // John Doe, C-0001, the default client
public enum DemoData {
    /// The embedded files, parsed and validated (in name order: `books.csv`, `clients.csv`).
    ///
    ///     DemoData.files.map(\.name)  // ["books.csv", "clients.csv"]
    public static let files: [CatalogFile] = EmbeddedSeed.files.map { file in
        let bytes = Array(file.text.utf8)
        do {
            return try CatalogFile.parse(
                bytes, name: file.name, format: CatalogFormat.detect(path: file.name, bytes: bytes))
        } catch {
            // The seed files are checked by the tests; a bad one is a build mistake, not user input.
            preconditionFailure("the embedded seed file is invalid: \(error)")
        }
    }

    /// The demo books.
    ///
    ///     DemoData.books.first?.title  // "The Odyssey"
    public static var books: [BookRecord] { files.flatMap(\.books) }

    /// The demo clients.
    ///
    ///     DemoData.clients.map(\.name)  // ["John Doe", "Jane Roe", "Lucía García", "Kenji Sato"]
    public static var clients: [ClientRecord] { files.flatMap(\.clients) }

    /// The demo clients' PINs, hashed once per process (Argon2id is slow) the first time they are needed, outside
    /// any write transaction (see `CatalogImport.firstUse`): by card number.
    ///
    ///     let hashes = try DemoData.pinHashes()  // ["C-0001": ..., ...]
    public static func pinHashes() throws -> [String: PINHash] {
        try hashedPINs.get()
    }

    private static let hashedPINs: Result<[String: PINHash], AuthError> = Result { () throws(AuthError) in
        try CatalogImport.hashPINs(files)
    }
}
