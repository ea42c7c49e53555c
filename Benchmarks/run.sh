#!/usr/bin/env bash
# librarycli's benchmarks: librarybench's scenarios, then whole-process figures with hyperfine, each side by side
# with a baseline measured in the same run (see BENCHMARKS.md).
#
#   Benchmarks/run.sh            the real run (1,000 and 1,000,000 books; about 15 minutes on 2 cores), then
#                                Benchmarks/serve.sh (the HTTP service under wrk; about 6 minutes more), then
#                                Benchmarks/postgresql.sh (PostgreSQL on a throwaway cluster; about 10 minutes more)
#   Benchmarks/run.sh --quick    tiny sizes, one run each: checks that the scripts work (about a minute once built)
#   Benchmarks/run.sh --large N  the real run with N books as the large size and librarybench's N (e.g. 100000)
#
# Environment: BENCH_SCRATCH (release build folder, default /tmp/bench-build), BENCH_OUT (results and databases,
# default /tmp/librarybench-results), BENCH_GOODBOOKS (goodbooks-10k books.csv; default ../shared/data when present,
# else a generated catalog of 10,000 books). Needs hyperfine, sqlite3 and GNU time (installed with apt-get).
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
scratch=${BENCH_SCRATCH:-/tmp/bench-build}
out=${BENCH_OUT:-/tmp/librarybench-results}
quick=0
large_override=""
while [ $# -gt 0 ]; do
    argument=$1
    shift
    case $argument in
    --quick) quick=1 ;;
    --large)
        large_override=${1:-}
        shift || true
        [[ $large_override =~ ^[1-9][0-9]*$ ]] || {
            echo "run.sh: --large needs a positive number of books" >&2
            exit 64
        }
        ;;
    -h | --help)
        sed -n '2,12p' "$0"
        exit 0
        ;;
    *)
        echo "run.sh: unknown argument '$argument' (try --quick)" >&2
        exit 64
        ;;
    esac
done

if [ $quick = 1 ]; then
    small=100 large=2000 page=50 runs=1 warmup=0 startup_runs=1 benchargs=(--n 1000 --runs 1)
else
    small=1000 large=1000000 page=20000 runs=30 warmup=3 startup_runs=200 benchargs=()
fi
# --large N: N books for the large database, the bulk runs and librarybench's scenarios (3 runs each).
[ -n "$large_override" ] && large=$large_override page=$(((large + 49) / 50)) benchargs=(--n "$large_override" --runs 3)
# The bulk runs (seed, import): fewer, since one takes seconds.
if [ $quick = 1 ]; then bulk_runs=1; else bulk_runs=3; fi
export LIBRARY_NOW=2026-11-29T10:00:00Z NO_COLOR=1 COLUMNS=80

# MARK: - Tools

missing=()
command -v hyperfine >/dev/null || missing+=(hyperfine)
command -v sqlite3 >/dev/null || missing+=(sqlite3)
[ -x /usr/bin/time ] || missing+=(time)
if [ ${#missing[@]} -gt 0 ]; then
    echo "Installing ${missing[*]} with apt-get"
    sudo=""
    [ "$(id -u)" = 0 ] || sudo=sudo
    $sudo apt-get update -qq
    $sudo apt-get install -y -qq "${missing[@]}"
fi

# MARK: - Build

cd "$root"
echo "Building release binaries in $scratch"
swift build -c release --scratch-path "$scratch" --product librarybench
swift build -c release --scratch-path "$scratch" --product librarycli
cli=$(swift build -c release --scratch-path "$scratch" --show-bin-path)/librarycli
bench=$(swift build -c release --scratch-path "$scratch" --show-bin-path)/librarybench

mkdir -p "$out"
results="$out/results.txt"
: >"$results"
report() { echo "$*" | tee -a "$results"; }

# MARK: - librarybench

report "== librarybench ${benchargs[*]:-} =="
"$bench" all "${benchargs[@]}" | tee -a "$results"

# MARK: - Databases

# A database of N seeded books (seed 1) and one client, the default.
make_db() {
    local path=$1 count=$2
    rm -f "$path" "$path-wal" "$path-shm"
    "$cli" -q --db "$path" init --empty >/dev/null
    "$cli" -q --db "$path" clients add "Bench Client" >/dev/null
    "$cli" -q --db "$path" seed --generate "$count" --random-seed 1 >/dev/null
}
# And 10,000 books, beside the large database for the search's growth (issue 14: 1M vs 10k books).
search_small=10000
[ $quick = 1 ] && search_small=$small
echo "Seeding databases of $small, $search_small and $large books in $out"
small_db="$out/books-$small.sqlite"
large_db="$out/books-$large.sqlite"
search_small_db="$out/books-$search_small.sqlite"
make_db "$small_db" "$small"
make_db "$large_db" "$large"
[ "$search_small" != "$small" ] && make_db "$search_small_db" "$search_small"

# What `librarycli list` reads, in one read transaction: the default client, the client's summary, their open loans,
# page 1 of the books with a LEFT JOIN on open loans, and the book count.
list_sql="$out/list.sql"
cat >"$list_sql" <<'SQL'
BEGIN;
SELECT c.id FROM settings s JOIN clients c ON c.id = CAST(s.value AS INTEGER) WHERE s.key = 'default_client_id';
SELECT c.id, c.name, c.card_number, c.loan_limit, c.created_at FROM clients c WHERE c.id = 1;
SELECT count(*), ifnull(sum(due_at < '2026-11-29T10:00:00Z'), 0) FROM loans WHERE client_id = 1 AND returned_at IS NULL;
SELECT l.id, l.book_id, l.client_id, l.taken_at, l.due_at, l.returned_at, l.renewals,
       b.id, b.title, b.author, b.year, b.pages, b.description, b.isbn, b.status
FROM loans l JOIN books b ON b.id = l.book_id WHERE l.client_id = 1 AND l.returned_at IS NULL ORDER BY l.taken_at, l.id;
SELECT b.id, b.title, b.author, b.year, b.pages, b.description, b.isbn, b.status, l.client_id, l.due_at
FROM books b LEFT JOIN loans l ON l.book_id = b.id AND l.returned_at IS NULL WHERE b.id > 0 ORDER BY b.id LIMIT 20;
SELECT book_count FROM library_stats WHERE id = 1;
COMMIT;
SQL
# A bare FTS5 query of the words `librarycli list --search "tanaka lantern"` searches: folded, prefix strings, ranked.
search_sql="$out/search.sql"
cat >"$search_sql" <<'SQL'
SELECT rowid FROM book_search WHERE book_search MATCH '"tanaka"* "lantern"*' ORDER BY rank LIMIT 20;
SQL
# The transactions of `librarycli take 5` and `librarycli return 5` (the CLI also reads and prints the screen).
take_sql="$out/take.sql"
cat >"$take_sql" <<'SQL'
PRAGMA foreign_keys=ON;
BEGIN IMMEDIATE;
SELECT c.id, c.name, c.card_number, c.loan_limit, c.created_at FROM clients c WHERE c.id = 1;
SELECT b.id, b.title, b.author, b.year, b.pages, b.description, b.isbn, b.status FROM books b WHERE b.id = 5;
SELECT l.id FROM loans l WHERE l.book_id = 5 AND l.returned_at IS NULL;
SELECT count(*) FROM loans WHERE client_id = 1 AND returned_at IS NULL;
INSERT INTO loans (book_id, client_id, taken_at, due_at) VALUES (5, 1, '2026-11-29T10:00:00Z', '2026-12-13T10:00:00Z');
COMMIT;
SQL
return_sql="$out/return.sql"
cat >"$return_sql" <<'SQL'
PRAGMA foreign_keys=ON;
BEGIN IMMEDIATE;
UPDATE loans SET returned_at = '2026-11-29T10:00:00Z' WHERE book_id = 5 AND client_id = 1 AND returned_at IS NULL;
COMMIT;
SQL

# MARK: - hyperfine

# Runs hyperfine on the commands in up to 5 rounds (the runs shared out among them, all commands in each round), so
# that a host that slows down or speeds up during the measurement weighs on every command alike; sets `lines` to
# "median_ms min_ms max_ms round_1_median_ms ... round_R_median_ms" per command, in order: the median of the rounds'
# medians, the least and the most of all runs, then each round's median.
measure() {
    local name=$1
    shift
    local rounds=$((runs < 5 ? runs : 5))
    [ "$rounds" -lt 1 ] && rounds=1
    local per=$((runs / rounds)) round csv first_warmup=$warmup
    : >"$out/$name.log"
    : >"$out/$name.rounds"
    for round in $(seq 1 "$rounds"); do
        csv="$out/$name-$round.csv"
        # The warm-up runs once, before the first round; later rounds warm up with one run when they have several.
        [ "$round" -gt 1 ] && first_warmup=$((warmup > 0 && per > 1 ? 1 : 0))
        hyperfine --style none --warmup "$first_warmup" --runs "$per" --export-csv "$csv" "$@" >>"$out/$name.log" 2>&1 || {
            cat "$out/$name.log" >&2
            return 1
        }
        awk -F, 'NR > 1 { printf "%s%.3f,%.3f,%.3f", (NR > 2 ? " " : ""), $4 * 1000, $7 * 1000, $8 * 1000 }
            END { print "" }' "$csv" >>"$out/$name.rounds"
    done
    awk '{ for (c = 1; c <= NF; c++) { split($c, v, ","); m[c, NR] = v[1]
               if (NR == 1 || v[2] < lo[c]) lo[c] = v[2]; if (NR == 1 || v[3] > hi[c]) hi[c] = v[3] }
           commands = NF }
         END { for (c = 1; c <= commands; c++) {
                   n = 0; for (r = 1; r <= NR; r++) sorted[++n] = m[c, r]
                   for (i = 2; i <= n; i++) { x = sorted[i]; for (j = i - 1; j >= 1 && sorted[j] > x; j--) sorted[j + 1] = sorted[j]; sorted[j + 1] = x }
                   median = (n % 2) ? sorted[(n + 1) / 2] : (sorted[n / 2] + sorted[n / 2 + 1]) / 2
                   line = sprintf("%.3f %.3f %.3f", median, lo[c], hi[c])
                   for (r = 1; r <= NR; r++) line = line " " m[c, r]
                   print line } }' "$out/$name.rounds" >"$out/$name.txt"
    mapfile -t lines <"$out/$name.txt"
}

# Prints a comparison: "label | median (min-max) | baseline label | median | ratio | target | verdict".
# The ratio is the subject's time over the baseline's (lower is better): the median of the rounds' ratios when both
# have as many rounds (measured side by side, a round each in turn), else the ratio of the medians. The target is a
# ceiling or "-".
compare() {
    local label=$1 subject=$2 base_label=$3 base=$4 target=$5
    read -r sm smin smax srounds <<<"$subject"
    read -r bm bmin bmax brounds <<<"$base"
    awk -v l="$label" -v sm="$sm" -v smin="$smin" -v smax="$smax" -v bl="$base_label" -v bm="$bm" \
        -v bmin="$bmin" -v bmax="$bmax" -v t="$target" -v sr="$srounds" -v br="$brounds" 'BEGIN {
        ratio = sm / bm
        ns = split(sr, s, " "); nb = split(br, b, " ")
        if (ns > 1 && ns == nb) {
            for (i = 1; i <= ns; i++) r[i] = s[i] / b[i]
            for (i = 2; i <= ns; i++) { x = r[i]; for (j = i - 1; j >= 1 && r[j] > x; j--) r[j + 1] = r[j]; r[j + 1] = x }
            ratio = (ns % 2) ? r[(ns + 1) / 2] : (r[ns / 2] + r[ns / 2 + 1]) / 2
        }
        verdict = (t == "-") ? "-" : ((ratio <= t) ? "met" : "NOT MET")
        printf "%-46s %8.2f ms (%.2f-%.2f) | %-28s %8.2f ms (%.2f-%.2f) | %5.2fx | target %s | %s\n",
            l, sm, smin, smax, bl, bm, bmin, bmax, ratio, (t == "-" ? "-" : "<= " t "x"), verdict
    }' | tee -a "$results"
}

report ""
report "== whole processes (hyperfine: $runs runs in up to 5 rounds after $warmup warm-up; the median of the rounds' medians; ratio = the median of the rounds' time / baseline time) =="
for n in "$small" "$large"; do
    db="$out/books-$n.sqlite"
    measure "list-$n" -N \
        "$cli --db $db list" "$cli --db $db --json list" "sqlite3 $db \".read $list_sql\""
    compare "librarycli list, $n books" "${lines[0]}" "sqlite3 same queries" "${lines[2]}" 1.6
    compare "librarycli --json list, $n books" "${lines[1]}" "sqlite3 same queries" "${lines[2]}" 1.6
    [ "$n" = "$small" ] && small_list=${lines[0]} small_json=${lines[1]}
    [ "$n" = "$large" ] && large_list=${lines[0]} large_json=${lines[1]}
done
compare "librarycli list, $large vs $small books" "$large_list" "the same, $small books" "$small_list" 1.3
compare "librarycli --json list, $large vs $small books" "$large_json" "the same, $small books" "$small_json" 1.3

measure "page" -N \
    "$cli --db $large_db list --page $page" "$cli --db $large_db list --page 1"
compare "list --page $page, $large books" "${lines[0]}" "list --page 1" "${lines[1]}" 1.2

measure "search" -N \
    "$cli --db $large_db list --search 'tanaka lantern'" "sqlite3 $large_db \".read $search_sql\""
compare "librarycli list --search (2 words), $large books" "${lines[0]}" "sqlite3 bare FTS5 MATCH" "${lines[1]}" 2

# A selective search: two words only one book has (added to both databases), on the large catalog and on one of
# 10,000 books: its cost may grow only as FTS5's own does (issue 14: within 3x). The generated catalog has no rare
# words (its titles draw from a few dozen), so a search for its words reads long posting lists at any size.
for db in "$large_db" "$search_small_db"; do
    "$cli" -q --db "$db" books add --title "The Zyzzyva Almanac" --author "Quillon Vantablack" --year 1999 >/dev/null
done
selective="zyzzyva vantablack"
measure "search-growth" -N \
    "$cli --db $large_db list --search '$selective'" "$cli --db $search_small_db list --search '$selective'"
compare "list --search '$selective', $large books" "${lines[0]}" "the same, $search_small books" "${lines[1]}" 3

measure "loans" \
    "$cli --db $small_db take 5 >/dev/null && $cli --db $small_db return 5 >/dev/null" \
    "sqlite3 $small_db \".read $take_sql\" >/dev/null && sqlite3 $small_db \".read $return_sql\" >/dev/null"
compare "librarycli take 5 + return 5 (2 processes)" "${lines[0]}" "sqlite3 same transactions" "${lines[1]}" 1.6

# MARK: - Bulk work: seed and import vs what SQLite itself does

# Every bulk run starts from a copy of one `init --empty` database, so librarycli and sqlite3 write into the same
# schema (both books indexes, the unique ISBN, the counting trigger, the full-text index).
empty_db="$out/empty.sqlite"
rm -f "$empty_db" "$empty_db-wal" "$empty_db-shm"
"$cli" -q --db "$empty_db" init --empty >/dev/null
target_db="$out/target.sqlite"
fresh="cp $empty_db $target_db && rm -f $target_db-wal $target_db-shm"

# sqlite3 inserting N rows of the shape the generator draws (its titles in random order) in one transaction with a
# 256 MB page cache, and their full-text index entries: the rows come from an attached file holding the books a seed
# of N wrote (search columns already folded), so the baseline is SQLite's insertion alone.
seed_sql="$out/seed.sql"
cat >"$seed_sql" <<SQL
PRAGMA cache_size=-262144;
ATTACH '$out/rows.sqlite' AS source;
BEGIN;
INSERT INTO books (title, author, year, pages, description, isbn, status,
                   search_title, search_author, search_description)
SELECT title, author, year, pages, description, isbn, status, search_title, search_author, search_description
FROM source.rows ORDER BY id;
INSERT INTO book_search (rowid, search_title, search_author, search_description)
SELECT id, search_title, search_author, search_description FROM books;
COMMIT;
SQL
seed_sizes=("$large")
[ $quick = 0 ] && [ "$large" != 100000 ] && seed_sizes=(100000 "$large")
for n in "${seed_sizes[@]}"; do
    # The rows: the books of a seed of n (a warm-up run of librarycli too).
    eval "$fresh"
    "$cli" -q --db "$target_db" seed --generate "$n" --random-seed 1 >/dev/null
    rm -f "$out/rows.sqlite"
    sqlite3 "$out/rows.sqlite" "ATTACH '$target_db' AS seeded;
        CREATE TABLE rows AS SELECT id, title, author, year, pages, description, isbn, status,
            search_title, search_author, search_description FROM seeded.books;"
    runs=$bulk_runs warmup=0 measure "seed-$n" --prepare "$fresh" \
        "$cli -q --db $target_db seed --generate $n --random-seed 1" \
        "sqlite3 $target_db \".read $seed_sql\""
    compare "librarycli seed --generate $n" "${lines[0]}" "sqlite3 INSERT, 256 MB cache" "${lines[1]}" 1.5
done
rm -f "$out/rows.sqlite"

# import: goodbooks-10k (../shared/data, else a generated catalog of 10,000 books) and a CSV of the large catalog,
# each into a copy of the empty database, vs `sqlite3 .import` of the same file into an empty database (issue 11's
# baseline: a table of text columns, no index), and vs sqlite3 writing the same file's rows into the same schema
# (issue 14: "with the index in the schema"): `.import` into an in-memory staging table, then one transaction
# inserting its rows into `books` (both indexes, the unique ISBN, the counting trigger; search columns lower()ed, as
# SQLite has no Unicode folding of its own) and into the full-text index. It checks nothing, repairs no ISBN and
# drops repeated ISBNs with OR IGNORE: SQLite's own work for those rows in that schema.
same_schema_sql() { # FILE OUT
    local header select
    header=$(head -n 1 "$1" | tr -d '\r')
    case ",$header," in
    *,authors,*) # goodbooks-10k's columns, read as librarycli reads them (title, authors, the year, isbn)
        select="title, authors, CAST(nullif(original_publication_year, '') AS INTEGER), NULL, '', nullif(isbn, ''),
       'available', lower(title), lower(authors), ''" ;;
    *) # librarycli's own export
        select="title, author, nullif(year, ''), nullif(pages, ''), description, nullif(isbn, ''), status,
       lower(title), lower(author), lower(description)" ;;
    esac
    cat >"$2" <<SQL
PRAGMA cache_size=-32768;
PRAGMA temp_store=MEMORY;
.mode csv
.import --schema temp $1 staging
BEGIN IMMEDIATE;
INSERT OR IGNORE INTO books (title, author, year, pages, description, isbn, status,
                             search_title, search_author, search_description)
SELECT $select
FROM temp.staging;
INSERT INTO book_search (rowid, search_title, search_author, search_description)
SELECT id, search_title, search_author, search_description FROM books;
COMMIT;
SQL
}
goodbooks=${BENCH_GOODBOOKS:-}
for candidate in "$root/../shared/data/goodbooks-10k/books.csv" "$root/../../shared/data/goodbooks-10k/books.csv"; do
    [ -z "$goodbooks" ] && [ -f "$candidate" ] && goodbooks=$candidate
done
if [ -z "$goodbooks" ]; then
    goodbooks="$out/generated-10000.csv"
    eval "$fresh"
    "$cli" -q --db "$target_db" seed --generate 10000 --random-seed 2 >/dev/null
    "$cli" -q --db "$target_db" export --output "$goodbooks" >/dev/null
    goodbooks_label="generated 10,000-book CSV"
else
    goodbooks_label="goodbooks-10k"
fi
large_csv="$out/catalog-$large.csv"
"$cli" -q --db "$large_db" export --output "$large_csv" >/dev/null
sqlite_db="$out/sqlite-import.sqlite"
same_db="$out/same-schema-import.sqlite"
for file in "$goodbooks" "$large_csv"; do
    if [ "$file" = "$goodbooks" ]; then label=$goodbooks_label; else label="CSV of $large generated books"; fi
    same_schema_sql "$file" "$out/same-schema-import.sql"
    runs=$bulk_runs warmup=1 measure "import-$(basename "$file" .csv)" \
        --prepare "$fresh && rm -f $sqlite_db && cp $empty_db $same_db && rm -f $same_db-wal $same_db-shm" \
        "$cli -q --db $target_db import $file" \
        "sqlite3 -cmd \".mode csv\" $sqlite_db \".import $file books\"" \
        "sqlite3 $same_db \".read $out/same-schema-import.sql\""
    compare "librarycli import, $label" "${lines[0]}" "sqlite3 .import, empty database" "${lines[1]}" 2
    compare "librarycli import, $label" "${lines[0]}" "sqlite3, same rows, same schema" "${lines[2]}" 2
    compare "  sqlite3: same schema vs empty database" "${lines[2]}" "sqlite3 .import, empty database" "${lines[1]}" -
done
# The import streams: its peak memory on the large CSV stays bounded.
eval "$fresh"
import_kib=$(/usr/bin/time -f %M "$cli" -q --db "$target_db" import "$large_csv" 2>&1 >/dev/null | tail -1)
awk -v k="$import_kib" -v n="$large" 'BEGIN {
    printf "%-46s %8d KiB | target < 102400 KiB | %s\n", "peak memory of import, CSV of " n " books", k,
        (k < 102400 ? "met" : "NOT MET")
}' | tee -a "$results"
rm -f "$large_csv" "$target_db" "$target_db-wal" "$target_db-shm" "$sqlite_db" "$same_db" "$same_db-wal" "$same_db-shm"

# Start-up: many short runs, after more warm-up runs (a freshly linked binary is not yet in the page cache).
# librarycli links the Swift runtime statically (Package.swift), which saves about 1 ms of dynamic loading.
runs=$startup_runs warmup=$((warmup * 3)) measure "startup" -N \
    "$cli --version" "sqlite3 :memory: \"select 1\""
compare "librarycli --version" "${lines[0]}" "sqlite3 :memory: 'select 1'" "${lines[1]}" -

# MARK: - Peak memory

# The largest resident set (KiB) of `librarycli list` over 5 runs.
peak_kib() {
    local db=$1 peak=0 kib
    for _ in 1 2 3 4 5; do
        kib=$(/usr/bin/time -f %M "$cli" --db "$db" list 2>&1 >/dev/null | tail -1)
        [ "$kib" -gt "$peak" ] && peak=$kib
    done
    echo "$peak"
}
small_kib=$(peak_kib "$small_db")
large_kib=$(peak_kib "$large_db")
awk -v s="$small_kib" -v l="$large_kib" -v sn="$small" -v ln="$large" 'BEGIN {
    ratio = l / s
    printf "%-46s %8d KiB | %-28s %8d KiB | %5.2fx | target <= 1.5x | %s\n",
        "peak memory of list, " ln " books", l, sn " books", s, ratio, (ratio <= 1.5 ? "met" : "NOT MET")
}' | tee -a "$results"

# MARK: - The HTTP service (issue 12)

# Its own script (wrk, the floor server, Datasette), on the same build folder; its figures are appended here.
serve_arguments=()
[ $quick = 1 ] && serve_arguments=(--quick)
report ""
BENCH_SCRATCH=$scratch BENCH_OUT=$out bash "$root/Benchmarks/serve.sh" "${serve_arguments[@]}"
cat "$out/serve/results.txt" >>"$results"

# MARK: - PostgreSQL (issue 15)

# Its own script too: it starts a throwaway cluster (or uses BENCH_POSTGRES_URL) and stops it on every exit path.
report ""
BENCH_SCRATCH=$scratch BENCH_OUT=$out bash "$root/Benchmarks/postgresql.sh" "${serve_arguments[@]}"
cat "$out/postgresql/results.txt" >>"$results"

report ""
report "Results in $results (hyperfine logs and CSV files beside it)."
