# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The Crossbar authors
#
# bench/lib.sh - what the side-by-side scripts share (sourced by every
# bench/run*.sh after it sets $here, the bench/ folder):
#   bench_setup NAME ROUNDS    the common settings from the environment:
#                              $root, $build (XB_BUILD_DIR), $out (BENCH_OUT,
#                              default $build/NAME) with an empty $out/raw,
#                              $rounds (BENCH_ROUNDS, default ROUNDS), $quick
#                              (-q when BENCH_QUICK=1), $impls (BENCH_IMPLS),
#                              $python (PYTHON)
#   bench_order ROUND          the implementations that built, rotated by
#                              round, so none always runs on a cooler machine
#   cc_of IMPL / run_of IMPL   the compiler wrapper / launcher of each MPI
#   build_all PROG...          builds bench/PROG.c with every implementation
#                              into $out/IMPL/PROG; sets $have to the ones
#                              that built (exits when none did)
#   bench_rounds FN            runs FN once per round ($rounds of them),
#                              with $round and $order set and the round said
#   bench_table                the table of $out/raw (bench/table.py) under a
#                              line saying when, where and at what load, to
#                              stdout and $out/table.md (its path on stderr)

bench_setup() {
    root=$(dirname -- "$here")
    build=${XB_BUILD_DIR:-$root/build}
    out=${BENCH_OUT:-$build/$1}
    rounds=${BENCH_ROUNDS:-$2}
    quick=""
    [ "${BENCH_QUICK:-0}" = 1 ] && quick="-q"
    impls=${BENCH_IMPLS:-"crossbar openmpi mpich"}
    python=${PYTHON:-python3}
    rm -rf "$out/raw"
    mkdir -p "$out/raw"
}

bench_rounds() {
    round=1
    while [ $round -le "$rounds" ]; do
        order=$(bench_order $round)
        echo "bench: round $round: $order" >&2
        "$1"
        round=$((round + 1))
    done
}

bench_order() {
    echo $have | awk -v r="$1" '{n=NF; for(i=0;i<n;i++) printf "%s ", $(((i+r-1)%n)+1)}'
}

cc_of() {
    case $1 in
        crossbar) echo "$build/bin/mpicc" ;;
        openmpi) echo "mpicc.openmpi" ;;
        mpich) echo "mpicc.mpich" ;;
    esac
}

run_of() {
    case $1 in
        crossbar) echo "$build/bin/mpiexec" ;;
        openmpi) echo "mpiexec.openmpi --allow-run-as-root --oversubscribe" ;;
        mpich) echo "mpiexec.mpich" ;;
    esac
}

# bench_run IMPL NAME NP PROG ARGS... -> $out/raw/IMPL__NAME__NP__$round.txt
# (the round number is the caller's $round); a failed run is said, not fatal.
bench_run() {
    impl=$1 name=$2 np=$3 prog=$4
    shift 4
    f="$out/raw/${impl}__${name}__${np}__${round}.txt"
    # shellcheck disable=SC2046
    if ! timeout -k 5 150 $(run_of "$impl") -n "$np" "$out/$impl/$prog" "$@" \
            >"$f" 2>"$f.err"; then
        echo "bench: $impl $name -n $np failed (see $f.err)" >&2
    fi
}

build_all() {
    have=""
    for impl in $impls; do
        cc=$(cc_of "$impl")
        launcher=$(run_of "$impl")
        launcher=${launcher%% *}
        if ! command -v "$cc" >/dev/null 2>&1 || ! command -v "$launcher" >/dev/null 2>&1; then
            echo "bench: $impl skipped ($cc or $launcher not found)" >&2
            continue
        fi
        mkdir -p "$out/$impl"
        ok=1
        for p in "$@"; do
            "$cc" -O2 -w -o "$out/$impl/$p" "$here/$p.c" || { ok=0; break; }
        done
        if [ $ok = 1 ]; then have="$have $impl"; else echo "bench: $impl does not build" >&2; fi
    done
    [ -n "$have" ] || { echo "bench: nothing to run" >&2; exit 1; }
}

bench_table() {
    {
        echo "Measured $(date -u '+%Y-%m-%d %H:%M UTC') on $(uname -srm);" \
             "$(nproc) CPUs ($(sed -n 's/^model name[^:]*: //p' /proc/cpuinfo | head -1));" \
             "load average $(cut -d' ' -f1-3 /proc/loadavg); $rounds round(s)."
        echo
        "$python" "$here/table.py" "$out/raw"
    } | tee "$out/table.md"
    echo "bench: table written to $out/table.md" >&2
}

# netns_hosts N SUBNET [RATE]: N "hosts" on this machine for the benchmarks
# across hosts (root only): network namespaces <P>h0..<P>h(N-1) with eth0 =
# SUBNET.(i+1)/24 on one bridge <P>br (SUBNET.254), named as
# tests/hosts/run.sh names them so its clean-up of stale ones covers these
# too; removed when the script exits. With RATE (e.g. 1gbit), every host's
# link is shaped to RATE in both directions (tbf), like a cluster network.
# Sets $P and exports XB_TEST_NETNS_PREFIX for tests/hosts/nsexec.sh.
# Returns 77 when namespaces cannot be made here.
netns_hosts() {
    [ "$(id -u)" = 0 ] || { echo "bench: network namespaces need root" >&2; return 77; }
    command -v ip >/dev/null 2>&1 || { echo "bench: no 'ip' command" >&2; return 77; }
    P="xb$$"
    XB_TEST_NETNS_PREFIX=$P
    export XB_TEST_NETNS_PREFIX
    netns_n=$1
    trap netns_cleanup EXIT
    trap 'exit 1' INT TERM HUP
    ip link add "${P}br" type bridge || { echo "bench: cannot make a bridge" >&2; return 77; }
    ip link set "${P}br" up
    ip addr add "$2.254/24" dev "${P}br"
    i=0
    while [ $i -lt "$1" ]; do
        ns="${P}h$i"
        ip netns add "$ns" || return 77
        ip link add "${P}v$i" type veth peer name eth0 netns "$ns" || return 77
        ip link set "${P}v$i" master "${P}br"
        ip link set "${P}v$i" up
        ip -n "$ns" addr add "$2.$((i + 1))/24" dev eth0
        ip -n "$ns" link set lo up
        ip -n "$ns" link set eth0 up
        if [ -n "${3:-}" ]; then
            tc qdisc add dev "${P}v$i" root tbf rate "$3" burst 256kb latency 100ms &&
                ip netns exec "$ns" tc qdisc add dev eth0 root tbf rate "$3" burst 256kb latency 100ms ||
                { echo "bench: cannot shape the links to $3 (tc tbf)" >&2; return 77; }
        fi
        i=$((i + 1))
    done
}

netns_cleanup() {
    i=0
    while [ $i -lt "${netns_n:-0}" ]; do
        ip netns del "${P}h$i" 2>/dev/null || true
        ip link del "${P}v$i" 2>/dev/null || true
        i=$((i + 1))
    done
    ip link del "${P}br" 2>/dev/null || true
}
