import Glibc
import Rendering
import Testing

@Suite struct DisplayWidthTests {
    @Test func usesGlibcTable() {
        #expect(DisplayWidth.usesSystemTable)
    }

    @Test func measuresScalarsFromTheTable() {
        #expect(DisplayWidth.of("é" as Unicode.Scalar) == 1)
        #expect(DisplayWidth.of("\u{301}" as Unicode.Scalar) == 0)
        #expect(DisplayWidth.of("中" as Unicode.Scalar) == 2)
        #expect(DisplayWidth.of("😀" as Unicode.Scalar) == 2)
        #expect(DisplayWidth.of("ا" as Unicode.Scalar) == 1)
        #expect(DisplayWidth.of("\u{1B}" as Unicode.Scalar) == 0)
        #expect(DisplayWidth.of("\u{2068}" as Unicode.Scalar) == 0)
    }

    @Test func measuresGraphemeClusters() {
        #expect(DisplayWidth.of("e\u{301}" as Character) == 1)
        #expect(DisplayWidth.of("👨‍👩‍👧" as Character) == 2)
        #expect(DisplayWidth.of("❤️" as Character) == 2)  // VS16 makes the heart wide
        #expect(DisplayWidth.of("❤" as Character) == 1)
        #expect(DisplayWidth.of("🇺🇦" as Character) == 2)
        #expect(DisplayWidth.of("👍🏽" as Character) == 2)
        #expect(DisplayWidth.of("1️⃣" as Character) == 2)
        #expect(DisplayWidth.of("한" as Character) == 2)
        #expect(DisplayWidth.of("\u{1100}\u{1161}" as Character) == 2)
    }

    @Test func measuresStrings() {
        #expect(DisplayWidth.of("") == 0)
        #expect(DisplayWidth.of("Dune") == 4)
        #expect(DisplayWidth.of("Les Misérables") == 14)
        #expect(DisplayWidth.of("紅樓夢") == 6)
        #expect(DisplayWidth.of("ألف ليلة وليلة") == 14)
        #expect(DisplayWidth.of("Café 😀") == 7)
        #expect(DisplayWidth.of("\u{2068}שלום\u{2069}") == 4)
        #expect(DisplayWidth.of("a\u{1B}b\n") == 2)
    }

    /// Text of scalars that stand alone is measured with utf8proc's table, a scalar alone with glibc's: the two
    /// must agree on every scalar of the blocks the renderer meets (the BMP and the emoji planes).
    @Test func textOfOneScalarIsAsWideAsTheScalarAlone() {
        var mismatches: [String] = []
        for value in UInt32(0x20)...0x2FFFF {
            guard let scalar = Unicode.Scalar(value) else { continue }
            let asText = DisplayWidth.of(String(scalar))
            let alone = DisplayWidth.of(scalar)
            if asText != alone { mismatches.append("U+\(String(value, radix: 16)): \(asText) vs \(alone)") }
        }
        #expect(mismatches.isEmpty, "\(mismatches.prefix(20))")
    }

    @Test func leavesTheThreadLocaleAsItWas() throws {
        let globalLocale = locale_t(bitPattern: -1)  // LC_GLOBAL_LOCALE
        #expect(uselocale(nil) == globalLocale)
        #expect(DisplayWidth.of("中") == 2)
        #expect(uselocale(nil) == globalLocale)
        #expect(String(cString: setlocale(LC_CTYPE, nil)) == "C")

        let own = try #require(newlocale(LC_CTYPE_MASK, "C", nil))
        defer { freelocale(own) }
        let previous = uselocale(own)
        defer { uselocale(previous) }
        #expect(DisplayWidth.of("é中😀") == 5)
        #expect(uselocale(nil) == own)
    }

    @Test func measuresFromManyThreadsAtOnce() async {
        let samples = ["Dune", "紅樓夢", "e\u{301}😀", "ألف ليلة", "👨‍👩‍👧 family"]
        let expected = samples.map { DisplayWidth.of($0) }
        #expect(expected == [4, 6, 3, 8, 9])
        let allMatch = await withTaskGroup(of: Bool.self) { group in
            for _ in 0..<16 {
                group.addTask { (0..<200).allSatisfy { _ in samples.map { DisplayWidth.of($0) } == expected } }
            }
            return await group.reduce(true) { $0 && $1 }
        }
        #expect(allMatch)
    }
}
