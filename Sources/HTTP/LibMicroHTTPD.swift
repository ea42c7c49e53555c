import CMicroHTTPD

/// libmicrohttpd's functions, loaded once, when the first server starts: a command that serves nothing never loads
/// libmicrohttpd and GnuTLS (see Sources/CMicroHTTPD/shim.h). A nil `problem` means every function is there.
nonisolated(unsafe) let microhttpdLoad: (functions: librarycli_mhd_functions, problem: String?) = {
    var table = librarycli_mhd_functions()
    let problem = librarycli_mhd_open(&table).map { String(cString: $0) }
    return (table, problem)
}()

/// The loaded table (used only once `Server` checked `microhttpdLoad.problem`, or by a running server's callbacks).
var mhd: librarycli_mhd_functions { microhttpdLoad.functions }
