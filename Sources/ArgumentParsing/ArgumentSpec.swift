// MARK: - ArgumentSpec

/// Declares one positional argument of a command, e.g. `<book-id>`.
///
/// Arguments are filled in declaration order; at most the last one may repeat.
///
/// ```swift
/// let ids = ArgumentSpec.repeating("book-id", help: "The id of a book.")
/// let shell = ArgumentSpec.required("shell", help: "The shell.", allowedValues: ["bash", "zsh", "fish"])
/// let topic = ArgumentSpec.optional("command", help: "The command to explain.")
/// ```
public struct ArgumentSpec: Equatable, Sendable {
    /// The name shown as `<name>` in usage, help and messages.
    public var name: String
    /// One line (or a paragraph) of help.
    public var help: String
    /// Whether the argument may be left out.
    public var isOptional: Bool
    /// Whether the argument takes all remaining positional values.
    public var isRepeating: Bool
    /// The values the argument accepts; empty means any value.
    public var allowedValues: [String]

    /// Creates an argument; prefer the `required`, `optional` and `repeating` factories.
    ///
    /// ```swift
    /// let a = ArgumentSpec(name: "path", help: "The file.", isOptional: false, isRepeating: false)
    /// ```
    public init(name: String, help: String, isOptional: Bool, isRepeating: Bool, allowedValues: [String] = []) {
        self.name = name
        self.help = help
        self.isOptional = isOptional
        self.isRepeating = isRepeating
        self.allowedValues = allowedValues
    }

    // MARK: - Factories

    /// A single argument that must be given.
    ///
    /// ```swift
    /// let id = ArgumentSpec.required("book-id", help: "The book to renew.")
    /// ```
    public static func required(_ name: String, help: String, allowedValues: [String] = []) -> ArgumentSpec {
        ArgumentSpec(name: name, help: help, isOptional: false, isRepeating: false, allowedValues: allowedValues)
    }

    /// A single argument that may be left out.
    ///
    /// ```swift
    /// let path = ArgumentSpec.optional("path", help: "Where to write.")
    /// ```
    public static func optional(_ name: String, help: String, allowedValues: [String] = []) -> ArgumentSpec {
        ArgumentSpec(name: name, help: help, isOptional: true, isRepeating: false, allowedValues: allowedValues)
    }

    /// An argument taking every remaining value; at least one unless `isOptional` is true.
    ///
    /// ```swift
    /// let ids = ArgumentSpec.repeating("book-id", help: "Books to take.")
    /// ```
    public static func repeating(_ name: String, help: String, isOptional: Bool = false) -> ArgumentSpec {
        ArgumentSpec(name: name, help: help, isOptional: isOptional, isRepeating: true)
    }

    // MARK: - Display

    /// The argument as used in messages, e.g. `"<book-id>"`.
    ///
    /// ```swift
    /// ArgumentSpec.required("book-id", help: "").display == "<book-id>"
    /// ```
    public var display: String { "<\(name)>" }
}
