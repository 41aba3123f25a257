#!/bin/sh
# The interactive prompt in a real terminal: tabula runs in a detached tmux window, keys are
# typed with send-keys and the screen is read back with capture-pane. Checks completion (of
# every family's variants), the board after a move and after a bare move, `d` in words, a
# fresh prompt after a search's output, Ctrl-C, history across a restart (in a temporary HOME)
# and quit.
#
# usage: sh tests/prompt_test.sh [path/to/tabula]    (default ./tabula)
# Prints PASS or FAIL per check; exits 1 when one failed, 2 when it cannot run.

BIN=${1:-./tabula}
case $BIN in /*) ;; *) BIN=$(pwd)/$BIN ;; esac
if ! command -v tmux >/dev/null 2>&1; then
    echo "prompt test: tmux is missing (make prompt-test installs it)"
    exit 2
fi
if [ ! -x "$BIN" ]; then
    echo "prompt test: no program at $BIN"
    exit 2
fi

TMP=$(mktemp -d "${TMPDIR:-/tmp}/tabula-prompt.XXXXXX") || exit 2
mkdir "$TMP/home"
# A server of our own (own socket, no user configuration) on a terminal type every system has;
# it stays up between runs of tabula, so that a restart never races its shutdown.
printf 'set -g default-terminal screen\nset -g exit-empty off\n' >"$TMP/tmux.conf"
tm() { tmux -S "$TMP/socket" -f "$TMP/tmux.conf" "$@"; }
trap 'tm kill-server >/dev/null 2>&1; rm -rf "$TMP"' EXIT
trap 'exit 2' INT TERM HUP

failed=0
pass() { echo "PASS: $1"; }
fail() {
    echo "FAIL: $1"
    echo "---- screen ----"
    screen
    echo "----------------"
    failed=1
}

# The visible screen, without its empty lines.
screen() { tm capture-pane -p -t prompt 2>/dev/null | sed '/^ *$/d'; }
nap() { sleep 0.05 2>/dev/null || sleep 1; }

# wait_for REGEX [-a]: wait up to 5 s for the last line of the screen (with -a, any line) to
# match the extended regular expression.
wait_for() {
    i=0
    while [ $i -lt 100 ]; do
        if [ "${2:-}" = -a ]; then
            screen | grep -Eq -- "$1" && return 0
        else
            screen | tail -n 1 | grep -Eq -- "$1" && return 0
        fi
        nap
        i=$((i + 1))
    done
    return 1
}

# check NAME REGEX [-a]: PASS when the screen shows REGEX in time.
check() {
    if wait_for "$2" "${3:-}"; then pass "$1"; else fail "$1"; fi
}

# check_prompt_after NAME REGEX [LAST]: PASS when, in time (10 s), the next to last line of
# the screen matches REGEX and the last LAST (an empty prompt): the prompt was drawn again
# after that output.
check_prompt_after() {
    i=0
    while [ $i -lt 200 ]; do
        if screen | tail -n 2 | head -n 1 | grep -Eq -- "$2" &&
            screen | tail -n 1 | grep -Eq -- "${3:-^tabula> ?$}"; then
            pass "$1"
            return
        fi
        nap
        i=$((i + 1))
    done
    fail "$1"
}

# Start tabula in a fresh tmux window with HOME as given; its exit status is shown when it ends.
start() {
    tm kill-window -t prompt >/dev/null 2>&1
    tm new -d -s prompt -x 100 -y 50 \
        "cd '$TMP' && HOME='$1' LC_ALL=C '$BIN'; echo \"exit status \$?\"; sleep 60" || exit 2
    if ! wait_for '^tabula> ?$'; then
        fail "start: the prompt appears"
        exit 1
    fi
}

keys() { tm send-keys -t prompt "$@"; }

start "$TMP/home"
pass "start: the prompt appears on a terminal"

keys 'pos' Tab
check "Tab completes 'pos' to 'position'" '^tabula> position$'
keys C-u

keys 'setoption name UCI_V' Tab
check "Tab completes 'setoption name UCI_V' to the option name" \
    '^tabula> setoption name UCI_Variant$'
keys 'value mor' Tab
check "Tab completes a variant id ('mor' to 'morabaraba')" \
    '^tabula> setoption name UCI_Variant value morabaraba$'
keys C-u

keys 'move d' Tab Tab
check "Tab Tab lists the legal moves after 'move d'" '^d1 +d2 +d3 +d5 +d6 +d7$' -a
keys '6' Tab
check "Tab completes the legal move 'd6'" '^tabula> move d6$'
keys Enter
# The board with a white man on d6 (rank 6: a6-b6 rail, W at d6), then the prompt again.
check "the board is drawn after 'move d6'" '^6 +\| +\.-+W-+\. +\|$' -a
check "the prompt returns after the board" '^tabula> ?$'
keys 'd' Enter
check "d says who moves and the men in hand" '^Black to move; in hand: white 8, black 9$' -a

# A legal move typed alone is played: black places on d2.
keys 'd2' Enter
check "a bare move 'd2' is played" '^2 +\| +\.-+B-+\. +\|$' -a
check "the board after it says who moves" '^White to move; in hand: white 8, black 8$' -a
keys 'd9' Enter
check "a word that is neither command nor legal move is refused" \
    "^info string error: unknown command 'd9'" -a

# The search's lines arrive after the prompt was drawn: it is drawn again below them.
keys 'go depth 6' Enter
check_prompt_after "a fresh prompt follows the bestmove of 'go depth 6'" '^bestmove '
keys 'go movetime 300' Enter 'isre'
check_prompt_after "a line typed during the search is drawn again after bestmove" '^bestmove ' \
    '^tabula> isre$'
keys C-u

# Ctrl-C stops an infinite search, which answers bestmove; the engine goes on.
keys 'go infinite' Enter
check "'go infinite' searches" '^info depth' -a
keys C-c
check_prompt_after "Ctrl-C stops the search: bestmove, then the prompt" '^bestmove '
keys 'isready' Enter
check_prompt_after "the engine still answers isready after Ctrl-C" '^readyok$'
keys 'foo'
check "a line is typed" '^tabula> foo$' # (the terminal drops what Ctrl-C finds unread)
keys C-c
check "Ctrl-C at an idle prompt drops the line" '^tabula> foo\^C$' -a
check "... and draws a fresh prompt" '^tabula> ?$'

# Completion knows every family's variants.
keys 'setoption name UCI_Variant value b' Tab
check "Tab completes the variant 'b' to 'backgammon'" \
    '^tabula> setoption name UCI_Variant value backgammon$'
keys Enter
check "the backgammon board is drawn" '^X \(player 1\) on roll' -a

keys 'quit' Enter
check "quit leaves with exit status 0" '^exit status 0$'
if [ -f "$TMP/home/.tabula_history" ] && grep -q 'move' "$TMP/home/.tabula_history"; then
    pass "history saved to \$HOME/.tabula_history"
else
    fail "history saved to \$HOME/.tabula_history"
fi

start "$TMP/home"
keys Up
check "Up after a restart recalls 'quit'" '^tabula> quit$'
keys Up Up Up Up Up Up Up Up Up
check "Up 9 times more recalls the first line, 'move d6'" '^tabula> move d6$'
keys C-u 'quit' Enter
check "quit leaves again" '^exit status 0$'

# No home to keep the history in: the prompt works all the same.
start "$TMP/missing"
keys 'isready' Enter
check "no writable HOME: commands still run" '^readyok$' -a
keys 'quit' Enter
check "no writable HOME: quit leaves with exit status 0" '^exit status 0$'

if [ $failed = 0 ]; then
    echo "prompt test: all checks passed"
else
    echo "prompt test: FAILED"
fi
exit $failed
