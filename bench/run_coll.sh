#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The Crossbar authors
#
# bench/run_coll.sh - collectives, Crossbar vs Open MPI vs MPICH, side by
# side: builds bench/coll.c with each implementation's mpicc, runs barrier,
# bcast, allreduce and alltoall at 2, 4 and 8 ranks (4 and 8 oversubscribe a
# 2-core machine), interleaved (the order rotates every round), and prints
# one markdown table with bench/table.py (median over rounds of each run's
# median; the last column is Crossbar's advantage over the better other).
#
#   sh bench/run_coll.sh                   ~10 minutes
#   BENCH_ROUNDS=1 BENCH_QUICK=1 sh bench/run_coll.sh   a quick smoke run
# Environment: XB_BUILD_DIR (default build), BENCH_OUT (default
# <build>/bench-coll), BENCH_ROUNDS (3), BENCH_QUICK (0), BENCH_IMPLS,
# BENCH_NPS ("2 4 8"), BENCH_COLLS ("barrier bcast allreduce alltoall";
# bench/coll.c also has reduce scan exscan gather scatter allgather allgatherv
# alltoallv gatherv scatterv
# reduce_scatter, and each of them with an "i" in front: the nonblocking
# form, e.g. "ibcast iallreduce"),
# BENCH_THREADS (1: every rank at MPI_THREAD_MULTIPLE, coll -T; the rows
# are named COLL-mt), BENCH_HALVES (1: coll -H, two halves of the ranks
# each run the collective on its own communicator, a part of the node; the
# rows are named COLL-halves),
# BENCH_MAX (largest size, default 4 MiB), BENCH_MIN (smallest size of
# bcast/allreduce/alltoall, default 0: all), BENCH_APPS ("round matmul": the
# application patterns of bench/apps.c; "" skips them), BENCH_MATMUL_N (1024).
set -eu
here=$(cd -P -- "$(dirname -- "$0")" && pwd -P)
. "$here/lib.sh"
bench_setup bench-coll 3
nps=${BENCH_NPS:-"2 4 8"}
colls=${BENCH_COLLS:-"barrier bcast allreduce alltoall"}
max=${BENCH_MAX:-4194304}
min=${BENCH_MIN:-0}
apps=${BENCH_APPS-"round matmul"}
mt="" mtname=""
[ "${BENCH_THREADS:-0}" = 1 ] && mt="-T" mtname="-mt"
halves="" hname=""
[ "${BENCH_HALVES:-0}" = 1 ] && halves="-H" hname="-halves"
matmul_n=${BENCH_MATMUL_N:-1024}
build_all coll apps
echo "bench: implementations:$have; $rounds round(s)" >&2

# run IMPL COLL NP -> raw/IMPL__COLL-NPr__NP__ROUND.txt
run() {
    impl=$1 coll=$2 np=$3
    f="$out/raw/${impl}__${coll}${mtname}${hname}-${np}r__${np}__${round}.txt"
    # shellcheck disable=SC2046
    if ! timeout -k 5 300 $(run_of "$impl") -n "$np" "$out/$impl/coll" -c "$coll" \
            -m "$max" -s "$min" $quick $mt $halves >"$f" 2>"$f.err"; then
        echo "bench: $impl $coll -n $np failed (see $f.err)" >&2
    fi
}

# app IMPL NAME NP -> raw/IMPL__NAME-NPr__NP__ROUND.txt
app() {
    impl=$1 name=$2 np=$3
    f="$out/raw/${impl}__${name}-${np}r__${np}__${round}.txt"
    # shellcheck disable=SC2046
    if ! timeout -k 5 600 $(run_of "$impl") -n "$np" "$out/$impl/apps" -c "$name" \
            -N "$matmul_n" $quick >"$f" 2>"$f.err"; then
        echo "bench: $impl apps $name -n $np failed (see $f.err)" >&2
    fi
}

round=1
while [ $round -le "$rounds" ]; do
    order=$(bench_order $round)
    echo "bench: round $round: $order" >&2
    for np in $nps; do
        for coll in $colls; do
            for impl in $order; do run "$impl" "$coll" "$np"; done
        done
        for name in $apps; do
            for impl in $order; do app "$impl" "$name" "$np"; done
        done
    done
    round=$((round + 1))
done

bench_table
