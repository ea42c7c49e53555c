#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Where a command writes: data to standard output, messages and errors to standard error.
///
/// Tests capture both in memory; the executable writes to the process's file descriptors. Every write to standard
/// output is checked: the first one that fails is kept (`outputError`), later ones are skipped, and
/// `finishOutput()` reports it at the end, so a full disk is never a silent success.
///
/// For example:
///
///     var console = Console.captured()
///     console.out("hello\n")
///     console.capturedOutput  // "hello\n"
public struct Console: Sendable {
    /// Whether standard output is a terminal (colour and progress bars only then).
    public var isOutputTerminal: Bool
    /// Whether standard error is a terminal.
    public var isErrorTerminal: Bool
    /// The terminal's width in cells, if standard output is a terminal and its size is known.
    public var terminalWidth: Int?
    /// The width in cells of standard error's terminal, if it is one and its size is known: messages written there
    /// are folded at it even when standard output goes to a pipe.
    public var errorTerminalWidth: Int?
    /// Whether standard input is a terminal (a person typing, who is asked with prompts).
    public var isInputTerminal: Bool

    private let sink: Sink

    private final class Sink: @unchecked Sendable {
        // Only touched from the thread that runs the command.
        var output: [UInt8] = []
        var error: [UInt8] = []
        var outputError: OutputError?
        /// Whether a command already said on standard error that standard output failed (and what became of its
        /// change), so the end of the run does not say it again.
        var isOutputErrorReported = false
        /// A captured console's standard input, and how much of it was read.
        var input: [UInt8] = []
        var inputOffset = 0
        let isCaptured: Bool
        /// For tests: every write to standard output fails with this `errno`.
        let failingErrno: Int32?
        init(isCaptured: Bool, failingErrno: Int32? = nil) {
            self.isCaptured = isCaptured
            self.failingErrno = failingErrno
        }
    }

    /// Why standard output could not be written: the `errno` of the failed write or close.
    ///
    ///     OutputError(errno: ENOSPC).reason  // "No space left on device"
    public struct OutputError: Error, Equatable, Sendable {
        /// The system's error number.
        public var errno: Int32

        /// Creates an error from an `errno` value.
        ///
        ///     OutputError(errno: EPIPE).isClosedPipe  // true
        public init(errno: Int32) { self.errno = errno }

        /// The reader went away (`librarycli list | head -1`): not a failure, the command ends quietly.
        public var isClosedPipe: Bool { errno == EPIPE }
        /// The system's words for it, such as "No space left on device".
        public var reason: String { String(cString: strerror(errno)) }
    }

    /// A console over the process's standard output and error.
    ///
    ///     let console = Console.standard()
    public static func standard() -> Console {
        var size = winsize()
        let width: Int? =
            ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0 && size.ws_col > 0 ? Int(size.ws_col) : nil
        var errorSize = winsize()
        let errorWidth: Int? =
            ioctl(STDERR_FILENO, UInt(TIOCGWINSZ), &errorSize) == 0 && errorSize.ws_col > 0
            ? Int(errorSize.ws_col) : nil
        return Console(
            isOutputTerminal: isatty(STDOUT_FILENO) == 1, isErrorTerminal: isatty(STDERR_FILENO) == 1,
            terminalWidth: width, errorTerminalWidth: errorWidth, isInputTerminal: isatty(STDIN_FILENO) == 1,
            sink: Sink(isCaptured: false))
    }

    /// A console that keeps what is written, for tests; with `failingOutputWith`, every write to standard output
    /// fails with that `errno` instead (`ENOSPC` for a full disk, `EPIPE` for a closed pipe). `input` is what standard
    /// input holds (empty by default); with `isTerminal` it is read as typed at a terminal. `errorWidth` is the width
    /// of standard error's terminal (`width` unless given).
    ///
    ///     let console = Console.captured(isTerminal: true, width: 100)
    ///     let full = Console.captured(failingOutputWith: ENOSPC)
    ///     let typing = Console.captured(input: "1234\n")
    ///     let pipedOutput = Console.captured(errorWidth: 30)  // `librarycli take 9 | cat` on a 30-column terminal
    public static func captured(
        isTerminal: Bool = false, width: Int? = nil, errorWidth: Int? = nil, failingOutputWith errno: Int32? = nil,
        input: String = ""
    ) -> Console {
        let sink = Sink(isCaptured: true, failingErrno: errno)
        sink.input = Array(input.utf8)
        return Console(
            isOutputTerminal: isTerminal, isErrorTerminal: isTerminal || errorWidth != nil, terminalWidth: width,
            errorTerminalWidth: errorWidth ?? width, isInputTerminal: isTerminal, sink: sink)
    }

    /// Reads one line of standard input, without its line break (LF or CR LF); nil at the end of the input. A line
    /// longer than `maxLength` bytes is read whole and returned cut to `maxLength + 1` bytes (so it is still too
    /// long for a check). With `hidden` and a terminal, what is typed is not echoed (termios), as for a password; the
    /// terminal is put back however the prompt ends, a signal included (`HiddenTyping`).
    ///
    ///     let pin = console.readLine(hidden: true)
    public func readLine(hidden: Bool = false, maxLength: Int = 1_024) -> String? {
        var line: [UInt8] = []
        var sawAny = false
        let hiddenTyping = hidden && isInputTerminal && !sink.isCaptured ? HiddenTyping(descriptor: STDIN_FILENO) : nil
        defer {
            if let typing = hiddenTyping {
                typing.end()
                err("\n")  // the Return typed was not echoed
            }
        }
        while let byte = readByte() {
            sawAny = true
            if byte == UInt8(ascii: "\n") { break }
            if line.count <= maxLength { line.append(byte) }
        }
        guard sawAny else { return nil }
        if line.last == UInt8(ascii: "\r") { line.removeLast() }
        return String(decoding: line, as: UTF8.self)
    }

    /// Writes data to standard output. After a failed write, nothing more is written.
    ///
    ///     console.out("Dune\n")
    public func out(_ text: String) {
        var text = text
        text.withUTF8 { out($0) }
    }

    /// Writes bytes to standard output, such as a chunk of an export. After a failed write, nothing more is written.
    ///
    ///     console.out(Array("Dune\n".utf8))
    public func out(_ bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { out($0) }
    }

    /// Writes a message to standard error. Its failures are not reported: there is nowhere left to report them.
    ///
    ///     console.err("Error: no such book\n")
    public func err(_ text: String) {
        if sink.isCaptured {
            sink.error.append(contentsOf: text.utf8)
        } else {
            var text = text
            _ = text.withUTF8 { Console.write($0, to: STDERR_FILENO) }
        }
    }

    /// The first failed write to standard output, if any: commands that write a lot stop early on it.
    ///
    ///     if console.outputError != nil { return }  // the disk is full or the reader left
    public var outputError: OutputError? { sink.outputError }

    /// Ends the output and returns the first error of standard output, if any: a failed write, or an error the
    /// system reports only when the output is closed (a network file system). Standard output stays open.
    ///
    ///     if let error = console.finishOutput(), !error.isClosedPipe { /* exit 74 */ }
    public func finishOutput() -> OutputError? {
        if sink.outputError == nil, !sink.isCaptured {
            // Closing a duplicate flushes what the kernel holds for the file and reports its error, as closing
            // standard output itself would, without closing it.
            let duplicate = dup(STDOUT_FILENO)
            if duplicate >= 0, close(duplicate) != 0, errno != EINTR { sink.outputError = OutputError(errno: errno) }
        }
        return sink.outputError
    }

    /// Whether the failure of standard output was already reported on standard error (see `reportOutputError`).
    var isOutputErrorReported: Bool { sink.isOutputErrorReported }

    /// Says on standard error that standard output failed, with what became of the command's change, once: the end
    /// of the run then does not say it again.
    ///
    ///     console.reportOutputError(OutputError(errno: ENOSPC), consequence: "nothing was changed")
    func reportOutputError(_ error: OutputError, consequence: String) {
        err("Error: cannot write to standard output: \(error.reason); \(consequence)\n")
        sink.isOutputErrorReported = true
    }

    /// What was written to standard output, for a captured console.
    public var capturedOutput: String { String(decoding: sink.output, as: UTF8.self) }
    /// What was written to standard error, for a captured console.
    public var capturedError: String { String(decoding: sink.error, as: UTF8.self) }

    // MARK: - Private

    private init(
        isOutputTerminal: Bool, isErrorTerminal: Bool, terminalWidth: Int?, errorTerminalWidth: Int?,
        isInputTerminal: Bool, sink: Sink
    ) {
        self.isOutputTerminal = isOutputTerminal
        self.isErrorTerminal = isErrorTerminal
        self.terminalWidth = terminalWidth
        self.errorTerminalWidth = errorTerminalWidth
        self.isInputTerminal = isInputTerminal
        self.sink = sink
    }

    /// One byte of standard input, nil at its end (or on a read error).
    private func readByte() -> UInt8? {
        if sink.isCaptured {
            guard sink.inputOffset < sink.input.count else { return nil }
            defer { sink.inputOffset += 1 }
            return sink.input[sink.inputOffset]
        }
        var byte: UInt8 = 0
        while true {
            let count = Glibc.read(STDIN_FILENO, &byte, 1)
            if count == 1 { return byte }
            if count < 0 && errno == EINTR { continue }
            return nil
        }
    }

    private func out(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard sink.outputError == nil, !bytes.isEmpty else { return }
        if let failing = sink.failingErrno {
            sink.outputError = OutputError(errno: failing)
        } else if sink.isCaptured {
            sink.output.append(contentsOf: bytes)
        } else if let failure = Console.write(bytes, to: STDOUT_FILENO) {
            sink.outputError = OutputError(errno: failure)
        }
    }

    /// Writes all of `bytes`, retrying partial writes and interruptions; returns the `errno` of a failure.
    private static func write(_ bytes: UnsafeBufferPointer<UInt8>, to descriptor: Int32) -> Int32? {
        var offset = 0
        while offset < bytes.count {
            let written = Glibc.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                return errno
            }
            if written == 0 { return EIO }  // no progress on a non-empty write: never loop on it
            offset += written
        }
        return nil
    }
}
