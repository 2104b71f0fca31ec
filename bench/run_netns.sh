#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The Crossbar authors
#
# bench/run_netns.sh - MPI over TCP between two "hosts" on this machine:
# two network namespaces joined by veth pairs and a bridge, as
# tests/hosts/run.sh builds them (10.214.0.1 and 10.214.0.2), one rank in
# each. Side by side, interleaved (rotating who goes first), BENCH_ROUNDS
# rounds:
#   raw, rawp   bench/sock.c with its two processes in the two namespaces
#               (blocking / polling receive; the better one is the limit)
#   crossbar    our mpiexec -hosts h0,h1 -ppn 1, the proxies started in the
#               namespaces by tests/hosts/nsexec.sh (--launcher-exec)
# Each "host" gets a CPU of its own, as separate machines would: h0 the
# first CPU this script may use, h1 the second (the remote-start command is
# wrapped in taskset, the ranks run --bind-to none inside it; the raw
# socket's client and server are bound the same way, sock -b). Unpinned,
# the scheduler of a busy machine put both ranks on one CPU now and then,
# and a spinning rank then kept its peer from running (40-150 us).
#   crossbar0   the same with XB_SPIN_US=0
#   mpich       Hydra with nsexec.sh as its ssh, UCX_TLS=tcp,self
#   openmpi     not run: its daemons would need to reach mpiexec.openmpi
#               through the bridge with rsh-agent tricks (not easy here)
# Then shared-memory latency of ranks 0-1 on h0 in a job that also has tcp
# peers (4 ranks: 2 on h0, 2 on h1) against one that has none (2 ranks on
# h0): the issue's "within 10%" check, with real separate hosts (each
# host's proxy binds its 2 ranks to the first two CPUs; ranks 2-3 wait in
# MPI_Finalize, bench/latency.c).
# Tables: bench/table_tcp.py (Crossbar vs the better raw form per round,
# with the range over rounds).
#
#   sh bench/run_netns.sh          (root: ip netns)   ~3 minutes
#   BENCH_ROUNDS=1 BENCH_QUICK=1 sh bench/run_netns.sh
# Environment: as bench/run_tcp.sh; BENCH_IMPLS (default "crossbar mpich").
# Exit 77 when namespaces cannot be made here.
set -eu
here=$(cd -P -- "$(dirname -- "$0")" && pwd -P)
BENCH_IMPLS=${BENCH_IMPLS:-"crossbar mpich"}
. "$here/lib.sh"
bench_setup bench-netns 3
[ "$(id -u)" = 0 ] || { echo "bench: network namespaces need root" >&2; exit 77; }
command -v ip >/dev/null 2>&1 || { echo "bench: no 'ip' command" >&2; exit 77; }
rm -rf "$out/raw-shm"
mkdir -p "$out/raw-shm"
build_all latency bw
${CC:-cc} -O2 -o "$out/sock" "$here/sock.c"
nsexec="$root/tests/hosts/nsexec.sh"
# nsexec.sh with host h0 on one CPU and h1 on another (ssh's conventions)
set -- $("$python" -c 'import os; s = sorted(os.sched_getaffinity(0)); print(s[0], s[1 % len(s)])')
hostexec="$out/hostexec.sh"
{
    echo '#!/bin/sh'
    echo 'skip=; h='
    echo 'for a in "$@"; do'
    echo '    if [ -n "$skip" ]; then skip=; continue; fi'
    echo '    case $a in -o|-p|-l|-i|-F) skip=1 ;; -*) ;; *) h=$a; break ;; esac'
    echo 'done'
    echo "case \$h in h0) c=$1 ;; *) c=$2 ;; esac"
    echo "exec taskset -c \"\$c\" \"$nsexec\" \"\$@\""
} >"$hostexec"
chmod +x "$hostexec"

# two namespaces <P>h0, <P>h1 on bridge <P>br (names as tests/hosts/run.sh,
# so its clean-up of stale ones covers these too)
P="xb$$"
XB_TEST_NETNS_PREFIX=$P
export XB_TEST_NETNS_PREFIX
cleanup() {
    for i in 0 1; do
        ip netns del "${P}h$i" 2>/dev/null || true
        ip link del "${P}v$i" 2>/dev/null || true
    done
    ip link del "${P}br" 2>/dev/null || true
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP
ip link add "${P}br" type bridge || { echo "bench: cannot make a bridge" >&2; exit 77; }
ip link set "${P}br" up
ip addr add 10.214.0.254/24 dev "${P}br"
for i in 0 1; do
    ns="${P}h$i"
    ip netns add "$ns"
    ip link add "${P}v$i" type veth peer name eth0 netns "$ns"
    ip link set "${P}v$i" master "${P}br"
    ip link set "${P}v$i" up
    ip -n "$ns" addr add "10.214.0.$((i + 1))/24" dev eth0
    ip -n "$ns" link set lo up
    ip -n "$ns" link set eth0 up
done

case " $have " in *" crossbar "*) have="raw rawp $have crossbar0" ;; *) have="raw rawp $have" ;; esac
echo "bench: $have; $rounds round(s); hosts ${P}h0=10.214.0.1 ${P}h1=10.214.0.2" >&2

xb="$build/bin/mpiexec --launcher-exec $nsexec"
xbp="$build/bin/mpiexec --bind-to none --launcher-exec $hostexec"
# the launch line of IMPL for one rank on each host
launch() {
    case $1 in
        crossbar) echo "$xbp -n 2 -ppn 1 -hosts h0,h1" ;;
        crossbar0) echo "env XB_SPIN_US=0 $xbp -n 2 -ppn 1 -hosts h0,h1" ;;
        mpich) echo "env UCX_TLS=tcp,self mpiexec.mpich -launcher ssh -launcher-exec $hostexec -iface ${P}br -hosts h0,h1 -n 2 -ppn 1 -bind-to none" ;;
    esac
}

# run IMPL NAME PROG
run() {
    impl=$1 name=$2 prog=$3
    f="$out/raw/${impl}__${name}__2__${round}.txt"
    if [ "$impl" = raw ] || [ "$impl" = rawp ]; then
        set -- "$out/sock" "$([ "$name" = latency ] && echo -l || echo -s)" \
            -n "${P}h0,${P}h1" -a 10.214.0.2 -b
        [ "$impl" = rawp ] && set -- "$@" -p
    else
        # shellcheck disable=SC2046
        set -- $(launch "$impl") "$out/${impl%0}/$prog"
    fi
    # shellcheck disable=SC2086
    if ! timeout -k 5 200 "$@" $quick >"$f" 2>"$f.err" </dev/null; then
        echo "bench: $impl $name failed (see $f.err)" >&2
    fi
}

round=1
while [ "$round" -le "$rounds" ]; do
    order=$(bench_order "$round")
    echo "bench: round $round: $order" >&2
    for impl in $order; do run "$impl" latency latency; done
    for impl in $order; do run "$impl" bw bw; done
    for cfg in 2 4tcp 2s0 4tcps0; do
        f="$out/raw-shm/crossbar__shm-${cfg}__2__${round}.txt"
        case $cfg in
            2) set -- $xb -n 2 -ppn 2 -hosts h0 ;;
            4tcp) set -- $xb -n 4 -ppn 2 -hosts h0,h1 ;;
            2s0) set -- env XB_SPIN_US=0 $xb -n 2 -ppn 2 -hosts h0 ;;
            4tcps0) set -- env XB_SPIN_US=0 $xb -n 4 -ppn 2 -hosts h0,h1 ;;
        esac
        # shellcheck disable=SC2086
        timeout -k 5 200 "$@" "$out/crossbar/latency" -m 4096 $quick >"$f" 2>"$f.err" </dev/null ||
            echo "bench: shm latency $cfg failed (see $f.err)" >&2
    done
    round=$((round + 1))
done

"$python" "$here/table_tcp.py" --where "two network namespaces (veth + bridge)" \
    "$out/raw" "$out/raw-shm"
