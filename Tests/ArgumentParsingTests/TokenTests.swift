import ArgumentParsing
import Testing

@Suite("Tokenising")
struct TokenTests {
    @Test("classifies long, short, values and the terminator")
    func classifies() {
        let tokens = Token.tokenize(["--page=2", "--all", "-qh", "12", "-", "-3", "--", "--5", "-q"])
        #expect(
            tokens == [
                .longOption("page", inlineValue: "2"), .longOption("all", inlineValue: nil), .shortOptions("qh"),
                .value("12"), .value("-"), .value("-3"), .positional("--5"), .positional("-q"),
            ])
    }

    @Test("an empty value after = and a second -- are kept")
    func edgeCases() {
        #expect(Token.tokenize(["--search="]) == [.longOption("search", inlineValue: "")])
        #expect(Token.tokenize(["--a=b=c"]) == [.longOption("a", inlineValue: "b=c")])
        #expect(Token.tokenize(["--", "--"]) == [.positional("--")])
        #expect(Token.tokenize([""]) == [.value("")])
    }

    @Test("original spelling is recovered for messages")
    func original() {
        #expect(Token.shortOptions("qh").original == "-qh")
        #expect(Token.longOption("page", inlineValue: "2").original == "--page=2")
    }
}
