import Foundation
import Testing

extension BadInputTests {
    /// One bad input file, written into the sandbox and given to a command (`import` unless it says otherwise).
    struct BadFile: Sendable, CustomTestStringConvertible {
        var name: String
        var command: [String]
        var bytes: @Sendable () -> [UInt8]
        var code: Int32
        var message: String

        var testDescription: String { (command + [name]).joined(separator: " ") }
    }

    @Suite("Bad input files: the documented exit code and message, and nothing imported")
    struct Files {
        @Test("A bad file is refused", arguments: badFiles)
        func refused(_ file: BadFile) throws {
            let sandbox = try BadInputTests.sandbox()
            let path = sandbox.directory + "/" + file.name
            try Data(file.bytes()).write(to: URL(fileURLWithPath: path))
            let before = try sandbox.dump()
            let result = sandbox.run(file.command + [path])
            BadInputTests.expectFailure(result, code: file.code, message: file.message, file.testDescription)
            let unchanged = try sandbox.dump() == before
            #expect(unchanged, "\(file.testDescription) changed the database")
        }

        @Test("The corpus holds at least 50 files, CSV and JSON")
        func size() {
            #expect(badFiles.count >= 50)
            #expect(badFiles.filter { $0.name.hasSuffix(".csv") }.count >= 20)
            #expect(badFiles.filter { $0.name.hasSuffix(".json") || $0.name.hasSuffix(".jsonl") }.count >= 20)
        }
    }
}

// MARK: - The corpus

private typealias F = BadInputTests.BadFile

private func file(
    _ name: String, _ text: String, _ message: String, code: Int32 = 65, command: [String] = ["import"]
) -> F {
    F(name: name, command: command, bytes: { Array(text.utf8) }, code: code, message: message)
}

private func binary(
    _ name: String, bytes: @escaping @Sendable () -> [UInt8], _ message: String, code: Int32 = 65,
    command: [String] = ["import"]
) -> F {
    F(name: name, command: command, bytes: bytes, code: code, message: message)
}

/// The byte arrays one after another (one expression of `+` is too much for the type checker here).
private func join(_ parts: [UInt8]...) -> [UInt8] { parts.flatMap { $0 } }

/// The text's UTF-8 bytes.
private func utf8(_ text: String) -> [UInt8] { Array(text.utf8) }

/// `count` times the ASCII character.
private func repeated(_ character: Unicode.Scalar, _ count: Int) -> [UInt8] {
    Array(repeating: UInt8(ascii: character), count: count)
}

private let goodLines = (1...500).map { (n: Int) -> String in "{\"title\":\"Book \(n)\"}\n" }.joined()
private let goodRows = (1...1000).map { (n: Int) -> String in "Book \(n),\(1900 + n % 100)\n" }.joined()
private let nothing = "Nothing was imported."
private let megabytes5 = 5 << 20

private let badFiles: [F] = csvFiles + csvLimitFiles + jsonFiles + jsonDepthFiles + seedFiles + textFiles

private let csvFiles: [F] = [
    file("empty.csv", "", "empty.csv: line 1, column 1: the file has no header row. " + nothing),
    file("bom-only.csv", "\u{FEFF}", "the file has no header row"),
    file("blank.csv", "  \n", "no title column: the header needs one of title"),
    file(
        "unterminated.csv", "title,author\n\"Dune,Frank",
        "unterminated.csv: line 2, column 1 (title): quoted field is not closed before the end of the file"),
    file(
        "truncated-row.csv", "title,author,year\nDune,Frank",
        "line 2, column 3 (year): row has 2 fields, header has 3"),
    file(
        "duplicate-header.csv", "title,title\nA,B\n", "line 1, column 2: header name \"title\" appears more than once"),
    file("no-title.csv", "author,year\nX,1999\n", "line 1: no title column"),
    file("plain-text.csv", "hello", "no title column"),
    file("bad-year.csv", "title,year\nX,abc\n", "line 2, column 2 (year): 'abc' is not a year"),
    file("big-year.csv", "title,year\nX,10000\n", "'10000' is not a year"),
    file("negative-pages.csv", "title,pages\nX,-3\n", "line 2, column 2 (pages): '-3' is not a page count"),
    file("text-pages.csv", "title,pages\nX,many\n", "'many' is not a page count"),
    file("fraction-pages.csv", "title,pages\nX,12.5\n", "'12.5' is not a page count"),
    file("empty-title.csv", "title,author\n,X\n", "line 2, column 1 (title): the title is empty"),
    file("sql-year.csv", "title,year\nX,1999); DROP TABLE books; --\n", "is not a year"),
    binary(
        "invalid-utf8.csv", bytes: { join(utf8("title\n"), [0xFF, 0xFE, 0x0A]) },
        "line 2, column 1 (title): invalid UTF-8"),
    binary(
        "invalid-utf8-header.csv", bytes: { join([0x74, 0xFF], utf8("itle\nA\n")) }, "line 1, column 1: invalid UTF-8"),
    binary("overlong-utf8.csv", bytes: { join(utf8("title\n"), [0xC0, 0xAF, 0x0A]) }, "invalid UTF-8"),
    binary("truncated-utf8.csv", bytes: { join(utf8("title\nab"), [0xE2, 0x82]) }, "invalid UTF-8"),
    binary(
        "utf16.csv", bytes: { [0xFF, 0xFE, 0x74, 0x00, 0x69, 0x00, 0x0A, 0x00] },
        "utf16.csv: the file is UTF-16 encoded; save it as UTF-8"),
    binary(
        "nul-field.csv", bytes: { join(utf8("title\nA"), [0], utf8("B\n")) }, "line 2, column 1 (title): a NUL byte"),
    binary("nul-header.csv", bytes: { join(utf8("ti"), [0], utf8("tle\nA\n")) }, "line 1, column 1: a NUL byte"),
    binary("png.csv", bytes: { [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0] }, "invalid UTF-8"),
    binary(
        "gzip.csv", bytes: { [0x1F, 0x8B, 0x08, 0x00, 0x00] },
        "gzip.csv: the file is gzip-compressed; decompress it first (gunzip)"),
    file("lone-cr.csv", "title,author\rA,B\r", "line 1, column 2: a carriage return (CR) not followed by a line feed"),
    file("lone-cr-field.csv", "title\nA\rB\n", "line 2, column 1 (title): a carriage return (CR)"),
    file(
        "bom-crlf-lone-cr.csv", "\u{FEFF}title,author\r\nA,B\r\nC,D\rE,F\n",
        "line 3, column 2 (author): a carriage return"),
    file("after-quote.csv", "title\n\"A\"x\n", "characters after a closing quote; expected a comma or a line break"),
    file("bare-quote.csv", "title\nA\"B\n", "a quote (\") inside a field that is not quoted"),
    file("too-many-fields.csv", "title,author\nA,B,C\n", "line 2, column 3: row has 3 fields, header has 2"),
    file("too-few-fields.csv", "title,author\nA\n", "row has 1 field, header has 2"),
    file(
        "clients.csv", "name,card_number\nAda,C-9\n",
        "line 1: this looks like a clients file (it has a card number), but books were expected"),
    file(
        "last-row-bad.csv",
        "title,year\n" + goodRows + "Bad,abc\n",
        "line 1002, column 2 (year): 'abc' is not a year"),
    file("dry-run.csv", "title,year\nX,abc\n", "'abc' is not a year", command: ["import", "--dry-run"]),
]

private let csvLimitFiles: [F] = [
    // A header of 1,000,000 commas: refused by the column limit, not read into a million strings.
    binary(
        "million-columns.csv", bytes: { join(repeated(",", 1_000_000), [0x0A]) },
        "line 1, column 10001: row has more than 10000 columns"),
    binary(
        "wide-row.csv", bytes: { join(utf8("title\n"), repeated(",", 20_000), [0x0A]) },
        "line 2, column 10001: row has more than 10000 columns"),
    binary(
        "huge-field.csv", bytes: { join(utf8("title\n"), repeated("x", megabytes5)) },
        "line 2, column 1 (title): field is larger than 1048576 bytes"),
    binary(
        "huge-quoted-field.csv", bytes: { join(utf8("title,author\n\""), repeated("y", megabytes5), utf8("\",A\n")) },
        "field is larger than 1048576 bytes"),
]

private let jsonFiles: [F] = [
    file("empty.json", "", "empty.json: line 1, column 1: expected a JSON array of objects or JSON Lines"),
    file("blank.json", "   \n", "expected a JSON array of objects or JSON Lines"),
    file("string.json", "\"hello\"", "expected a JSON array of objects or JSON Lines"),
    file("comment.json", "// books\n[{\"title\":\"x\"}]", "expected a JSON array of objects or JSON Lines"),
    file("truncated.json", "[{\"title\":\"x\"", "line 1, column 14: unexpected end of input"),
    file("truncated-string.json", "[{\"title\":\"x", "string is not closed"),
    file("truncated-array.json", "[{\"title\":\"x\"}", "unexpected end of input"),
    file("trailing-junk.json", "[{\"title\":\"x\"}] junk", "unexpected characters after the value"),
    file("trailing-comma.json", "[{\"title\":\"x\"},]", "trailing comma"),
    file("single-quotes.json", "[{'title':'x'}]", "expected a string key"),
    file("numbers.json", "[1,2]", "expected an object, found number"),
    file("nulls.json", "[null]", "expected an object, found null"),
    file("title-bool.json", "[{\"title\":true}]", "line 1, key \"title\": expected text or a number, found boolean"),
    file("title-array.json", "[{\"title\":[1]}]", "expected text or a number, found array"),
    file("title-object.json", "[{\"title\":{}}]", "expected text or a number, found object"),
    file("title-null.json", "[{\"title\":null}]", "key \"title\": the title is empty"),
    file("title-blank.json", "[{\"title\":\"   \"}]", "the title is empty"),
    file("year-text.json", "[{\"title\":\"x\",\"year\":\"abc\"}]", "key \"year\": 'abc' is not a year"),
    file("year-fraction.json", "[{\"title\":\"x\",\"year\":1999.5}]", "'1999.5' is not a year"),
    file("year-huge.json", "[{\"title\":\"x\",\"year\":1e400}]", "number is too large"),
    file("year-nan.json", "[{\"title\":\"x\",\"year\":NaN}]", "unexpected character 'N'"),
    file("pages-huge.json", "[{\"title\":\"x\",\"pages\":1e10}]", "is not a page count"),
    file("pages-negative.json", "[{\"title\":\"x\",\"pages\":-1}]", "key \"pages\": '-1' is not a page count"),
    file("sql-pages.json", "[{\"title\":\"x\",\"pages\":\"1; DELETE FROM books\"}]", "is not a page count"),
    file("control-char.json", "[{\"title\":\"a\u{1}b\"}]", "control character in string must be escaped"),
    binary("raw-nul.json", bytes: { join(utf8("[{\"title\":\"a"), [0], utf8("b\"}]")) }, "control character in string"),
    file("lone-surrogate.json", "[{\"title\":\"\\ud800\"}]", "unpaired UTF-16 surrogate in \\u escape"),
    binary("invalid-utf8.json", bytes: { join(utf8("[{\"title\":\""), [0xFF], utf8("\"}]")) }, "invalid UTF-8"),
    file("duplicate-key.json", "[{\"title\":\"a\",\"title\":\"b\"}]", "duplicate key \"title\""),
    file("clients.json", "[{\"name\":\"X\",\"card_number\":\"C-9\"}]", "this looks like a clients file"),
]

private let jsonDepthFiles: [F] = [
    file("deep-arrays.json", String(repeating: "[", count: 100_000), "arrays and objects nested deeper than"),
    file("deep-objects.json", String(repeating: "{\"a\":", count: 100_000), "arrays and objects nested deeper than"),
    file(
        "deep-closed.json", String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000),
        "arrays and objects nested deeper than"),
    file(
        "broken-line.jsonl", "{\"title\":\"a\"}\n{\"title\":\n",
        "broken-line.jsonl: line 2, column 10: unexpected end of input"),
    file(
        "two-on-a-line.jsonl", "{\"title\":\"a\"} {\"title\":\"b\"}",
        "line 1, column 15: unexpected characters after the value"),
    file("array-line.jsonl", "{\"title\":\"a\"}\n[1]\n", "line 2"),
    file(
        "last-line-bad.jsonl", goodLines + "{\"title\":\"x\",\"year\":\"x\"}\n",
        "line 501, key \"year\": 'x' is not a year"),
]

private let seedFiles: [F] = [
    file("seed-unterminated.csv", "title\n\"A", "quoted field is not closed", command: ["seed", "--file"]),
    file("seed-deep.json", String(repeating: "[", count: 100_000), "nested deeper than", command: ["seed", "--file"]),
    binary(
        "seed-columns.csv", bytes: { repeated(",", 1_000_000) }, "more than 10000 columns", command: ["seed", "--file"]),
    file(
        "clients-empty-name.csv", "name,card_number\n,C-9\n", "line 2, column 1 (name): the name is empty",
        command: ["seed", "--file"]),
    file(
        "clients-empty-card.csv", "name,card_number\nX,\n", "(card_number): the card number is empty",
        command: ["seed", "--file"]),
    file(
        "clients-bad-limit.csv", "name,card_number,limit\nX,C-9,abc\n", "(limit): 'abc' is not a loan limit",
        command: ["seed", "--file"]),
    file(
        "clients-sql-limit.csv", "name,card_number,limit\nX,C-9,5; DROP TABLE clients\n", "is not a loan limit",
        command: ["seed", "--file"]),
]

/// Text the library cannot keep (control characters, values over their limits): a bad row with line and column.
private let textFiles: [F] = [
    file(
        "escape-title.csv", "title,author\nGood,A\n\"Evil\u{1B}[2J\",B\n",
        "line 3, column 1 (title): the title holds a control character (U+001B) at character 5"),
    file(
        "newline-title.csv", "title\n\"Two\nlines\"\n", "line 2, column 1 (title): the title holds a control character"),
    file("tab-author.csv", "title,author\nX,\"A\tB\"\n", "line 2, column 2 (author): the author holds a control"),
    file("c1-author.csv", "title,author\nX,A\u{9B}B\n", "(author): the author holds a control character (U+009B)"),
    file("bell-description.csv", "title,description\nX,ding\u{7}\n", "(description): the description holds a control"),
    file("long-title.csv", "title\n" + String(repeating: "t", count: 501) + "\n", "the title is 501 characters long"),
    file(
        "long-description.csv", "title,description\nX," + String(repeating: "d", count: 4_001) + "\n",
        "line 2, column 2 (description): the description is 4001 characters long; at most 4000"),
    file("escape-title.json", "[{\"title\":\"Evil\\u001b[31m\"}]", "line 1, key \"title\": the title holds a control"),
    file(
        "del-author.jsonl", "{\"title\":\"X\",\"author\":\"A\\u007fB\"}\n", "key \"author\": the author holds a control"
    ),
    file(
        "clients-escape-name.csv", "name,card_number\n\"Ann\u{1B}]0;x\u{7}\",C-9\n",
        "line 2, column 1 (name): the name holds a control character (U+001B)", command: ["seed", "--file"]),
    file(
        "clients-long-card.csv", "name,card_number\nAnn," + String(repeating: "9", count: 101) + "\n",
        "(card_number): the card number is 101 characters long", command: ["seed", "--file"]),
]
