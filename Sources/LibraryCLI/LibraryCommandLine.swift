import ArgumentParsing
import Library

/// The `librarycli` program as a function: arguments, environment, console and the clock in; an exit code out.
///
/// Nothing here reads global state: `main.swift` passes the process's arguments, environment, standard streams and
/// the system time, and tests pass their own.
///
/// For example:
///
///     let console = Console.captured()
///     let code = LibraryCommandLine.main(
///         arguments: ["--db", "/tmp/library.sqlite", "take", "12"], environment: [:], console: console,
///         systemNow: Timestamp.systemNow())
public enum LibraryCommandLine {
    /// The parser of the command line declared in `CommandLineSpec`.
    public static let parser = ArgumentParser(root: CommandLineSpec.root)

    /// Runs one command line and returns the process's exit code.
    ///
    /// - parameter arguments: the words after the program name.
    /// - parameter environment: the process environment (`LIBRARY_DB`, `LIBRARY_CLIENT`, `LIBRARY_NOW`, ...).
    /// - parameter accountHome: looks up the user's home directory in the password database; called only when
    ///   `HOME` is unset or empty and the default database is used.
    /// - parameter console: where data and messages go.
    /// - parameter systemNow: the time now, unless `LIBRARY_NOW` says otherwise.
    ///
    ///     exit(LibraryCommandLine.main(arguments: ["list"], environment: env,
    ///                                  accountHome: UserAccount.homeDirectory, console: .standard(),
    ///                                  systemNow: Timestamp.systemNow()))
    public static func main(
        arguments: [String], environment: [String: String], accountHome: () -> String?, console: Console,
        systemNow: Timestamp
    ) -> Int32 {
        let code = runCommandLine(
            arguments: arguments, environment: environment, accountHome: accountHome, console: console,
            systemNow: systemNow)
        return finish(code, console: console)
    }

    /// Checks standard output at the end: a failed write is an error (exit 74) unless the reader of a pipe went away,
    /// which ends the command quietly. A command that already failed keeps its own code.
    static func finish(_ code: Int32, console: Console) -> Int32 {
        // A command that reported the failure itself (with what became of its change) returned its own code.
        guard let error = console.finishOutput(), !error.isClosedPipe, !console.isOutputErrorReported else {
            return code
        }
        console.err("Error: cannot write to standard output: \(error.reason).\n")
        return code == ExitCode.success.rawValue ? ExitCode.ioError.rawValue : code
    }

    // MARK: - Dispatch

    private static func runCommandLine(
        arguments: [String], environment: [String: String], accountHome: () -> String?, console: Console,
        systemNow: Timestamp
    ) -> Int32 {
        // Help and errors are laid out before (or instead of) parsing, by the rule the screen uses.
        let width = OutputWidth(
            arguments: arguments, environment: environment, terminalWidth: console.terminalWidth,
            errorTerminalWidth: console.errorTerminalWidth)
        // A usage error is a message: folded only when the width is known, one line per sentence in a file or pipe.
        let errorWidth = width.errorMessageWidth ?? .max
        let outcome = parser.parse(arguments)
        guard case .command(let parsed) = outcome else {
            let outputWidth = if case .failure = outcome { errorWidth } else { width.columns }
            if let output = parser.output(for: outcome, width: outputWidth) { emit(output, to: console) }
            if case .failure(let error) = outcome { return error.exitCode }
            return ExitCode.success.rawValue
        }
        do {
            let options = try GlobalOptions(
                parsed, environment: environment, accountHome: accountHome, console: console)
            let context = CommandContext(
                parsed: parsed, options: options, environment: environment, console: console, systemNow: systemNow)
            return try run(context).rawValue
        } catch is Console.OutputError {
            return ExitCode.success.rawValue  // a command stopped at a failed write to stdout: `finish` reports it
        } catch let failure as OutputFailure {
            console.reportOutputError(failure.error, consequence: failure.consequence)
            return ExitCode.ioError.rawValue
        } catch let error as UsageError {
            emit(parser.output(for: error, width: errorWidth), to: console)
            return error.exitCode
        } catch {
            let failure = Failure(error)
            console.err(CommandText.message("Error: " + failure.message, width: width.errorMessageWidth))
            return failure.code.rawValue
        }
    }

    static func run(_ context: CommandContext) throws -> ExitCode {
        switch context.parsed.path {
        case [], ["list"]: return try ListCommand.run(context)
        case ["take"]: return try LoanCommands.take(context)
        case ["return"]: return try LoanCommands.returnBooks(context)
        case ["renew"]: return try LoanCommands.renew(context)
        case ["loans"]: return try LoanCommands.loans(context)
        case ["history"]: return try LoanCommands.history(context)
        case ["clients"], ["clients", "list"]: return try ClientCommands.list(context)
        case ["clients", "add"]: return try ClientCommands.add(context)
        case ["clients", "use"]: return try ClientCommands.use(context)
        case ["clients", "pin"]: return try AccessCommands.pin(context)
        case ["tokens"], ["tokens", "list"]: return try AccessCommands.listTokens(context)
        case ["tokens", "create"]: return try AccessCommands.createToken(context)
        case ["tokens", "revoke"]: return try AccessCommands.revokeToken(context)
        case ["books"], ["books", "list"]: return try BookCommands.list(context)
        case ["books", "add"]: return try BookCommands.add(context)
        case ["seed"]: return try CatalogCommands.seed(context)
        case ["import"]: return try CatalogCommands.importFile(context)
        case ["export"]: return try CatalogCommands.export(context)
        case ["migrate"]: return try DatabaseCommands.migrate(context)
        case ["init"]: return try DatabaseCommands.initialize(context)
        case ["copy"]: return try DatabaseCommands.copy(context)
        case ["serve"]: return try ServeCommand.run(context)
        case ["completion"]: return try completion(context)
        default:
            throw InternalError("no command runs for '\(context.parsed.path.joined(separator: " "))'")
        }
    }

    static func completion(_ context: CommandContext) throws -> ExitCode {
        let name = context.parsed.argument("shell") ?? ""
        if context.options.format == .json {
            throw Failure(
                message: "'\(CommandContext.programName) completion' prints a shell script, which has no JSON form: "
                    + "leave out --json and --format.",
                code: .usage)
        }
        guard let shell = CompletionShell(rawValue: name) else {
            throw UsageError(
                .invalidValue(name, for: "<shell>", expected: "bash, zsh or fish"), commandPath: context.parsed.path)
        }
        context.console.out(parser.completionScript(for: shell))
        return .success
    }

    // MARK: - Private

    private static func emit(_ output: ParserOutput, to console: Console) {
        switch output.channel {
        case .standardOutput: console.out(output.text)
        case .standardError: console.err(CommandText.lines(output.text))  // may quote what was typed
        }
    }
}

/// A bug in librarycli: a state the program should never reach. Exit code 70.
struct InternalError: Error {
    var message: String
    init(_ message: String) { self.message = message }
}
