#!/bin/sh
# A match of tabula against the Sanmill console engine (Nine Men's Morris), refereed by
# `tabula match` (docs/match.md); Sanmill plays through scripts/sanmill_uci.py, the UCI adapter
# (its top tells how moves, scores and time are mapped).
#   REF=/path/to/sanmill sh scripts/sanmill_match.sh [path/to/tabula [MATCH OPTION...]]
# GAMES games (default 40, colours swapped in pairs) of ST seconds a move (default 1),
# CONCURRENCY at once (default 2); PGN and JSON, when set, name the files for the game records
# and the summary. Further arguments go to `tabula match` (`--openings ...`, `--sprt ...`).
# Sanmill takes only whole seconds itself; the adapter stops it at its own deadline, a little
# inside ST. The reference is never part of tabula: it is only run here.
set -eu
dir=$(dirname "$0")
# shellcheck source=bench/lib.sh
. "$dir/../bench/lib.sh"
bin=${1:-./tabula}
if [ $# -gt 0 ]; then shift; fi
games=${GAMES:-40}
st=${ST:-1}
concurrency=${CONCURRENCY:-2}

need_ref_and_tabula "$bin"
command -v python3 >/dev/null 2>&1 || die "python3 is needed for scripts/sanmill_uci.py"

# The engines' commands go through /bin/sh: quote the paths, single quotes in them too.
quote() { printf "'%s'" "$(printf '%s' "$1" | sed "s/'/'\\\\''/g")"; }
set -- --engine "cmd=$(quote "$bin")" name=tabula \
    --engine "cmd=python3 $(quote "$dir/sanmill_uci.py") $(quote "$REF")" name=sanmill \
    --each "st=$st" --games "$games" --concurrency "$concurrency" "$@"
if [ -n "${PGN:-}" ]; then set -- "$@" --pgn "$PGN"; fi
if [ -n "${JSON:-}" ]; then set -- "$@" --json "$JSON"; fi
exec "$bin" match "$@"
