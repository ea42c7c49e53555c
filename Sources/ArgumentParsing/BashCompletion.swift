// MARK: - BashCompletion

/// Generates a bash completion script from a `CompletionModel`.
struct BashCompletion {
    let model: CompletionModel

    var script: String {
        let f = model.functionName
        let q = CompletionModel.posixQuoted
        var lines = [
            "# bash completion for \(model.program), generated from its command specification.",
            "# Load it with: source <(\(model.program) completion bash)",
            "",
            "\(f)_subcommands() {",
            "    case \"$1\" in",
        ]
        for entry in model.entries where !entry.subcommands.isEmpty {
            lines.append("        \(q(entry.key))) echo \(q(entry.subcommands.map(\.name).joined(separator: " "))) ;;")
        }
        lines += ["    esac", "}", "", "\(f)_options() {", "    case \"$1\" in"]
        for entry in model.entries {
            let spellings = entry.options.flatMap { option in
                [option.spelling] + (option.short.map { ["-\($0)"] } ?? [])
            }
            lines.append("        \(q(entry.key))) echo \(q(spellings.joined(separator: " "))) ;;")
        }
        lines += ["    esac", "}", "", "\(f)_arguments() {", "    case \"$1\" in"]
        for entry in model.entries where !entry.argumentValues.isEmpty {
            lines.append("        \(q(entry.key))) echo \(q(entry.argumentValues.joined(separator: " "))) ;;")
        }
        lines += [
            "    esac", "}", "", "# $1: command path; succeeds when its positional argument is a file.",
            "\(f)_argument_files() {",
        ]
        let fileKeys = model.entries.filter(\.argumentsWantFiles).map { q($0.key) }
        lines.append(
            fileKeys.isEmpty
                ? "    return 1" : "    case \"$1\" in \(fileKeys.joined(separator: "|"))) return 0 ;; esac; return 1")
        lines += ["}", "", "# $1: command path, $2: option; succeeds when the option takes a value."]
        lines += ["\(f)_takes_value() {", "    case \"$1|$2\" in"]
        lines += valueCases { option in "return 0" }
        lines += ["    esac", "    return 1", "}", "", "\(f)_values() {", "    case \"$1|$2\" in"]
        lines += valueCases { option in
            option.allowedValues.isEmpty
                ? (CompletionModel.wantsFiles(option) ? "echo __files__" : ":")
                : "echo \(q(option.allowedValues.joined(separator: " ")))"
        }
        lines += [
            "    esac",
            "}",
            "",
            "\(f)() {",
            "    local cur=\"${COMP_WORDS[COMP_CWORD]}\" prev=\"\" cmdpath=\"\" word i",
            "    if [[ $COMP_CWORD -gt 0 ]]; then prev=\"${COMP_WORDS[COMP_CWORD-1]}\"; fi",
            "    for ((i = 1; i < COMP_CWORD; i++)); do",
            "        word=\"${COMP_WORDS[i]}\"",
            "        case \"$word\" in",
            "            --) break ;;",
            "            --*=*) ;;",
            "            -*) if \(f)_takes_value \"$cmdpath\" \"$word\"; then ((i++)); fi ;;",
            "            *) if [[ \" $(\(f)_subcommands \"$cmdpath\") \" == *\" $word \"* ]]; then",
            "                   cmdpath=\"${cmdpath:+$cmdpath }$word\"",
            "               fi ;;",
            "        esac",
            "    done",
            "    if [[ \"$prev\" == -* ]] && \(f)_takes_value \"$cmdpath\" \"$prev\"; then",
            "        local values",
            "        values=\"$(\(f)_values \"$cmdpath\" \"$prev\")\"",
            "        if [[ \"$values\" == __files__ ]]; then",
            "            mapfile -t COMPREPLY < <(compgen -f -- \"$cur\")",
            "        elif [[ -n \"$values\" ]]; then",
            "            mapfile -t COMPREPLY < <(compgen -W \"$values\" -- \"$cur\")",
            "        fi",
            "        return 0",
            "    fi",
            "    if [[ \"$cur\" == -* ]]; then",
            "        mapfile -t COMPREPLY < <(compgen -W \"$(\(f)_options \"$cmdpath\")\" -- \"$cur\")",
            "    else",
            "        local words=\"$(\(f)_subcommands \"$cmdpath\") $(\(f)_arguments \"$cmdpath\")\"",
            "        mapfile -t COMPREPLY < <(compgen -W \"$words\" -- \"$cur\")",
            "        if \(f)_argument_files \"$cmdpath\"; then",
            "            mapfile -t -O \"${#COMPREPLY[@]}\" COMPREPLY < <(compgen -f -- \"$cur\")",
            "        fi",
            "    fi",
            "    return 0",
            "}",
            "",
            "complete -F \(f) \(model.program)",
        ]
        return lines.joined(separator: "\n") + "\n"
    }

    // MARK: - Private

    /// `case` branches for every value-taking option: command-specific first, then globals for any path.
    private func valueCases(_ body: (OptionSpec) -> String) -> [String] {
        let q = CompletionModel.posixQuoted
        var lines: [String] = []
        for entry in model.entries {
            for option in entry.ownOptions where option.takesValue {
                let patterns = [option.spelling] + (option.short.map { ["-\($0)"] } ?? [])
                let joined = patterns.map { q("\(entry.key)|\($0)") }.joined(separator: "|")
                lines.append("        \(joined)) \(body(option)) ;;")
            }
        }
        for option in model.globals where option.takesValue {
            let patterns = [option.spelling] + (option.short.map { ["-\($0)"] } ?? [])
            lines.append("        \(patterns.map { "*\(q("|\($0)"))" }.joined(separator: "|"))) \(body(option)) ;;")
        }
        return lines
    }
}
