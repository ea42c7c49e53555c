import ArgumentParsing
import Foundation
import Testing

@Suite("Completion scripts")
struct CompletionTests {
    @Test("the bash script is valid bash")
    func bashSyntax() throws {
        let result = try Self.bash(["-n"], script: Fixture.parser.completionScript(for: .bash))
        #expect(result.status == 0, "\(result.output)")
    }

    @Test(
        "bash completes commands, subcommands, options and values",
        arguments: [
            (["l"], "list"),
            (["clients", ""], "add use help"),
            (["list", "--p"], "--page --per-page"),
            (["--db", "x", "clients", "add", "Ann", "--c"], "--card --client --color"),
            (["export", "--format", ""], "csv json"),
            (["list", "--format", ""], "text json"),
            (["--color", "a"], "auto always"),
            (["completion", ""], "bash zsh fish"),
            (["list", "--page", ""], ""),
        ] as [([String], String)])
    func bashBehaviour(_ words: [String], _ expected: String) throws {
        let script = Fixture.parser.completionScript(for: .bash)
        let quoted = (["librarycli"] + words).map { "'\($0)'" }.joined(separator: " ")
        let driver = """
            \(script)
            COMP_WORDS=(\(quoted))
            COMP_CWORD=\(words.count)
            _librarycli
            echo "${COMPREPLY[*]}"
            """
        let result = try Self.bash(["-c", driver], script: "")
        #expect(result.status == 0)
        #expect(result.output.trimmingCharacters(in: .whitespacesAndNewlines) == expected)
    }

    @Test(
        "zsh and fish scripts mention every command, option and allowed value", arguments: [CompletionShell.zsh, .fish])
    func coverage(_ shell: CompletionShell) {
        let script = Fixture.parser.completionScript(for: shell)
        var words: [String] = ["help", "--help", "--version"]
        func visit(_ command: CommandSpec) {
            words += command.subcommands.map(\.name)
            words += (command.options + command.globalOptions).flatMap { option in
                [shell == .fish ? "-l \(option.name)" : option.spelling] + option.allowedValues
            }
            words += command.arguments.flatMap(\.allowedValues)
            command.subcommands.forEach(visit)
        }
        visit(Fixture.root)
        for word in words where shell != .fish || word != "--help" && word != "--version" {
            #expect(script.contains(word), "\(shell) script lacks \(word)")
        }
        #expect(script.contains(shell == .fish ? "-s q -l quiet" : "'-q:Print nothing but errors.'"))
    }

    @Test("a positional argument that is a file (<path>) is completed with file names, beside any subcommands")
    func fileArguments() throws {
        let parser = ArgumentParser(
            root: CommandSpec(
                name: "librarycli", abstract: "Test.",
                subcommands: [
                    CommandSpec(
                        name: "import", abstract: "Import a file.", arguments: [.required("path", help: "The file.")]),
                    CommandSpec(name: "take", abstract: "Take.", arguments: [.repeating("book-id", help: "A book.")]),
                ]))
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("completion-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        FileManager.default.createFile(atPath: folder.path + "/books.csv", contents: Data())
        func complete(_ words: [String]) throws -> String {
            let quoted = (["librarycli"] + words).map { "'\($0)'" }.joined(separator: " ")
            let driver = """
                \(parser.completionScript(for: .bash))
                cd '\(folder.path)'
                COMP_WORDS=(\(quoted))
                COMP_CWORD=\(words.count)
                _librarycli
                echo "${COMPREPLY[*]}"
                """
            let result = try Self.bash(["-c", driver], script: "")
            #expect(result.status == 0, "\(result.output)")
            return result.output.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        #expect(try complete(["import", "bo"]) == "books.csv")
        #expect(try complete(["take", "bo"]) == "")
        #expect(parser.completionScript(for: .zsh).contains("'import') return 0"))
        #expect(parser.completionScript(for: .fish).contains("-n '__librarycli_path_is \"import\"' -F"))
        #expect(!parser.completionScript(for: .fish).contains("_path_is \"take\"' -F"))
    }

    @Test("a command with a default subcommand offers that subcommand's options too, and knows they take values")
    func defaultSubcommandOptions() throws {
        let list = CommandSpec(
            name: "list", abstract: "List.",
            options: [.value("search", valueName: "text", help: "Search."), .flag("all", help: "All.")])
        let parser = ArgumentParser(
            root: CommandSpec(
                name: "librarycli", abstract: "Test.",
                subcommands: [
                    CommandSpec(
                        name: "books", abstract: "Books.",
                        subcommands: [list, CommandSpec(name: "add", abstract: "Add.")], defaultSubcommand: "list")
                ]))
        func complete(_ words: [String]) throws -> String {
            let quoted = (["librarycli"] + words).map { "'\($0)'" }.joined(separator: " ")
            let driver = """
                \(parser.completionScript(for: .bash))
                COMP_WORDS=(\(quoted))
                COMP_CWORD=\(words.count)
                _librarycli
                echo "${COMPREPLY[*]}"
                """
            return try Self.bash(["-c", driver], script: "").output.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        #expect(try complete(["books", "--s"]) == "--search")
        #expect(try complete(["books", "--a"]) == "--all")
        // `add` after the search's value is still a subcommand word, not the value.
        #expect(try complete(["books", "--search", "a"]) == "")
        #expect(parser.completionScript(for: .zsh).contains("'--search:Search.'"))
        #expect(parser.completionScript(for: .fish).contains("-n '__librarycli_path_is \"books\"' -l search"))
    }

    @Test("descriptions with quotes are escaped")
    func quoting() throws {
        let spec = CommandSpec(
            name: "tool", subcommands: [CommandSpec(name: "go", abstract: "Don't \\ stop.")])
        let parser = ArgumentParser(root: spec)
        #expect(parser.completionScript(for: .fish).contains("-d 'Don\\'t \\\\ stop.'"))
        #expect(parser.completionScript(for: .zsh).contains("'go:Don'\\''t \\ stop.'"))
        #expect(try Self.bash(["-n"], script: parser.completionScript(for: .bash)).status == 0)
    }

    // MARK: - Private

    /// Runs bash with `arguments`, feeding `script` on standard input; returns exit status and combined output.
    private static func bash(_ arguments: [String], script: String) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = arguments
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = output
        try process.run()
        input.fileHandleForWriting.write(Data(script.utf8))
        try input.fileHandleForWriting.close()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }
}
