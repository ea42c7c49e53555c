/// Writes JSON text as it goes, without building a ``JSONValue`` first: containers are opened and closed, keys and
/// values appended in order. The text is exactly what ``JSONWriter`` writes for the same value, compact or indented,
/// so a renderer can describe a document once and have it as bytes (fast) or as a value (by parsing them).
///
/// The caller keeps the structure well formed: a key before each value in an object, every container closed.
///
/// For example:
///
///     var json = JSONTextWriter()
///     json.beginObject()
///     json.key("title"); json.string("Dune")
///     json.key("years"); json.beginArray(); json.int(1965); json.endArray()
///     json.endObject()
///     json.bytes  // {"title":"Dune","years":[1965]}
public struct JSONTextWriter {
    /// The text written so far, UTF-8.
    public private(set) var bytes: [UInt8] = []
    /// Spaces per level; 0 writes one compact line.
    public let indent: Int
    /// For each open container, how many elements or members it has so far.
    private var counts: [Int] = []
    /// A key was just written: the next value is its value, with no separator before it.
    private var afterKey = false

    /// Creates a writer; `indent` > 0 puts members and elements on their own lines, as `JSONWriter` does.
    ///
    ///     var json = JSONTextWriter(indent: 2, capacity: 16_384)
    public init(indent: Int = 0, capacity: Int = 0) {
        self.indent = indent
        bytes.reserveCapacity(capacity)
        counts.reserveCapacity(8)
    }

    // MARK: - Containers

    /// Opens an object (`{`).
    ///
    ///     json.beginObject()
    public mutating func beginObject() {
        beforeValue()
        bytes.append(UInt8(ascii: "{"))
        counts.append(0)
    }

    /// Closes the innermost object (`}`).
    ///
    ///     json.endObject()
    public mutating func endObject() {
        close(UInt8(ascii: "}"))
    }

    /// Opens an array (`[`).
    ///
    ///     json.beginArray()
    public mutating func beginArray() {
        beforeValue()
        bytes.append(UInt8(ascii: "["))
        counts.append(0)
    }

    /// Closes the innermost array (`]`).
    ///
    ///     json.endArray()
    public mutating func endArray() {
        close(UInt8(ascii: "]"))
    }

    /// Writes an object member's key; the next value written is its value.
    ///
    ///     json.key("title")
    public mutating func key(_ key: String) {
        separate()
        JSONWriter.appendQuoted(key, to: &bytes)
        bytes.append(UInt8(ascii: ":"))
        if indent > 0 { bytes.append(UInt8(ascii: " ")) }
        afterKey = true
    }

    /// Writes an object member's key given as a ``Key`` (its text made once): the same as `key(_:)` with its name.
    ///
    ///     static let title = JSONTextWriter.Key("title")
    ///     json.key(title)
    public mutating func key(_ key: Key) {
        separate()
        bytes.append(contentsOf: key.text)
        if indent > 0 { bytes.append(UInt8(ascii: " ")) }
        afterKey = true
    }

    /// A member name as JSON text, quoted and escaped, with its colon: made once for names a writer uses over and
    /// over (a renderer's fixed member names), so writing one is a copy.
    ///
    ///     let title = JSONTextWriter.Key("title")  // text: "title":
    public struct Key: Sendable, Hashable {
        /// The name, quoted and escaped, then `:`.
        public let text: [UInt8]

        /// The key for `name`.
        ///
        ///     JSONTextWriter.Key("bookId")
        public init(_ name: String) {
            var text: [UInt8] = []
            JSONWriter.appendQuoted(name, to: &text)
            text.append(UInt8(ascii: ":"))
            self.text = text
        }
    }

    // MARK: - Values

    /// Writes a string value.
    ///
    ///     json.string("Dune")
    public mutating func string(_ text: String) {
        beforeValue()
        JSONWriter.appendQuoted(text, to: &bytes)
    }

    /// Writes an integer value.
    ///
    ///     json.int(1965)
    public mutating func int(_ number: Int) {
        beforeValue()
        JSONWriter.appendInt(number, to: &bytes)
    }

    /// Writes `true` or `false`.
    ///
    ///     json.bool(true)
    public mutating func bool(_ flag: Bool) {
        beforeValue()
        bytes.append(contentsOf: (flag ? "true" : "false").utf8)
    }

    /// Writes any value, indented to where it stands.
    ///
    ///     json.value(["bookIds": [12]])
    public mutating func value(_ value: JSONValue) {
        beforeValue()
        JSONWriter.write(value, indent: indent, level: counts.count, to: &bytes)
    }

    /// Appends JSON text of one whole value written before, as it is (compact text, for a compact writer).
    ///
    ///     json.written(screenBytes)
    public mutating func written(_ text: [UInt8]) {
        beforeValue()
        bytes.append(contentsOf: text)
    }

    /// Appends JSON text of one whole value written before, as it is (compact text, for a compact writer).
    ///
    ///     json.written(document[range])
    public mutating func written(_ text: ArraySlice<UInt8>) {
        beforeValue()
        bytes.append(contentsOf: text)
    }

    /// Writes one value with `body` and returns where its text lies in `bytes`: from its first byte to its last,
    /// without the separator written before it.
    ///
    ///     let range = json.recording { $0.beginObject(); $0.endObject() }
    ///     json.bytes[range]  // {}
    public mutating func recording(_ body: (inout JSONTextWriter) -> Void) -> Range<Int> {
        beforeValue()
        afterKey = true  // the separator is written: the value's first token must not write another
        let start = bytes.count
        body(&self)
        return start..<bytes.count
    }

    // MARK: - Private

    private mutating func beforeValue() {
        if afterKey {
            afterKey = false
        } else {
            separate()
        }
    }

    /// The comma and line break before an element or member of the innermost container.
    private mutating func separate() {
        guard let last = counts.indices.last else { return }
        if counts[last] > 0 { bytes.append(UInt8(ascii: ",")) }
        counts[last] += 1
        newline(level: counts.count)
    }

    private mutating func close(_ bracket: UInt8) {
        let count = counts.removeLast()
        if count > 0 { newline(level: counts.count) }
        bytes.append(bracket)
    }

    private mutating func newline(level: Int) {
        guard indent > 0 else { return }
        bytes.append(0x0A)
        bytes.append(contentsOf: repeatElement(UInt8(ascii: " "), count: indent * level))
    }
}
