#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The Crossbar authors
"""Tables of bench/run_tcp.sh: MPI over TCP against the raw socket, and
shared-memory latency with and without tcp peers.

Raw files IMPL__NAME__NP__ROUND.txt hold '# bench unit lower|higher' then
'size median min max batches'; a cell is the median over rounds of the
per-run medians.
"""
import os
import statistics
import sys
from collections import defaultdict

NAMES = {"raw": "raw socket", "crossbar": "Crossbar", "crossbar0": "Crossbar XB_SPIN_US=0",
         "openmpi": "Open MPI", "mpich": "MPICH"}
ORDER = ["raw", "crossbar", "crossbar0", "openmpi", "mpich"]


def human(n):
    for unit, k in (("MiB", 1 << 20), ("KiB", 1 << 10)):
        if n >= k and n % k == 0:
            return f"{n // k} {unit}"
    return f"{n} B"


def load(raw):
    vals, meta = defaultdict(list), {}
    for fn in sorted(os.listdir(raw)):
        if not fn.endswith(".txt"):
            continue
        impl, name, _, _ = fn[:-4].split("__")
        with open(os.path.join(raw, fn)) as f:
            for line in f:
                w = line.split()
                if not w:
                    continue
                if w[0] == "#":
                    meta[name] = (w[2], w[3])
                    continue
                try:
                    vals[(name, int(w[0]), impl)].append(float(w[1]))
                except (ValueError, IndexError):
                    pass
    return {k: statistics.median(v) for k, v in vals.items()}, meta


def fmt(v):
    return "–" if v is None else (f"{v:.3g}" if v < 100 else f"{v:.0f}")


def tcp_table(raw):
    med, meta = load(raw)
    impls = [i for i in ORDER if any(k[2] == i for k in med)]
    for name in ("latency", "bw"):
        if name not in meta:
            continue
        unit, direction = meta[name]
        lower = direction == "lower"
        print(f"\n### {name} over TCP, loopback ({unit}, {'lower' if lower else 'higher'} is better)\n")
        head = ["size"] + [NAMES[i] for i in impls] + ["Crossbar vs raw", "Crossbar vs best MPI",
                                                         "spin 0 vs raw", "spin 0 vs best MPI"]
        print("| " + " | ".join(head) + " |")
        print("|" + "---|" * len(head))
        for size in sorted({k[1] for k in med if k[0] == name}):
            row = {i: med.get((name, size, i)) for i in impls}
            xb, rw = row.get("crossbar"), row.get("raw")
            peers = [v for i, v in row.items() if i in ("openmpi", "mpich") and v]
            best = (min(peers) if lower else max(peers)) if peers else None
            # vs raw: time ratio (1.0 = the socket's latency) or bandwidth fraction
            cells = [human(size)] + [fmt(row[i]) for i in impls]
            for x in (xb, row.get("crossbar0")):
                vs_raw = None if not x or not rw else (x / rw)
                vs_best = None if not x or not best else (best / x if lower else x / best)
                cells += [f"{vs_raw:.2f}" if vs_raw else "–", f"{vs_best:.2f}" if vs_best else "–"]
            print("| " + " | ".join(cells) + " |")


def shm_table(raw):
    med, _ = load(raw)
    cfgs = [("shm-2", "2 ranks, 1 host"), ("shm-4tcp", "4 ranks, 2 hosts (tcp peers)"),
            ("shm-2s0", "2 ranks, 1 host, spin 0"), ("shm-4tcps0", "4 ranks, 2 hosts, spin 0"),
            ("shm-4one", "4 ranks, 1 host (oversubscribed)")]
    print("\n### shm latency of ranks 0-1 with and without tcp peers (us)\n")
    print("| size | " + " | ".join(c[1] for c in cfgs) + " | tcp peers / none | same, spin 0 |")
    print("|" + "---|" * (len(cfgs) + 3))
    for size in sorted({k[1] for k in med}):
        v = [med.get((c[0], size, "crossbar")) for c in cfgs]
        r1 = f"{v[1] / v[0]:.2f}" if v[0] and v[1] else "–"
        r2 = f"{v[3] / v[2]:.2f}" if v[2] and v[3] else "–"
        print(f"| {human(size)} | " + " | ".join(fmt(x) for x in v) + f" | {r1} | {r2} |")


if __name__ == "__main__":
    tcp_table(sys.argv[1])
    if len(sys.argv) > 2:
        shm_table(sys.argv[2])
