#!/usr/bin/env bash
# `librarycli serve` under load, side by side with baselines measured in the same run (issue 12; see BENCHMARKS.md):
#   - GET /v1/screen (page of 20) with wrk at 1, 16 and 64 connections: requests/s, p50 and p99, against the floor
#     of the stack (`servebench floor`: libmicrohttpd started as serve starts it, answering a constant body of the
#     screen's size) and against Datasette (`datasette serve -i`, books.json?_size=20&_shape=array, same file);
#   - take + return pairs over HTTP at 16 connections (each its own client and book) against the in-process
#     store's transactions/s (`librarybench loans`), measured in the same round; then the same pairs with
#     `Prefer: return=minimal` (the outcomes alone, no screen), the floor of a change over HTTP here;
#   - event streams held open (1,000): the server's memory per stream, and how fast a change reaches all of them.
# Every figure is the median of the rounds; every ratio is printed against its target. Nothing here fails on a
# target: it fails when something does not work (a server that does not start, errors or refusals under load,
# a stream that does not get its events).
#
#   Benchmarks/serve.sh                 3 rounds, 10 s per wrk run, 10,000 books, 1,000 streams (about 6 minutes)
#   Benchmarks/serve.sh --quick         1 round, 1 s runs, 200 books, 20 streams: checks the script (seconds)
#   Benchmarks/serve.sh --rounds N      N rounds
#
# Environment: BENCH_SCRATCH (build folder, default /tmp/bench-build), BENCH_CONFIGURATION (release, or debug for a
# smoke run on the debug build), BENCH_OUT (results, default /tmp/librarybench-results; this script writes to
# its serve/ folder), BENCH_DATASETTE (a datasette executable; default: on PATH, else the one in
# BENCH_DATASETTE_VENV, default /tmp/bench-datasette-venv, installed there with pip when missing, except with
# --quick, which skips Datasette when it is not installed). Needs wrk, curl and sqlite3 (installed with apt-get).
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
scratch=${BENCH_SCRATCH:-/tmp/bench-build}
configuration=${BENCH_CONFIGURATION:-release}
out=${BENCH_OUT:-/tmp/librarybench-results}/serve
venv=${BENCH_DATASETTE_VENV:-/tmp/bench-datasette-venv}
quick=0
rounds=""
while [ $# -gt 0 ]; do
    argument=$1
    shift
    case $argument in
    --quick) quick=1 ;;
    --rounds)
        rounds=${1:-}
        shift || true
        [[ $rounds =~ ^[1-9][0-9]*$ ]] || {
            echo "serve.sh: --rounds needs a positive number" >&2
            exit 64
        }
        ;;
    -h | --help)
        sed -n '2,22p' "$0"
        exit 0
        ;;
    *)
        echo "serve.sh: unknown argument '$argument' (try --quick)" >&2
        exit 64
        ;;
    esac
done
if [ $quick = 1 ]; then
    books=200 seconds=1 streams=20 pairs_n=200 default_rounds=1
else
    books=10000 seconds=10 streams=1000 pairs_n=5000 default_rounds=3
fi
rounds=${rounds:-$default_rounds}
connection_counts=(1 16 64)
pair_clients=16
export LIBRARY_NOW=2026-11-29T10:00:00Z NO_COLOR=1

# MARK: - Tools

missing=()
command -v wrk >/dev/null || missing+=(wrk)
command -v curl >/dev/null || missing+=(curl)
command -v sqlite3 >/dev/null || missing+=(sqlite3)
if [ ${#missing[@]} -gt 0 ]; then
    echo "Installing ${missing[*]} with apt-get"
    sudo=""
    [ "$(id -u)" = 0 ] || sudo=sudo
    $sudo apt-get update -qq
    $sudo apt-get install -y -qq "${missing[@]}"
fi
# 1,000 streams need more than 1,000 descriptors, in the server and in the client holding them.
[ "$(ulimit -n)" = unlimited ] || [ "$(ulimit -n)" -ge 4096 ] || ulimit -n 4096 2>/dev/null || ulimit -n "$(ulimit -Hn)"

datasette=${BENCH_DATASETTE:-}
[ -z "$datasette" ] && command -v datasette >/dev/null && datasette=$(command -v datasette)
[ -z "$datasette" ] && [ -x "$venv/bin/datasette" ] && datasette=$venv/bin/datasette
if [ -z "$datasette" ] && [ $quick = 0 ]; then
    echo "Installing Datasette with pip in $venv"
    python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet datasette
    datasette=$venv/bin/datasette
fi

# MARK: - Build

cd "$root"
echo "Building $configuration binaries in $scratch"
for product in librarycli librarybench servebench; do
    swift build -c "$configuration" --scratch-path "$scratch" --product "$product"
done
bin=$(swift build -c "$configuration" --scratch-path "$scratch" --show-bin-path)
cli=$bin/librarycli
bench=$bin/librarybench
servebench=$bin/servebench

mkdir -p "$out"
rm -f "$out"/*.txt "$out"/*.log
results=$out/results.txt
report() { echo "$*" | tee -a "$results"; }

# MARK: - The database

# N generated books; client 1 holds books 1 and 2 (its screen has all three sections); clients 2..17 take and
# return books 101..116 in the pairs; as many clients as streams, one stream each (so no two share a screen).
db=$out/library.sqlite
rm -f "$db" "$db-wal" "$db-shm"
clients=$((streams > pair_clients + 1 ? streams : pair_clients + 1))
echo "Preparing $db: $books books, $clients clients and their tokens"
"$cli" -q --db "$db" init --empty
"$cli" -q --db "$db" seed --generate "$books" --random-seed 1 >/dev/null
{
    echo "name,card_number,loan_limit,default"
    for i in $(seq 1 "$clients"); do echo "Bench Client $i,B-$i,5,$([ "$i" = 1 ] && echo yes || echo no)"; done
} >"$out/clients.csv"
"$cli" -q --db "$db" seed --file "$out/clients.csv" >/dev/null
"$cli" -q --db "$db" --client 1 take 1 2 >/dev/null
: >"$out/tokens.txt"
for i in $(seq 1 "$clients"); do "$cli" -q --db "$db" tokens create --client "$i" >>"$out/tokens.txt"; done
screen_token=$(sed -n 1p "$out/tokens.txt")
sed -n "2,$((pair_clients + 1))p" "$out/tokens.txt" >"$out/pair-tokens.txt"
head -n "$streams" "$out/tokens.txt" >"$out/stream-tokens.txt"
# Datasette opens the file immutable: everything must be in the main file, not in the WAL.
sqlite3 "$db" "PRAGMA wal_checkpoint(TRUNCATE);" >/dev/null

# MARK: - Servers

pids=()
cleanup() {
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
}
trap cleanup EXIT

# listening_port LOG PID: the port a server in the background listens on, once it says so.
source "$root/Benchmarks/listening.sh"

# librarycli serve as a user starts it (4 threads, the access log on, written to a file).
"$cli" --db "$db" serve --port 0 2>"$out/serve.log" &
serve_pid=$!
pids+=("$serve_pid")
serve_port=$(listening_port "$out/serve.log" "$serve_pid")
curl -sf -H "Authorization: Bearer $screen_token" "http://127.0.0.1:$serve_port/v1/screen" >"$out/screen.json"
screen_bytes=$(wc -c <"$out/screen.json")

"$servebench" floor --body "$out/screen.json" --port 0 --threads 4 2>"$out/floor.log" &
floor_pid=$!
pids+=("$floor_pid")
floor_port=$(listening_port "$out/floor.log" "$floor_pid")

servers=(floor librarycli)
datasette_path="/library/books.json?_size=20&_shape=array"
if [ -n "$datasette" ]; then
    datasette_port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
    "$datasette" serve -i "$db" --host 127.0.0.1 --port "$datasette_port" >"$out/datasette.log" 2>&1 &
    pids+=("$!")
    for _ in $(seq 1 200); do
        curl -sf "http://127.0.0.1:$datasette_port$datasette_path" >"$out/datasette.json" 2>/dev/null && break
        sleep 0.1
    done
    [ -s "$out/datasette.json" ] || {
        echo "serve.sh: Datasette did not answer; its log:" >&2
        cat "$out/datasette.log" >&2
        exit 1
    }
    datasette_version=$("$datasette" --version)
    servers+=(datasette)
else
    echo "Datasette is not installed: its column is skipped (Benchmarks/serve.sh without --quick installs it)"
fi

url_of() {
    case $1 in
    floor) echo "http://127.0.0.1:$floor_port/v1/screen" ;;
    librarycli) echo "http://127.0.0.1:$serve_port/v1/screen" ;;
    datasette) echo "http://127.0.0.1:$datasette_port$datasette_path" ;;
    esac
}

# Runs wrk with serve.lua; prints its WRK line; fails on socket errors or a status over 399.
wrk_run() { # seconds connections threads url, with WRK_* in the environment
    local line
    line=$(wrk -d "$1s" -c "$2" -t "$3" --timeout 10s -s "$root/Benchmarks/serve.lua" "$4" | grep '^WRK ') || {
        echo "serve.sh: wrk failed on $4" >&2
        return 1
    }
    if ! grep -q ' errors=0 non2xx=0$' <<<"$line"; then
        echo "serve.sh: errors under load on $4: $line" >&2
        return 1
    fi
    echo "$line"
}
field() { sed -n "s/.* $1=\([^ ]*\).*/\1/p" <<<"$2"; }
median() { sort -g | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

machine="$(nproc) cores, $(sed -n 's/^model name[^:]*: //p' /proc/cpuinfo | head -1), load average $(cut -d' ' -f1-3 /proc/loadavg) at the start"
report "== librarycli serve ($configuration build) vs the floor and Datasette: $rounds round(s), $seconds s per wrk run =="
report "   $machine; $books books; screen $screen_bytes bytes${datasette:+; $datasette_version}"

# Warm-up: a short run on each server.
for server in "${servers[@]}"; do
    WRK_TOKEN=$screen_token wrk_run 1 16 2 "$(url_of "$server")" >/dev/null
done

# MARK: - Rounds

# wrk stops with a take or a return in flight, and the server finishes it after wrk has printed: wait until the pairs'
# loans stop changing (at most 10 s) before counting them or returning what is left on loan.
pairs_settle() {
    local last="" now
    for _ in $(seq 1 50); do
        now=$(sqlite3 "$db" "SELECT count(*), count(returned_at) FROM loans WHERE client_id > 1;")
        [ "$now" = "$last" ] && return 0
        last=$now
        sleep 0.2
    done
    echo "serve.sh: the pairs' loans were still changing 10 s after wrk stopped" >&2
    return 1
}
open_pairs_back() { # returns the books the pairs left on loan (wrk stops between a take and its return)
    local client book
    sqlite3 "$db" "SELECT client_id, book_id FROM loans WHERE returned_at IS NULL AND client_id > 1;" >"$out/open-pairs.txt"
    while IFS='|' read -r client book; do
        "$cli" -q --db "$db" --client "$client" return "$book" >/dev/null 2>"$out/return.err" || {
            echo "serve.sh: could not return book $book of client $client after the pairs:" >&2
            cat "$out/return.err" >&2
            return 1
        }
    done <"$out/open-pairs.txt"
}

# Take + return pairs with wrk at $pair_clients connections (Prefer header $1, none when empty); checks the loans made
# against the requests, returns what is left on loan, and appends the figures to $out/$2.txt and the ratio to the
# in-process store's transactions to $out/ratio-$2.txt. $3 names the run in the log.
pairs_run() {
    local loans_before loans_made requests line
    loans_before=$(sqlite3 "$db" "SELECT count(*) FROM loans WHERE client_id > 1;")
    line=$(WRK_MODE=pairs WRK_TOKENS=$out/pair-tokens.txt WRK_FIRST_BOOK=101 WRK_PREFER=$1 \
        wrk_run "$seconds" "$pair_clients" "$pair_clients" "http://127.0.0.1:$serve_port")
    pairs_settle
    loans_made=$(($(sqlite3 "$db" "SELECT count(*) FROM loans WHERE client_id > 1;") - loans_before))
    requests=$(field requests "$line")
    # Every take wrk counted made a loan; a connection's takes are at most one more than its returns, and a take in
    # flight when wrk stopped may have made one more: so between half the requests and that plus two per client.
    if [ $((loans_made - (requests + 1) / 2)) -lt 0 ] || [ $((loans_made - requests / 2)) -gt $((2 * pair_clients)) ]; then
        echo "serve.sh: $requests requests but $loans_made loans made" >&2
        exit 1
    fi
    open_pairs_back
    echo "   $3, $pair_clients connections: $line; $loans_made loans made"
    echo "$(field rps "$line") $(field p50_us "$line") $(field p99_us "$line")" >>"$out/$2.txt"
    awk -v a="$(field rps "$line")" -v b="$store_tps" 'BEGIN { print a / b }' >>"$out/ratio-$2.txt"
}

for round in $(seq 1 "$rounds"); do
    echo "-- round $round of $rounds (load average $(cut -d' ' -f1-3 /proc/loadavg))"
    for connections in "${connection_counts[@]}"; do
        threads=$((connections < 2 ? connections : 2))
        for server in "${servers[@]}"; do
            line=$(WRK_TOKEN=$screen_token wrk_run "$seconds" "$connections" "$threads" "$(url_of "$server")")
            echo "   $server, $connections connections: $line"
            echo "$(field rps "$line") $(field p50_us "$line") $(field p99_us "$line")" >>"$out/screen-$server-$connections.txt"
            eval "round_rps_$server=$(field rps "$line")"
        done
        # The ratios of this round: each side measured next to the other, so a busier moment changes both.
        awk -v a="$round_rps_librarycli" -v b="$round_rps_floor" 'BEGIN { print a / b }' >>"$out/ratio-floor-$connections.txt"
        if [ -n "$datasette" ]; then
            awk -v a="$round_rps_librarycli" -v b="$round_rps_datasette" 'BEGIN { print a / b }' >>"$out/ratio-datasette-$connections.txt"
        fi
        tail -1 "$out/screen-librarycli-$connections.txt" | awk '{ print $3 / $2 }' >>"$out/ratio-p99-$connections.txt"
    done

    # The in-process store, then the same transactions over HTTP.
    store_line=$("$bench" loans --n "$pairs_n" --runs 1 | grep 'LibraryStore.take + returnBooks')
    store_tps=$(sed -n 's/.*  \([0-9,]*\) transactions\/s.*/\1/p' <<<"$store_line" | tr -d ,)
    echo "$store_tps" >>"$out/store-tps.txt"
    pairs_run "" pairs "take + return over HTTP"
    echo "   in-process store: $store_tps transactions/s"
    # The same with `Prefer: return=minimal`: the outcomes alone, no screen read or answered (the floor of a change
    # over HTTP on this machine).
    pairs_run "return=minimal" pairs-minimal "the same, Prefer: return=minimal"

    # Event streams: one per client, a book added by another process reaches all of them.
    line=$("$servebench" streams --port "$serve_port" --tokens "$out/stream-tokens.txt" --count "$streams" \
        --server-pid "$serve_pid" --timeout 120 \
        --trigger "$cli -q --db $db books add --title 'Streams round $round' --author Bench --year 2026 --pages 1" |
        tee -a "$out/streams.log" | grep '^RESULT ')
    echo "   $line"
    echo "$(field bytes_per_stream "$line") $(field change_last_ms "$line") $(field rss_before_kib "$line") $(field rss_open_kib "$line")" >>"$out/streams.txt"
done

# MARK: - Report

column_median() { awk -v c="$2" '{ print $c }' "$1" | median; }
report ""
report "GET /v1/screen (page of 20; Datasette: books.json?_size=20&_shape=array), medians of $rounds round(s)"
printf '%-12s %-11s %12s %10s %10s %8s\n' connections server requests/s p50_ms p99_ms p99/p50 | tee -a "$results"
for connections in "${connection_counts[@]}"; do
    for server in "${servers[@]}"; do
        file=$out/screen-$server-$connections.txt
        rps=$(column_median "$file" 1)
        p50=$(column_median "$file" 2)
        p99=$(column_median "$file" 3)
        awk -v c="$connections" -v s="$server" -v r="$rps" -v a="$p50" -v b="$p99" 'BEGIN {
            printf "%-12s %-11s %12.0f %10.3f %10.3f %7.1fx\n", c, s, r, a / 1000, b / 1000, b / a }' | tee -a "$results"
    done
done

# Prints "label | value | target | verdict"; a target ">= X" or "<= X", or "-".
verdict() { # label value target
    awk -v l="$1" -v v="$2" -v t="$3" 'BEGIN {
        if (t == "-") { printf "%-58s %9.3fx | -\n", l, v; exit }
        split(t, p, " ")
        ok = (p[1] == ">=") ? (v >= p[2]) : (v <= p[2])
        printf "%-58s %9.3fx | target %s | %s\n", l, v, t, (ok ? "met" : "NOT MET") }' | tee -a "$results"
}
report ""
report "ratios (each the median of the rounds' ratios: both sides measured in the same round)"
for connections in "${connection_counts[@]}"; do
    target="-"
    [ "$connections" = 16 ] && target=">= 0.40"
    verdict "screen requests/s, librarycli / floor, $connections connections" \
        "$(median <"$out/ratio-floor-$connections.txt")" "$target"
done
if [[ " ${servers[*]} " == *" datasette "* ]]; then
    for connections in "${connection_counts[@]}"; do
        target="-"
        [ "$connections" = 16 ] && target=">= 10"
        verdict "screen requests/s, librarycli / Datasette, $connections connections" \
            "$(median <"$out/ratio-datasette-$connections.txt")" "$target"
    done
else
    report "screen requests/s, librarycli / Datasette: skipped (Datasette not installed)"
fi
for connections in "${connection_counts[@]}"; do
    verdict "screen p99 / p50, librarycli, $connections connections" "$(median <"$out/ratio-p99-$connections.txt")" "<= 10"
done
for connections in "${connection_counts[@]}"; do
    verdict "  floor's p99 / p50 (what this machine allows), $connections connections" \
        "$(awk '{ print $3 / $2 }' "$out/screen-floor-$connections.txt" | median)" "-"
done
pairs_tps=$(column_median "$out/pairs.txt" 1)
store_tps=$(median <"$out/store-tps.txt")
report "$(printf 'take + return over HTTP, %d connections: %.0f transactions/s (p50 %.2f ms, p99 %.2f ms)' \
    "$pair_clients" "$pairs_tps" "$(column_median "$out/pairs.txt" 2 | awk '{ print $1 / 1000 }')" \
    "$(column_median "$out/pairs.txt" 3 | awk '{ print $1 / 1000 }')")"
report "in-process store (librarybench loans, one thread): $store_tps transactions/s"
verdict "take + return transactions/s, HTTP at $pair_clients connections / in-process" \
    "$(median <"$out/ratio-pairs.txt")" ">= 0.5"
report "$(printf 'the same with Prefer: return=minimal (outcomes alone, no screen): %.0f transactions/s (p50 %.2f ms, p99 %.2f ms)' \
    "$(column_median "$out/pairs-minimal.txt" 1)" "$(column_median "$out/pairs-minimal.txt" 2 | awk '{ print $1 / 1000 }')" \
    "$(column_median "$out/pairs-minimal.txt" 3 | awk '{ print $1 / 1000 }')")"
verdict "  the floor of a change over HTTP here: Prefer: return=minimal / in-process" \
    "$(median <"$out/ratio-pairs-minimal.txt")" "-"
report "$streams event streams held, one client each (a fresh screen each), per round:"
while read -r bytes last before open; do
    report "$(awk -v b="$bytes" -v l="$last" -v r0="$before" -v r1="$open" 'BEGIN {
        printf "   server RSS %d KiB -> %d KiB with them open: %.1f KiB a stream; a change reached the last in %.1f ms", r0, r1, b / 1024, l }')"
done <"$out/streams.txt"
report "$(awk -v b="$(column_median "$out/streams.txt" 1)" -v l="$(column_median "$out/streams.txt" 2)" 'BEGIN {
    printf "   medians: %.1f KiB a stream; a change reached all of them in %.1f ms (target 250 ms: %s)", b / 1024, l, (l <= 250 ? "met" : "NOT MET") }')"
report ""
report "Results in $results (wrk lines in the round logs above; server logs beside it)."
