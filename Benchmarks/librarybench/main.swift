import Glibc

// librarybench: librarycli's benchmarks, each measured against a baseline in the same run (see BENCHMARKS.md).
// Build and run in release: swift run -c release librarybench [scenario] [--n N] [--runs R] [--url URL]

do {
    let options = try Options(Array(CommandLine.arguments.dropFirst()))
    #if DEBUG
        print("note: a debug build; figures mean little (use swift run -c release librarybench)")
    #endif
    for scenario in options.scenarios {
        switch scenario {
        case "import": try ImportBenchmark.run(options)
        case "loans": try LoanBenchmark.run(options)
        case "diff": try DiffBenchmark.run(options)
        case "search": try SearchBenchmark.run(options)
        case "pgloans": try PostgreSQLLoanBenchmark.run(options)
        default: try ScreenBenchmark.run(options)
        }
        print("")
    }
} catch is HelpRequested {
    print(Options.usage)
} catch {
    var message = "librarybench: \(error)\n"
    message.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
    exit(1)
}
