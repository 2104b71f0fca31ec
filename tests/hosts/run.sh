#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The Crossbar authors
#
# Jobs across several "hosts" on this one machine: network namespaces joined
# by a bridge, one namespace per host, each host's proxy started in its
# namespace by mpiexec --launcher-exec tests/hosts/nsexec.sh (instead of
# ssh). Ranks of one host talk over shared memory, ranks of different hosts
# over tcp through the bridge.
#
# Usage: run.sh CASE   (pt2pt, coll, mcast, methods, hydra, ipv6, fail)
# Environment: MPIEXEC (our mpiexec), MPITESTS (the build's tests/mpi).
# Exit 0 pass, 1 fail (with the reason), 77 skipped (no root, no
# CAP_NET_ADMIN, or namespaces/veth/bridges not allowed here: says which).
set -u
: "${MPIEXEC:?set MPIEXEC}" "${MPITESTS:?set MPITESTS}"
HERE=$(cd "$(dirname "$0")" && pwd)
NSEXEC="$HERE/nsexec.sh"
P="xb$$"                                  # names: xb<pid>h0.., xb<pid>br, xb<pid>v0..
XB_TEST_NETNS_PREFIX=$P; export XB_TEST_NETNS_PREFIX
T=$(mktemp -d "${TMPDIR:-/tmp}/xb-hosts.XXXXXX")
NHOSTS_MADE=0

skip() { echo "SKIP: $*"; exit 77; }
fail() { echo "FAIL: $*"; for f in "$T"/out "$T"/err; do [ -s "$f" ] && { echo "--- $f"; head -c 3000 "$f"; }; done; exit 1; }

cleanup() {
    i=0
    while [ $i -lt "$NHOSTS_MADE" ]; do
        ip netns del "${P}h$i" 2>/dev/null
        ip link del "${P}v$i" 2>/dev/null
        i=$((i + 1))
    done
    ip link del "${P}br" 2>/dev/null
    rm -rf "$T"
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP

# Namespaces left by a run that was killed (its pid is gone).
reap_stale() {
    for ns in $(ip netns list 2>/dev/null | awk '{print $1}' | grep -E '^xb[0-9]+h[0-9]+$'); do
        pid=${ns#xb}; pid=${pid%h*}
        kill -0 "$pid" 2>/dev/null || ip netns del "$ns" 2>/dev/null
    done
    for br in $(ip -o link show type bridge 2>/dev/null | awk -F': ' '{print $2}' | grep -E '^xb[0-9]+br$'); do
        pid=${br#xb}; pid=${pid%br}
        kill -0 "$pid" 2>/dev/null || ip link del "$br" 2>/dev/null
    done
}

# make_hosts N [6]: namespaces h0..h(N-1), each with lo and eth0 = 10.213.0.(i+1)/24
# (with 6: only fd00:213::(i+1)/64, no IPv4 but loopback) on one bridge.
make_hosts() {
    [ "$(id -u)" = 0 ] || skip "network namespaces need root (uid $(id -u))"
    command -v ip >/dev/null 2>&1 || skip "no 'ip' command (iproute2)"
    reap_stale
    ip netns add "${P}h0" 2>"$T/nserr" || skip "ip netns add is not allowed here (no CAP_NET_ADMIN/CAP_SYS_ADMIN?): $(cat "$T/nserr")"
    NHOSTS_MADE=1
    ip link add "${P}br" type bridge 2>"$T/nserr" || skip "cannot create a bridge: $(cat "$T/nserr")"
    ip link set "${P}br" up || skip "cannot bring the bridge up"
    i=0
    while [ $i -lt "$1" ]; do
        ns="${P}h$i"
        [ $i -gt 0 ] && { ip netns add "$ns" || fail "ip netns add $ns"; NHOSTS_MADE=$((i + 1)); }
        ip link add "${P}v$i" type veth peer name eth0 netns "$ns" 2>"$T/nserr" ||
            skip "cannot create a veth pair: $(cat "$T/nserr")"
        ip link set "${P}v$i" master "${P}br" && ip link set "${P}v$i" up &&
        if [ "${2:-4}" = 6 ]; then
            ip -n "$ns" addr add "fd00:213::$((i + 1))/64" dev eth0 nodad 2>"$T/nserr" ||
                skip "no IPv6 in the namespaces: $(cat "$T/nserr")"
        else
            ip -n "$ns" addr add "10.213.0.$((i + 1))/24" dev eth0 || fail "cannot configure $ns"
        fi
        ip -n "$ns" link set lo up && ip -n "$ns" link set eth0 up || fail "cannot configure $ns"
        i=$((i + 1))
    done
}

hostlist() { i=0; l=""; while [ $i -lt "$1" ]; do l="$l${l:+,}h$i"; i=$((i + 1)); done; echo "$l"; }

# mpirun NHOSTS TIMEOUT PROGRAM [ARGS...]: 2 ranks per host; $RC, $T/out, $T/err.
# Unbound: each host's proxy would pin its 2 ranks to CPUs 0 and 1, and the
# "hosts" share this machine's CPUs (3 hosts: 3 ranks per CPU).
mpirun() {
    nh=$1; to=$2; shift 2
    timeout -k 3 "$to" "$MPIEXEC" --bind-to none -n $((2 * nh)) -ppn 2 -hosts "$(hostlist "$nh")" \
        --launcher-exec "$NSEXEC" "$@" >"$T/out" 2>"$T/err" </dev/null
    RC=$?
}

# suite AREA NHOSTS TEST...: each test must end well and say No Errors
suite() {
    area=$1; nh=$2; shift 2
    for t in "$@"; do
        prog="$MPITESTS/$area/$t"
        [ -x "$prog" ] || fail "no test program $prog (build first)"
        mpirun "$nh" 120 "$prog"
        [ "$RC" = 0 ] || fail "$area/$t on $nh hosts x 2 ranks: exit status $RC"
        grep -q "No Errors" "$T/out" || fail "$area/$t on $nh hosts x 2 ranks: no 'No Errors'"
        echo "ok: $area/$t on $nh hosts x 2 ranks"
    done
}

CASE=${1:-}
case "$CASE" in
pt2pt)
    make_hosts 3
    suite pt2pt 2 basic order nonblocking probe truncate noncontig persistent bsend large
    suite pt2pt 3 basic order nonblocking ;;
coll)
    make_hosts 3
    suite coll 2 barrier bcast reduce_ops gather_scatter allgather_alltoall
    suite coll 3 barrier bcast reduce_ops gather_scatter allgather_alltoall ;;
mcast)
    # XB_MCAST=1: broadcasts multicast over the bridge (the namespaces'
    # eth0), then repaired when frames are dropped
    make_hosts 3
    XB_MCAST=1 XB_LOG=coll:info; export XB_MCAST XB_LOG
    suite coll 3 mcast bcast
    grep -q "coll: multicast: .* on 10\.213\.0\.1," "$T/err" ||
        fail "rank 0 did not multicast through its namespace's eth0"
    # 2 hosts: the rules leave multicast to 3 nodes or more; forced here
    XB_MCAST_DROP=4 XB_TEST_MCAST=repair XB_COLL_BCAST=mcast
    export XB_MCAST_DROP XB_TEST_MCAST XB_COLL_BCAST
    suite coll 2 mcast
    unset XB_MCAST XB_LOG XB_MCAST_DROP XB_TEST_MCAST XB_COLL_BCAST ;;
methods)
    # shm inside a host, tcp across, over the namespaces' eth0 addresses
    make_hosts 2
    XB_LOG=method:debug; export XB_LOG
    mpirun 2 60 "$MPITESTS/pt2pt/basic"
    unset XB_LOG
    [ "$RC" = 0 ] || fail "exit status $RC"
    grep -q "No Errors" "$T/out" || fail "no 'No Errors'"
    # ranks 0,1 on h0 and 2,3 on h1: every pair's choice, as each rank prints it
    for pair in "0 1 shm" "1 0 shm" "2 3 shm" "3 2 shm" "0 2 tcp" "0 3 tcp" "1 2 tcp" \
                "1 3 tcp" "2 0 tcp" "2 1 tcp" "3 0 tcp" "3 1 tcp"; do
        set -- $pair
        grep -q "^crossbar\[$1\]: method: rank $2: $3 " "$T/err" || fail "rank $1 -> rank $2 is not $3"
    done
    grep -q "connected to rank [0-3] (host h[01], node [01]), our connection to 10\.213\.0\.[12]:" "$T/err" ||
        fail "tcp did not connect through the namespaces' addresses"
    # binding is decided per host: 2 ranks per host fit 2 CPUs, so each
    # proxy pins its ranks (although the job has 4)
    if [ "$(nproc)" -ge 2 ]; then
        timeout -k 3 30 "$MPIEXEC" -n 4 -ppn 2 -hosts h0,h1 --launcher-exec "$NSEXEC" \
            sh -c 'grep Cpus_allowed_list /proc/self/status' >"$T/out" 2>"$T/err" </dev/null ||
            fail "binding check: exit status $?"
        [ "$(grep -Ec ':[[:space:]]+[0-9]+$' "$T/out")" = 4 ] ||
            fail "the proxies did not pin their 2 ranks each to one CPU (auto binding per host)"
    fi
    ;;
hydra)
    # MPICH's Hydra starts the job across the namespaces (its proxies through
    # nsexec.sh as its ssh; they connect back to mpiexec.mpich over the
    # bridge, which gets an address here); PMI-1 node map from Hydra
    command -v mpiexec.mpich >/dev/null 2>&1 || skip "no mpiexec.mpich (Debian: mpich)"
    make_hosts 2
    ip addr add 10.213.0.254/24 dev "${P}br" || fail "cannot give the bridge an address"
    XB_LOG=method:info timeout -k 3 120 mpiexec.mpich -launcher ssh -launcher-exec "$NSEXEC" \
        -iface "${P}br" -hosts h0,h1 -n 4 "$MPITESTS/pt2pt/basic" >"$T/out" 2>"$T/err" </dev/null
    RC=$?
    [ "$RC" = 0 ] || fail "Hydra across hosts: exit status $RC"
    grep -q "No Errors" "$T/out" || fail "Hydra across hosts: no 'No Errors'"
    grep -q "our connection to 10\.213\.0\.[12]:" "$T/err" || fail "no tcp across the namespaces"
    timeout -k 3 120 mpiexec.mpich -launcher ssh -launcher-exec "$NSEXEC" -iface "${P}br" \
        -hosts h0,h1 -n 4 "$MPITESTS/coll/allgather_alltoall" >"$T/out" 2>"$T/err" </dev/null
    RC=$?
    [ "$RC" = 0 ] && grep -q "No Errors" "$T/out" || fail "Hydra across hosts: coll/allgather_alltoall" ;;
ipv6)
    # hosts with IPv6 addresses only: tcp across them over IPv6; and forced
    # tcp on one host over ::1
    make_hosts 2 6
    XB_LOG=method:info; export XB_LOG
    mpirun 2 60 "$MPITESTS/pt2pt/basic"
    unset XB_LOG
    [ "$RC" = 0 ] || fail "IPv6 hosts: exit status $RC"
    grep -q "No Errors" "$T/out" || fail "IPv6 hosts: no 'No Errors'"
    grep -q "our connection to \[fd00:213::[12]\]:" "$T/err" || fail "tcp did not connect over IPv6"
    suite coll 2 bcast allgather_alltoall
    XB_METHODS=tcp XB_TCP_IF=::1 XB_LOG=method:info timeout -k 3 60 \
        "$NSEXEC" h0 "$MPIEXEC" -n 2 "$MPITESTS/pt2pt/basic" >"$T/out" 2>"$T/err" </dev/null
    RC=$?
    [ "$RC" = 0 ] || fail "tcp over ::1: exit status $RC"
    grep -q "our connection to \[::1\]:" "$T/err" || fail "tcp over ::1 was not used" ;;
fail)
    make_hosts 2
    # a host whose name does not resolve: one message naming it, status 255
    timeout -k 3 30 "$MPIEXEC" -n 4 -ppn 2 -hosts h0,nosuchhost --launcher-exec "$NSEXEC" \
        "$MPITESTS/pt2pt/basic" >"$T/out" 2>"$T/err" </dev/null
    RC=$?
    [ "$RC" = 255 ] || fail "unresolvable host: exit status $RC, expected 255"
    grep -q "^mpiexec: cannot start the proxy on host nosuchhost.*Could not resolve hostname nosuchhost" "$T/err" ||
        fail "unresolvable host: no message naming the host and the cause"
    [ "$(grep -c '^mpiexec: ' "$T/err")" = 1 ] || fail "unresolvable host: more than one message"
    # the proxy (mpiexec) missing on the hosts: the command's own words
    printf '#!/bin/sh\nh=$1; shift 2\nexec "%s" "$h" /nonexistent/bin/mpiexec "$@"\n' "$NSEXEC" >"$T/badpath.sh"
    chmod +x "$T/badpath.sh"
    timeout -k 3 30 "$MPIEXEC" -n 4 -ppn 2 -hosts h0,h1 --launcher-exec "$T/badpath.sh" \
        "$MPITESTS/pt2pt/basic" >"$T/out" 2>"$T/err" </dev/null
    RC=$?
    [ "$RC" = 255 ] || fail "missing proxy binary: exit status $RC, expected 255"
    grep -q "^mpiexec: cannot start the proxy on host h[01] (.*badpath.sh h[01] .*): the command exited with status [0-9]*: .*/nonexistent/bin/mpiexec" "$T/err" ||
        fail "missing proxy binary: no message naming the host and the cause"
    [ "$(grep -c '^mpiexec: ' "$T/err")" = 1 ] || fail "missing proxy binary: more than one message"
    # --proxy-path: the proxies are started from that path on the hosts
    mkdir -p "$T/bin"
    printf '#!/bin/sh\necho "$0 $*" >>"%s/proxy-used"\nexec "%s" "$@"\n' "$T" "$MPIEXEC" >"$T/bin/xbproxy"
    chmod +x "$T/bin/xbproxy"
    mpirun 2 60 --proxy-path "$T/bin/xbproxy" "$MPITESTS/pt2pt/basic"
    [ "$RC" = 0 ] && grep -q "No Errors" "$T/out" || fail "--proxy-path: exit status $RC"
    [ "$(grep -c "xbproxy --xb-proxy" "$T/proxy-used" 2>/dev/null)" = 2 ] ||
        fail "--proxy-path: the 2 proxies were not started from it"
    timeout -k 3 30 "$MPIEXEC" -n 4 -ppn 2 -hosts h0,h1 --launcher-exec "$NSEXEC" \
        --proxy-path /nonexistent/xb/mpiexec "$MPITESTS/pt2pt/basic" >"$T/out" 2>"$T/err" </dev/null
    RC=$?
    [ "$RC" = 255 ] || fail "--proxy-path to a missing file: exit status $RC, expected 255"
    grep -q "^mpiexec: cannot start the proxy on host h[01] (.* h[01] /nonexistent/xb/mpiexec --xb-proxy): .*/nonexistent/xb/mpiexec" "$T/err" ||
        fail "--proxy-path to a missing file: no message naming the host and the path"
    timeout -k 3 30 "$MPIEXEC" -n 2 -hosts h0 --proxy-path bin/mpiexec true >"$T/out" 2>"$T/err" </dev/null
    RC=$?
    [ "$RC" = 2 ] && grep -q "absolute path" "$T/err" || fail "--proxy-path with a relative path: status $RC"
    # a program that is missing on the hosts: 127, one message
    mpirun 2 30 "$T/no-such-program"
    [ "$RC" = 127 ] || fail "missing program: exit status $RC, expected 127"
    grep -q "^mpiexec: cannot start '$T/no-such-program' on h[01]: No such file" "$T/err" ||
        fail "missing program: no message naming host and cause"
    # a proxy killed mid-job: one message naming its host, the job ends
    "$MPIEXEC" -n 4 -ppn 2 -hosts h0,h1 --launcher-exec "$NSEXEC" sleep 30 \
        >"$T/out" 2>"$T/err" </dev/null &
    MP=$!
    i=0; while [ "$(pgrep -P "$MP" | wc -l)" -lt 2 ] && [ $i -lt 100 ]; do sleep 0.05; i=$((i + 1)); done
    sleep 0.5                               # the proxies start their ranks
    victim=$(pgrep -P "$MP" | sort -n | sed -n 2p)
    [ -n "$victim" ] || fail "no proxy found"
    kill -9 "$victim"
    i=0; while kill -0 "$MP" 2>/dev/null && [ $i -lt 100 ]; do sleep 0.05; i=$((i + 1)); done
    kill -0 "$MP" 2>/dev/null && { kill -9 "$MP"; fail "the job did not end within 5 s of the proxy's death"; }
    wait "$MP"; RC=$?
    [ "$RC" = 255 ] || fail "proxy killed: exit status $RC, expected 255"
    grep -q "^mpiexec: the proxy on host h[01] (pid $victim) was killed by signal 9.*ranks still ran" "$T/err" ||
        fail "proxy killed: no message naming the host and the cause"
    # a rank killed on a remote host: its host, pid and signal; status 137
    "$MPIEXEC" -n 4 -ppn 2 -hosts h0,h1 --launcher-exec "$NSEXEC" sh -c 'echo "pid $$"; exec sleep 30' \
        >"$T/out" 2>"$T/err" </dev/null &
    MP=$!
    i=0; while [ "$(grep -c '^pid' "$T/out")" -lt 4 ] && [ $i -lt 100 ]; do sleep 0.05; i=$((i + 1)); done
    victim=$(sed -n 's/^pid //p' "$T/out" | sed -n 3p)
    [ -n "$victim" ] || fail "no rank pid printed"
    kill -9 "$victim"
    wait "$MP"; RC=$?
    [ "$RC" = 137 ] || fail "rank killed: exit status $RC, expected 137"
    grep -q "^mpiexec: rank [0-3] (pid $victim) on h[01] exited on signal 9" "$T/err" ||
        fail "rank killed: no message naming rank, host and signal"
    ;;
*)
    echo "usage: run.sh pt2pt|coll|methods|hydra|ipv6|fail"; exit 2 ;;
esac
echo "PASS: $CASE"
