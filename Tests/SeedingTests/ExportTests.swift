import Foundation
import Library
import Seeding
import Testing

@Suite("Exporting the catalog")
struct ExportTests {
    static let tricky = [
        NewBook(
            title: "Dune, Messiah", author: "Frank \"F\" Herbert", year: 1969, pages: 256,
            description: "Line one\nline \"two\"\r\nthree", isbn: "9780441172696"),
        NewBook(title: "Beowulf"),
        NewBook(title: "Beowulf", author: "", year: 1000, description: "inner  spaces, and a comma"),
        NewBook(title: "Ωμηρος – Οδύσσεια", author: "Όμηρος", year: -725, pages: 541, description: "tab\there"),
    ]

    @Test("CSV: the header, RFC 4180 quoting and empty unknowns")
    func csvText() throws {
        let library = try TestLibrary()
        _ = try library.store.importBooks(Self.tricky.prefix(2))
        try library.store.setStatus(.lost, bookID: 2)
        var output: [UInt8] = []
        let count = try CatalogExport.export(from: library.store, format: .csv) { output += $0 }
        #expect(count == 2)
        #expect(
            String(decoding: output, as: UTF8.self) == """
                title,author,year,pages,isbn,description,status
                "Dune, Messiah","Frank ""F"" Herbert",1969,256,9780441172696,"Line one
                line ""two""\r
                three",available
                Beowulf,,,,,,lost

                """)
    }

    @Test("JSON: an array of objects with the same keys, nulls for unknowns")
    func jsonText() throws {
        let library = try TestLibrary()
        var empty: [UInt8] = []
        try CatalogExport.export(from: library.store, format: .json) { empty += $0 }
        #expect(String(decoding: empty, as: UTF8.self) == "[]\n")
        _ = try library.store.importBooks(Self.tricky.prefix(2))
        var output: [UInt8] = []
        try CatalogExport.export(from: library.store, format: .json) { output += $0 }
        #expect(
            String(decoding: output, as: UTF8.self) == """
                [
                {"title":"Dune, Messiah","author":"Frank \\"F\\" Herbert","year":1969,"pages":256,"isbn":"9780441172696","description":"Line one\\nline \\"two\\"\\r\\nthree","status":"available"},
                {"title":"Beowulf","author":"","year":null,"pages":null,"isbn":null,"description":"","status":"available"}
                ]

                """)
    }

    @Test("export then import into an empty library gives the same catalog", arguments: ExportFormat.allCases)
    func roundTrip(format: ExportFormat) throws {
        let source = try TestLibrary()
        _ = try source.store.importBooks(Self.tricky)
        _ = try CatalogImport.generate(count: 2100, seed: 3, into: source.store)
        try source.store.setStatus(.lost, bookID: 2)
        try source.store.setStatus(.withdrawn, bookID: 2000)
        let path = source.file("catalog.\(format.rawValue)")
        #expect(try CatalogExport.export(from: source.store, format: format, toFile: path) == 2104)
        let target = try TestLibrary()
        let report = try CatalogImport.importFiles([path], into: target.store, now: target.now)
        #expect(report.books == ImportReport.Counts(inserted: 2104))
        #expect(try target.books() == source.books())
        #expect(try target.dump() == source.dump())
    }

    @Test("chunks are streamed: small chunks and buffers give the same bytes in several pieces")
    func chunked() throws {
        let library = try TestLibrary()
        _ = try CatalogImport.generate(count: 250, seed: 9, into: library.store)
        var whole: [UInt8] = []
        try CatalogExport.export(from: library.store, format: .csv) { whole += $0 }
        var pieces: [[UInt8]] = []
        try CatalogExport.export(from: library.store, format: .csv, chunkSize: 7, bufferSize: 1000) {
            pieces.append($0)
        }
        #expect(pieces.count > 5)
        #expect(pieces.flatMap { $0 } == whole)
        #expect(whole.split(separator: 0x0A).count == 251)
    }

    @Test("a file export replaces the target atomically and leaves no temporary file; a failure leaves the old one")
    func atomicFile() throws {
        let library = try TestLibrary()
        _ = try library.store.importBooks(Self.tricky)
        let path = try library.write("out.csv", "old contents")
        try CatalogExport.export(from: library.store, format: .csv, toFile: path)
        #expect(try String(contentsOfFile: path, encoding: .utf8).hasPrefix("title,author,year"))
        #expect(!(try FileManager.default.contentsOfDirectory(atPath: library.path)).contains { $0.contains(".tmp-") })
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        #expect((attributes[.posixPermissions] as? Int).map { $0 & 0o600 } == 0o600)

        let missingFolder = library.file("nope/out.csv")
        #expect(throws: OutputFileError.self) {
            try CatalogExport.export(from: library.store, format: .csv, toFile: missingFolder)
        }
        // A directory in the way: the rename fails, the temporary file is removed.
        try FileManager.default.createDirectory(atPath: library.file("dir.csv"), withIntermediateDirectories: false)
        try library.write("dir.csv/keep", "x")
        #expect(throws: OutputFileError.self) {
            try CatalogExport.export(from: library.store, format: .csv, toFile: library.file("dir.csv"))
        }
        #expect(!(try FileManager.default.contentsOfDirectory(atPath: library.path)).contains { $0.contains(".tmp-") })
    }
}
