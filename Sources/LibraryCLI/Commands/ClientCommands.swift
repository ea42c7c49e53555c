import Formats
import Library
import Rendering

/// `clients`, `clients add` and `clients use`.
enum ClientCommands {
    static func list(_ context: CommandContext) throws -> ExitCode {
        let store = try context.openStore(.reads)
        let (clients, defaultID) = try context.withDatabase {
            try store.read { store in (try store.allClients(), try store.defaultClientID()) }
        }
        switch context.options.format {
        case .json:
            let document: JSONValue = [
                "version": 1, "defaultClientId": defaultID.map { .int($0) } ?? .null,
                // Each client says whether it is the default too, so the list seeds back as it is (`isDefault`).
                "clients": .array(
                    clients.map { client in clientJSON(client, isDefault: client.id == defaultID) }),
            ]
            context.console.out(document.serialized(pretty: true) + "\n")
        case .text:
            guard !clients.isEmpty else {
                context.say("No clients yet. Add one with: \(context.program) clients add \"Your Name\"")
                return .success
            }
            var table = TextTable(columns: [
                .init("ID", alignRight: true), .init("Name", .text), .init("Card"), .init("Limit", alignRight: true),
                .init("Default"),
            ])
            for client in clients {
                table.append([
                    String(client.id), client.name, client.cardNumber, String(client.loanLimit),
                    client.id == defaultID ? "yes" : "",
                ])
            }
            context.console.out(table.render(width: context.options.width))
        }
        return .success
    }

    static func add(_ context: CommandContext) throws -> ExitCode {
        let parsed = context.parsed
        let name = try CommandText.checked(parsed.argument("name") ?? "", .name)
        let card = try parsed.string("card").map { try CommandText.checked($0, .cardNumber) }
        let limit = try parsed.integer("limit", in: LibraryRules.loanLimits) ?? LibraryRules.defaultLoanLimit
        let now = try context.now
        let store = try context.openStore(.writes)
        try context.writeReported(store) { store in
            let client = try store.addClient(name: name, cardNumber: card, loanLimit: limit, now: now)
            // The first client of a library becomes its default, so `list` works straight away.
            if try store.defaultClientID() == nil { try store.setDefaultClient(id: client.id) }
            switch context.options.format {
            case .json:
                context.console.out(
                    JSONValue.object(members: [("version", 1), ("client", clientJSON(client))]).serialized() + "\n")
            case .text:
                context.say(
                    "Added client #\(client.id) \(client.name) (card \(client.cardNumber), limit \(client.loanLimit)).")
            }
        }
        return .success
    }

    static func use(_ context: CommandContext) throws -> ExitCode {
        guard let id = try context.parsed.positiveInteger(argument: "client-id") else {
            throw InternalError("clients use ran without its required <client-id>")
        }
        let store = try context.openStore(.writes)
        try context.writeReported(store) { store in
            guard let client = try store.client(id: id) else { throw LibraryError.noSuchClient(id: id) }
            try store.setDefaultClient(id: id)
            switch context.options.format {
            case .json:
                context.console.out(
                    JSONValue.object(members: [("version", 1), ("defaultClient", clientJSON(client))]).serialized()
                        + "\n")
            case .text:
                context.say("Client #\(client.id) \(client.name) is now the default client.")
            }
        }
        return .success
    }

    /// A client as `--json` writes it; `isDefault` when the command knows (`clients` lists it on each).
    static func clientJSON(_ client: Client, isDefault: Bool? = nil) -> JSONValue {
        var members: [(key: String, value: JSONValue)] = [
            ("id", .int(client.id)), ("name", .string(client.name)), ("cardNumber", .string(client.cardNumber)),
            ("loanLimit", .int(client.loanLimit)),
        ]
        if let isDefault { members.append(("isDefault", .bool(isDefault))) }
        members.append(("createdAt", .string(client.createdAt.iso8601)))
        return .object(members: members)
    }
}
