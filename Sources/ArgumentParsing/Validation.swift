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
    /// A whole number greater than zero, written with ASCII digits only (no sign, no spaces, no fraction).
    ///
    /// ```swift
    /// try Validation.positiveInteger("7", for: "--limit <n>") == 7
    /// ```
    public static func positiveInteger(_ text: String, for place: String) throws(ParseError) -> Int {
        guard let number = parseDigits(text), number > 0 else {
            throw .invalidValue(text, for: place, expected: "a positive whole number")
        }
        return number
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
        let magnitude = negative ? parseDigits(String(text.dropFirst())) : parseDigits(text)
        guard let magnitude else {
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

    /// Non-empty ASCII digits that fit in `Int`; nil otherwise (including overflow).
    private static func parseDigits(_ text: String) -> Int? {
        guard !text.isEmpty else { return nil }
        var number = 0
        for byte in text.utf8 {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            let (times, overflow1) = number.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = times.addingReportingOverflow(Int(byte - UInt8(ascii: "0")))
            if overflow1 || overflow2 { return nil }
            number = sum
        }
        return number
    }
}
