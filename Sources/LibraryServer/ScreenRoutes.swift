import Formats
import HTTP
import Library
import Sections

/// `GET /v1/screen`, `/v1/screen/changes` (long-poll) and `/v1/screen/events` (Server-Sent Events).
struct ScreenRoutes: Sendable {
    let service: ServiceParts

    func add(to router: inout Router) {
        router.get("/v1/screen", screen)
        router.get("/v1/screen/changes", changes)
        router.get("/v1/screen/events", events)
    }

    /// The client's screen document; `ETag` names it, `If-None-Match` with it gives 304.
    func screen(_ request: Request) throws -> Response {
        let key = ScreenKey(clientID: try request.clientID(), query: try ScreenQuery(request.query))
        let version = try service.versions.current(
            key, pool: service.pool, now: service.now(), generation: request.storage[GenerationKey.self])
        if let header = request.headers["If-None-Match"], EntityTag.matches(ifNoneMatch: header, tag: version.tag) {
            return Response(status: .notModified, headers: ["ETag": version.etag, "Cache-Control": "no-cache"])
        }
        return Response(
            status: .ok,
            headers: [
                "Content-Type": "application/json; charset=utf-8", "ETag": version.etag, "Cache-Control": "no-cache",
            ], body: version.bytes)
    }

    /// The changes since `since` (an ETag), 304 when none; `wait` holds the request up to that many seconds (60
    /// at most) for a change (the screen is read once more when the wait ends: a loan may have fallen due);
    /// `changes=batch-safe` asks for the batch-safe form.
    func changes(_ request: Request) throws -> Response {
        let key = ScreenKey(clientID: try request.clientID(), query: try ScreenQuery(request.query))
        let form = try ScreenChanges.form(request.query)
        guard let since = try request.query.single("since").map(EntityTag.bare), !since.isEmpty else {
            throw Problem(
                status: .badRequest, code: "bad-parameter",
                detail: "Give the version you have: ?since=ETAG (the ETag of GET /v1/screen).",
                extensions: ["parameter": "since"])
        }
        let wait =
            try request.query.single("wait").map { text throws(Problem) in
                try ScreenQuery.integer(text, name: "wait", in: 0...60)
            } ?? 0
        let current = try service.versions.current(
            key, pool: service.pool, now: service.now(), generation: request.storage[GenerationKey.self])
        guard current.tag == since else {
            return ScreenChanges.response(from: service.versions.snapshot(key, tag: since), to: current, form: form)
        }
        let unchanged = ScreenChanges.notModified(current)
        guard wait > 0 else { return unchanged }
        // The feed answers at the end of the wait; the timeout, only if it could not read the screen then.
        let waiter = DeferredResponse(timeout: .seconds(wait) + ChangeFeed.lateAnswer, timeoutResponse: unchanged)
        service.feed.wait(
            key, from: current, for: .seconds(wait), token: try request.principal().tokenID, waiter: waiter,
            form: form)
        return .deferred(waiter)
    }

    /// An event stream of the screen's changes: `event: changes`, `id: <ETag>`, `data: {changes, etag}`. The first
    /// event brings the front up to date: the changes since `Last-Event-ID` when that version is known (none when
    /// it is the current one), else the whole document with `"changes": null`.
    func events(_ request: Request) throws -> Response {
        let key = ScreenKey(clientID: try request.clientID(), query: try ScreenQuery(request.query))
        let form = try ScreenChanges.form(request.query)
        let current = try service.versions.current(
            key, pool: service.pool, now: service.now(), generation: request.storage[GenerationKey.self])
        let stream = EventStream()
        let last = request.headers["Last-Event-ID"].map(EntityTag.bare)
        if last != current.tag {
            let old = last.flatMap { service.versions.snapshot(key, tag: $0) }
            let body = ScreenChanges.bytes(from: old, to: current, form: form)
            stream.send(data: body, event: "changes", id: current.tag)
        }
        service.feed.watch(key, from: current, token: try request.principal().tokenID, stream: stream, form: form)
        return .eventStream(stream)
    }
}
