/// The rules of who may do what, defined once: tokens, PINs, the sign-in lock-out and how long idempotent responses
/// are kept. The store, the command line and the server read them here, and a test checks that the schema's CHECK
/// constraints (`migrations/sqlite/0003_tokens_and_pins.sql`) agree.
///
/// ```swift
/// AccessRules.pinDigits                 // 4...12
/// AccessRules.maxFailedSignIns          // 5
/// AccessRules.pinProblem("12a4")        // "A PIN is 4 to 12 digits (0-9)."
/// ```
public enum AccessRules {
    /// Random bytes in a token: 32 (256 bits), written as 43 URL-safe base64 characters after `tokenPrefix`.
    public static let tokenBytes = 32

    /// What every token starts with, so one is recognizable in a config file or a leak scanner.
    public static let tokenPrefix = "lc_"

    /// The length of a token's text: the prefix and the base64 of `tokenBytes` without padding.
    public static var tokenLength: Int { tokenPrefix.count + (tokenBytes * 4 + 2) / 3 }

    /// How many digits a PIN has. Digits only: a PIN is typed on a phone's number pad. The lock-out, not the length,
    /// is what protects a short PIN from guessing.
    public static let pinDigits: ClosedRange<Int> = 4...12

    /// Failed sign-ins for one card within `lockOutWindowSeconds` after which that card is refused, whatever the PIN.
    public static let maxFailedSignIns = 5

    /// The window of the lock-out: a card is refused while it has `maxFailedSignIns` failures younger than this.
    public static let lockOutWindowSeconds: Int64 = 15 * 60

    /// How long a response is kept for a retry with the same idempotency key (at least this long; then purged).
    public static let idempotencyKeepSeconds: Int64 = 24 * 60 * 60

    /// The lengths an idempotency key may have (`idempotency_keys.key`); it is printable ASCII.
    public static let idempotencyKeyLengths: ClosedRange<Int> = 1...255

    /// A token's last use is recorded at most this often, so authenticating is not a write per request.
    public static let lastUseResolutionSeconds: Int64 = 60

    /// The label of the tokens `signIn` creates.
    public static let signInTokenLabel = "sign-in"

    /// Why `pin` is not an acceptable PIN, as a sentence that does not repeat it; nil when it is fine.
    ///
    /// ```swift
    /// AccessRules.pinProblem("1234")  // nil
    /// AccessRules.pinProblem("123")   // "A PIN is 4 to 12 digits (0-9)."
    /// ```
    public static func pinProblem(_ pin: String) -> String? {
        let isDigits = !pin.utf8.isEmpty && pin.utf8.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
        guard isDigits, pinDigits.contains(pin.utf8.count) else {
            return "A PIN is \(pinDigits.lowerBound) to \(pinDigits.upperBound) digits (0-9)."
        }
        return nil
    }

    /// Whether `text` has the form of a token (the prefix, the length, URL-safe base64), checked before any
    /// database look-up so junk costs nothing.
    ///
    /// ```swift
    /// AccessRules.looksLikeToken("lc_" + String(repeating: "A", count: 43))  // true
    /// AccessRules.looksLikeToken("hello")                                    // false
    /// ```
    public static func looksLikeToken(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard bytes.count == tokenLength, text.hasPrefix(tokenPrefix) else { return false }
        return bytes.dropFirst(tokenPrefix.utf8.count).allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"):
                true
            default: false
            }
        }
    }

    /// Why `key` is not an acceptable idempotency key; nil when it is 1 to 255 printable ASCII characters.
    ///
    /// ```swift
    /// AccessRules.idempotencyKeyProblem("5f0c2a9e-retry")  // nil
    /// ```
    public static func idempotencyKeyProblem(_ key: String) -> String? {
        let bytes = key.utf8
        guard idempotencyKeyLengths.contains(bytes.count),
            bytes.allSatisfy({ (0x21...0x7E).contains($0) })
        else {
            return "An idempotency key is \(idempotencyKeyLengths.lowerBound) to \(idempotencyKeyLengths.upperBound) "
                + "printable ASCII characters without spaces."
        }
        return nil
    }
}
