# shellcheck shell=sh
# Helpers of the speed and comparison scripts (bench/search.sh, scripts/reference.sh,
# scripts/sanmill_match.sh), sourced by them.

# One error, named by the calling script, and exit 1.
die() {
    echo "$0: $*" >&2
    exit 1
}

# Exit with one error unless $1 (a path, or a command on PATH) runs; $2 says what it is.
need_executable() {
    if ! p=$(command -v "$1" 2>/dev/null) || [ ! -f "$p" ] || [ ! -x "$p" ]; then
        die "cannot run $1 ($2): not an executable file"
    fi
}

# The scripts that run a reference engine: REF must name one, and tabula ($1) must be built.
need_ref_and_tabula() {
    [ -n "${REF:-}" ] || die "set REF to the reference engine (see the top of the script)"
    need_executable "$REF" REF
    need_executable "$1" "tabula; build it with make"
}

# The middle line of stdin, ordered by its first number.
median() { sort -n | awk '{a[NR] = $0} END {print a[int((NR + 1) / 2)]}'; }

# Run a command as many times as the caller's `runs` says.
# shellcheck disable=SC2154
repeat() {
    i=0
    while [ "$i" -lt "$runs" ]; do
        "$@"
        i=$((i + 1))
    done
}

# Run a command on one core (its number first), pinned where taskset exists.
pinned() {
    cpu=$1
    shift
    if command -v taskset >/dev/null 2>&1; then taskset -c "$cpu" "$@"; else "$@"; fi
}

# "<ms> <nodes>" from the last line of stdin that has both `time <ms>` and `nodes <n>`.
time_nodes() {
    awk '{ t = n = ""
           for (i = 1; i < NF; i++) { if ($i == "time") t = $(i + 1); if ($i == "nodes") n = $(i + 1) }
           if (t != "" && n != "") last = t " " n }
         END { print last }'
}

# Nodes per second from "<ms> <nodes>" lines.
nps() { awk '{printf "%.0f\n", ($1 > 0 ? $2 * 1000 / $1 : 0)}'; }

# A `setoption` line turning off each search switch named in OFF (a space-separated list, e.g.
# OFF="LateMovePruning ReverseFutility"; docs/protocol.md lists the switches), none by default.
switches_off() {
    for name in ${OFF:-}; do
        printf 'setoption name %s value false\n' "$name"
    done
}

# Exit with the engine's error unless tabula ($1) takes every line of switches_off, so that a
# misspelt switch is not timed as a search with nothing off. Call it before any search.
need_switches() {
    [ -n "${OFF:-}" ] || return 0
    err=$(switches_off | "$1" 2>&1 | grep 'error' || true)
    [ -z "$err" ] || die "OFF: $err"
}

# The commands of a search from the nine start to depth $1 with $2 threads and Hash $3 MB, after
# a new game, with the switches of OFF off.
nine_commands() {
    switches_off
    printf 'setoption name Hash value %s\nsetoption name Threads value %s\n' "$3" "$2"
    printf 'ucinewgame\nposition startpos\ngo depth %s\n' "$1"
}

# "<ms> <nodes>" of tabula ($1) searching from the nine start to depth $2 with one thread and
# Hash 16, pinned to core 1 (nine_commands).
search_nine() { nine_commands "$2" 1 16 | pinned 1 "$1" | time_nodes; }
