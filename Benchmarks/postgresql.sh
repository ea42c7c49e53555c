#!/usr/bin/env bash
# librarycli on PostgreSQL (issue 15), each figure side by side with a baseline measured in the same run (see
# BENCHMARKS.md):
#   1. take + return in process: `librarybench pgloans` (LibraryStore on PostgreSQL vs the same statements through
#      libpq's C API, prepared once, same transactions); target >= 0.7x the baseline's transactions/s;
#   2. `librarycli seed --generate N` into an empty migrated database (the whole process) vs `psql` copying the same
#      rows (the ones librarycli wrote, exported with \copy ... TO) into another empty migrated database: the book
#      count raised to N, then one `\copy books (...) FROM file`, in one transaction; target within 3x;
#   3. `librarycli serve` on PostgreSQL vs on SQLite, the same library (made in SQLite, then `librarycli copy` to
#      PostgreSQL): GET /v1/screen and take + return pairs over HTTP at 16 connections with wrk (serve.lua).
# It starts a throwaway PostgreSQL cluster of its own (a Unix socket only, in a fresh folder under /tmp; fsync and
# synchronous_commit on unless told otherwise) and stops and removes it on every exit path, unless
# BENCH_POSTGRES_URL names a server to use instead (its user must create and drop databases; this script's are
# named librarybench_*). Every ratio is printed against its target; nothing here fails on a figure, only when
# something does not work.
#
#   Benchmarks/postgresql.sh                    3 rounds: pgloans 1,000 pairs x 5 runs; seed 100,000 books x 3
#                                               and 1,000,000 once; serve 10,000 books, 10 s per wrk run (~10 min)
#   Benchmarks/postgresql.sh --quick            tiny sizes, one round: checks the script (well under a minute built)
#   Benchmarks/postgresql.sh --rounds N         N rounds (import at 100,000 and serve)
#   Benchmarks/postgresql.sh --synchronous-commit off
#                                               the cluster with synchronous_commit=off (both sides of every ratio):
#                                               commits no longer wait for the WAL's fsync, as SQLite's WAL with
#                                               synchronous=NORMAL does not
#   Benchmarks/postgresql.sh --large N          the one-off import size (default 1,000,000; 0 skips it)
#
# Environment: BENCH_SCRATCH (build folder, default /tmp/bench-build), BENCH_CONFIGURATION (release, or debug for a
# smoke run), BENCH_OUT (results, default /tmp/librarybench-results; this script writes to its postgresql/ folder),
# BENCH_POSTGRES_URL (a server to use instead of a cluster of its own). Needs PostgreSQL's server binaries (initdb,
# pg_ctl; installed with apt-get when missing and no URL is given), psql, wrk, curl and sqlite3.
set -euo pipefail
shopt -s inherit_errexit

root=$(cd "$(dirname "$0")/.." && pwd)
scratch=${BENCH_SCRATCH:-/tmp/bench-build}
configuration=${BENCH_CONFIGURATION:-release}
out=${BENCH_OUT:-/tmp/librarybench-results}/postgresql
server_url=${BENCH_POSTGRES_URL:-}
quick=0
rounds=""
synchronous_commit=on
large=""
while [ $# -gt 0 ]; do
    argument=$1
    shift
    case $argument in
    --quick) quick=1 ;;
    --rounds)
        rounds=${1:-}
        shift || true
        [[ $rounds =~ ^[1-9][0-9]*$ ]] || {
            echo "postgresql.sh: --rounds needs a positive number" >&2
            exit 64
        }
        ;;
    --synchronous-commit)
        synchronous_commit=${1:-}
        shift || true
        [[ $synchronous_commit =~ ^(on|off)$ ]] || {
            echo "postgresql.sh: --synchronous-commit takes on or off" >&2
            exit 64
        }
        ;;
    --large)
        large=${1:-}
        shift || true
        [[ $large =~ ^[0-9]+$ ]] || {
            echo "postgresql.sh: --large needs a number of books (0 skips the one-off import)" >&2
            exit 64
        }
        ;;
    -h | --help)
        sed -n '2,33p' "$0"
        exit 0
        ;;
    *)
        echo "postgresql.sh: unknown argument '$argument' (try --quick)" >&2
        exit 64
        ;;
    esac
done
if [ $quick = 1 ]; then
    loan_pairs=50 loan_runs=1 import_books=2000 default_large=0 books=200 seconds=1 default_rounds=1
else
    loan_pairs=1000 loan_runs=7 import_books=100000 default_large=1000000 books=10000 seconds=10 default_rounds=3
fi
rounds=${rounds:-$default_rounds}
large=${large:-$default_large}
pair_clients=16
export LIBRARY_NOW=2026-11-29T10:00:00Z NO_COLOR=1
[ -n "$server_url" ] && [ "$synchronous_commit" = off ] && {
    echo "postgresql.sh: --synchronous-commit is for the script's own cluster, not BENCH_POSTGRES_URL" >&2
    exit 64
}

# MARK: - Tools

sudo=""
[ "$(id -u)" = 0 ] || sudo=sudo
missing=()
command -v wrk >/dev/null || missing+=(wrk)
command -v curl >/dev/null || missing+=(curl)
command -v sqlite3 >/dev/null || missing+=(sqlite3)
command -v psql >/dev/null || missing+=(postgresql-client)
if [ -z "$server_url" ] && ! compgen -G "/usr/lib/postgresql/*/bin/initdb" >/dev/null; then missing+=(postgresql); fi
if [ ${#missing[@]} -gt 0 ]; then
    echo "Installing ${missing[*]} with apt-get"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-upgrade "${missing[@]}" >/dev/null
fi

# MARK: - Build

cd "$root"
echo "Building $configuration binaries in $scratch"
for product in librarycli librarybench; do
    swift build -c "$configuration" --scratch-path "$scratch" --product "$product"
done
bin=$(swift build -c "$configuration" --scratch-path "$scratch" --show-bin-path)
cli=$bin/librarycli
bench=$bin/librarybench

mkdir -p "$out"
rm -f "$out"/*.txt "$out"/*.log
results=$out/results.txt
report() { echo "$*" | tee -a "$results"; }
median() { sort -g | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
field() { sed -n "s/.* $1=\([^ ]*\).*/\1/p" <<<"$2"; }

# MARK: - The PostgreSQL server

# Everything made here goes on every exit path: the servers started, the databases made on a given server, the
# cluster started (stopped at once, its folder removed).
pids=()
cluster_dir=""
bindir=""
# The databases this script makes (librarybench pgloans drops its own).
made_databases=(librarybench_empty librarybench_seed librarybench_copy librarybench_serve)
cleanup() {
    set +e
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null; done
    for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null; done
    if [ -n "$server_url" ] && [ -z "$cluster_dir" ]; then
        for name in "${made_databases[@]}"; do psql_admin -c "DROP DATABASE IF EXISTS $name WITH (FORCE)" 2>/dev/null; done
    fi
    if [ -n "$cluster_dir" ]; then
        [ -f "$cluster_dir/data/postmaster.pid" ] && as_owner "$bindir/pg_ctl" stop -D "$cluster_dir/data" -m immediate -w >/dev/null 2>&1
        rm -rf "$cluster_dir"
    fi
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# Runs a server binary as the cluster's owner: `postgres` when we are root (PostgreSQL refuses to run as root).
as_owner() {
    if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

if [ -z "$server_url" ]; then
    bindir=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
    [ -x "$bindir/initdb" ] || {
        echo "postgresql.sh: no PostgreSQL server binaries in /usr/lib/postgresql/*/bin" >&2
        exit 1
    }
    cluster_dir=$(mktemp -d /tmp/librarybench-pg.XXXXXX)
    [ "$(id -u)" = 0 ] && chown postgres "$cluster_dir"
    chmod 755 "$cluster_dir"
    echo "Starting a throwaway PostgreSQL cluster in $cluster_dir (synchronous_commit=$synchronous_commit)"
    locale=C
    locale -a 2>/dev/null | grep -qix 'c\.utf-\?8' && locale=C.UTF-8
    as_owner "$bindir/initdb" -D "$cluster_dir/data" -A trust -U postgres -E UTF8 --locale=$locale \
        >"$cluster_dir/initdb.log" 2>&1 || {
        cat "$cluster_dir/initdb.log" >&2
        exit 1
    }
    # A socket only, in the cluster's own folder: no port can clash with another server.
    as_owner "$bindir/pg_ctl" -D "$cluster_dir/data" -l "$cluster_dir/server.log" -w -t 60 start -o \
        "-c listen_addresses='' -c unix_socket_directories=$cluster_dir -c port=54332 -c max_connections=300 -c shared_buffers=512MB -c synchronous_commit=$synchronous_commit" \
        >/dev/null || {
        cat "$cluster_dir/server.log" >&2
        exit 1
    }
    server_url="postgresql://postgres@/postgres?host=$(sed 's|/|%2F|g' <<<"$cluster_dir")&port=54332"
    psql_bin=$bindir/psql
else
    psql_bin=$(command -v psql)
fi
# The URL of database $1 on the same server (the URL's path replaced).
database_url() { sed -E "s#^(postgres(ql)?://[^/?]*)(/[^?]*)?#\1/$1#" <<<"$server_url"; }
psql_admin() { "$psql_bin" -X -q -v ON_ERROR_STOP=1 "$server_url" "$@"; }
psql_on() { # database, psql arguments...
    local name=$1
    shift
    "$psql_bin" -X -q -v ON_ERROR_STOP=1 "$(database_url "$name")" "$@"
}
# A fresh database $1, a copy of $2 when given (dropped first when it exists).
fresh_database() {
    psql_admin -c "DROP DATABASE IF EXISTS $1 WITH (FORCE)" 2>/dev/null
    psql_admin -c "CREATE DATABASE $1${2:+ TEMPLATE $2}"
}
checkpoint() { psql_admin -c "CHECKPOINT" 2>/dev/null || true; }
server_version=$(psql_admin -Atc "SHOW server_version")
server_settings=$(psql_admin -Atc "SELECT string_agg(name || '=' || current_setting(name), ', ' ORDER BY name)
    FROM pg_settings WHERE name IN ('fsync', 'synchronous_commit', 'shared_buffers', 'wal_level', 'max_wal_size')")

machine="$(nproc) cores, $(sed -n 's/^model name[^:]*: //p' /proc/cpuinfo | head -1), load average $(cut -d' ' -f1-3 /proc/loadavg) at the start"
report "== librarycli on PostgreSQL ($configuration build): $rounds round(s) =="
report "   $machine"
report "   PostgreSQL $server_version over a Unix socket: $server_settings"

# Prints "label | value | target | verdict"; a target ">= X" or "<= X", or "-".
verdict() { # label value target
    awk -v l="$1" -v v="$2" -v t="$3" 'BEGIN {
        if (t == "-") { printf "%-70s %8.3fx | -\n", l, v; exit }
        split(t, p, " ")
        ok = (p[1] == ">=") ? (v >= p[2]) : (v <= p[2])
        printf "%-70s %8.3fx | target %s | %s\n", l, v, t, (ok ? "met" : "NOT MET") }' | tee -a "$results"
}

# MARK: - 1. take + return in process

report ""
report "-- 1. take + return in process (librarybench pgloans --n $loan_pairs --runs $loan_runs)"
"$bench" pgloans --url "$server_url" --n "$loan_pairs" --runs "$loan_runs" | tee "$out/pgloans.log" | sed 's/^/   /'
sed 's/^/   /' "$out/pgloans.log" >>"$results"
loans_line=$(grep '^RESULT pgloans ' "$out/pgloans.log")

# MARK: - 2. seed --generate N vs psql \copy of the same rows

columns="id, title, author, year, pages, description, isbn, status, search_title, search_author, search_description"
template=librarybench_empty
subject=librarybench_seed
baseline=librarybench_copy
fresh_database "$template"
"$cli" -q --db "$(database_url "$template")" migrate >/dev/null
rows=$out/rows.copy

milliseconds() { echo $(($(date +%s%N) / 1000000)); }
# Times one side of the import into a fresh copy of the empty database (after a checkpoint); prints milliseconds.
import_subject() { # books
    fresh_database "$subject" "$template"
    checkpoint
    local start
    start=$(milliseconds)
    "$cli" -q --db "$(database_url "$subject")" seed --generate "$1" --random-seed 1 >/dev/null
    echo $(($(milliseconds) - start))
    [ "$(psql_on "$subject" -Atc "SELECT count(*) FROM books")" = "$1" ] || {
        echo "postgresql.sh: librarycli did not write $1 books" >&2
        exit 1
    }
}
import_baseline() { # books
    fresh_database "$baseline" "$template"
    checkpoint
    local start
    start=$(milliseconds)
    psql_on "$baseline" -1 -c "UPDATE library_stats SET book_count = $1 WHERE id = 1" -c "\\copy books ($columns) FROM '$rows'"
    echo $(($(milliseconds) - start))
    [ "$(psql_on "$baseline" -Atc "SELECT count(*) FROM books")" = "$1" ] || {
        echo "postgresql.sh: psql did not copy $1 books" >&2
        exit 1
    }
}
# `import_rounds BOOKS ROUNDS`: librarycli first (its books are the baseline's rows), then the order flips every
# round. Appends "librarycli_ms psql_ms" lines to import-BOOKS.txt.
import_rounds() {
    local n=$1 count=$2 round a b
    : >"$out/import-$n.txt"
    for round in $(seq 1 "$count"); do
        if [ $((round % 2)) = 1 ]; then
            a=$(import_subject "$n")
            if [ "$round" = 1 ]; then
                rm -f "$rows"
                psql_on "$subject" -c "\\copy (SELECT $columns FROM books ORDER BY id) TO '$rows'"
            fi
            b=$(import_baseline "$n")
        else
            b=$(import_baseline "$n")
            a=$(import_subject "$n")
        fi
        echo "   $n books, round $round: librarycli seed $a ms, psql \\copy $b ms ($(awk -v a="$a" -v b="$b" 'BEGIN { printf "%.2fx", a / b }'))"
        echo "$a $b" >>"$out/import-$n.txt"
    done
    psql_admin -c "DROP DATABASE IF EXISTS $subject WITH (FORCE)" -c "DROP DATABASE IF EXISTS $baseline WITH (FORCE)"
}

report ""
report "-- 2. seed --generate N into an empty migrated database vs psql: UPDATE library_stats + \\copy books FROM file"
import_rounds "$import_books" "$rounds"
import_sizes=("$import_books")
if [ "$large" -gt 0 ]; then
    echo "   $large books, once (a run takes about a minute on 2 cores)"
    import_rounds "$large" 1
    import_sizes+=("$large")
fi
rm -f "$rows"

# MARK: - 3. serve on PostgreSQL vs on SQLite

# The library of serve.sh: N generated books, client 1 holding books 1 and 2, clients 2..17 taking and returning
# books 101..116 in the pairs, a token each; made in SQLite, then copied whole (ids, tokens) to PostgreSQL.
echo "Preparing the served library: $books books, $((pair_clients + 1)) clients and their tokens"
db=$out/library.sqlite
rm -f "$db" "$db-wal" "$db-shm"
"$cli" -q --db "$db" init --empty
"$cli" -q --db "$db" seed --generate "$books" --random-seed 1 >/dev/null
{
    echo "name,card_number,loan_limit,default"
    for i in $(seq 1 $((pair_clients + 1))); do echo "Bench Client $i,B-$i,5,$([ "$i" = 1 ] && echo yes || echo no)"; done
} >"$out/clients.csv"
"$cli" -q --db "$db" seed --file "$out/clients.csv" >/dev/null
"$cli" -q --db "$db" --client 1 take 1 2 >/dev/null
: >"$out/tokens.txt"
for i in $(seq 1 $((pair_clients + 1))); do "$cli" -q --db "$db" tokens create --client "$i" >>"$out/tokens.txt"; done
screen_token=$(sed -n 1p "$out/tokens.txt")
sed -n "2,$((pair_clients + 1))p" "$out/tokens.txt" >"$out/pair-tokens.txt"
served=librarybench_serve
fresh_database "$served"
pg_db=$(database_url "$served")
"$cli" -q --db "$db" copy --from "$db" --to "$pg_db" >/dev/null
psql_on "$served" -c "VACUUM (ANALYZE)"

# listening_port LOG PID: the port a server in the background listens on, once it says so.
source "$root/Benchmarks/listening.sh"
# Both servers as a user starts them (4 threads, the access log on, to a file), side by side.
"$cli" --db "$db" serve --port 0 2>"$out/serve-sqlite.log" &
pids+=("$!")
sqlite_port=$(listening_port "$out/serve-sqlite.log" "$!")
"$cli" --db "$pg_db" serve --port 0 2>"$out/serve-postgresql.log" &
pids+=("$!")
postgresql_port=$(listening_port "$out/serve-postgresql.log" "$!")
# The same library answers the same screen on both.
for server in sqlite postgresql; do
    port_var=${server}_port
    curl -sf -H "Authorization: Bearer $screen_token" "http://127.0.0.1:${!port_var}/v1/screen" >"$out/screen-$server.json"
done
cmp -s "$out/screen-sqlite.json" "$out/screen-postgresql.json" || {
    echo "postgresql.sh: the two servers answer different screens ($out/screen-*.json)" >&2
    exit 1
}
screen_bytes=$(wc -c <"$out/screen-sqlite.json")

# Runs wrk with serve.lua; prints its WRK line; fails on socket errors or a status over 399.
wrk_run() { # seconds connections threads url, with WRK_* in the environment
    local line
    line=$(wrk -d "$1s" -c "$2" -t "$3" --timeout 10s -s "$root/Benchmarks/serve.lua" "$4" | grep '^WRK ') || {
        echo "postgresql.sh: wrk failed on $4" >&2
        return 1
    }
    if ! grep -q ' errors=0 non2xx=0$' <<<"$line"; then
        echo "postgresql.sh: errors under load on $4: $line" >&2
        return 1
    fi
    echo "$line"
}
open_loans() { # server: the pairs' loans made so far, and the ones open
    if [ "$1" = sqlite ]; then
        sqlite3 "$db" "SELECT count(*) FROM loans WHERE client_id > 1;"
    else
        psql_on "$served" -Atc "SELECT count(*) FROM loans WHERE client_id > 1"
    fi
}
# Returns the books a pairs run left on loan (wrk stops between a take and its return); then none is left open.
open_pairs() { # server
    if [ "$1" = sqlite ]; then
        sqlite3 "$db" "SELECT client_id, book_id FROM loans WHERE returned_at IS NULL AND client_id > 1;"
    else
        psql_on "$served" -Atc "SELECT client_id || '|' || book_id FROM loans WHERE returned_at IS NULL AND client_id > 1"
    fi
}
give_back() { # server
    local target=$db
    [ "$1" = postgresql ] && target=$pg_db
    while IFS='|' read -r client book; do
        [ -n "$client" ] && "$cli" -q --db "$target" --client "$client" return "$book" >/dev/null
    done <<<"$(open_pairs "$1")"
    [ -z "$(open_pairs "$1")" ] || {
        echo "postgresql.sh: $1: loans still open after the pairs: $(open_pairs "$1" | tr '\n' ' ')" >&2
        exit 1
    }
}

report ""
report "-- 3. serve on PostgreSQL vs on SQLite: $books books, screen $screen_bytes bytes, $seconds s per wrk run, $pair_clients connections"
for server in sqlite postgresql; do # warm-up
    port_var=${server}_port
    WRK_TOKEN=$screen_token wrk_run 1 16 2 "http://127.0.0.1:${!port_var}/v1/screen" >/dev/null
done
for round in $(seq 1 "$rounds"); do
    echo "   round $round of $rounds (load average $(cut -d' ' -f1-3 /proc/loadavg))"
    order=(sqlite postgresql)
    [ $((round % 2)) = 0 ] && order=(postgresql sqlite)
    for server in "${order[@]}"; do
        port_var=${server}_port
        line=$(WRK_TOKEN=$screen_token wrk_run "$seconds" 16 2 "http://127.0.0.1:${!port_var}/v1/screen")
        echo "   GET /v1/screen, $server: $line"
        echo "$(field rps "$line") $(field p50_us "$line") $(field p99_us "$line")" >>"$out/screen-$server.txt"
    done
    for server in "${order[@]}"; do
        port_var=${server}_port
        before=$(open_loans "$server")
        line=$(WRK_MODE=pairs WRK_TOKENS=$out/pair-tokens.txt WRK_FIRST_BOOK=101 \
            wrk_run "$seconds" "$pair_clients" "$pair_clients" "http://127.0.0.1:${!port_var}")
        sleep 0.5 # the requests still in flight when wrk stopped are answered
        made=$(($(open_loans "$server") - before))
        requests=$(field requests "$line")
        # Every take counted made a loan; a take in flight when wrk stopped may have made one more (as serve.sh).
        if [ $((made - (requests + 1) / 2)) -lt 0 ] || [ $((made - requests / 2)) -gt $((2 * pair_clients)) ]; then
            echo "postgresql.sh: $server: $requests requests but $made loans made" >&2
            exit 1
        fi
        give_back "$server"
        echo "   take + return pairs, $server: $line; $made loans made"
        echo "$(field rps "$line") $(field p50_us "$line") $(field p99_us "$line")" >>"$out/pairs-$server.txt"
    done
    for kind in screen pairs; do
        paste "$out/$kind-postgresql.txt" "$out/$kind-sqlite.txt" | tail -1 | awk '{ print $1 / $4 }' >>"$out/ratio-$kind.txt"
    done
done

# MARK: - Report

column_median() { awk -v c="$2" '{ print $c }' "$1" | median; }
report ""
report "ratios (each the median of the rounds' ratios: both sides measured in the same round)"
verdict "take + return in process, LibraryStore / libpq C API (transactions/s)" "$(field ratio "$loans_line")" ">= 0.7"
for n in "${import_sizes[@]}"; do
    a=$(column_median "$out/import-$n.txt" 1)
    b=$(column_median "$out/import-$n.txt" 2)
    report "$(printf 'seed --generate %d: librarycli %.2f s, psql \\copy %.2f s (medians of %d)' "$n" \
        "$(awk -v v="$a" 'BEGIN { print v / 1000 }')" "$(awk -v v="$b" 'BEGIN { print v / 1000 }')" \
        "$(wc -l <"$out/import-$n.txt")")"
    verdict "seed --generate $n, librarycli time / psql \\copy time" \
        "$(awk '{ print $1 / $2 }' "$out/import-$n.txt" | median)" "<= 3"
done
for kind in screen pairs; do
    for server in sqlite postgresql; do
        file=$out/$kind-$server.txt
        report "$(printf '%-48s %10.0f requests/s (p50 %.2f ms, p99 %.2f ms)' "$kind on $server, $([ $kind = screen ] && echo "GET /v1/screen" || echo "take + return")" \
            "$(column_median "$file" 1)" "$(column_median "$file" 2 | awk '{ print $1 / 1000 }')" \
            "$(column_median "$file" 3 | awk '{ print $1 / 1000 }')")"
    done
done
verdict "GET /v1/screen requests/s, PostgreSQL / SQLite, 16 connections" "$(median <"$out/ratio-screen.txt")" "-"
verdict "take + return requests/s over HTTP, PostgreSQL / SQLite, 16 connections" "$(median <"$out/ratio-pairs.txt")" "-"
report ""
report "Results in $results (server logs beside it)."
