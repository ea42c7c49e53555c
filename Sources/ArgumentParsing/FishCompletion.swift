// MARK: - FishCompletion

/// Generates a fish completion script from a `CompletionModel`.
struct FishCompletion {
    let model: CompletionModel

    var script: String {
        let f = "_" + model.functionName
        let p = model.program
        let q = CompletionModel.fishQuoted
        var lines = [
            "# fish completion for \(p), generated from its command specification.",
            "",
            "function \(f)_subcommand_names",
            "    switch \"$argv[1]\"",
        ]
        for entry in model.entries where !entry.subcommands.isEmpty {
            lines += [
                "        case \(q(entry.key))",
                "            printf '%s\\n' \(entry.subcommands.map { q($0.name) }.joined(separator: " "))",
            ]
        }
        lines += ["    end", "end", "", "function \(f)_takes_value", "    switch \"$argv[1]|$argv[2]\""]
        for entry in model.entries {
            let spellings = entry.ownOptions.filter(\.takesValue).flatMap(spellings)
            if !spellings.isEmpty {
                lines += [
                    "        case \(spellings.map { q(entry.key + "|" + $0) }.joined(separator: " "))",
                    "            return 0",
                ]
            }
        }
        let globalSpellings = model.globals.filter(\.takesValue).flatMap(spellings)
        if !globalSpellings.isEmpty {
            lines += [
                "        case \(globalSpellings.map { "'*|" + $0 + "'" }.joined(separator: " "))",
                "            return 0",
            ]
        }
        lines += [
            "    end",
            "    return 1",
            "end",
            "",
            "function \(f)_path",
            "    set -l tokens (commandline -opc)",
            "    set -e tokens[1]",
            "    set -l cmdpath",
            "    set -l skip 0",
            "    for word in $tokens",
            "        if test $skip -eq 1",
            "            set skip 0",
            "            continue",
            "        end",
            "        switch $word",
            "            case '--'",
            "                break",
            "            case '--*=*'",
            "            case '-*'",
            "                if \(f)_takes_value \"$cmdpath\" $word",
            "                    set skip 1",
            "                end",
            "            case '*'",
            "                if contains -- $word (\(f)_subcommand_names \"$cmdpath\")",
            "                    set cmdpath $cmdpath $word",
            "                end",
            "        end",
            "    end",
            "    echo \"$cmdpath\"",
            "end",
            "",
            "function \(f)_path_is",
            "    set -l current (\(f)_path)",
            "    test \"$current\" = \"$argv[1]\"",
            "end",
            "",
            "complete -c \(p) -f",
        ]
        for entry in model.entries {
            let condition = q("\(f)_path_is \"\(entry.key)\"")
            for subcommand in entry.subcommands {
                let description = q(CompletionModel.summary(subcommand.abstract))
                lines.append("complete -c \(p) -n \(condition) -a \(q(subcommand.name)) -d \(description)")
            }
            if !entry.argumentValues.isEmpty {
                lines.append("complete -c \(p) -n \(condition) -a \(q(entry.argumentValues.joined(separator: " ")))")
            }
            if entry.argumentsWantFiles {
                lines.append("complete -c \(p) -n \(condition) -F")
            }
            for option in entry.ownOptions {
                lines.append("complete -c \(p) -n \(condition) \(flags(option))")
            }
        }
        for option in model.globals {
            let shadowing = model.entries.filter { entry in entry.ownOptions.contains { $0.name == option.name } }
            let condition = shadowing.map { "not \(f)_path_is \"\($0.key)\"" }.joined(separator: "; and ")
            lines.append("complete -c \(p)\(condition.isEmpty ? "" : " -n " + q(condition)) \(flags(option))")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    // MARK: - Private

    private func spellings(_ option: OptionSpec) -> [String] {
        [option.spelling] + (option.short.map { ["-\($0)"] } ?? [])
    }

    private func flags(_ option: OptionSpec) -> String {
        let q = CompletionModel.fishQuoted
        var parts = option.short.map { ["-s \($0)"] } ?? []
        parts.append("-l \(option.name)")
        if option.takesValue {
            if !option.allowedValues.isEmpty {
                parts.append("-x -a \(q(option.allowedValues.joined(separator: " ")))")
            } else {
                parts.append(CompletionModel.wantsFiles(option) ? "-r -F" : "-x")
            }
        }
        parts.append("-d \(q(CompletionModel.summary(option.help)))")
        return parts.joined(separator: " ")
    }
}
