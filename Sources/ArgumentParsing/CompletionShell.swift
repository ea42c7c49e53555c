// MARK: - CompletionShell

/// A shell for which a completion script can be generated.
///
/// ```swift
/// let script = parser.completionScript(for: .bash)
/// ```
public enum CompletionShell: String, CaseIterable, Equatable, Sendable {
    /// GNU bash: `source <(librarycli completion bash)`.
    case bash
    /// zsh: save as `_librarycli` on `$fpath`, or `source <(librarycli completion zsh)` after `compinit`.
    case zsh
    /// fish: `librarycli completion fish > ~/.config/fish/completions/librarycli.fish`.
    case fish
}

extension ArgumentParser {
    /// A completion script for `shell` covering every command, subcommand, option and allowed value of the spec.
    ///
    /// ```swift
    /// print(parser.completionScript(for: .zsh), terminator: "")
    /// ```
    public func completionScript(for shell: CompletionShell) -> String {
        let model = CompletionModel(root: root)
        switch shell {
        case .bash: return BashCompletion(model: model).script
        case .zsh: return ZshCompletion(model: model).script
        case .fish: return FishCompletion(model: model).script
        }
    }
}

// MARK: - CompletionModel

/// The spec flattened into one entry per command path, as the script generators need it.
struct CompletionModel {
    struct Entry {
        /// The path joined with spaces, `""` for the root.
        var key: String
        var command: CommandSpec
        /// Own options, then globals not shadowed, then built-ins as plain specs.
        var options: [OptionSpec]
        /// Subcommand names with their abstracts (plus the built-in `help` where there are subcommands).
        var subcommands: [(name: String, abstract: String)]
        /// Allowed values of the command's positional arguments.
        var argumentValues: [String]
        /// Whether a positional argument names a file (`<path>`, `<file>`): file names are offered for it.
        var argumentsWantFiles: Bool
        /// The command's own options and, when it has a default subcommand, that subcommand's (`books --search`
        /// is `books list --search`): the first of a name wins.
        var ownOptions: [OptionSpec]
    }

    var program: String
    var entries: [Entry]
    var globals: [OptionSpec]

    init(root: CommandSpec) {
        program = root.name
        entries = []
        let builtIns =
            [OptionSpec.flag("help", short: "h", help: "Show help information.")]
            + (root.version == nil ? [] : [OptionSpec.flag("version", help: "Show the version.")])
        globals = root.globalOptions + builtIns
        var pending: [([String], CommandSpec)] = [([], root)]
        while !pending.isEmpty {
            let (path, command) = pending.removeFirst()
            let defaultOptions =
                command.defaultSubcommand.flatMap { name in command.subcommands.first { $0.name == name } }?.options
                ?? []
            var ownOptions: [OptionSpec] = []
            for option in command.options + defaultOptions where !ownOptions.contains(where: { $0.name == option.name })
            {
                ownOptions.append(option)
            }
            let globalOptions = globals.filter { global in !ownOptions.contains { $0.name == global.name } }
            var subcommands = command.subcommands.map { ($0.name, $0.abstract) }
            if command.hasBuiltInHelp {
                subcommands.append(("help", CommandSpec.builtInHelp.abstract))
            }
            entries.append(
                Entry(
                    key: path.joined(separator: " "), command: command, options: ownOptions + globalOptions,
                    subcommands: subcommands, argumentValues: command.arguments.flatMap(\.allowedValues),
                    argumentsWantFiles: command.arguments.contains(where: Self.wantsFiles), ownOptions: ownOptions))
            pending += command.subcommands.map { (path + [$0.name], $0) }
        }
    }

    /// The name used for shell functions, e.g. `_librarycli`.
    var functionName: String {
        "_" + String(program.map { $0.isLetter || $0.isNumber ? $0 : "_" })
    }

    /// Whether values of the option are best completed with file names.
    static func wantsFiles(_ option: OptionSpec) -> Bool {
        let name = option.valueName.lowercased()
        return option.allowedValues.isEmpty && (name.contains("path") || name.contains("file") || name == "dir")
    }

    /// Whether a positional argument is best completed with file names: its name says it is a path or a file.
    static func wantsFiles(_ argument: ArgumentSpec) -> Bool {
        let name = argument.name.lowercased()
        return argument.allowedValues.isEmpty && (name.contains("path") || name.contains("file"))
    }

    /// `text` in POSIX single quotes (bash, zsh).
    static func posixQuoted(_ text: String) -> String {
        var quoted = "'"
        for character in text {
            quoted += character == "'" ? "'\\''" : String(character)
        }
        return quoted + "'"
    }

    /// `text` in fish single quotes, where `\` and `'` are escaped with a backslash.
    static func fishQuoted(_ text: String) -> String {
        var quoted = "'"
        for character in text {
            if character == "'" || character == "\\" { quoted.append("\\") }
            quoted.append(character)
        }
        return quoted + "'"
    }

    /// The first line of a help text, for one-line descriptions.
    static func summary(_ text: String) -> String {
        String(text.split(separator: "\n").first ?? "")
    }
}
