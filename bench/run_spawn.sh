#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The Crossbar authors
#
# bench/run_spawn.sh - dynamic processes side by side, Crossbar vs Open MPI
# vs MPICH, interleaved (rotating who goes first) for BENCH_ROUNDS rounds,
# one markdown table (bench/table.py):
#   spawn.c         MPI_Comm_spawn of one process + a message each way +
#                   MPI_Comm_disconnect, milliseconds per round, from 1 and
#                   2 parent ranks; "spawn" one spawn at a time, "spawn_mt"
#                   two threads of each parent spawning at once
#                   (MPI_THREAD_MULTIPLE; a round is two spawns)
#
#   sh bench/run_spawn.sh                          ~1-2 minutes
#   BENCH_ROUNDS=1 BENCH_QUICK=1 sh bench/run_spawn.sh    a smoke run
# Environment: XB_BUILD_DIR (default build), BENCH_OUT (default
# <build>/bench-spawn), BENCH_ROUNDS (3), BENCH_QUICK (0), BENCH_IMPLS,
# BENCH_NPS (parent ranks, default "1 2").
# An implementation whose spawn fails gets "–" (Debian's MPICH 4.0 is built
# with ch4:ucx, which has no MPI_Open_port, hence no MPI_Comm_spawn).
set -eu
here=$(cd -P -- "$(dirname -- "$0")" && pwd -P)
. "$here/lib.sh"
bench_setup bench-spawn 3
build_all spawn
echo "bench: implementations:$have; $rounds round(s)" >&2

round=1
while [ $round -le "$rounds" ]; do
    order=$(bench_order $round)
    echo "bench: round $round: $order" >&2
    for np in ${BENCH_NPS:-1 2}; do
        for impl in $order; do bench_run "$impl" spawn "$np" spawn $quick; done
        for impl in $order; do bench_run "$impl" spawn_mt "$np" spawn -t 2 $quick; done
    done
    round=$((round + 1))
done

bench_table
