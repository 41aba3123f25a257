#!/bin/sh
# The perft vectors of tests/data/mill_perft.txt (depths 1-3) through the release
# build's `perft` command. The unit suites run on the test build, which is compiled for any
# x86-64; the release build is compiled for this processor (-march=native) and, with
# AVX-512 or AVX2, lists moves with vector code the suites do not reach. This runs that code
# (`make check` runs it on the release build, and on an AVX2 build where there is AVX-512).
#
# usage: sh tests/perft_release.sh [path/to/tabula]    (default ./tabula)
# Prints one line per failing vector and a summary; exits 1 when one failed.
BIN=${1:-./tabula}
DATA=$(dirname "$0")/data/mill_perft.txt
fail=0
n=0
while IFS='|' read -r variant fen counts _; do
    case $variant in '#'* | '') continue ;; esac
    variant=$(echo $variant)
    fen=$(echo $fen)
    d=0
    for want in $counts; do
        d=$((d + 1))
        got=$("$BIN" perft --variant "$variant" --fen "$fen" "$d" | sed -n 's/^Nodes searched: //p')
        if [ "$got" != "$want" ]; then
            echo "FAIL perft $d $variant '$fen': got '$got', want $want"
            fail=1
        fi
        n=$((n + 1))
    done
done <"$DATA"
if [ "$n" = 0 ]; then
    echo "perft (release build): no vectors read from $DATA"
    exit 1
fi
echo "perft (release build): $n counts checked"
exit $fail
