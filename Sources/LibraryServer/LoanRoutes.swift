import Formats
import HTTP
import Library
import Rendering
import Sections

/// `POST /v1/loans` (take, all or none), `DELETE /v1/loans/:bookId` (return), `POST /v1/loans/:bookId/renewal`
/// and `GET /v1/loans`. A change answers `{"outcomes", "changes", "screen", "etag"}`: what was done, the change-set
/// from the screen before to the screen after (the `--json take` form), and the screen after, read in the same
/// transaction as the change. With `Prefer: return=minimal` (RFC 7240) it answers `{"outcomes"}` alone and reads no
/// screen, for fronts that follow the screen on its event stream.
struct LoanRoutes: Sendable {
    let service: ServiceParts

    func add(to router: inout Router) {
        router.post("/v1/loans", accepts: .json, take)
        router.get("/v1/loans", loans)
        router.delete("/v1/loans/:bookId", accepts: .json, returnBook)
        router.post("/v1/loans/:bookId/renewal", accepts: .json, renew)
    }

    /// The members `POST /v1/loans` takes (the API description lists the same: a test checks it).
    static let takeMembers = ["bookIds"]

    /// What a retried take must repeat: the screen's query and the change-set form, and the body.
    static let takeCompared = Idempotency.Compared.parameters(ScreenQuery.parameters.union([ScreenChanges.parameter]))
    /// What a retried return or renewal must repeat: the same, and its body, none being `{}`.
    static let noBodyCompared = Idempotency.Compared.parameters(takeCompared.parameters, takesNoMembers: true)

    func take(_ request: Request) throws -> Response {
        let clientID = try request.clientID()
        let ids = try BodyReader(request, members: Self.takeMembers).bookIDs()
        return try change(request, comparing: Self.takeCompared, clientID: clientID, status: .created, verb: "take") {
            store, now in
            try store.take(bookIDs: ids, clientID: clientID, now: now)
        }
    }

    func returnBook(_ request: Request) throws -> Response {
        let clientID = try request.clientID()
        let id = try bookID(request)
        try BodyReader.noMembers(request)
        return try change(request, comparing: Self.noBodyCompared, clientID: clientID, status: .ok, verb: "return") {
            store, now in
            try store.returnBooks(bookIDs: [id], clientID: clientID, now: now)
        }
    }

    func renew(_ request: Request) throws -> Response {
        let clientID = try request.clientID()
        let id = try bookID(request)
        try BodyReader.noMembers(request)
        return try change(request, comparing: Self.noBodyCompared, clientID: clientID, status: .ok, verb: "renew") {
            store, now in
            [try store.renew(bookID: id, clientID: clientID, now: now)]
        }
    }

    /// The client's open loans (`?state=open`, the default, soonest due first) or returned ones (`returned`,
    /// latest first).
    func loans(_ request: Request) throws -> Response {
        let clientID = try request.clientID()
        let state = try request.query.single("state") ?? "open"
        guard state == "open" || state == "returned" else {
            throw Problem(
                status: .badRequest, code: "bad-parameter",
                detail: "'state' is open or returned, not '\(state.prefix(40))'.", extensions: ["parameter": "state"])
        }
        let now = service.now()
        let loans = try service.pool.with { store in
            state == "open"
                ? try store.openLoans(clientID: clientID, now: now).sorted {
                    ($0.loan.dueAt, $0.book.id) < ($1.loan.dueAt, $1.book.id)
                }
                : try store.loanHistory(clientID: clientID, limit: 1_000)
        }
        return .json(
            .object(members: [
                ("clientId", .int(clientID)), ("state", .string(state)),
                (
                    "loans",
                    .array(loans.map { LibraryJSON.loan($0, overdue: state == "open" ? $0.isOverdue : nil) })
                ),
            ]))
    }

    // MARK: - Private

    private func bookID(_ request: Request) throws(Problem) -> Int {
        try ScreenQuery.integer(request.parameters["bookId"] ?? "", name: "bookId", in: 1...Int.max)
    }

    private func change(
        _ request: Request, comparing compared: Idempotency.Compared, clientID: Int, status: HTTPStatus, verb: String,
        _ perform: @escaping (LibraryStore, Timestamp) throws -> [LoanedBook]
    ) throws -> Response {
        let key = ScreenKey(clientID: clientID, query: try ScreenQuery(request.query))
        let form = try ScreenChanges.form(request.query)
        let now = service.now()
        if Preferences(request.headers)["return"] == "minimal" {
            return try service.pool.with { store in
                try Idempotency.run(
                    request, comparing: compared, store: store, now: now, change: { store in try perform(store, now) },
                    respond: { outcomes in
                        var headers = HTTPHeaders()
                        headers.set("Preference-Applied", "return=minimal")
                        let done = JSONValue.array(outcomes.map { LibraryJSON.loan($0, action: verb) })
                        return .json(.object(members: [("outcomes", done)]), status: status, headers: headers)
                    })
            }
        }
        // The screen before and after are read in the change's transaction; building their sections, diffing and
        // rendering them waits until it has committed (without an Idempotency-Key), so writers hold the write lock
        // only for the reads and the change.
        return try service.pool.with { store in
            try Idempotency.run(
                request, comparing: compared, store: store, now: now,
                change: { store in
                    let before = try service.versions.screen(key, store: store, now: now)
                    let outcomes = try perform(store, now)
                    return (before, outcomes, try service.versions.screen(key, store: store, now: now))
                },
                respond: { before, outcomes, after in
                    // The cards that did not change are the previous version's, and so is their text.
                    let before = service.versions.built(key, from: before)
                    let after = service.versions.version(
                        key, of: service.versions.built(key, from: after, reusing: before))
                    var json = JSONTextWriter(capacity: after.bytes.count + 4_096)
                    json.beginObject()
                    json.key("outcomes")
                    json.value(.array(outcomes.map { LibraryJSON.loan($0, action: verb) }))
                    json.key("changes")
                    JSONRenderer.write(after.snapshot.changes(from: before.snapshot, form: form), to: &json)
                    json.key("screen")
                    json.written(after.bytes)  // the screen's document, written once
                    json.key("etag")
                    json.string(after.tag)
                    json.endObject()
                    var headers = HTTPHeaders()
                    headers.set("Content-Type", "application/json; charset=utf-8")
                    headers.set("ETag", after.etag)
                    return Response(status: status, headers: headers, body: json.bytes)
                })
        }
    }
}
