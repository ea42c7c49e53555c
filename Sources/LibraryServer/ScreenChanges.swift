import Formats
import HTTP
import Rendering
import Sections

/// The body that tells a front how to get from its version of a screen to the current one: `{"changes": ...,
/// "etag": ...}` in the change-set form of `--json take` (or its batch-safe form, `?changes=batch-safe`), or, when
/// its version is no longer known, the whole document with `"changes": null` and the `etag`.
///
///     ScreenChanges.bytes(from: old, to: current)  // {"changes":{"sections":...},"etag":"9f2c..."}
enum ScreenChanges {
    static func bytes(from old: Snapshot?, to current: ScreenVersion, form: Changeset.Form = .standard) -> [UInt8] {
        var json = JSONTextWriter(capacity: old == nil ? current.bytes.count + 128 : 2_048)
        guard let old else {
            JSONRenderer.write(
                current.snapshot, extra: [("changes", .null), ("etag", .string(current.tag))], to: &json)
            return json.bytes
        }
        json.beginObject()
        json.key("changes")
        JSONRenderer.write(current.snapshot.changes(from: old, form: form), to: &json)
        json.key("etag")
        json.string(current.tag)
        json.endObject()
        return json.bytes
    }

    /// The change-set form a request asks for with `?changes=standard|batch-safe` (standard by default); another
    /// value is a 400 `bad-parameter` problem.
    ///
    ///     try ScreenChanges.form(request.query)  // .batchSafe for ?changes=batch-safe
    static func form(_ query: QueryParameters) throws(Problem) -> Changeset.Form {
        guard let text = try query.single("changes") else { return .standard }
        guard let form = Changeset.Form(rawValue: text) else {
            throw Problem(
                status: .badRequest, code: "bad-parameter",
                detail: "'changes' is standard or batch-safe, not '\(text.prefix(40))'.",
                extensions: ["parameter": "changes"])
        }
        return form
    }
}
