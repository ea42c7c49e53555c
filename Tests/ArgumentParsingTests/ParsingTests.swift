import ArgumentParsing
import Testing

@Suite("Parsing")
struct ParsingTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var line: String
        var path: [String]
        var options: [String: [String]] = [:]
        var flags: [String: Int] = [:]
        var arguments: [String: [String]] = [:]
        var testDescription: String { line }
    }

    static let cases: [Case] = [
        Case(line: "list", path: ["list"]),
        Case(line: "list --page 2 --all", path: ["list"], options: ["page": ["2"]], flags: ["all": 1]),
        Case(line: "list --page=3 --search=dune", path: ["list"], options: ["page": ["3"], "search": ["dune"]]),
        Case(line: "--db x.sqlite list", path: ["list"], options: ["db": ["x.sqlite"]]),
        Case(line: "list --db x.sqlite", path: ["list"], options: ["db": ["x.sqlite"]]),
        Case(line: "take 12 13", path: ["take"], arguments: ["book-id": ["12", "13"]]),
        Case(line: "take 12 --json 13", path: ["take"], flags: ["json": 1], arguments: ["book-id": ["12", "13"]]),
        Case(line: "take -- 12", path: ["take"], arguments: ["book-id": ["12"]]),
        Case(line: "take -- --5", path: ["take"], arguments: ["book-id": ["--5"]]),
        Case(line: "take -3", path: ["take"], arguments: ["book-id": ["-3"]]),
        Case(line: "clients", path: ["clients"]),
        Case(
            line: "clients add Ann --card 77 -q", path: ["clients", "add"], options: ["card": ["77"]],
            flags: ["quiet": 1], arguments: ["name": ["Ann"]]),
        Case(
            line: "clients --client 4 use 9", path: ["clients", "use"], options: ["client": ["4"]],
            arguments: ["id": ["9"]]),
        Case(line: "seed --file a --file b", path: ["seed"], options: ["file": ["a", "b"]]),
        Case(line: "-qq list", path: ["list"], flags: ["quiet": 2]),
        Case(line: "export --format csv", path: ["export"], options: ["format": ["csv"]]),
        Case(line: "list --format json", path: ["list"], options: ["format": ["json"]]),
        Case(line: "--format json export", path: ["export"], options: ["format": ["json"]]),
        Case(line: "list --search -", path: ["list"], options: ["search": ["-"]]),
        // Free text takes the next word whatever it starts with; other options do not (see UsageErrorTests).
        Case(line: "list --search -tolkien", path: ["list"], options: ["search": ["-tolkien"]]),
        Case(line: "list --search --all", path: ["list"], options: ["search": ["--all"]]),
        Case(line: "list --search --x=y --all", path: ["list"], options: ["search": ["--x=y"]], flags: ["all": 1]),
        Case(line: "list --search -q", path: ["list"], options: ["search": ["-q"]]),
        Case(line: "completion zsh", path: ["completion"], arguments: ["shell": ["zsh"]]),
        Case(line: "books add --title Dune", path: ["books", "add"], options: ["title": ["Dune"]]),
        Case(line: "", path: []),
    ]

    @Test("command lines parse into path, options and arguments", arguments: cases)
    func parses(_ testCase: Case) throws {
        let parsed = try #require(Fixture.command(testCase.line))
        #expect(parsed.path == testCase.path)
        #expect(parsed.optionValues == testCase.options)
        #expect(parsed.flagCounts == testCase.flags)
        #expect(parsed.argumentValues == testCase.arguments)
    }

    @Test("typed getters read values, defaults and flags")
    func typedGetters() throws {
        let parsed = try #require(Fixture.command("list --per-page 5 --color never"))
        #expect(try parsed.positiveInteger("per-page") == 5)
        #expect(try parsed.positiveInteger("page") == 1)  // the declared default
        #expect(parsed.isPresent("page") == false)
        #expect(try parsed.integer("width") == nil)
        #expect(parsed.flag("all") == false)
        enum Color: String { case auto, always, never }
        #expect(try parsed.choice("color", as: Color.self) == .never)
    }

    @Test("typed getters throw usage errors naming the option")
    func typedGetterErrors() throws {
        let parsed = try #require(Fixture.command("list --page abc --width 5"))
        #expect(
            throws: UsageError(
                .invalidValue("abc", for: "--page <n>", expected: "a positive whole number"), commandPath: ["list"])
        ) {
            try parsed.positiveInteger("page")
        }
        #expect(
            throws: UsageError(
                .invalidValue("5", for: "--width <n>", expected: "a whole number from 20 to 500"), commandPath: ["list"]
            )
        ) {
            try parsed.integer("width", in: 20...500)
        }
    }

    @Test("ids after -- are positional and then invalid")
    func idsAfterTerminator() throws {
        let parsed = try #require(Fixture.command("take -- --5"))
        #expect(
            throws: UsageError(
                .invalidValue("--5", for: "<book-id>", expected: "a positive whole number"), commandPath: ["take"])
        ) {
            try parsed.positiveIntegers("book-id")
        }
        #expect(try Fixture.command("take -- 12 13").map { try $0.positiveIntegers("book-id") } == [12, 13])
    }

    @Test("a default subcommand takes options and words that fit it")
    func defaultSubcommand() throws {
        var root = Fixture.root
        root.defaultSubcommand = "list"
        let parser = ArgumentParser(root: root)
        #expect(parser.parse([]) == .command(try #require(Fixture.command("list"))))
        guard case .command(let parsed) = parser.parse(["--db", "x", "--page", "2"]) else {
            Issue.record("expected a command")
            return
        }
        #expect(parsed.path == ["list"])
        #expect(parsed.optionValues == ["db": ["x"], "page": ["2"]])
        #expect(
            parser.parse(["lsit"]) == .failure(UsageError(.unknownCommand("lsit", suggestion: "list"), commandPath: []))
        )
    }

    @Test("version is answered anywhere")
    func version() {
        #expect(Fixture.parse("--version") == .version)
        #expect(Fixture.parse("list --version") == .version)
    }
}

@Suite("Short options with values")
struct ShortValueTests {
    static let parser = ArgumentParser(
        root: CommandSpec(
            name: "tool",
            options: [
                .value("width", short: "w", valueName: "n", help: "Width."),
                .flag("verbose", short: "v", help: "More."),
            ]))

    @Test(
        "a short option takes the rest of its bundle or the next word",
        arguments: [["-w", "100"], ["-w100"], ["-vw100"], ["-vw", "100"], ["--width=100", "-v"]])
    func shortValues(_ arguments: [String]) throws {
        guard case .command(let parsed) = Self.parser.parse(arguments) else {
            Issue.record("expected a command for \(arguments)")
            return
        }
        #expect(try parsed.integer("width") == 100)
        #expect(parsed.flag("verbose") == arguments.joined().contains("v"))
    }

    @Test("a short option without its value is a missing value")
    func missing() {
        #expect(
            Self.parser.parse(["-vw"]) == .failure(UsageError(.missingValue(option: "--width <n>"), commandPath: [])))
    }
}
