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
        precondition(body.count == 9 && body.allSatisfy(\.isASCIIDigit), "an ISBN-10 body is nine digits")
        let digits = [9, 7, 8] + body.map { Int($0.asciiValue! - 0x30) }
        var sum = 0
        for (index, digit) in digits.enumerated() { sum += digit * (index % 2 == 0 ? 1 : 3) }
        return "978" + body + String((10 - sum % 10) % 10)
    }

    /// The ISBN-10 check digit ("0"..."9" or "X") of the nine digits `body`.
    ///
    /// ```swift
    /// ISBN.checkDigit10("044117271")  // "7"
    /// ```
    public static func checkDigit10<Digits: StringProtocol>(_ body: Digits) -> String {
        precondition(body.count == 9 && body.allSatisfy(\.isASCIIDigit), "an ISBN-10 body is nine digits")
        var sum = 0
        for (index, character) in body.enumerated() { sum += Int(character.asciiValue! - 0x30) * (10 - index) }
        let check = (11 - sum % 11) % 11
        return check == 10 ? "X" : String(check)
    }
}

extension Character {
    /// "0" to "9".
    fileprivate var isASCIIDigit: Bool { self >= "0" && self <= "9" }
}
