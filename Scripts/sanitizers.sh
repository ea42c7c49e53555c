#!/usr/bin/env bash
# Runs the tests under the sanitizers, each in its own build folder so that normal builds are not thrown away.
#
#   Scripts/sanitizers.sh            # both: address (the whole suite), then thread (the concurrency tests)
#   Scripts/sanitizers.sh address    # AddressSanitizer only
#   Scripts/sanitizers.sh thread     # ThreadSanitizer only
#
# ASAN_SCRATCH / TSAN_SCRATCH choose the build folders (default /tmp/librarycli-asan, /tmp/librarycli-tsan);
# TSAN_FILTER the tests ThreadSanitizer runs: those that use threads inside the test process (tests that run
# librarycli as separate processes race processes, which TSan does not see). Exits non-zero if either run fails.
set -uo pipefail

cd "$(dirname "$0")/.."
which="${1:-all}"
asan_scratch="${ASAN_SCRATCH:-/tmp/librarycli-asan}"
tsan_scratch="${TSAN_SCRATCH:-/tmp/librarycli-tsan}"
# LibraryServerTests without ServeProcessTests: a librarycli executable built with TSan crashes in TSan's runtime on
# libmicrohttpd's threads (the same server in the test process is fine). Cause: -static-stdlib links with
# --exclude-libs ALL, which hides the TSan interceptors from shared libraries (see RELIABILITY.md, Known limits).
tsan_server="LibraryServerTests.AccessAndScreenTests|LibraryServerTests.SignInTests|LibraryServerTests.BodyTests"
tsan_server+="|LibraryServerTests.OpenAPITests|LibraryServerTests.LoanRouteTests|LibraryServerTests.LiveChangeTests"
tsan_server+="|SQLiteTests.WriteGateTests"
tsan_filter="${TSAN_FILTER:-LibraryTests.ConcurrencyTests|SQLiteTests.MigratorTests|RenderingTests.DisplayWidthTests|HTTPTests|$tsan_server}"
status=0

# MARK: - Runs

run() { # name, swift test arguments...
    local name="$1"
    shift
    echo "== $name: swift test $*" >&2
    local start=$SECONDS
    if swift test "$@"; then
        echo "== $name: passed in $((SECONDS - start)) s" >&2
    else
        echo "!! $name: FAILED after $((SECONDS - start)) s" >&2
        status=1
    fi
}

# detect_leaks=0: the Swift runtime keeps metadata caches for the process's life, which LeakSanitizer reports.
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=0:abort_on_error=1:halt_on_error=1}"
export TSAN_OPTIONS="${TSAN_OPTIONS:-halt_on_error=1:second_deadlock_stack=1}"

if [[ "$which" == all || "$which" == address ]]; then
    run address --sanitize=address --scratch-path "$asan_scratch"
fi
if [[ "$which" == all || "$which" == thread ]]; then
    run thread --sanitize=thread --scratch-path "$tsan_scratch" --filter "$tsan_filter"
fi
exit "$status"
