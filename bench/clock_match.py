#!/usr/bin/env python3
"""Self-play under a real clock, through pipes to the real binary: checks that tabula never
loses on time and never plays an illegal move.

    python3 bench/clock_match.py [--engine ./tabula] [--games 100] [--time 10000] [--inc 100]
                                 [--variant nine] [--jobs 2] [--openings 4]

Each game: two engine processes, `go wtime W btime B winc I binc I` for every move; the
referee charges each side the wall time from sending `go` to reading `bestmove`, adds the
increment, and flags a loss on time when a clock goes below zero. Every move is checked by a
third process used only as a rules referee (`position ... moves ...` must give no error, and
`moves` lists what is legal). Openings are a few random legal plies (seeded per game).
Prints one line per game and a summary: games, results, time losses, illegal moves, and the
least time any side had left.
"""
import argparse
import random
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor


class Engine:
    def __init__(self, path):
        self.p = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  text=True, bufsize=1)

    def send(self, line):
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()

    def until(self, prefix):
        lines = []
        while True:
            line = self.p.stdout.readline()
            if not line:
                raise RuntimeError("engine closed its output")
            line = line.rstrip("\n")
            lines.append(line)
            if line.startswith(prefix):
                return line, lines

    def close(self):
        try:
            self.send("quit")
            self.p.wait(timeout=5)
        except Exception:
            self.p.kill()


def referee_state(ref, moves):
    """Legal moves and result of the position after `moves`, or None when they are illegal."""
    ref.send("position startpos moves " + " ".join(moves) if moves else "position startpos")
    ref.send("moves")
    ref.send("d")
    _, lines = ref.until("Result:")
    if any(l.startswith("info string error") for l in lines):
        return None
    legal = next(l for l in lines if not l.startswith(("info", " ")) and l and
                 not l[0].isdigit() and ":" not in l)
    result = lines[-1][len("Result: "):]
    return legal.split(), result


def play(args, game_no):
    rng = random.Random(game_no)
    engines = [Engine(args.engine), Engine(args.engine)]
    ref = Engine(args.engine)
    for e in engines + [ref]:
        e.send("uci")
        e.until("uciok")
        e.send("setoption name UCI_Variant value " + args.variant)
        e.send("ucinewgame")
        e.send("isready")
        e.until("readyok")
    moves, clock, least = [], [args.time, args.time], args.time
    illegal, flagged, result = None, None, None
    for _ in range(args.openings):
        legal, res = referee_state(ref, moves)
        if legal == ["(none)"]:
            break
        moves.append(rng.choice(legal))
    while True:
        state = referee_state(ref, moves)
        if state is None:
            illegal = moves[-1]
            break
        legal, res = state
        if legal == ["(none)"] or len(moves) > 600:
            result = res
            break
        side = len(moves) % 2
        e = engines[side]
        e.send("position startpos moves " + " ".join(moves) if moves else "position startpos")
        t0 = time.monotonic()
        e.send("go wtime %d btime %d winc %d binc %d" % (clock[0], clock[1], args.inc, args.inc))
        line, _ = e.until("bestmove")
        spent = int((time.monotonic() - t0) * 1000)
        clock[side] -= spent
        least = min(least, clock[side])
        if clock[side] < 0:
            flagged = "white" if side == 0 else "black"
            break
        clock[side] += args.inc
        best = line.split()[1]
        if best not in legal:
            illegal = best
            break
        moves.append(best)
    for e in engines + [ref]:
        e.close()
    return {"game": game_no, "plies": len(moves), "result": result, "flagged": flagged,
            "illegal": illegal, "least": least}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--engine", default="./tabula")
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--time", type=int, default=10000)
    ap.add_argument("--inc", type=int, default=100)
    ap.add_argument("--variant", default="nine")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--openings", type=int, default=4)
    args = ap.parse_args()
    results = []
    with ThreadPoolExecutor(max_workers=args.jobs) as pool:
        for r in pool.map(lambda g: play(args, g), range(args.games)):
            results.append(r)
            print("game %3d: %3d plies, %s%s%s, least time left %d ms" % (
                r["game"], r["plies"], r["result"] or "",
                ", LOST ON TIME: " + r["flagged"] if r["flagged"] else "",
                ", ILLEGAL MOVE: " + r["illegal"] if r["illegal"] else "", r["least"]),
                flush=True)
    flags = sum(1 for r in results if r["flagged"])
    illegal = sum(1 for r in results if r["illegal"])
    least = min(r["least"] for r in results)
    white = sum(1 for r in results if r["result"] and r["result"].startswith("white"))
    black = sum(1 for r in results if r["result"] and r["result"].startswith("black"))
    draws = sum(1 for r in results if r["result"] and r["result"].startswith("draw"))
    print("%s, %d+%d ms: %d games (white %d, black %d, draws %d), %d lost on time, "
          "%d illegal moves, least time left %d ms" % (
              args.variant, args.time, args.inc, len(results), white, black, draws, flags,
              illegal, least))
    return 1 if flags or illegal else 0


if __name__ == "__main__":
    sys.exit(main())
