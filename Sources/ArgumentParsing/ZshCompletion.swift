// MARK: - ZshCompletion

/// Generates a zsh completion script (a `#compdef` function using `_describe`) from a `CompletionModel`.
struct ZshCompletion {
    let model: CompletionModel

    var script: String {
        let f = model.functionName
        let q = CompletionModel.posixQuoted
        var lines = [
            "#compdef \(model.program)",
            "# zsh completion for \(model.program), generated from its command specification.",
            "",
            "# Sets reply to 'name:description' entries for the subcommands of the path in $1.",
            "\(f)_subcommands() {",
            "    case \"$1\" in",
        ]
        for entry in model.entries where !entry.subcommands.isEmpty {
            let items = entry.subcommands.map { q("\($0.name):\(CompletionModel.summary($0.abstract))") }
            lines.append("        \(q(entry.key))) reply=(\(items.joined(separator: " "))) ;;")
        }
        lines += ["        *) reply=() ;;", "    esac", "}", "", "\(f)_options() {", "    case \"$1\" in"]
        for entry in model.entries {
            let items = entry.options.flatMap { option in
                let help = CompletionModel.summary(option.help)
                return [q("\(option.spelling):\(help)")] + (option.short.map { [q("-\($0):\(help)")] } ?? [])
            }
            lines.append("        \(q(entry.key))) reply=(\(items.joined(separator: " "))) ;;")
        }
        lines += ["        *) reply=() ;;", "    esac", "}", "", "\(f)_arguments() {", "    case \"$1\" in"]
        for entry in model.entries where !entry.argumentValues.isEmpty {
            lines.append("        \(q(entry.key))) reply=(\(entry.argumentValues.map(q).joined(separator: " "))) ;;")
        }
        lines += ["        *) reply=() ;;", "    esac", "}", ""]
        // The paths whose positional argument is a file: file names are offered there.
        let fileKeys = model.entries.filter(\.argumentsWantFiles).map { q($0.key) }
        lines += ["# Succeeds when the positional argument of path $1 is a file.", "\(f)_argument_files() {"]
        lines.append(
            fileKeys.isEmpty
                ? "    return 1" : "    case \"$1\" in \(fileKeys.joined(separator: "|"))) return 0 ;; esac; return 1")
        lines += ["}", ""]
        lines += ["# Sets reply to the values of option $2 under path $1; returns 1 when it takes no value."]
        lines += ["\(f)_values() {", "    case \"$1|$2\" in"]
        for entry in model.entries {
            for option in entry.ownOptions where option.takesValue {
                lines.append("        \(patterns(option, key: q(entry.key + "|"))) \(reply(option)) ;;")
            }
        }
        for option in model.globals where option.takesValue {
            lines.append("        \(patterns(option, key: "*" + q("|"))) \(reply(option)) ;;")
        }
        lines += [
            "        *) return 1 ;;",
            "    esac",
            "}",
            "",
            "\(f)() {",
            "    local cmdpath=\"\" word i",
            "    local -a reply entries",
            "    for ((i = 2; i < CURRENT; i++)); do",
            "        word=\"${words[i]}\"",
            "        case \"$word\" in",
            "            --) break ;;",
            "            --*=*) ;;",
            "            -*) if \(f)_values \"$cmdpath\" \"$word\"; then ((i++)); fi ;;",
            "            *)",
            "                \(f)_subcommands \"$cmdpath\"",
            "                if (( ${reply[(I)$word:*]} )); then cmdpath=\"${cmdpath:+$cmdpath }$word\"; fi",
            "                ;;",
            "        esac",
            "    done",
            "    local cur=\"${words[CURRENT]}\" prev=\"${words[CURRENT-1]}\"",
            "    if [[ \"$prev\" == -* ]] && \(f)_values \"$cmdpath\" \"$prev\"; then",
            "        if [[ \"${reply[1]}\" == __files__ ]]; then",
            "            _files",
            "        elif (( ${#reply} )); then",
            "            compadd -a reply",
            "        fi",
            "        return",
            "    fi",
            "    if [[ \"$cur\" == -* ]]; then",
            "        \(f)_options \"$cmdpath\"",
            "        entries=(\"${reply[@]}\")",
            "        _describe -t options 'option' entries",
            "        return",
            "    fi",
            "    \(f)_subcommands \"$cmdpath\"",
            "    entries=(\"${reply[@]}\")",
            "    if (( ${#entries} )); then _describe -t commands 'command' entries; fi",
            "    \(f)_arguments \"$cmdpath\"",
            "    if (( ${#reply} )); then compadd -a reply; fi",
            "    \(f)_argument_files \"$cmdpath\" && _files",
            "}",
            "",
            "if [[ \"${funcstack[1]}\" == \(f) ]]; then",
            "    \(f) \"$@\"",
            "else",
            "    compdef \(f) \(model.program)",
            "fi",
        ]
        return lines.joined(separator: "\n") + "\n"
    }

    // MARK: - Private

    private func patterns(_ option: OptionSpec, key: String) -> String {
        let spellings = [option.spelling] + (option.short.map { ["-\($0)"] } ?? [])
        return spellings.map { key + $0 }.joined(separator: "|") + ")"
    }

    private func reply(_ option: OptionSpec) -> String {
        if !option.allowedValues.isEmpty {
            return "reply=(\(option.allowedValues.map(CompletionModel.posixQuoted).joined(separator: " ")))"
        }
        return CompletionModel.wantsFiles(option) ? "reply=(__files__)" : "reply=()"
    }
}
