#!/bin/sh
# gnubg as an outside judge of tabula's backgammon plays: for each vector of
# tests/data/bg_plays.txt with 1 to 100 plays, compare the plays `moves` lists (commas read
# as spaces) with the list gnubg's `hint` prints. Needs gnubg (Debian package, /usr/games/gnubg).
# Usage: sh scripts/bg_judge.sh [./tabula]
TAB=${1:-./tabula}
GNUBG=${GNUBG:-/usr/games/gnubg}
DATA=$(dirname "$0")/../tests/data/bg_plays.txt
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
same=0 diff=0
while IFS='|' read -r id roll cnt; do
  case "$id" in \#*) continue ;; esac
  id=$(echo $id) roll=$(echo $roll) cnt=$(echo $cnt)
  [ "$cnt" -gt 100 ] || [ "$cnt" -eq 0 ] && continue
  d1=$(echo "$roll" | cut -c1) d2=$(echo "$roll" | cut -c2)
  printf "gnubg.command('new game')\ngnubg.command('set board %s')\ngnubg.command('set dice %s %s')\nfor m in gnubg.hint(100)['hint']:\n    print('MOVE', m['move'])\n" \
    "$id" "$d1" "$d2" > "$dir/q.py"
  # One gnubg process per query: hint may keep an old answer for the same position.
  timeout 60 "$GNUBG" -t -q -r -p "$dir/q.py" 2>/dev/null | sed -n 's/^MOVE //p' | sort > "$dir/g"
  printf 'setoption name UCI_Variant value backgammon\nposition gnubgid %s moves %s\nmoves\n' \
    "$id" "$roll" | "$TAB" | tr ' ' '\n' | sed 's/^[0-9][0-9]://; s/,/ /g' | sort > "$dir/t"
  if cmp -s "$dir/g" "$dir/t"; then
    same=$((same + 1))
  else
    diff=$((diff + 1))
    echo "differ: $id $roll"
    diff "$dir/g" "$dir/t" | head -8
  fi
done < "$DATA"
echo "$same agree, $diff differ"
[ "$diff" = 0 ]
