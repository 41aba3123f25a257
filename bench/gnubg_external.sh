#!/bin/sh
# tabula as a GNU Backgammon external player: gnubg (the host, and player 0 at its own 0-ply)
# plays GAMES money games against `tabula external` (player 1) and prints its record.
# usage: sh bench/gnubg_external.sh [TABULA] [GAMES] [PLIES] [PORT]
# Needs the gnubg package. See docs/backgammon.md.
set -eu
TABULA=${1:-./tabula}
GAMES=${2:-1}
PLIES=${3:-1}
PORT=${4:-$((40000 + $$ % 20000))}
GNUBG=${GNUBG:-/usr/games/gnubg}
LOG=${LOG:-gnubg_external.log}

"$TABULA" external --port "$PORT" --plies "$PLIES" 2>/dev/null &
TPID=$!
trap 'kill $TPID 2>/dev/null || true' EXIT INT TERM
sleep 0.5

{
    # gnubg 0-ply for player 0 (checker play and cube), tabula for player 1.
    echo "set player 0 gnubg"
    echo "set player 0 chequerplay evaluation plies 0"
    echo "set player 0 cubedecision evaluation plies 0"
    echo "set player 1 name tabula"
    echo "set player 1 external localhost:$PORT"
    echo "set jacoby on"
    echo "set automatic game off"
    i=0
    while [ "$i" -lt "$GAMES" ]; do
        if [ "$i" = 0 ]; then echo "new session"; else echo "new game"; fi
        i=$((i + 1))
    done
    echo "quit"
    echo "y"
} | "$GNUBG" -t -q > "$LOG" 2>&1 || true

# Each game ends with "<player> wins a single game / a gammon / ... and N point(s)".
grep -E "wins (a|an) .* point" "$LOG" || { echo "no game finished; see $LOG"; exit 1; }
