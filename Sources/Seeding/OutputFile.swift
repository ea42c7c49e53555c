import Glibc

/// Why an export could not be written (the CLI's exit code 74): the path, and the reason.
///
/// For example:
///
///     OutputFileError(path: "out/books.csv", reason: "No such file or directory").description
///     // "cannot write out/books.csv: No such file or directory"
public struct OutputFileError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The output path as given (or "standard output").
    public var path: String
    /// The system's reason, or why the path was refused.
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
            if count == 0 { throw OutputFileError(path: name, reason: InputFile.systemMessage(EIO)) }
            written += count
        }
    }

    /// Runs `body` with a descriptor for a new temporary file beside the file `path` names, then renames it over
    /// that file. If anything fails, the temporary file is removed and the file is untouched.
    ///
    /// - A symbolic link is followed: its target is replaced (or created, for a link to a missing file), and the
    ///   link itself stays a link.
    /// - Anything that is not a regular file (a directory, FIFO, socket or device) is refused before anything is
    ///   written, and so is a file the user may not write.
    /// - An existing file keeps its permission bits, owner and group (a hard link to it is not kept: the path
    ///   gets the new file); a new file gets 0666 less the umask, as a shell's `>` would.
    /// - Every write, `fsync`, `close` and `rename` is checked: success is never reported for bytes not written.
    static func replacing<T>(_ path: String, _ body: (Int32) throws -> T) throws -> T {
        let target = try resolve(path)
        let (temporary, descriptor) = try createTemporary(beside: target.path, reportedAs: path)
        var closed = false
        do {
            if let existing = target.existing { try keepModeAndOwner(of: existing, on: descriptor, path: path) }
            let value = try body(descriptor)
            guard fsync(descriptor) == 0 else {
                throw OutputFileError(path: path, reason: InputFile.systemMessage(errno))
            }
            closed = true
            guard close(descriptor) == 0 else {
                throw OutputFileError(path: path, reason: InputFile.systemMessage(errno))
            }
            guard rename(temporary, target.path) == 0 else {
                throw OutputFileError(path: path, reason: InputFile.systemMessage(errno))
            }
            syncDirectory(of: target.path)
            return value
        } catch {
            if !closed { close(descriptor) }
            unlink(temporary)
            throw error
        }
    }

    // MARK: - Private

    /// The file to replace (symbolic links followed) and its status if it exists.
    private static func resolve(_ path: String) throws(OutputFileError) -> (path: String, existing: stat?) {
        var info = stat()
        if stat(path, &info) == 0 {
            let type = info.st_mode & S_IFMT
            guard type == S_IFREG else {
                throw OutputFileError(
                    path: path, reason: "it is a \(InputFile.kindName(type)), not a regular file; nothing was written")
            }
            guard access(path, W_OK) == 0 else {
                throw OutputFileError(path: path, reason: InputFile.systemMessage(errno))
            }
            guard let resolved = realpath(path, nil) else {
                throw OutputFileError(path: path, reason: InputFile.systemMessage(errno))
            }
            defer { free(resolved) }
            return (String(cString: resolved), info)
        }
        guard errno == ENOENT else { throw OutputFileError(path: path, reason: InputFile.systemMessage(errno)) }
        // Nothing is there, or a symbolic link points to a file that does not exist yet: follow the links to the
        // name to create.
        var current = path
        for _ in 0..<40 {
            guard lstat(current, &info) == 0 else {
                guard errno == ENOENT else {
                    throw OutputFileError(path: path, reason: InputFile.systemMessage(errno))
                }
                return (current, nil)
            }
            guard info.st_mode & S_IFMT == S_IFLNK else {
                throw OutputFileError(path: path, reason: "it changed while it was being checked; try again")
            }
            var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
            let length = readlink(current, &buffer, buffer.count - 1)
            guard length >= 0 else { throw OutputFileError(path: path, reason: InputFile.systemMessage(errno)) }
            let link = String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            current = link.hasPrefix("/") ? link : split(current).directory + link
        }
        throw OutputFileError(path: path, reason: InputFile.systemMessage(ELOOP))
    }

    /// Gives the temporary file the owner, group and permission bits of the file it replaces.
    private static func keepModeAndOwner(of existing: stat, on descriptor: Int32, path: String) throws {
        var own = stat()
        guard fstat(descriptor, &own) == 0 else {
            throw OutputFileError(path: path, reason: InputFile.systemMessage(errno))
        }
        // The owner first: changing it may clear the set-user-id bit that fchmod then restores.
        if own.st_uid != existing.st_uid || own.st_gid != existing.st_gid {
            guard fchown(descriptor, existing.st_uid, existing.st_gid) == 0 else {
                throw OutputFileError(
                    path: path,
                    reason: "cannot keep its owner and group (\(InputFile.systemMessage(errno))); nothing was written")
            }
        }
        guard fchmod(descriptor, existing.st_mode & 0o7777) == 0 else {
            throw OutputFileError(path: path, reason: InputFile.systemMessage(errno))
        }
    }

    /// Makes the rename durable; a directory that cannot be synced (some file systems) leaves the file in place.
    private static func syncDirectory(of path: String) {
        let directory = split(path).directory
        let descriptor = open(directory.isEmpty ? "." : directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        _ = fsync(descriptor)
        close(descriptor)
    }

    /// The directory part (with its trailing slash, or empty) and the last component of a path.
    private static func split(_ path: String) -> (directory: String, base: String) {
        guard let slash = path.lastIndex(of: "/") else { return ("", path) }
        return (String(path[...slash]), String(path[path.index(after: slash)...]))
    }

    private static func createTemporary(
        beside path: String, reportedAs name: String
    ) throws(OutputFileError) -> (String, Int32) {
        let (directory, base) = split(path)
        guard !base.isEmpty else { throw OutputFileError(path: name, reason: "the path names a directory") }
        var attempt = 0
        while true {
            let temporary = "\(directory).\(base).tmp-\(getpid())-\(attempt)"
            // 0666: the process's umask takes away what it should, as for any new file.
            let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
            if descriptor >= 0 { return (temporary, descriptor) }
            guard errno == EEXIST, attempt < 100 else {
                throw OutputFileError(path: name, reason: InputFile.systemMessage(errno))
            }
            attempt += 1
        }
    }
}
