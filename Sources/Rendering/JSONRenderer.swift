import Formats
import Sections

/// Writes a snapshot as one stable, versioned JSON document for scripts and app fronts (see JSON-SCHEMA.md).
///
/// Members are always written in the same order; an item's fields become members of the item (`"bookId": 12`),
/// except a field whose key is taken, which goes under `"fields"`. Only visible sections are written, and the
/// whole-screen `emptyState` only while it is shown. Extra top-level members, such as the CLI's `changes` and
/// `outcomes`, follow the snapshot's members.
///
/// For example:
///
///     let json = JSONRenderer(pretty: false).render(snapshot, extra: [("outcomes", ["ok": true])])
///     // {"version":1,"sections":[...],"outcomes":{"ok":true}}
public struct JSONRenderer: Sendable {
    /// The document's format version; it changes only when a member is removed or changes meaning.
    ///
    ///     JSONRenderer.version  // 1
    public static let version = 1

    /// The top-level member names the renderer writes itself; `extra` must not use them (nor repeat a key).
    ///
    ///     JSONRenderer.reservedTopLevelKeys.contains("sections")  // true
    public static let reservedTopLevelKeys: Set<String> = ["version", "sections", "emptyState"]

    /// Whether to indent with 2 spaces (`true`) or write one compact line.
    public let pretty: Bool

    /// Creates a renderer.
    ///
    ///     JSONRenderer(pretty: true)
    public init(pretty: Bool = true) {
        self.pretty = pretty
    }

    // MARK: - Rendering

    /// The document as text followed by a newline; `extra` members are appended after the snapshot's.
    ///
    ///     JSONRenderer().render(snapshot, extra: [("changes", changesValue)])
    public func render(_ snapshot: Snapshot, extra: [(key: String, value: JSONValue)] = []) -> String {
        Self.document(snapshot, extra: extra).serialized(pretty: pretty) + "\n"
    }

    /// The document as a value, for callers who embed it elsewhere.
    ///
    ///     JSONRenderer.document(snapshot).serialized(pretty: false)
    public static func document(_ snapshot: Snapshot, extra: [(key: String, value: JSONValue)] = []) -> JSONValue {
        var members: [(key: String, value: JSONValue)] = [
            ("version", .int(version)),
            ("sections", .array(snapshot.visibleSections.map(section))),
        ]
        if let empty = snapshot.shownEmptyState { members.append(("emptyState", supplementary(empty))) }
        var used = reservedTopLevelKeys
        for member in extra {
            precondition(used.insert(member.key).inserted, "extra member \(member.key) is reserved or repeated")
            members.append(member)
        }
        return .object(members: members)
    }

    /// A section as a value: `id`, `layout`, `items`, `supplementaries`, `whenEmpty`.
    ///
    ///     JSONRenderer.section(clientBooks)
    public static func section(_ section: Section) -> JSONValue {
        [
            "id": .string(section.id),
            "layout": layout(section.layout),
            "items": .array(section.items.map(item)),
            "supplementaries": .array(section.supplementaries.map(supplementary)),
            "whenEmpty": .string(section.whenEmpty.rawValue),
        ]
    }

    /// A layout hint as a value: `style`, `minimumItemWidth`, `spacing`.
    ///
    ///     JSONRenderer.layout(.grid(minimumItemWidth: 28, spacing: 2))
    ///     // {"style":"grid","minimumItemWidth":28,"spacing":2}
    public static func layout(_ layout: Layout) -> JSONValue {
        [
            "style": .string(layout.style.rawValue), "minimumItemWidth": .int(layout.minimumItemWidth),
            "spacing": .int(layout.spacing),
        ]
    }

    /// An item as a value: `id`, `kind`, `title`, `subtitle` if any, `lines`, `badges`, `actions`, then its fields.
    ///
    ///     JSONRenderer.item(book)  // {"id":"book-12","kind":"book",...,"bookId":12}
    public static func item(_ item: Item) -> JSONValue {
        var members: [(key: String, value: JSONValue)] = [
            ("id", .string(item.id)),
            ("kind", .string(item.kind)),
            ("title", .string(item.title)),
        ]
        if let subtitle = item.subtitle { members.append(("subtitle", .string(subtitle))) }
        members.append(("lines", .array(item.lines.map(JSONValue.string))))
        members.append(
            ("badges", .array(item.badges.map { ["text": .string($0.text), "style": .string($0.style.rawValue)] })))
        members.append(("actions", .array(item.actions.map(action))))
        return .object(members: flattening(item.fields, into: members, reserved: reservedItemKeys))
    }

    /// A supplementary as a value: `kind`, `id`, `title`, `subtitle` and `count` if any, `lines`, `actions`, then
    /// its fields.
    ///
    ///     JSONRenderer.supplementary(header)  // {"kind":"header","id":"client-books-header",...}
    public static func supplementary(_ supplementary: Supplementary) -> JSONValue {
        var members: [(key: String, value: JSONValue)] = [
            ("kind", .string(supplementary.kind.name)),
            ("id", .string(supplementary.id)),
            ("title", .string(supplementary.title)),
        ]
        if let subtitle = supplementary.subtitle { members.append(("subtitle", .string(subtitle))) }
        if let count = supplementary.count { members.append(("count", .int(count))) }
        members.append(("lines", .array(supplementary.lines.map(JSONValue.string))))
        members.append(("actions", .array(supplementary.actions.map(action))))
        return .object(members: flattening(supplementary.fields, into: members, reserved: reservedSupplementaryKeys))
    }

    /// An action as a value: `id`, `title`, `command`, and when it has a request form, `method`, `href` and `body`
    /// (if any); an action that cannot be performed now also has `"disabled": true` and the `reason` in words.
    ///
    ///     JSONRenderer.action(take)
    ///     // {"id":"take","title":"Take","command":"librarycli take 12","method":"POST","href":"/v1/loans",
    ///     //  "body":{"bookIds":[12]}}
    public static func action(_ action: Action) -> JSONValue {
        var members: [(key: String, value: JSONValue)] = [
            ("id", .string(action.id)), ("title", .string(action.title)), ("command", .string(action.command)),
        ]
        if let request = action.request {
            members.append(("method", .string(request.method)))
            members.append(("href", .string(request.href)))
            if let body = request.body { members.append(("body", value(body))) }
        }
        if let reason = action.disabledReason {
            members.append(("disabled", .bool(true)))
            members.append(("reason", .string(reason)))
        }
        return .object(members: members)
    }

    /// An action's structured value (a request body) as a value.
    ///
    ///     JSONRenderer.value(Action.Value.object([("bookIds", .array([.int(12)]))]))  // {"bookIds":[12]}
    public static func value(_ value: Action.Value) -> JSONValue {
        switch value {
        case .null: .null
        case .bool(let bool): .bool(bool)
        case .int(let int): .int(int)
        case .string(let string): .string(string)
        case .array(let values): .array(values.map { Self.value($0) })
        case .object(let members): .object(members: members.map { ($0.name, Self.value($0.value)) })
        }
    }

    /// A field value as a value; non-finite doubles become `null`.
    ///
    ///     JSONRenderer.value(.int(12))  // .int(12)
    public static func value(_ value: FieldValue) -> JSONValue {
        switch value {
        case .null: .null
        case .bool(let bool): .bool(bool)
        case .int(let int): .int(int)
        case .double(let double): double.isFinite ? .double(double) : .null
        case .string(let string): .string(string)
        }
    }

    // MARK: - Private

    /// The member names of an item that fields cannot take, whether or not the item has a subtitle.
    private static let reservedItemKeys: Set<String> = [
        "id", "kind", "title", "subtitle", "lines", "badges", "actions", "fields",
    ]

    /// The member names of a supplementary that fields cannot take.
    private static let reservedSupplementaryKeys: Set<String> = [
        "kind", "id", "title", "subtitle", "count", "lines", "actions", "fields",
    ]

    /// Appends each field as a member; a field whose key is reserved or already used goes into a trailing `fields`
    /// object instead, where the first of equal keys wins.
    private static func flattening(
        _ fields: [Field], into members: [(key: String, value: JSONValue)], reserved: Set<String>
    ) -> [(key: String, value: JSONValue)] {
        var result = members
        var used = reserved
        var nested: [(key: String, value: JSONValue)] = []
        var nestedKeys: Set<String> = []
        for field in fields {
            if used.insert(field.key).inserted {
                result.append((field.key, value(field.value)))
            } else if nestedKeys.insert(field.key).inserted {
                nested.append((field.key, value(field.value)))
            }
        }
        if !nested.isEmpty { result.append(("fields", .object(members: nested))) }
        return result
    }
}
