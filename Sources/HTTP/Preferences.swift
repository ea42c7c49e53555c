/// The preferences a client states in `Prefer` header fields (RFC 7240), such as `return=minimal`: each one's name,
/// without case, and value, unquoted. Parameters after `;` are read past; the first preference of a name counts (as
/// the RFC asks). A server may honour a preference or not, and says which it applied in `Preference-Applied`.
///
///     let preferences = Preferences(request.headers)  // Prefer: return=minimal, wait=10
///     preferences["return"]  // "minimal"
///     preferences["respond-async"]  // "" (named, without a value); nil when not stated
public struct Preferences: Sendable {
    private var values: [(name: String, value: String)] = []

    /// Reads every `Prefer` field of `headers`.
    ///
    ///     Preferences(headers)["return"]
    public init(_ headers: HTTPHeaders) {
        for field in headers.values(for: "Prefer") {
            for preference in Self.split(field, on: UInt8(ascii: ",")) {
                let nameAndValue = Self.split(preference, on: UInt8(ascii: ";")).first ?? ""
                let (name, value) = Self.nameAndValue(nameAndValue)
                guard !name.isEmpty, !values.contains(where: { $0.name == name }) else { continue }
                values.append((name, value))
            }
        }
    }

    /// The value of the preference `name` (matched without case), "" when it has none, nil when it is not stated.
    ///
    ///     preferences["return"] == "minimal"
    public subscript(name: String) -> String? {
        let name = name.lowercased()
        return values.first { $0.name == name }?.value
    }

    // MARK: - Private

    /// `text` cut at every `separator` outside double quotes (a backslash escapes the next byte inside them).
    private static func split(_ text: some StringProtocol, on separator: UInt8) -> [Substring] {
        let text = Substring(text)
        var parts: [Substring] = []
        var start = text.utf8.startIndex
        var quoted = false
        var escaped = false
        var index = start
        while index != text.utf8.endIndex {
            let byte = text.utf8[index]
            if escaped {
                escaped = false
            } else if quoted && byte == UInt8(ascii: "\\") {
                escaped = true
            } else if byte == UInt8(ascii: "\"") {
                quoted.toggle()
            } else if byte == separator && !quoted {
                parts.append(text[start..<index])
                start = text.utf8.index(after: index)
            }
            index = text.utf8.index(after: index)
        }
        parts.append(text[start...])
        return parts
    }

    /// `name`, `name=value` or `name="quoted value"`, with optional spaces around each part; the name lowercased.
    private static func nameAndValue(_ text: Substring) -> (name: String, value: String) {
        let trimmed = text.trimmingSpaces()
        guard let equals = trimmed.firstIndex(of: "=") else { return (trimmed.lowercased(), "") }
        let name = trimmed[..<equals].trimmingSpaces().lowercased()
        var value = Substring(trimmed[trimmed.index(after: equals)...].trimmingSpaces())
        if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") {
            var unquoted = ""
            var escaped = false
            for character in value.dropFirst().dropLast() {
                if !escaped && character == "\\" {
                    escaped = true
                    continue
                }
                escaped = false
                unquoted.append(character)
            }
            value = Substring(unquoted)
        }
        return (name, String(value))
    }
}
