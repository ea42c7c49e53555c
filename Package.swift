// swift-tools-version:6.0
// librarycli: a headless library-app backend. One module per layer; dependencies point one way:
//   CSQLite <- SQLite <- Library <- Seeding (also uses Formats: CSV and JSON readers)
//   CLibPQ <- PostgreSQL <- Library (the second store: the same library on a PostgreSQL server)
//   CUTF8Proc, CSodium <- Library (search folding; tokens and PIN hashes); CUTF8Proc <- Rendering (widths)
//   ArgumentParsing (a small command-line parser; knows no books)
//   Sections <- Rendering (also uses Formats to write JSON)
//   Library + Sections <- LibraryScreen
//   CMicroHTTPD <- HTTP (also uses Formats for JSON bodies; knows no books)
//   HTTP + Library + LibraryScreen + Rendering <- LibraryServer (the HTTP API: handlers call the domain)
//   everything <- LibraryCLI <- librarycli
import PackageDescription

let package = Package(
    name: "librarycli",
    products: [
        .executable(name: "librarycli", targets: ["librarycli"]),
        .library(name: "SQLite", targets: ["SQLite"]),
        .library(name: "PostgreSQL", targets: ["PostgreSQL"]),
        .library(name: "Library", targets: ["Library"]),
        .library(name: "Formats", targets: ["Formats"]),
        .library(name: "ArgumentParsing", targets: ["ArgumentParsing"]),
        .library(name: "Sections", targets: ["Sections"]),
        .library(name: "Rendering", targets: ["Rendering"]),
        .library(name: "LibraryScreen", targets: ["LibraryScreen"]),
        .library(name: "HTTP", targets: ["HTTP"]),
        .library(name: "LibraryServer", targets: ["LibraryServer"]),
    ],
    targets: [
        // The system's libsqlite3 (Debian: libsqlite3-dev). The three libraries linked (sqlite3, utf8proc, sodium)
        // are in the compiler's default paths and take no pkg-config: its -L/usr/lib/x86_64-linux-gnu would come
        // before the librarycli executable's own -L (see Sources/librarycli/StaticLibraries/README.md).
        .systemLibrary(
            name: "CSQLite",
            providers: [.apt(["libsqlite3-dev"])]
        ),
        // The system's libpq (Debian: libpq-dev): PostgreSQL's client library, loaded when the first PostgreSQL
        // connection is made (see the shim), so it is not linked: no pkg-config, which would add -lpq.
        .systemLibrary(
            name: "CLibPQ",
            providers: [.apt(["libpq-dev"])]
        ),
        // The system's utf8proc (Debian: libutf8proc-dev): Unicode folding for search.
        .systemLibrary(
            name: "CUTF8Proc",
            providers: [.apt(["libutf8proc-dev"])]
        ),
        // The system's libsodium (Debian: libsodium-dev): random tokens, SHA-256 and Argon2id PIN hashes.
        .systemLibrary(
            name: "CSodium",
            providers: [.apt(["libsodium-dev"])]
        ),
        // The system's libmicrohttpd (Debian: libmicrohttpd-dev), loaded when a server starts (see the shim), so it
        // is not linked: no pkg-config, which would add -lmicrohttpd.
        .systemLibrary(
            name: "CMicroHTTPD",
            providers: [.apt(["libmicrohttpd-dev"])]
        ),
        // Build-time tool and plugin that embed migrations/, seed/ and web/ into the binary.
        .executableTarget(name: "EmbedTool", dependencies: ["SQLite"]),
        .plugin(name: "EmbedFiles", capability: .buildTool(), dependencies: ["EmbedTool"]),

        .target(name: "SQLite", dependencies: ["CSQLite"]),
        .target(name: "PostgreSQL", dependencies: ["CLibPQ", "Formats"]),
        .target(
            name: "Library", dependencies: ["SQLite", "PostgreSQL", "Formats", "CUTF8Proc", "CSodium"],
            plugins: ["EmbedFiles"]),
        .target(name: "Seeding", dependencies: ["Library", "Formats"], plugins: ["EmbedFiles"]),
        .target(name: "Formats"),
        .target(name: "ArgumentParsing"),
        .target(name: "Sections"),
        .target(name: "Rendering", dependencies: ["Sections", "Formats", "CUTF8Proc"]),
        .target(name: "LibraryScreen", dependencies: ["Library", "Sections", "Formats"]),
        .target(name: "HTTP", dependencies: ["CMicroHTTPD", "Formats"]),
        .target(
            name: "LibraryServer",
            dependencies: [
                "HTTP", "SQLite", "PostgreSQL", "Library", "LibraryScreen", "Rendering", "Sections", "Formats",
            ],
            plugins: ["EmbedFiles"]
        ),
        .target(
            name: "LibraryCLI",
            dependencies: [
                "ArgumentParsing", "SQLite", "PostgreSQL", "Library", "Formats", "Seeding", "Sections", "Rendering",
                "LibraryScreen",
                "HTTP", "LibraryServer",
            ]
        ),
        .executableTarget(
            name: "librarycli", dependencies: ["LibraryCLI"],
            exclude: ["StaticLibraries"],
            // The Swift runtime, libstdc++, libsqlite3, libsodium and libutf8proc linked in: the dynamic loader
            // relocating them was a third of a short command's time. `StaticLibraries` holds linker scripts that
            // turn `-lsqlite3` and the others into their static archives (its README says how).
            linkerSettings: [
                .unsafeFlags(["-static-stdlib", "-L", Context.packageDirectory + "/Sources/librarycli/StaticLibraries"])
            ]
        ),
        // Benchmarks (not part of `swift test`): `swift run -c release librarybench [scenario] [--n N]`.
        .executableTarget(
            name: "librarybench",
            dependencies: ["CSQLite", "CLibPQ", "SQLite", "Library", "Seeding", "Sections", "LibraryScreen"],
            path: "Benchmarks/librarybench",
            // The raw libpq baseline calls libpq's C API directly, so the benchmark links it (librarycli loads it
            // on demand through the PostgreSQL module instead).
            linkerSettings: [.linkedLibrary("pq")]
        ),
        // The helpers of Benchmarks/serve.sh: the constant libmicrohttpd server (the floor) and an event-stream holder.
        .executableTarget(name: "servebench", dependencies: ["CMicroHTTPD"], path: "Benchmarks/servebench"),

        .testTarget(name: "SQLiteTests", dependencies: ["SQLite", "StoreTestSupport"]),
        .testTarget(name: "PostgreSQLTests", dependencies: ["PostgreSQL"]),
        // What the store tests of LibraryTests and SeedingTests share: StoreKind (SQLite, and PostgreSQL when
        // LIBRARY_TEST_POSTGRES names a database) and a fresh PostgreSQL database per test.
        .target(
            name: "StoreTestSupport", dependencies: ["Library", "SQLite", "PostgreSQL"], path: "Tests/StoreTestSupport"),
        .testTarget(name: "LibraryTests", dependencies: ["Library", "SQLite", "PostgreSQL", "StoreTestSupport"]),
        .testTarget(name: "SeedingTests", dependencies: ["Seeding", "Library", "SQLite", "StoreTestSupport"]),
        .testTarget(name: "FormatsTests", dependencies: ["Formats"]),
        .testTarget(name: "ArgumentParsingTests", dependencies: ["ArgumentParsing"]),
        .testTarget(name: "SectionsTests", dependencies: ["Sections", "Rendering", "Formats"]),
        .testTarget(name: "RenderingTests", dependencies: ["Rendering", "Sections", "Formats"], exclude: ["Golden"]),
        .testTarget(
            name: "LibraryScreenTests", dependencies: ["LibraryScreen", "Library", "Sections", "StoreTestSupport"]),
        .testTarget(
            name: "LibraryCLITests",
            dependencies: ["LibraryCLI", "Library", "SQLite", "PostgreSQL", "StoreTestSupport", "Rendering"],
            exclude: ["Golden"]),
        .testTarget(name: "ReliabilityTests", dependencies: ["Library", "SQLite"]),
        // The small HTTP/1.1 client the tests of HTTP and LibraryServer speak to their servers with.
        .target(name: "HTTPTestSupport", path: "Tests/HTTPTestSupport"),
        .testTarget(name: "HTTPTests", dependencies: ["HTTP", "Formats", "HTTPTestSupport"]),
        .testTarget(
            name: "LibraryServerTests",
            dependencies: [
                "LibraryServer", "HTTP", "Library", "SQLite", "PostgreSQL", "Formats", "Seeding", "StoreTestSupport",
                "LibraryScreen", "Rendering", "Sections", "HTTPTestSupport",
            ]
        ),
    ]
)
