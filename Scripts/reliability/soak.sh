#!/usr/bin/env bash
# Soak test for librarycli: a mixed load of real processes and kill -9 loops, for longer than `swift test` allows.
#
#   Scripts/reliability/soak.sh [SECONDS] [WORKERS]      # defaults: 120 seconds, 8 workers
#
# LIBRARYCLI picks the binary (default: .build/debug/librarycli, else `swift build` first). Phases, each about a
# third of the time:
#   1. mixed load: WORKERS shell loops run random take/return/renew/list for random clients (each seeded);
#      every exit must be 0 or 1.
#   2. kill -9 loop: the same load while a killer sends SIGKILL to random running librarycli processes;
#      exits must be 0, 1 or 137 (killed).
#   3. import kills: `seed --generate 200000` killed once its WAL passes a random size; the book count must move
#      by 0 or 200000.
# After each phase (and each import kill) the invariants are checked with sqlite3: integrity_check, at most one
# open loan per book, no client over their limit, returned_at >= taken_at, the stored book count, and
# `librarycli --json list` agreeing with the stored counts. Exits 1 on any broken invariant or unexpected exit.
set -u
set -o pipefail

SECONDS_TOTAL=${1:-120}
WORKERS=${2:-8}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BIN=${LIBRARYCLI:-$ROOT/.build/debug/librarycli}
if [[ ! -x $BIN ]]; then
    (cd "$ROOT" && swift build --product librarycli) || exit 1
fi
command -v sqlite3 > /dev/null || { echo "soak.sh needs the sqlite3 tool (apt-get install sqlite3)" >&2; exit 2; }

WORK=$(mktemp -d "${TMPDIR:-/tmp}/librarycli-soak-XXXXXX")
trap 'kill $(jobs -p) 2> /dev/null; rm -rf "$WORK"' EXIT
export LIBRARY_DB=$WORK/library.sqlite HOME=$WORK
unset LIBRARY_NOW LIBRARY_CLIENT
PHASE_SECONDS=$((SECONDS_TOTAL / 3))
CLIENTS=8
LIMITS=(5 3 2 1 4 0 5 2)
BOOKS=40
FAILED=0

fail() { echo "BROKEN: $*" >&2; FAILED=1; }

q() { sqlite3 -batch -noheader "$LIBRARY_DB" "$1"; }

check_invariants() {
    local where=$1
    local integrity
    integrity=$(q "PRAGMA integrity_check;")
    [[ $integrity == ok ]] || fail "$where: integrity_check: $integrity"
    local doubled over backwards stats count maxid
    doubled=$(q "SELECT count(*) FROM (SELECT book_id FROM loans WHERE returned_at IS NULL GROUP BY book_id HAVING count(*) > 1);")
    [[ $doubled == 0 ]] || fail "$where: $doubled books with two open loans"
    over=$(q "SELECT count(*) FROM clients c WHERE (SELECT count(*) FROM loans l WHERE l.client_id = c.id AND l.returned_at IS NULL) > c.loan_limit;")
    [[ $over == 0 ]] || fail "$where: $over clients over their limit"
    backwards=$(q "SELECT count(*) FROM loans WHERE returned_at < taken_at;")
    [[ $backwards == 0 ]] || fail "$where: $backwards loans returned before taken"
    stats=$(q "SELECT book_count FROM library_stats;")
    count=$(q "SELECT count(*) FROM books;")
    maxid=$(q "SELECT coalesce(max(id), 0) FROM books;")
    [[ $stats == "$count" && $maxid == "$count" ]] || fail "$where: book_count $stats, count $count, max id $maxid"
    local client held shown total
    for ((client = 1; client <= CLIENTS; client++)); do
        held=$(q "SELECT count(*) FROM loans WHERE client_id = $client AND returned_at IS NULL;")
        shown=$("$BIN" -q --client "$client" --json list | tr -d ' \n' | grep -o '"booksHeld":[0-9]*' | cut -d: -f2)
        [[ $shown == "$held" ]] || fail "$where: client $client holds $held, list --json shows '$shown'"
    done
    total=$("$BIN" -q --json list | tr -d ' \n' | grep -o '"totalCount":[0-9]*' | head -1 | cut -d: -f2)
    [[ $total == "$count" ]] || fail "$where: $count books, list --json shows '$total'"
}

# One worker: random commands until the deadline; one line per command in its log: "<exit> <command>".
worker() {
    local id=$1 deadline=$2 log=$3
    RANDOM=$((id * 7919 + 17))
    local client book roll command code
    while ((SECONDS < deadline)); do
        client=$((RANDOM % CLIENTS + 1))
        book=$((RANDOM % 16 + 1))
        roll=$((RANDOM % 10))
        if ((roll < 4)); then command="take $book"
        elif ((roll < 7)); then command="return $book"
        elif ((roll < 9)); then command="renew $book"
        else command="list"; fi
        # shellcheck disable=SC2086
        "$BIN" -q --client "$client" $command > /dev/null 2> "$log.err"
        code=$?
        echo "$code $command" >> "$log"
        if ((code != 0 && code != 1 && code != 137)); then
            echo "worker $id: $command for client $client exited $code: $(cat "$log.err")" >> "$WORK/unexpected"
        fi
    done
}

run_load() {
    local name=$1 seconds=$2 killer=$3
    local deadline=$((SECONDS + seconds)) start=$SECONDS pids=() i
    for ((i = 0; i < WORKERS; i++)); do
        worker "$i" "$deadline" "$WORK/$name.$i.log" 2> /dev/null &
        pids+=($!)
    done
    local kills=0
    if [[ $killer == yes ]]; then
        while ((SECONDS < deadline)); do
            sleep "0.00$((RANDOM % 9 + 1))"
            local victim
            victim=$(pgrep -P "$(echo "${pids[@]}" | tr ' ' ',')" 2> /dev/null | shuf -n 1)
            if [[ -n $victim ]] && kill -9 "$victim" 2> /dev/null; then kills=$((kills + 1)); fi
        done
    fi
    wait "${pids[@]}"
    local elapsed=$((SECONDS - start)) ops ok refused killed
    ops=$(cat "$WORK/$name".*.log | wc -l)
    ok=$(cat "$WORK/$name".*.log | grep -c '^0 ')
    refused=$(cat "$WORK/$name".*.log | grep -c '^1 ')
    killed=$(cat "$WORK/$name".*.log | grep -c '^137 ')
    if [[ $killer == no && $killed != 0 ]]; then fail "$name: $killed processes died of SIGKILL without a killer"; fi
    echo "$name: $WORKERS processes, $ops commands in ${elapsed}s ($((ops / (elapsed > 0 ? elapsed : 1))) per second):" \
        "$ok ok, $refused refused, $killed killed (kill -9 sent: $kills)"
    check_invariants "$name"
    echo "$name: invariants hold"
}

# The library: CLIENTS clients with mixed limits, BOOKS books.
"$BIN" -q init --empty > /dev/null || exit 1
{
    echo "name,card_number,loan_limit,default"
    for ((i = 0; i < CLIENTS; i++)); do echo "Client $((i + 1)),C-$((i + 1)),${LIMITS[$i]},$([[ $i == 0 ]] && echo yes || echo no)"; done
} > "$WORK/clients.csv"
"$BIN" -q seed --file "$WORK/clients.csv" > /dev/null || exit 1
"$BIN" -q seed --generate "$BOOKS" > /dev/null || exit 1

echo "soak: $SECONDS_TOTAL s, $WORKERS workers, $CLIENTS clients, $BOOKS books, $BIN"
run_load mixed "$PHASE_SECONDS" no
run_load kill9 "$PHASE_SECONDS" yes

# Phase 3: kill -9 of a large import once its WAL passes a random size, each on a copy of the library as phase 2
# left it.
sqlite3 "$LIBRARY_DB" "PRAGMA wal_checkpoint(TRUNCATE);" > /dev/null
cp "$LIBRARY_DB" "$WORK/base.sqlite"
before=$(q "SELECT count(*) FROM books;")
deadline=$((SECONDS + PHASE_SECONDS))
imports=0 survived=0 completed=0
while ((SECONDS < deadline)); do
    rm -f "$LIBRARY_DB" "$LIBRARY_DB-wal" "$LIBRARY_DB-shm"
    cp "$WORK/base.sqlite" "$LIBRARY_DB"
    target=$(((RANDOM % 40 + 1) * 1024 * 1024))
    "$BIN" -q seed --generate 200000 > /dev/null 2>&1 &
    pid=$!
    while kill -0 "$pid" 2> /dev/null && (($(stat -c %s "$LIBRARY_DB-wal" 2> /dev/null || echo 0) < target)); do
        sleep 0.005
    done
    kill -9 "$pid" 2> /dev/null
    wait "$pid" 2> /dev/null
    code=$?
    imports=$((imports + 1))
    # The next librarycli recovers the database after the crash.
    "$BIN" -q list > /dev/null || fail "import $imports: list after the kill exited $?"
    after=$(q "SELECT count(*) FROM books;")
    if ((code == 137)); then survived=$((survived + 1)); fi
    if ((code == 0)); then completed=$((completed + 1)); fi
    ((code == 0 || code == 137)) || fail "import $imports exited $code"
    moved=$((after - before))
    ((moved == 0 || moved == 200000)) || fail "import $imports killed at WAL $((target >> 20)) MiB moved the book count by $moved"
    check_invariants "import $imports"
done
echo "imports: $imports runs of seed --generate 200000 killed at a random WAL size: $survived killed mid-way, $completed completed first; every one left 0 or 200000 books"

if [[ -s $WORK/unexpected ]]; then
    echo "unexpected exits:" >&2
    head -20 "$WORK/unexpected" >&2
    FAILED=1
fi
if ((FAILED)); then
    echo "soak: FAILED" >&2
    exit 1
fi
echo "soak: every invariant held"
