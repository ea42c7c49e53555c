import Formats
import Rendering
import Sections

/// The body that tells a front how to get from its version of a screen to the current one: `{"changes": ...,
/// "etag": ...}` in the change-set form of `--json take`, or, when its version is no longer known, the whole
/// document with `"changes": null` and the `etag`.
///
///     ScreenChanges.body(from: old, to: current)  // {"changes":{"sections":...},"etag":"9f2c..."}
enum ScreenChanges {
    static func body(from old: Snapshot?, to current: ScreenVersion) -> JSONValue {
        guard let old else {
            return JSONRenderer.document(
                current.snapshot, extra: [("changes", .null), ("etag", .string(current.tag))])
        }
        return .object(members: [
            ("changes", JSONRenderer.changes(current.snapshot.changes(from: old))), ("etag", .string(current.tag)),
        ])
    }

    static func bytes(from old: Snapshot?, to current: ScreenVersion) -> [UInt8] {
        var bytes: [UInt8] = []
        JSONWriter.write(body(from: old, to: current), to: &bytes)
        return bytes
    }
}
