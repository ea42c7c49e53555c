import Glibc

/// Why an input file could not be read at all (the CLI's exit code 66): it is missing, not a regular file,
/// unreadable or too large. Bad data *inside* a readable file is a `DataError` instead.
///
/// For example:
///
///     do {
///         _ = try InputFile.read(path: "books.csv")
///     } catch let error as InputFileError {
///         print(error)  // "books.csv: no such file"
///     }
public struct InputFileError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What went wrong.
    public enum Reason: Hashable, Sendable {
        /// Nothing exists at the path (or a folder on the way is missing).
        case missing
        /// The path names a directory or something else that is not a regular file.
        case notARegularFile(kind: String)
        /// The file exists but cannot be opened or read; holds the system's reason.
        case unreadable(String)
        /// The file is larger than the reader's limit, in bytes.
        case tooLarge(size: Int, limit: Int)
    }

    /// The path as given.
    public var path: String
    /// What went wrong.
    public var reason: Reason

    /// Creates an error.
    ///
    ///     InputFileError(path: "books.csv", reason: .missing)
    public init(path: String, reason: Reason) {
        self.path = path
        self.reason = reason
    }

    /// One line naming the path: `books.csv: no such file`.
    public var description: String {
        switch reason {
        case .missing: "\(path): no such file"
        case .notARegularFile(let kind): "\(path): is a \(kind), not a regular file"
        case .unreadable(let why): "\(path): cannot be read: \(why)"
        case .tooLarge(let size, let limit):
            // For a pipe, `size` is where reading stopped, not the whole stream's length.
            "\(path): is larger than the limit of \(limit) bytes (at least \(size) bytes)"
        }
    }
}

/// Reads whole input files with plain system calls (no Foundation).
///
/// For example:
///
///     let bytes = try InputFile.read(path: "seed/books.csv")
public enum InputFile {
    /// The default size limit: 2 GiB.
    public static let defaultLimit = 2 << 30

    /// Reads the regular file at `path` into memory; throws `InputFileError` for a missing, non-regular,
    /// unreadable or too large file.
    ///
    ///     let bytes = try InputFile.read(path: "catalog.json", limit: 64 << 20)
    public static func read(path: String, limit: Int = defaultLimit) throws(InputFileError) -> [UInt8] {
        try OpenInputFile(path: path).readAll(limit: limit)
    }

    // MARK: - Private

    static func systemMessage(_ code: Int32) -> String {
        String(cString: strerror(code))
    }

    static func kindName(_ type: mode_t) -> String {
        switch type {
        case S_IFDIR: "directory"
        case S_IFIFO: "pipe"
        case S_IFSOCK: "socket"
        case S_IFCHR: "character device"
        case S_IFBLK: "block device"
        default: "special file"
        }
    }
}

/// A regular file open for reading, closed when released: read whole, or a chunk at a time (and again from the
/// start after `rewind()`). Opened `acceptingPipes`, it may be a pipe instead (`isPipe`), to be read once, whole.
///
///     let file = try OpenInputFile(path: "books.csv")
///     let count = try file.read(into: buffer)
final class OpenInputFile {
    /// The path as given.
    let path: String
    /// The size `fstat` gave when the file was opened (0 for a pipe).
    let size: Int
    /// Whether it is a pipe (`/dev/stdin` when piped, a shell's `<(...)`, a named pipe): read once, no rewinding.
    let isPipe: Bool
    private let descriptor: Int32

    /// Opens the regular file at `path` (or, `acceptingPipes`, a pipe); throws `InputFileError` for a missing or
    /// unreadable file, or one of another type.
    init(path: String, acceptingPipes: Bool = false) throws(InputFileError) {
        // O_NONBLOCK: opening a named pipe would otherwise wait for a writer before its type can be checked.
        // Regular files ignore it.
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else {
            let code = errno
            switch code {
            case ENOENT, ENOTDIR: throw InputFileError(path: path, reason: .missing)
            default: throw InputFileError(path: path, reason: .unreadable(InputFile.systemMessage(code)))
            }
        }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            let code = errno
            close(descriptor)
            throw InputFileError(path: path, reason: .unreadable(InputFile.systemMessage(code)))
        }
        let type = status.st_mode & S_IFMT
        if type == S_IFIFO && acceptingPipes {
            // Reads wait for the writer's data; a pipe nobody writes to (a named pipe without a writer) reads as
            // empty at once, rather than waiting for one.
            let flags = fcntl(descriptor, F_GETFL)
            guard flags >= 0, fcntl(descriptor, F_SETFL, flags & ~O_NONBLOCK) == 0 else {
                let code = errno
                close(descriptor)
                throw InputFileError(path: path, reason: .unreadable(InputFile.systemMessage(code)))
            }
            self.path = path
            self.size = 0
            self.isPipe = true
            self.descriptor = descriptor
            return
        }
        guard type == S_IFREG else {
            close(descriptor)
            throw InputFileError(path: path, reason: .notARegularFile(kind: InputFile.kindName(type)))
        }
        self.path = path
        self.size = Int(status.st_size)
        self.isPipe = false
        self.descriptor = descriptor
    }

    deinit {
        close(descriptor)
    }

    /// Reads up to `buffer.count` bytes at the current offset; 0 at the end of the file.
    func read(into buffer: UnsafeMutableRawBufferPointer) throws(InputFileError) -> Int {
        guard let base = buffer.baseAddress, !buffer.isEmpty else { return 0 }
        while true {
            let count = Glibc.read(descriptor, base, buffer.count)
            if count >= 0 { return count }
            if errno == EINTR { continue }
            throw InputFileError(path: path, reason: .unreadable(InputFile.systemMessage(errno)))
        }
    }

    /// Goes back to the start of the file.
    func rewind() throws(InputFileError) {
        guard lseek(descriptor, 0, SEEK_SET) == 0 else {
            throw InputFileError(path: path, reason: .unreadable(InputFile.systemMessage(errno)))
        }
    }

    /// Reads the rest of the file into memory; throws `.tooLarge` past `limit` bytes.
    func readAll(limit: Int = InputFile.defaultLimit) throws(InputFileError) -> [UInt8] {
        guard size <= limit else { throw InputFileError(path: path, reason: .tooLarge(size: size, limit: limit)) }
        // One byte more than fstat said, so the read that finds the end has room (and a grown file is noticed).
        var bytes = [UInt8](repeating: 0, count: size + 1)
        var filled = 0
        while true {
            if filled == bytes.count {
                guard bytes.count <= limit else {
                    throw InputFileError(path: path, reason: .tooLarge(size: bytes.count, limit: limit))
                }
                bytes.append(contentsOf: repeatElement(0, count: min(1 << 16, limit + 1 - bytes.count)))
            }
            let result = bytes.withUnsafeMutableBytes { buffer in
                Result { () throws(InputFileError) in
                    try read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[filled...]))
                }
            }
            let count = try result.get()
            if count == 0 { break }
            filled += count
        }
        guard filled <= limit else { throw InputFileError(path: path, reason: .tooLarge(size: filled, limit: limit)) }
        bytes.removeLast(bytes.count - filled)
        return bytes
    }
}
