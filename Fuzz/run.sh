#!/usr/bin/env bash
# Builds the libFuzzer harnesses (CSV reader, JSON reader, argument parser) with ASan and runs each for a bounded
# time, one after another, on one core.
#
#   Fuzz/run.sh            # 600 s each
#   Fuzz/run.sh 60         # 60 s each
#   Fuzz/run.sh 60 json    # only the JSON harness
#
# Each harness is one executable: the harness file compiled with the module's sources (no Foundation, no SwiftPM).
# Seeds are written to Fuzz/corpus/<name>/ (kept between runs, git-ignored); a crash is saved under
# Fuzz/crashes/<name>/ and makes the script exit 1. Replay one with: Fuzz/build/<name>-fuzzer Fuzz/crashes/<name>/crash-…
set -euo pipefail

seconds="${1:-600}"
only="${2:-}"
here="$(cd "$(dirname "$0")" && pwd)"
root="$(dirname "$here")"
build="$here/build"
swiftc="${SWIFTC:-swiftc}"
mkdir -p "$build"

# MARK: - Build

build_fuzzer() { # name, harness, sources...
    local name="$1" harness="$2"
    shift 2
    echo "== building $name-fuzzer" >&2
    "$swiftc" -sanitize=fuzzer,address -parse-as-library -O -g -module-name "${name}Fuzz" \
        "$here/$harness" "$@" -o "$build/$name-fuzzer" 2>&1 | grep -v "Cannot export local symbol" >&2 || true
    test -x "$build/$name-fuzzer"
}

# The argument parser is fuzzed with librarycli's real command line (and its exit codes, for the help text): their
# `import ArgumentParsing` goes, since they are compiled into the same module, and librarycli's ExitCode is renamed
# apart from ArgumentParsing's own.
for file in CommandLineSpec ExitCode; do
    sed -e '/^import ArgumentParsing$/d' -e 's/\bExitCode\b/LibraryExitCode/g' \
        "$root/Sources/LibraryCLI/$file.swift" >"$build/$file.swift"
done

# MARK: - Seeds

seed() { # name, file, content (printf format)
    mkdir -p "$here/corpus/$1"
    printf -- "$3" >"$here/corpus/$1/$2"
}
seed csv plain 'title,author,year\nDune,Frank Herbert,1965\n'
seed csv quoted 'title,author\n"A ""quoted"", title","x\ny"\r\n'
seed csv bom-crlf '\xef\xbb\xbftitle,isbn13\r\nX,9780439023481\r\n'
seed csv lone-cr 'a,b\r1,2\r'
seed csv unterminated 'a,b\n"1,2\n'
seed csv duplicate 'a,a\n1,2\n'
seed csv bad-utf8 'a,b\n\xff\xfe,\xc3\n'
seed json array '[{"title":"Dune","year":1965,"pages":412.0,"isbn":null,"x":[true,false]}]'
seed json lines '{"title":"A"}\n{"title":"B\\u00e9\\ud83d\\ude00"}\n'
seed json numbers '[-0, 1e308, 1e400, -1.5E-3, 9223372036854775807, 9223372036854775808]'
seed json nested '[[[[[[[[[[{"a":{"b":{"c":[]}}}]]]]]]]]]]'
seed json broken '{"a":"\\ud800", "b": tru'
seed args take 'take\00012\00013'
seed args list '--json\000list\000--page\0002\000--search\000caf\xc3\xa9'
seed args help 'help\000clients\000add'
seed args add 'books\000add\000--title=Dune\000--year\000-720\000--\000x'
seed args short '-qq\000--width\00040\000--colour\000always'
seed args import 'import\000x.csv\000--dry-run\000--db\000/tmp/x'

# MARK: - Run

status=0
run_fuzzer() { # name, harness, sources...
    local name="$1"
    if [[ -n "$only" && "$only" != "$name" ]]; then return; fi
    build_fuzzer "$@"
    mkdir -p "$here/crashes/$name"
    echo "== running $name-fuzzer for $seconds s" >&2
    if ! "$build/$name-fuzzer" -max_total_time="$seconds" -max_len=4096 -timeout=10 -rss_limit_mb=2048 \
        -artifact_prefix="$here/crashes/$name/" -print_final_stats=1 "$here/corpus/$name" \
        2>"$build/$name.log"; then
        echo "!! $name-fuzzer found a crash: see $here/crashes/$name/ and $build/$name.log" >&2
        status=1
    fi
    grep -E "^(Done|stat::number_of_executed_units|stat::peak_rss_mb)" "$build/$name.log" >&2 || true
}
run_fuzzer csv CSVFuzzer.swift "$root"/Sources/Formats/*.swift
run_fuzzer json JSONFuzzer.swift "$root"/Sources/Formats/*.swift
run_fuzzer args ArgumentFuzzer.swift "$root"/Sources/ArgumentParsing/*.swift "$build/CommandLineSpec.swift" "$build/ExitCode.swift"
exit "$status"
