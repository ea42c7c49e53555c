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
        thirteen(fromTenBody: Array(body.utf8))
    }

    /// The same, for the nine digits as ASCII bytes (an import reads them so).
    ///
    /// ```swift
    /// ISBN.thirteen(fromTenBody: Array("044117271".utf8))  // "9780441172719"
    /// ```
    public static func thirteen(fromTenBody body: [UInt8]) -> String {
        body.withUnsafeBufferPointer { thirteen(fromTenBody: $0) }
    }

    /// The same, for the nine digits in memory (an import collects them on the stack).
    ///
    /// ```swift
    /// Array("044117271".utf8).withUnsafeBufferPointer { ISBN.thirteen(fromTenBody: $0) }  // "9780441172719"
    /// ```
    public static func thirteen(fromTenBody body: UnsafeBufferPointer<UInt8>) -> String {
        checkNineDigits(body)
        return String(unsafeUninitializedCapacity: 13) { text in
            // "978" then the nine digits, weighted 1, 3, 1, 3, ... from the left, then the EAN check digit.
            text[0] = UInt8(ascii: "9")
            text[1] = UInt8(ascii: "7")
            text[2] = UInt8(ascii: "8")
            var sum = 9 + 7 * 3 + 8
            for index in 0..<9 {
                let digit = body[index]
                text[index + 3] = digit
                sum += Int(digit - 0x30) * ((index + 3) % 2 == 0 ? 1 : 3)
            }
            text[12] = UInt8(ascii: "0") + UInt8((10 - sum % 10) % 10)
            return 13
        }
    }

    /// The ISBN-10 check digit ("0"..."9" or "X") of the nine digits `body`.
    ///
    /// ```swift
    /// ISBN.checkDigit10("044117271")  // "7"
    /// ```
    public static func checkDigit10<Digits: StringProtocol>(_ body: Digits) -> String {
        let check = checkValue10(Array(body.utf8))
        return check == 10 ? "X" : String(check)
    }

    /// The ISBN-10 check digit's value (0...10, 10 written "X") of the nine digits given as ASCII bytes.
    ///
    /// ```swift
    /// ISBN.checkValue10(Array("044117271".utf8))  // 7
    /// ```
    public static func checkValue10(_ body: [UInt8]) -> Int {
        body.withUnsafeBufferPointer { checkValue10($0) }
    }

    /// The same, for the nine digits in memory.
    ///
    /// ```swift
    /// Array("044117271".utf8).withUnsafeBufferPointer { ISBN.checkValue10($0) }  // 7
    /// ```
    public static func checkValue10(_ body: UnsafeBufferPointer<UInt8>) -> Int {
        checkNineDigits(body)
        var sum = 0
        for index in 0..<9 { sum += Int(body[index] - 0x30) * (10 - index) }
        return (11 - sum % 11) % 11
    }

    /// An ISBN-10 body is nine ASCII digits; anything else is the caller's mistake.
    private static func checkNineDigits(_ body: UnsafeBufferPointer<UInt8>) {
        precondition(body.count == 9 && body.allSatisfy { $0 >= 0x30 && $0 <= 0x39 }, "an ISBN-10 body is nine digits")
    }
}
