#!/bin/sh
# Endgame databases in play: tabula with a database against tabula without, from random
# positions the database itself picks (build/tbpick, `make tools`).
#
#   sh scripts/tbconvert.sh [BIN] [DB]      (or: make tbconvert TB=DB)
#
# Won: N positions with 3 against 3 or 4 against 3 men (no men in hand) that one side wins in
# at least MINPLIES plies; each is played twice with colours swapped (a game pair of
# `tabula match`), so the engine with the database holds the winning side once and the losing
# side once. Drawn: ND drawn positions of the same classes, played the same way. The summary
# counts, for the engine with the database: its results with the winning side (all should be
# wins), with the losing side, and in the drawn positions (no loss allowed).
#
# Settings by environment: VARIANT (nine), MEN (the classes, 3-3,4-3), N (100), ND (50; 0 for
# none), MINPLIES (5), ST (0.1 s a move),
# CONCURRENCY (2), SEED (1), OUT (build/tbconvert). A move may overrun ST by a second (a loaded
# machine) before it forfeits.
set -e
BIN=${1:-./tabula}
DB=${2:-nine-men4.tdb}
VARIANT=${VARIANT:-nine}
MEN=${MEN:-3-3,4-3}
N=${N:-100}
ND=${ND:-50}
MINPLIES=${MINPLIES:-5}
ST=${ST:-0.1}
CONCURRENCY=${CONCURRENCY:-2}
SEED=${SEED:-1}
OUT=${OUT:-build/tbconvert}
PICK=${PICK:-build/tbpick}

[ -f "$DB" ] || { echo "tbconvert: no database $DB (tabula solve $VARIANT --men 4)" >&2; exit 2; }
[ -x "$PICK" ] || { echo "tbconvert: $PICK missing (make tools)" >&2; exit 2; }
rm -f "$OUT"/won.* "$OUT"/drawn.*
mkdir -p "$OUT"
case $DB in /*) ABSDB=$DB ;; *) ABSDB=$(pwd)/$DB ;; esac

"$PICK" "$DB" --men "$MEN" --value won --min-plies "$MINPLIES" --count "$N" --seed "$SEED" \
    --out "$OUT/won.txt" --key "$OUT/won.key"
sets=won
if [ "$ND" -gt 0 ]; then
    "$PICK" "$DB" --men "$MEN" --value drawn --count "$ND" --seed "$SEED" \
        --out "$OUT/drawn.txt" --key "$OUT/drawn.key"
    sets="won drawn"
fi

for set in $sets; do
    count=$N
    [ $set = drawn ] && count=$ND
    echo "== $set: $count positions, $((2 * count)) games, st=$ST" >&2
    "$BIN" match --variant "$VARIANT" --quiet --concurrency "$CONCURRENCY" --timemargin 1000 \
        --engine cmd="$BIN" name=tb "option.TablebasePath=$ABSDB" \
        --engine cmd="$BIN" name=plain \
        --each st="$ST" --games $((2 * count)) --openings "file:$OUT/$set.txt" \
        --json "$OUT/$set.json" --pgn "$OUT/$set.pgn" >"$OUT/$set.report"
done

python3 - "$OUT" <<'EOF'
import json, os, sys
out = sys.argv[1]
def load(name):
    keys = [line.split() for line in open(f"{out}/{name}.key")]
    games = json.load(open(f"{out}/{name}.json"))["games"]
    return keys, games
def tally(name):
    try:
        keys, games = load(name)
    except FileNotFoundError:
        return None, None, None, []
    holding = {"win": 0, "draw": 0, "loss": 0}   # the engine with the database holds the win
    defending = {"win": 0, "draw": 0, "loss": 0} # it holds the lost side
    drawn = {"win": 0, "draw": 0, "loss": 0}
    plies = []
    for g in games:
        winner, dist = keys[g["pair"] % len(keys)]
        tb = "white" if g["white"] == 0 else "black"
        r = g["result"]
        res = "draw" if r == "1/2-1/2" else ("win" if (r == "1-0") == (tb == "white") else "loss")
        if winner == "draw":
            drawn[res] += 1
        elif winner == tb:
            holding[res] += 1
            if res == "win":
                plies.append((g["plies"], int(dist)))
        else:
            defending[res] += 1
    return holding, defending, drawn, plies
h, d, _, plies = tally("won")
_, _, dr, _ = tally("drawn") if os.path.exists(f"{out}/drawn.key") else (0, 0, None, 0)
fmt = lambda c: f"+{c['win']} ={c['draw']} -{c['loss']}"
n = sum(h.values())
print(f"won positions, tb holding the win:  {fmt(h)}  (converted {h['win']}/{n})")
if plies:
    exact = sum(1 for p, dd in plies if p <= dd)
    print(f"  plies to the end: {sum(p for p, _ in plies)} in all against {sum(dd for _, dd in plies)} "
          f"by the database; {exact} of {len(plies)} games ended within the database's distance")
print(f"won positions, tb on the lost side: {fmt(d)}")
if dr:
    print(f"drawn positions, tb either side:    {fmt(dr)}  (lost {dr['loss']})")
EOF
