#ifndef LIBRARYCLI_CMICROHTTPD_SHIM_H
#define LIBRARYCLI_CMICROHTTPD_SHIM_H
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <sys/select.h>
#include <sys/socket.h>
#include <microhttpd.h>

#include <dlfcn.h>

// libmicrohttpd is loaded when a server starts, not when the program starts: linked in, it and GnuTLS (with
// nettle, gmp, p11-kit, idn2...) were most of the dynamic loader's work on every command, `list` included (an empty
// program linked like librarycli: 3.3M instructions without it, 7.9M with it). librarycli_mhd_open fills a table of
// its functions (dlopen of libmicrohttpd.so.12; Debian: libmicrohttpd12, which libmicrohttpd-dev installs); the
// HTTP module keeps the table in a Swift global initialized once, and passes it to the helpers below.
struct librarycli_mhd_functions {
    struct MHD_Daemon *(*MHD_start_daemon)(
        unsigned int flags, uint16_t port, MHD_AcceptPolicyCallback apc, void *apc_cls, MHD_AccessHandlerCallback dh,
        void *dh_cls, ...);
    void (*MHD_stop_daemon)(struct MHD_Daemon *daemon);
    int (*MHD_get_connection_values)(
        struct MHD_Connection *connection, enum MHD_ValueKind kind, MHD_KeyValueIterator iterator, void *iterator_cls);
    enum MHD_Result (*MHD_queue_response)(
        struct MHD_Connection *connection, unsigned int status_code, struct MHD_Response *response);
    void (*MHD_suspend_connection)(struct MHD_Connection *connection);
    void (*MHD_resume_connection)(struct MHD_Connection *connection);
    struct MHD_Response *(*MHD_create_response_from_callback)(
        uint64_t size, size_t block_size, MHD_ContentReaderCallback crc, void *crc_cls,
        MHD_ContentReaderFreeCallback crfc);
    struct MHD_Response *(*MHD_create_response_from_buffer)(
        size_t size, void *buffer, enum MHD_ResponseMemoryMode mode);
    void (*MHD_destroy_response)(struct MHD_Response *response);
    enum MHD_Result (*MHD_add_response_header)(
        struct MHD_Response *response, const char *header, const char *content);
    const union MHD_ConnectionInfo *(*MHD_get_connection_info)(
        struct MHD_Connection *connection, enum MHD_ConnectionInfoType info_type, ...);
    const union MHD_DaemonInfo *(*MHD_get_daemon_info)(
        struct MHD_Daemon *daemon, enum MHD_DaemonInfoType info_type, ...);
};

/// Loads libmicrohttpd and fills `table`: NULL when every function was found, else why not.
static inline const char *librarycli_mhd_open(struct librarycli_mhd_functions *table) {
    void *library = dlopen("libmicrohttpd.so.12", RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) return "libmicrohttpd.so.12 cannot be loaded (install libmicrohttpd12)";
#define LIBRARYCLI_MHD_LOAD(name) \
    *(void **)&table->name = dlsym(library, #name); \
    if (table->name == NULL) return "libmicrohttpd.so.12 has no " #name;
    LIBRARYCLI_MHD_LOAD(MHD_start_daemon)
    LIBRARYCLI_MHD_LOAD(MHD_stop_daemon)
    LIBRARYCLI_MHD_LOAD(MHD_get_connection_values)
    LIBRARYCLI_MHD_LOAD(MHD_queue_response)
    LIBRARYCLI_MHD_LOAD(MHD_suspend_connection)
    LIBRARYCLI_MHD_LOAD(MHD_resume_connection)
    LIBRARYCLI_MHD_LOAD(MHD_create_response_from_callback)
    LIBRARYCLI_MHD_LOAD(MHD_create_response_from_buffer)
    LIBRARYCLI_MHD_LOAD(MHD_destroy_response)
    LIBRARYCLI_MHD_LOAD(MHD_add_response_header)
    LIBRARYCLI_MHD_LOAD(MHD_get_connection_info)
    LIBRARYCLI_MHD_LOAD(MHD_get_daemon_info)
#undef LIBRARYCLI_MHD_LOAD
    return NULL;
}

/// Called once per request with its raw request target (path and query, before MHD decodes it); the return value
/// becomes the request's `con_cls`.
typedef void *(*librarycli_mhd_uri_callback)(void *cls, const char *uri, struct MHD_Connection *connection);

/// MHD_start_daemon is variadic, which Swift cannot call: this passes the options the HTTP module uses.
/// `threads` > 1 starts a pool of that many polling threads; 0 for a limit means none.
static inline struct MHD_Daemon *librarycli_mhd_start(
    const struct librarycli_mhd_functions *table, unsigned int flags, const struct sockaddr *address, unsigned int threads, unsigned int connection_limit,
    unsigned int per_address_limit, unsigned int timeout_seconds, size_t memory_limit,
    MHD_AccessHandlerCallback handler, MHD_RequestCompletedCallback completed, librarycli_mhd_uri_callback uri,
    void *cls) {
    return table->MHD_start_daemon(
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
static inline uint16_t librarycli_mhd_bound_port(
    const struct librarycli_mhd_functions *table, struct MHD_Daemon *daemon) {
    const union MHD_DaemonInfo *info = table->MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
    return info == NULL ? 0 : info->port;
}

/// The client's socket address, or NULL.
static inline const struct sockaddr *librarycli_mhd_client_address(
    const struct librarycli_mhd_functions *table, struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = table->MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    return info == NULL ? NULL : info->client_addr;
}

/// The connection's socket, or -1 when unknown.
static inline int librarycli_mhd_connection_socket(
    const struct librarycli_mhd_functions *table, struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = table->MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
    return info == NULL ? -1 : info->connect_fd;
}

/// MHD_CONTENT_READER_END_OF_STREAM and MHD_SIZE_UNKNOWN are casting macros, which Swift cannot import.
static inline ssize_t librarycli_mhd_end_of_stream(void) { return MHD_CONTENT_READER_END_OF_STREAM; }
static inline ssize_t librarycli_mhd_end_with_error(void) { return MHD_CONTENT_READER_END_WITH_ERROR; }
static inline uint64_t librarycli_mhd_size_unknown(void) { return MHD_SIZE_UNKNOWN; }
#endif
