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

    /// The answer to `GET /v1/screen/changes` when the screen changed since `old`: 200, the body of
    /// ``bytes(from:to:form:)``, the current `ETag`.
    ///
    ///     ScreenChanges.response(from: old, to: current)  // 200 {"changes":...,"etag":...}
    static func response(from old: Snapshot?, to current: ScreenVersion, form: Changeset.Form = .standard) -> Response {
        Response(
            status: .ok,
            headers: [
                "Content-Type": "application/json; charset=utf-8", "ETag": current.etag, "Cache-Control": "no-cache",
            ], body: bytes(from: old, to: current, form: form))
    }

    /// The answer to `GET /v1/screen/changes` when the front has `current` already: 304 with its `ETag`.
    ///
    ///     ScreenChanges.notModified(current)  // 304, ETag: "9f2c..."
    static func notModified(_ current: ScreenVersion) -> Response {
        Response(status: .notModified, headers: ["ETag": current.etag, "Cache-Control": "no-cache"])
    }

    /// The name of the parameter that asks for a change-set form.
    static let parameter = "changes"

    /// The change-set form a request asks for with `?changes=standard|batch-safe` (standard by default); another
    /// value is a 400 `bad-parameter` problem.
    ///
    ///     try ScreenChanges.form(request.query)  // .batchSafe for ?changes=batch-safe
    static func form(_ query: QueryParameters) throws(Problem) -> Changeset.Form {
        guard let text = try query.single(parameter) else { return .standard }
        guard let form = Changeset.Form(rawValue: text) else {
            throw Problem(
                status: .badRequest, code: "bad-parameter",
                detail: "'changes' is standard or batch-safe, not '\(text.prefix(40))'.",
                extensions: ["parameter": "changes"])
        }
        return form
    }
}
