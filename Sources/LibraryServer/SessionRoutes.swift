import Formats
import HTTP
import Library

/// `POST /v1/sessions` `{"cardNumber", "pin"}`: signs a client in and answers a new client token, `{"token",
/// "clientId", "cardNumber"}` (201), the card number as the library keeps it (`C-0001` for a typed " c-0001 "), for a
/// front to show. A wrong card or PIN is 401 `sign-in-failed`; after too many failures for a card, 429 `locked-out`
/// with `Retry-After`. Never idempotent-kept: the answer holds a secret.
///
/// `DELETE /v1/sessions/current`: signs out, revoking the token the request carries (any token may revoke itself);
/// 204. A retry is answered 401 `unknown-token`, which says the same: the token no longer works.
struct SessionRoutes: Sendable {
    let service: ServiceParts

    func add(to router: inout Router) {
        router.post("/v1/sessions", accepts: .json, signIn)
        router.delete("/v1/sessions/current", accepts: .json, signOut)
        router.get("/healthz") { _ in .json(["status": "ok"]) }
    }

    /// The members `POST /v1/sessions` takes (the API description lists the same: a test checks it).
    static let signInMembers = ["cardNumber", "pin"]

    func signIn(_ request: Request) throws -> Response {
        let body = try BodyReader(request, members: Self.signInMembers)
        let card = try body.requiredString("cardNumber")
        let pin = try body.requiredString("pin")
        let (session, client) = try service.pool.with { store in
            let session = try store.signIn(cardNumber: card, pin: pin, now: service.now())
            return (session, try store.client(id: session.clientID))
        }
        var members: [(String, JSONValue)] = [("token", .string(session.token)), ("clientId", .int(session.clientID))]
        if let client { members.append(("cardNumber", .string(client.cardNumber))) }
        return .json(.object(members: members), status: .created, headers: ["Cache-Control": "no-store"])
    }

    func signOut(_ request: Request) throws -> Response {
        let principal = try request.principal()
        try BodyReader.noMembers(request)
        _ = try service.pool.with { store in try store.revokeToken(id: principal.tokenID, now: service.now()) }
        return Response(status: .noContent, headers: ["Cache-Control": "no-store"])
    }
}
