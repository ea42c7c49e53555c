import Formats

/// Turns one JSON object into the header names and text fields the column readers take, checking the types
/// of the keys they know: text or numbers for every fact, and also true/false for a client's `default`.
/// Unknown keys are ignored whatever their type; `null` reads as empty.
enum JSONFields {
    static func flatten(_ record: JSONRecord, kind: CatalogKind, name: String) throws(DataError)
        -> (header: [String], fields: [String])
    {
        let known: Set<String>
        let flags: Set<String>
        switch kind {
        case .books:
            known = Set(CatalogColumns.aliases.flatMap(\.names))
            flags = []
        case .clients:
            known = Set(ClientColumns.aliases.flatMap(\.names))
            flags = Set(ClientColumns.aliases[3].names)
        }
        var header: [String] = []
        var fields: [String] = []
        for member in record.object.members {
            let key = ClientColumns.normalized(member.key)
            header.append(member.key)
            guard known.contains(key) else {
                fields.append("")
                continue
            }
            switch member.value {
            case .null: fields.append("")
            case .string(let text):
                // As in CSV files: a NUL character would cut the text short in C strings and terminals.
                guard !text.unicodeScalars.contains("\u{0}") else {
                    throw DataError(
                        file: name, line: record.line, field: member.key,
                        reason: "a NUL character is not allowed in text")
                }
                fields.append(text)
            case .int(let number): fields.append(String(number))
            case .double(let number): fields.append(number.description)
            case .bool(let flag) where flags.contains(key): fields.append(flag ? "yes" : "no")
            default:
                let expected = flags.contains(key) ? "true, false or text" : "text or a number"
                throw DataError(
                    file: name, line: record.line, field: member.key,
                    reason: "expected \(expected), found \(member.value.kindName)")
            }
        }
        return (header, fields)
    }
}
