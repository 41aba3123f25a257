#!/bin/sh
# Perft speed of the mill move generator, single thread: the median of RUNS runs (default 5)
# of each position, in seconds and leaves per second.
#   sh bench/perft.sh [path/to/tabula]
# The positions: Nine Men's Morris from the start (depth 6, 99,274,176 leaves; the aim is under
# 1 s), a moving-phase midgame and a flying endgame.
set -eu
bin=${1:-./tabula}
runs=${RUNS:-5}

# name depth variant position-string (empty: the start)
positions='start|6|nine|
midgame|8|nine|1B1/BW1/1WB/W1W1BW/1WB/B1W/BBB b 0 0 7 13
flying|5|nine|2W/2B/3/1W4/1B1/W2/1B1 b 0 0 2 23'

printf '%-8s %5s %12s %10s %16s\n' position depth leaves 'median s' 'leaves/s'
echo "$positions" | while IFS='|' read -r name depth variant fen; do
    times=''
    i=0
    while [ "$i" -lt "$runs" ]; do
        if [ -n "$fen" ]; then
            line=$("$bin" perft --variant "$variant" --fen "$fen" "$depth" | tail -n 1)
        else
            line=$("$bin" perft --variant "$variant" "$depth" | tail -n 1)
        fi
        # perft <d> <variant>: <leaves> leaves in <seconds> s, <rate> leaves/s
        leaves=$(echo "$line" | awk '{print $4}')
        times="$times $(echo "$line" | awk '{print $7}')"
        i=$((i + 1))
    done
    median=$(echo "$times" | tr ' ' '\n' | grep . | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}')
    rate=$(awk -v n="$leaves" -v t="$median" 'BEGIN {printf "%.0f", (t > 0 ? n / t : 0)}')
    printf '%-8s %5s %12s %10s %16s\n' "$name" "$depth" "$leaves" "$median" "$rate"
done
