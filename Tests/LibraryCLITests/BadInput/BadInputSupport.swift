import Foundation
import Testing

/// The corpus of bad command lines and bad input files (project issue 7): every case names its expected exit code
/// and a fragment of its message, and proves the database did not change.
enum BadInputTests {
    /// The exit codes the README documents; 70 (internal error) is among them but is always a bug.
    static let documentedCodes: Set<Int32> = [0, 1, 64, 65, 66, 70, 73, 74, 75]

    /// The database of `Sandbox.makeSmallLibrary()` with John Doe holding book 1, made once and copied into each
    /// case's sandbox (making it afresh for each of 200 cases would take seconds).
    static let template: [String: Data] = {
        let sandbox = Sandbox()
        sandbox.makeSmallLibrary()
        sandbox.run(["take", "1"])
        var files: [String: Data] = [:]
        for name in (try? FileManager.default.contentsOfDirectory(atPath: sandbox.directory)) ?? [] {
            files[name] = FileManager.default.contents(atPath: sandbox.directory + "/" + name)
        }
        return files
    }()

    /// A sandbox holding a copy of the template library.
    static func sandbox() throws -> Sandbox {
        let sandbox = Sandbox()
        for (name, data) in template {
            try data.write(to: URL(fileURLWithPath: sandbox.directory + "/" + name))
        }
        return sandbox
    }

    /// The files in the sandbox's directory, to prove a failed command created none.
    static func listing(_ sandbox: Sandbox) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: sandbox.directory)) ?? []).sorted()
    }

    /// Checks what every failed run must do: a documented code other than 70, nothing on standard output, the
    /// expected code and message fragment.
    static func expectFailure(_ result: RunResult, code: Int32, message: String, _ what: String) {
        // Messages are wrapped to the width: compare with every run of white space as one space. Booleans keep a
        // failure's report short when an argument is megabytes long.
        let error = oneLine(result.err)
        let shown = String(error.prefix(300))
        let documented = documentedCodes.contains(result.code)
        #expect(documented, "\(what): undocumented exit code \(result.code)")
        let isInternal = result.code == 70
        #expect(!isInternal, "\(what): internal error: \(shown)")
        let sameCode = result.code == code
        #expect(sameCode, "\(what): exit \(result.code), stderr: \(shown)")
        let hasMessage = error.contains(oneLine(message))
        #expect(hasMessage, "\(what): stderr lacks \"\(message)\": \(shown)")
        let quiet = result.out.isEmpty
        #expect(quiet, "\(what): a failed command wrote to standard output")
    }

    /// The text with each run of white space as one space.
    static func oneLine(_ text: String) -> String {
        text.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
    }
}
