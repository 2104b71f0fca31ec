#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The Crossbar authors
#
# bench/run_threads.sh - multithreaded MPI, Crossbar vs Open MPI vs MPICH,
# side by side (bench/threads.c, 2 ranks): 8-byte ping-pong latency and
# message rate with T = 1, 2, 4 threads per rank (each pair on its own
# communicator and tag), T = 1 at MPI_THREAD_SINGLE too (the cost of
# MULTIPLE), and the fraction of a 4 MiB Isend/Irecv hidden behind
# computation without and with a progress thread (XB_ASYNC_PROGRESS=1 for
# Crossbar, MPIR_CVAR_ASYNC_PROGRESS=1 for MPICH; Open MPI has no such
# switch, so its two rows are the same thing), with both ranks computing
# (overlap) and with only the receiver computing (overlap-recv), on shared
# memory and over TCP (-tcp). Interleaved, the order
# rotating every round; one markdown table (bench/table.py).
#
#   sh bench/run_threads.sh                  ~3 minutes
#   BENCH_ROUNDS=1 BENCH_QUICK=1 sh bench/run_threads.sh   a quick smoke run
# Environment: XB_BUILD_DIR (default build), BENCH_OUT (default
# <build>/bench-threads), BENCH_ROUNDS (3), BENCH_QUICK (0), BENCH_IMPLS,
# BENCH_TIMEOUT (seconds per run, 60; Open MPI's threaded runs time out).
set -eu
here=$(cd -P -- "$(dirname -- "$0")" && pwd -P)
. "$here/lib.sh"
bench_setup bench-threads 3
build_all threads
echo "bench: implementations:$have; $rounds round(s)" >&2

# run IMPL NAME ARGS... -> raw/IMPL__NAME__NP__ROUND.txt (NP: $np, default 2)
run() {
    impl=$1 name=$2
    shift 2
    n=${np:-2}
    f="$out/raw/${impl}__${name}__${n}__${round}.txt"
    # shellcheck disable=SC2046
    if ! timeout -k 5 "${BENCH_TIMEOUT:-60}" $(run_of "$impl") -n "$n" "$out/$impl/threads" $quick "$@" \
            >"$f" 2>"$f.err"; then
        echo "bench: $impl $name failed (see $f.err)" >&2
    fi
}

# tcp_env CMD...: CMD with every implementation told to use TCP between
# its ranks (as bench/run_tcp.sh does)
tcp_env() {
    XB_METHODS=tcp OMPI_MCA_pml=ob1 OMPI_MCA_btl=tcp,self UCX_TLS=tcp,self "$@"
}

round=1
while [ $round -le "$rounds" ]; do
    order=$(bench_order $round)
    echo "bench: round $round: $order" >&2
    for impl in $order; do np=1 run "$impl" self-single -k self -s; done
    for impl in $order; do np=1 run "$impl" self -k self; done
    for k in lat rate; do
        for impl in $order; do run "$impl" "$k-T1-single" -k $k -T 1 -s; done
        for t in 1 2 4; do
            for impl in $order; do run "$impl" "$k-T$t" -k $k -T $t; done
        done
    done
    for k in overlap overlap-recv; do
        for impl in $order; do run "$impl" $k -k $k; done
        for impl in $order; do
            XB_ASYNC_PROGRESS=1 MPIR_CVAR_ASYNC_PROGRESS=1 run "$impl" $k-async -k $k
        done
        # the same over TCP (loopback), each implementation told to use it
        for impl in $order; do
            tcp_env run "$impl" $k-tcp -k $k
            XB_ASYNC_PROGRESS=1 MPIR_CVAR_ASYNC_PROGRESS=1 tcp_env run "$impl" $k-tcp-async -k $k
        done
    done
    round=$((round + 1))
done

bench_table
