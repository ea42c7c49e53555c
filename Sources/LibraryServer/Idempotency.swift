import Formats
import HTTP
import Library

/// `Idempotency-Key` on a change (POST, DELETE): the lookup, the change and the response kept for the key happen in
/// one IMMEDIATE write transaction, so a retry with the same key, query and body gets the kept response again (even
/// after a restart: it is in the database) and the change runs once; the same key with another query or body is
/// answered 422. A refusal (4xx) is kept too, so a retry is answered the same way; 5xx answers are not kept.
///
/// A retry is the same request when it has the same method, path, query parameters that its route reads (in any
/// order, as the routes read them by name; a parameter no route reads, such as a front's cache-buster `_`, does not
/// count) and body: a JSON body is compared as JSON (white space and the order of object members do not matter),
/// another body byte for byte, and for a route that takes no members no body is `{}`. Only a hash of the query and
/// body is kept (``requestHash(_:comparing:)``): a query may hold what should not be stored in the clear.
///
///     return try Idempotency.run(request, comparing: .parameters([]), store: store, now: now) { store in
///         try addBook(store)
///     }
enum Idempotency {
    /// What of a request besides its method and path a retry must repeat: the query parameters its route reads,
    /// and its body (where a route that takes no members counts no body and `{}` as the same body).
    ///
    ///     Idempotency.Compared.parameters(["page", "perPage"], takesNoMembers: true)
    struct Compared: Sendable {
        /// The names of the query parameters the route reads; the others are left out.
        var parameters: Set<String>
        /// Whether the route takes no body but `{}`: no body is hashed as `{}`.
        var takesNoMembers = false

        static func parameters(_ names: Set<String>, takesNoMembers: Bool = false) -> Compared {
            Compared(parameters: names, takesNoMembers: takesNoMembers)
        }
    }

    /// The header fields a kept response replays.
    static let keptHeaders: Set<String> = [
        "content-type", "etag", "location", "link", "retry-after", "preference-applied",
    ]

    static func run(
        _ request: Request, comparing compared: Compared, store: LibraryStore, now: Timestamp,
        _ perform: (LibraryStore) throws -> Response
    ) throws -> Response {
        try run(request, comparing: compared, store: store, now: now, change: perform, respond: { $0 })
    }

    /// The same, in two parts: `change` runs in the write transaction, `respond` turns what it returned into the
    /// response. Without a key `respond` runs after the commit, so the transaction (which holds the database's
    /// one write lock) does not wait for the response to be rendered; with a key it runs inside, as the response
    /// is kept with the change.
    ///
    ///     try Idempotency.run(
    ///         request, comparing: compared, store: store, now: now, change: { try $0.take(...) }, respond: render)
    static func run<Outcome>(
        _ request: Request, comparing compared: Compared, store: LibraryStore, now: Timestamp,
        change: (LibraryStore) throws -> Outcome, respond: (Outcome) throws -> Response
    ) throws -> Response {
        guard let key = request.headers["Idempotency-Key"] else {
            return try respond(try store.write { store in try change(store) })
        }
        let principal = try request.principal()
        let described = IdempotentRequest(
            principal: principal.tokenID, key: key, method: request.method.rawValue, path: request.path,
            bodyHash: requestHash(request, comparing: compared))
        return try store.write { store in
            if let kept = try keptResponse(for: described, request: request, store: store, now: now) {
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

    /// The hash a retry must repeat besides the method and path: SHA-256 of `q`, the query's parameters that
    /// `compared` names as a compact JSON array of `[name, value]` pairs (sorted by name, a repeated name's values
    /// in the order sent), a line feed, then the body: a JSON body written back compactly with every object's
    /// members sorted by name (by UTF-8 bytes), none as `{}` where the route takes no members, any other body (or
    /// none) as sent.
    ///
    ///     requestHash(Request(method: .post, target: "/v1/loans?perPage=2&_=1", body: Array(#"{"bookIds": [12]}"#.utf8)), comparing: .parameters(["perPage"]))
    ///     // == requestHash(Request(method: .post, target: "/v1/loans?perPage=2", body: Array(#"{"bookIds":[12]}"#.utf8)), comparing: .parameters(["perPage"]))
    static func requestHash(_ request: Request, comparing compared: Compared) -> [UInt8] {
        let read = request.query.items.filter { compared.parameters.contains($0.key) }
        let pairs = read.enumerated().sorted { first, second in
            first.element.key.utf8.elementsEqual(second.element.key.utf8)
                ? first.offset < second.offset
                : first.element.key.utf8.lexicographicallyPrecedes(second.element.key.utf8)
        }
        var bytes: [UInt8] = Array("q".utf8)
        let query = pairs.map { JSONValue.array([.string($0.element.key), .string($0.element.value)]) }
        JSONWriter.write(.array(query), to: &bytes)
        bytes.append(0x0A)
        if request.body.isEmpty && compared.takesNoMembers {
            JSONWriter.write(.object(members: []), to: &bytes)
        } else if let json = try? JSONParser.parse(request.body) {
            JSONWriter.write(canonical(json), to: &bytes)
        } else {
            bytes += request.body
        }
        return Secrets.sha256(bytes)
    }

    /// `value` with the members of every object sorted by name (by UTF-8 bytes).
    private static func canonical(_ value: JSONValue) -> JSONValue {
        switch value {
        case .array(let items): return .array(items.map(canonical))
        case .object(let object):
            let members = object.members.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
            return .object(members: members.map { (key: $0.key, value: canonical($0.value)) })
        default: return value
        }
    }

    /// The response kept for `described`. A response kept before the query was part of the hash (its hash is the
    /// body's alone, as sent) still matches a retry with the same body, as it did then, until it expires
    /// (`AccessRules.idempotencyKeepSeconds` after it was kept): a retry across an upgrade is replayed, not refused.
    private static func keptResponse(
        for described: IdempotentRequest, request: Request, store: LibraryStore, now: Timestamp
    ) throws -> StoredResponse? {
        do {
            return try store.storedResponse(for: described, now: now)
        } catch AuthError.idempotencyKeyReused {
            var earlier = described
            earlier.bodyHash = Secrets.sha256(request.body)
            return try store.storedResponse(for: earlier, now: now)
        }
    }
}
