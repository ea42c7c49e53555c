// MARK: - ParsedCommand

/// The result of a successful parse: which command was chosen and the values given to it.
///
/// Values are stored as text keyed by option or argument name; the typed getters convert them and throw a
/// `UsageError` naming the option or argument when a value does not fit.
///
/// ```swift
/// // librarycli --db lib.sqlite take 12 13
/// parsed.path == ["take"]
/// parsed.string("db") == "lib.sqlite"
/// try parsed.positiveIntegers("book-id") == [12, 13]
/// ```
public struct ParsedCommand: Equatable, Sendable {
    /// The subcommand names below the root, e.g. `["clients", "add"]`; empty for the root itself.
    public var path: [String]
    /// Values of value options (single and repeating) by long name, in the order given.
    public var optionValues: [String: [String]]
    /// How many times each flag was given, by long name.
    public var flagCounts: [String: Int]
    /// Positional values by argument name; a repeating argument may hold several.
    public var argumentValues: [String: [String]]
    /// The options that were valid for the chosen command (its own, then the globals), for defaults and messages.
    public var availableOptions: [OptionSpec]
    /// The arguments of the chosen command, for messages.
    public var availableArguments: [ArgumentSpec]

    /// Creates a parsed command; normally made by `ArgumentParser.parse(_:)`.
    ///
    /// ```swift
    /// let parsed = ParsedCommand(path: ["list"], optionValues: ["page": ["2"]])
    /// ```
    public init(
        path: [String], optionValues: [String: [String]] = [:], flagCounts: [String: Int] = [:],
        argumentValues: [String: [String]] = [:], availableOptions: [OptionSpec] = [],
        availableArguments: [ArgumentSpec] = []
    ) {
        self.path = path
        self.optionValues = optionValues
        self.flagCounts = flagCounts
        self.argumentValues = argumentValues
        self.availableOptions = availableOptions
        self.availableArguments = availableArguments
    }

    // MARK: - Options

    /// Whether the option or flag was given on the command line (defaults do not count).
    ///
    /// ```swift
    /// parsed.isPresent("search")
    /// ```
    public func isPresent(_ option: String) -> Bool {
        optionValues[option] != nil || flagCounts[option] != nil
    }

    /// Whether the flag was given at least once.
    ///
    /// ```swift
    /// if parsed.flag("all") { … }
    /// ```
    public func flag(_ name: String) -> Bool { flagCount(name) > 0 }

    /// How many times the flag was given (`-vv` counts 2).
    ///
    /// ```swift
    /// parsed.flagCount("quiet") == 1
    /// ```
    public func flagCount(_ name: String) -> Int { flagCounts[name] ?? 0 }

    /// The last value given for the option, else its declared default, else nil.
    ///
    /// ```swift
    /// parsed.string("search") ?? ""
    /// ```
    public func string(_ option: String) -> String? {
        optionValues[option]?.last ?? spec(option)?.defaultValue
    }

    /// Every value given for a repeating option, in order (empty if none).
    ///
    /// ```swift
    /// parsed.strings("file") == ["a.json", "b.json"]
    /// ```
    public func strings(_ option: String) -> [String] { optionValues[option] ?? [] }

    /// The option's value (or default) as a whole number, optionally limited to `range`.
    ///
    /// ```swift
    /// let width = try parsed.integer("width", in: 20...1000) ?? 80
    /// ```
    public func integer(_ option: String, in range: ClosedRange<Int>? = nil) throws(UsageError) -> Int? {
        guard let text = string(option) else { return nil }
        do {
            return try Validation.integer(text, for: optionDisplay(option), in: range)
        } catch {
            throw UsageError(error, commandPath: path)
        }
    }

    /// The option's value (or default) as a whole number greater than zero.
    ///
    /// ```swift
    /// let page = try parsed.positiveInteger("page") ?? 1
    /// ```
    public func positiveInteger(_ option: String) throws(UsageError) -> Int? {
        guard let text = string(option) else { return nil }
        do {
            return try Validation.positiveInteger(text, for: optionDisplay(option))
        } catch {
            throw UsageError(error, commandPath: path)
        }
    }

    /// The option's value (or default) converted to a `String`-backed enum.
    ///
    /// Values are already checked against `allowedValues` while parsing; this also catches an enum that lacks a
    /// declared value.
    ///
    /// ```swift
    /// enum Color: String { case auto, always, never }
    /// let color = try parsed.choice("color", as: Color.self) ?? .auto
    /// ```
    public func choice<Choice: RawRepresentable>(
        _ option: String, as type: Choice.Type
    ) throws(UsageError) -> Choice? where Choice.RawValue == String {
        guard let text = string(option) else { return nil }
        guard let value = Choice(rawValue: text) else {
            let allowed = spec(option)?.allowedValues ?? []
            throw UsageError(
                .invalidValue(text, for: optionDisplay(option), expected: Validation.describe(allowed)),
                commandPath: path)
        }
        return value
    }

    // MARK: - Arguments

    /// The first value of the argument, or nil when it was not given.
    ///
    /// ```swift
    /// parsed.argument("shell") == "bash"
    /// ```
    public func argument(_ name: String) -> String? { argumentValues[name]?.first }

    /// All values of a (repeating) argument in order.
    ///
    /// ```swift
    /// parsed.arguments("command") == ["clients", "add"]
    /// ```
    public func arguments(_ name: String) -> [String] { argumentValues[name] ?? [] }

    /// The argument's value as a whole number greater than zero, e.g. a single book id.
    ///
    /// ```swift
    /// let id = try parsed.positiveInteger(argument: "book-id")
    /// ```
    public func positiveInteger(argument name: String) throws(UsageError) -> Int? {
        try positiveIntegers(name).first
    }

    /// Every value of the argument as whole numbers greater than zero, e.g. `take 12 13`.
    ///
    /// ```swift
    /// let ids = try parsed.positiveIntegers("book-id")
    /// ```
    public func positiveIntegers(_ argument: String) throws(UsageError) -> [Int] {
        var numbers: [Int] = []
        for text in arguments(argument) {
            do {
                numbers.append(try Validation.positiveInteger(text, for: "<\(argument)>"))
            } catch {
                throw UsageError(error, commandPath: path)
            }
        }
        return numbers
    }

    // MARK: - Private

    private func spec(_ option: String) -> OptionSpec? {
        availableOptions.first { $0.name == option }
    }

    private func optionDisplay(_ option: String) -> String {
        spec(option)?.display ?? "--\(option)"
    }
}
