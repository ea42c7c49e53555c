import Formats
import HTTP

/// A demo client whose documented PIN still signs them in, for the web front's sign-in page.
///
///     DemoSignIn(name: "John Doe", cardNumber: "C-0001", pin: "1111")
public struct DemoSignIn: Sendable, Hashable {
    /// The client's name.
    public var name: String
    /// The card number to sign in with.
    public var cardNumber: String
    /// The demo PIN (documented in README, so no secret).
    public var pin: String

    /// Creates a demo sign-in.
    ///
    ///     DemoSignIn(name: "Jane Roe", cardNumber: "C-0002", pin: "2222")
    public init(name: String, cardNumber: String, pin: String) {
        self.name = name
        self.cardNumber = cardNumber
        self.pin = pin
    }
}

/// The web front: the page and its files from `web/` (embedded at build time as `EmbeddedWeb`), served at `/` and
/// under `/assets/` with a strict Content-Security-Policy, and `GET /v1/demo`, which tells the sign-in page the demo
/// clients it may show (`{"demo": true, "clients": [{"name", "cardNumber", "pin"}]}`; `"demo": false` and no
/// clients on any other database). The page uses the documented API only.
struct WebRoutes: Sendable {
    /// The files of `web/`, as embedded.
    static let files = StaticFiles(
        files: EmbeddedWeb.files.map { (name: $0.name, bytes: Array($0.text.utf8)) }, index: "index.html",
        prefix: "/assets/")

    /// Paths anyone may read without a token.
    static func isPublic(_ path: String) -> Bool {
        path == "/" || path == "/v1/demo" || path.hasPrefix(files.prefix)
    }

    let demoSignIns: [DemoSignIn]

    func add(to router: inout Router) {
        Self.files.add(to: &router)
        router.get("/v1/demo") { _ in
            .json(
                .object(members: [
                    ("demo", .bool(!demoSignIns.isEmpty)),
                    (
                        "clients",
                        .array(
                            demoSignIns.map { client in
                                .object(members: [
                                    ("name", .string(client.name)), ("cardNumber", .string(client.cardNumber)),
                                    ("pin", .string(client.pin)),
                                ])
                            })
                    ),
                ]), headers: ["Cache-Control": "no-store"])
        }
    }
}
