import Synchronization

/// Request ids: 128 bits as 32 hex digits, unique within the process and unlikely to meet another process's: a random
/// 64-bit prefix drawn once, then a counter passed through a bijection (SplitMix64's finaliser, keyed by a second
/// random number) so that consecutive ids do not look alike. No system call a request (drawing 128 random bits for
/// each took two `getrandom` calls).
///
///     let ids = RequestIDs()
///     ids.next()  // "3f9c0d1e5a7b2c4d8e6f0a1b2c3d4e5f"
final class RequestIDs: Sendable {
    private let prefix: UInt64
    private let key: UInt64
    private let counter = Atomic<UInt64>(0)

    init() {
        var generator = SystemRandomNumberGenerator()
        prefix = generator.next()
        key = generator.next()
    }

    func next() -> String {
        let count = counter.wrappingAdd(1, ordering: .relaxed).newValue
        return String(unsafeUninitializedCapacity: 32) { buffer in
            Self.writeHex(prefix, to: buffer, at: 0)
            Self.writeHex(Self.mix(count &+ key), to: buffer, at: 16)
            return 32
        }
    }

    /// SplitMix64's finaliser: each step (xor with a shift, product with an odd number) can be undone, so distinct
    /// inputs give distinct outputs.
    static func mix(_ value: UInt64) -> UInt64 {
        var z = value
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    private static func writeHex(_ value: UInt64, to buffer: UnsafeMutableBufferPointer<UInt8>, at start: Int) {
        let digits: StaticString = "0123456789abcdef"
        for index in 0..<16 {
            let nibble = Int((value >> UInt64(60 - 4 * index)) & 0x0F)
            buffer[start + index] = digits.utf8Start[nibble]
        }
    }
}
