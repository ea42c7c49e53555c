/// ISBN arithmetic and the one rule for which ISBNs are usable: the one place that turns an ISBN-10 into its ISBN-13
/// and back, and checks check digits.
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

    /// Why a value is not a usable ISBN, in plain words that quote the value.
    public struct Problem: Error, Hashable, Sendable {
        /// What is wrong, such as `'9780306406158' is not an ISBN (its check digit does not match)`.
        public var reason: String
    }

    /// The ISBN-13 digits of `value`, the one rule for every ISBN the library keeps (imports, `books add`,
    /// `POST /v1/books`). Hyphens and spaces are ignored. Usable are:
    ///
    /// - an ISBN-13: 13 digits starting with 978 or 979 whose EAN check digit holds;
    /// - an ISBN-10: nine digits and a check digit (`X`, any case, for 10) that holds, converted to its ISBN-13;
    /// - seven to nine digits: an ISBN-10 whose leading zeros a spreadsheet dropped, put back only when the check
    ///   digit then holds.
    ///
    /// An ISBN whose nine digits after the prefix are all zeros (`0`, `0000000000`, `9780000000002`) is a
    /// placeholder, not a book's number. A number a spreadsheet wrote as a float is read when it keeps all its digits
    /// (`9.780439023481e+12`, `9780439023481.0`); one that lost its last digits (`9.78043902348e+12`) throws
    /// `Problem`, as anything else does. White space around the value is ignored, and empty or blank text is no ISBN
    /// (nil).
    ///
    /// ```swift
    /// try ISBN.normalized("0-441-17271-7")   // "9780441172719"
    /// try ISBN.normalized("439023483")       // "9780439023481" (a leading zero restored)
    /// try ISBN.normalized(" ")               // nil
    /// try ISBN.normalized("9780306406158")   // throws: the check digit is 7
    /// ```
    public static func normalized(_ text: String) throws(Problem) -> String? {
        let value = trimmed(text)
        guard !value.isEmpty else { return nil }
        // A control character would be dropped from the value as a message shows it, and the words about digits
        // would then be about another value.
        do { try TextField.isbn.checkCharacters(value) } catch { throw Problem(reason: error.reason) }
        var digits = value
        if looksLikeFloat(value) {
            switch wholeNumber(ofFloat: value) {
            case .whole(let whole): digits = whole
            case .digitsLost:
                throw Problem(
                    reason: "'\(value)' is an ISBN a spreadsheet turned into a number, and its last digits are lost")
            case .notWhole: throw Problem(reason: "'\(value)' is not an ISBN (10 or 13 digits)")
            }
        }
        switch thirteen(parsing: digits) {
        case .usable(let isbn): return isbn
        case _ where digits != value:
            throw Problem(
                reason: "'\(value)' is a number that is no ISBN: a spreadsheet may have turned the ISBN into a number "
                    + "and lost its last digits")
        case .shape: throw Problem(reason: "'\(value)' is not an ISBN (10 or 13 digits)")
        case .prefix: throw Problem(reason: "'\(value)' is not an ISBN (an ISBN-13 starts with 978 or 979)")
        case .checkDigit: throw Problem(reason: "'\(value)' is not an ISBN (its check digit does not match)")
        case .restoredCheckDigit:
            throw Problem(
                reason: "'\(value)' is not an ISBN (its check digit does not match, even with the leading zeros a "
                    + "spreadsheet may have dropped put back)")
        case .zeros: throw Problem(reason: "'\(value)' is not an ISBN (only zeros: a placeholder)")
        }
    }

    /// The ISBN-13 check digit's value (0...9) of the twelve digits `digits` (ASCII bytes), weighted 1, 3, 1, ...
    private static func checkValue13(_ digits: UnsafeBufferPointer<UInt8>) -> Int {
        var sum = 0
        for index in 0..<12 { sum += Int(digits[index] - 0x30) * (index % 2 == 0 ? 1 : 3) }
        return (10 - sum % 10) % 10
    }

    /// What `thirteen(parsing:)` found.
    private enum Parsed {
        case usable(String)
        case shape, prefix, checkDigit, zeros
        /// Seven to nine digits whose check digit does not hold even with the leading zeros put back.
        case restoredCheckDigit
    }

    /// What a float a spreadsheet wrote holds.
    private enum FloatNumber: Equatable {
        /// A whole number written with all its digits (`9.780439023481e+12`, `9780439023481.0`): those digits.
        case whole(String)
        /// A whole number with fewer significant digits than it has (`9.78043902348e+12`): the rest are lost.
        case digitsLost
        /// Not a number, or not a whole one (`1.5`, `12e-3`).
        case notWhole
    }

    /// The whole number a float such as `9.780439023481e+12` writes, when all its digits are written.
    private static func wholeNumber(ofFloat value: String) -> FloatNumber {
        let isDigit = { (byte: UInt8) in byte >= 0x30 && byte <= 0x39 }
        var bytes = Substring(value).utf8[...]
        var digits: [UInt8] = []
        var point: Int?
        while let byte = bytes.first, isDigit(byte) || (byte == UInt8(ascii: ".") && point == nil) {
            if byte == UInt8(ascii: ".") { point = digits.count } else { digits.append(byte) }
            bytes.removeFirst()
        }
        var exponent = 0
        if let byte = bytes.first, byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") {
            bytes.removeFirst()
            var sign = 1
            if let byte = bytes.first, byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-") {
                sign = byte == UInt8(ascii: "-") ? -1 : 1
                bytes.removeFirst()
            }
            guard let first = bytes.first, isDigit(first) else { return .notWhole }
            while let byte = bytes.first, isDigit(byte) {
                exponent = min(exponent * 10 + Int(byte - 0x30), 1_000)
                bytes.removeFirst()
            }
            exponent *= sign
        }
        guard bytes.isEmpty, !digits.isEmpty else { return .notWhole }
        // The digits before the point once the exponent has moved it.
        let whole = (point ?? digits.count) + exponent
        guard whole >= 1 else { return .notWhole }
        guard whole <= digits.count else { return .digitsLost }
        guard digits[whole...].allSatisfy({ $0 == 0x30 }) else { return .notWhole }
        return .whole(String(decoding: digits[..<whole], as: UTF8.self))
    }

    /// A ".", or an exponent ("e+" / "e-", either case), as a spreadsheet writes a number it converted.
    private static func looksLikeFloat(_ value: String) -> Bool {
        var previous: UInt8 = 0
        for byte in value.utf8 {
            if byte == UInt8(ascii: ".") { return true }
            if (byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-"))
                && (previous == UInt8(ascii: "e") || previous == UInt8(ascii: "E"))
            {
                return true
            }
            previous = byte
        }
        return false
    }

    /// The ISBN-13 digits of `value` (not a float), or why it is none. Every imported row comes through here, so
    /// its bytes are collected on the stack rather than in arrays.
    private static func thirteen(parsing value: String) -> Parsed {
        // "-" and " " are one byte each, never part of another scalar's encoding. No ISBN has more than 13 of the
        // other bytes, so collecting stops at the fourteenth.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 14) { buffer -> Parsed in
            let isDigit = { (byte: UInt8) in byte >= 0x30 && byte <= 0x39 }
            let isZero = { (byte: UInt8) in byte == 0x30 }
            var count = 0
            for byte in value.utf8 where byte != UInt8(ascii: "-") && byte != UInt8(ascii: " ") {
                guard count < 14 else { return .shape }
                buffer[count] = byte
                count += 1
            }
            let digits = UnsafeBufferPointer(rebasing: buffer[..<count])
            if count == 13, digits.allSatisfy(isDigit) {
                guard digits[0] == 0x39, digits[1] == 0x37, digits[2] == 0x38 || digits[2] == 0x39 else {
                    return .prefix
                }
                guard Int(digits[12]) - 0x30 == checkValue13(digits) else { return .checkDigit }
                guard !digits[3..<12].allSatisfy(isZero) else { return .zeros }
                return .usable(String(unsafeUninitializedCapacity: 13) { $0.initialize(fromContentsOf: digits) })
            }
            if (7...9).contains(count), digits.allSatisfy(isDigit) {
                // A spreadsheet read the ISBN-10 as a number and dropped its leading zeros: put them back, and
                // trust the result only if its check digit holds.
                let zeros = 10 - count
                for index in stride(from: count - 1, through: 0, by: -1) { buffer[index + zeros] = buffer[index] }
                for index in 0..<zeros { buffer[index] = UInt8(ascii: "0") }
                let body = UnsafeBufferPointer(rebasing: buffer[..<9])
                guard checkValue10(body) == Int(buffer[9]) - 0x30 else { return .restoredCheckDigit }
                guard !body.allSatisfy(isZero) else { return .zeros }
                return .usable(thirteen(fromTenBody: body))
            }
            let last = count == 10 ? digits[9] : 0
            if count == 10, digits[..<9].allSatisfy(isDigit), isDigit(last) || last == 0x58 || last == 0x78 {
                let body = UnsafeBufferPointer(rebasing: digits[..<9])
                guard checkValue10(body) == (isDigit(last) ? Int(last) - 0x30 : 10) else { return .checkDigit }
                guard !body.allSatisfy(isZero) else { return .zeros }
                return .usable(thirteen(fromTenBody: body))
            }
            return .shape
        }
    }

    /// An ISBN-10 body is nine ASCII digits; anything else is the caller's mistake.
    private static func checkNineDigits(_ body: UnsafeBufferPointer<UInt8>) {
        precondition(body.count == 9 && body.allSatisfy { $0 >= 0x30 && $0 <= 0x39 }, "an ISBN-10 body is nine digits")
    }
}
