import Testing

@testable import Formats

/// The CSV scanner skips eight bytes at a time while none of them ends an unquoted field; this holds that test to
/// its definition, byte by byte.
@Suite("Eight bytes at a time: a word holds a field stop exactly when one of its bytes is one")
struct FieldStopTests {
    static let stops: Set<UInt8> = [0x00, 0x0A, 0x0D, 0x22, 0x2C]

    static func definition(_ word: UInt64) -> Bool {
        (0..<8).contains { stops.contains(UInt8(truncatingIfNeeded: word >> ($0 * 8))) }
    }

    @Test("random words, with stops and their neighbours (one above, one below, the high-bit twins) mixed in")
    func randomWords() {
        var random = SeededRandom(seed: 0x5EED)
        let near: [UInt8] = [
            0x00, 0x01, 0x09, 0x0A, 0x0B, 0x0C, 0x0D, 0x0E, 0x21, 0x22, 0x23, 0x2B, 0x2C, 0x2D, 0x80, 0x8A,
            0x8D, 0xA2, 0xAC, 0xFF, 0x41, 0x7F,
        ]
        for _ in 0..<200_000 {
            var word = random.next()
            let replaced = random.next()
            for byte in 0..<8 where replaced >> UInt64(byte * 8) & 0xFF < 0x60 {
                let value = near[Int(random.next() % UInt64(near.count))]
                word = word & ~(0xFF << UInt64(byte * 8)) | UInt64(value) << UInt64(byte * 8)
            }
            #expect(CSVScanner.containsFieldStop(word) == Self.definition(word), "\(String(word, radix: 16))")
        }
    }

    @Test("each stop in each place, alone among letters")
    func eachStopInEachPlace() {
        let letters: UInt64 = 0x4142_4344_4546_4748
        #expect(!CSVScanner.containsFieldStop(letters))
        for stop in Self.stops {
            for byte in 0..<8 {
                let word = letters & ~(0xFF << UInt64(byte * 8)) | UInt64(stop) << UInt64(byte * 8)
                #expect(CSVScanner.containsFieldStop(word))
            }
        }
    }
}
