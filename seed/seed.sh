#!/usr/bin/env bash
# Seeds a library database from the files in this folder with the librarycli command line.
#
#   seed/seed.sh                       # creates ./library.sqlite
#   seed/seed.sh /tmp/demo.sqlite      # or any path
#   LIBRARYCLI="swift run librarycli" seed/seed.sh   # from a checkout, without installing the binary
#
# The seed step is idempotent: it matches books by ISBN and clients by card number, so seeding twice adds nothing.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
DB="${1:-./library.sqlite}"
# The binary (word-split on purpose, so "swift run librarycli" works too).
read -r -a cli <<<"${LIBRARYCLI:-librarycli}"

"${cli[@]}" --db "$DB" init --empty
"${cli[@]}" --db "$DB" seed --file "$here/clients.csv" --file "$here/books.csv"
"${cli[@]}" --db "$DB" list
