import Seeding
import Testing

@Suite("The synthetic catalog")
struct CatalogGeneratorTests {
    @Test("the same seed gives the same books; another seed gives others")
    func deterministic() {
        func books(_ seed: UInt64) -> [BookRecord] {
            var generator = CatalogGenerator(seed: seed)
            return (0..<50).map { generator.book(number: $0) }
        }
        #expect(books(7) == books(7))
        #expect(books(7) != books(8))
    }

    @Test("every generated ISBN is a distinct, valid ISBN-13")
    func isbns() throws {
        var seen = Set<String>()
        for number in [0, 1, 2, 9, 10, 12_345, 99_999_999] {
            let isbn = CatalogGenerator.isbn(number: number)
            #expect(isbn.count == 13)
            #expect(try FieldParsing.isbn(isbn) == isbn)
            let digits = isbn.compactMap(\.wholeNumberValue)
            let sum = digits.enumerated().reduce(0) { $0 + $1.element * ($1.offset % 2 == 0 ? 1 : 3) }
            #expect(sum % 10 == 0)
            seen.insert(isbn)
        }
        #expect(seen.count == 7)
    }

    @Test("generated books are valid records")
    func valid() {
        var generator = CatalogGenerator(seed: 1)
        for number in 0..<200 {
            let book = generator.book(number: number)
            #expect(!book.title.isEmpty)
            #expect(!book.author.isEmpty)
            #expect((1800...2025).contains(book.year ?? 0))
        }
    }
}
