import Formats
import HTTP
import Library
import LibraryServer
import Testing

@Suite("serve: public routes ignore Authorization")
struct PublicRouteTests {
    @Test("an unknown, revoked or malformed token does not stop sign-in, health, the API description or the web front")
    func staleTokenOnPublicRoutes() throws {
        let library = try TestLibrary()
        let issued = try library.store().createToken(for: .client(1), now: TestLibrary.now)
        _ = try library.store().revokeToken(id: issued.id, now: TestLibrary.now)
        try library.serve { service in
            for header in ["Bearer \(issued.token)", "Bearer lc_not-a-real-token-at-all", "Basic abc"] {
                let signIn = try call(
                    service.port, "POST", "/v1/sessions", headers: [("Authorization", header)],
                    json: #"{"cardNumber":"C-0001","pin":"1111"}"#)
                #expect(signIn.status == 201, "\(header)")
                for target in ["/healthz", "/v1/openapi.json", "/", "/v1/demo"] {
                    let response = try call(service.port, "GET", target, headers: [("Authorization", header)])
                    #expect(response.status == 200, "\(target) with \(header)")
                }
            }
            // Private routes still refuse them.
            let screen = try call(service.port, "GET", "/v1/screen", token: issued.token)
            #expect(screen.status == 401)
            #expect(screen.code == "unknown-token")
        }
    }
}
