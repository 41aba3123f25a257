#!/usr/bin/env python3
"""The layout rules of the tree, checked by `make check`:

- no source, test or script file over 800 lines;
- no two modules (a .c/.h pair) that include each other, directly or through others;
- engine/, protocol/ and match/ include nothing from bench/, tools/ or scripts/; engine/
  includes nothing from protocol/ or match/; engine/mill/ and engine/backgammon/ never include
  each other (engine/core/'s registry and bench are where the families meet).

Prints each breach and exits 1 when there is one. Run from the top of the tree.
"""
import os
import re
import subprocess
import sys

MAX_LINES = 800
INCLUDE = re.compile(r'\s*#\s*include\s+"([^"]+)"')


def tracked():
    out = subprocess.run(["git", "ls-files"], capture_output=True, text=True, check=True)
    return [p for p in out.stdout.split("\n") if p and os.path.exists(p)]


def includes(path):
    with open(path, errors="replace") as f:
        return [m.group(1) for m in map(INCLUDE.match, f) if m]


def cycles(edges):
    """Strongly connected components of more than one module (Tarjan, iterative)."""
    index, low, stack, on, found, counter = {}, {}, [], set(), [], [0]
    for root in edges:
        if root in index:
            continue
        work = [(root, iter(sorted(edges[root])))]
        index[root] = low[root] = counter[0]
        counter[0] += 1
        stack.append(root)
        on.add(root)
        while work:
            v, it = work[-1]
            w = next(it, None)
            if w is not None:
                if w not in index:
                    index[w] = low[w] = counter[0]
                    counter[0] += 1
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(sorted(edges[w]))))
                elif w in on:
                    low[v] = min(low[v], index[w])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                comp = []
                while True:
                    w = stack.pop()
                    on.discard(w)
                    comp.append(w)
                    if w == v:
                        break
                if len(comp) > 1:
                    found.append(sorted(comp))
    return found


def main():
    files = tracked()
    breaches = []
    for p in files:
        if p.endswith((".c", ".h", ".py", ".sh")):
            with open(p, errors="replace") as f:
                n = sum(1 for _ in f)
            if n > MAX_LINES:
                breaches.append(f"{p}: {n} lines (at most {MAX_LINES})")
    sources = [p for p in files if p.endswith((".c", ".h"))]
    modules = {p[:-2] for p in sources}
    edges = {m: set() for m in modules}
    forbidden = {
        "engine/": ("bench/", "tools/", "scripts/", "protocol/", "match/", "tests/"),
        "protocol/": ("bench/", "tools/", "scripts/", "tests/"),
        "match/": ("bench/", "tools/", "scripts/", "protocol/", "tests/"),
        "engine/mill/": ("engine/backgammon/",),
        "engine/backgammon/": ("engine/mill/",),
    }
    for p in sources:
        for inc in includes(p):
            for folder, banned in forbidden.items():
                if p.startswith(folder) and inc.startswith(banned):
                    breaches.append(f"{p}: includes {inc}")
            target = inc[:-2] if inc.endswith(".h") else None
            if target in modules and target != p[:-2]:
                edges[p[:-2]].add(target)
    for comp in cycles(edges):
        breaches.append("modules that include each other: " + ", ".join(comp))
    for b in breaches:
        print("layout:", b)
    print(f"layout: {len(files)} files, {len(modules)} modules, {len(breaches)} breaches")
    return 1 if breaches else 0


if __name__ == "__main__":
    sys.exit(main())
