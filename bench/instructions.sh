#!/bin/sh
# Instructions per node of `tabula bench`, counted by valgrind's callgrind inside the search
# only (mill_game_search: no table clearing, no start-up), with its split by function. Valgrind
# does not run AVX-512 code, so this counts a copy of the tree built for x86-64-v3, where the
# board's bit gathers are byte tables; the search and its node count are the same. It is the
# plain build (PGO=0), so that counts compare across commits and machines. The count
# does not drift with the machine's speed, but instructions are not time: use it to see where
# the work is, and `tabula bench` (median of several runs) to see what a change is worth.
#   sh bench/instructions.sh [depth]
# OUT=file keeps the callgrind profile for a line-by-line view: callgrind_annotate --auto=yes file
set -eu
cd "$(dirname "$0")/.."
depth=${1:-}
command -v valgrind >/dev/null || { echo "bench/instructions.sh: needs valgrind (apt-get install valgrind)" >&2; exit 1; }
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
tar --exclude=./build --exclude=./tabula -cf - . | tar -xf - -C "$dir"
make -s -C "$dir" PGO=0 RELEASE_FLAGS="-O3 -march=x86-64-v3 -DNDEBUG -gdwarf-4" tabula >/dev/null
nodes=$("$dir/tabula" bench $depth | tail -n 1 | awk '{print $1}')
valgrind -q --tool=callgrind --toggle-collect=mill_game_search --callgrind-out-file="$dir/cg.out" \
    "$dir/tabula" bench $depth >/dev/null
[ -n "${OUT:-}" ] && cp "$dir/cg.out" "$OUT"
callgrind_annotate --inclusive=no --show-percs=no --auto=no "$dir/cg.out" 2>/dev/null |
    awk -v nodes="$nodes" -v dir="$dir/" '
        /PROGRAM TOTALS/ { x = $1; gsub(",", "", x); total = x + 0
                           printf "%.0f nodes, %.0f instructions, %.0f per node; by function:\n",
                                  nodes, total, total / nodes; next }
        total && $2 ~ /:/ && $1 ~ /^[0-9,]+$/ && n < 15 { x = $1; gsub(",", "", x); f = $2; sub(dir, "", f); sub("^[.]/", "", f); n++
                           printf "%8.1f  %s\n", x / nodes, f }'
