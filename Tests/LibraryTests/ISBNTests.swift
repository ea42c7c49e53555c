import Testing

@testable import Library

@Suite struct ISBNTests {
    @Test func knownISBNs() {
        #expect(ISBN.thirteen(fromTenBody: "030640615") == "9780306406157")
        #expect(ISBN.checkDigit10("030640615") == "2")
        #expect(ISBN.thirteen(fromTenBody: "044117271") == "9780441172719")
        #expect(ISBN.checkDigit10("044117271") == "7")
    }

    @Test func usableISBNs() throws {
        #expect(try ISBN.normalized("9780306406157") == "9780306406157")
        #expect(try ISBN.normalized(" 0-306-40615-2 ") == "9780306406157")
        #expect(try ISBN.normalized("123456789X") == "9781234567897")
        #expect(try ISBN.normalized("979-10-90636-07-1") == "9791090636071")
        #expect(try ISBN.normalized("439023483") == "9780439023481")  // a dropped leading zero put back
        // A float a spreadsheet wrote with all its digits is the number it writes.
        #expect(try ISBN.normalized("9.780439023481e+12") == "9780439023481")
        #expect(try ISBN.normalized("9780439023481.0") == "9780439023481")
        #expect(try ISBN.normalized("9.78043902348100E+12") == "9780439023481")
        #expect(try ISBN.normalized("4.39023483e8") == "9780439023481")  // an ISBN-10 without its leading zero
        #expect(try ISBN.normalized("") == nil)
        #expect(try ISBN.normalized(" \t") == nil)
    }

    @Test(
        arguments: [
            ("9780306406158", "check digit"), ("1234567890", "check digit"), ("9770306406155", "978 or 979"),
            ("0", "10 or 13 digits"), ("19", "10 or 13 digits"), ("0000000000", "zeros"), ("9780000000002", "zeros"),
            ("9.78043902348e+12", "last digits are lost"), ("9.780439023482e+12", "may have turned"),
            ("9780439023481.5", "10 or 13 digits"), ("9.780439023481e-12", "10 or 13 digits"),
            ("1.2.3", "10 or 13 digits"), ("1e+", "10 or 13 digits"),
            ("439023484", "even with the leading zeros"), ("812971060", "check digit does not match"),
            ("12345678901", "10 or 13 digits"),
        ])
    func unusableISBNs(text: String, why: String) {
        #expect(throws: ISBN.Problem.self) { try ISBN.normalized(text) }
        do {
            _ = try ISBN.normalized(text)
        } catch {
            #expect(error.reason.hasPrefix("'\(text)' "), "\(error.reason)")
            #expect(error.reason.contains(why), "\(error.reason)")
        }
    }

    /// The byte arithmetic against the textbook definitions, for many bodies (and every check digit, X included).
    @Test func arithmeticMatchesTheDefinitions() {
        var state: UInt64 = 7
        var checks = Set<String>()
        for _ in 0..<5_000 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let body = String(String(state >> 20).suffix(9)).padding(toNine: "0")
            let digits = body.map { $0.wholeNumberValue! }
            let ten = (11 - digits.enumerated().map { $0.element * (10 - $0.offset) }.reduce(0, +) % 11) % 11
            let check = ten == 10 ? "X" : String(ten)
            checks.insert(check)
            #expect(ISBN.checkDigit10(body) == check, "\(body)")
            #expect(ISBN.checkValue10(Array(body.utf8)) == ten)
            let twelve = [9, 7, 8] + digits
            let sum = twelve.enumerated().map { $0.element * ($0.offset % 2 == 0 ? 1 : 3) }.reduce(0, +)
            #expect(ISBN.thirteen(fromTenBody: body) == "978" + body + String((10 - sum % 10) % 10), "\(body)")
        }
        #expect(checks.count == 11)
    }

    @Test("an ISBN holding a control or bidirectional character is refused as such, not as a count of digits")
    func refusedCharacters() {
        for (text, reason) in [
            ("0439023483\u{202E}", "the ISBN holds a bidirectional control (U+202E) at character 11"),
            ("978\u{1B}0439023481", "the ISBN holds a control character (U+001B) at character 4"),
        ] {
            #expect(throws: ISBN.Problem(reason: reason)) { try ISBN.normalized(text) }
        }
    }
}

extension String {
    fileprivate func padding(toNine pad: Character) -> String {
        String(repeating: pad, count: max(0, 9 - count)) + self
    }
}
