import Foundation
import Library
import SQLite
import Testing

@Suite("tokens create/list/revoke and clients pin")
struct AccessCommandTests {
    @Test("tokens create prints the token once, alone on standard output; the advice goes to standard error")
    func createPrintsTheTokenOnce() throws {
        let sandbox = Sandbox()
        sandbox.makeSmallLibrary()
        let result = sandbox.run(["tokens", "create", "--client", "1", "--label", "Ann's phone"])
        #expect(result.code == 0, "\(result.err)")
        let token = String(result.out.dropLast())
        #expect(result.out == token + "\n")
        #expect(AccessRules.looksLikeToken(token))
        #expect(result.err.contains("shown only once"))
        #expect(!result.err.contains(token))
        let store = try LibraryStore.open(at: sandbox.database, now: Timestamp(year: 2026, month: 11, day: 29)!)
        #expect(
            try store.authenticate(token: token, now: Timestamp(year: 2026, month: 11, day: 29)!)?.owner == .client(1))
        // Not kept anywhere in the database.
        #expect(!(try sandbox.dump()).contains { $0.contains(token.dropFirst(3)) })

        let quiet = sandbox.run(["tokens", "create", "--librarian", "-q"])
        #expect(quiet.code == 0 && quiet.err.isEmpty)
        #expect(AccessRules.looksLikeToken(String(quiet.out.dropLast())))
        #expect(quiet.out != result.out)

        let json = sandbox.run(["--json", "tokens", "create", "--librarian", "--label", "desk"])
        let object = try parseJSON(json.out)
        let created = try #require(object["token"] as? [String: Any])
        #expect(AccessRules.looksLikeToken(created["token"] as? String ?? ""))
        #expect(created["role"] as? String == "librarian" && created["label"] as? String == "desk")
        #expect(json.out.components(separatedBy: "lc_").count == 2)  // the token once
    }

    @Test("tokens create's usage names --client or --librarian; giving neither or both is a usage error with it")
    func createUsage() throws {
        let sandbox = Sandbox()
        sandbox.makeSmallLibrary()
        let usage =
            "Usage: librarycli tokens create (--client <id> | --librarian) [--label <text>]\n"
            + "  See 'librarycli tokens create --help' for more information.\n"
        let none = sandbox.run(["tokens", "create", "--label", "x"])
        #expect(none.code == 64)
        #expect(none.err == "Error: Missing one of '--client <id>' or '--librarian'.\n" + usage)
        for arguments in [
            ["tokens", "create", "--client", "1", "--librarian"], ["--client", "1", "tokens", "create", "--librarian"],
        ] {
            let both = sandbox.run(arguments)
            #expect(both.code == 64)
            #expect(
                both.err == "Error: The options '--client <id>' and '--librarian' cannot be used together.\n" + usage)
        }
        let help = sandbox.run(["--width", "100", "tokens", "create", "--help"])
        #expect(help.out.contains("USAGE: librarycli tokens create (--client <id> | --librarian) [--label <text>]"))
        #expect(help.out.contains("--client <id>           The client whose token it is"))
        // --client before the command still gives the token's client.
        let token = sandbox.run(["--json", "--client", "2", "tokens", "create"])
        #expect(token.code == 0 && token.out.contains("\"clientId\": 2"), "\(token.out)")
    }

    @Test("tokens create needs exactly one owner, an existing client and a clean label")
    func createRefusesBadInput() throws {
        let sandbox = Sandbox()
        sandbox.makeSmallLibrary()
        let before = try sandbox.dump()
        for (arguments, code) in [
            (["tokens", "create"], Int32(64)), (["tokens", "create", "--client", "1", "--librarian"], 64),
            (["tokens", "create", "--client", "9"], 1), (["tokens", "create", "--client", "x"], 64),
            (["tokens", "create", "--librarian", "--label", "a\u{1B}[2J"], 64),
            (["tokens", "create", "--librarian", "--label", String(repeating: "l", count: 201)], 64),
        ] {
            let result = sandbox.run(arguments)
            #expect(result.code == code, "\(arguments): \(result.err)")
            #expect(result.out.isEmpty, "\(arguments)")
            #expect(result.err.hasPrefix("Error") || result.err.contains("error"), "\(arguments): \(result.err)")
        }
        #expect(try sandbox.dump() == before)
    }

    @Test("tokens list shows ids, roles, labels and last use, never the token, as text and JSON")
    func listNeverShowsTheToken() throws {
        let sandbox = Sandbox()
        sandbox.makeSmallLibrary()
        #expect(sandbox.run(["tokens"]).out.contains("No tokens yet"))
        let first = String(
            sandbox.run(["tokens", "create", "--client", "2", "--label", "Jane's tablet"]).out.dropLast())
        let second = String(sandbox.run(["tokens", "create", "--librarian"]).out.dropLast())
        #expect(sandbox.run(["tokens", "revoke", "2"]).code == 0)
        let text = sandbox.run(["--width", "100", "tokens", "list"])
        #expect(text.code == 0)
        #expect(text.out.contains("Jane's tablet") && text.out.contains("librarian") && text.out.contains("never"))
        let json = sandbox.run(["tokens", "list", "--json"])
        for output in [text.out, json.out, text.err, json.err] {
            #expect(!output.contains(first) && !output.contains(second) && !output.contains("lc_"))
        }
        let tokens = try #require(try parseJSON(json.out)["tokens"] as? [[String: Any]])
        #expect(tokens.map { $0["id"] as? Int } == [1, 2])
        #expect(tokens[0]["clientId"] as? Int == 2 && tokens[0]["role"] as? String == "client")
        #expect(tokens[0]["revokedAt"] is NSNull && tokens[1]["revokedAt"] as? String == sandbox.now)
        #expect(tokens[0]["lastUsedAt"] is NSNull)
    }

    @Test("tokens revoke: revoked tokens stop working; again is a note; an unknown id is refused")
    func revoke() throws {
        let sandbox = Sandbox()
        sandbox.makeSmallLibrary()
        let token = String(sandbox.run(["tokens", "create", "--client", "1"]).out.dropLast())
        let result = sandbox.run(["tokens", "revoke", "1"])
        #expect(result.code == 0 && result.out == "Revoked token #1.\n")
        let store = try LibraryStore.open(at: sandbox.database, now: Timestamp(year: 2026, month: 11, day: 29)!)
        #expect(try store.authenticate(token: token, now: Timestamp(year: 2026, month: 11, day: 29)!) == nil)
        #expect(sandbox.run(["tokens", "revoke", "1"]).out == "Token #1 was already revoked.\n")
        let unknown = sandbox.run(["tokens", "revoke", "7"])
        #expect(unknown.code == 1 && unknown.err == "Error: There is no token #7.\n")
        #expect(sandbox.run(["tokens", "revoke", "0"]).code == 64)
    }

    @Test("clients pin reads the PIN from standard input and stores only its hash")
    func pinFromStandardInput() throws {
        let sandbox = Sandbox()
        sandbox.makeSmallLibrary()
        let result = sandbox.run(["clients", "pin", "1"], input: "482193\n")
        #expect(result.code == 0, "\(result.err)")
        #expect(result.out == "Set the PIN of client #1 John Doe (card C-0001).\n")
        #expect(!(try sandbox.dump()).contains { $0.contains("482193") })
        let store = try LibraryStore.open(at: sandbox.database, now: Timestamp(year: 2026, month: 11, day: 29)!)
        let now = Timestamp(year: 2026, month: 11, day: 29)!
        #expect(try store.signIn(cardNumber: "C-0001", pin: "482193", now: now).clientID == 1)
        // CR LF works too.
        #expect(sandbox.run(["clients", "pin", "2"], input: "1234\r\n").code == 0)
        #expect(try store.signIn(cardNumber: "C-0002", pin: "1234", now: now).clientID == 2)

        let cleared = sandbox.run(["clients", "pin", "1", "--clear"])
        #expect(cleared.out == "Cleared the PIN of client #1 John Doe (card C-0001).\n")
        #expect(
            sandbox.run(["clients", "pin", "1", "--clear"]).out == "Client #1 John Doe (card C-0001) had no PIN.\n")
        #expect(try !store.hasPIN(clientID: 1))
    }

    @Test("clients pin refuses a missing or bad PIN, an unknown client, and a PIN on the command line")
    func pinRefusals() throws {
        let sandbox = Sandbox()
        sandbox.makeSmallLibrary()
        let before = try sandbox.dump()
        for (arguments, input, code) in [
            (["clients", "pin", "1"], "", Int32(64)), (["clients", "pin", "1"], "\n", 64),
            (["clients", "pin", "1"], "12\n", 64), (["clients", "pin", "1"], "12ab\n", 64),
            (["clients", "pin", "1"], String(repeating: "1", count: 5_000) + "\n", 64),
            (["clients", "pin", "9"], "1234\n", 1), (["clients", "pin", "1", "1234"], "", 64),
        ] {
            let result = sandbox.run(arguments, input: input)
            #expect(result.code == code, "\(arguments) \(input.prefix(8)): \(result.err)")
            #expect(result.out.isEmpty)
            #expect(!result.err.contains("12ab") && !result.err.contains("1111111"))
        }
        #expect(try sandbox.dump() == before)
    }

    @Test("at a terminal, clients pin asks twice and refuses two different PINs")
    func pinAtATerminal() throws {
        let sandbox = Sandbox()
        sandbox.makeSmallLibrary()
        let differ = sandbox.run(["clients", "pin", "1"], terminal: true, input: "1234\n1243\n")
        #expect(differ.code == 64)
        #expect(differ.err.contains("New PIN for John Doe") && differ.err.contains("The two PINs differ"))
        #expect(!differ.err.contains("1234") && !differ.err.contains("1243"))
        let same = sandbox.run(["clients", "pin", "1"], terminal: true, input: "1234\n1234\n")
        #expect(same.code == 0, "\(same.err)")
        #expect(same.err.contains("Type it again"))
    }

    @Test("the first use of the default database gives the demo clients their demo PINs")
    func demoPINsOnFirstUse() throws {
        let sandbox = Sandbox()
        let result = sandbox.run(["clients"], useDatabase: false)
        #expect(result.code == 0, "\(result.err)")
        let path = sandbox.directory + "/.local/share/librarycli/library.sqlite"
        let store = try LibraryStore.open(at: path, now: Timestamp(year: 2026, month: 11, day: 29)!)
        let session = try store.signIn(
            cardNumber: "C-0003", pin: "3333", now: Timestamp(year: 2026, month: 11, day: 29)!)
        #expect(try store.client(id: session.clientID)?.name == "Lucía García")
    }
}
