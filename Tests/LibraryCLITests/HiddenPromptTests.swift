import Foundation
import Glibc
import Testing

/// The hidden PIN prompt at a real terminal (a pseudo-terminal): a signal during it must leave echo on.
@Suite("The hidden PIN prompt and signals")
struct HiddenPromptTests {
    /// A pseudo-terminal: the side a terminal emulator holds, and the side a program reads as its terminal.
    struct PseudoTerminal {
        let main: Int32
        let terminal: Int32

        init() throws {
            // glibc declares these only for _XOPEN_SOURCE, which Swift's Glibc module leaves out: found at run time.
            typealias OpenPT = @convention(c) (Int32) -> Int32
            typealias OnPT = @convention(c) (Int32) -> Int32
            typealias NamePT = @convention(c) (Int32, UnsafeMutablePointer<CChar>?, Int) -> Int32
            func function<T>(_ name: String, as type: T.Type) throws -> T {
                unsafeBitCast(try #require(dlsym(nil, name), "no \(name)"), to: type)
            }
            let openPT = try function("posix_openpt", as: OpenPT.self)
            let grantPT = try function("grantpt", as: OnPT.self)
            let unlockPT = try function("unlockpt", as: OnPT.self)
            let namePT = try function("ptsname_r", as: NamePT.self)
            main = openPT(O_RDWR | O_NOCTTY)
            try #require(main >= 0 && grantPT(main) == 0 && unlockPT(main) == 0)
            var name = [CChar](repeating: 0, count: 128)
            try #require(namePT(main, &name, name.count) == 0)
            let path = String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            terminal = open(path, O_RDWR | O_NOCTTY)
            try #require(terminal >= 0)
        }

        var echoes: Bool {
            var settings = termios()
            return tcgetattr(terminal, &settings) == 0 && settings.c_lflag & tcflag_t(ECHO) != 0
        }

        func close() {
            Glibc.close(terminal)
            Glibc.close(main)
        }
    }

    /// `librarycli clients pin 2` with the pseudo-terminal as standard input, standard output to `output` and
    /// standard error to `errors`. Spawned with no signal blocked and default handlers, as a shell starts it: the test
    /// runner's threads block signals, and `Process` would pass that on.
    static func spawnPIN(
        _ sandbox: Sandbox, terminal: Int32, output: Int32, errors: Int32
    ) throws -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, terminal, 0)
        posix_spawn_file_actions_adddup2(&actions, output, 1)
        posix_spawn_file_actions_adddup2(&actions, errors, 2)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        sigemptyset(&none)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE, SIGTSTP, SIGCONT] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        // A process group of its own, with its parent (the test runner) outside it in the same session: a group a
        // stop signal may stop (the kernel discards SIGTSTP sent to an orphaned group).
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(
            &attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP))
        let arguments = [Binary.url.path, "clients", "pin", "2"]
        let environment = ["LIBRARY_DB=\(sandbox.database)", "LIBRARY_NOW=\(sandbox.now)", "HOME=\(sandbox.directory)"]
        var argv = arguments.map { strdup($0) } + [nil]
        var envp = environment.map { strdup($0) } + [nil]
        defer { for pointer in argv + envp { free(pointer) } }
        var pid: pid_t = 0
        let status = posix_spawn(&pid, Binary.url.path, &actions, &attributes, &argv, &envp)
        try #require(status == 0, "posix_spawn: \(status)")
        return pid
    }

    /// Waits (up to 10 s) for the terminal's echo to be off.
    static func waitForEchoOff(_ pty: PseudoTerminal) {
        var waited = 0
        while pty.echoes && waited < 1_000 {
            usleep(10_000)
            waited += 1
        }
    }

    @Test(
        "SIGINT, SIGTERM or SIGHUP at the prompt: echo is back on, and the process dies of the signal",
        arguments: [SIGINT, SIGTERM, SIGHUP])
    func signalRestoresEcho(signal: Int32) throws {
        let sandbox = Sandbox()
        sandbox.makeSmallLibrary()
        let pty = try PseudoTerminal()
        defer { pty.close() }
        #expect(pty.echoes)
        let null = open("/dev/null", O_RDWR)
        defer { close(null) }
        let pid = try Self.spawnPIN(sandbox, terminal: pty.terminal, output: null, errors: null)
        Self.waitForEchoOff(pty)
        #expect(!pty.echoes, "the prompt never turned echo off")
        kill(pid, signal)
        var status: Int32 = 0
        #expect(waitpid(pid, &status, 0) == pid)
        // Killed by the signal (WIFSIGNALED, WTERMSIG), as a shell reports with 128 + the signal (130 for SIGINT).
        #expect(status & 0x7f == signal, "status \(status)")
        #expect(pty.echoes, "echo was left off")
    }

    @Test("a PIN typed at the terminal: echo off while typing, back on after, and the PIN is set")
    func typedPIN() throws {
        try typePIN(stoppingAtFirstPrompt: false)
    }

    @Test("Ctrl-Z (SIGTSTP) at the prompt: echo is on while stopped, off again when continued, and the PIN is set")
    func stopAndContinue() throws {
        try typePIN(stoppingAtFirstPrompt: true)
    }

    /// Types a PIN at both prompts of `clients pin 2`; with `stoppingAtFirstPrompt`, first stops the process at the
    /// first prompt (SIGTSTP, as Ctrl-Z sends) and continues it (SIGCONT, as `fg` sends).
    private func typePIN(stoppingAtFirstPrompt: Bool) throws {
        let sandbox = Sandbox()
        sandbox.makeSmallLibrary()
        let pty = try PseudoTerminal()
        defer { pty.close() }
        var output: [Int32] = [0, 0]
        var errors: [Int32] = [0, 0]
        try #require(pipe(&output) == 0 && pipe(&errors) == 0)
        let pid = try Self.spawnPIN(sandbox, terminal: pty.terminal, output: output[1], errors: errors[1])
        close(output[1])
        close(errors[1])
        defer {
            close(output[0])
            close(errors[0])
        }
        func readAll(_ descriptor: Int32, until suffix: String? = nil, into text: inout String) {
            var buffer = [UInt8](repeating: 0, count: 512)
            while suffix.map({ !text.hasSuffix($0) }) ?? true {
                let count = read(descriptor, &buffer, buffer.count)
                if count <= 0 { return }
                text += String(decoding: buffer[..<count], as: UTF8.self)
            }
        }
        var said = ""
        for prompt in ["New PIN for Jane Roe (card C-0002): ", "Type it again: "] {
            // Each prompt is written, then echo turned off (which drops what was typed before): type after both.
            readAll(errors[0], until: prompt, into: &said)
            try #require(said.hasSuffix(prompt), "the prompt \(prompt) never came: \(said)")
            Self.waitForEchoOff(pty)
            #expect(!pty.echoes, "echo is on at \(prompt)")
            if stoppingAtFirstPrompt && prompt.hasPrefix("New PIN") {
                kill(pid, SIGTSTP)
                var status: Int32 = 0
                #expect(waitpid(pid, &status, WUNTRACED) == pid)
                #expect(status & 0xff == 0x7f && (status >> 8) & 0xff == SIGTSTP, "not stopped: status \(status)")
                #expect(pty.echoes, "echo is off while the process is stopped")
                kill(pid, SIGCONT)
                Self.waitForEchoOff(pty)
                #expect(!pty.echoes, "echo is on after the process continued")
            }
            _ = "4321\n".withCString { write(pty.main, $0, strlen($0)) }
        }
        var result = ""
        readAll(output[0], into: &result)
        var status: Int32 = 0
        #expect(waitpid(pid, &status, 0) == pid)
        #expect(status == 0)
        #expect(pty.echoes)
        #expect(result == "Set the PIN of client #2 Jane Roe (card C-0002).\n")
    }
}
