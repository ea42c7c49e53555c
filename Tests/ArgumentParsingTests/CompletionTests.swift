import ArgumentParsing
import Foundation
import Glibc
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

    @Test(
        "file names are marked as such for readline, from `--db path`, `--db=path` split at `=` or whole, and escapes")
    func fileNamesForReadline() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("completion-files-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        FileManager.default.createFile(atPath: folder.path + "/my lib.sqlite", contents: Data())
        try FileManager.default.createDirectory(
            atPath: folder.path + "/data", withIntermediateDirectories: true)
        /// The replies, one per line, then `compopt` and its arguments when the script called it.
        func complete(_ words: [String]) throws -> String {
            let quoted = (["librarycli"] + words).map { "'" + $0.replacing("'", with: "'\\''") + "'" }
                .joined(separator: " ")
            let driver = """
                \(Fixture.parser.completionScript(for: .bash))
                compopt() { called="compopt $*"; }
                cd '\(folder.path)'
                COMP_WORDS=(\(quoted))
                COMP_CWORD=\(words.count)
                _librarycli
                printf '%s\\n' "${COMPREPLY[@]}" | sort
                echo "$called"
                """
            let result = try Self.bash(["-c", driver], script: "")
            #expect(result.status == 0, "\(result.output)")
            return result.output.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        #expect(try complete(["--db", "my"]) == "my lib.sqlite\ncompopt -o filenames")
        #expect(try complete(["--db", "d"]) == "data\ncompopt -o filenames")
        #expect(try complete(["--db", "my\\ l"]) == "my lib.sqlite\ncompopt -o filenames")
        #expect(try complete(["--db", "'my l"]) == "my lib.sqlite\ncompopt -o filenames")
        // Bash splits `--db=my` into `--db`, `=` and `my` (COMP_WORDBREAKS holds `=`); without `=` in it, one word.
        #expect(try complete(["--db", "="]) == "data\nmy lib.sqlite\ncompopt -o filenames")
        #expect(try complete(["--db", "=", "my"]) == "my lib.sqlite\ncompopt -o filenames")
        #expect(try complete(["--db=my"]) == "--db=my lib.sqlite\ncompopt -o filenames")
        #expect(try complete(["--color", "=", "a"]) == "always\nauto")
        // The value after `--db=` is not taken for a command.
        #expect(try complete(["--db", "=", "clients", "a"]) == "")
        #expect(try complete(["--db", "=", "x", "clients", "a"]) == "add")
    }

    @Test(
        "help completes the commands it can show help for",
        arguments: [
            (["help", "cl"], "clients"),
            (["help", "clients", ""], "add use help"),
            (["clients", "help", ""], "add use help"),
            (["help", "list", ""], ""),
            (["help", "help", "cl"], ""),
        ] as [([String], String)])
    func helpCompletesCommands(_ words: [String], _ expected: String) throws {
        let quoted = (["librarycli"] + words).map { "'\($0)'" }.joined(separator: " ")
        let driver = """
            \(Fixture.parser.completionScript(for: .bash))
            COMP_WORDS=(\(quoted))
            COMP_CWORD=\(words.count)
            _librarycli
            echo "${COMPREPLY[*]}"
            """
        let result = try Self.bash(["-c", driver], script: "")
        #expect(result.status == 0)
        #expect(result.output.trimmingCharacters(in: .whitespacesAndNewlines) == expected, "\(words)")
    }

    @Test("at a terminal, bash escapes a file name with a space and lets one descend into a folder")
    func interactiveBash() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("completion-tty-\(getpid())")
        try FileManager.default.createDirectory(atPath: folder.path + "/data", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        FileManager.default.createFile(atPath: folder.path + "/my lib.sqlite", contents: Data())
        FileManager.default.createFile(atPath: folder.path + "/data/x.sqlite", contents: Data())
        let script = folder.path + "/completion.bash"
        try Fixture.parser.completionScript(for: .bash).write(toFile: script, atomically: true, encoding: .utf8)
        let shell = try InteractiveBash(folder: folder.path)
        defer { shell.close() }
        shell.type("PS1='$ '; cd '\(folder.path)' && source '\(script)'\n")
        _ = shell.read(until: "$ ")
        /// The line after a tab typed after `line`; the line is cleared again afterwards (Ctrl-U).
        func completed(_ line: String, expecting: String) -> String {
            shell.type(line + "\t")
            let echoed = shell.read(until: expecting)
            shell.type("\u{15}")
            _ = shell.read(until: "\u{7}", timeout: 0.2)
            return echoed
        }
        #expect(completed("librarycli --db my", expecting: "sqlite ").hasSuffix("librarycli --db my\\ lib.sqlite "))
        #expect(completed("librarycli --db da", expecting: "data/").hasSuffix("librarycli --db data/"))
        #expect(completed("librarycli --db=da", expecting: "data/").hasSuffix("librarycli --db=data/"))
        #expect(completed("librarycli --db data/", expecting: "x.sqlite ").hasSuffix("--db data/x.sqlite "))
        #expect(completed("librarycli help cli", expecting: "clients ").hasSuffix("librarycli help clients "))
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

/// `bash -i` on a pseudo-terminal, with `folder` as its home: readline is on, so a tab completes as it does for a person.
private struct InteractiveBash {
    let main: Int32
    let pid: pid_t

    init(folder: String) throws {
        // glibc declares these only for _XOPEN_SOURCE, which Swift's Glibc module leaves out: found at run time.
        typealias OnPT = @convention(c) (Int32) -> Int32
        typealias NamePT = @convention(c) (Int32, UnsafeMutablePointer<CChar>?, Int) -> Int32
        func function<T>(_ name: String, as type: T.Type) throws -> T {
            unsafeBitCast(try #require(dlsym(nil, name), "no \(name)"), to: type)
        }
        main = try function("posix_openpt", as: OnPT.self)(O_RDWR | O_NOCTTY)
        try #require(main >= 0)
        try #require(try function("grantpt", as: OnPT.self)(main) == 0)
        try #require(try function("unlockpt", as: OnPT.self)(main) == 0)
        var name = [CChar](repeating: 0, count: 128)
        try #require(try function("ptsname_r", as: NamePT.self)(main, &name, name.count) == 0)
        let terminal = open(
            String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self), O_RDWR | O_NOCTTY)
        try #require(terminal >= 0)
        defer { Glibc.close(terminal) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for target in Int32(0)...2 { posix_spawn_file_actions_adddup2(&actions, terminal, target) }
        let arguments = ["/bin/bash", "--norc", "--noprofile", "-i"]
        let environment = ["TERM=dumb", "HOME=\(folder)", "PATH=/usr/bin:/bin", "INPUTRC=/dev/null"]
        var argv = arguments.map { strdup($0) } + [nil]
        var envp = environment.map { strdup($0) } + [nil]
        defer { for pointer in argv + envp { free(pointer) } }
        var pid: pid_t = 0
        let status = posix_spawn(&pid, arguments[0], &actions, nil, &argv, &envp)
        try #require(status == 0, "posix_spawn: \(status)")
        self.pid = pid
    }

    func type(_ text: String) {
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { write(main, $0.baseAddress, $0.count) }
    }

    /// What the terminal shows until `text` appears or `timeout` seconds pass.
    func read(until text: String, timeout: Double = 5) -> String {
        var output: [UInt8] = []
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline && !String(decoding: output, as: UTF8.self).hasSuffix(text) {
            var poller = pollfd(fd: main, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, 50) > 0 else { continue }
            var buffer = [UInt8](repeating: 0, count: 4096)
            let count = buffer.withUnsafeMutableBytes { Glibc.read(main, $0.baseAddress, $0.count) }
            guard count > 0 else { break }
            output += buffer.prefix(count)
        }
        return String(decoding: output, as: UTF8.self)
    }

    func close() {
        kill(pid, SIGKILL)
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        Glibc.close(main)
    }
}
