#!/usr/bin/env python3
"""Two builds of tabula timed against each other in pairs, from the Nine Men's Morris start.

    python3 bench/compare.py OLD NEW [RUNS [DEPTH]]

Each pair runs both builds one after the other, pinned to core 1 where taskset exists, with
Hash 16 after `ucinewgame`, to DEPTH (default 16); the order alternates from pair to pair. RUNS
pairs (default 21) give the median times and the median and geometric mean of the ratio
NEW / OLD of each pair's times: a ratio below 1 means NEW is faster. Pairing cancels most of the
machine's slow drift, which the medians of separate runs keep, though not all of it: compare a
build with a copy of itself to see the noise of the window (docs/measuring.md, "What noise
looks like"). The node counts are printed, since a change that alters the tree makes the times
compare different searches.
"""

import math
import os
import shutil
import statistics
import subprocess
import sys


def search(binary, depth):
    """(milliseconds, nodes) of the info line that reports depth `depth`."""
    cmd = ([shutil.which("taskset"), "-c", "1"] if shutil.which("taskset") else []) + [binary]
    inp = f"setoption name Hash value 16\nucinewgame\nposition startpos\ngo depth {depth}\n"
    proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    proc.stdin.write(inp)
    proc.stdin.flush()
    ms = nodes = None
    for line in proc.stdout:
        f = line.split()
        if len(f) > 2 and f[:2] == ["info", "depth"] and f[2] == str(depth) and "time" in f:
            ms, nodes = int(f[f.index("time") + 1]), int(f[f.index("nodes") + 1])
        if f and f[0] == "bestmove":
            break
    proc.stdin.write("quit\n")
    proc.stdin.close()
    proc.wait()
    if ms is None:
        sys.exit(f"bench/compare.py: {binary} did not report depth {depth}")
    return max(ms, 1), nodes


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__.strip())
    old, new = sys.argv[1], sys.argv[2]
    for binary in (old, new):
        if not (os.path.isfile(binary) and os.access(binary, os.X_OK)):
            sys.exit(f"bench/compare.py: cannot run {binary}: not an executable file")
    try:
        runs = int(sys.argv[3]) if len(sys.argv) > 3 else 21
        depth = int(sys.argv[4]) if len(sys.argv) > 4 else 16
    except ValueError:
        sys.exit("bench/compare.py: RUNS and DEPTH must be whole numbers")
    if runs < 1 or not 1 <= depth <= 99:
        sys.exit("bench/compare.py: RUNS must be 1 or more and DEPTH from 1 to 99")
    t_old, t_new, ratios = [], [], []
    for i in range(runs):
        if i % 2 == 0:
            a, b = search(old, depth), search(new, depth)
        else:
            b, a = search(new, depth), search(old, depth)
        t_old.append(a[0])
        t_new.append(b[0])
        ratios.append(b[0] / a[0])
    print(f"OLD {old}: median {statistics.median(t_old):.0f} ms, {a[1]} nodes")
    print(f"NEW {new}: median {statistics.median(t_new):.0f} ms, {b[1]} nodes")
    geo = math.exp(sum(math.log(r) for r in ratios) / runs)
    faster = sum(r < 1 for r in ratios)
    print(f"NEW/OLD time, {runs} pairs to depth {depth}: median {statistics.median(ratios):.3f}, "
          f"geometric mean {geo:.3f}, NEW faster in {faster} of {runs}")


if __name__ == "__main__":
    main()
