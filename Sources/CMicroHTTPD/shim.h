#ifndef LIBRARYCLI_CMICROHTTPD_SHIM_H
#define LIBRARYCLI_CMICROHTTPD_SHIM_H
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <sys/select.h>
#include <sys/socket.h>
#include <microhttpd.h>

/// Called once per request with its raw request target (path and query, before MHD decodes it); the return value
/// becomes the request's `con_cls`.
typedef void *(*librarycli_mhd_uri_callback)(void *cls, const char *uri, struct MHD_Connection *connection);

/// MHD_start_daemon is variadic, which Swift cannot call: this passes the options the HTTP module uses.
/// `threads` > 1 starts a pool of that many polling threads; 0 for a limit means none.
static inline struct MHD_Daemon *librarycli_mhd_start(
    unsigned int flags, const struct sockaddr *address, unsigned int threads, unsigned int connection_limit,
    unsigned int per_address_limit, unsigned int timeout_seconds, size_t memory_limit,
    MHD_AccessHandlerCallback handler, MHD_RequestCompletedCallback completed, librarycli_mhd_uri_callback uri,
    void *cls) {
    return MHD_start_daemon(
        flags, 0, NULL, NULL, handler, cls,
        MHD_OPTION_SOCK_ADDR, address,
        MHD_OPTION_THREAD_POOL_SIZE, threads,
        MHD_OPTION_CONNECTION_LIMIT, connection_limit,
        MHD_OPTION_PER_IP_CONNECTION_LIMIT, per_address_limit,
        MHD_OPTION_CONNECTION_TIMEOUT, timeout_seconds,
        MHD_OPTION_CONNECTION_MEMORY_LIMIT, memory_limit,
        MHD_OPTION_NOTIFY_COMPLETED, completed, cls,
        MHD_OPTION_URI_LOG_CALLBACK, uri, cls,
        MHD_OPTION_END);
}

/// The port the daemon listens on (the one the system picked when asked for port 0); 0 when unknown.
static inline uint16_t librarycli_mhd_bound_port(struct MHD_Daemon *daemon) {
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
    return info == NULL ? 0 : info->port;
}

/// The client's socket address, or NULL.
static inline const struct sockaddr *librarycli_mhd_client_address(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    return info == NULL ? NULL : info->client_addr;
}

/// MHD_CONTENT_READER_END_OF_STREAM and MHD_SIZE_UNKNOWN are casting macros, which Swift cannot import.
static inline ssize_t librarycli_mhd_end_of_stream(void) { return MHD_CONTENT_READER_END_OF_STREAM; }
static inline ssize_t librarycli_mhd_end_with_error(void) { return MHD_CONTENT_READER_END_WITH_ERROR; }
static inline uint64_t librarycli_mhd_size_unknown(void) { return MHD_SIZE_UNKNOWN; }
#endif
