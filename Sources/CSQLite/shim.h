#ifndef LIBRARYCLI_CSQLITE_SHIM_H
#define LIBRARYCLI_CSQLITE_SHIM_H
#include <sqlite3.h>

/// sqlite3_db_config is variadic, which Swift cannot call: these wrap the two options we use.
static inline int librarycli_sqlite3_db_config_int(sqlite3 *db, int op, int value, int *result) {
    return sqlite3_db_config(db, op, value, result);
}

/// SQLITE_TRANSIENT is a macro casting -1 to a function pointer, which Swift cannot import.
static inline sqlite3_destructor_type librarycli_sqlite3_transient(void) {
    return SQLITE_TRANSIENT;
}

/// sqlite3_config is variadic too. Turns off SQLite's memory statistics, which take a process-wide mutex around every
/// allocation; callable only before SQLite initializes (it then returns SQLITE_MISUSE and changes nothing).
static inline int librarycli_sqlite3_config_no_memory_statistics(void) {
    return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
}
#endif
