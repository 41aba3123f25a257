#!/bin/sh
# tabula as a GNU Backgammon external player: gnubg (the host, and player 0 at its own 0-ply)
# plays GAMES cubeful money games (Jacoby rule on) against `tabula external` (player 1), then
# this script prints tabula's points per game with a 95% interval.
# usage: sh scripts/gnubg_external.sh [TABULA] [GAMES] [PLIES] [PORT]
# Environment: SEED (gnubg's dice seed, default 1), LOG (gnubg's record, default
# gnubg_external.log), GNUBG (the gnubg binary), MATCH (a match length: then GAMES matches of
# MATCH points are played, Crawford rule on, and the matches won are reported). Needs the gnubg
# package. See docs/backgammon.md.
set -eu
TABULA=${1:-./tabula}
GAMES=${2:-1}
PLIES=${3:-1}
PORT=${4:-$((40000 + $$ % 20000))}
GNUBG=${GNUBG:-/usr/games/gnubg}
LOG=${LOG:-gnubg_external.log}
SEED=${SEED:-1}
MATCH=${MATCH:-0}

"$TABULA" external --port "$PORT" --plies "$PLIES" 2>/dev/null &
TPID=$!
trap 'kill $TPID 2>/dev/null || true' EXIT INT TERM
sleep 0.5

{
    # gnubg 0-ply for player 0 (checker play and cube), tabula for player 1.
    echo "set seed $SEED"
    echo "set player 0 gnubg"
    echo "set player 0 chequerplay evaluation plies 0"
    echo "set player 0 cubedecision evaluation plies 0"
    echo "set player 1 name tabula"
    echo "set player 1 external localhost:$PORT"
    i=0
    if [ "$MATCH" -gt 0 ]; then
        # Each match runs game after game by itself; the next line starts the next match.
        echo "set automatic game on"
        while [ "$i" -lt "$GAMES" ]; do
            echo "new match $MATCH"
            i=$((i + 1))
        done
    else
        echo "set jacoby on"
        echo "set automatic game off"
        while [ "$i" -lt "$GAMES" ]; do
            if [ "$i" = 0 ]; then echo "new session"; else echo "new game"; fi
            i=$((i + 1))
        done
    fi
    echo "quit"
    echo "y"
} | "$GNUBG" -t -q > "$LOG" 2>&1 || true

# A match ends with "<name> has won the match."; gnubg is player 0, so any other name is
# tabula's (gnubg may name player 1 after the user).
if [ "$MATCH" -gt 0 ]; then
    grep -o "[A-Za-z0-9_]* has won the match" "$LOG" | awk -v len="$MATCH" '
        { n++; if ($1 != "gnubg") won++ }
        END {
            if (n == 0) { print "no match finished"; exit 1 }
            p = won / n
            printf "matches %d of %d points, tabula won %d: %.1f%% +- %.1f%% (95%%)\n",
                   n, len, won, 100 * p, 196 * sqrt(p * (1 - p) / n)
        }'
    exit 0
fi

# After each game gnubg prints "The score (after N games) is: gnubg A, tabula B (...)"; a
# game's points for tabula are the change of B - A.
grep -E "^The score \(after [0-9]+ games?\) is:" "$LOG" | awk '
    {
        s = $0
        sub(/.*is: /, "", s)
        split(s, f, /[ ,]+/)   # gnubg A tabula B ...
        d = (f[4] - f[2]) - last
        last = f[4] - f[2]
        n++; sum += d; sq += d * d
        if (d > 0) won++
    }
    END {
        if (n == 0) { print "no game finished"; exit 1 }
        m = sum / n
        sd = n > 1 ? sqrt((sq - n * m * m) / (n - 1)) : 0
        printf "games %d, tabula won %d: %+.3f points per game +- %.3f (95%%), total %+d\n",
               n, won, m, 1.96 * sd / sqrt(n), sum
    }'
