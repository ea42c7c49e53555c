import Library
import Testing

@Suite("Secrets: libsodium's random bytes, SHA-256, constant-time comparison and Argon2id")
struct SecretsTests {
    @Test("the content hash: 16 bytes, the same for the same bytes, another for any change")
    func contentHash() {
        let screen = Array(#"{"version":1,"sections":[]}"#.utf8)
        #expect(Secrets.contentHash(screen).count == 16)
        #expect(Secrets.contentHash(screen) == Secrets.contentHash(screen))
        var hashes = Set<[UInt8]>([Secrets.contentHash(screen), Secrets.contentHash([])])
        for index in screen.indices {
            var changed = screen
            changed[index] ^= 1
            hashes.insert(Secrets.contentHash(changed))
        }
        #expect(hashes.count == screen.count + 2)
    }

    @Test func sha256OfKnownInputs() {
        let digest = Secrets.sha256(Array("abc".utf8))
        let hex = digest.map { byte -> String in
            let text = String(byte, radix: 16)
            return text.count == 1 ? "0" + text : text
        }
        #expect(hex.joined() == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(Secrets.sha256([]).count == 32)
    }

    @Test func randomBytesDiffer() {
        let a = Secrets.randomBytes(count: 32)
        let b = Secrets.randomBytes(count: 32)
        #expect(a.count == 32 && b.count == 32)
        #expect(a != b)
        #expect(Secrets.randomBytes(count: 0).isEmpty)
    }

    @Test func constantTimeEquality() {
        #expect(Secrets.equalInConstantTime([1, 2, 3], [1, 2, 3]))
        #expect(!Secrets.equalInConstantTime([1, 2, 3], [1, 2, 4]))
        #expect(!Secrets.equalInConstantTime([1, 2, 3], [1, 2]))
        #expect(Secrets.equalInConstantTime([], []))
    }

    @Test func base64URLIsURLSafeWithoutPadding() {
        #expect(Secrets.base64URL([0xFB, 0xFF]) == "-_8")
        #expect(Secrets.base64URL(Array("hello".utf8)) == "aGVsbG8")
    }

    @Test func argon2idHashesAreSaltedAndVerify() throws {
        let first = try Secrets.passwordHash("1234")
        let second = try Secrets.passwordHash("1234")
        #expect(first.hasPrefix("$argon2id$"))
        #expect(first != second)  // a random salt each time
        #expect(!first.contains("1234$") && !first.hasSuffix("1234"))
        #expect(Secrets.verifyPassword("1234", against: first))
        #expect(Secrets.verifyPassword("1234", against: second))
        #expect(!Secrets.verifyPassword("1235", against: first))
        #expect(!Secrets.verifyPassword("1234", against: "not a hash"))
    }

    @Test func pinPolicy() throws {
        for good in ["0000", "1234", "123456789012"] {
            #expect(AccessRules.pinProblem(good) == nil, "\(good)")
        }
        for bad in ["", "123", "1234567890123", "12a4", " 1234", "１２３４", "12 34", "-123"] {
            #expect(AccessRules.pinProblem(bad) != nil, "\(bad)")
            #expect(throws: AuthError.pinNotAllowed) { try PINHash(pin: bad) }
        }
        #expect(AccessRules.pinProblem("12x")?.contains("12x") == false)  // never repeats it
        let hash = try PINHash(pin: "4821")
        #expect(hash.matches("4821"))
        #expect(!hash.matches("4822"))
    }
}
