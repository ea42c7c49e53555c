#!/usr/bin/env bash
# Installs the Debian packages librarycli builds against, when they are missing; an installed one is never upgraded.
#
#   bash Scripts/install-deps.sh            # as root, or with sudo available
#   bash Scripts/install-deps.sh --browser  # instead, what the browser tests drive: chromium, its driver, Selenium
#   bash Scripts/install-deps.sh --postgresql  # instead, PostgreSQL's server, for the tests' throwaway cluster
#
# README's two commands and .ci/run start with it. It prints nothing when everything is there.
set -euo pipefail

# One name a line: the -dev packages of the C libraries the system-library targets wrap (their headers, and the
# static archives the librarycli executable links: see Sources/librarycli/StaticLibraries/README.md; libstdc++'s is in
# libstdc++-NN-dev, which the Swift toolchain itself needs).
packages=(
    libsqlite3-dev
    libpq-dev
    libutf8proc-dev
    libsodium-dev
    libmicrohttpd-dev
)
if [[ "${1:-}" == "--browser" ]]; then
    # Tests/Browser/run.sh: Debian's Chromium (headless), its WebDriver and the Python bindings (/usr/bin/python3).
    packages=(chromium chromium-driver python3-selenium)
elif [[ "${1:-}" == "--postgresql" ]]; then
    # Scripts/postgres-cluster.sh and Benchmarks/postgresql.sh: Debian's PostgreSQL server and client.
    packages=(postgresql)
elif [[ $# -gt 0 ]]; then
    echo "usage: bash Scripts/install-deps.sh [--browser | --postgresql]" >&2
    exit 64
fi

need=()
for package in "${packages[@]}"; do
    status="$(dpkg-query -W -f='${Status}' "$package" 2>/dev/null || true)"
    [[ "$status" == "install ok installed" ]] || need+=("$package")
done
[[ ${#need[@]} -eq 0 ]] && exit 0

echo "Installing ${need[*]} (Debian packages librarycli needs)..." >&2
sudo=()
if [[ "$(id -u)" -ne 0 ]]; then
    command -v sudo >/dev/null 2>&1 || {
        echo "error: librarycli needs ${need[*]}: run 'apt-get install ${need[*]}' as root." >&2
        exit 1
    }
    sudo=(sudo)
fi
export DEBIAN_FRONTEND=noninteractive
"${sudo[@]}" apt-get update -qq
"${sudo[@]}" apt-get install -y -qq --no-upgrade "${need[@]}" >/dev/null
