import CSodium

/// The cryptography of access, from libsodium: random bytes, SHA-256, constant-time comparison and Argon2id
/// password hashes. Nothing here is hand-written.
///
/// ```swift
/// let token = Secrets.randomBytes(count: 32)
/// let digest = Secrets.sha256(Array("lc_...".utf8))
/// let hash = try Secrets.passwordHash("1234")           // "$argon2id$v=19$m=65536,t=2,p=1$..."
/// Secrets.verifyPassword("1234", against: hash)          // true
/// ```
public enum Secrets {
    /// `count` bytes from the system's secure random source.
    ///
    /// ```swift
    /// let bytes = Secrets.randomBytes(count: AccessRules.tokenBytes)
    /// ```
    public static func randomBytes(count: Int) -> [UInt8] {
        ready()
        var bytes = [UInt8](repeating: 0, count: count)
        bytes.withUnsafeMutableBytes { buffer in
            if let base = buffer.baseAddress { randombytes_buf(base, buffer.count) }
        }
        return bytes
    }

    /// The SHA-256 digest (32 bytes) of `bytes`.
    ///
    /// ```swift
    /// Secrets.sha256([]).count  // 32
    /// ```
    public static func sha256(_ bytes: [UInt8]) -> [UInt8] {
        ready()
        var digest = [UInt8](repeating: 0, count: Int(crypto_hash_sha256_BYTES))
        _ = bytes.withUnsafeBufferPointer { input in
            crypto_hash_sha256(&digest, input.baseAddress, UInt64(input.count))
        }
        return digest
    }

    /// A 16-byte BLAKE2b digest of `bytes` (`crypto_generichash`): a content hash for entity tags, several times
    /// faster than SHA-256 over a rendered screen, and as unlikely to collide.
    ///
    /// ```swift
    /// Secrets.contentHash(Array("{}".utf8)).count  // 16
    /// ```
    public static func contentHash(_ bytes: [UInt8]) -> [UInt8] {
        ready()
        var digest = [UInt8](repeating: 0, count: 16)
        _ = bytes.withUnsafeBufferPointer { input in
            crypto_generichash(&digest, 16, input.baseAddress, UInt64(input.count), nil, 0)
        }
        return digest
    }

    /// Whether two byte strings are equal, in time that depends only on their length (`sodium_memcmp`).
    ///
    /// ```swift
    /// Secrets.equalInConstantTime(stored, computed)
    /// ```
    public static func equalInConstantTime(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        ready()
        guard a.count == b.count else { return false }
        if a.isEmpty { return true }
        return a.withUnsafeBytes { a in b.withUnsafeBytes { b in sodium_memcmp(a.baseAddress, b.baseAddress, a.count) }
        }
            == 0
    }

    /// The Argon2id hash of `secret` as libsodium's self-describing string (algorithm, costs, random salt, digest),
    /// with the interactive costs (about 64 MiB and 0.1 s): slow on purpose, so keep it out of hot paths.
    /// Throws `AuthError.cannotHash` when the memory cannot be had.
    ///
    /// ```swift
    /// let hash = try Secrets.passwordHash("1234")
    /// ```
    public static func passwordHash(_ secret: String) throws(AuthError) -> String {
        ready()
        var output = [CChar](repeating: 0, count: Int(crypto_pwhash_STRBYTES))
        let length = UInt64(secret.utf8.count)
        let code = secret.withCString { input in
            crypto_pwhash_str_alg(
                &output, input, length, UInt64(crypto_pwhash_opslimit_interactive()),
                crypto_pwhash_memlimit_interactive(), crypto_pwhash_ALG_ARGON2ID13)
        }
        guard code == 0 else { throw AuthError.cannotHash }
        return String(decoding: output.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Whether `secret` is the one `hash` (from `passwordHash`) was made from; false for a malformed hash. Takes as
    /// long as making the hash did.
    ///
    /// ```swift
    /// Secrets.verifyPassword("1234", against: hash)  // true
    /// ```
    public static func verifyPassword(_ secret: String, against hash: String) -> Bool {
        ready()
        let length = UInt64(secret.utf8.count)
        return secret.withCString { input in crypto_pwhash_str_verify(hash, input, length) == 0 }
    }

    /// URL-safe base64 without padding (RFC 4648 section 5).
    ///
    /// ```swift
    /// Secrets.base64URL([0xFB, 0xFF])  // "-_8"
    /// ```
    public static func base64URL(_ bytes: [UInt8]) -> String {
        ready()
        let variant = Int32(sodium_base64_VARIANT_URLSAFE_NO_PADDING)
        var output = [CChar](repeating: 0, count: sodium_base64_encoded_len(bytes.count, variant))
        _ = bytes.withUnsafeBufferPointer { input in
            sodium_bin2base64(&output, output.count, input.baseAddress, input.count, variant)
        }
        return String(decoding: output.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// An Argon2id hash with the same costs as `passwordHash`, of a random secret nobody knows: verifying against it
    /// when a card has no PIN takes as long as a real check, so timing does not tell which cards exist.
    static let dummyHash =
        "$argon2id$v=19$m=65536,t=2,p=1$ZCzsjvGRHcNhyaTI3I3EYg$0PD1GU7oj0fZ1KWsxcN3gJc/OY4fDlOwynmR4j2Fnq8"

    // MARK: - Private

    /// libsodium's one-time set-up, done once per process (it is safe to call repeatedly, but cheaper once).
    private static let initialized: Bool = sodium_init() >= 0

    private static func ready() {
        precondition(initialized, "libsodium could not be initialized")
    }
}
