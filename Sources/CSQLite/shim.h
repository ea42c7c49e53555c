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
#endif
