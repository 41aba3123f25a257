#!/bin/sh
# tabula's node rate against a reference engine's, in the same window: the two searches from
# the Nine Men's Morris start alternate, each on one pinned core, RUNS times (default 7), and
# the medians are compared. The machine's speed drifts too much for figures from different
# windows to compare (docs/measuring.md, "What noise looks like").
#   REF=/path/to/engine sh scripts/reference.sh [path/to/tabula]
# tabula searches to DEPTH (default 16) with Hash 16, with the search switches named in OFF
# turned off (bench/lib.sh; none by default). The reference gets the lines of REF_SETUP
# (default: the Sanmill console engine's fixed-depth search to REF_DEPTH, default 12, by its
# search REF_ALGORITHM, default 2 for MTD(f), without its move shuffling or time limit) and must
# print, before the line that names its `bestmove`, a line with the fields `nodes <n>` and
# `time <ms>`. Build the reference as its own Makefile does, with -flto (docs/measuring.md,
# "Against the reference engine"). The reference is never part of tabula: it is only run here.
set -eu
# shellcheck source=bench/lib.sh
. "$(dirname "$0")/../bench/lib.sh"
bin=${1:-./tabula}
runs=${RUNS:-7}
depth=${DEPTH:-16}
ref_depth=${REF_DEPTH:-12}
need_ref_and_tabula "$bin"
need_switches "$bin"
ref_setup=${REF_SETUP:-"uci
setoption name Shuffling value false
setoption name MoveTime value 0
setoption name Algorithm value ${REF_ALGORITHM:-2}
setoption name DrawOnHumanExperience value false
setoption name DeveloperMode value false
setoption name SkillLevel value $ref_depth
position startpos
go"}
out=$(mktemp)
fifo=$out.in
trap 'rm -f "$out" "$fifo"' EXIT
trap '' PIPE

run_tabula() { search_nine "$bin" "$depth"; }

# The reference may search on its own thread and abort on end of input, so its input stays
# open until it answers `bestmove`, exits, or ten minutes pass.
run_ref() {
    : >"$out"
    rm -f "$fifo"
    mkfifo "$fifo"
    pinned 1 "$REF" <"$fifo" >"$out" 2>&1 &
    pid=$!
    exec 3>"$fifo"
    printf '%s\n' "$ref_setup" >&3 || true # the reference may have exited at once
    polls=0
    while ! grep -q 'bestmove' "$out" && kill -0 "$pid" 2>/dev/null && [ "$polls" -lt 12000 ]; do
        sleep 0.05
        polls=$((polls + 1))
    done
    echo quit >&3 2>/dev/null || true
    exec 3>&-
    wait "$pid" || true
    sed -n '/bestmove/q;p' "$out" | time_nodes
}

# One run of each, in turn: "<tabula ms> <nodes> <reference ms> <nodes>"; the runs go to stderr.
run_both() {
    t=$(run_tabula)
    r=$(run_ref)
    if [ -z "$r" ]; then
        die "no 'nodes <n> ... time <ms>' line from $REF"
    fi
    echo "tabula depth $depth ${t% *} ms ${t#* } nodes; reference ${r% *} ms ${r#* } nodes" >&2
    echo "$t $r"
}

runs_both=$(repeat run_both)
t_nps=$(printf '%s\n' "$runs_both" | cut -d ' ' -f 1,2 | nps | median)
r_nps=$(printf '%s\n' "$runs_both" | cut -d ' ' -f 3,4 | nps | median)
awk -v t="$t_nps" -v r="$r_nps" -v n="$runs" 'BEGIN {
    printf "median of %d: tabula %.2fM nps, reference %.2fM nps: %.2fx\n",
           n, t / 1e6, r / 1e6, (r > 0 ? t / r : 0) }'
