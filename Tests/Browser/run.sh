#!/usr/bin/env bash
# The web front's browser tests (Tests/Browser/test_web.py): a demo database in a temporary folder, `librarycli
# serve --port 0` on it, then headless Chromium through Selenium. The server, the browser and the folder go on every
# exit path. .ci/run calls it after `swift test`; it needs chromium, chromium-driver and python3-selenium
# (`bash Scripts/install-deps.sh --browser`).
#
#   bash Tests/Browser/run.sh [path/to/librarycli [test_web.py options, such as --only replay]]
#
# Screenshots go to $BROWSER_OUTPUT (default: a new temporary folder, kept).
set -euo pipefail
cd "$(dirname "$0")/../.."

binary="$(realpath "${1:-.build/debug/librarycli}")"
[[ $# -gt 0 ]] && shift
work="$(mktemp -d "${TMPDIR:-/tmp}/librarycli-browser-XXXXXX")"
output="${BROWSER_OUTPUT:-$(mktemp -d "${TMPDIR:-/tmp}/librarycli-screenshots-XXXXXX")}"
tests=""

stop() {
    local pid i
    set +e  # clean up all the way, whatever fails on the way
    # The test run (its own process group: Python, chromedriver and Chromium), then whichever server is running.
    if [[ -n "$tests" ]]; then kill -TERM -- "-$tests" 2>/dev/null || true; fi
    if [[ -s "$work/server.pid" ]]; then
        read -r pid <"$work/server.pid" || true  # the tests rewrite it, without a line break
        kill -TERM "$pid" 2>/dev/null || true
        for ((i = 0; i < 100; i++)); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
        kill -KILL "$pid" 2>/dev/null || true
    fi
    if [[ -n "$tests" ]]; then
        for ((i = 0; i < 50; i++)); do kill -0 -- "-$tests" 2>/dev/null || break; sleep 0.1; done
        kill -KILL -- "-$tests" 2>/dev/null || true
    fi
    rm -rf "$work"
}
trap stop EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

for tool in /usr/bin/chromium /usr/bin/chromedriver; do
    [[ -x "$tool" ]] || { echo "error: $tool is missing: bash Scripts/install-deps.sh --browser" >&2; exit 1; }
done
/usr/bin/python3 -c 'import selenium' 2>/dev/null \
    || { echo "error: python3-selenium is missing: bash Scripts/install-deps.sh --browser" >&2; exit 1; }

# One clock for the server and every command the tests run, so due dates agree.
export LIBRARY_NOW="2026-11-29T10:00:00Z"
"$binary" -q --db "$work/library.sqlite" init

# The log exists before the server starts: the background command opens it only once it runs, and the loop below
# may read it first.
: >"$work/server.log"
"$binary" --db "$work/library.sqlite" serve --port 0 >/dev/null 2>"$work/server.log" &
server=$!
echo "$server" >"$work/server.pid"
url=""
for _ in $(seq 300); do
    url="$(sed -n 's/^Listening on \(http:[^ ]*\)$/\1/p' "$work/server.log" | head -1)"
    [[ -n "$url" ]] && break
    kill -0 "$server" 2>/dev/null || { cat "$work/server.log" >&2; exit 1; }
    sleep 0.1
done
[[ -n "$url" ]] || { echo "error: the server did not say where it listens within 30 s" >&2; exit 1; }
echo "Browser tests against $url (screenshots in $output)"

# Its own process group, so the trap can stop the browser with it; at most 10 minutes.
setsid timeout --kill-after=10 600 /usr/bin/python3 Tests/Browser/test_web.py --url "$url" --binary "$binary" \
    --db "$work/library.sqlite" --server-pid-file "$work/server.pid" --server-log "$work/server.log" \
    --output "$output" "$@" &
tests=$!
wait "$tests"
