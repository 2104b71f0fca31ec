#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The Crossbar authors
#
# bench/run_objects.sh - the object benchmarks of issues 3 and 4 side by
# side, Crossbar vs Open MPI vs MPICH, interleaved (rotating who goes
# first) for BENCH_ROUNDS rounds, one markdown table (bench/table.py):
#   pack.c          pack, unpack and ping-pong of vector, indexed, struct,
#                   contig and bytes (issue 3)
#   comm_create.c   dup, split (N colours) and create_group at 2, 4, 8
#                   ranks, microseconds per create + free (issue 4)
#
#   sh bench/run_objects.sh                       ~5-10 minutes
#   BENCH_ROUNDS=1 BENCH_QUICK=1 sh bench/run_objects.sh   a smoke run
#   BENCH_ONLY=comm sh bench/run_objects.sh      communicator creation only
#   BENCH_ONLY=pack BENCH_TYPES="vector bytes" sh bench/run_objects.sh
#                                 only pack.c, only those layouts
# Environment: XB_BUILD_DIR (default build), BENCH_OUT (default
# <build>/bench-objects), BENCH_ROUNDS (3), BENCH_QUICK (0), BENCH_IMPLS,
# BENCH_ONLY (pack or comm: one of the two parts), BENCH_TYPES (the
# layouts of pack.c, default "vector indexed struct contig bytes").
set -eu
here=$(cd -P -- "$(dirname -- "$0")" && pwd -P)
. "$here/lib.sh"
bench_setup bench-objects 3
build_all pack comm_create
echo "bench: implementations:$have; $rounds round(s)" >&2

pack_types=${BENCH_TYPES:-"vector indexed struct contig bytes"} comm_nps="2 4 8"
case ${BENCH_ONLY:-} in
    pack) comm_nps="" ;;
    comm) pack_types="" ;;
    "") ;;
    *) echo "bench: BENCH_ONLY=$BENCH_ONLY: use pack or comm" >&2; exit 2 ;;
esac

round=1
while [ $round -le "$rounds" ]; do
    order=$(bench_order $round)
    echo "bench: round $round: $order" >&2
    for t in $pack_types; do
        for k in pack unpack; do
            for impl in $order; do bench_run "$impl" "$k-$t" 1 pack $quick -k $k -t $t; done
        done
        for impl in $order; do bench_run "$impl" "pingpong-$t" 2 pack $quick -k pingpong -t $t; done
    done
    # communicator creation: always the quick form (MPICH's oversubscribed
    # ranks spin, so its 4- and 8-rank operations take milliseconds)
    for np in $comm_nps; do
        for op in dup split create_group; do
            for impl in $order; do bench_run "$impl" "comm_$op" $np comm_create $op -q; done
        done
    done
    round=$((round + 1))
done

bench_table
