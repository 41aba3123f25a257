#!/bin/sh
# The interactive prompt in a real terminal: tabula runs in a detached tmux window, keys are
# typed with send-keys and the screen is read back with capture-pane. Checks completion (of
# every family's variants), the board after a move and after a bare move, `d` in words, a
# fresh prompt after a search's output, Ctrl-C, history across a restart (in a temporary HOME)
# and quit; then a whole game of nine and one of backgammon played as a person plays them (bare
# moves, roll, gnubg-style plays, play), and Ctrl-C in a backgammon search.
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
printf 'set -g default-terminal screen\nset -g exit-empty off\nset -g history-limit 50000\n' >"$TMP/tmux.conf"
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

# ---------------------------------------------------------------------------------------------
# Whole games, as a person plays them: only bare moves, roll and play. The person takes the
# first legal move that `moves` lists; the engine plays at depth 1.

# run LINE [REGEX]: type a line and wait (10 s) until a fresh empty prompt follows its output
# (and, given REGEX, a line of it matches); the output is then in $OUT, the typed line first.
# The history is cleared before, so that reading the whole pane stays quick; one awk finds the
# last echo of the line (wrapped lines joined) and checks what follows.
run() {
    # The line literally (`f6` is a move, not the key F6), then Enter, in one call.
    tm clear-history -t prompt \; send-keys -t prompt -l "$1" \; send-keys -t prompt Enter
    i=0
    while [ $i -lt 400 ]; do
        if OUT=$(tm capture-pane -p -J -S - -t prompt 2>/dev/null | awk -v cmd="tabula> $1" \
            -v re="${2:-}" '
            { l[NR] = $0 }
            NF { last = NR }
            $0 == cmd || $0 == cmd " " { from = NR }
            END {
                if (!from || last <= from || l[last] !~ /^tabula> ?$/) exit 1
                ok = re == ""
                for (i = from; i <= last; i++) { print l[i]; if (re != "" && l[i] ~ re) ok = 1 }
                exit !ok
            }'); then
            return 0
        fi
        sleep 0.02 2>/dev/null || sleep 1
        i=$((i + 1))
    done
    fail "'$1' answers in time"
    return 1
}

# The first legal move, as `moves` lists it ("(none)" when the game is over).
first_move() {
    run moves || return 1
    FIRST=$(printf '%s\n' "$OUT" | sed -n 2p | awk '{ print $1 }')
}

start "$TMP/games"
keys 'setoption name UCI_Variant value nine' Enter
over=no
plies=0
while [ $plies -lt 400 ]; do
    first_move || break
    [ "$FIRST" = "(none)" ] && { over=yes; break; }
    run "$FIRST" || break
    if printf '%s\n' "$OUT" | grep -q 'error'; then
        fail "nine: the bare move '$FIRST' is played"
        break
    fi
    plies=$((plies + 1))
    run "play depth 1" '^bestmove ' || break
    printf '%s\n' "$OUT" | grep -q 'the game is over' && { over=yes; break; }
    plies=$((plies + 1))
done
if [ $over = yes ] && run 'query gameover' '^response true$'; then
    pass "nine: a whole game with bare moves and 'play depth 1' ($plies plies)"
else
    fail "nine: a whole game with bare moves and 'play depth 1' ($plies plies)"
fi

# Backgammon: the person (X) doubles at once (the engine answers), then rolls and types the
# first legal play in gnubg's form (`8/5 6/5`, `6/5(2)`, `bar/22*`); the engine plays its
# whole turn; a double of the engine's is taken.
keys 'setoption name UCI_Variant value backgammon' Enter
run 'roll seed 11'
run 'double' '^X \(player 1\) doubled to 2' || fail "backgammon: a bare 'double' is played"
run 'play depth 1' '^bestmove ' &&
    printf '%s\n' "$OUT" | grep -Eq '^tabula takes the double$' &&
    pass "backgammon: play answers a double in words ('tabula takes the double')" ||
    fail "backgammon: play answers a double in words"
over=no
turns=0
gnubg_form=no
engine_words=no
while [ $turns -lt 300 ]; do
    run 'roll' '^Dice: [1-6]-[1-6]$' || break
    if ! printf '%s\n' "$OUT" | grep -q '^No legal play'; then
        first_move || break
        [ "$FIRST" = "(none)" ] && { over=yes; break; }
        PLAY=$(printf '%s\n' "$FIRST" | sed 's/^[1-6][1-6]://; s/,/ /g')
        run "$PLAY" || break
        if printf '%s\n' "$OUT" | grep -q 'error'; then
            fail "backgammon: the play '$PLAY' ($FIRST) is played"
            break
        fi
        case $PLAY in *' '* | *'('*) gnubg_form=yes ;; esac
    fi
    turns=$((turns + 1))
    if printf '%s\n' "$OUT" | grep -q '^Game over'; then
        over=yes
        break
    fi
    run 'play depth 1' '^bestmove ' || break
    printf '%s\n' "$OUT" | grep -Eq '^tabula (rolls [1-6]-[1-6] and (plays|cannot move)|doubles)' &&
        engine_words=yes
    if printf '%s\n' "$OUT" | grep -q 'game over'; then
        over=yes
        break
    fi
    if printf '%s\n' "$OUT" | grep -q '^tabula doubles'; then
        # The person takes; the engine, still on roll, throws and plays.
        run 'take' '^Cube: [0-9]+, owned by X' || break
        run 'play depth 1' '^bestmove ' || break
        if printf '%s\n' "$OUT" | grep -q 'game over'; then
            over=yes
            break
        fi
    fi
done
if [ $over = yes ] && run 'query gameover' '^response true$'; then
    pass "backgammon: a whole game with roll, bare plays and 'play depth 1' ($turns turns)"
else
    fail "backgammon: a whole game with roll, bare plays and 'play depth 1' ($turns turns)"
fi
[ $gnubg_form = yes ] && pass "backgammon: plays typed in gnubg's form (spaces, (n))" ||
    fail "backgammon: plays typed in gnubg's form (spaces, (n))"
[ $engine_words = yes ] && pass "backgammon: play tells its roll and play in words" ||
    fail "backgammon: play tells its roll and play in words"

# The board keeps X at the bottom whoever is on roll.
run 'new'
run 'roll 31'
run '8/5 6/5' '^ \+12-11-10--9--8--7-------6--5--4--3--2--1-\+   X: 163 pips' &&
    printf '%s\n' "$OUT" | grep -q '^O (player 0) on roll, dice not rolled' &&
    pass "backgammon: after X's play, X is still at the bottom and O is on roll" ||
    fail "backgammon: after X's play, X is still at the bottom and O is on roll"
run 'take' "^info string error: cannot play 'take': .*no double was offered" &&
    pass "backgammon: a bare 'take' without a double says why" ||
    fail "backgammon: a bare 'take' without a double says why"
run 'roll 77' "^info string error: usage: roll" &&
    pass "backgammon: 'roll 77' is refused" || fail "backgammon: 'roll 77' is refused"

# Ctrl-C stops a backgammon search; the prompt answers again.
keys 'go infinite' Enter
check "backgammon: 'go infinite' searches" '^info depth' -a
keys C-c
check_prompt_after "backgammon: Ctrl-C stops the search: bestmove, then the prompt" '^bestmove '
run 'isready' '^readyok$' && pass "backgammon: the engine answers after Ctrl-C"
run 'setoption name UCI_Variant value nine'
run 'roll' "^info string error: roll: nine is played without dice" &&
    pass "nine: 'roll' is refused with one error" || fail "nine: 'roll' is refused with one error"
keys 'quit' Enter
check "whole games: quit leaves with exit status 0" '^exit status 0$'

if [ $failed = 0 ]; then
    echo "prompt test: all checks passed"
else
    echo "prompt test: FAILED"
fi
exit $failed
