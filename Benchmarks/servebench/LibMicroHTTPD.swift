import CMicroHTTPD

/// libmicrohttpd's functions, loaded on first use, as the HTTP module loads them (Sources/HTTP/LibMicroHTTPD.swift).
nonisolated(unsafe) let microhttpdLoad: (functions: librarycli_mhd_functions, problem: String?) = {
    var table = librarycli_mhd_functions()
    let problem = librarycli_mhd_open(&table).map { String(cString: $0) }
    return (table, problem)
}()

var mhd: librarycli_mhd_functions { microhttpdLoad.functions }
