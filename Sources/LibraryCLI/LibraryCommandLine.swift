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
    /// - parameter console: where data and messages go.
    /// - parameter systemNow: the time now, unless `LIBRARY_NOW` says otherwise.
    ///
    ///     exit(LibraryCommandLine.main(arguments: ["list"], environment: env, console: .standard(),
    ///                                  systemNow: Timestamp.systemNow()))
    public static func main(
        arguments: [String], environment: [String: String], console: Console, systemNow: Timestamp
    ) -> Int32 {
        let helpWidth = helpWidth(environment: environment, console: console)
        let outcome = parser.parse(arguments)
        guard case .command(let parsed) = outcome else {
            if let output = parser.output(for: outcome, width: helpWidth) { emit(output, to: console) }
            if case .failure(let error) = outcome { return error.exitCode }
            return ExitCode.success.rawValue
        }
        do {
            let options = try GlobalOptions(parsed, environment: environment, console: console)
            let context = CommandContext(
                parsed: parsed, options: options, environment: environment, console: console, systemNow: systemNow)
            return try run(context).rawValue
        } catch let error as UsageError {
            emit(parser.output(for: error, width: helpWidth), to: console)
            return error.exitCode
        } catch {
            let failure = Failure(error)
            console.err("Error: \(CommandText.line(failure.message))\n")
            return failure.code.rawValue
        }
    }

    // MARK: - Dispatch

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
        case ["books"], ["books", "list"]: return try BookCommands.list(context)
        case ["books", "add"]: return try BookCommands.add(context)
        case ["seed"]: return try CatalogCommands.seed(context)
        case ["import"]: return try CatalogCommands.importFile(context)
        case ["export"]: return try CatalogCommands.export(context)
        case ["migrate"]: return try DatabaseCommands.migrate(context)
        case ["init"]: return try DatabaseCommands.initialize(context)
        case ["completion"]: return try completion(context)
        default:
            throw InternalError("no command runs for '\(context.parsed.path.joined(separator: " "))'")
        }
    }

    static func completion(_ context: CommandContext) throws -> ExitCode {
        let name = context.parsed.argument("shell") ?? ""
        guard let shell = CompletionShell(rawValue: name) else {
            throw UsageError(
                .invalidValue(name, for: "<shell>", expected: "bash, zsh or fish"), commandPath: context.parsed.path)
        }
        context.console.out(parser.completionScript(for: shell))
        return .success
    }

    // MARK: - Private

    private static func helpWidth(environment: [String: String], console: Console) -> Int {
        if let columns = environment["COLUMNS"].flatMap({ Int($0) }), columns >= 20 { return min(columns, 200) }
        return min(max(console.terminalWidth ?? 80, 20), 200)
    }

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
