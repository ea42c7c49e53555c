import ArgumentParsing
import Testing

@Suite("Validation")
struct ValidationTests {
    @Test(
        "positive whole numbers are accepted",
        arguments: [("12", 12), ("1", 1), ("007", 7), ("9223372036854775807", Int.max)])
    func accepts(_ text: String, _ value: Int) throws {
        #expect(try Validation.positiveInteger(text, for: "<book-id>") == value)
    }

    @Test(
        "anything else is an invalid value with a clear message",
        arguments: ["abc", "-3", "0", "1.5", "", " 1", "+1", "١٢", "99999999999999999999x"])
    func rejects(_ text: String) {
        #expect(throws: ParseError.invalidValue(text, for: "<book-id>", expected: "a positive whole number")) {
            try Validation.positiveInteger(text, for: "<book-id>")
        }
    }

    @Test(
        "a positive whole number too large is refused with the largest allowed",
        arguments: ["99999999999999999999", "9223372036854775808", "00009223372036854775808"])
    func tooLarge(_ text: String) {
        let expected = "a positive whole number of at most 9223372036854775807"
        #expect(throws: ParseError.invalidValue(text, for: "<book-id>", expected: expected)) {
            try Validation.positiveInteger(text, for: "<book-id>")
        }
        #expect(
            throws: ParseError.invalidValue(
                text, for: "--n <n>", expected: "a whole number from -9223372036854775807 to 9223372036854775807")
        ) {
            try Validation.integer(text, for: "--n <n>")
        }
        #expect(throws: ParseError.invalidValue(text, for: "--n <n>", expected: "a whole number from 1 to 9")) {
            try Validation.integer(text, for: "--n <n>", in: 1...9)
        }
    }

    @Test("the message for a zero id")
    func message() {
        #expect(
            ParseError.invalidValue("0", for: "<book-id>", expected: "a positive whole number").message
                == "Invalid value '0' for '<book-id>': expected a positive whole number.")
    }

    @Test("integers with ranges")
    func integers() throws {
        #expect(try Validation.integer("-4", for: "--n <n>") == -4)
        #expect(try Validation.integer("40", for: "--width <n>", in: 20...500) == 40)
        #expect(throws: ParseError.invalidValue("10", for: "--width <n>", expected: "a whole number from 20 to 500")) {
            try Validation.integer("10", for: "--width <n>", in: 20...500)
        }
        #expect(throws: ParseError.invalidValue("x", for: "--n <n>", expected: "a whole number of at least 0")) {
            try Validation.integer("x", for: "--n <n>", in: 0...Int.max)
        }
        #expect(throws: ParseError.invalidValue("-", for: "--n <n>", expected: "a whole number")) {
            try Validation.integer("-", for: "--n <n>")
        }
    }

    @Test("choices list what is allowed")
    func choices() throws {
        #expect(try Validation.choice("csv", for: "--format <format>", allowed: ["csv", "json"]) == "csv")
        #expect(throws: ParseError.invalidValue("CSV", for: "--format <format>", expected: "one of 'csv', 'json'")) {
            try Validation.choice("CSV", for: "--format <format>", allowed: ["csv", "json"])
        }
    }
}
