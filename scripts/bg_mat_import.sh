#!/bin/sh
# Import a Jellyfish .mat file (as `tabula match --mat` writes it) with GNU Backgammon's own
# `import mat` and check it: gnubg reports no error or warning (it checks every play against its
# rules), and its game count and score agree with the file.
#
#   sh scripts/bg_mat_import.sh games.mat
#
# GNUBG names the program (default /usr/games/gnubg, package gnubg). Exit status 0 when the
# import is clean, 1 when it is not, 2 on bad arguments.
set -u
if [ $# -ne 1 ]; then
    echo "usage: sh scripts/bg_mat_import.sh MATFILE" >&2
    exit 2
fi
mat=$1
gnubg=${GNUBG:-/usr/games/gnubg}
if [ ! -r "$mat" ]; then
    echo "bg_mat_import.sh: cannot read '$mat'" >&2
    exit 2
fi
case $mat in
*[[:space:]]*)
    echo "bg_mat_import.sh: gnubg's import command takes no spaces in '$mat'" >&2
    exit 2
    ;;
esac
if [ ! -x "$gnubg" ]; then
    echo "bg_mat_import.sh: $gnubg not found (apt-get install gnubg, or set GNUBG)" >&2
    exit 2
fi
want=$(grep -c '^ Game [0-9]' "$mat")
length=$(sed -n 's/^ *\([0-9][0-9]*\) point match.*/\1/p' "$mat" | head -n 1)
out=$(printf 'import mat %s\nshow score\n' "$mat" | "$gnubg" -t -q 2>&1)
status=0
bad=$(printf '%s\n' "$out" | grep -i -E 'warning|invalid|unrecognised|not a valid|error|illegal|cannot|doesn.t follow')
if [ -n "$bad" ]; then
    echo "bg_mat_import.sh: gnubg reports:" >&2
    printf '%s\n' "$bad" | head -n 10 >&2
    status=1
fi
score=$(printf '%s\n' "$out" | grep 'The score' | tail -n 1)
got=$(printf '%s\n' "$score" | sed -n 's/.*(after \([0-9][0-9]*\) games*).*/\1/p')
if [ "$want" = 0 ]; then
    echo "bg_mat_import.sh: '$mat' has no game" >&2
    status=1
elif [ -z "$score" ]; then
    echo "bg_mat_import.sh: gnubg printed no score after the import" >&2
    status=1
elif [ "$got" != "$want" ]; then
    # Every game of the file is a finished game (gnubg counts only those).
    echo "bg_mat_import.sh: gnubg imported ${got:-no} games, the file has $want" >&2
    status=1
elif [ "${length:-0}" != 0 ] && ! printf '%s\n' "$score" | grep -q "match to $length point"; then
    echo "bg_mat_import.sh: gnubg did not read a match to $length points: $score" >&2
    status=1
fi
echo "$mat: $want games; gnubg: $score"
exit $status
