#!/usr/bin/env python3
"""Checker-play error of tabula judged by GNU Backgammon at 2 ply.

usage: python3 scripts/bg_error.py [--tabula ./tabula] [--positions 500] [--seed 1]
                                 [--batch 50] [--out bg_error.json]
       python3 scripts/bg_error.py --cube [--games 40] [--window 0.15] [--seed 1] ...

1. Positions: tabula plays cubeless games against itself at 0 ply with random dice (seeded);
   every non-forced position (two or more legal plays) is kept with probability 1/3, so the
   sample spreads over many games and all phases.
2. tabula's choices at 0 ply (`go nodes 1`), 1 ply (`go depth 1`) and 2 ply (`go depth 2`).
3. gnubg (`gnubg -t -q -r -p`, one process per batch) sets each position by its gnubg ID and
   lists every legal play with its cubeless 2-ply equity (move filters opened so that every
   play is evaluated at 2 ply); a play's error is the best equity minus its equity.
Prints the mean error per move in thousandths of equity with a 95% interval.

With --cube, cube decisions instead (money play, cube centred, Jacoby rule):
1. Positions: gnubg plays --games games against itself at 0 ply (`set seed`); every position
   before a roll while the cube is still centred (not the opening), up to and including the
   first double, is a candidate.
2. gnubg judges each at 2 ply cubeful (no double, double/take, double/pass equities); a
   position has a real decision when doubling and not doubling are within --window of each
   other, or taking and passing are.
3. The doubler's action (double or not) and the taker's (take or pass) of tabula at 0 ply
   (`go nodes 1`) and at 2 ply (`go depth 2`), and of gnubg at 0 ply, are scored against the
   2-ply equities: a wrong double decision is one that differs from the proper action; the
   equity lost is that of the action taken below the best (per unit of cube, the doubler's
   side for the double, the taker's for the take).
"""
import argparse
import json
import math
import os
import random
import subprocess
import sys
import tempfile

GNUBG = os.environ.get("GNUBG", "/usr/games/gnubg")

JUDGE = r'''
import gnubg, json
gnubg.command('set evaluation chequerplay evaluation plies 2')
gnubg.command('set evaluation chequerplay evaluation cubeful off')
gnubg.command('set evaluation chequerplay evaluation prune on')
gnubg.command('set evaluation movefilter 1 0 -1 0 0')
gnubg.command('set evaluation movefilter 2 0 -1 0 0')
out = open(OUT, 'w')
for gid in IDS:
    gnubg.command('set gnubgid ' + gid)
    h = gnubg.hint(1000)
    out.write(json.dumps({'id': gid, 'plays': {m['move']: m['equity'] for m in h['hint']},
                          'plies': min(m['context']['plies'] for m in h['hint'])}) + '\n')
out.close()
'''


class Tabula:
    def __init__(self, path):
        self.p = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  text=True, bufsize=1)
        self.send("setoption name UCI_Variant value backgammon")

    def send(self, line):
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()

    def until(self, prefix):
        lines = []
        while True:
            line = self.p.stdout.readline()
            if not line:
                sys.exit("tabula exited")
            lines.append(line.rstrip("\n"))
            if line.startswith(prefix):
                return lines

    def ask(self, moves, cmd, prefix):
        self.send("position startpos moves " + " ".join(moves) if moves else "position startpos")
        self.send(cmd)
        return self.until(prefix)

    def best(self, moves, go):
        return self.ask(moves, go, "bestmove")[-1].split()[1]

    def legal(self, moves):
        self.send("position startpos moves " + " ".join(moves))
        self.send("moves")
        self.send("isready")
        lines = self.until("readyok")
        return lines[0].split() if len(lines) > 1 else []

    def gnubgid(self, moves):
        for line in self.ask(moves, "d", "Position:"):
            if line.startswith("Position:"):
                return line.split()[1]

    def decide(self, gid, moves, go):
        self.send("position gnubgid " + gid + moves)
        self.send(go)
        return self.until("bestmove")[-1].split()[1]

    def close(self):
        self.send("quit")
        self.p.wait()


def collect(t, n, rng):
    found = []
    seen = set()
    while len(found) < n:
        moves = []
        for _ in range(400):
            d1, d2 = rng.randint(1, 6), rng.randint(1, 6)
            roll = "%d%d" % (max(d1, d2), min(d1, d2))
            now = moves + [roll]
            legal = t.legal(now)
            if not legal or legal[0] == "(none)":
                break
            if len(legal) >= 2 and rng.random() < 1 / 3:
                gid = t.gnubgid(now)
                if gid not in seen:
                    seen.add(gid)
                    ch = [t.best(now, g) for g in ("go nodes 1", "go depth 1", "go depth 2")]
                    found.append({"id": gid, "choice": ch})
                    if len(found) % 50 == 0:
                        print("collected %d positions" % len(found), file=sys.stderr)
                    if len(found) >= n:
                        break
            play = legal[0] if len(legal) == 1 else t.best(now, "go nodes 1")
            moves.append(play)
            if t.legal(moves) == ["(none)"] or not t.legal(moves):
                break
    return found


def judge(batch):
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "out.jsonl")
        script = os.path.join(d, "judge.py")
        with open(script, "w") as f:
            f.write("OUT = %r\nIDS = %r\n" % (out, [p["id"] for p in batch]) + JUDGE)
        subprocess.run([GNUBG, "-t", "-q", "-r", "-p", script], stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL, check=False)
        with open(out) as f:
            return [json.loads(line) for line in f]


CUBE_GEN = r'''
import gnubg, json
gnubg.command('set jacoby on')
gnubg.command('set automatic game off')
for pl in (0, 1):
    gnubg.command('set player %d gnubg' % pl)
    gnubg.command('set player %d chequerplay evaluation plies 0' % pl)
    gnubg.command('set player %d cubedecision evaluation plies 0' % pl)
gnubg.command('set seed %d' % SEED)
judge2 = gnubg.evalcontext(1, 2, 0, 1, 0.0)
judge0 = gnubg.evalcontext(1, 0, 0, 1, 0.0)
ci = gnubg.cubeinfo(1, -1, 0)
out = open(OUT, 'w')
seen = set()
for g in range(GAMES):
    gnubg.command('new game')
    game = gnubg.match(analysis=0, boards=1, statistics=0, verbose=0)['games'][-1]['game']
    for k, a in enumerate(game):
        if k == 0 or a['action'] not in ('move', 'double') or a['board'] in seen:
            if a['action'] != 'move':
                break  # after a double the cube is no longer centred
            continue
        seen.add(a['board'])
        b = gnubg.positionfromid(a['board'])
        e2 = gnubg.cfevaluate(b, ci, judge2)
        e0 = gnubg.cfevaluate(b, ci, judge0)
        out.write(json.dumps({'id': a['board'], 'nd': e2[1], 'dt': e2[2], 'dp': e2[3],
                              'g0': [e0[1], e0[2], e0[3]]}) + '\n')
        if a['action'] != 'move':
            break
out.close()
'''


def cube_positions(games, seed):
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "out.jsonl")
        script = os.path.join(d, "gen.py")
        with open(script, "w") as f:
            f.write("OUT = %r\nGAMES = %d\nSEED = %d\n" % (out, games, seed) + CUBE_GEN)
        subprocess.run([GNUBG, "-t", "-q", "-r", "-p", script], stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL, check=False)
        with open(out) as f:
            return [json.loads(line) for line in f]


def cube_score(nd, dt, dp, doubles, takes):
    """The double decision right or wrong, and the equity lost by the doubler and the taker."""
    proper = min(dt, dp) > nd
    best = max(nd, min(dt, dp))
    got = min(dt, dp) if doubles else nd
    lost_taker = (dt if takes else dp) - min(dt, dp)
    return doubles != proper, best - got, lost_taker


def cube_main(a):
    pos = cube_positions(a.games, a.seed)
    real = [p for p in pos if abs(min(p["dt"], p["dp"]) - p["nd"]) <= a.window
            or abs(p["dt"] - p["dp"]) <= a.window]
    print("candidates %d, with a real decision %d (gnubg 2-ply cubeful judge, window %.2f)"
          % (len(pos), len(real), a.window), file=sys.stderr)
    t = Tabula(a.tabula)
    deciders = {"tabula 0 ply": "go nodes 1", "tabula 2 ply": "go depth 2"}
    res = {name: [] for name in list(deciders) + ["gnubg 0 ply"]}
    for p in real:
        for name, go in deciders.items():
            d = t.decide(p["id"], "", go)
            k = t.decide(p["id"], " moves double", go)
            res[name].append(cube_score(p["nd"], p["dt"], p["dp"], d == "double", k == "take"))
        g = p["g0"]
        res["gnubg 0 ply"].append(cube_score(p["nd"], p["dt"], p["dp"], min(g[1], g[2]) > g[0],
                                             g[1] <= g[2]))
    t.close()
    with open(a.out, "w") as f:
        json.dump({"positions": real, "results": res}, f, indent=0)
    print("positions: %d money cube decisions (cube centred, Jacoby on), gnubg 2-ply judge"
          % len(real))
    for name, r in res.items():
        if not r:
            continue
        wrong = sum(1 for x in r if x[0])
        lost = [x[1] + x[2] for x in r]
        m = sum(lost) / len(lost)
        sd = math.sqrt(sum((x - m) ** 2 for x in lost) / max(1, len(lost) - 1))
        print("%-15s wrong double decisions %3d, equity lost %.1f +- %.1f thousandths per position"
              % (name, wrong, 1000 * m, 1960 * sd / math.sqrt(len(lost))))


def gnubg_form(token):
    return token.split(":", 1)[1].replace(",", " ")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tabula", default="./tabula")
    ap.add_argument("--positions", type=int, default=500)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--batch", type=int, default=50)
    ap.add_argument("--out", default="bg_error.json")
    ap.add_argument("--cube", action="store_true", help="cube decisions instead of plays")
    ap.add_argument("--games", type=int, default=40, help="--cube: gnubg self-play games")
    ap.add_argument("--window", type=float, default=0.15, help="--cube: a real decision")
    a = ap.parse_args()
    if a.cube:
        return cube_main(a)
    t = Tabula(a.tabula)
    pos = collect(t, a.positions, random.Random(a.seed))
    t.close()
    errs = [[], [], []]
    missing = 0
    rows = []
    for i in range(0, len(pos), a.batch):
        batch = pos[i:i + a.batch]
        for p, j in zip(batch, judge(batch)):
            assert p["id"] == j["id"]
            best = max(j["plays"].values())
            row = {"id": p["id"], "choice": p["choice"], "plies": j["plies"], "err": []}
            for k, tok in enumerate(p["choice"]):
                eq = j["plays"].get(gnubg_form(tok))
                if eq is None:
                    missing += 1
                    row["err"].append(None)
                    continue
                errs[k].append(best - eq)
                row["err"].append(best - eq)
            rows.append(row)
        print("judged %d positions" % len(rows), file=sys.stderr)
    with open(a.out, "w") as f:
        json.dump(rows, f, indent=0)
    print("positions: %d (non-forced, gnubg 2-ply cubeless judge); plays not found: %d"
          % (len(rows), missing))
    for k, name in enumerate(("0 ply", "1 ply", "2 ply")):
        e = errs[k]
        if not e:
            continue
        m = sum(e) / len(e)
        sd = math.sqrt(sum((x - m) ** 2 for x in e) / max(1, len(e) - 1))
        wrong = sum(1 for x in e if x > 1e-9)
        print("tabula %s: %.1f +- %.1f thousandths per move (%d of %d not gnubg's best)"
              % (name, 1000 * m, 1960 * sd / math.sqrt(len(e)), wrong, len(e)))


if __name__ == "__main__":
    main()
