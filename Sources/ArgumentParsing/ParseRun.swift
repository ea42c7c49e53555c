// MARK: - ParseRun

/// The state of one parse: walks the tokens, descending into subcommands and collecting values.
struct ParseRun {
    let root: CommandSpec
    let tokens: [Token]
    private var index = 0
    private var path: [String] = []
    private var command: CommandSpec
    private var optionValues: [String: [String]] = [:]
    private var flagCounts: [String: Int] = [:]
    private var positionals: [String] = []
    private var helpRequested = false
    private var versionRequested = false

    init(root: CommandSpec, tokens: [Token]) {
        self.root = root
        self.tokens = tokens
        self.command = root
    }

    // MARK: - Parsing

    mutating func parse() -> ParseOutcome {
        do {
            while index < tokens.count {
                let token = tokens[index]
                index += 1
                if let outcome = try consume(token) { return outcome }
            }
            if helpRequested { return .help(commandPath: path) }
            if versionRequested { return .version }
            if positionals.isEmpty, let name = command.defaultSubcommand { try descend(into: name) }
            return .command(try finish())
        } catch {
            if helpRequested || helpFollows() { return .help(commandPath: path) }
            return .failure(error)
        }
    }

    /// Handles one token; returns an outcome when the token ends parsing (the `help` subcommand).
    private mutating func consume(_ token: Token) throws(UsageError) -> ParseOutcome? {
        switch token {
        case .longOption(let name, let inlineValue):
            try consumeLong(name, inlineValue: inlineValue)
        case .shortOptions(let letters):
            try consumeShort(letters)
        case .value(let word):
            if positionals.isEmpty, command.subcommand(named: word) != nil {
                try descend(into: word)
            } else if positionals.isEmpty, word == "help", command.hasBuiltInHelp {
                return try helpCommand()
            } else if positionals.isEmpty, !command.subcommands.isEmpty, command.arguments.isEmpty {
                guard let name = command.defaultSubcommand, command.subcommand(named: name)?.arguments.isEmpty == false
                else {
                    var names = command.subcommands.map(\.name)
                    if command.hasBuiltInHelp { names.append("help") }
                    throw fail(.unknownCommand(word, suggestion: Suggestions.closest(to: word, among: names)))
                }
                try descend(into: name)
                positionals.append(word)
            } else {
                positionals.append(word)
            }
        case .positional(let word):
            if positionals.isEmpty, command.arguments.isEmpty, let name = command.defaultSubcommand,
                command.subcommand(named: name)?.arguments.isEmpty == false
            {
                try descend(into: name)
            }
            positionals.append(word)
        }
        return nil
    }

    private mutating func consumeLong(_ name: String, inlineValue: String?) throws(UsageError) {
        if let spec = option(named: name) {
            try apply(spec, inlineValue: inlineValue)
        } else if name == "help" || name == "version" && root.version != nil {
            // Built-in flags take no value, as declared flags do: `--help=foo` is refused like `--json=1`.
            if let inlineValue { throw fail(.unexpectedValue(option: "--" + name, value: inlineValue)) }
            if name == "help" { helpRequested = true } else { versionRequested = true }
        } else if let defaultCommand = defaultCommandIfItKnows({ $0.name == name }) {
            try descend(into: defaultCommand)
            try consumeLong(name, inlineValue: inlineValue)
        } else {
            let spellings = availableOptions.map(\.spelling) + builtInSpellings
            throw fail(.unknownOption("--" + name, suggestion: Suggestions.closest(to: "--" + name, among: spellings)))
        }
    }

    private mutating func consumeShort(_ letters: String) throws(UsageError) {
        var rest = Substring(letters)
        while let letter = rest.popFirst() {
            if let spec = availableOptions.first(where: { $0.short == letter }) {
                guard spec.takesValue else {
                    flagCounts[spec.name, default: 0] += 1
                    continue
                }
                try apply(spec, inlineValue: rest.isEmpty ? nil : String(rest))
                return
            } else if letter == "h" {
                helpRequested = true
            } else if let defaultCommand = defaultCommandIfItKnows({ $0.short == letter }) {
                try descend(into: defaultCommand)
                try consumeShort(String(letter) + rest)
                return
            } else {
                let long = letters.count > 1 && rest.count == letters.count - 1 ? "--" + letters : nil
                let spellings = availableOptions.map(\.spelling) + builtInSpellings
                let suggestion = long.flatMap { Suggestions.closest(to: $0, among: spellings) }
                throw fail(.unknownOption("-" + String(letter), suggestion: suggestion))
            }
        }
    }

    /// Records one option occurrence, taking its value from `inlineValue` or the next token.
    private mutating func apply(_ spec: OptionSpec, inlineValue: String?) throws(UsageError) {
        guard spec.takesValue else {
            if let inlineValue { throw fail(.unexpectedValue(option: spec.spelling, value: inlineValue)) }
            flagCounts[spec.name, default: 0] += 1
            return
        }
        guard let value = inlineValue ?? nextValue(anyWord: spec.isFreeText) else {
            throw fail(.missingValue(option: spec.display))
        }
        if !spec.allowedValues.isEmpty, !spec.allowedValues.contains(value) {
            throw fail(.invalidValue(value, for: spec.display, expected: Validation.describe(spec.allowedValues)))
        }
        if spec.kind == .value, optionValues[spec.name] != nil { throw fail(.duplicateOption(spec.spelling)) }
        optionValues[spec.name, default: []].append(value)
    }

    /// The built-in `help [command...]`: every following word names a subcommand of the command `help` was given
    /// to, and the global options may follow too (`help list --width 40`). `help help` and `help --help` show the
    /// help of `help` itself.
    private mutating func helpCommand() throws(UsageError) -> ParseOutcome {
        var target = command
        let start = path.count
        var helpFlag = false
        while index < tokens.count {
            let token = tokens[index]
            index += 1
            switch token {
            case .value(let word), .positional(let word):
                if word == "help", target.hasBuiltInHelp {
                    target = CommandSpec.builtInHelp
                    path.append(word)
                    continue
                }
                guard let next = target.subcommand(named: word) else {
                    var names = target.subcommands.map(\.name)
                    if target.hasBuiltInHelp { names.append("help") }
                    let suggestion = Suggestions.closest(to: word, among: names)
                    throw fail(.unknownCommand(word, suggestion: suggestion))
                }
                target = next
                path.append(word)
            case .longOption("help", nil), .shortOptions("h"):
                helpFlag = true
            case .longOption(let name, let inlineValue):
                // The global options the help lists are taken here too (`help list --width 40`), values and all.
                guard let spec = root.globalOptions.first(where: { $0.name == name }) else {
                    let spellings = root.globalOptions.map(\.spelling) + ["--help"]
                    throw fail(
                        .unknownOption("--" + name, suggestion: Suggestions.closest(to: "--" + name, among: spellings)))
                }
                try apply(spec, inlineValue: inlineValue)
            case .shortOptions(let letters):
                try consumeGlobalShort(letters)
            }
        }
        if helpFlag, path.count == start { path.append("help") }
        return .help(commandPath: path)
    }

    /// Short global options after `help <command>` (`help import -q`); any other letter is refused.
    private mutating func consumeGlobalShort(_ letters: String) throws(UsageError) {
        var rest = Substring(letters)
        while let letter = rest.popFirst() {
            guard let spec = root.globalOptions.first(where: { $0.short == letter }) else {
                if letter == "h" { continue }
                throw fail(.unknownOption("-" + String(letter), suggestion: nil))
            }
            guard spec.takesValue else {
                flagCounts[spec.name, default: 0] += 1
                continue
            }
            try apply(spec, inlineValue: rest.isEmpty ? nil : String(rest))
            return
        }
    }

    /// Assigns positional words to the declared arguments and checks required options.
    private func finish() throws(UsageError) -> ParsedCommand {
        var remaining = positionals[...]
        var argumentValues: [String: [String]] = [:]
        for argument in command.arguments {
            let taken = argument.isRepeating ? Array(remaining) : Array(remaining.prefix(1))
            remaining = remaining.dropFirst(taken.count)
            if taken.isEmpty {
                if !argument.isOptional { throw fail(.missingArgument(argument.display)) }
                continue
            }
            if !argument.allowedValues.isEmpty, let bad = taken.first(where: { !argument.allowedValues.contains($0) }) {
                throw fail(
                    .invalidValue(bad, for: argument.display, expected: Validation.describe(argument.allowedValues)))
            }
            argumentValues[argument.name] = taken
        }
        if let extra = remaining.first { throw fail(.unexpectedArgument(extra)) }
        if let missing = availableOptions.first(where: { $0.isRequired && optionValues[$0.name] == nil }) {
            throw fail(.missingArgument(missing.display))
        }
        let choice = command.oneOf.compactMap(option(named:))
        let chosen = choice.filter { optionValues[$0.name] != nil || flagCounts[$0.name, default: 0] > 0 }
        if !choice.isEmpty && chosen.isEmpty { throw fail(.missingChoice(choice.map(\.display))) }
        if chosen.count > 1 { throw fail(.conflictingOptions(chosen[0].display, chosen[1].display)) }
        return ParsedCommand(
            path: path, optionValues: optionValues, flagCounts: flagCounts, argumentValues: argumentValues,
            availableOptions: availableOptions, availableArguments: command.arguments)
    }

    // MARK: - Private

    /// The chosen command's own options followed by the global options it does not shadow.
    private var availableOptions: [OptionSpec] {
        command.options + root.globalOptions.filter { global in !command.options.contains { $0.name == global.name } }
    }

    private var builtInSpellings: [String] { root.version == nil ? ["--help"] : ["--help", "--version"] }

    private func option(named name: String) -> OptionSpec? {
        availableOptions.first { $0.name == name }
    }

    /// The default subcommand's name when nothing positional was given yet and it declares a matching option.
    private func defaultCommandIfItKnows(_ matches: (OptionSpec) -> Bool) -> String? {
        guard positionals.isEmpty, let name = command.defaultSubcommand,
            let subcommand = command.subcommand(named: name), subcommand.options.contains(where: matches)
        else { return nil }
        return name
    }

    /// Enters a subcommand; values already given for an option it shadows must also suit its own declaration.
    private mutating func descend(into name: String) throws(UsageError) {
        guard let next = command.subcommand(named: name) else { return }
        command = next
        path.append(name)
        for option in next.options where !option.allowedValues.isEmpty {
            if let bad = optionValues[option.name]?.first(where: { !option.allowedValues.contains($0) }) {
                throw fail(.invalidValue(bad, for: option.display, expected: Validation.describe(option.allowedValues)))
            }
        }
    }

    /// Takes the next token if it can be an option value: a plain word, not after `--`; with `anyWord` (free text),
    /// also a word that looks like an option (`-tolkien`, `--x`), as typed.
    private mutating func nextValue(anyWord: Bool = false) -> String? {
        guard index < tokens.count else { return nil }
        switch tokens[index] {
        case .value(let word):
            index += 1
            return word
        case .longOption, .shortOptions:
            guard anyWord else { return nil }
            defer { index += 1 }
            return tokens[index].original
        case .positional:
            return nil
        }
    }

    /// Whether an unread token before `--` asks for help, so help can win over an earlier error.
    private func helpFollows() -> Bool {
        tokens[min(index, tokens.count)...].contains { token in
            switch token {
            case .longOption("help", nil): true
            case .shortOptions(let letters): letters.contains("h") && !availableOptions.contains { $0.short == "h" }
            default: false
            }
        }
    }

    private func fail(_ error: ParseError) -> UsageError {
        UsageError(error, commandPath: path)
    }
}
