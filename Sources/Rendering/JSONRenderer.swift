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
        var json = JSONTextWriter(indent: pretty ? 2 : 0, capacity: 16_384)
        Self.write(snapshot, extra: extra, to: &json)
        return String(decoding: json.bytes, as: UTF8.self) + "\n"
    }

    /// Writes the document to `json`, the snapshot's members then `extra`'s: the renderer's one description of
    /// the document, which the value-returning functions below read back.
    ///
    ///     var json = JSONTextWriter()
    ///     JSONRenderer.write(snapshot, to: &json)  // json.bytes: {"version":1,"sections":[...]}
    public static func write(
        _ snapshot: Snapshot, extra: [(key: String, value: JSONValue)] = [], to json: inout JSONTextWriter
    ) {
        write(snapshot, extra: extra, to: &json) { section, json in
            for item in section.items { write(item, to: &json) }
        }
    }

    /// Writes the document, each visible section's items by `writeItems` (given the section and the writer).
    static func write(
        _ snapshot: Snapshot, extra: [(key: String, value: JSONValue)] = [], to json: inout JSONTextWriter,
        items writeItems: (Section, inout JSONTextWriter) -> Void
    ) {
        json.beginObject()
        json.key(Keys.version)
        json.int(version)
        json.key(Keys.sections)
        json.beginArray()
        for section in snapshot.visibleSections {
            write(section, to: &json) { json in writeItems(section, &json) }
        }
        json.endArray()
        if let empty = snapshot.shownEmptyState {
            json.key(Keys.emptyState)
            write(empty, to: &json)
        }
        var used = reservedTopLevelKeys
        for member in extra {
            precondition(used.insert(member.key).inserted, "extra member \(member.key) is reserved or repeated")
            json.key(member.key)
            json.value(member.value)
        }
        json.endObject()
    }

    /// The document as a value, for callers who embed it elsewhere.
    ///
    ///     JSONRenderer.document(snapshot).serialized(pretty: false)
    public static func document(_ snapshot: Snapshot, extra: [(key: String, value: JSONValue)] = []) -> JSONValue {
        value { write(snapshot, extra: extra, to: &$0) }
    }

    /// A section as a value: `id`, `layout`, `items`, `supplementaries`, `whenEmpty`.
    ///
    ///     JSONRenderer.section(clientBooks)
    public static func section(_ section: Section) -> JSONValue {
        value { write(section, to: &$0) }
    }

    /// A layout hint as a value: `style`, `minimumItemWidth`, `spacing`.
    ///
    ///     JSONRenderer.layout(.grid(minimumItemWidth: 28, spacing: 2))
    ///     // {"style":"grid","minimumItemWidth":28,"spacing":2}
    public static func layout(_ layout: Layout) -> JSONValue {
        value { write(layout, to: &$0) }
    }

    /// An item as a value: `id`, `kind`, `title`, `subtitle` if any, `lines`, `badges`, `actions`, then its fields.
    ///
    ///     JSONRenderer.item(book)  // {"id":"book-12","kind":"book",...,"bookId":12}
    public static func item(_ item: Item) -> JSONValue {
        value { write(item, to: &$0) }
    }

    /// A supplementary as a value: `kind`, `id`, `title`, `subtitle` and `count` if any, `lines`, `actions`, then
    /// its fields.
    ///
    ///     JSONRenderer.supplementary(header)  // {"kind":"header","id":"client-books-header",...}
    public static func supplementary(_ supplementary: Supplementary) -> JSONValue {
        value { write(supplementary, to: &$0) }
    }

    /// An action as a value: `id`, `title`, `command`, and when it has a request form, `method`, `href` and `body`
    /// (if any); an action that cannot be performed now also has `"disabled": true` and the `reason` in words.
    ///
    ///     JSONRenderer.action(take)
    ///     // {"id":"take","title":"Take","command":"librarycli take 12","method":"POST","href":"/v1/loans",
    ///     //  "body":{"bookIds":[12]}}
    public static func action(_ action: Action) -> JSONValue {
        value { write(action, to: &$0) }
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

    // MARK: - Writing the parts

    static func write(_ section: Section, to json: inout JSONTextWriter) {
        write(section, to: &json) { json in
            for item in section.items { write(item, to: &json) }
        }
    }

    static func write(
        _ section: Section, to json: inout JSONTextWriter, items writeItems: (inout JSONTextWriter) -> Void
    ) {
        json.beginObject()
        json.key(Keys.id)
        json.string(section.id)
        json.key(Keys.layout)
        write(section.layout, to: &json)
        json.key(Keys.items)
        json.beginArray()
        writeItems(&json)
        json.endArray()
        json.key(Keys.supplementaries)
        json.beginArray()
        for supplementary in section.supplementaries { write(supplementary, to: &json) }
        json.endArray()
        json.key(Keys.whenEmpty)
        json.string(section.whenEmpty.rawValue)
        json.endObject()
    }

    static func write(_ layout: Layout, to json: inout JSONTextWriter) {
        json.beginObject()
        json.key(Keys.style)
        json.string(layout.style.rawValue)
        json.key(Keys.minimumItemWidth)
        json.int(layout.minimumItemWidth)
        json.key(Keys.spacing)
        json.int(layout.spacing)
        json.endObject()
    }

    static func write(_ item: Item, to json: inout JSONTextWriter) {
        json.beginObject()
        json.key(Keys.id)
        json.string(item.id)
        json.key(Keys.kind)
        json.string(item.kind)
        json.key(Keys.title)
        json.string(item.title)
        if let subtitle = item.subtitle {
            json.key(Keys.subtitle)
            json.string(subtitle)
        }
        json.key(Keys.lines)
        writeStrings(item.lines, to: &json)
        json.key(Keys.badges)
        json.beginArray()
        for badge in item.badges {
            json.beginObject()
            json.key(Keys.text)
            json.string(badge.text)
            json.key(Keys.style)
            json.string(badge.style.rawValue)
            json.endObject()
        }
        json.endArray()
        json.key(Keys.actions)
        json.beginArray()
        for action in item.actions { write(action, to: &json) }
        json.endArray()
        writeFields(item.fields, reserved: reservedItemKeys, to: &json)
        json.endObject()
    }

    static func write(_ supplementary: Supplementary, to json: inout JSONTextWriter) {
        json.beginObject()
        json.key(Keys.kind)
        json.string(supplementary.kind.name)
        json.key(Keys.id)
        json.string(supplementary.id)
        json.key(Keys.title)
        json.string(supplementary.title)
        if let subtitle = supplementary.subtitle {
            json.key(Keys.subtitle)
            json.string(subtitle)
        }
        if let count = supplementary.count {
            json.key(Keys.count)
            json.int(count)
        }
        json.key(Keys.lines)
        writeStrings(supplementary.lines, to: &json)
        json.key(Keys.actions)
        json.beginArray()
        for action in supplementary.actions { write(action, to: &json) }
        json.endArray()
        writeFields(supplementary.fields, reserved: reservedSupplementaryKeys, to: &json)
        json.endObject()
    }

    static func write(_ action: Action, to json: inout JSONTextWriter) {
        json.beginObject()
        json.key(Keys.id)
        json.string(action.id)
        json.key(Keys.title)
        json.string(action.title)
        json.key(Keys.command)
        json.string(action.command)
        if let request = action.request {
            json.key(Keys.method)
            json.string(request.method)
            json.key(Keys.href)
            json.string(request.href)
            if let body = request.body {
                json.key(Keys.body)
                write(body, to: &json)
            }
        }
        if let reason = action.disabledReason {
            json.key(Keys.disabled)
            json.bool(true)
            json.key(Keys.reason)
            json.string(reason)
        }
        json.endObject()
    }

    // MARK: - Private

    /// The renderer's fixed member names, each made into JSON text once.
    /// The member names the renderer writes, made into text once.
    enum Keys {
        static let actions = JSONTextWriter.Key("actions")
        static let badges = JSONTextWriter.Key("badges")
        static let body = JSONTextWriter.Key("body")
        static let command = JSONTextWriter.Key("command")
        static let count = JSONTextWriter.Key("count")
        static let disabled = JSONTextWriter.Key("disabled")
        static let emptyState = JSONTextWriter.Key("emptyState")
        static let fields = JSONTextWriter.Key("fields")
        static let href = JSONTextWriter.Key("href")
        static let id = JSONTextWriter.Key("id")
        static let items = JSONTextWriter.Key("items")
        static let kind = JSONTextWriter.Key("kind")
        static let layout = JSONTextWriter.Key("layout")
        static let lines = JSONTextWriter.Key("lines")
        static let method = JSONTextWriter.Key("method")
        static let minimumItemWidth = JSONTextWriter.Key("minimumItemWidth")
        static let reason = JSONTextWriter.Key("reason")
        static let sections = JSONTextWriter.Key("sections")
        static let spacing = JSONTextWriter.Key("spacing")
        static let style = JSONTextWriter.Key("style")
        static let subtitle = JSONTextWriter.Key("subtitle")
        static let supplementaries = JSONTextWriter.Key("supplementaries")
        static let text = JSONTextWriter.Key("text")
        static let title = JSONTextWriter.Key("title")
        static let version = JSONTextWriter.Key("version")
        static let whenEmpty = JSONTextWriter.Key("whenEmpty")
        // A changeset's (ChangesetJSON.swift).
        static let change = JSONTextWriter.Key("change")
        static let deleted = JSONTextWriter.Key("deleted")
        static let from = JSONTextWriter.Key("from")
        static let fromSection = JSONTextWriter.Key("fromSection")
        static let index = JSONTextWriter.Key("index")
        static let inserted = JSONTextWriter.Key("inserted")
        static let item = JSONTextWriter.Key("item")
        static let moved = JSONTextWriter.Key("moved")
        static let section = JSONTextWriter.Key("section")
        static let supplementary = JSONTextWriter.Key("supplementary")
        static let to = JSONTextWriter.Key("to")
        static let toSection = JSONTextWriter.Key("toSection")
        static let updated = JSONTextWriter.Key("updated")
    }

    /// The member names of an item that fields cannot take, whether or not the item has a subtitle. (A handful of
    /// short names: comparing with each is cheaper than hashing the field's key.)
    private static let reservedItemKeys: [String] = [
        "id", "kind", "title", "subtitle", "lines", "badges", "actions", "fields",
    ]

    /// The member names of a supplementary that fields cannot take.
    private static let reservedSupplementaryKeys: [String] = [
        "kind", "id", "title", "subtitle", "count", "lines", "actions", "fields",
    ]

    /// An action's structured value written as it goes: the text `value(_:)`'s JSON value would be written as.
    private static func write(_ value: Action.Value, to json: inout JSONTextWriter) {
        switch value {
        case .null: json.value(.null)
        case .bool(let bool): json.bool(bool)
        case .int(let int): json.int(int)
        case .string(let string): json.string(string)
        case .array(let values):
            json.beginArray()
            for element in values { write(element, to: &json) }
            json.endArray()
        case .object(let members):
            json.beginObject()
            for member in members {
                json.key(member.name)
                write(member.value, to: &json)
            }
            json.endObject()
        }
    }

    /// A field value written as it goes: the text `value(_:)`'s JSON value would be written as.
    private static func write(_ value: FieldValue, to json: inout JSONTextWriter) {
        switch value {
        case .int(let int): json.int(int)
        case .string(let string): json.string(string)
        case .bool(let bool): json.bool(bool)
        case .null, .double: json.value(Self.value(value))
        }
    }

    /// What `write` describes, read back as a value (the text is this renderer's own, so it always parses).
    static func value(_ describe: (inout JSONTextWriter) -> Void) -> JSONValue {
        var json = JSONTextWriter(capacity: 1_024)
        describe(&json)
        do {
            return try JSONParser.parse(json.bytes)
        } catch {
            preconditionFailure("JSONRenderer wrote text its own parser refuses: \(error)")
        }
    }

    private static func writeStrings(_ strings: [String], to json: inout JSONTextWriter) {
        json.beginArray()
        for string in strings { json.string(string) }
        json.endArray()
    }

    /// Writes each field as a member; a field whose key is reserved or already used goes into a trailing `fields`
    /// object instead, where the first of equal keys wins.
    private static func writeFields(_ fields: [Field], reserved: [String], to json: inout JSONTextWriter) {
        // An item has a handful of fields: looking back along them is cheaper than a set of the keys used.
        var nested: [(key: String, value: JSONValue)] = []
        for (index, field) in fields.enumerated() {
            if !reserved.contains(field.key) && !fields[..<index].contains(where: { $0.key == field.key }) {
                json.key(field.key)
                write(field.value, to: &json)
            } else if !nested.contains(where: { $0.key == field.key }) {
                nested.append((field.key, value(field.value)))
            }
        }
        if !nested.isEmpty {
            json.key(Keys.fields)
            json.value(.object(members: nested))
        }
    }
}
