#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The Crossbar authors
#
# bench/run_tcp.sh - MPI over TCP on loopback against the physical limit:
# a raw socket ping-pong and stream (bench/sock.c, no MPI; blocking and
# polling receives, the better one counts), Crossbar with
# XB_METHODS=tcp, Open MPI with --mca pml ob1 --mca btl tcp,self, MPICH
# (ch4:ucx) with UCX_TLS=tcp,self; 2 ranks on this machine, interleaved
# (rotating who goes first), BENCH_ROUNDS rounds; one table
# (bench/table_tcp.py): medians over rounds, Crossbar against the raw socket
# and against the better of the two others.
# Then shared-memory latency in a Crossbar job that also has tcp peers
# (4 ranks, --local-hosts a:2,b:2: ranks 0-1 ping-pong over shm, 2-3 on the
# other "host") against jobs without (2 ranks; 4 ranks on one host).
#
#   sh bench/run_tcp.sh                      ~5 minutes
#   BENCH_ROUNDS=1 BENCH_QUICK=1 sh bench/run_tcp.sh
# Environment: XB_BUILD_DIR, BENCH_OUT (default <build>/bench-tcp),
# BENCH_ROUNDS (5), BENCH_QUICK (0), BENCH_IMPLS.
set -eu
here=$(cd -P -- "$(dirname -- "$0")" && pwd -P)
. "$here/lib.sh"
bench_setup bench-tcp 5
mkdir -p "$out/raw-shm"
build_all latency bw
${CC:-cc} -O2 -o "$out/sock" "$here/sock.c"
# crossbar0: the same with XB_SPIN_US=0 (block at once instead of polling
# first): on a machine shared with other work, spinning starves the peer.
# rawp: the raw socket receiving with nonblocking recv() in a loop (what a
# spinning MPI does; on an idle machine it saves the receiver's wake-up).
case " $have " in *" crossbar "*) have="raw rawp $have crossbar0" ;; *) have="raw rawp $have" ;; esac
echo "bench: $have; $rounds round(s)" >&2

# the launch line of IMPL for 2 ranks over TCP
tcp_run() {
    case $1 in
        raw|rawp) echo "" ;;
        crossbar) echo "env XB_METHODS=tcp $build/bin/mpiexec -n 2" ;;
        crossbar0) echo "env XB_METHODS=tcp XB_SPIN_US=0 $build/bin/mpiexec -n 2" ;;
        openmpi) echo "mpiexec.openmpi --allow-run-as-root --oversubscribe --mca pml ob1 --mca btl tcp,self -n 2" ;;
        mpich) echo "env UCX_TLS=tcp,self mpiexec.mpich -n 2" ;;
    esac
}

# run IMPL NAME PROG ARGS...  (raw: bench/sock with -l/-s)
run() {
    impl=$1 name=$2 prog=$3
    shift 3
    f="$out/raw/${impl}__${name}__2__${round}.txt"
    if [ "$impl" = raw ] || [ "$impl" = rawp ]; then
        set -- "$out/sock" "$([ "$name" = latency ] && echo -l || echo -s)"
        [ "$impl" = rawp ] && set -- "$@" -p
    else
        # shellcheck disable=SC2046
        set -- $(tcp_run "$impl") "$out/${impl%0}/$prog" "$@"
    fi
    # shellcheck disable=SC2086
    if ! timeout -k 5 200 "$@" $quick >"$f" 2>"$f.err"; then
        echo "bench: $impl $name failed (see $f.err)" >&2
    fi
}

round=1
while [ $round -le "$rounds" ]; do
    order=$(bench_order $round)
    echo "bench: round $round: $order" >&2
    for impl in $order; do run "$impl" latency latency; done
    for impl in $order; do run "$impl" bw bw; done
    # shm latency with and without tcp peers (Crossbar only)
    for cfg in 2 4one 4tcp 2s0 4tcps0; do
        f="$out/raw-shm/crossbar__shm-${cfg}__2__${round}.txt"
        case $cfg in
            2) set -- -n 2 --bind-to core ;;
            4one) set -- -n 4 --local-hosts -hosts a:4 ;;
            4tcp) set -- -n 4 --bind-to core --local-hosts -hosts a:2,b:2 ;;
            2s0) set -- -n 2 --bind-to core -x XB_SPIN_US=0 ;;
            4tcps0) set -- -n 4 --bind-to core -x XB_SPIN_US=0 --local-hosts -hosts a:2,b:2 ;;
        esac
        # shellcheck disable=SC2086
        timeout -k 5 200 "$build/bin/mpiexec" "$@" "$out/crossbar/latency" -m 4096 $quick \
            >"$f" 2>"$f.err" || echo "bench: shm latency $cfg failed (see $f.err)" >&2
    done
    round=$((round + 1))
done

"$python" "$here/table_tcp.py" "$out/raw" "$out/raw-shm"
