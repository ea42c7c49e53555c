import Library
import Testing

@Suite struct SearchFoldingTests {
    @Test(arguments: [
        ("Gabriel García Márquez", "gabriel garcia marquez"),
        ("ÉMILE ZOLA", "emile zola"),
        ("L'Œuvre", "l'oeuvre"),
        ("Łódź", "lodz"),
        ("Straße", "strasse"),
        ("Ærøskøbing", "aeroskobing"),
        ("Dvořák Škoda Čapek", "dvorak skoda capek"),
        ("Ştefan Țiriac", "stefan tiriac"),
        ("e\u{0301}cole", "ecole"),  // decomposed: combining acute accent dropped
        ("Ελληνικά", "ελληνικά"),  // non-Latin: only lower-cased
        ("plain ascii 123", "plain ascii 123"),
    ])
    func folds(input: String, expected: String) {
        #expect(SearchFolding.fold(input) == expected)
    }

    @Test func patternEscapesWildcards() {
        #expect(SearchFolding.containsPattern("100%_Ü\\") == "%100\\%\\_u\\\\%")
    }
}
