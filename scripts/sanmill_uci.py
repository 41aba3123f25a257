#!/usr/bin/env python3
"""A UCI front end for the Sanmill console engine, so that `tabula match` can play it.

    python3 scripts/sanmill_uci.py [--log FILE] [--depth-timeout S] /path/to/sanmill [ARGS...]

It speaks tabula's UCI dialect on stdin/stdout (docs/match.md; docs/variants.md, "Notation")
and Sanmill's console protocol to a Sanmill process it starts. Nothing of Sanmill is part of
tabula: the binary is given by path and only spoken to. Nine Men's Morris only (`UCI_Variant` nine).

What it does, and what it relies on in Sanmill's protocol (checked against the 2025 console
engine and, with the differences noted, a 2021 one):
- Points: Sanmill names a point `(f,r)`: f the ring (1 inner, 2 middle, 3 outer), r = 1..8 from
  12 o'clock clockwise; d7 is (3,1), g7 (3,2), a7 (3,8), d5 (1,1). A turn is one Sanmill move
  for the action, `(f,r)` (place) or `(f1,r1)->(f2,r2)` (move or fly), and, after a mill, a
  second move by the same side for the removal, `-(f,r)`. tabula writes both as one token
  (`d6xa1`, `a1-a4xd7`); the adapter splits and joins them.
- The adapter keeps its own board and the rules of docs/variants.md (nine): it checks every
  move it is given and every move Sanmill answers, knows when an action closes a mill (then it
  asks Sanmill again, in its "remove" state, for the removal), and answers `bestmove (none)`
  itself when the side to move has no move.
- `position startpos moves ...` in Sanmill stops silently at the first move it finds illegal, so
  before every search the adapter asks Sanmill for its board (`d`, the `Fen:` line) and compares
  it, the side to move, the men in hand and the pending removal with its own; a difference is
  reported as an `info string` error and answered `bestmove (none)`.
- Sanmill answers `go` with a line holding `bestmove <move>` (2025: `info score S bestmove M`,
  S from White's view in fifths of a man; 2021: `bestmove M`, no score). The adapter reports
  `info [depth D] score cp X` from the mover's view, 100 cp a man (X = 20 * S; a won or lost
  game is 80 and more, so 1600 cp and beyond). With a single legal move Sanmill's score is a
  marker, not an evaluation, and no score is reported.
- Limits: `go depth N` is Sanmill's SkillLevel N (its search depth, in its plies: a removal is
  a ply of its own) with MoveTime 0 (no timer). `go movetime` and `go wtime/btime` search by
  time: SkillLevel at its maximum and iterative deepening, which Sanmill does only with a
  MoveTime > 0. Sanmill's MoveTime takes whole seconds only (0..60) and overshoots it (a search
  with MoveTime 1 answers after 1.0-1.1 s), so the adapter sets MoveTime to the time rounded up,
  as a backstop, and itself sends `stop` at its own millisecond deadline; Sanmill then answers
  at once with the best move of its last finished depth. The deadline is the movetime less
  max(30 ms, 5%), or, with a clock, min(remaining / movestogo (30 if not given) + increment,
  90% of the remaining time - 30 ms). When some action closes a mill, the action's search ends
  at 75% of it, leaving the rest for the removal's search. Depth searches give up after
  --depth-timeout seconds.
- Sanmill's rules for nine are tabula's but for one point: it checks its count of 100 plies
  without a placement or removal before the removal of the turn that closes a mill, so a mill
  closed on the 100th such ply draws the game for it, while tabula plays on (the removal resets
  the count). Where Sanmill's replay of the game ends like that after some turn, the adapter
  continues from Sanmill's own FEN there (its phase set back to placing or moving) and the moves
  since, and says so in an `info string`. Should Sanmill answer `draw` (a draw it claims by its
  own count instead of moving), the adapter asks again from the position without its history.
- The 2021 engine names the first player Black ('@', side 'b' in its FEN; the 2025 one 'O' and
  'w'), has depths up to 20 (2025: 30) and prints no score: the adapter learns the letters from
  one placement at `uci` and keeps depths in the SkillLevel range Sanmill announces.
- Sanmill's option lines are passed through (its author line too); `setoption` of other names
  goes to Sanmill, but SkillLevel and MoveTime are set for every search. Fixed at `uci`, where
  Sanmill has them: Shuffling false, Algorithm 2 (MTD(f)), DrawOnHumanExperience false,
  DeveloperMode false (so that the depth is SkillLevel throughout), UsePerfectDatabase false.
"""

import argparse
import math
import os
import queue
import re
import subprocess
import sys
import threading
import time

# --- The board: tabula's point names, Sanmill's rings, the mill lines --------------------------

# Sanmill's rings, each from 12 o'clock clockwise: RINGS[f - 1][r - 1] is Sanmill's (f,r).
RINGS = (
    ("d5", "e5", "e4", "e3", "d3", "c3", "c4", "c5"),  # f = 1, inner
    ("d6", "f6", "f4", "f2", "d2", "b2", "b4", "b6"),  # f = 2, middle
    ("d7", "g7", "g4", "g1", "d1", "a1", "a4", "a7"),  # f = 3, outer
)
TO_SANMILL = {p: "(%d,%d)" % (f + 1, r + 1)
              for f, ring in enumerate(RINGS) for r, p in enumerate(ring)}
FROM_SANMILL = {s: p for p, s in TO_SANMILL.items()}
POINTS = tuple(TO_SANMILL)

# docs/variants.md, "Boards and coordinates": the 16 lines of three of the 24-point board.
LINES = tuple(tuple(line.split("-")) for line in (
    "a7-d7-g7 b6-d6-f6 c5-d5-e5 a4-b4-c4 e4-f4-g4 c3-d3-e3 b2-d2-f2 a1-d1-g1 "
    "a1-a4-a7 b2-b4-b6 c3-c4-c5 d7-d6-d5 d3-d2-d1 e3-e4-e5 f2-f4-f6 g1-g4-g7").split())
LINES_OF = {p: tuple(line for line in LINES if p in line) for p in POINTS}


def neighbours(p):
    """The points next to p on its lines."""
    near = set()
    for line in LINES_OF[p]:
        i = line.index(p)
        near.update(line[j] for j in (i - 1, i + 1) if 0 <= j < len(line))
    return tuple(sorted(near))


ADJACENT = {p: neighbours(p) for p in POINTS}

MEN = 9  # men per side in nine
WHITE, BLACK = 0, 1
POINT_RE = r"[a-g][1-7]"
TOKEN_RE = re.compile(r"(%s)(?:-(%s))?((?:x%s)*)$" % (POINT_RE, POINT_RE, POINT_RE))
SANMILL_MOVE_RE = re.compile(r"(-?)(\(\d,\d\))(?:->(\(\d,\d\)))?$")

SANMILL_PER_MAN = 5  # Sanmill's value of one man
CP_PER_MAN = 100     # tabula's
SETUP = (            # Sanmill options set once, when Sanmill offers them
    ("Shuffling", "false"),              # the same move for the same search
    ("Algorithm", "2"),                  # MTD(f), its default
    ("DrawOnHumanExperience", "false"),  # the whole depth in the placing phase too
    ("DeveloperMode", "false"),          # search depth = SkillLevel
    ("UsePerfectDatabase", "false"),
)
PER_SEARCH = ("SkillLevel", "MoveTime")  # set by the adapter for every search
MOVES_TO_GO = 30       # moves left assumed under a clock without movestogo
MARGIN_MS = 30         # kept back from every time budget, at least
MIN_SEARCH_MS = 10     # the shortest time search
REMOVAL_RESERVE = 0.25  # the share of the budget kept for a removal's search
STOP_GRACE_S = 2.0     # how long Sanmill may take to answer after `stop`
REPLY_TIMEOUT_S = 20.0  # uciok, readyok
DEFAULT_DEPTH = 10     # `go` without a limit
QUIT_GRACE_S = 0.5     # after `quit`, before the adapter kills Sanmill


class AdapterError(Exception):
    """Something went wrong with Sanmill or the game; the message goes out as `info string`."""


class Quit(Exception):
    """The GUI said quit (or closed its input)."""


class Game:
    """A game of nine from the start, by tabula's rules (docs/variants.md, "A turn" and
    "Game end")."""

    def __init__(self):
        self.board = {}            # point -> WHITE or BLACK
        self.hand = [MEN, MEN]
        self.side = WHITE
        self.sanmill_moves = []    # the game so far in Sanmill's moves
        self.turns = [self.state()]  # the state at the start and after every turn

    def copy(self):
        g = Game()
        g.board, g.hand, g.side = dict(self.board), list(self.hand), self.side
        g.sanmill_moves, g.turns = list(self.sanmill_moves), list(self.turns)
        return g

    def state(self):
        """(Sanmill moves so far, board, men in hand, side to move), for Game.turns."""
        return len(self.sanmill_moves), dict(self.board), tuple(self.hand), self.side

    def men(self, side):
        return sum(1 for c in self.board.values() if c == side)

    def actions(self):
        """The legal actions of the side to move, as (from or None, to)."""
        empty = [p for p in POINTS if p not in self.board]
        if self.hand[self.side]:
            return [(None, p) for p in empty]
        own = [p for p in POINTS if self.board.get(p) == self.side]
        if len(own) == 3:  # flying
            return [(f, t) for f in own for t in empty]
        return [(f, t) for f in own for t in ADJACENT[f] if t not in self.board]

    def over(self):
        """True when the side to move has lost: fewer than 3 men, or no legal action."""
        return self.men(self.side) + self.hand[self.side] < 3 or not self.actions()

    def in_mill(self, p):
        return any(all(self.board.get(q) == self.board[p] for q in line) for line in LINES_OF[p])

    def closes_mill(self, action):
        """Whether the action, by the side to move, closes a mill (before it is made)."""
        f, t = action
        after = dict(self.board)
        if f:
            del after[f]
        after[t] = self.side
        return any(all(after.get(q) == self.side for q in line) for line in LINES_OF[t])

    def removals(self):
        """The opponent's men the side to move may remove: those outside mills, or any."""
        theirs = [p for p in POINTS if self.board.get(p) == 1 - self.side]
        free = [p for p in theirs if not self.in_mill(p)]
        return free or theirs

    def removal_due(self, action):
        """Whether the action is followed by a removal: it closes a mill and the opponent has
        a man on the board (docs/variants.md, "A turn": removing stops when there is none)."""
        return self.closes_mill(action) and self.men(1 - self.side) > 0

    def do_action(self, action):
        f, t = action
        if f:
            del self.board[f]
            self.sanmill_moves.append(TO_SANMILL[f] + "->" + TO_SANMILL[t])
        else:
            self.hand[self.side] -= 1
            self.sanmill_moves.append(TO_SANMILL[t])
        self.board[t] = self.side

    def do_removal(self, p):
        del self.board[p]
        self.sanmill_moves.append("-" + TO_SANMILL[p])

    def play(self, token):
        """Play one turn in tabula's notation; AdapterError if it is not legal here."""
        m = TOKEN_RE.match(token)
        if not m:
            raise AdapterError("'%s' is not a move in tabula's notation" % token)
        if self.over():
            raise AdapterError("'%s' is played after the end of the game" % token)
        action = (m.group(2) and m.group(1), m.group(2) or m.group(1))
        removed = re.findall(POINT_RE, m.group(3))
        if action not in self.actions():
            raise AdapterError("illegal move '%s'" % token)
        due = self.removal_due(action)
        self.do_action(action)
        if due and not removed:
            raise AdapterError("illegal move '%s' (it closes a mill: a removal is due)" % token)
        if not due and removed:
            raise AdapterError("illegal move '%s' (a removal without a mill)" % token)
        if len(removed) > 1 or (removed and removed[0] not in self.removals()):
            raise AdapterError("illegal move '%s' (not a legal removal)" % token)
        for p in removed:
            self.do_removal(p)
        self.side = 1 - self.side
        self.turns.append(self.state())


def sanmill_board(board, chars):
    """Sanmill's board field: the three rings, inner first, with chars[WHITE], chars[BLACK]."""
    return "/".join("".join(chars[board[p]] if p in board else "*" for p in ring)
                    for ring in RINGS)


def action_token(action):
    f, t = action
    return "%s-%s" % (f, t) if f else t


def parse_tokens(words):
    """The moves of a position command as whole turns: a lone removal token (`xd7`) joins the
    action before it (docs/variants.md, "Notation")."""
    turns = []
    for w in words:
        if w.startswith("x") and turns:
            turns[-1] += w
        else:
            turns.append(w)
    return turns


# --- The adapter -----------------------------------------------------------------------------

class Adapter:
    def __init__(self, argv, log, depth_timeout):
        self.log = log
        self.depth_timeout = depth_timeout
        self.events = queue.Queue()  # ('gui', line or None), ('eng', line or None)
        self.pending = []            # GUI commands read during a search, for later
        self.dead = None             # why Sanmill can no longer be used, once it cannot
        self.game = Game()
        self.position_error = None
        self.variant_error = None
        self.options = {}            # Sanmill's options: name -> (min, max) for spins, else None
        self.sent = {}               # last value sent per option
        self.chars = None            # Sanmill's man of White, of Black ('O', '@')
        self.letters = None          # Sanmill's side letter of White, of Black ('w', 'b')
        self.anchor = None           # (Sanmill FEN, k, moves[:k]): play from there, see reanchor
        self.uci_lines = []          # Sanmill's id author and option lines
        self.sanmill_name = ""
        self.t_wait = 0.0            # when the current wait for Sanmill began
        try:
            self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                         stderr=subprocess.STDOUT, bufsize=1,
                                         encoding="utf-8", errors="replace")
        except OSError as e:
            sys.exit("sanmill_uci.py: cannot start %s: %s" % (argv[0], e.strerror))
        threading.Thread(target=self.read_engine, daemon=True).start()
        threading.Thread(target=self.read_gui, daemon=True).start()

    # -- input, output, logging

    def note(self, direction, line):
        if self.log:
            self.log.write("%.3f %s %s\n" % (time.monotonic(), direction, line))
            self.log.flush()

    def read_engine(self):
        try:
            for line in self.proc.stdout:  # line by line: Sanmill prints a lot
                self.events.put(("eng", line.rstrip("\r\n")))
        finally:
            self.events.put(("eng", None))

    def read_gui(self):
        try:
            for line in sys.stdin:
                self.events.put(("gui", line.strip()))
        finally:
            self.events.put(("gui", None))

    def out(self, line):
        self.note("<", line)
        try:
            sys.stdout.write(line + "\n")
            sys.stdout.flush()
        except BrokenPipeError:
            raise Quit()

    def info(self, text):
        self.out("info string " + text)

    def send(self, line):
        if self.dead:
            raise AdapterError(self.dead)
        self.note("S>", line)
        try:
            self.proc.stdin.write(line + "\n")
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError):
            self.fail("Sanmill exited (its input is closed)")

    def fail(self, why):
        """Sanmill is unusable from now on."""
        self.dead = self.dead or why
        raise AdapterError(why)

    def engine_line(self, line):
        """Note a line from Sanmill; relay its complaints about options."""
        self.note("S<", line)
        if line.startswith("No such option"):
            self.info("Sanmill: " + line)

    def expect(self, match, deadline, stop_at=None, collect=None, searching=False):
        """Read Sanmill until a line that `match`es, and return it. GUI commands that arrive
        meanwhile wait in self.pending, but during a search quit is obeyed, isready answered
        and stop passed on. At `stop_at` Sanmill gets `stop`; at `deadline` the wait
        fails."""
        stopped = False
        while True:
            now = time.monotonic()
            if stop_at is not None and not stopped and now >= stop_at:
                self.send("stop")
                stopped = True
            if now >= deadline:
                self.fail("no answer from Sanmill within %.1f s" % (deadline - self.t_wait))
            wake = deadline if stopped or stop_at is None else min(deadline, stop_at)
            try:
                kind, line = self.events.get(timeout=max(0.0, wake - now))
            except queue.Empty:
                continue
            if kind == "eng":
                if line is None:
                    self.fail("Sanmill exited")
                self.engine_line(line)
                if match(line):
                    return line
                if collect is not None:
                    collect.append(line)
            elif line is None or line == "quit":
                if searching:
                    raise Quit()
                self.pending.append("quit")
            elif line == "isready" and searching:
                self.note(">", line)
                self.out("readyok")
            elif line == "stop" and searching:
                self.note(">", line)
                if not stopped:
                    self.send("stop")
                    stopped = True
            elif line:
                self.pending.append(line)

    def wait(self, match, seconds, stop_at=None, collect=None, searching=False):
        self.t_wait = time.monotonic()
        return self.expect(match, self.t_wait + seconds, stop_at, collect, searching)

    def next_command(self):
        """The next GUI command; Sanmill's lines in between are only logged."""
        while not self.pending:
            kind, line = self.events.get()
            if kind == "gui":
                if line is None:
                    return "quit"
                if line:
                    self.pending.append(line)
            elif line is None:
                self.dead = self.dead or "Sanmill exited"
            else:
                self.engine_line(line)
        line = self.pending.pop(0)
        self.note(">", line)
        return line

    # -- talking to Sanmill

    def ask_fens(self, poscmd):
        """Send a position and `d`: the FEN fields of every `Fen:` line in the answer."""
        for line in ("isready", poscmd, "d", "isready"):
            self.send(line)
        # The first readyok fences off most of what Sanmill printed after its last answer.
        self.wait(lambda l: l == "readyok", REPLY_TIMEOUT_S)
        lines = []
        self.wait(lambda l: l == "readyok", REPLY_TIMEOUT_S, collect=lines)
        fens = [l.split()[1:] for l in lines if l.startswith("Fen:")]
        if not fens:
            self.fail("Sanmill printed no 'Fen:' line for 'd'")
        return fens

    def expected(self, board, hand, side, removal_pending):
        """What Sanmill's FEN must say: board, side, action, white and black in hand."""
        return [sanmill_board(board, self.chars), self.letters[side],
                "r" if removal_pending else "p" if hand[side] else "s",
                str(hand[WHITE]), str(hand[BLACK])]

    @staticmethod
    def agrees(fields, want, over_ok=False):
        return fields[0:2] + fields[3:4] + fields[5:6] + fields[7:8] == want and \
            (over_ok or fields[2] != "o")

    def position_command(self, moves):
        """`position` for a game in Sanmill's moves, from the anchor when there is one."""
        if self.anchor and moves[:self.anchor[1]] == self.anchor[2]:
            fen, k = self.anchor[0], self.anchor[1]
            return "position fen %s" % fen + (" moves " + " ".join(moves[k:]) if moves[k:] else "")
        return "position startpos" + (" moves " + " ".join(moves) if moves else "")

    def sync(self, game, removal_pending, poscmd=None):
        """Set Sanmill's position to `game` and check, with `d`, that Sanmill has exactly its
        board, side to move, men in hand and pending removal. Returns Sanmill's FEN fields.

        After a search Sanmill's search thread prints an analysis with the board and a `Fen:`
        line of the search's root, sometimes only after the answers to the next commands; that
        root is never the position checked next, so any `Fen:` line that matches will do, and a
        check that fails is made once more before it counts."""
        want = self.expected(game.board, game.hand, game.side, removal_pending)
        tries = 2
        while True:
            fens = self.ask_fens(poscmd or self.position_command(game.sanmill_moves))
            for fields in fens:
                if self.agrees(fields, want):
                    return fields
            if poscmd is None and self.reanchor(game, fens):
                continue
            tries -= 1
            if not tries:
                raise AdapterError(
                    "Sanmill did not reach the position (it stops at the first move it finds "
                    "illegal, or where it ends the game): expected board, side, action, white "
                    "and black in hand '%s', Sanmill has '%s'"
                    % (" ".join(want), " ".join(fens[-1])))

    def reanchor(self, game, fens):
        """Where Sanmill ends the game by its own rules after a turn of `game` that tabula plays
        on from (it counts the 100 plies without a removal before the removal that closes them),
        continue from Sanmill's FEN there, its phase set back to the game's, and the moves
        since. True when that is a new anchor to try."""
        for fields in fens:
            if len(fields) < 8 or fields[2] != "o":
                continue
            for ply, (k, board, hand, side) in enumerate(game.turns):
                if self.agrees(fields, self.expected(board, hand, side, False), over_ok=True):
                    fen = list(fields)
                    fen[2] = "p" if any(hand) else "m"
                    anchor = (" ".join(fen), k, game.sanmill_moves[:k])
                    if anchor[:2] == (self.anchor or ())[:2]:
                        return False
                    self.anchor = anchor
                    self.info("Sanmill ends the game after ply %d, which tabula's rules do not; "
                              "continuing from Sanmill's FEN there" % ply)
                    return True
        return False

    def set_option(self, name, value):
        if name in self.options and self.sent.get(name) != value:
            self.send("setoption name %s value %s" % (name, value))
            self.sent[name] = value

    def search(self, skill, movetime_s, stop_at):
        """One Sanmill search of the position sent last: (move, score or None)."""
        self.set_option("SkillLevel", str(skill))
        self.set_option("MoveTime", str(movetime_s))
        self.send("go")
        if stop_at is None:
            seconds = self.depth_timeout
        else:
            # A search stopped before its first depth is done answers a stale move.
            stop_at = max(stop_at, time.monotonic() + MIN_SEARCH_MS / 1000)
            seconds = stop_at - time.monotonic() + STOP_GRACE_S
        line = self.wait(lambda l: "bestmove" in l.split(), seconds, stop_at, searching=True)
        words = line.split()
        i = words.index("bestmove")
        move = words[i + 1] if i + 1 < len(words) else ""
        score = None
        if "score" in words[:i]:
            try:
                score = int(words[words.index("score") + 1])
            except (ValueError, IndexError):
                pass
        return move, score

    # -- the UCI commands

    def cmd_uci(self):
        if self.chars is None:
            self.start()
        self.out("id name Sanmill (via sanmill_uci.py)")
        if not any(l.startswith("id author") for l in self.uci_lines):
            self.out("id author unknown")
        self.out("option name UCI_Variant type combo default nine var nine")
        for line in self.uci_lines:
            self.out(line)
        self.info("engine: %s, %s" % (self.sanmill_name or "?", self.proc.args[0]))
        self.out("uciok")

    def start(self):
        """Sanmill's `uci`: its name, author and options; then the fixed options and the
        dialect."""
        lines = []
        self.send("uci")
        self.wait(lambda l: l == "uciok", REPLY_TIMEOUT_S, collect=lines)
        for line in lines:
            words = line.split()
            if line.startswith("id name "):
                self.sanmill_name = line[len("id name "):]
            elif line.startswith("id author "):
                self.uci_lines.insert(0, line)
            elif line.startswith("option name "):
                name = line[len("option name "):].split(" type ")[0]
                if name in PER_SEARCH and "min" in words and "max" in words:
                    self.options[name] = (int(words[words.index("min") + 1]),
                                          int(words[words.index("max") + 1]))
                else:
                    self.options[name] = None
                    self.uci_lines.append(line)
        for name in PER_SEARCH:
            if self.options.get(name) is None:
                self.fail("Sanmill offers no option %s with a range" % name)
        for name, value in SETUP:
            self.set_option(name, value)
        self.detect_dialect()

    def detect_dialect(self):
        """Which man and side letter is whose: the 2025 engine writes White (the first player)
        'O' and 'w', the 2021 one '@' and 'b'. One placement on (1,1) tells."""
        fields = self.ask_fens("position startpos moves " + TO_SANMILL[RINGS[0][0]])[-1]
        first = fields[0][:1] if fields else ""
        if len(fields) < 8 or first not in ("O", "@") or fields[1] not in ("w", "b") or \
                fields[4:8] != ["1", str(MEN - 1), "0", str(MEN)]:
            self.fail("Sanmill's FEN is not understood: '%s'" % " ".join(fields))
        self.chars = (first, "@" if first == "O" else "O")
        self.letters = ("b" if fields[1] == "w" else "w", fields[1])
        self.send("position startpos")

    def cmd_setoption(self, line):
        m = re.match(r"setoption\s+name\s+(.*?)(?:\s+value\s+(.*))?$", line)
        if not m:
            return self.info("error: cannot read '%s'" % line)
        name, value = m.group(1), (m.group(2) or "").strip()
        if name == "UCI_Variant":
            self.variant_error = None if value == "nine" else \
                "error: variant '%s' is not supported (only nine)" % value
            if self.variant_error:
                self.info(self.variant_error)
        elif name in PER_SEARCH:
            self.info("%s is set by the adapter for every search; ignored" % name)
        else:
            self.send(line)

    def cmd_position(self, words):
        self.game, self.position_error = Game(), None
        if words[1:2] != ["startpos"]:
            self.position_error = "error: only 'position startpos [moves ...]' is supported"
            return self.info(self.position_error)
        if len(words) > 2 and words[2] != "moves":
            self.position_error = "error: unexpected '%s' in position" % words[2]
            return self.info(self.position_error)
        try:
            for token in parse_tokens(words[3:]):
                self.game.play(token)
        except AdapterError as e:
            self.position_error = "error: position: %s" % e
            self.info(self.position_error)

    def plan(self, words):
        """(SkillLevel, MoveTime in s, the time budget in ms or None) for a `go` command."""
        args = {}
        for key in ("wtime", "btime", "winc", "binc", "movestogo", "movetime", "depth", "nodes"):
            if key in words:
                try:
                    args[key] = int(words[words.index(key) + 1])
                except (ValueError, IndexError):
                    self.info("error: cannot read '%s' in go" % key)
        lo, hi = self.options["SkillLevel"]
        depth = args.get("depth")
        if "nodes" in args:
            self.info("Sanmill has no node limit; 'nodes' is ignored")
        budget = None
        if "movetime" in args:
            budget = args["movetime"] - max(MARGIN_MS, 0.05 * args["movetime"])
        else:
            clock = args.get("wtime" if self.game.side == WHITE else "btime")
            if clock is not None:
                inc = args.get("winc" if self.game.side == WHITE else "binc", 0)
                togo = max(1, args.get("movestogo", MOVES_TO_GO))
                budget = min(clock / togo + inc, 0.9 * clock - MARGIN_MS)
        if budget is None:
            if depth is None:
                depth = DEFAULT_DEPTH
                self.info("no depth or time given: searching to depth %d" % depth)
            if depth > hi or depth < max(lo, 1):
                self.info("depth %d is out of Sanmill's range %d..%d" % (depth, max(lo, 1), hi))
            return min(max(depth, lo, 1), hi), 0, None
        budget = max(budget, MIN_SEARCH_MS)
        mt_lo, mt_hi = self.options["MoveTime"]
        movetime_s = min(max(math.ceil(budget / 1000), 1, mt_lo), mt_hi)
        return min(max(depth or hi, lo, 1), hi), movetime_s, budget

    def cmd_go(self, words):
        t0 = time.monotonic()
        if self.variant_error or self.position_error:
            self.info(self.variant_error or self.position_error)
            return self.out("bestmove (none)")
        game = self.game
        if game.over():
            return self.out("bestmove (none)")
        try:
            if self.dead or self.chars is None:
                raise AdapterError(self.dead or "Sanmill is not set up ('uci' first)")
            skill, movetime_s, budget = self.plan(words)
            end = None if budget is None else t0 + budget / 1000
            token, score = self.turn(game, skill, movetime_s, t0, end)
        except AdapterError as e:
            self.info("error: %s" % e)
            return self.out("bestmove (none)")
        info = ["info"]
        if budget is None:
            info += ["depth", str(skill)]
        if score is not None:
            info += ["score", "cp", str(score)]
        if len(info) > 1:
            self.out(" ".join(info))
        self.out("bestmove " + token)

    def turn(self, game, skill, movetime_s, t0, end):
        """Ask Sanmill for the action and, after a mill, the removal: (tabula token, cp)."""
        actions = game.actions()
        fields = self.sync(game, False)
        stop_at = end
        if end is not None and any(game.removal_due(a) for a in actions):
            stop_at = end - REMOVAL_RESERVE * (end - t0)
        move, score = self.search(skill, movetime_s, stop_at)
        if move == "draw":
            # Sanmill claims a draw by its own count; ask again without the game's history.
            self.info("Sanmill claims a draw here; searching again without the history")
            self.sync(game, False, "position fen " + " ".join(fields))
            move, score = self.search(skill, movetime_s, stop_at)
        m = SANMILL_MOVE_RE.match(move)
        if not m or m.group(1) or (m.group(3) and m.group(3) not in FROM_SANMILL) or \
                m.group(2) not in FROM_SANMILL:
            raise AdapterError("Sanmill answered '%s', not an action" % move)
        action = (FROM_SANMILL[m.group(2)], FROM_SANMILL[m.group(3)]) if m.group(3) \
            else (None, FROM_SANMILL[m.group(2)])
        if action not in actions:
            raise AdapterError("Sanmill answered '%s' (%s), which is not legal here"
                               % (move, action_token(action)))
        token = action_token(action)
        cp = self.centipawns(score, game.side, len(actions))
        if not game.removal_due(action):
            return token, cp
        after = game.copy()
        after.do_action(action)
        removals = after.removals()
        self.sync(after, True)
        move, score = self.search(skill, movetime_s, end)
        m = SANMILL_MOVE_RE.match(move)
        if not m or not m.group(1) or m.group(3) or FROM_SANMILL.get(m.group(2)) not in removals:
            raise AdapterError("Sanmill answered '%s' after %s, not a legal removal"
                               % (move, token))
        # The action's search scored the whole turn; its removal's only when it had no choice.
        if cp is None:
            cp = self.centipawns(score, game.side, len(removals))
        return token + "x" + FROM_SANMILL[m.group(2)], cp

    @staticmethod
    def centipawns(score, side, choices):
        """Sanmill's score (White's view, 5 a man) as tabula's (the mover's view, 100 a man);
        None without a score or with one choice (Sanmill then reports a marker value)."""
        if score is None or choices == 1:
            return None
        return (score if side == WHITE else -score) * CP_PER_MAN // SANMILL_PER_MAN

    def run(self):
        try:
            while True:
                line = self.next_command()
                words = line.split()
                cmd = words[0]
                try:
                    if cmd == "uci":
                        self.cmd_uci()
                    elif cmd == "isready":
                        if not self.dead:
                            self.send("isready")
                            self.wait(lambda l: l == "readyok", REPLY_TIMEOUT_S)
                        self.out("readyok")
                    elif cmd == "setoption":
                        self.cmd_setoption(line)
                    elif cmd == "ucinewgame":
                        self.game, self.position_error, self.anchor = Game(), None, None
                        self.send("ucinewgame")
                    elif cmd == "position":
                        self.cmd_position(words)
                    elif cmd == "go":
                        self.cmd_go(words)
                    elif cmd == "quit":
                        raise Quit()
                    elif cmd != "stop":
                        self.info("error: unknown command '%s'" % cmd)
                except AdapterError as e:
                    self.info("error: %s" % e)
                    if cmd == "uci":
                        self.out("uciok")
                    elif cmd == "isready":
                        self.out("readyok")
        except Quit:
            pass
        self.shutdown()

    def shutdown(self):
        if self.proc.poll() is None:
            try:
                self.proc.stdin.write("quit\n")
                self.proc.stdin.flush()
            except (BrokenPipeError, OSError):
                pass
            try:
                self.proc.wait(QUIT_GRACE_S)
            except subprocess.TimeoutExpired:
                self.proc.kill()  # Sanmill can hang on quit after a stopped search
                self.proc.wait()


def main():
    ap = argparse.ArgumentParser(
        prog="sanmill_uci.py",
        usage="python3 scripts/sanmill_uci.py [--log FILE] [--depth-timeout S] SANMILL [ARG...]",
        description=__doc__.split("\n\n")[0],
        epilog="See the top of the file for the protocol mapping, the time handling and the "
               "checks. Example: tabula match --engine cmd=./tabula --engine cmd=\"python3 "
               "scripts/sanmill_uci.py /path/to/sanmill\" name=sanmill --each st=1")
    ap.add_argument("--log", metavar="FILE", help="append every line read and written to FILE")
    ap.add_argument("--depth-timeout", metavar="S", type=float, default=600.0,
                    help="the longest wait for a search limited by depth only (default 600)")
    ap.add_argument("sanmill", metavar="SANMILL", help="the Sanmill console engine")
    ap.add_argument("args", metavar="ARG", nargs="*", help="its arguments")
    opts = ap.parse_args()
    if not (os.path.isfile(opts.sanmill) and os.access(opts.sanmill, os.X_OK)):
        sys.exit("sanmill_uci.py: %s is not an executable file" % opts.sanmill)
    log = open(opts.log, "a", encoding="utf-8") if opts.log else None
    sys.stdin.reconfigure(errors="replace")
    Adapter([opts.sanmill] + opts.args, log, opts.depth_timeout).run()


if __name__ == "__main__":
    main()
