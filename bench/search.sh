#!/bin/sh
# Search speed of the mill engine from the Nine Men's Morris start: time to depth 14 and 16 and
# nodes per second with one thread, then the same search with two threads. Each is the median
# of RUNS runs (default 3). Hash 16 MB, cleared by a new game before each run.
#   sh bench/search.sh [path/to/tabula]
set -eu
bin=${1:-./tabula}
runs=${RUNS:-3}

# Print "<ms> <nodes>" of the last info line at `depth` with `threads`.
run() {
    printf 'setoption name Threads value %s\nucinewgame\nposition startpos\ngo depth %s\n' \
        "$1" "$2" | "$bin" | grep '^info depth' | tail -n 1 |
        awk '{for (i = 1; i < NF; i++) { if ($i == "time") t = $(i + 1); if ($i == "nodes") n = $(i + 1) } print t, n}'
}

median() { sort -n | awk '{a[NR] = $0} END {print a[int((NR + 1) / 2)]}'; }

printf '%-8s %6s %10s %12s %12s\n' threads depth 'median ms' nodes nps
for threads in 1 2; do
    for depth in 14 16; do
        results=''
        i=0
        while [ "$i" -lt "$runs" ]; do
            results="$results$(run "$threads" "$depth")
"
            i=$((i + 1))
        done
        line=$(printf '%s' "$results" | median)
        ms=${line% *}
        nodes=${line#* }
        nps=$(awk -v n="$nodes" -v t="$ms" 'BEGIN {printf "%.0f", (t > 0 ? n * 1000 / t : 0)}')
        printf '%-8s %6s %10s %12s %12s\n' "$threads" "$depth" "$ms" "$nodes" "$nps"
    done
done
