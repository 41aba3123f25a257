#!/bin/sh
# What each search feature is worth: for every switch of the mill search, a match of the full
# engine against the same engine with that one switch off, played and scored by `tabula match`.
#   sh scripts/features.sh [path/to/tabula]
# Environment: GAMES (per feature, default 1000), NODES (per move, default 20000; fixed node
# counts keep the result independent of machine load), CONCURRENCY (default 2), VARIANT
# (default nine), FEATURES (default: all five), OUT (folder for records and summaries,
# default build/features).
set -eu
bin=${1:-./tabula}
games=${GAMES:-1000}
nodes=${NODES:-20000}
concurrency=${CONCURRENCY:-2}
variant=${VARIANT:-nine}
features=${FEATURES:-"ReverseFutility LateMovePruning LateMoveReductions Quiescence AspirationWindows"}
out=${OUT:-build/features}
mkdir -p "$out"

for f in $features; do
    "$bin" match --variant "$variant" --games "$games" --concurrency "$concurrency" --quiet \
        --engine cmd="$bin" name=full --engine cmd="$bin" name="no-$f" "option.$f=false" \
        --each nodes="$nodes" --pgn "$out/$f.pgn" --json "$out/$f.json" > "$out/$f.txt"
    printf '%-20s ' "$f"
    grep -A1 '^full vs' "$out/$f.txt" | tr '\n' ' ' | sed 's/  */ /g'
    echo
done
