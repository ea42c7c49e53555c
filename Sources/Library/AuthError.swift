/// Why a request about access was refused. `message` explains it plainly and never repeats a token or a PIN.
///
/// ```swift
/// do {
///     _ = try store.signIn(cardNumber: "C-0001", pin: "0000", now: now)
/// } catch AuthError.lockedOut(let retryAfter) {
///     print("try again in \(retryAfter) s")  // the server answers 429 with Retry-After
/// } catch AuthError.signInFailed {
///     print("wrong card or PIN")             // 401
/// }
/// ```
public enum AuthError: Error, Sendable, Hashable, CustomStringConvertible {
    /// There is no token with this id.
    case noSuchToken(id: Int)
    /// The card number or the PIN is wrong; which one is not said (an unknown card and a wrong PIN look the same).
    case signInFailed
    /// The card had `AccessRules.maxFailedSignIns` failed sign-ins within the lock-out window: it is refused,
    /// whatever the PIN, for `retryAfter` more seconds.
    case lockedOut(retryAfter: Int)
    /// The PIN does not follow `AccessRules.pinDigits`.
    case pinNotAllowed
    /// The idempotency key is not 1 to 255 printable ASCII characters (the server answers 400).
    case invalidIdempotencyKey
    /// The idempotency key was used before with another request (method, path or body): the server answers 422.
    case idempotencyKeyReused(key: String)
    /// The Argon2id hash could not be made (not enough memory).
    case cannotHash

    /// A wait in words a person reads at a glance: whole minutes, rounded up, from one minute on ("15 minutes",
    /// "1 minute"), seconds below it ("40 seconds").
    ///
    /// ```swift
    /// AuthError.wait(seconds: 892)  // "15 minutes"
    /// ```
    public static func wait(seconds: Int) -> String {
        if seconds < 60 { return seconds == 1 ? "1 second" : "\(max(0, seconds)) seconds" }
        let minutes = (seconds + 59) / 60
        return minutes == 1 ? "1 minute" : "\(minutes) minutes"
    }

    /// A plain English sentence for the user.
    ///
    /// ```swift
    /// AuthError.noSuchToken(id: 9).message  // "There is no token #9."
    /// ```
    public var message: String {
        switch self {
        case .noSuchToken(let id):
            return "There is no token #\(id)."
        case .signInFailed:
            return "The card number or the PIN is wrong."
        case .lockedOut(let retryAfter):
            return "Too many failed sign-ins for this card; try again in \(Self.wait(seconds: retryAfter))."
        case .pinNotAllowed:
            return AccessRules.pinProblem("") ?? ""
        case .invalidIdempotencyKey:
            return AccessRules.idempotencyKeyProblem("") ?? ""
        case .idempotencyKeyReused(let key):
            return "The idempotency key \(key) was already used for another request."
        case .cannotHash:
            return "The PIN could not be hashed: Argon2id needs about 64 MiB of memory, which could not be had."
        }
    }

    /// Same as `message`.
    ///
    /// ```swift
    /// print("\(error)")
    /// ```
    public var description: String { message }
}
