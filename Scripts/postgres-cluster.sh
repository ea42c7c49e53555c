#!/usr/bin/env bash
# Starts and stops a throwaway PostgreSQL cluster for the tests that run against PostgreSQL.
#
#   bash Scripts/postgres-cluster.sh start DIR   # prints one line: the connection URL (libpq form)
#   bash Scripts/postgres-cluster.sh stop DIR    # stops the cluster and removes DIR
#
# DIR is an empty (or missing) folder, such as `mktemp -d` makes; it holds the data (DIR/data), the log and the
# Unix socket. The server listens on that socket and on 127.0.0.1, on a free port the script picks, with trust
# authentication, and trades durability for speed (fsync, synchronous_commit and full_page_writes off): nothing in
# it outlives the tests. The superuser is `postgres`, the database `librarycli`:
#
#   postgresql://postgres@/librarycli?host=%2Ftmp%2Ftmp.AbC123&port=54321
#
# Run as root (as CI does) the server runs as the system user `postgres`, which owns DIR; run as anyone else, as
# that user. PostgreSQL itself is installed when missing, as Scripts/install-deps.sh does its packages: guarded (an
# installed package is never upgraded), as root or through sudo. Everything but the URL goes to stderr.
set -euo pipefail

usage() {
    echo "usage: bash Scripts/postgres-cluster.sh start|stop DIR" >&2
    exit 64
}
[[ $# -eq 2 && ( "$1" == "start" || "$1" == "stop" ) && -n "$2" ]] || usage
command="$1"
dir="$2"
# Marks a folder this script made a cluster in: `stop` removes no other.
marker=".librarycli-postgres-cluster"

# The newest installed server's binaries: Debian keeps them in /usr/lib/postgresql/VERSION/bin, off PATH.
find_bindir() {
    local candidate best="" best_version=-1 version
    for candidate in /usr/lib/postgresql/*/bin; do
        [[ -x "$candidate/initdb" ]] || continue
        version="${candidate#/usr/lib/postgresql/}"
        version="${version%/bin}"
        [[ "$version" =~ ^[0-9]+$ ]] || continue
        if ((version > best_version)); then
            best="$candidate"
            best_version="$version"
        fi
    done
    if [[ -z "$best" ]] && command -v pg_config >/dev/null 2>&1; then
        candidate="$(pg_config --bindir 2>/dev/null || true)"
        [[ -n "$candidate" && -x "$candidate/initdb" ]] && best="$candidate"
    fi
    if [[ -z "$best" ]] && command -v initdb >/dev/null 2>&1; then
        best="$(dirname "$(command -v initdb)")"
    fi
    printf '%s' "$best"
}

# Debian's `postgresql` (the current major version's server and client), when no server is installed: the same
# guarded install as the build's packages. Its words go to stderr; stdout carries the URL alone.
install_postgresql() {
    bash "$(dirname "$0")/install-deps.sh" --postgresql >&2
}

# Runs a server binary as the cluster's owner: `postgres` when we are root (PostgreSQL refuses to run as root).
as_owner() {
    if [[ "$(id -u)" -eq 0 ]]; then
        runuser -u postgres -- "$@"
    else
        "$@"
    fi
}

# Percent-encodes everything but RFC 3986's unreserved characters, byte by byte.
url_encode() {
    local LC_ALL=C text="$1" encoded="" char i
    for ((i = 0; i < ${#text}; i++)); do
        char="${text:i:1}"
        case "$char" in
            [A-Za-z0-9._~-]) encoded+="$char" ;;
            *) encoded+="$(printf '%%%02X' "'$char")" ;;
        esac
    done
    printf '%s' "$encoded"
}

# True when something listens on TCP `port` (IPv4 or IPv6), read from /proc: no ss or netstat needed.
port_in_use() {
    local hex
    hex="$(printf '%04X' "$1")"
    # Column 2 is local_address:port in hex, column 4 the state (0A is LISTEN).
    cat /proc/net/tcp /proc/net/tcp6 2>/dev/null | awk -v port="$hex" '
        $4 == "0A" { n = split($2, a, ":"); if (a[n] == port) found = 1 }
        END { exit found ? 0 : 1 }'
}

stop_cluster() {
    # Best effort on every step: this runs from EXIT traps, and must still remove what it can.
    set +e
    [[ -d "$dir" ]] || return 0
    if [[ ! -e "$dir/$marker" ]] && [[ -n "$(ls -A "$dir" 2>/dev/null)" ]]; then
        echo "error: $dir was not made by 'postgres-cluster.sh start': not removing it" >&2
        return 1
    fi
    if [[ -f "$dir/data/postmaster.pid" ]]; then
        local bindir
        bindir="$(find_bindir)"
        if [[ -n "$bindir" ]]; then
            as_owner "$bindir/pg_ctl" stop -D "$dir/data" -m immediate -w -s >/dev/null 2>&1
        fi
        # pg_ctl gone or failed: the postmaster's pid is the pid file's first line, and it is ours only while that
        # process still runs on this data folder (a stale file's pid may belong to anything by now).
        local pid
        pid="$(head -n 1 "$dir/data/postmaster.pid" 2>/dev/null)"
        if [[ "$pid" =~ ^[0-9]+$ ]] && tr '\0' ' ' 2>/dev/null <"/proc/$pid/cmdline" | grep -qF -- "$dir/data"; then
            kill -QUIT "$pid" 2>/dev/null
            sleep 1
            kill -KILL "$pid" 2>/dev/null
        fi
    fi
    rm -rf "$dir"
    return 0
}

start_cluster() {
    local bindir
    bindir="$(find_bindir)"
    if [[ -z "$bindir" ]]; then
        install_postgresql
        bindir="$(find_bindir)"
        [[ -n "$bindir" ]] || {
            echo "error: no PostgreSQL server binaries (initdb) after installing postgresql" >&2
            exit 1
        }
    fi

    mkdir -p "$dir"
    dir="$(cd "$dir" && pwd -P)"
    if [[ -n "$(ls -A "$dir")" ]]; then
        echo "error: $dir is not empty: give 'start' an empty folder (mktemp -d)" >&2
        exit 1
    fi
    # The socket's path must fit sockaddr_un (107 bytes): DIR/.s.PGSQL.PORT.
    if ((${#dir} > 90)); then
        echo "error: $dir is too long a path for the server's Unix socket; use a shorter one (mktemp -d)" >&2
        exit 1
    fi
    : >"$dir/$marker"
    if [[ "$(id -u)" -eq 0 ]]; then
        id postgres >/dev/null 2>&1 || {
            echo "error: running as root, but there is no 'postgres' user to run the server as" >&2
            exit 1
        }
        chown postgres "$dir"
    fi
    # Any local user may reach the socket in it (the data folder itself stays the owner's only).
    chmod 755 "$dir"

    # C.UTF-8 when the system has it: the text search parser then tells letters from punctuation in every script.
    # (Text columns are COLLATE "C" in the schema, so sorting does not depend on this.)
    local locale=C locales
    locales="$(locale -a 2>/dev/null || true)"
    if grep -qix 'c\.utf-\?8' <<<"$locales"; then
        locale=C.UTF-8
    fi
    if ! as_owner "$bindir/initdb" -D "$dir/data" -U postgres -A trust -E UTF8 --locale="$locale" --no-sync \
        >"$dir/initdb.log" 2>&1; then
        cat "$dir/initdb.log" >&2
        echo "error: initdb failed" >&2
        exit 1
    fi
    cat >>"$dir/data/postgresql.conf" <<EOF

# Scripts/postgres-cluster.sh: a throwaway cluster for tests.
listen_addresses = '127.0.0.1'
unix_socket_directories = '$dir'
fsync = off
synchronous_commit = off
full_page_writes = off
max_connections = 200
EOF

    # A free port: one nothing listens on now, and another try should the server still fail to bind it.
    local port="" attempt
    for attempt in 1 2 3 4 5 6 7 8 9 10; do
        port=$((49152 + (RANDOM * 32768 + RANDOM) % 16000))
        port_in_use "$port" && continue
        [[ -e "$dir/.s.PGSQL.$port" ]] && continue
        # This attempt's messages only (the file stays the server's: as root, postgres writes it).
        [[ -f "$dir/server.log" ]] && : >"$dir/server.log"
        if as_owner "$bindir/pg_ctl" start -D "$dir/data" -l "$dir/server.log" -w -t 60 -s \
            -o "-c port=$port" >/dev/null 2>&1; then
            break
        fi
        if grep -q "could not bind\|could not create listen socket\|Address already in use" "$dir/server.log" \
            2>/dev/null; then
            port=""
            continue
        fi
        cat "$dir/server.log" >&2 2>/dev/null || true
        echo "error: the PostgreSQL server did not start" >&2
        exit 1
    done
    if [[ -z "$port" ]] || [[ ! -f "$dir/data/postmaster.pid" ]]; then
        echo "error: found no free port for PostgreSQL" >&2
        exit 1
    fi

    local psql="$bindir/psql"
    [[ -x "$psql" ]] || psql=psql
    if ! "$psql" -X -q -h "$dir" -p "$port" -U postgres -d postgres -v ON_ERROR_STOP=1 \
        -c "CREATE DATABASE librarycli" >&2; then
        echo "error: could not create the librarycli database" >&2
        exit 1
    fi
    printf 'postgresql://postgres@/librarycli?host=%s&port=%s\n' "$(url_encode "$dir")" "$port"
}

case "$command" in
    start) start_cluster ;;
    stop) stop_cluster ;;
esac
