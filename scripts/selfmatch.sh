#!/bin/sh
# tabula against itself under a real clock, refereed by `tabula match`: every move checked, and
# any illegal move, crash, stall or flag fall reported as a fault.
#   sh scripts/selfmatch.sh [path/to/tabula]
# Environment: LIMIT (per engine, default st=0.1: 100 ms a move; tc=10+0.1 for ten seconds and
# a tenth per move), GAMES (default 200), CONCURRENCY (default 2), VARIANT (default nine), OUT
# (folder for the records and the summary, default build/selfmatch).
# The report's Elo interval should contain 0, and its faults line should say none.
set -eu
bin=${1:-./tabula}
limit=${LIMIT:-st=0.1}
out=${OUT:-build/selfmatch}
mkdir -p "$out"
name=$(printf '%s' "$limit" | tr -c 'A-Za-z0-9.+=\n' _)
"$bin" match --variant "${VARIANT:-nine}" --games "${GAMES:-200}" \
    --concurrency "${CONCURRENCY:-2}" --quiet \
    --engine cmd="$bin" name=A --engine cmd="$bin" name=B --each "$limit" \
    --pgn "$out/$name.pgn" --json "$out/$name.json"
