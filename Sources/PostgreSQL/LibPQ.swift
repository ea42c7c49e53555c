import CLibPQ

/// libpq's functions, loaded once, on the first use of PostgreSQL: a program that never connects never loads libpq
/// and what it needs (see Sources/CLibPQ/shim.h). Nil `libpqLoadProblem` means every function is there.
/// The table's layout is shim.h's, compiled into every file of this module that reads it, and an incremental build
/// may not notice a change to shim.h: new functions go at the end of the table (the others keep their offsets), and
/// after a change to it, touch the files of this module (or build clean).
nonisolated(unsafe) let libpqLoad: (functions: librarycli_pq_functions, problem: String?) = {
    var table = librarycli_pq_functions()
    let problem = librarycli_pq_open(&table).map { String(cString: $0) }
    return (table, problem)
}()

/// The loaded table (only used after `PostgreSQLConnection.init` checked `libpqLoad.problem`).
var libpq: librarycli_pq_functions { libpqLoad.functions }
