/// A key for a value middleware attaches to a request for later middleware and handlers (for example, who the
/// bearer token belongs to).
///
///     enum CallerKey: RequestStorageKey { typealias Value = String }
///     request.storage[CallerKey.self] = "client-7"
public protocol RequestStorageKey {
    /// The type of the value stored under this key.
    associatedtype Value: Sendable
}

/// Typed values attached to a request, one per ``RequestStorageKey`` type.
///
///     var request = request
///     request.storage[CallerKey.self] = "client-7"
///     request.storage[CallerKey.self]  // "client-7"
public struct RequestStorage: Sendable {
    private var values: [ObjectIdentifier: any Sendable] = [:]

    /// No values.
    public init() {}

    /// The value stored under `key`, or nil; setting nil removes it.
    ///
    ///     request.storage[CallerKey.self]
    public subscript<Key: RequestStorageKey>(key: Key.Type) -> Key.Value? {
        get { values[ObjectIdentifier(key)] as? Key.Value }
        set { values[ObjectIdentifier(key)] = newValue }
    }
}
