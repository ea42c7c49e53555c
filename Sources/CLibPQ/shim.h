#ifndef LIBRARYCLI_CLIBPQ_SHIM_H
#define LIBRARYCLI_CLIBPQ_SHIM_H
#include <libpq-fe.h>
#include <poll.h>

/// A notice processor that drops notices: libpq's default writes them to stderr, which is the program's to use.
static void librarycli_pq_ignore_notice(void *arg, const char *message) {
    (void)arg;
    (void)message;
}

static inline void librarycli_pq_silence_notices(PGconn *conn) {
    PQsetNoticeProcessor(conn, librarycli_pq_ignore_notice, 0);
}

/// The diagnostic field codes of PQresultErrorField (character macros Swift does not import).
static inline int librarycli_pq_diag_sqlstate(void) { return PG_DIAG_SQLSTATE; }
static inline int librarycli_pq_diag_message(void) { return PG_DIAG_MESSAGE_PRIMARY; }
static inline int librarycli_pq_diag_detail(void) { return PG_DIAG_MESSAGE_DETAIL; }
static inline int librarycli_pq_diag_constraint(void) { return PG_DIAG_CONSTRAINT_NAME; }
static inline int librarycli_pq_diag_table(void) { return PG_DIAG_TABLE_NAME; }
static inline int librarycli_pq_diag_column(void) { return PG_DIAG_COLUMN_NAME; }

/// Waits until the connection's socket is readable or `timeout_ms` passes: 1 readable, 0 timed out, -1 error.
static inline int librarycli_pq_wait_readable(PGconn *conn, int timeout_ms) {
    struct pollfd fd;
    fd.fd = PQsocket(conn);
    fd.events = POLLIN;
    fd.revents = 0;
    if (fd.fd < 0) return -1;
    int ready = poll(&fd, 1, timeout_ms);
    return ready < 0 ? -1 : (ready > 0 ? 1 : 0);
}
#endif
