import Library
import LibraryCLI

#if canImport(Glibc)
    import Glibc
#endif

// The process's inputs, read once here and passed in: nothing below reads global state.
var environment: [String: String] = [:]
do {
    var entry = environ
    while let pointer = entry.pointee {
        // The name ends at the first "=" byte (as the C library reads it), whatever follows it.
        let pair = String(cString: pointer).utf8
        if let equals = pair.firstIndex(of: UInt8(ascii: "=")) {
            environment[String(Substring(pair[..<equals]))] = String(Substring(pair[pair.index(after: equals)...]))
        }
        entry += 1
    }
}
// A closed pipe (`librarycli list | head -1`) must end writes quietly (EPIPE, then exit 0), not kill the process; a
// file size limit (`ulimit -f`) must fail the write (EFBIG) with a message, not kill the process mid-transaction:
// exit 73 for the database, 74 for standard output or an export file. LibraryCommandLine checks standard output
// at the end, so the process exits only after every write was checked.
signal(SIGPIPE, SIG_IGN)
signal(SIGXFSZ, SIG_IGN)
exit(
    LibraryCommandLine.main(
        arguments: Array(CommandLine.arguments.dropFirst()), environment: environment,
        accountHome: UserAccount.homeDirectory, console: .standard(), systemNow: Timestamp.systemNow()))
