import CLibPQ

/// libpq's functions, loaded once, on the first use of PostgreSQL: a program that never connects never loads libpq
/// and what it needs (see Sources/CLibPQ/shim.h). Nil `libpqLoadProblem` means every function is there.
nonisolated(unsafe) let libpqLoad: (functions: librarycli_pq_functions, problem: String?) = {
    var table = librarycli_pq_functions()
    let problem = librarycli_pq_open(&table).map { String(cString: $0) }
    return (table, problem)
}()

/// The loaded table (only used after `PostgreSQLConnection.init` checked `libpqLoad.problem`).
var libpq: librarycli_pq_functions { libpqLoad.functions }
