import Testing

@testable import Library

@Suite struct SearchFoldingTests {
    @Test(arguments: [
        ("Gabriel García Márquez", "gabriel garcia marquez"),
        ("ÉMILE ZOLA", "emile zola"),
        ("L'Œuvre", "l'oeuvre"),
        ("L’Œuvre", "l'oeuvre"),  // typographic apostrophe lumped with the ASCII one
        ("Łódź", "lodz"),
        ("Straße", "strasse"),
        ("Ærøskøbing", "aeroskobing"),
        ("Dvořák Škoda Čapek", "dvorak skoda capek"),
        ("Ştefan Țiriac", "stefan tiriac"),
        ("e\u{0301}cole", "ecole"),  // decomposed: combining acute accent dropped
        ("Bà Triệu", "ba trieu"),  // Vietnamese: stacked marks
        ("Nguyễn Du, Truyện Kiều", "nguyen du, truyen kieu"),
        ("Фёдор Достоевский", "федор достоевскии"),  // Cyrillic: case and diaeresis
        ("ΟΔΥΣΣΕΙΑ Ὅμηρος", "οδυσσεια ομηροσ"),  // Greek: polytonic marks, capitals; final sigma folds to σ
        ("Ἀθῆναι", "αθηναι"),
        ("ﬁne ＡＢＣ １２３", "fine abc 123"),  // compatibility forms: ligature, full width
        ("soft\u{00AD}hyphen zero\u{200B}width", "softhyphen zerowidth"),  // default-ignorable characters
        ("plain ascii 123", "plain ascii 123"),
        ("ノルウェイの森", "ノ ル ウ ェ イ の 森"),  // each CJK character a word of its own
        ("三体 (The Three-Body)", "三 体 (the three-body)"),
        ("", ""),
    ])
    func folds(input: String, expected: String) {
        #expect(SearchFolding.fold(input) == expected)
    }

    @Test func asciiFastPathIsWhatUTF8ProcGives() {
        let ascii = String(decoding: (0..<128).map { UInt8($0) }, as: UTF8.self)
        var copy = ascii
        let slow = copy.withUTF8 { SearchFolding.unicodeFolded($0) }
        #expect(SearchFolding.fold(ascii) == slow)
        // One character at a time too, so that one difference is named.
        for byte in UInt8(0)..<128 {
            var text = String(decoding: [byte], as: UTF8.self)
            #expect(SearchFolding.fold(text) == text.withUTF8 { SearchFolding.unicodeFolded($0) }, "byte \(byte)")
        }
    }

    @Test("an import's folding cache gives what folding gives, also past its capacity and for names met again")
    func foldingCacheGivesWhatFoldingGives() {
        var cache = FoldingCache()
        let long = String(repeating: " Élan ", count: 60)  // longer than the cache keeps
        let names = ["Lucía Müller", "Фёдор Достоевский", "Bà Triệu", "Øster", "ノルウェイの森", "Dune", "", long]
        for round in 0..<(FoldingCache.capacity / names.count + 3) {
            for name in names {
                let text = round % 2 == 0 ? name : name + " \(round)é"
                #expect(cache.indexText(text) == SearchFolding.indexText(text), "\(text)")
            }
        }
    }

    @Test func theIndexHoldsTheFoldedTextFirst() {
        // What is indexed starts with exactly what a query word folds to: the same function on both sides.
        for text in ["Dune", "Фёдор Достоевский", "Bà Triệu", "L’Œuvre", "ノルウェイの森", "Ἀθῆναι", "ﬁne", "", "Ⅻ"] {
            #expect(SearchFolding.indexText(text).hasPrefix(SearchFolding.fold(text)), "\(text)")
        }
    }

    @Test func foldingIsIdempotent() {
        for text in ["Фёдор Достоевский", "Bà Triệu", "L’Œuvre", "ノルウェイの森", "Ἀθῆναι", "ﬁne"] {
            let once = SearchFolding.fold(text)
            #expect(SearchFolding.fold(once) == once, "\(text)")
        }
    }

    @Test(arguments: [
        ("Фёдор Достоевский", "федор достоевскии fedor dostoevsky"),
        ("Лев Толстой", "лев толстои lev tolstoy"),
        ("Преступление и наказание", "преступление и наказание prestuplenie i nakazanie"),
        ("Ὅμηρος", "ομηροσ omiros"),
        ("Dune", "dune"),
        ("Достоевский & Co.", "достоевскии & co. dostoevsky"),
        ("Толстой, Лев (1828–1910)", "толстои, лев (1828-1910) tolstoy lev"),
        ("Ёжик", "ежик ezhik"),
    ])
    func indexTextAddsALatinSpelling(input: String, expected: String) {
        #expect(SearchFolding.indexText(input) == expected)
    }
}
