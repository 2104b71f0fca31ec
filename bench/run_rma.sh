#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The Crossbar authors
#
# bench/run_rma.sh - one-sided communication, Crossbar vs Open MPI vs MPICH,
# side by side: builds bench/rma.c with each implementation's mpicc, runs
# put, get, fence, acc and fop (see rma.c) at 2 and 4 ranks (4
# oversubscribes a 2-core machine) on MPI_Win_allocate windows, and put,
# get and idle on MPI_Win_create windows, interleaved (the order rotates every
# round); one markdown table (bench/table.py).
#
#   sh bench/run_rma.sh                          ~5 minutes
#   BENCH_ROUNDS=1 BENCH_QUICK=1 sh bench/run_rma.sh   a quick smoke run
# Environment: XB_BUILD_DIR (default build), BENCH_OUT (default
# <build>/bench-rma), BENCH_ROUNDS (3), BENCH_QUICK (0), BENCH_IMPLS,
# BENCH_NPS ("2 4"), BENCH_KINDS ("put get fence acc fop idle"), BENCH_MAX
# (largest size, default 1 MiB).
set -eu
here=$(cd -P -- "$(dirname -- "$0")" && pwd -P)
. "$here/lib.sh"
bench_setup bench-rma 3
nps=${BENCH_NPS:-"2 4"}
kinds=${BENCH_KINDS:-"put get fence acc fop idle"}
max=${BENCH_MAX:-1048576}
build_all rma
echo "bench: implementations:$have; $rounds round(s)" >&2

one_round() {
    for np in $nps; do
        for k in $kinds; do
            for impl in $order; do bench_run "$impl" "$k-${np}r" "$np" rma $quick -k "$k" -m "$max"; done
        done
        for k in put get idle; do
            for impl in $order; do
                bench_run "$impl" "$k-create-${np}r" "$np" rma $quick -k "$k" -m "$max" -c
            done
        done
    done
}
bench_rounds one_round

bench_table
