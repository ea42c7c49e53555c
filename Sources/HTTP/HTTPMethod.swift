/// An HTTP request method, such as `GET` or `POST`. Any token is allowed; the common ones have constants.
///
///     let method: HTTPMethod = .post
///     method.rawValue  // "POST"
///     HTTPMethod("PATCH") == .patch  // true
public struct HTTPMethod: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The method's name as sent on the wire, such as `GET`.
    public var rawValue: String

    /// Creates a method from its name as sent on the wire (case-sensitive, as HTTP defines).
    ///
    ///     HTTPMethod(rawValue: "PUT")
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// Creates a method from its name.
    ///
    ///     HTTPMethod("DELETE")
    public init(_ name: String) {
        self.rawValue = name
    }

    /// `GET`.
    public static let get = HTTPMethod("GET")
    /// `HEAD`: answered like `GET`, without the body.
    public static let head = HTTPMethod("HEAD")
    /// `POST`.
    public static let post = HTTPMethod("POST")
    /// `PUT`.
    public static let put = HTTPMethod("PUT")
    /// `PATCH`.
    public static let patch = HTTPMethod("PATCH")
    /// `DELETE`.
    public static let delete = HTTPMethod("DELETE")
    /// `OPTIONS`.
    public static let options = HTTPMethod("OPTIONS")

    /// The method's name.
    public var description: String { rawValue }
}
