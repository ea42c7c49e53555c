import Foundation
import PackagePlugin

/// Embeds the package's data folders into the module that owns them, at build time, so the program
/// runs from any directory: `migrations/sqlite/*.sql` and `migrations/postgresql/*.sql` into `Library` (as
/// `EmbeddedMigrations` and `EmbeddedPostgreSQLMigrations`), the demo
/// catalog `seed/*.{csv,json,jsonl}` into `Seeding` (as `EmbeddedSeed`) and the web front
/// `web/*.{html,css,js,svg}` into `LibraryServer` (as `EmbeddedWeb`). The folders stay the single
/// source of truth; tests compare what was embedded with them.
@main
struct EmbedFiles: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) async throws -> [Command] {
        let embeds: [(folder: String, typeName: String, extensions: Set<String>)]
        switch target.name {
        case "Library":
            embeds = [
                ("migrations/sqlite", "EmbeddedMigrations", ["sql"]),
                ("migrations/postgresql", "EmbeddedPostgreSQLMigrations", ["sql"]),
            ]
        case "Seeding":
            embeds = [("seed", "EmbeddedSeed", ["csv", "json", "jsonl"])]
        case "LibraryServer":
            embeds = [("web", "EmbeddedWeb", ["html", "css", "js", "svg"])]
        default:
            return []
        }
        return try embeds.map { folder, typeName, extensions in
            let directory = context.package.directoryURL.appending(path: folder)
            let names = try FileManager.default.contentsOfDirectory(atPath: directory.path())
                .filter { extensions.contains(($0 as NSString).pathExtension.lowercased()) }
                .sorted()
            let inputs = names.map { directory.appending(path: $0) }
            let output = context.pluginWorkDirectoryURL.appending(path: "\(typeName).swift")
            return .buildCommand(
                displayName: "Embedding \(folder)/ into \(target.name)",
                executable: try context.tool(named: "EmbedTool").url,
                arguments: [typeName, output.path()] + inputs.map { $0.path() },
                inputFiles: inputs,
                outputFiles: [output]
            )
        }
    }
}
