# Sourced by Benchmarks/serve.sh and Benchmarks/postgresql.sh: waiting for a server that librarycli (or servebench)
# started in the background.

# Waits (10 s at most) for "Listening on http://HOST:PORT" in a log; prints the port. Fails, showing the log, when
# the server (process `pid`) ends or never says it listens.
listening_port() {
    local log=$1 pid=$2
    for _ in $(seq 1 200); do
        if grep -q '^Listening on http' "$log" 2>/dev/null; then
            sed -n 's|^Listening on http://[^:]*:\([0-9]*\).*|\1|p' "$log" | head -1
            return 0
        fi
        kill -0 "$pid" 2>/dev/null || break
        sleep 0.05
    done
    echo "${0##*/}: the server did not start; its log:" >&2
    cat "$log" >&2
    return 1
}
