import Testing

@testable import LibraryServer

/// What the access log takes for a token, wherever it is sent: the prefix and at least 8 URL-safe base64 characters.
@Suite("Values shaped like a token")
struct TokenShapeTests {
    @Test(
        arguments: [
            ("lc_3q2-7wEXAMPLE", true), ("Bearer lc_ABCDEFGH", true), ("xlc_abc_efgh", true), ("lc_ABCDEFG", false),
            ("lc_ and more", false), ("lc_ABC DEFGH", false), ("", false), ("lc_", false), ("screen", false),
            ("lc_lc_ABCDEFGH", true), ("ÿlc_ABCDEFGH", true),
        ])
    func shapes(text: String, holds: Bool) {
        #expect(Authentication.holdsToken(text) == holds, "\(text)")
    }
}
