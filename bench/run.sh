#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The Crossbar authors
#
# bench/run.sh - Crossbar vs Open MPI vs MPICH on this machine, side by side.
# Builds latency/bw/barrier/pack/fanin with our mpicc, mpicc.openmpi and mpicc.mpich,
# runs the three interleaved (rotating who goes first) for BENCH_ROUNDS
# rounds, then prints one markdown table (bench/table.py): the median over
# rounds of each run's median, and Crossbar's advantage over the better of
# the other two. Then the cost of argument checking (XB_PARAM_CHECK=1 vs 0).
#
#   sh bench/run.sh            (make bench)   ~3-5 minutes
#   BENCH_ROUNDS=1 BENCH_QUICK=1 sh bench/run.sh   a quick smoke run
# Environment: XB_BUILD_DIR (default build), BENCH_OUT (default
# <build>/bench), BENCH_ROUNDS (3), BENCH_QUICK (0), BENCH_IMPLS.
set -eu
here=$(cd -P -- "$(dirname -- "$0")" && pwd -P)
. "$here/lib.sh"
bench_setup bench 5
build_all latency bw barrier pack fanin testloop
echo "bench: implementations:$have; $rounds round(s)" >&2

round=1
while [ $round -le "$rounds" ]; do
    # Rotate the order so no implementation always runs on a cooler machine.
    order=$(bench_order $round)
    echo "bench: round $round: $order" >&2
    for impl in $order; do bench_run "$impl" latency 2 latency $quick; done
    for impl in $order; do bench_run "$impl" bw 2 bw $quick; done
    for impl in $order; do bench_run "$impl" bibw 2 bw $quick -b; done
    for np in 2 4 8; do
        for impl in $order; do bench_run "$impl" barrier $np barrier $quick; done
    done
    # Many senders, one receiver (bench/fanin.c): naming each sender, and ANY_SOURCE.
    for np in 4 8; do
        for impl in $order; do bench_run "$impl" "fanin-${np}r" $np fanin $quick; done
        for impl in $order; do bench_run "$impl" "fanin-any-${np}r" $np fanin $quick -a; done
    done
    # MPI_Test loops with more ranks than CPUs (bench/testloop.c): work
    # between the tests, and ranks that only spin on them.
    for impl in $order; do bench_run "$impl" testloop-work 4 testloop $quick -k work; done
    for impl in $order; do bench_run "$impl" testloop-fan 8 testloop $quick -k fan; done
    # Derived datatypes (bench/pack.c): pack, unpack, ping-pong per layout.
    for t in vector indexed struct contig bytes; do
        for k in pack unpack; do
            for impl in $order; do bench_run "$impl" "$k-$t" 1 pack $quick -k $k -t $t; done
        done
        for impl in $order; do bench_run "$impl" "pingpong-$t" 2 pack $quick -k pingpong -t $t; done
    done
    # Cost of argument checking: Crossbar with XB_PARAM_CHECK=1 then 0.
    case " $have " in
        *" crossbar "*)
            for pc in 1 0; do
                XB_PARAM_CHECK=$pc bench_run crossbar "latency-check$pc" 2 latency $quick -m 512
            done ;;
    esac
    round=$((round + 1))
done

bench_table
