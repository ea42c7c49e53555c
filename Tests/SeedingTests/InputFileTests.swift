import Foundation
import Seeding
import Testing

@Suite("Reading whole input files")
struct InputFileTests {
    @Test("a regular file is read byte for byte, including an empty one")
    func readsBytes() throws {
        let library = try TestLibrary()
        let bytes: [UInt8] =
            [0xEF, 0xBB, 0xBF] + Array("a,b\r\n".utf8) + [0x00, 0xFF] + (0..<70_000).map { UInt8($0 % 251) }
        #expect(try InputFile.read(path: library.write("data.bin", bytes)) == bytes)
        #expect(try InputFile.read(path: library.write("empty.csv", [])) == [])
    }

    @Test("a missing file, or a missing folder on the way, is .missing with the path")
    func missing() throws {
        let library = try TestLibrary()
        for path in [library.file("nope.csv"), library.file("nope/books.csv")] {
            #expect(throws: InputFileError(path: path, reason: .missing)) { try InputFile.read(path: path) }
        }
        #expect("\(InputFileError(path: "books.csv", reason: .missing))" == "books.csv: no such file")
    }

    @Test("a directory and a pipe are not regular files")
    func notRegular() throws {
        let library = try TestLibrary()
        #expect(throws: InputFileError(path: library.path, reason: .notARegularFile(kind: "directory"))) {
            try InputFile.read(path: library.path)
        }
        let fifo = library.file("pipe")
        #expect(mkfifo(fifo, 0o600) == 0)
        // No writer: reading must refuse the pipe at once, not wait for one.
        #expect(throws: InputFileError(path: fifo, reason: .notARegularFile(kind: "pipe"))) {
            try InputFile.read(path: fifo)
        }
    }

    @Test("a file over the limit is refused before it is read")
    func tooLarge() throws {
        let library = try TestLibrary()
        let path = try library.write("big.csv", [UInt8](repeating: 0x41, count: 101))
        #expect(throws: InputFileError(path: path, reason: .tooLarge(size: 101, limit: 100))) {
            try InputFile.read(path: path, limit: 100)
        }
        #expect(try InputFile.read(path: path, limit: 101).count == 101)
        #expect(InputFile.defaultLimit == 2 << 30)
    }

    @Test("a path through a regular file (ENOTDIR) reads as missing, not a crash")
    func throughAFile() throws {
        let library = try TestLibrary()
        let path = try library.write("books.csv", "title\n") + "/inner.csv"
        #expect(throws: InputFileError(path: path, reason: .missing)) { try InputFile.read(path: path) }
    }
}
