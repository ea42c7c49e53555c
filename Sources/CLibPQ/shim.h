#ifndef LIBRARYCLI_CLIBPQ_SHIM_H
#define LIBRARYCLI_CLIBPQ_SHIM_H
// libpq's declarations (Debian: libpq-dev puts them in /usr/include/postgresql; elsewhere they may be at the top).
#if __has_include(<postgresql/libpq-fe.h>)
#include <postgresql/libpq-fe.h>
#else
#include <libpq-fe.h>
#endif
#include <dlfcn.h>
#include <poll.h>
#include <stddef.h>

// libpq is loaded when the first PostgreSQL connection is made, not when the program starts: linked in, libpq and
// what it needs (OpenSSL, Kerberos, LDAP, SASL) doubled the start-up work of every command, PostgreSQL or not
// (the dynamic loader's relocations: 7.9M -> 15.6M instructions). Each function below calls libpq's own through a
// pointer looked up once (dlopen of the runtime library, libpq.so.5; Debian: libpq5, which libpq-dev installs).
// The table is filled by librarycli_pq_open (no state here: each Swift file importing a header gets its own copy
// of its static functions and their statics).

struct librarycli_pq_functions {
    PGconn * (*PQconnectdb)(const char *conninfo);
    PQconninfoOption * (*PQconninfoParse)(const char *conninfo, char **errmsg);
    void (*PQconninfoFree)(PQconninfoOption *connOptions);
    void (*PQfinish)(PGconn *conn);
    ConnStatusType (*PQstatus)(const PGconn *conn);
    PGTransactionStatusType (*PQtransactionStatus)(const PGconn *conn);
    int (*PQserverVersion)(const PGconn *conn);
    char * (*PQerrorMessage)(const PGconn *conn);
    int (*PQsocket)(const PGconn *conn);
    PQnoticeProcessor (*PQsetNoticeProcessor)(PGconn *conn, PQnoticeProcessor proc, void *arg);
    PGresult * (*PQexec)(PGconn *conn, const char *query);
    PGresult * (*PQprepare)(PGconn *conn, const char *stmtName, const char *query, int nParams, const Oid *paramTypes);
    PGresult * (*PQexecPrepared)(PGconn *conn, const char *stmtName, int nParams, const char *const *paramValues, const int *paramLengths, const int *paramFormats, int resultFormat);
    PGresult * (*PQgetResult)(PGconn *conn);
    int (*PQconsumeInput)(PGconn *conn);
    PGnotify * (*PQnotifies)(PGconn *conn);
    int (*PQputCopyData)(PGconn *conn, const char *buffer, int nbytes);
    int (*PQputCopyEnd)(PGconn *conn, const char *errormsg);
    ExecStatusType (*PQresultStatus)(const PGresult *res);
    char * (*PQresultErrorField)(const PGresult *res, int fieldcode);
    int (*PQntuples)(const PGresult *res);
    int (*PQnfields)(const PGresult *res);
    char * (*PQcmdStatus)(PGresult *res);
    char * (*PQcmdTuples)(PGresult *res);
    char * (*PQgetvalue)(const PGresult *res, int tup_num, int field_num);
    int (*PQgetisnull)(const PGresult *res, int tup_num, int field_num);
    void (*PQclear)(PGresult *res);
    void (*PQfreemem)(void *ptr);
    // Functions added later go last, so the ones above keep their offsets (see Sources/PostgreSQL/LibPQ.swift).
    char * (*PQpass)(const PGconn *conn);
    char * (*PQuser)(const PGconn *conn);
};

/// Loads libpq and fills `table` with its functions: NULL when all were found, else why not. The caller keeps the
/// table (librarycli's PostgreSQL module does, in a Swift global initialized once).
static inline const char *librarycli_pq_open(struct librarycli_pq_functions *table) {
    void *library = dlopen("libpq.so.5", RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) return "libpq.so.5 cannot be loaded (install libpq5)";
    *(void **)&table->PQconnectdb = dlsym(library, "PQconnectdb");
    if (table->PQconnectdb == NULL) return "libpq.so.5 has no PQconnectdb";
    *(void **)&table->PQconninfoParse = dlsym(library, "PQconninfoParse");
    if (table->PQconninfoParse == NULL) return "libpq.so.5 has no PQconninfoParse";
    *(void **)&table->PQconninfoFree = dlsym(library, "PQconninfoFree");
    if (table->PQconninfoFree == NULL) return "libpq.so.5 has no PQconninfoFree";
    *(void **)&table->PQfinish = dlsym(library, "PQfinish");
    if (table->PQfinish == NULL) return "libpq.so.5 has no PQfinish";
    *(void **)&table->PQstatus = dlsym(library, "PQstatus");
    if (table->PQstatus == NULL) return "libpq.so.5 has no PQstatus";
    *(void **)&table->PQtransactionStatus = dlsym(library, "PQtransactionStatus");
    if (table->PQtransactionStatus == NULL) return "libpq.so.5 has no PQtransactionStatus";
    *(void **)&table->PQserverVersion = dlsym(library, "PQserverVersion");
    if (table->PQserverVersion == NULL) return "libpq.so.5 has no PQserverVersion";
    *(void **)&table->PQerrorMessage = dlsym(library, "PQerrorMessage");
    if (table->PQerrorMessage == NULL) return "libpq.so.5 has no PQerrorMessage";
    *(void **)&table->PQsocket = dlsym(library, "PQsocket");
    if (table->PQsocket == NULL) return "libpq.so.5 has no PQsocket";
    *(void **)&table->PQsetNoticeProcessor = dlsym(library, "PQsetNoticeProcessor");
    if (table->PQsetNoticeProcessor == NULL) return "libpq.so.5 has no PQsetNoticeProcessor";
    *(void **)&table->PQexec = dlsym(library, "PQexec");
    if (table->PQexec == NULL) return "libpq.so.5 has no PQexec";
    *(void **)&table->PQprepare = dlsym(library, "PQprepare");
    if (table->PQprepare == NULL) return "libpq.so.5 has no PQprepare";
    *(void **)&table->PQexecPrepared = dlsym(library, "PQexecPrepared");
    if (table->PQexecPrepared == NULL) return "libpq.so.5 has no PQexecPrepared";
    *(void **)&table->PQgetResult = dlsym(library, "PQgetResult");
    if (table->PQgetResult == NULL) return "libpq.so.5 has no PQgetResult";
    *(void **)&table->PQconsumeInput = dlsym(library, "PQconsumeInput");
    if (table->PQconsumeInput == NULL) return "libpq.so.5 has no PQconsumeInput";
    *(void **)&table->PQnotifies = dlsym(library, "PQnotifies");
    if (table->PQnotifies == NULL) return "libpq.so.5 has no PQnotifies";
    *(void **)&table->PQputCopyData = dlsym(library, "PQputCopyData");
    if (table->PQputCopyData == NULL) return "libpq.so.5 has no PQputCopyData";
    *(void **)&table->PQputCopyEnd = dlsym(library, "PQputCopyEnd");
    if (table->PQputCopyEnd == NULL) return "libpq.so.5 has no PQputCopyEnd";
    *(void **)&table->PQresultStatus = dlsym(library, "PQresultStatus");
    if (table->PQresultStatus == NULL) return "libpq.so.5 has no PQresultStatus";
    *(void **)&table->PQresultErrorField = dlsym(library, "PQresultErrorField");
    if (table->PQresultErrorField == NULL) return "libpq.so.5 has no PQresultErrorField";
    *(void **)&table->PQntuples = dlsym(library, "PQntuples");
    if (table->PQntuples == NULL) return "libpq.so.5 has no PQntuples";
    *(void **)&table->PQnfields = dlsym(library, "PQnfields");
    if (table->PQnfields == NULL) return "libpq.so.5 has no PQnfields";
    *(void **)&table->PQcmdStatus = dlsym(library, "PQcmdStatus");
    if (table->PQcmdStatus == NULL) return "libpq.so.5 has no PQcmdStatus";
    *(void **)&table->PQcmdTuples = dlsym(library, "PQcmdTuples");
    if (table->PQcmdTuples == NULL) return "libpq.so.5 has no PQcmdTuples";
    *(void **)&table->PQgetvalue = dlsym(library, "PQgetvalue");
    if (table->PQgetvalue == NULL) return "libpq.so.5 has no PQgetvalue";
    *(void **)&table->PQgetisnull = dlsym(library, "PQgetisnull");
    if (table->PQgetisnull == NULL) return "libpq.so.5 has no PQgetisnull";
    *(void **)&table->PQclear = dlsym(library, "PQclear");
    if (table->PQclear == NULL) return "libpq.so.5 has no PQclear";
    *(void **)&table->PQfreemem = dlsym(library, "PQfreemem");
    if (table->PQfreemem == NULL) return "libpq.so.5 has no PQfreemem";
    *(void **)&table->PQpass = dlsym(library, "PQpass");
    if (table->PQpass == NULL) return "libpq.so.5 has no PQpass";
    *(void **)&table->PQuser = dlsym(library, "PQuser");
    if (table->PQuser == NULL) return "libpq.so.5 has no PQuser";
    return NULL;
}

/// A notice processor that drops notices: libpq's default writes them to stderr, which is the program's to use.
static void librarycli_pq_ignore_notice(void *arg, const char *message) {
    (void)arg;
    (void)message;
}

static inline void librarycli_pq_silence_notices(const struct librarycli_pq_functions *table, PGconn *conn) {
    table->PQsetNoticeProcessor(conn, librarycli_pq_ignore_notice, 0);
}

/// The diagnostic field codes of PQresultErrorField (character macros Swift does not import).
static inline int librarycli_pq_diag_sqlstate(void) { return PG_DIAG_SQLSTATE; }
static inline int librarycli_pq_diag_message(void) { return PG_DIAG_MESSAGE_PRIMARY; }
static inline int librarycli_pq_diag_detail(void) { return PG_DIAG_MESSAGE_DETAIL; }
static inline int librarycli_pq_diag_constraint(void) { return PG_DIAG_CONSTRAINT_NAME; }
static inline int librarycli_pq_diag_table(void) { return PG_DIAG_TABLE_NAME; }
static inline int librarycli_pq_diag_column(void) { return PG_DIAG_COLUMN_NAME; }

/// Waits until the connection's socket is readable or `timeout_ms` passes: 1 readable, 0 timed out, -1 error.
static inline int librarycli_pq_wait_readable(const struct librarycli_pq_functions *table, PGconn *conn, int timeout_ms) {
    struct pollfd fd;
    fd.fd = table->PQsocket(conn);
    fd.events = POLLIN;
    fd.revents = 0;
    if (fd.fd < 0) return -1;
    int ready = poll(&fd, 1, timeout_ms);
    return ready < 0 ? -1 : (ready > 0 ? 1 : 0);
}
#endif
