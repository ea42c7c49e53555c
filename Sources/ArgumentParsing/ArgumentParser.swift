// MARK: - ArgumentParser

/// Parses command lines against a `CommandSpec` tree and renders help, errors and completion scripts from it.
///
/// A value with no global state: build it once from the root spec, then `parse` the arguments (without the program
/// name) and hand anything that is not a command to `output(for:width:)`.
///
/// ```swift
/// let parser = ArgumentParser(root: librarySpec)
/// switch parser.parse(Array(CommandLine.arguments.dropFirst())) {
/// case .command(let parsed):
///     try run(parsed)  // catch UsageError from the typed getters and print parser.output(for: error)
/// case let other:
///     let output = parser.output(for: other)!
///     print(output.text, terminator: "")  // to output.channel
///     exit(output.exitCode)
/// }
/// ```
public struct ArgumentParser: Equatable, Sendable {
    /// The root command: program name, version, global options and subcommands.
    public var root: CommandSpec

    /// Creates a parser for `root`.
    ///
    /// ```swift
    /// let parser = ArgumentParser(root: CommandSpec(name: "librarycli", subcommands: [list, take]))
    /// ```
    public init(root: CommandSpec) {
        self.root = root
    }

    /// Parses `arguments` (the command line without the program name).
    ///
    /// Help requests win over errors: `list --serch x --help` shows the help of `list`.
    ///
    /// ```swift
    /// parser.parse(["take", "12"])  // .command(ParsedCommand(path: ["take"], …))
    /// parser.parse(["help", "take"])  // .help(commandPath: ["take"])
    /// ```
    public func parse(_ arguments: [String]) -> ParseOutcome {
        var run = ParseRun(root: root, tokens: Token.tokenize(arguments))
        return run.parse()
    }
}

// MARK: - ParseOutcome

/// What the command line asked for.
///
/// ```swift
/// if case .command(let parsed) = parser.parse(["list"]) { parsed.path == ["list"] }
/// ```
public enum ParseOutcome: Equatable, Sendable {
    /// Run this command.
    case command(ParsedCommand)
    /// Show help for the command at this path (`[]` for the root).
    case help(commandPath: [String])
    /// Print the version.
    case version
    /// The command line is wrong.
    case failure(UsageError)
}
