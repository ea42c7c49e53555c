/// The exit codes of `librarycli`, from sysexits.h where one fits. Documented in `--help` and the README.
///
/// For example:
///
///     ExitCode.refused.rawValue  // 1
public enum ExitCode: Int32, Sendable, CaseIterable {
    /// The command did what was asked.
    case success = 0
    /// A library rule refused it (already on loan, limit reached, not yours) or the book or client is unknown.
    case refused = 1
    /// The command line is wrong (EX_USAGE).
    case usage = 64
    /// An input file holds bad data (EX_DATAERR).
    case dataError = 65
    /// An input file is missing or unreadable (EX_NOINPUT).
    case noInput = 66
    /// `serve` cannot listen: the address is in use or not allowed, or the process is out of file descriptors
    /// (EX_UNAVAILABLE).
    case cannotListen = 69
    /// An internal error: a bug in librarycli (EX_SOFTWARE).
    case internalError = 70
    /// The database cannot be created, opened or written, or is not a librarycli database (EX_CANTCREAT).
    case cannotWrite = 73
    /// Standard output or an output file could not be written: a full disk, an I/O error (EX_IOERR).
    case ioError = 74
    /// The database stayed busy beyond the timeout; try again (EX_TEMPFAIL).
    case busy = 75

    /// One line a person reads in `--help` and the README.
    ///
    ///     ExitCode.busy.meaning  // "the database stayed busy beyond the timeout; try again"
    public var meaning: String {
        switch self {
        case .success: "success"
        case .refused: "refused by a library rule, or no such book or client"
        case .usage: "usage error: the command line is wrong"
        case .dataError: "bad data in an input file (nothing was imported)"
        case .noInput: "an input file is missing or unreadable"
        case .cannotListen: "serve cannot listen: the address is in use or not allowed, or too many open files"
        case .internalError: "internal error: a bug in librarycli, please report it"
        case .cannotWrite: "the database cannot be created, opened or written, or is not a librarycli database"
        case .ioError: "standard output or an output file could not be written (a full disk, an I/O error)"
        case .busy: "the database stayed busy beyond the timeout; try again"
        }
    }
}
