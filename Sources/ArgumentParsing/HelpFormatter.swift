// MARK: - Help and usage

extension ArgumentParser {
    /// The full help for the command at `path` (`[]` for the root), wrapped to `width` columns.
    ///
    /// Sections: OVERVIEW, the discussion, USAGE, ARGUMENTS, OPTIONS (own, global and built-in), SUBCOMMANDS and
    /// the command's extra sections. Unknown paths fall back to the deepest known command.
    ///
    /// ```swift
    /// print(parser.helpText(for: ["clients", "add"], width: 100), terminator: "")
    /// ```
    public func helpText(for path: [String], width: Int = 80) -> String {
        let (command, path) = resolve(path)
        var blocks: [[String]] = []
        if !command.abstract.isEmpty {
            blocks.append(TextWrap.paragraphs("OVERVIEW: " + command.abstract, width: width))
        }
        if !command.discussion.isEmpty {
            blocks.append(TextWrap.paragraphs(command.discussion, width: width))
        }
        blocks.append(TextWrap.items(usageItems(command, path: path), width: width, prefix: "USAGE: ", indent: 7))
        if !command.arguments.isEmpty {
            blocks.append(
                ["ARGUMENTS:"]
                    + command.arguments.flatMap { argument in
                        TextWrap.entry(
                            label: argument.display + (argument.isRepeating ? " ..." : ""),
                            text: argument.help + Self.valuesNote(argument.allowedValues), width: width)
                    })
        }
        blocks.append(
            ["OPTIONS:"]
                + optionEntries(command, isRoot: path.isEmpty).flatMap { entry in
                    TextWrap.entry(label: entry.label, text: entry.text, width: width)
                })
        if !command.subcommands.isEmpty {
            var entries = command.subcommands.flatMap { subcommand in
                let label = subcommand.name + (subcommand.name == command.defaultSubcommand ? " (default)" : "")
                return TextWrap.entry(label: label, text: subcommand.abstract, width: width)
            }
            if command.hasBuiltInHelp {
                entries += TextWrap.entry(label: "help", text: CommandSpec.builtInHelp.abstract, width: width)
            }
            let program = ([root.name] + path).joined(separator: " ")
            blocks.append(
                ["SUBCOMMANDS:"] + entries + [""]
                    + TextWrap.paragraphs(
                        "See '\(program) help <subcommand>' for detailed help.", width: width, indent: 2))
        }
        for section in command.extraHelpSections {
            var lines = ["\(section.title):"]
            if !section.body.isEmpty { lines += TextWrap.paragraphs(section.body, width: width, indent: 2) }
            let longest = section.rows.map { $0.term.count }.max() ?? 0
            let column = min(2 + longest + 2, TextWrap.entryColumn)
            for row in section.rows {
                lines += TextWrap.entry(label: row.term, text: row.text, width: width, column: column)
            }
            blocks.append(lines)
        }
        return blocks.map { $0.joined(separator: "\n") }.joined(separator: "\n\n") + "\n"
    }

    /// The one-line usage for the command at `path`, without a `Usage:` prefix.
    ///
    /// Lists the command's own options (global options only at the root, as `[<options>]`).
    ///
    /// ```swift
    /// parser.usage(for: ["list"])
    /// // "librarycli list [--page <n>] [--per-page <n>] [--all] [--search <text>]"
    /// ```
    public func usage(for path: [String]) -> String {
        usageWords(for: path).joined(separator: " ")
    }

    /// The usage split into words that must stay whole when wrapped, e.g. `"[--page <n>]"`.
    func usageWords(for path: [String]) -> [String] {
        let (command, path) = resolve(path)
        return usageItems(command, path: path)
    }

    // MARK: - Private

    /// The command at the longest known prefix of `path`, and that prefix.
    private func resolve(_ path: [String]) -> (CommandSpec, [String]) {
        var command = root
        var known: [String] = []
        for name in path {
            if name == "help", command.hasBuiltInHelp {
                command = CommandSpec.builtInHelp
                known.append(name)
                continue
            }
            guard let next = command.subcommand(named: name) else { break }
            command = next
            known.append(name)
        }
        return (command, known)
    }

    private func usageItems(_ command: CommandSpec, path: [String]) -> [String] {
        var items = [root.name] + path
        if path.isEmpty, !root.globalOptions.isEmpty { items.append("[<options>]") }
        // Options of which one must be given come first, as one item: `(--client <id> | --librarian)`.
        let choice = command.oneOf.compactMap { name in
            (command.options + root.globalOptions).first { $0.name == name }?.display
        }
        if !choice.isEmpty { items.append("(" + choice.joined(separator: " | ") + ")") }
        for option in command.options where !command.oneOf.contains(option.name) {
            let written = option.display + (option.kind == .repeatingValue ? " ..." : "")
            items.append(option.isRequired ? written : "[\(written)]")
        }
        for argument in command.arguments {
            let written = argument.display + (argument.isRepeating ? " ..." : "")
            items.append(argument.isOptional ? "[\(written)]" : written)
        }
        if !command.subcommands.isEmpty { items.append("[<subcommand>]") }
        return items
    }

    private func optionEntries(_ command: CommandSpec, isRoot: Bool) -> [(label: String, text: String)] {
        let own = command.options
        let globals = root.globalOptions.filter { global in !own.contains { $0.name == global.name } }
        var entries = (own + globals).map { option in
            var label = option.short.map { "-\($0), " } ?? ""
            label += option.display + (option.kind == .repeatingValue ? " ..." : "")
            var text = option.help + Self.valuesNote(option.allowedValues)
            if let value = option.defaultValue { text += " (default: \(value))" }
            return (label, text)
        }
        if !(own + globals).contains(where: { $0.name == "help" }) {
            let short = (own + globals).contains { $0.short == "h" } ? "" : "-h, "
            entries.append((short + "--help", "Show help information."))
        }
        if isRoot, root.version != nil { entries.append(("--version", "Show the version.")) }
        return entries
    }

    private static func valuesNote(_ values: [String]) -> String {
        values.isEmpty ? "" : " (values: \(values.joined(separator: ", ")))"
    }
}
