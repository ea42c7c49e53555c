// MARK: - Validation

/// Turns text values into typed values, throwing `ParseError.invalidValue` with a clear reason.
///
/// `place` is the name shown to the user: `"<book-id>"` for an argument, `"--page <n>"` for an option.
///
/// ```swift
/// try Validation.positiveInteger("12", for: "<book-id>")  // 12
/// try Validation.positiveInteger("0", for: "<book-id>")
/// // throws: Invalid value '0' for '<book-id>': expected a positive whole number.
/// ```
public enum Validation {
    /// A whole number greater than zero, written with ASCII digits only (no sign, no spaces, no fraction); one too
    /// large for `Int` is refused with the largest allowed.
    ///
    /// ```swift
    /// try Validation.positiveInteger("7", for: "--limit <n>") == 7
    /// try Validation.positiveInteger("99999999999999999999", for: "<book-id>")
    /// // throws: ... expected a positive whole number of at most 9223372036854775807.
    /// ```
    public static func positiveInteger(_ text: String, for place: String) throws(ParseError) -> Int {
        switch parseDigits(text) {
        case .number(let number) where number > 0:
            return number
        case .tooLarge:
            throw .invalidValue(text, for: place, expected: "a positive whole number of at most \(Int.max)")
        default:
            throw .invalidValue(text, for: place, expected: "a positive whole number")
        }
    }

    /// A whole number (an optional leading `-` then ASCII digits), optionally limited to `range`.
    ///
    /// ```swift
    /// try Validation.integer("40", for: "--width <n>", in: 20...500) == 40
    /// ```
    public static func integer(
        _ text: String, for place: String, in range: ClosedRange<Int>? = nil
    ) throws(ParseError) -> Int {
        let negative = text.hasPrefix("-")
        let magnitude: Int
        switch negative ? parseDigits(String(text.dropFirst())) : parseDigits(text) {
        case .number(let number):
            magnitude = number
        case .tooLarge:
            throw .invalidValue(
                text, for: place,
                expected: range.map(describe) ?? "a whole number from \(-Int.max) to \(Int.max)")
        case .notDigits:
            throw .invalidValue(text, for: place, expected: range.map(describe) ?? "a whole number")
        }
        let number = negative ? -magnitude : magnitude
        if let range, !range.contains(number) {
            throw .invalidValue(text, for: place, expected: describe(range))
        }
        return number
    }

    /// One of `allowed`, compared exactly.
    ///
    /// ```swift
    /// try Validation.choice("json", for: "--format <format>", allowed: ["csv", "json"]) == "json"
    /// ```
    public static func choice(_ text: String, for place: String, allowed: [String]) throws(ParseError) -> String {
        guard allowed.contains(text) else {
            throw .invalidValue(text, for: place, expected: describe(allowed))
        }
        return text
    }

    /// The wording for a list of allowed values, e.g. `one of 'csv', 'json'`.
    ///
    /// ```swift
    /// Validation.describe(["csv", "json"]) == "one of 'csv', 'json'"
    /// ```
    public static func describe(_ allowed: [String]) -> String {
        "one of " + allowed.map { "'\($0)'" }.joined(separator: ", ")
    }

    // MARK: - Private

    private static func describe(_ range: ClosedRange<Int>) -> String {
        range.upperBound == Int.max
            ? "a whole number of at least \(range.lowerBound)"
            : "a whole number from \(range.lowerBound) to \(range.upperBound)"
    }

    /// What a text of digits is: a number that fits in `Int`, digits too many for it, or not only digits.
    private enum Digits {
        case number(Int)
        case tooLarge
        case notDigits
    }

    /// Non-empty ASCII digits as a number, or why they are not one.
    private static func parseDigits(_ text: String) -> Digits {
        guard !text.isEmpty else { return .notDigits }
        var number = 0
        var overflowed = false
        for byte in text.utf8 {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return .notDigits }
            let (times, overflow1) = number.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = times.addingReportingOverflow(Int(byte - UInt8(ascii: "0")))
            if overflow1 || overflow2 { overflowed = true }
            number = sum
        }
        return overflowed ? .tooLarge : .number(number)
    }
}
