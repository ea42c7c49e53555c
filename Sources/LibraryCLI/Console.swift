#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Where a command writes: data to standard output, messages and errors to standard error.
///
/// Tests capture both in memory; the executable writes to the process's file descriptors.
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

    private let sink: Sink

    private final class Sink: @unchecked Sendable {
        // Only touched from the thread that runs the command.
        var output: [UInt8] = []
        var error: [UInt8] = []
        let isCaptured: Bool
        init(isCaptured: Bool) { self.isCaptured = isCaptured }
    }

    /// A console over the process's standard output and error.
    ///
    ///     let console = Console.standard()
    public static func standard() -> Console {
        var size = winsize()
        let width: Int? =
            ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0 && size.ws_col > 0 ? Int(size.ws_col) : nil
        return Console(
            isOutputTerminal: isatty(STDOUT_FILENO) == 1, isErrorTerminal: isatty(STDERR_FILENO) == 1,
            terminalWidth: width, sink: Sink(isCaptured: false))
    }

    /// A console that keeps what is written, for tests.
    ///
    ///     let console = Console.captured(isTerminal: true, width: 100)
    public static func captured(isTerminal: Bool = false, width: Int? = nil) -> Console {
        Console(
            isOutputTerminal: isTerminal, isErrorTerminal: isTerminal, terminalWidth: width,
            sink: Sink(isCaptured: true))
    }

    /// Writes data to standard output.
    ///
    ///     console.out("Dune\n")
    public func out(_ text: String) {
        if sink.isCaptured { sink.output.append(contentsOf: text.utf8) } else { Console.write(text, to: STDOUT_FILENO) }
    }

    /// Writes a message to standard error.
    ///
    ///     console.err("Error: no such book\n")
    public func err(_ text: String) {
        if sink.isCaptured { sink.error.append(contentsOf: text.utf8) } else { Console.write(text, to: STDERR_FILENO) }
    }

    /// What was written to standard output, for a captured console.
    public var capturedOutput: String { String(decoding: sink.output, as: UTF8.self) }
    /// What was written to standard error, for a captured console.
    public var capturedError: String { String(decoding: sink.error, as: UTF8.self) }

    // MARK: - Private

    private init(isOutputTerminal: Bool, isErrorTerminal: Bool, terminalWidth: Int?, sink: Sink) {
        self.isOutputTerminal = isOutputTerminal
        self.isErrorTerminal = isErrorTerminal
        self.terminalWidth = terminalWidth
        self.sink = sink
    }

    private static func write(_ text: String, to descriptor: Int32) {
        var text = text
        text.withUTF8 { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = Glibc.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return  // EPIPE (a closed pipe such as `| head`) or a full disk: nothing more to do.
                }
                offset += written
            }
        }
    }
}
