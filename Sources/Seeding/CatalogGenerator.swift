/// Makes a deterministic synthetic catalog of any size, for benchmarks and trying the program at scale.
///
/// The same count and seed give the same books on every machine: titles and authors are drawn from small word
/// lists (some with accents) by a SplitMix64 generator, and each book gets a distinct, valid ISBN-13 (prefix 979-8)
/// from its number, so books numbered after the library's highest synthetic ISBN are always new.
///
/// For example:
///
///     var generator = CatalogGenerator(seed: 42)
///     let books = (0..<3).map { generator.book(number: $0) }
public struct CatalogGenerator: Sendable {
    private var state: UInt64

    /// The largest catalog the generator can make: each book needs its own synthetic ISBN.
    ///
    ///     CatalogGenerator.maxCount  // 100_000_000
    public static let maxCount = 100_000_000

    /// Creates a generator; the seed picks which catalog comes out.
    ///
    ///     CatalogGenerator(seed: 1)
    public init(seed: UInt64) {
        state = seed
    }

    /// The book with this 0-based number in the sequence. Call in order: each call advances the generator.
    ///
    ///     generator.book(number: 0).title  // e.g. "The Silent River"
    public mutating func book(number: Int) -> BookRecord {
        // Words drawn in this order, each text put together once from its words' bytes (string interpolation
        // was a tenth of a seed's own work).
        let title = Self.text(pick(Self.openings), " ", pick(Self.adjectives), " ", pick(Self.nouns))
        let author = Self.text(pick(Self.givenNames), " ", pick(Self.familyNames))
        let year = 1800 + Int(next() % 226)
        let pages = 80 + Int(next() % 900)
        let description = Self.text("A ", pick(Self.lowercaseAdjectives), " story of ", pick(Self.lowercaseNouns), "s.")
        return BookRecord(
            title: title, author: author, year: year, pages: pages, isbn: Self.isbn(number: number),
            description: description)
    }

    /// The first four digits of every synthetic ISBN.
    ///
    ///     CatalogGenerator.isbnPrefix  // "9798"
    public static let isbnPrefix = "9798"

    /// The number after the one `isbn` was made from (0 when there is none), so new books never reuse an ISBN.
    /// A 979-8 ISBN that is not synthetic counts by its digits all the same.
    ///
    ///     CatalogGenerator.nextNumber(after: "9798000000007")  // 1
    public static func nextNumber(after isbn: String?) -> Int {
        guard let isbn, isbn.hasPrefix(isbnPrefix), isbn.utf8.count == 13,
            let number = Int(isbn.dropFirst(4).prefix(8))
        else { return 0 }
        return number + 1
    }

    /// A valid ISBN-13 unique to `number` (0 to 99,999,999), in the 979-8 range.
    ///
    ///     CatalogGenerator.isbn(number: 0)  // "9798000000007"
    public static func isbn(number: Int) -> String {
        precondition((0..<maxCount).contains(number), "synthetic ISBNs cover 100 million books")
        // "9798", the number in 8 digits, the EAN-13 check digit (weights 1, 3, 1, 3, ...), written as bytes.
        return String(unsafeUninitializedCapacity: 13) { text in
            let prefix: [UInt8] = [9, 7, 9, 8]
            var rest = number
            for index in stride(from: 11, through: 4, by: -1) {
                text[index] = UInt8(rest % 10)
                rest /= 10
            }
            for index in 0..<4 { text[index] = prefix[index] }
            var sum = 0
            for index in 0..<12 { sum += Int(text[index]) * (index % 2 == 0 ? 1 : 3) }
            text[12] = UInt8((10 - sum % 10) % 10)
            for index in 0..<13 { text[index] += UInt8(ascii: "0") }
            return 13
        }
    }

    // MARK: - Private

    private mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    private mutating func pick(_ words: [String]) -> String {
        words[Int(next() % UInt64(words.count))]
    }

    /// The pieces one after another, in one allocation.
    private static func text(_ pieces: String...) -> String {
        let count = pieces.reduce(0) { $0 + $1.utf8.count }
        return String(unsafeUninitializedCapacity: count) { buffer in
            var end = 0
            for piece in pieces {
                var piece = piece
                piece.withUTF8 { bytes in
                    for byte in bytes {
                        buffer[end] = byte
                        end += 1
                    }
                }
            }
            return end
        }
    }

    private static let openings = ["The", "A", "Beyond the", "Under the", "Letters from the", "Return of the"]
    private static let adjectives = [
        "Silent", "Crimson", "Forgotten", "Endless", "Hidden", "Brave", "Quiet", "Distant", "Golden", "Frozen",
        "Wandering", "Last", "Secret", "Broken", "Gentle", "Wild", "Éternel", "Señorial",
    ]
    private static let nouns = [
        "River", "Garden", "Library", "Mountain", "Harbor", "Winter", "Archive", "Lantern", "Orchard", "Island",
        "Kingdom", "Letter", "Voyage", "Clock", "Forest", "Mirror", "Café", "Tower",
    ]
    private static let lowercaseAdjectives = adjectives.map { $0.lowercased() }
    private static let lowercaseNouns = nouns.map { $0.lowercased() }
    private static let givenNames = [
        "Ada", "Boris", "Chiara", "Dmitri", "Elif", "Farah", "Gustav", "Hana", "Iñaki", "Jun", "Kwame", "Lucía",
        "Mateus", "Nadia", "Oskar", "Priya",
    ]
    private static let familyNames = [
        "Moreau", "Okafor", "Lindqvist", "Tanaka", "García", "Novak", "Haddad", "Kowalski", "Rossi", "Müller",
        "Nguyen", "Silva", "Byrne", "Petrov", "Dubois", "Øster",
    ]
}
