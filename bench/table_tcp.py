#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The Crossbar authors
"""Tables of bench/run_tcp.sh and bench/run_netns.sh: MPI over TCP against
the raw socket (the better of its blocking and polling forms, round by
round), and shared-memory latency with and without tcp peers.

Raw files IMPL__NAME__NP__ROUND.txt hold '# bench unit lower|higher' then
'size median min max batches'; a cell is the median over rounds of the
per-run medians.
"""
import os
import statistics
import sys
from collections import defaultdict

from table import fmt, human, read_raw

NAMES = {"raw": "raw socket", "rawp": "raw socket, polling", "crossbar": "Crossbar",
         "crossbar0": "Crossbar XB_SPIN_US=0", "openmpi": "Open MPI", "mpich": "MPICH"}
ORDER = ["raw", "rawp", "crossbar", "crossbar0", "openmpi", "mpich"]
RAWS = ("raw", "rawp")
PEERS = ("openmpi", "mpich")


def load_rounds(raw):
    """{(name, size, impl): {round: median of that run}}, {name: (unit, dir)}"""
    vals = defaultdict(dict)
    rows, meta = read_raw(raw)
    for impl, name, _, rnd, size, v in rows:
        vals[(name, size, impl)][rnd] = v
    return vals, meta


def load(raw):
    vals, meta = load_rounds(raw)
    return {k: statistics.median(v.values()) for k, v in vals.items()}, meta


def best(vals, lower):
    vals = [v for v in vals if v]
    return (min(vals) if lower else max(vals)) if vals else None


def vs_raw(rounds, name, size, impl, lower):
    """Crossbar against the better raw variant of the same round: the median
    ratio and its range over rounds ("1.12 (1.05-1.30)"); for times ours/raw,
    for bandwidths ours/raw too (the fraction of the socket's)."""
    mine = rounds.get((name, size, impl), {})
    ratios = []
    for rnd, x in mine.items():
        rw = best([rounds.get((name, size, r), {}).get(rnd) for r in RAWS], lower)
        if x and rw:
            ratios.append(x / rw)
    if not ratios:
        return "–"
    m = statistics.median(ratios)
    if len(ratios) == 1:
        return f"{m:.2f}"
    return f"{m:.2f} ({min(ratios):.2f}-{max(ratios):.2f})"


def tcp_table(raw, where):
    rounds, meta = load_rounds(raw)
    med = {k: statistics.median(v.values()) for k, v in rounds.items()}
    impls = [i for i in ORDER if any(k[2] == i for k in med)]
    for name in ("latency", "bw"):
        if name not in meta:
            continue
        unit, direction = meta[name]
        lower = direction == "lower"
        print(f"\n#### {name} over TCP, {where} ({unit}, {'lower' if lower else 'higher'} is better)\n")
        head = (["size"] + [NAMES[i] for i in impls] +
                ["Crossbar vs raw (range)", "spin 0 vs raw", "Crossbar vs best MPI"])
        print("| " + " | ".join(head) + " |")
        print("|" + "---|" * len(head))
        for size in sorted({k[1] for k in med if k[0] == name}):
            row = {i: med.get((name, size, i)) for i in impls}
            xb = row.get("crossbar")
            bp = best([row.get(i) for i in PEERS], lower)
            cells = [human(size)] + [fmt(row[i]) for i in impls]
            cells.append(vs_raw(rounds, name, size, "crossbar", lower))
            cells.append(vs_raw(rounds, name, size, "crossbar0", lower))
            vb = None if not xb or not bp else (bp / xb if lower else xb / bp)
            cells.append(f"{vb:.2f}" if vb else "–")
            print("| " + " | ".join(cells) + " |")


def ratio_range(rounds, a, b, size):
    """median of per-round b/a ratios with their range"""
    ra, rb = rounds.get((a, size, "crossbar"), {}), rounds.get((b, size, "crossbar"), {})
    rs = [rb[r] / ra[r] for r in ra if r in rb and ra[r] and rb[r]]
    if not rs:
        return "–"
    m = statistics.median(rs)
    return f"{m:.2f}" if len(rs) == 1 else f"{m:.2f} ({min(rs):.2f}-{max(rs):.2f})"


def shm_table(raw):
    rounds, _ = load_rounds(raw)
    med = {k: statistics.median(v.values()) for k, v in rounds.items()}
    cfgs = [("shm-2", "2 ranks, 1 host"), ("shm-4tcp", "4 ranks, 2 hosts (tcp peers)"),
            ("shm-2s0", "2 ranks, 1 host, spin 0"), ("shm-4tcps0", "4 ranks, 2 hosts, spin 0"),
            ("shm-4one", "4 ranks, 1 host (oversubscribed)")]
    cfgs = [c for c in cfgs if any(k[0] == c[0] for k in med)]
    print("\n#### shm latency of ranks 0-1 with and without tcp peers (us)\n")
    print("| size | " + " | ".join(c[1] for c in cfgs) +
          " | tcp peers / none (range) | same, spin 0 |")
    print("|" + "---|" * (len(cfgs) + 3))
    for size in sorted({k[1] for k in med}):
        v = [med.get((c[0], size, "crossbar")) for c in cfgs]
        r1 = ratio_range(rounds, "shm-2", "shm-4tcp", size)
        r2 = ratio_range(rounds, "shm-2s0", "shm-4tcps0", size)
        print(f"| {human(size)} | " + " | ".join(fmt(x) for x in v) + f" | {r1} | {r2} |")


if __name__ == "__main__":
    # table_tcp.py [--where TEXT] RAW_DIR [SHM_DIR]
    args = sys.argv[1:]
    where = "loopback"
    if len(args) > 1 and args[0] == "--where":
        where, args = args[1], args[2:]
    tcp_table(args[0], where)
    if len(args) > 1:
        shm_table(args[1])
