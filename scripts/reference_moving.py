#!/usr/bin/env python3
"""tabula's node rate against the Sanmill console engine's in the moving phase of Nine Men's
Morris, in the same window: scripts/reference.sh measures from the start (the placing phase); this
measures from eight positions after the last man is placed.

    REF=/path/to/sanmill python3 scripts/reference_moving.py [path/to/tabula]

The positions are four games of tabula against itself (`go depth 7`, four different first two
moves) cut at plies 20 and 30. Each run searches every position with both engines in turn, each
pinned to core 1 where taskset exists: tabula to DEPTH (default 20) with Hash 16 after
`ucinewgame`, the reference to REF_DEPTH (default 18) by its search REF_ALGORITHM (default 2,
MTD(f)), without its move shuffling or time limit. Sanmill is given the games in its own moves
(scripts/sanmill_uci.py converts them) and must print, before the line that names its `bestmove`,
a line with the fields `nodes <n>` and `time <ms>`, as scripts/reference.sh requires. A run's
node rate is its nodes over its milliseconds, summed over the positions; the figures are the
medians of RUNS runs (default 3). Each engine counts nodes its own way: Sanmill counts a removal
as a node and a ply of its own. Build the reference as its own Makefile does, with -flto
(docs/measuring.md, "Against the reference engine"). The reference is never part of tabula: it is
only run here.
"""

import os
import shutil
import statistics
import subprocess
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the work tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import sanmill_uci  # noqa: E402  (the conversion to Sanmill's moves)

GAMES = (
    "d6 f4 b4 d2 b6 f6 b2xf6 f6 f2 c4 e5 e3 d5 c5 d7xc5 c5 c3 g7 e5-e4 f4-g4 f2-f4 g4-g1 c3-d3 "
    "g1-g4 b4-a4 c4-b4 a4-a1 d2-d1 d7-a7 d1-g1xd5",
    "d2 b4 f4 d6 f2 f6 b2xf6 f6 b6 d3 c4 e3 c3 c5 g4 e4 e5 d1 g4-g7 d6-d7 b6-d6 d7-a7 g7-d7 "
    "c5-d5 f4-g4 e4-f4 e5-e4 d5-c5 g4-g1 d1-a1",
    "a1 d7 b4 f4 a4 c4 a7xc4 c4 g4 d1 d6 d3 d2 f6 f2 b2 c3 e5 d6-d5 d3-e3 b4-b6 b2-b4 b6-d6 "
    "f4-e4xc3 d2-d3 e4-f4 f2-d2 f4-e4xd5 g4-f4 e5-d5",
    "g4 d5 b4 d2 d6 c4 g7 g1 f4 e4 d3 b6 a1 f2 a7 a4 d7xa4 b2xb4 a7-a4 c4-b4xa4 a1-a4 b4-c4 "
    "a4-a7xb6 b2-b4 a7-a4 b4-b2xa4 d7-a7 b2-b4 d6-d7xd2 c4-c5",
)
PLIES = (20, 30)


def die(msg):
    sys.exit("scripts/reference_moving.py: " + msg)


def env_int(name, default, least):
    """The environment's whole number `name` (at least `least`), or the default."""
    text = os.environ.get(name, str(default))
    if not text.isdigit() or int(text) < least:
        die("%s must be a whole number of at least %d, not '%s'" % (name, least, text))
    return int(text)


def pinned(argv):
    return (["taskset", "-c", "1"] if shutil.which("taskset") else []) + argv


def nodes_time(lines):
    """(nodes, ms) from the last line that has both fields, or None."""
    found = None
    for line in lines:
        w = line.split()
        if "nodes" in w and "time" in w:
            try:
                found = int(w[w.index("nodes") + 1]), int(w[w.index("time") + 1])
            except (ValueError, IndexError):
                pass
    return found


def run_tabula(binary, depth, moves):
    cmd = ("setoption name Hash value 16\nucinewgame\nposition startpos moves %s\ngo depth %d\n"
           % (" ".join(moves), depth))
    out = subprocess.run(pinned([binary]), input=cmd, capture_output=True, text=True,
                         timeout=600).stdout
    lines = [line for line in out.splitlines() if line.startswith("info depth %d " % depth)]
    return nodes_time(lines)


def run_ref(ref, depth, algorithm, sanmill_moves):
    # The options the adapter sets (scripts/sanmill_uci.py), with this script's search and depth.
    options = dict(sanmill_uci.SETUP, Algorithm=str(algorithm), MoveTime="0",
                   SkillLevel=str(depth))
    setup = "uci\n%sposition startpos moves %s\ngo\n" % (
        "".join("setoption name %s value %s\n" % o for o in options.items()),
        " ".join(sanmill_moves))
    # Sanmill searches on its own thread and may stop at the end of its input: keep it open
    # until it names its move.
    p = subprocess.Popen(pinned([ref]), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=subprocess.STDOUT, text=True)
    try:
        p.stdin.write(setup)
        p.stdin.flush()
    except BrokenPipeError:  # it exited at once: no node line below
        pass
    lines = []
    for line in p.stdout:
        if "bestmove" in line.split():
            break
        lines.append(line)
    try:
        p.stdin.write("quit\n")
        p.stdin.close()
    except BrokenPipeError:
        pass
    try:
        p.wait(timeout=5)
    except subprocess.TimeoutExpired:
        p.kill()
    return nodes_time(lines)


def main():
    ref = os.environ.get("REF")
    binary = sys.argv[1] if len(sys.argv) > 1 else "./tabula"
    if not ref or not os.access(ref, os.X_OK):
        die("set REF to the reference engine's executable")
    if not os.access(binary, os.X_OK):
        die("no executable tabula at %s (build it with make)" % binary)
    depth = env_int("DEPTH", 20, 1)
    ref_depth = env_int("REF_DEPTH", 18, 1)
    algorithm = env_int("REF_ALGORITHM", 2, 0)
    runs = env_int("RUNS", 3, 1)

    positions = []
    for game in GAMES:
        moves = game.split()
        for k in PLIES:
            g = sanmill_uci.Game()
            for token in moves[:k]:
                g.play(token)
            positions.append((moves[:k], list(g.sanmill_moves)))

    t_rates, r_rates = [], []
    for run in range(runs):
        tn = tt = rn = rt = 0
        for moves, sanmill_moves in positions:
            t = run_tabula(binary, depth, moves)
            r = run_ref(ref, ref_depth, algorithm, sanmill_moves)
            if not t:
                die("no 'info depth %d ... nodes ... time' line from %s" % (depth, binary))
            if not r:
                die("no 'nodes <n> ... time <ms>' line from %s" % ref)
            tn, tt, rn, rt = tn + t[0], tt + t[1], rn + r[0], rt + r[1]
            print("run %d ply %d: tabula %d nodes %d ms; reference %d nodes %d ms"
                  % (run + 1, len(moves), t[0], t[1], r[0], r[1]), file=sys.stderr)
        t_rates.append(tn / max(tt, 1) * 1000)
        r_rates.append(rn / max(rt, 1) * 1000)
        print("run %d: tabula %.2fM nps, reference %.2fM nps"
              % (run + 1, t_rates[-1] / 1e6, r_rates[-1] / 1e6), file=sys.stderr)
    t, r = statistics.median(t_rates), statistics.median(r_rates)
    print("median of %d: tabula %.2fM nps, reference %.2fM nps: %.2fx"
          % (runs, t / 1e6, r / 1e6, t / r if r else 0))


if __name__ == "__main__":
    main()
