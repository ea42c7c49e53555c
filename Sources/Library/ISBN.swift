/// ISBN arithmetic: the one place that turns an ISBN-10 into its ISBN-13 and back.
///
/// ```swift
/// ISBN.thirteen(fromTenBody: "044117271")  // "9780441172719"
/// ISBN.checkDigit10("044117271")          // "7"
/// ```
public enum ISBN {
    /// The ISBN-13 of an ISBN-10 whose first nine digits are `body`: "978", the nine digits, the EAN check digit.
    ///
    /// ```swift
    /// ISBN.thirteen(fromTenBody: "044117271")  // "9780441172719"
    /// ```
    public static func thirteen<Digits: StringProtocol>(fromTenBody body: Digits) -> String {
        let digits = nineDigits(body)
        // "978" then the nine digits, weighted 1, 3, 1, 3, ... from the left.
        var sum = 9 + 7 * 3 + 8
        for (index, digit) in digits.enumerated() { sum += digit * ((index + 3) % 2 == 0 ? 1 : 3) }
        return "978" + body + String((10 - sum % 10) % 10)
    }

    /// The ISBN-10 check digit ("0"..."9" or "X") of the nine digits `body`.
    ///
    /// ```swift
    /// ISBN.checkDigit10("044117271")  // "7"
    /// ```
    public static func checkDigit10<Digits: StringProtocol>(_ body: Digits) -> String {
        let digits = nineDigits(body)
        var sum = 0
        for (index, digit) in digits.enumerated() { sum += digit * (10 - index) }
        let check = (11 - sum % 11) % 11
        return check == 10 ? "X" : String(check)
    }

    /// The values of an ISBN-10 body's nine ASCII digits (read as bytes: imports check every row's ISBN).
    private static func nineDigits<Digits: StringProtocol>(_ body: Digits) -> [Int] {
        let digits = body.utf8.map { Int($0) - 0x30 }
        precondition(
            digits.count == 9 && digits.allSatisfy { (0...9).contains($0) }, "an ISBN-10 body is nine digits")
        return digits
    }
}
