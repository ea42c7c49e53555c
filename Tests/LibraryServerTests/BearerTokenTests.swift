import Testing

@testable import LibraryServer

@Suite("serve: the bearer token read from Authorization")
struct BearerTokenTests {
    @Test(
        arguments: [
            ("Bearer abc", "abc"), ("bearer abc", "abc"), ("BEARER  abc \t", "abc"), ("Bearer a b", "a b"),
            ("Bearer", nil), ("Bearer ", nil), ("Bearer \t ", nil), ("Basic abc", nil), ("Bearerx abc", nil),
            ("Béarer abc", nil), ("", nil),
        ] as [(String, String?)])
    func tokens(header: String, token: String?) {
        #expect(Authentication.bearerToken(header) == token)
    }
}
