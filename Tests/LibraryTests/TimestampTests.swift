import Library
import Testing

@Suite struct TimestampTests {
    @Test(arguments: [
        ("1970-01-01T00:00:00Z", Int64(0)),
        ("2026-11-29T14:40:00Z", Int64(1_795_963_200)),
        ("2000-02-29T23:59:59Z", Int64(951_868_799)),
        ("1969-12-31T23:59:59Z", Int64(-1)),
        ("0001-01-01T00:00:00Z", Int64(-62_135_596_800)),
        ("9999-12-31T23:59:59Z", Int64(253_402_300_799)),
    ])
    func formatsAndParsesKnownMoments(text: String, seconds: Int64) throws {
        #expect(try Timestamp(iso8601: text).secondsSinceEpoch == seconds)
        #expect(try Timestamp(secondsSinceEpoch: seconds).iso8601 == text)
    }

    @Test func roundTripsAcrossManyDays() throws {
        var seconds: Int64 = -5_000_000_000
        while seconds < 10_000_000_000 {
            let timestamp = try Timestamp(secondsSinceEpoch: seconds)
            #expect(try Timestamp(iso8601: timestamp.iso8601) == timestamp)
            seconds += 7_777_777
        }
    }

    @Test func parsesFractionsAndOffsets() throws {
        let utc = try Timestamp(iso8601: "2026-11-29T14:40:00Z")
        #expect(try Timestamp(iso8601: "2026-11-29T14:40:00.999Z") == utc)
        #expect(try Timestamp(iso8601: "2026-11-29T16:40:00+02:00") == utc)
        #expect(try Timestamp(iso8601: "2026-11-29T09:10:00.5-05:30") == utc)
        #expect(try Timestamp(iso8601: "2026-11-30T00:40:00+10:00") == utc)
    }

    @Test(arguments: [
        "", "yesterday", "2026-11-29", "2026-11-29T14:40:00", "2026-13-01T00:00:00Z", "2026-02-29T00:00:00Z",
        "2026-11-31T00:00:00Z", "2026-11-29T24:00:00Z", "2026-11-29T14:60:00Z", "2026-11-29T14:40:60Z",
        "2026-11-29 14:40:00Z", "2026-11-29T14:40:00.Z", "2026-11-29T14:40:00+2:00", "2026-11-29T14:40:00Zjunk",
        "26-11-29T14:40:00Z", "2026-11-29T14:40:00+24:00", "२०२६-11-29T14:40:00Z",
    ])
    func rejectsNonsense(text: String) {
        let error = #expect(throws: TimestampError.self) { try Timestamp(iso8601: text) }
        #expect(error?.message.contains("is not an ISO-8601 timestamp") == true)
    }

    @Test func dayArithmetic() throws {
        let taken = try Timestamp(iso8601: "2026-12-25T10:00:00Z")
        #expect(try taken.adding(days: 14).iso8601 == "2027-01-08T10:00:00Z")
        #expect(try taken.adding(days: -365).iso8601 == "2025-12-25T10:00:00Z")
        #expect(try taken.days(until: taken.adding(days: 3)) == 3)
        #expect(try taken.days(until: taken.adding(seconds: -1)) == -1)
        #expect(taken.date == "2026-12-25")
        #expect(try taken < taken.adding(seconds: 1))
        #expect(Timestamp(year: 2026, month: 2, day: 29) == nil)
        #expect(Timestamp(year: 2024, month: 2, day: 29) != nil)
    }
}

@Suite("Timestamps written in place read as their fields")
struct TimestampWritingTests {
    @Test("every day from the first to the last year, at a moment that moves through the day")
    func everyFormOfTheFields() throws {
        var seconds = Timestamp.earliest.secondsSinceEpoch
        var step: Int64 = 0
        while seconds <= Timestamp.latest.secondsSinceEpoch {
            let timestamp = try Timestamp(secondsSinceEpoch: seconds)
            let c = timestamp.components
            func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
            let year = String(repeating: "0", count: 4 - String(c.year).count) + String(c.year)
            let date = "\(year)-\(two(c.month))-\(two(c.day))"
            #expect(timestamp.date == date)
            #expect(timestamp.iso8601 == "\(date)T\(two(c.hour)):\(two(c.minute)):\(two(c.second))Z")
            #expect(timestamp.minute == "\(date) \(two(c.hour)):\(two(c.minute))")
            step += 1
            seconds += 86_400 * 97 + step % 86_400
        }
        #expect(Timestamp.latest.iso8601 == "9999-12-31T23:59:59Z")
        #expect(Timestamp.earliest.date == "0001-01-01")
        #expect(Timestamp.latest.minute == "9999-12-31 23:59")
    }
}
