#if canImport(Glibc)
    import Glibc
#endif

/// Waits for SIGINT or SIGTERM (or other signals) with `sigwait`, so the program can stop its server gracefully
/// from an ordinary thread instead of inside a signal handler.
///
/// Creating it blocks the signals in the calling thread, and every thread started afterwards inherits that: create
/// it first thing in `main`, before starting the server or any other thread, so that no thread gets the signal's
/// default action (termination) instead of ``wait()``.
///
///     let signals = TerminationSignals()  // SIGINT, SIGTERM
///     let server = try Server.start(router: router, configuration: configuration)
///     let signal = signals.wait()          // blocks until one arrives
///     server.stop()
public struct TerminationSignals: Sendable {
    /// The signals waited for.
    public let signals: [Int32]

    /// Blocks `signals` in this thread and the threads it starts later.
    ///
    ///     let signals = TerminationSignals([SIGTERM])
    public init(_ signals: [Int32] = [SIGINT, SIGTERM]) {
        self.signals = signals
        var set = Self.set(of: signals)
        pthread_sigmask(SIG_BLOCK, &set, nil)
    }

    /// Blocks the calling thread until one of the signals is pending, and returns it (consumed).
    ///
    ///     if signals.wait() == SIGTERM { ... }
    @discardableResult
    public func wait() -> Int32 {
        var set = Self.set(of: signals)
        var received: Int32 = 0
        while sigwait(&set, &received) != 0 {}
        return received
    }

    private static func set(of signals: [Int32]) -> sigset_t {
        var set = sigset_t()
        sigemptyset(&set)
        for signal in signals { sigaddset(&set, signal) }
        return set
    }
}
