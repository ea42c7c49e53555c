#if canImport(Glibc)
    import Glibc
#endif

/// A terminal's echo turned off for a hidden prompt (a PIN), and put back on whatever ends the prompt: the prompt's
/// end, or SIGINT, SIGTERM, SIGHUP or SIGQUIT (Ctrl-C, Ctrl-\, a closed window), after which the process still dies
/// of the signal as usual (exit status 130 for SIGINT in a shell). SIGTSTP (Ctrl-Z) puts echo back on while the
/// process is stopped, and off again when it continues (`fg`), still at the prompt.
///
/// For example:
///
///     if let hidden = HiddenTyping(descriptor: STDIN_FILENO) {
///         defer { hidden.end() }
///         // read what is typed, unseen
///     }
struct HiddenTyping {
    /// The signals that end a process at a terminal by default, during which the terminal is put back.
    static let signals: [Int32] = [SIGINT, SIGTERM, SIGHUP, SIGQUIT]

    private let descriptor: Int32
    private let saved: termios
    private let previousActions: [sigaction]
    private let previousStopAction: sigaction

    /// Turns echo off on `descriptor` (a terminal), after installing the signal handlers that would turn it back on;
    /// nil, with nothing changed, when the terminal's settings cannot be read or changed.
    init?(descriptor: Int32) {
        var saved = termios()
        guard tcgetattr(descriptor, &saved) == 0 else { return nil }
        self.descriptor = descriptor
        self.saved = saved
        var quiet = saved
        quiet.c_lflag &= ~tcflag_t(ECHO)
        // Recorded for the handler first, then the handlers, then echo off: a signal at any point finds what it needs.
        interruptedTyping = InterruptedTyping(descriptor: descriptor, settings: saved, quiet: quiet, isActive: true)
        previousActions = Self.signals.map { signal in
            var action = sigaction()
            action.__sigaction_handler.sa_handler = restoreTerminalAndDie
            sigemptyset(&action.sa_mask)
            for other in Self.signals { sigaddset(&action.sa_mask, other) }  // one handler at a time
            action.sa_flags = 0
            var previous = sigaction()
            sigaction(signal, &action, &previous)
            return previous
        }
        var previous = sigaction()
        var stop = suspendAction()
        sigaction(SIGTSTP, &stop, &previous)
        previousStopAction = previous
        guard tcsetattr(descriptor, TCSAFLUSH, &quiet) == 0 else {
            putHandlersBack()
            return nil
        }
    }

    /// Puts the terminal's settings back, then the signals' previous handlers. Call it once.
    func end() {
        var settings = saved
        tcsetattr(descriptor, TCSAFLUSH, &settings)
        putHandlersBack()
    }

    private func putHandlersBack() {
        for (signal, var previous) in zip(Self.signals, previousActions) { sigaction(signal, &previous, nil) }
        var previous = previousStopAction
        sigaction(SIGTSTP, &previous, nil)
        interruptedTyping.isActive = false
    }
}

/// What the signal handler needs to put a terminal back.
struct InterruptedTyping {
    var descriptor: Int32
    /// The terminal's settings before the prompt.
    var settings: termios
    /// The same with echo off, as the prompt has them.
    var quiet: termios
    var isActive: Bool
}

// A signal handler is a C function that cannot be given context, so the settings it puts back live here: the one
// global of the command line, set only while a hidden prompt has echo off (by `HiddenTyping`, on the thread that runs
// the command) and read only by `restoreTerminalAndDie`.
nonisolated(unsafe) private var interruptedTyping = InterruptedTyping(
    descriptor: -1, settings: termios(), quiet: termios(), isActive: false)

/// The handler of `HiddenTyping.signals` during a hidden prompt: puts the terminal back, then dies of the signal with
/// its default action (the signal is blocked in the handler, so it is delivered as the handler returns). Calls only
/// async-signal-safe functions.
private func restoreTerminalAndDie(_ signal: Int32) {
    if interruptedTyping.isActive {
        tcsetattr(interruptedTyping.descriptor, TCSAFLUSH, &interruptedTyping.settings)
    }
    Glibc.signal(signal, SIG_DFL)
    raise(signal)
}

/// The action of SIGTSTP during a hidden prompt: `suspendTyping`, with interrupted reads restarted.
private func suspendAction() -> sigaction {
    var action = sigaction()
    action.__sigaction_handler.sa_handler = suspendTyping
    sigemptyset(&action.sa_mask)
    for other in HiddenTyping.signals { sigaddset(&action.sa_mask, other) }
    action.sa_flags = SA_RESTART
    return action
}

/// The handler of SIGTSTP (Ctrl-Z) during a hidden prompt: puts the terminal back and stops the process as SIGTSTP
/// does by default; when it is continued (SIGCONT), turns echo off again and goes back to the prompt. Calls only
/// async-signal-safe functions, and keeps `errno` for the code it interrupted.
private func suspendTyping(_ signal: Int32) {
    let savedErrno = errno
    if interruptedTyping.isActive {
        tcsetattr(interruptedTyping.descriptor, TCSAFLUSH, &interruptedTyping.settings)
    }
    Glibc.signal(SIGTSTP, SIG_DFL)
    var stop = sigset_t()
    sigemptyset(&stop)
    sigaddset(&stop, SIGTSTP)
    pthread_sigmask(SIG_UNBLOCK, &stop, nil)
    raise(SIGTSTP)  // stopped here until continued
    var action = suspendAction()
    sigaction(SIGTSTP, &action, nil)
    if interruptedTyping.isActive {
        tcsetattr(interruptedTyping.descriptor, TCSAFLUSH, &interruptedTyping.quiet)
    }
    errno = savedErrno
}
