import Glibc

/// Why an export could not be written (the CLI's exit code 73): the path, and the system's reason.
///
/// For example:
///
///     OutputFileError(path: "out/books.csv", reason: "No such file or directory").description
///     // "cannot write out/books.csv: No such file or directory"
public struct OutputFileError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The output path as given (or "standard output").
    public var path: String
    /// The system's reason.
    public var reason: String
    /// Whether the reader of a pipe went away (`librarycli export | head`): not a failure of the export.
    public var isClosedPipe: Bool

    /// Creates an error.
    ///
    ///     OutputFileError(path: "books.csv", reason: "Permission denied")
    public init(path: String, reason: String, isClosedPipe: Bool = false) {
        self.path = path
        self.reason = reason
        self.isClosedPipe = isClosedPipe
    }

    /// One line: `cannot write books.csv: Permission denied`.
    public var description: String { "cannot write \(path): \(reason)" }
}

/// Writes output through plain system calls: to an open descriptor, or to a file replaced atomically.
enum OutputFile {
    /// Writes all of `bytes` to `descriptor`, retrying partial writes and interruptions.
    static func write(_ bytes: [UInt8], to descriptor: Int32, name: String) throws(OutputFileError) {
        var written = 0
        while written < bytes.count {
            let count = bytes.withUnsafeBytes { buffer in
                Glibc.write(descriptor, buffer.baseAddress! + written, buffer.count - written)
            }
            if count < 0 {
                if errno == EINTR { continue }
                throw OutputFileError(path: name, reason: InputFile.systemMessage(errno), isClosedPipe: errno == EPIPE)
            }
            written += count
        }
    }

    /// Runs `body` with a descriptor for a new temporary file beside `path`, then renames it over `path`.
    /// If anything fails, the temporary file is removed and `path` is untouched.
    static func replacing<T>(_ path: String, mode: mode_t = 0o644, _ body: (Int32) throws -> T) throws -> T {
        let (temporary, descriptor) = try createTemporary(beside: path, mode: mode)
        var closed = false
        do {
            let value = try body(descriptor)
            guard fsync(descriptor) == 0 else {
                throw OutputFileError(path: path, reason: InputFile.systemMessage(errno))
            }
            closed = true
            guard close(descriptor) == 0 else {
                throw OutputFileError(path: path, reason: InputFile.systemMessage(errno))
            }
            guard rename(temporary, path) == 0 else {
                throw OutputFileError(path: path, reason: InputFile.systemMessage(errno))
            }
            return value
        } catch {
            if !closed { close(descriptor) }
            unlink(temporary)
            throw error
        }
    }

    // MARK: - Private

    private static func createTemporary(beside path: String, mode: mode_t) throws(OutputFileError) -> (String, Int32) {
        let slash = path.lastIndex(of: "/")
        let directory = slash.map { String(path[...$0]) } ?? ""
        let base = slash.map { String(path[path.index(after: $0)...]) } ?? path
        guard !base.isEmpty else { throw OutputFileError(path: path, reason: "the path names a directory") }
        var attempt = 0
        while true {
            let temporary = "\(directory).\(base).tmp-\(getpid())-\(attempt)"
            let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
            if descriptor >= 0 { return (temporary, descriptor) }
            guard errno == EEXIST, attempt < 100 else {
                throw OutputFileError(path: path, reason: InputFile.systemMessage(errno))
            }
            attempt += 1
        }
    }
}
