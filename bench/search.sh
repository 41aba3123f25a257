#!/bin/sh
# Search speed of the mill engine from the Nine Men's Morris start: time to depth 14 and 16 and
# nodes per second with one thread, then the same search with two threads. Each is the median
# of RUNS runs (default 3). Hash HASH MB (default 16, the engine's), cleared by a new game before
# each run. The last line is what a second core gives on this machine in the same window:
# `tabula bench` alone, and two at once. OFF names search switches to turn off for the searches
# (bench/lib.sh; the bench runs as it is).
#   [HASH=MB] [RUNS=n] [OFF="switch ..."] sh bench/search.sh [path/to/tabula]
set -eu
bin=${1:-./tabula}
runs=${RUNS:-3}
hash=${HASH:-16}

# shellcheck source=bench/lib.sh
. "$(dirname "$0")/lib.sh"
need_switches "$bin"

# Print "<ms> <nodes>" of the last info line at `depth` with `threads`.
run() { nine_commands "$2" "$1" "$hash" | "$bin" | time_nodes; }

printf '%-8s %6s %10s %12s %12s\n' threads depth 'median ms' nodes nps
for threads in 1 2; do
    for depth in 14 16; do
        line=$(repeat run "$threads" "$depth" | median)
        ms=${line% *}
        nodes=${line#* }
        nps=$(echo "$line" | nps)
        printf '%-8s %6s %10s %12s %12s\n' "$threads" "$depth" "$ms" "$nodes" "$nps"
    done
done

# The second core (see the top): on shared or virtual machines two cores may slow each other
# down, and two threads cannot gain more than two benches at once do.
bench_nps() { pinned "$1" "$bin" bench 2>&1 | tail -n 1 | awk '{print $3}'; }
# Print "<one alone> <two at once, summed>" (one after the other, in the same window).
alone_and_pair() {
    printf '%s %s\n' "$(bench_nps 0)" \
        "$({ bench_nps 1 & bench_nps 0; wait; } | awk '{s += $1} END {print s}')"
}
pairs=$(repeat alone_and_pair)
one=$(printf '%s\n' "$pairs" | cut -d ' ' -f 1 | median)
two=$(printf '%s\n' "$pairs" | cut -d ' ' -f 2 | median)
awk -v one="$one" -v two="$two" 'BEGIN {
    printf "bench nps: one alone %.0f, two at once %.0f in all (%.2fx one alone)\n", one, two, two / one }'
