import Library
import Seeding

/// `seed`, `import` and `export`.
enum CatalogCommands {
    static func seed(_ context: CommandContext) throws -> ExitCode {
        throw InternalError("seed is not wired yet")
    }

    static func importFile(_ context: CommandContext) throws -> ExitCode {
        throw InternalError("import is not wired yet")
    }

    static func export(_ context: CommandContext) throws -> ExitCode {
        throw InternalError("export is not wired yet")
    }
}

/// The demo catalog on a new database.
enum DemoSeeding {
    static func seed(into store: LibraryStore, now: Timestamp) throws -> String {
        throw InternalError("seeding is not wired yet")
    }
}

/// Input-file errors: bad data (65) or a missing or unreadable file (66).
struct InputFailure {
    var message: String
    var code: ExitCode
    init?(_ error: any Error) {
        return nil
    }
}
