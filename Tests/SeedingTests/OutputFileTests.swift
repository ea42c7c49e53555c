import Foundation
import Glibc
import Library
import Seeding
import Testing

/// What `export --output PATH` does with whatever is at PATH (issue 10, item 1).
@Suite("Exporting to a file: links, special files, modes and owners")
struct OutputFileTests {
    static func library() throws -> TestLibrary {
        let library = try TestLibrary()
        _ = try library.store.importBooks(ExportTests.tricky)
        return library
    }

    static func kind(_ path: String, followingLinks: Bool = false) -> mode_t? {
        var info = stat()
        let result = followingLinks ? stat(path, &info) : lstat(path, &info)
        return result == 0 ? info.st_mode & S_IFMT : nil
    }

    static func mode(_ path: String) -> mode_t {
        var info = stat()
        return stat(path, &info) == 0 ? info.st_mode & 0o7777 : 0
    }

    static func temporaryFiles(_ library: TestLibrary) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: library.path).filter { $0.contains(".tmp-") }
    }

    @Test("a symbolic link is written through: the target gets the catalog, the link stays a link")
    func symlink() throws {
        let library = try Self.library()
        let target = try library.write("target.csv", "old")
        let link = library.file("link.csv")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "target.csv")
        #expect(try CatalogExport.export(from: library.store, format: .csv, toFile: link) == 4)
        #expect(Self.kind(link) == S_IFLNK)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == "target.csv")
        #expect(try String(contentsOfFile: target, encoding: .utf8).hasPrefix("title,author,year"))
        #expect(try Self.temporaryFiles(library).isEmpty)
    }

    @Test("a link to a missing file creates the file it names, through a chain of links")
    func danglingLink() throws {
        let library = try Self.library()
        try FileManager.default.createDirectory(atPath: library.file("sub"), withIntermediateDirectories: false)
        try FileManager.default.createSymbolicLink(atPath: library.file("first"), withDestinationPath: "sub/second")
        try FileManager.default.createSymbolicLink(atPath: library.file("sub/second"), withDestinationPath: "new.json")
        try CatalogExport.export(from: library.store, format: .json, toFile: library.file("first"))
        #expect(Self.kind(library.file("first")) == S_IFLNK)
        #expect(Self.kind(library.file("sub/second")) == S_IFLNK)
        #expect(try String(contentsOfFile: library.file("sub/new.json"), encoding: .utf8).hasPrefix("[\n{\"title\""))
    }

    @Test("a FIFO, a socket and a directory are refused, left as they were, and nothing is written")
    func specialFiles() throws {
        let library = try Self.library()
        let fifo = library.file("fifo")
        #expect(mkfifo(fifo, 0o644) == 0)
        let socketPath = library.file("sock")
        let socketDescriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(socketDescriptor) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { buffer in
            for (index, byte) in socketPath.utf8.enumerated() { buffer[index] = byte }
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(socketDescriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        #expect(bound == 0)
        let directory = library.file("folder")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false)
        let linkToFIFO = library.file("fifo-link")
        try FileManager.default.createSymbolicLink(atPath: linkToFIFO, withDestinationPath: "fifo")
        let cases: [(String, mode_t, String, String)] = [
            (fifo, S_IFIFO, fifo, "it is a pipe, not a regular file"),
            (linkToFIFO, S_IFLNK, fifo, "it is a pipe, not a regular file"),
            (socketPath, S_IFSOCK, socketPath, "it is a socket, not a regular file"),
            (directory, S_IFDIR, directory, "it is a directory, not a regular file"),
        ]
        for (path, kind, underlying, reason) in cases {
            do {
                try CatalogExport.export(from: library.store, format: .csv, toFile: path)
                Issue.record("\(path) was written")
            } catch let error as OutputFileError {
                #expect(error.path == path)
                #expect(error.reason.hasPrefix(reason), "\(error)")
            }
            #expect(Self.kind(path) == kind, "\(path) changed kind")
            #expect(Self.kind(underlying, followingLinks: true) == Self.kind(underlying))
        }
        #expect(Self.kind(fifo) == S_IFIFO)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory).isEmpty)
        #expect(try Self.temporaryFiles(library).isEmpty)
    }

    @Test("a device node is refused and stays the device it was (as root, a rename would replace it)")
    func deviceNode() throws {
        let library = try Self.library()
        // A copy of /dev/full's node: a regression replaces this copy, never the system's.
        let device = library.file("full")
        var system = stat()
        guard stat("/dev/full", &system) == 0, mknod(device, S_IFCHR | 0o666, system.st_rdev) == 0 else {
            return  // only root may make a device node
        }
        var before = stat()
        #expect(lstat(device, &before) == 0)
        do {
            try CatalogExport.export(from: library.store, format: .csv, toFile: device)
            Issue.record("the device was written")
        } catch let error as OutputFileError {
            #expect(error.reason == "it is a character device, not a regular file; nothing was written")
        }
        var after = stat()
        #expect(lstat(device, &after) == 0)
        #expect(after.st_mode & S_IFMT == S_IFCHR)
        #expect(after.st_rdev == before.st_rdev)
        #expect(after.st_ino == before.st_ino)
    }

    @Test("an existing file keeps its mode: 0600 stays 0600, 0640 stays 0640, a set-group-id bit stays")
    func keepsMode() throws {
        let library = try Self.library()
        for mode: mode_t in [0o600, 0o640, 0o2664] {
            let path = try library.write("mode-\(String(mode, radix: 8)).csv", "old")
            #expect(chmod(path, mode) == 0)
            try CatalogExport.export(from: library.store, format: .csv, toFile: path)
            #expect(
                Self.mode(path) == mode, "mode \(String(mode, radix: 8)) became \(String(Self.mode(path), radix: 8))")
            #expect(try String(contentsOfFile: path, encoding: .utf8).hasPrefix("title,"))
        }
    }

    @Test("an existing file keeps its owner and group (checked when running as root, who can give files away)")
    func keepsOwner() throws {
        guard geteuid() == 0 else { return }
        let library = try Self.library()
        let path = try library.write("owned.csv", "old")
        #expect(chown(path, 1234, 4321) == 0)
        try CatalogExport.export(from: library.store, format: .csv, toFile: path)
        var info = stat()
        #expect(stat(path, &info) == 0)
        #expect(info.st_uid == 1234)
        #expect(info.st_gid == 4321)
    }

    @Test("a file the user may not write is refused and left alone (not as root, who may write anything)")
    func readOnlyFile() throws {
        guard geteuid() != 0 else { return }
        let library = try Self.library()
        let path = try library.write("read-only.csv", "old")
        #expect(chmod(path, 0o444) == 0)
        #expect(throws: OutputFileError.self) {
            try CatalogExport.export(from: library.store, format: .csv, toFile: path)
        }
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "old")
    }
}
