import ArgumentParsing
import Formats
import Library
import LibraryScreen
import Rendering
import Sections

/// `librarycli list`: the client's screen, page by page or searched.
enum ListCommand {
    static let defaultPerPage = LibraryScreen.defaultPerPage

    static func run(_ context: CommandContext) throws -> ExitCode {
        let range = try catalogRange(context)
        let search = try SearchOption.value(of: context.parsed)
        let now = try context.now
        let (store, client) = try context.openStoreAsClient(.reads)
        if range == .all { _ = try context.countForAll(in: store, search: search) }
        let screen = try context.withDatabase {
            try LibraryScreen.load(from: store, clientID: client.id, range: range, search: search, now: now)
        }
        let snapshot = LibraryScreen.snapshot(from: screen, showsAll: range == .all, program: context.clientProgram)
        ScreenOutput.print(snapshot, context: context)
        return .success
    }

    /// `--page`, `--per-page` and `--all`, checked together.
    static func catalogRange(_ context: CommandContext) throws -> CatalogRange {
        let parsed = context.parsed
        let page = try parsed.integer("page", in: 1...1_000_000_000)
        let perPage = try parsed.integer("per-page", in: 1...LibraryStore.maxPerPage)
        if parsed.flag("all") {
            if page != nil || perPage != nil {
                let other = page != nil ? "--page" : "--per-page"
                throw UsageError(.conflictingOptions("--all", other), commandPath: parsed.path)
            }
            return .all
        }
        return .page(page ?? 1, perPage: perPage ?? defaultPerPage)
    }
}

/// Prints a screen as text or JSON, with what changed marked and extra JSON members.
enum ScreenOutput {
    static func print(
        _ snapshot: Snapshot, context: CommandContext, changes: Changeset? = nil,
        extra: [(key: String, value: JSONValue)] = []
    ) {
        switch context.options.format {
        case .text:
            let renderer = TextRenderer(width: context.options.width, color: context.options.useColor)
            context.console.out(renderer.render(snapshot, marks: changes.map(ChangeMarks.init) ?? .none))
        case .json:
            var members = extra
            if let changes { members.insert((key: "changes", value: JSONRenderer.changes(changes)), at: 0) }
            context.console.out(JSONRenderer(pretty: true).render(snapshot, extra: members) + "\n")
        }
    }
}
