// libFuzzer harness for ArgumentParsing, compiled together with Sources/ArgumentParsing/*.swift and librarycli's own
// command line (Sources/LibraryCLI/CommandLineSpec.swift, its import removed; see run.sh). The input is split at NUL
// bytes into arguments; parsing, and the help or error text of the outcome, must never crash.

// MARK: - Entry point

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzArguments(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = size == 0 ? [] : Array(UnsafeBufferPointer(start: data, count: size))
    let arguments = bytes.split(separator: 0, omittingEmptySubsequences: false).map {
        String(decoding: $0, as: UTF8.self)
    }
    let parser = ArgumentParser(root: CommandLineSpec.root)
    let outcome = parser.parse(arguments)
    let width = bytes.first.map { Int($0) } ?? 80
    _ = parser.output(for: outcome, width: width)
    if case .command(let parsed) = outcome {
        _ = parser.usage(for: parsed.path)
        _ = try? parsed.positiveIntegers("book-id")
        _ = try? parsed.integer("width", in: 1...1000)
    }
    return 0
}
