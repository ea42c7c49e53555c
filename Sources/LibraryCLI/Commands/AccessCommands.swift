import ArgumentParsing
import Formats
import Library

/// `tokens create`, `tokens list`, `tokens revoke` and `clients pin`: who may use the library from an app front.
enum AccessCommands {
    // MARK: - Tokens

    static func createToken(_ context: CommandContext) throws -> ExitCode {
        let parsed = context.parsed
        let label = try CommandText.checked(parsed.string("label") ?? "", .tokenLabel)
        let owner: TokenOwner
        switch (context.options.clientID, parsed.flag("librarian")) {
        case (let id?, false): owner = .client(id)
        case (nil, true): owner = .librarian
        case (_?, true), (nil, false):
            // The parser gives exactly one of them (`oneOf` in the command's spec).
            throw InternalError("tokens create ran without exactly one of --client and --librarian")
        }
        let now = try context.now
        let store = try context.openStore(.writes)
        // The token alone on standard output, once, written before the commit: a token that could not be shown
        // (a full disk, or a reader gone) is never created. The advice goes to standard error after the commit.
        let (issued, client) = try context.writeReported(
            store, ifOutputFails: "no token was created.", closedPipeFails: true
        ) { store -> (IssuedToken, Client?) in
            let client = try owner.clientID.map { id in
                guard let client = try store.client(id: id) else { throw LibraryError.noSuchClient(id: id) }
                return client
            }
            let issued = try store.createToken(for: owner, label: label, now: now)
            switch context.options.format {
            case .json:
                context.console.out(
                    JSONValue.object(members: [
                        ("version", 1),
                        (
                            "token",
                            .object(members: [
                                ("id", .int(issued.id)), ("token", .string(issued.token)),
                                ("role", .string(owner.role)), ("clientId", owner.clientID.map { .int($0) } ?? .null),
                                ("label", .string(label)),
                            ])
                        ),
                    ]).serialized() + "\n")
            case .text:
                context.console.out(issued.token + "\n")
            }
            return (issued, client)
        }
        let whose = client.map { "client #\($0.id) \($0.name)" } ?? "a librarian"
        context.note(
            "Created token #\(issued.id) for \(whose). Keep it secret: it is shown only once, and only its hash is "
                + "kept. Revoke it with: \(context.program) tokens revoke \(issued.id)")
        return .success
    }

    static func listTokens(_ context: CommandContext) throws -> ExitCode {
        let store = try context.openStore(.reads)
        let tokens = try context.withDatabase { try store.tokens() }
        switch context.options.format {
        case .json:
            let document: JSONValue = ["version": 1, "tokens": .array(tokens.map(tokenJSON))]
            context.console.out(document.serialized(pretty: true) + "\n")
        case .text:
            guard !tokens.isEmpty else {
                context.say("No tokens yet. Create one with: \(context.program) tokens create --client ID")
                return .success
            }
            var table = TextTable(columns: [
                .init("ID", alignRight: true), .init("Role"), .init("Client", alignRight: true), .init("Label", .text),
                .init("Created"), .init("Last used"), .init("Revoked"),
            ])
            for token in tokens {
                table.append([
                    String(token.id), token.owner.role, token.owner.clientID.map(String.init) ?? "", token.label,
                    token.createdAt.minute, token.lastUsedAt?.minute ?? "never", token.revokedAt?.minute ?? "",
                ])
            }
            context.console.out(table.render(width: context.options.width))
        }
        return .success
    }

    static func revokeToken(_ context: CommandContext) throws -> ExitCode {
        guard let id = try context.parsed.positiveInteger(argument: "token-id") else {
            throw InternalError("tokens revoke ran without its required <token-id>")
        }
        let now = try context.now
        let store = try context.openStore(.writes)
        try context.writeReported(store) { store in
            let revoked = try store.revokeToken(id: id, now: now)
            switch context.options.format {
            case .json:
                context.console.out(
                    JSONValue.object(members: [("version", 1), ("id", .int(id)), ("revoked", .bool(revoked))])
                        .serialized() + "\n")
            case .text:
                context.say(revoked ? "Revoked token #\(id)." : "Token #\(id) was already revoked.")
            }
        }
        return .success
    }

    static func tokenJSON(_ token: TokenInfo) -> JSONValue {
        .object(members: [
            ("id", .int(token.id)), ("role", .string(token.owner.role)),
            ("clientId", token.owner.clientID.map { .int($0) } ?? .null), ("label", .string(token.label)),
            ("createdAt", .string(token.createdAt.iso8601)),
            ("lastUsedAt", token.lastUsedAt.map { .string($0.iso8601) } ?? .null),
            ("revokedAt", token.revokedAt.map { .string($0.iso8601) } ?? .null),
        ])
    }

    // MARK: - PINs

    static func pin(_ context: CommandContext) throws -> ExitCode {
        guard let id = try context.parsed.positiveInteger(argument: "client-id") else {
            throw InternalError("clients pin ran without its required <client-id>")
        }
        let clear = context.parsed.flag("clear")
        let now = clear ? nil : try context.now  // clearing records no time
        let store = try context.openStore(.writes)
        guard let client = try context.withDatabase({ try store.client(id: id) }) else {
            throw LibraryError.noSuchClient(id: id)
        }
        // Hashed before the write transaction: Argon2id takes about 0.1 s.
        let hash: PINHash? = try clear ? nil : PINHash(pin: readPIN(for: client, context))
        try context.writeReported(store) { store in
            let changed: Bool
            if let hash {
                try store.setPIN(clientID: id, hash: hash, now: now ?? context.systemNow)
                changed = true
            } else {
                changed = try store.clearPIN(clientID: id)
            }
            switch context.options.format {
            case .json:
                context.console.out(
                    JSONValue.object(members: [
                        ("version", 1), ("client", ClientCommands.clientJSON(client)), ("hasPin", .bool(!clear)),
                    ]).serialized() + "\n")
            case .text:
                let who = "client #\(client.id) \(client.name) (card \(client.cardNumber))"
                if !clear {
                    context.say("Set the PIN of \(who).")
                } else {
                    context.say(changed ? "Cleared the PIN of \(who)." : "C" + who.dropFirst() + " had no PIN.")
                }
            }
        }
        return .success
    }

    /// The PIN from standard input: its first line; at a terminal, asked twice without echo.
    private static func readPIN(for client: Client, _ context: CommandContext) throws -> String {
        let console = context.console
        guard console.isInputTerminal else {
            guard let pin = console.readLine(maxLength: 64), !pin.isEmpty else {
                throw Failure(
                    message: "No PIN on standard input; nothing was changed. For example: "
                        + "printf '%s\\n' \"$PIN\" | \(context.program) clients pin \(client.id)",
                    code: .usage)
            }
            return pin
        }
        console.err(CommandText.line("New PIN for \(client.name) (card \(client.cardNumber)): "))
        guard let pin = console.readLine(hidden: true, maxLength: 64), !pin.isEmpty else {
            throw Failure(message: "No PIN was typed; nothing was changed.", code: .usage)
        }
        if let problem = AccessRules.pinProblem(pin) { throw Failure(message: problem, code: .usage) }
        console.err("Type it again: ")
        guard console.readLine(hidden: true, maxLength: 64) == pin else {
            throw Failure(message: "The two PINs differ; nothing was changed.", code: .usage)
        }
        return pin
    }
}
