import Foundation
import Testing

@testable import Formats

// MARK: - The demo data in seed/

@Test func seedBooksParseWithTheStrictReader() throws {
    var reader = try CSVReader(bytes: try seedFile("books.csv"))
    #expect(reader.header.names == ["title", "author", "year", "pages", "isbn", "description"])
    let records = try reader.readAll()
    #expect(records.count >= 40)
    for record in records {
        #expect(record["title"]?.isEmpty == false, "line \(record.line)")
        #expect(record["author"]?.isEmpty == false, "line \(record.line)")
        #expect(record["description"]?.isEmpty == false, "line \(record.line)")
        #expect(Int(record["year"] ?? "") != nil, "line \(record.line)")
        #expect((Int(record["pages"] ?? "") ?? 0) > 0, "line \(record.line)")
        let isbn = record["isbn"] ?? ""
        #expect(isbn.isEmpty || isValidISBN13(isbn), "line \(record.line): \(isbn)")
    }
    let titles = records.compactMap { $0["title"] }
    #expect(Set(titles).count == titles.count)
    #expect(titles.contains("Преступление и наказание"))
    #expect(titles.contains("三体"))
    #expect(records.contains { $0["year"] == "-725" })
}

@Test func seedClientsHaveExactlyOneDefault() throws {
    var reader = try CSVReader(bytes: try seedFile("clients.csv"))
    #expect(reader.header.names == ["name", "card_number", "loan_limit", "default", "pin"])
    let records = try reader.readAll()
    #expect((3...4).contains(records.count))
    #expect(records.filter { $0["default"] == "yes" }.map { $0["name"] } == ["John Doe"])
    #expect(records.allSatisfy { $0["default"] == "yes" || $0["default"] == "no" })
    #expect(records.allSatisfy { (Int($0["loan_limit"] ?? "") ?? 0) > 0 })
    let cards = records.compactMap { $0["card_number"] }
    #expect(Set(cards).count == records.count)
    #expect(cards.contains("C-0001"))
    // The demo PINs the README documents.
    #expect(records.map { $0["pin"] } == ["1111", "2222", "3333", "4444"])
}

// MARK: - Private

/// The bytes of a file in the repository's seed/ folder, found from this source file's real location.
private func seedFile(_ name: String, filePath: String = #filePath) throws -> [UInt8] {
    let source = URL(fileURLWithPath: filePath).resolvingSymlinksInPath()
    let url = source.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("seed").appendingPathComponent(name)
    return [UInt8](try Data(contentsOf: url))
}

private func isValidISBN13(_ isbn: String) -> Bool {
    let digits = isbn.compactMap(\.wholeNumberValue)
    guard isbn.count == 13, digits.count == 13, isbn.hasPrefix("978") || isbn.hasPrefix("979") else { return false }
    let sum = digits.prefix(12).enumerated().reduce(0) { $0 + $1.element * ($1.offset % 2 == 0 ? 1 : 3) }
    return (10 - sum % 10) % 10 == digits[12]
}
