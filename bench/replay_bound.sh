#!/bin/sh
# How much faster the mill search could be at most if the evaluation or the table cost
# nothing, on the same tree. A build with bench/replay.patch records, in call order, every
# static evaluation and every table probe's result of a search from the nine start; builds that
# replay them instead of computing them (no evaluation; no table loads, stores or fetches; or
# no table loads and stores, but the fetches kept) then search the same tree (the node counts
# are checked equal). The record is read before the search starts; reading it in order during
# the search is left in, so the gains are slightly understated. Each build is alternated on one
# pinned core, RUNS times (default 9); medians. Plain builds (PGO=0), so that all are compiled
# alike; without its flags the patch changes nothing, so the first build is the engine's.
#   sh bench/replay_bound.sh [depth]    (default 16)
set -eu
cd "$(dirname "$0")/.."
# shellcheck source=bench/lib.sh
. bench/lib.sh
depth=${1:-16}
runs=${RUNS:-9}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
mkdir "$dir/src"
tar --exclude=./build --exclude=./tabula -cf - . | tar -xf - -C "$dir/src"
(cd "$dir/src" && git apply bench/replay.patch) || die "bench/replay.patch no longer applies"
for build in base: record:-DRECORD eval:-DREPLAY_EVAL table:-DREPLAY_TT \
    fetch:"-DREPLAY_TT -DREPLAY_KEEP_FETCH" both:"-DREPLAY_EVAL -DREPLAY_TT"; do
    rm -rf "$dir/src/build" "$dir/src/tabula"
    make -s -C "$dir/src" PGO=0 \
        RELEASE_FLAGS="-O3 -march=native -DNDEBUG -DREPLAY_DIR='\"$dir\"' ${build#*:}" tabula \
        >/dev/null
    mv "$dir/src/tabula" "$dir/${build%%:*}"
done
need_switches "$dir/base"

search() { search_nine "$dir/$1" "$depth"; }
want=$(search record)
want=${want#* }
for build in base eval table fetch both; do
    got=$(search "$build")
    [ "${got#* }" = "$want" ] || die "$build searched ${got#* } nodes, not $want"
done
# One run of each build, in turn.
run_all() {
    for build in base eval table fetch both; do
        echo "$build $(search "$build")" >>"$dir/runs"
    done
}
repeat run_all
base=$(awk '$1 == "base" {print $2}' "$dir/runs" | median)
printf 'depth %s from the nine start, %s nodes, medians of %s:\n' "$depth" "$want" "$runs"
for build in base eval table fetch both; do
    ms=$(awk -v b="$build" '$1 == b {print $2}' "$dir/runs" | median)
    case $build in
    base) what='as built' ;;
    eval) what='evaluation replayed' ;;
    table) what='table replayed' ;;
    fetch) what='table, fetches kept' ;;
    both) what='both replayed' ;;
    esac
    awk -v w="$what" -v ms="$ms" -v base="$base" -v n="$want" \
        'BEGIN {printf "%-22s %6d ms %6.2fM nps %5.2fx\n", w, ms, n / ms / 1000, base / ms}'
done
