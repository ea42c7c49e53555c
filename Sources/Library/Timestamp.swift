import Glibc

/// A moment in UTC, in whole seconds since 1970-01-01T00:00:00Z, written as ISO-8601 ("2026-11-29T14:40:00Z").
///
/// Stored in the database as that text, which sorts as it compares. Only the years 0001 to 9999 can be written
/// with four digits, so a timestamp is always within `Timestamp.earliest...Timestamp.latest`: parsing, creating and
/// adding refuse anything outside with `TimestampError`. There is no global clock: callers pass `now` in (the CLI
/// reads `Timestamp.systemNow()` once at start-up).
///
/// ```swift
/// let taken = try Timestamp(iso8601: "2026-11-29T14:40:00Z")
/// let due = try taken.adding(days: 14)
/// print(due.iso8601)  // "2026-12-13T14:40:00Z"
/// ```
public struct Timestamp: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// Seconds since the Unix epoch (negative before 1970).
    public let secondsSinceEpoch: Int64

    /// The first moment a timestamp can hold, 0001-01-01T00:00:00Z.
    ///
    /// ```swift
    /// Timestamp.earliest.iso8601  // "0001-01-01T00:00:00Z"
    /// ```
    public static let earliest = Timestamp(unchecked: -62_135_596_800)

    /// The last moment a timestamp can hold, 9999-12-31T23:59:59Z.
    ///
    /// ```swift
    /// Timestamp.latest.iso8601  // "9999-12-31T23:59:59Z"
    /// ```
    public static let latest = Timestamp(unchecked: 253_402_300_799)

    /// Creates a timestamp from seconds since the Unix epoch; throws `TimestampError` outside the years 0001-9999.
    ///
    /// ```swift
    /// try Timestamp(secondsSinceEpoch: 0).iso8601  // "1970-01-01T00:00:00Z"
    /// ```
    public init(secondsSinceEpoch: Int64) throws(TimestampError) {
        guard (Self.earliest.secondsSinceEpoch...Self.latest.secondsSinceEpoch).contains(secondsSinceEpoch) else {
            throw TimestampError(outOfRange: "\(secondsSinceEpoch) seconds since 1970-01-01T00:00:00Z")
        }
        self.secondsSinceEpoch = secondsSinceEpoch
    }

    /// Creates a timestamp from UTC calendar fields, or nil when they are not a real date and time in the years
    /// 0001-9999.
    ///
    /// ```swift
    /// let t = Timestamp(year: 2026, month: 11, day: 29, hour: 14, minute: 40)!
    /// ```
    public init?(year: Int, month: Int, day: Int, hour: Int = 0, minute: Int = 0, second: Int = 0) {
        guard (1...9999).contains(year), (1...12).contains(month),
            (1...Self.daysIn(month: month, year: year)).contains(day),
            (0...23).contains(hour), (0...59).contains(minute), (0...59).contains(second)
        else { return nil }
        let days = Self.daysFromCivil(year: Int64(year), month: Int64(month), day: Int64(day))
        self.secondsSinceEpoch = days * 86_400 + Int64(hour * 3_600 + minute * 60 + second)
    }

    /// Parses ISO-8601 "YYYY-MM-DDTHH:MM:SS" with "Z" or a "±hh:mm" offset, optionally with fractional seconds
    /// (dropped). Throws `TimestampError` for anything else, and for a moment outside the years 0001-9999 in UTC.
    ///
    /// ```swift
    /// try Timestamp(iso8601: "2026-11-29T16:40:00.250+02:00").iso8601  // "2026-11-29T14:40:00Z"
    /// ```
    public init(iso8601 text: String) throws(TimestampError) {
        var parser = TimestampParser(text: text)
        self = try parser.parse()
    }

    /// The current time from the system clock; call once at start-up and pass it in. A clock set outside the
    /// years 0001-9999 reads as the nearest end of that range.
    ///
    /// ```swift
    /// let now = Timestamp.systemNow()
    /// ```
    public static func systemNow() -> Timestamp {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        let seconds = Int64(spec.tv_sec)
        return Timestamp(unchecked: min(max(seconds, earliest.secondsSinceEpoch), latest.secondsSinceEpoch))
    }

    // MARK: - Arithmetic

    /// The timestamp `days` whole days (of 86,400 s) later (earlier when negative); throws `TimestampError` when
    /// that is outside the years 0001-9999.
    ///
    /// ```swift
    /// try taken.adding(days: 14)
    /// ```
    public func adding(days: Int) throws(TimestampError) -> Timestamp {
        let (seconds, overflow) = Int64(days).multipliedReportingOverflow(by: 86_400)
        guard !overflow else { throw TimestampError(outOfRange: "\(iso8601) plus \(days) days") }
        do {
            return try adding(seconds: seconds)
        } catch {
            throw TimestampError(outOfRange: "\(iso8601) plus \(days) \(days == 1 ? "day" : "days")")
        }
    }

    /// The last second of this timestamp's day in UTC, 23:59:59: when a loan due that day falls due.
    ///
    /// ```swift
    /// try Timestamp(iso8601: "2026-12-13T10:00:00Z").endOfDay.iso8601  // "2026-12-13T23:59:59Z"
    /// ```
    public var endOfDay: Timestamp {
        let second = secondsSinceEpoch - (secondsSinceEpoch % 86_400 + 86_400) % 86_400 + 86_399
        return Timestamp(unchecked: second)
    }

    /// The timestamp `seconds` later (earlier when negative); throws `TimestampError` when that is outside the
    /// years 0001-9999.
    ///
    /// ```swift
    /// try now.adding(seconds: 60)
    /// ```
    public func adding(seconds: Int64) throws(TimestampError) -> Timestamp {
        let (sum, overflow) = secondsSinceEpoch.addingReportingOverflow(seconds)
        guard !overflow, (Self.earliest.secondsSinceEpoch...Self.latest.secondsSinceEpoch).contains(sum) else {
            throw TimestampError(outOfRange: "\(iso8601) plus \(seconds) seconds")
        }
        return Timestamp(unchecked: sum)
    }

    /// Whole days from `self` to `other`, rounded toward negative infinity (negative when `other` is earlier).
    ///
    /// ```swift
    /// now.days(until: due)  // 3: due in three days
    /// ```
    public func days(until other: Timestamp) -> Int {
        Int(Self.floorDivide(other.secondsSinceEpoch - secondsSinceEpoch, 86_400))
    }

    /// Compares two moments.
    ///
    /// ```swift
    /// if loan.dueAt < now { print("overdue") }
    /// ```
    public static func < (lhs: Timestamp, rhs: Timestamp) -> Bool {
        lhs.secondsSinceEpoch < rhs.secondsSinceEpoch
    }

    // MARK: - Formatting

    /// The UTC calendar fields.
    ///
    /// ```swift
    /// let (year, month, day) = (t.components.year, t.components.month, t.components.day)
    /// ```
    public var components: (year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int) {
        let days = Self.floorDivide(secondsSinceEpoch, 86_400)
        let secondOfDay = Int(secondsSinceEpoch - days * 86_400)
        let (year, month, day) = Self.civilFromDays(days)
        return (Int(year), Int(month), Int(day), secondOfDay / 3_600, secondOfDay / 60 % 60, secondOfDay % 60)
    }

    /// ISO-8601 in UTC with whole seconds, e.g. "2026-11-29T14:40:00Z".
    ///
    /// ```swift
    /// print(now.iso8601)
    /// ```
    public var iso8601: String {
        let c = components
        // Every screen writes several of these: twenty bytes put in place, not a string built piece by piece. A
        // timestamp's year is 1 to 9999 (`earliest`...`latest`), four digits.
        return String(unsafeUninitializedCapacity: 20) { text in
            Self.writeToTheMinute(c, separator: UInt8(ascii: "T"), into: text)
            text[16] = UInt8(ascii: ":")
            Self.writeTwoDigits(c.second, into: text, at: 17)
            text[19] = UInt8(ascii: "Z")
            return 20
        }
    }

    /// The date alone, "2026-11-29".
    ///
    /// ```swift
    /// print("due \(loan.dueAt.date)")
    /// ```
    public var date: String {
        let c = components
        return String(unsafeUninitializedCapacity: 10) { text in
            Self.writeDate(c.year, c.month, c.day, into: text)
            return 10
        }
    }

    /// The date and the time to the minute in UTC, "2026-11-29 14:40": what a table of the command line shows of a
    /// time (the JSON documents keep `iso8601`).
    ///
    /// ```swift
    /// print("created \(token.createdAt.minute)")
    /// ```
    public var minute: String {
        let c = components
        return String(unsafeUninitializedCapacity: 16) { text in
            Self.writeToTheMinute(c, separator: UInt8(ascii: " "), into: text)
            return 16
        }
    }

    /// Writes "2026-11-29T14:40" (with `separator` between the date and the time) into the first 16 bytes of `text`.
    private static func writeToTheMinute(
        _ c: (year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int), separator: UInt8,
        into text: UnsafeMutableBufferPointer<UInt8>
    ) {
        writeDate(c.year, c.month, c.day, into: text)
        text[10] = separator
        writeTwoDigits(c.hour, into: text, at: 11)
        text[13] = UInt8(ascii: ":")
        writeTwoDigits(c.minute, into: text, at: 14)
    }

    /// Same as `iso8601`.
    ///
    /// ```swift
    /// print("\(now)")
    /// ```
    public var description: String { iso8601 }
}

/// Why a text is not an ISO-8601 timestamp.
///
/// ```swift
/// do { _ = try Timestamp(iso8601: "yesterday") } catch { print(error.message) }
/// ```
public struct TimestampError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The text that failed to parse, or the moment that was out of range ("9999-12-31T23:59:59Z plus 14 days").
    public let text: String
    /// What is wrong with it.
    public let reason: String
    /// Whether the text was a well-formed moment outside the years 0001-9999.
    public let isOutOfRange: Bool

    /// Creates an error for a text that is not an ISO-8601 timestamp.
    ///
    /// ```swift
    /// TimestampError(text: "yesterday", reason: "year must have four digits")
    /// ```
    public init(text: String, reason: String) {
        self.text = text
        self.reason = reason
        self.isOutOfRange = false
    }

    /// Creates an error for a moment outside the years 0001-9999.
    ///
    /// ```swift
    /// TimestampError(outOfRange: "9999-12-31T23:59:59Z plus 14 days")
    /// ```
    public init(outOfRange moment: String) {
        self.text = moment
        self.reason = "outside the years 0001 to 9999 that a timestamp can hold"
        self.isOutOfRange = true
    }

    /// A plain English message.
    ///
    /// ```swift
    /// print(error.message)  // "'2026-13-01' is not an ISO-8601 timestamp: month must be 01-12"
    /// // or: "9999-12-31T23:59:59Z plus 14 days is outside the years 0001 to 9999 that a timestamp can hold"
    /// ```
    public var message: String {
        if isOutOfRange { return "\(text) is \(reason)" }
        return "'\(text)' is not an ISO-8601 timestamp (like 2026-11-29T14:40:00Z): \(reason)"
    }

    /// Same as `message`.
    ///
    /// ```swift
    /// print("\(error)")
    /// ```
    public var description: String { message }
}

// MARK: - Calendar arithmetic (proleptic Gregorian; H. Hinnant's algorithms)

extension Timestamp {
    /// A timestamp whose range the caller has checked.
    init(unchecked secondsSinceEpoch: Int64) {
        self.secondsSinceEpoch = secondsSinceEpoch
    }

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return isLeap(year) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    static func isLeap(_ year: Int) -> Bool {
        year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
    }

    static func daysFromCivil(year: Int64, month: Int64, day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = floorDivide(y, 400)
        let yearOfEra = y - era * 400
        let monthIndex = (month + 9) % 12
        let dayOfYear = (153 * monthIndex + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    static func civilFromDays(_ days: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let z = days + 719_468
        let era = floorDivide(z, 146_097)
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    static func floorDivide(_ a: Int64, _ b: Int64) -> Int64 {
        let quotient = a / b
        return (a % b != 0 && (a < 0) != (b < 0)) ? quotient - 1 : quotient
    }

    /// "YYYY-MM-DD" into the first ten bytes of `text`, for a year from 0 to 9999.
    private static func writeDate(_ year: Int, _ month: Int, _ day: Int, into text: UnsafeMutableBufferPointer<UInt8>) {
        writeTwoDigits(year / 100, into: text, at: 0)
        writeTwoDigits(year % 100, into: text, at: 2)
        text[4] = UInt8(ascii: "-")
        writeTwoDigits(month, into: text, at: 5)
        text[7] = UInt8(ascii: "-")
        writeTwoDigits(day, into: text, at: 8)
    }

    private static func writeTwoDigits(_ value: Int, into text: UnsafeMutableBufferPointer<UInt8>, at index: Int) {
        text[index] = UInt8(ascii: "0") + UInt8(value / 10)
        text[index + 1] = UInt8(ascii: "0") + UInt8(value % 10)
    }
}

// MARK: - Parser

private struct TimestampParser {
    let text: String
    let bytes: [UInt8]
    var position = 0

    init(text: String) {
        self.text = text
        self.bytes = Array(text.utf8)
    }

    mutating func parse() throws(TimestampError) -> Timestamp {
        let year = try number(digits: 4, "year must have four digits")
        try expect(UInt8(ascii: "-"), "expected '-' after the year")
        let month = try number(digits: 2, "month must have two digits")
        try expect(UInt8(ascii: "-"), "expected '-' after the month")
        let day = try number(digits: 2, "day must have two digits")
        guard position < bytes.count, bytes[position] == UInt8(ascii: "T") || bytes[position] == UInt8(ascii: "t")
        else { throw failure("expected 'T' between date and time") }
        position += 1
        let hour = try number(digits: 2, "hour must have two digits")
        try expect(UInt8(ascii: ":"), "expected ':' after the hour")
        let minute = try number(digits: 2, "minute must have two digits")
        try expect(UInt8(ascii: ":"), "expected ':' after the minutes")
        let second = try number(digits: 2, "seconds must have two digits")
        if position < bytes.count, bytes[position] == UInt8(ascii: ".") || bytes[position] == UInt8(ascii: ",") {
            position += 1
            let start = position
            while position < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[position]) {
                position += 1
            }
            guard position > start else { throw failure("expected digits after the decimal point") }
        }
        let offsetSeconds = try offset()
        guard position == bytes.count else { throw failure("unexpected text after the time zone") }
        guard (1...12).contains(month) else { throw failure("month must be 01-12") }
        guard (1...Timestamp.daysIn(month: month, year: year)).contains(day) else {
            throw failure("day \(day) does not exist in that month")
        }
        guard hour <= 23 else { throw failure("hour must be 00-23") }
        guard minute <= 59 else { throw failure("minutes must be 00-59") }
        guard second <= 59 else { throw failure("seconds must be 00-59") }
        let days = Timestamp.daysFromCivil(year: Int64(year), month: Int64(month), day: Int64(day))
        let seconds = days * 86_400 + Int64(hour * 3_600 + minute * 60 + second) - offsetSeconds
        do {
            return try Timestamp(secondsSinceEpoch: seconds)
        } catch {
            throw TimestampError(outOfRange: "'\(text)'")
        }
    }

    private mutating func offset() throws(TimestampError) -> Int64 {
        guard position < bytes.count else { throw failure("missing time zone ('Z' or an offset like +02:00)") }
        let sign = bytes[position]
        position += 1
        if sign == UInt8(ascii: "Z") || sign == UInt8(ascii: "z") {
            return 0
        }
        guard sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") else {
            throw failure("time zone must be 'Z' or an offset like +02:00")
        }
        let hours = try number(digits: 2, "offset hours must have two digits")
        try expect(UInt8(ascii: ":"), "offset must look like +02:00")
        let minutes = try number(digits: 2, "offset minutes must have two digits")
        guard hours <= 23, minutes <= 59 else { throw failure("offset out of range") }
        let seconds = Int64(hours * 3_600 + minutes * 60)
        return sign == UInt8(ascii: "-") ? -seconds : seconds
    }

    private mutating func number(digits: Int, _ reason: String) throws(TimestampError) -> Int {
        guard position + digits <= bytes.count else { throw failure(reason) }
        var value = 0
        for byte in bytes[position..<position + digits] {
            guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { throw failure(reason) }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
        }
        position += digits
        return value
    }

    private mutating func expect(_ byte: UInt8, _ reason: String) throws(TimestampError) {
        guard position < bytes.count, bytes[position] == byte else { throw failure(reason) }
        position += 1
    }

    private func failure(_ reason: String) -> TimestampError {
        TimestampError(text: text, reason: reason)
    }
}
