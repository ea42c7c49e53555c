import SQLite
import Testing

@testable import LibraryCLI

/// An export keeps text as stored, but on a terminal the controls of a title stored with them (by another program, or
/// before they were refused) are shown as U+FFFD, so they cannot act on the terminal.
@Suite("export to a terminal")
struct ExportToTerminalTests {
    @Test("stored escape sequences and C1 controls reach a terminal as U+FFFD, a pipe as stored, with a note")
    func controlsReplacedOnATerminal() throws {
        let sandbox = Sandbox()
        sandbox.makeSmallLibrary()
        let db = try Database(path: sandbox.database)
        try db.execute("UPDATE books SET title = ? WHERE id = 1", ["T\u{1B}]0;PWN\u{07} and \u{9B}2J"])
        let terminal = sandbox.run(["export"], terminal: true)
        #expect(terminal.code == 0)
        #expect(!terminal.out.unicodeScalars.contains { $0 == "\u{1B}" || $0 == "\u{07}" || $0 == "\u{9B}" })
        #expect(terminal.out.contains("T\u{FFFD}]0;PWN\u{FFFD} and \u{FFFD}2J"), "\(terminal.out)")
        #expect(terminal.err.contains("3 control characters"), "\(terminal.err)")
        let piped = sandbox.run(["export"])
        #expect(piped.out.contains("T\u{1B}]0;PWN\u{07} and \u{9B}2J"))
        #expect(!piped.err.contains("control"))
    }

    @Test("a character split across chunks is kept, or replaced whole when it is a C1 control")
    func splitCharacters() {
        var safe = TerminalSafeBytes()
        let bytes =
            safe.cleaned([0x41, 0xC2]) + safe.cleaned([0x9B, 0x42, 0xC2]) + safe.cleaned([0xA9, 0x0A])
            + safe.cleaned([0x09, 0x7F, 0xC2]) + safe.finish()
        #expect(String(decoding: bytes, as: UTF8.self) == "A\u{FFFD}B©\n\t\u{FFFD}\u{FFFD}")
        #expect(safe.replaced == 2)
    }
}
