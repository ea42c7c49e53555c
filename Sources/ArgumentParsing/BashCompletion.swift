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
        lines += ["    esac", "}", "", "# $1: command path; succeeds when it has the built-in help subcommand."]
        let helpKeys = model.entries.filter(\.command.hasBuiltInHelp).map { q($0.key) }
        lines.append("\(f)_has_help() {")
        lines.append(
            helpKeys.isEmpty
                ? "    return 1" : "    case \"$1\" in \(helpKeys.joined(separator: "|"))) return 0 ;; esac; return 1")
        lines += [
            "}",
            "",
            "# $1: a word as typed; prints it without a leading quote and without backslashes (`my\\ lib` -> `my lib`).",
            "\(f)_dequoted() {",
            "    local text=\"$1\"",
            "    case \"$text\" in \\'* | \\\"*) text=\"${text:1}\" ;; esac",
            "    printf '%s' \"${text//\\\\/}\"",
            "}",
            "",
            "# Puts file names matching $1 into COMPREPLY after its first $2 entries, marked as file names so that",
            "# readline quotes them and ends a folder with a slash instead of a space.",
            "\(f)_files() {",
            "    compopt -o filenames 2>/dev/null",
            "    mapfile -t -O \"$2\" COMPREPLY < <(compgen -f -- \"$(\(f)_dequoted \"$1\")\")",
            "}",
            "",
            "\(f)() {",
            "    local cur=\"${COMP_WORDS[COMP_CWORD]}\" prev=\"\" cmdpath=\"\" helping=\"\" word i",
            "    if [[ $COMP_CWORD -gt 0 ]]; then prev=\"${COMP_WORDS[COMP_CWORD-1]}\"; fi",
            "    for ((i = 1; i < COMP_CWORD; i++)); do",
            "        word=\"${COMP_WORDS[i]}\"",
            "        case \"$word\" in",
            "            --) break ;;",
            "            --*=*) ;;",
            "            -*) if \(f)_takes_value \"$cmdpath\" \"$word\"; then",
            "                    # `--db=path` is three words where COMP_WORDBREAKS holds `=`, as it does by default.",
            "                    if [[ \"${COMP_WORDS[i+1]}\" == = ]]; then ((i += 2)); else ((i++)); fi",
            "                fi ;;",
            "            *) if [[ -z \"$helping\" && \"$word\" == help ]] && \(f)_has_help \"$cmdpath\"; then",
            "                   helping=1  # `help clients add`: the words after `help` name a command",
            "               elif [[ \" $(\(f)_subcommands \"$cmdpath\") \" == *\" $word \"* ]]; then",
            "                   cmdpath=\"${cmdpath:+$cmdpath }$word\"",
            "               fi ;;",
            "        esac",
            "    done",
            "    # The option whose value is being typed: `--db path`, `--db=path` split at `=` by bash, or whole.",
            "    local option=\"\" prefix=\"\"",
            "    if [[ \"$cur\" == --*=* ]]; then",
            "        option=\"${cur%%=*}\" prefix=\"${cur%%=*}=\" cur=\"${cur#*=}\"",
            "    elif [[ \"$cur\" == = && \"$prev\" == -* ]]; then",
            "        option=\"$prev\" cur=\"\"",
            "    elif [[ \"$prev\" == = && $COMP_CWORD -gt 1 && \"${COMP_WORDS[COMP_CWORD-2]}\" == -* ]]; then",
            "        option=\"${COMP_WORDS[COMP_CWORD-2]}\"",
            "    elif [[ \"$prev\" == -* ]]; then",
            "        option=\"$prev\"",
            "    fi",
            "    if [[ -n \"$option\" ]] && \(f)_takes_value \"$cmdpath\" \"$option\"; then",
            "        local values",
            "        values=\"$(\(f)_values \"$cmdpath\" \"$option\")\"",
            "        COMPREPLY=()",
            "        if [[ \"$values\" == __files__ ]]; then",
            "            \(f)_files \"$cur\" 0",
            "        elif [[ -n \"$values\" ]]; then",
            "            mapfile -t COMPREPLY < <(compgen -W \"$values\" -- \"$cur\")",
            "        fi",
            "        if [[ -n \"$prefix\" && ${#COMPREPLY[@]} -gt 0 ]]; then COMPREPLY=(\"${COMPREPLY[@]/#/$prefix}\"); fi",
            "        return 0",
            "    fi",
            "    if [[ -n \"$helping\" ]]; then",
            "        mapfile -t COMPREPLY < <(compgen -W \"$(\(f)_subcommands \"$cmdpath\")\" -- \"$cur\")",
            "    elif [[ \"$cur\" == -* ]]; then",
            "        mapfile -t COMPREPLY < <(compgen -W \"$(\(f)_options \"$cmdpath\")\" -- \"$cur\")",
            "    else",
            "        local words=\"$(\(f)_subcommands \"$cmdpath\") $(\(f)_arguments \"$cmdpath\")\"",
            "        mapfile -t COMPREPLY < <(compgen -W \"$words\" -- \"$cur\")",
            "        if \(f)_argument_files \"$cmdpath\"; then",
            "            \(f)_files \"$cur\" \"${#COMPREPLY[@]}\"",
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
