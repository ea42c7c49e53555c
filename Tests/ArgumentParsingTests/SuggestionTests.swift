import ArgumentParsing
import Testing

@Suite("Suggestions")
struct SuggestionTests {
    @Test("edit distance counts swaps as one edit")
    func distance() {
        #expect(Suggestions.editDistance("lsit", "list") == 1)
        #expect(Suggestions.editDistance("serch", "search") == 1)
        #expect(Suggestions.editDistance("", "abc") == 3)
        #expect(Suggestions.editDistance("kitten", "sitting") == 3)
    }

    @Test(
        "close words are suggested, far ones are not",
        arguments: [
            ("--serch", "--search"), ("--per-pgae", "--per-page"), ("--pgae", "--page"), ("--al", "--all"),
            ("--xyz", nil), ("--", nil),
        ] as [(String, String?)])
    func options(_ typed: String, _ expected: String?) {
        #expect(Suggestions.closest(to: typed, among: ["--page", "--per-page", "--all", "--search"]) == expected)
    }

    @Test("commands: nearest wins, ties go to the first")
    func commands() {
        #expect(Suggestions.closest(to: "clinets", among: ["clients", "books"]) == "clients")
        #expect(Suggestions.closest(to: "tke", among: ["take", "tile"]) == "take")
        #expect(Suggestions.closest(to: "b", among: ["list"]) == nil)
    }
}
