/// SplitMix64: the same values on every run, for tests that draw random input.
///
///     var random = SeededRandom(seed: 42)
///     let value = random.next()
public struct SeededRandom: RandomNumberGenerator {
    private var state: UInt64

    /// A generator that starts from `seed`.
    ///
    ///     SeededRandom(seed: 0x15B0)
    public init(seed: UInt64) { state = seed }

    /// The next value.
    ///
    ///     random.next() % 10
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
