#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The Crossbar authors
"""Turn bench/run.sh's raw outputs into one markdown table.

Each raw file IMPL__NAME__NP__ROUND.txt holds '# bench unit lower|higher'
then lines 'size median min max batches'. A cell is the median over rounds
of the per-run medians. The last column is Crossbar's advantage over the
better of the others: >1 means Crossbar is better (for a time: best/ours,
for a bandwidth: ours/best).
"""
import os
import statistics
import sys
from collections import defaultdict

NAMES = {"crossbar": "Crossbar", "openmpi": "Open MPI", "mpich": "MPICH"}
ORDER = ["crossbar", "openmpi", "mpich"]


def human(n):
    for unit, k in (("MiB", 1 << 20), ("KiB", 1 << 10)):
        if n >= k and n % k == 0:
            return f"{n // k} {unit}"
    return f"{n} B"


def read_raw(raw):
    """Every figure of the raw files: [(impl, name, np, round, size, median)],
    and {name: (unit, lower|higher)} (shared with table_tcp.py)."""
    rows, meta = [], {}
    for fn in sorted(os.listdir(raw)):
        if not fn.endswith(".txt"):
            continue
        impl, name, np, rnd = fn[:-4].split("__")
        with open(os.path.join(raw, fn)) as f:
            for line in f:
                w = line.split()
                if not w:
                    continue
                if w[0] == "#":
                    meta[name] = (w[2], w[3])
                    continue
                try:
                    rows.append((impl, name, np, rnd, int(w[0]), float(w[1])))
                except (ValueError, IndexError):
                    pass
    return rows, meta


def load(raw):
    vals = defaultdict(list)          # (name, np, size, impl) -> [medians]
    rows, meta = read_raw(raw)
    for impl, name, np, _, size, v in rows:
        vals[(name, int(np), size, impl)].append(v)
    return vals, meta


def fmt(v):
    if v is None:
        return "–"
    return f"{v:.3g}" if v < 100 else f"{v:.0f}"


def main():
    raw = sys.argv[1]
    vals, meta = load(raw)
    med = {k: statistics.median(v) for k, v in vals.items()}
    impls = [i for i in ORDER if any(k[3] == i for k in med)]
    rows = sorted({k[:3] for k in med if not k[0].startswith("latency-check")},
                  key=lambda r: (["latency", "bw", "bibw", "barrier"].index(r[0])
                                 if r[0] in ("latency", "bw", "bibw", "barrier") else 9,
                                 r[1], r[2], r[0]))
    head = ["benchmark", "size / ranks"] + [NAMES[i] for i in impls]
    head.append("Crossbar advantage (>1: better)")
    print("| " + " | ".join(head) + " |")
    print("|" + "---|" * len(head))
    for name, np, size in rows:
        unit, direction = meta.get(name, ("?", "lower"))
        cells = {i: med.get((name, np, size, i)) for i in impls}
        others = [v for i, v in cells.items() if i != "crossbar" and v]
        ours = cells.get("crossbar")
        adv = "–"
        if ours and others:
            best = min(others) if direction == "lower" else max(others)
            adv = f"{(best / ours if direction == 'lower' else ours / best):.2f}×"
        label = f"{name} ({unit})"
        where = (f"{np} ranks" if name == "barrier" or name.startswith(("comm_", "spawn", "hpcc-", "testloop"))
                 else human(size))
        print("| " + " | ".join([label, where] + [fmt(cells[i]) for i in impls] + [adv]) + " |")
    checks = {k: v for k, v in med.items() if k[0].startswith("latency-check")}
    if checks:
        print()
        print("Cost of argument checking (Crossbar latency, µs, XB_PARAM_CHECK=1 vs 0):")
        print()
        print("| size | checks on | checks off | difference (ns) |")
        print("|---|---|---|---|")
        for size in sorted({k[2] for k in checks}):
            on = checks.get(("latency-check1", 2, size, "crossbar"))
            off = checks.get(("latency-check0", 2, size, "crossbar"))
            diff = f"{(on - off) * 1000:.0f}" if on is not None and off is not None else "–"
            print(f"| {human(size)} | {fmt(on)} | {fmt(off)} | {diff} |")


if __name__ == "__main__":
    main()
