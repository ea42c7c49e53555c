import Glibc

// servebench: the helpers of Benchmarks/serve.sh (see BENCHMARKS.md).
//
//   servebench floor --body FILE [--port P] [--threads N]
//       the floor of the serving stack: libmicrohttpd started exactly as `librarycli serve` starts it (the same
//       shim, flags, thread pool and limits), answering every request with FILE's bytes and nothing else
//   servebench streams --port P --tokens FILE --count N --server-pid PID --trigger COMMAND
//       opens N event streams on `librarycli serve` (token i mod the file's lines), reads the server's resident
//       memory before and after, runs COMMAND (a change every screen sees) and times its arrival on every stream

do {
    var arguments = Array(CommandLine.arguments.dropFirst())[...]
    switch arguments.popFirst() {
    case "floor": try FloorServer.run(try Arguments(arguments))
    case "streams": try StreamHolder.run(try Arguments(arguments))
    default:
        throw BenchError("usage: servebench floor --body FILE [--port P] [--threads N] | servebench streams ...")
    }
} catch {
    var message = "servebench: \(error)\n"
    message.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
    exit(1)
}
