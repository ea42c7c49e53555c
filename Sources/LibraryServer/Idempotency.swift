import HTTP
import Library

/// `Idempotency-Key` on a change (POST, DELETE): the lookup, the change and the response kept for the key happen in
/// one IMMEDIATE write transaction, so a retry with the same key and body gets the kept response again (even after
/// a restart: it is in the database) and the change runs once; the same key with another body is answered 422.
/// A refusal (4xx) is kept too, so a retry is answered the same way; 5xx answers are not kept.
///
///     return try Idempotency.run(request, store: store, now: now) { store in try take(store) }
enum Idempotency {
    /// The header fields a kept response replays.
    static let keptHeaders: Set<String> = [
        "content-type", "etag", "location", "link", "retry-after", "preference-applied",
    ]

    static func run(
        _ request: Request, store: LibraryStore, now: Timestamp, _ perform: (LibraryStore) throws -> Response
    ) throws -> Response {
        try run(request, store: store, now: now, change: perform, respond: { $0 })
    }

    /// The same, in two parts: `change` runs in the write transaction, `respond` turns what it returned into the
    /// response. Without a key `respond` runs after the commit, so the transaction (which holds the database's
    /// one write lock) does not wait for the response to be rendered; with a key it runs inside, as the response
    /// is kept with the change.
    ///
    ///     try Idempotency.run(request, store: store, now: now, change: { try $0.take(...) }, respond: render)
    static func run<Outcome>(
        _ request: Request, store: LibraryStore, now: Timestamp, change: (LibraryStore) throws -> Outcome,
        respond: (Outcome) throws -> Response
    ) throws -> Response {
        guard let key = request.headers["Idempotency-Key"] else {
            return try respond(try store.write { store in try change(store) })
        }
        let principal = try request.principal()
        let described = IdempotentRequest(
            principal: principal.tokenID, key: key, method: request.method.rawValue, path: request.path,
            bodyHash: Secrets.sha256(request.body))
        return try store.write { store in
            if let kept = try store.storedResponse(for: described, now: now) {
                var headers = HTTPHeaders()
                for header in kept.headers { headers.add(header.name, header.value) }
                headers.set("Idempotent-Replayed", "true")
                return Response(status: HTTPStatus(kept.status), headers: headers, body: kept.body)
            }
            var response: Response
            do {
                response = try store.write { store in try respond(try change(store)) }
            } catch {
                guard let problem = ProblemMapping.problem(for: error), problem.status.code < 500 else { throw error }
                response = problem.response()
            }
            if let bytes = response.bodyBytes, response.status.code < 500 {
                let headers = response.headers.filter { keptHeaders.contains($0.name.lowercased()) }.map {
                    StoredResponse.Header(name: $0.name, value: $0.value)
                }
                try store.storeResponse(
                    StoredResponse(status: response.status.code, headers: headers, body: bytes), for: described,
                    now: now)
            }
            return response
        }
    }
}
