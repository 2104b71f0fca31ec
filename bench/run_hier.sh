#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The Crossbar authors
#
# bench/run_hier.sh - two-stage (hierarchical) collectives against flat ones
# across "hosts" (issue 5): 2 network namespaces on this machine (bench/lib.sh
# netns_hosts), their links shaped to BENCH_LINK (default 1gbit, a cluster's
# Ethernet; "" for no shaping), BENCH_PPN ranks on each (default 4), shared
# memory inside a host and tcp across. The broadcast round of bench/apps.c
# (every rank broadcasts 1 MiB in turn) runs with
# the default selection (bcast "hier": one message per host crosses the
# link, then the host's shared memory) and with XB_COLL_BCAST=binomial (flat:
# a binomial tree over all ranks, whose edges cross the link whenever they
# join ranks of different hosts), interleaved for BENCH_ROUNDS rounds. Prints
# a markdown table: the median round time of each and flat/hier. With
# XB_MCAST=1 too (mcast: the root multicasts one datagram per frame to every
# other host at once, bcast_mcast.c). BENCH_HOSTS hosts (default 2).
# BENCH_SWEEP=bcast|allreduce|reduce (1: bcast): then that collective by
# size (bench/coll.c, 32 KiB - 4 MiB), hier against mcast (bcast) or the
# flat algorithm, interleaved, the median of the rounds.
#
#   sh bench/run_hier.sh            (root: ip netns, tc)   ~1-3 minutes
# Exit 77 when namespaces or shaping cannot be set up here.
set -eu
here=$(cd -P -- "$(dirname -- "$0")" && pwd -P)
BENCH_IMPLS=crossbar
. "$here/lib.sh"
bench_setup bench-hier 3
link=${BENCH_LINK-1gbit}
ppn=${BENCH_PPN:-4}
size=1048576
build_all apps coll
nh=${BENCH_HOSTS:-2}
netns_hosts "$nh" 10.215.0 "$link" || exit $?
hosts=h0; i=1; while [ $i -lt "$nh" ]; do hosts="$hosts,h$i"; i=$((i + 1)); done
xb="$build/bin/mpiexec --bind-to none --launcher-exec $root/tests/hosts/nsexec.sh"
xb="$xb -n $((nh * ppn)) -ppn $ppn -hosts $hosts"
echo "bench: $nh hosts x $ppn ranks, links ${link:-unshaped}, $rounds round(s)" >&2

# one run: the median microseconds of the round (apps prints "size median min max n")
run() {
    # shellcheck disable=SC2086
    timeout -k 5 300 $xb $1 "$out/crossbar/apps" -c round $quick 2>"$out/raw/err" |
        awk -v s="$size" '$1 == s { print $2 }'
}
r=1
while [ $r -le "$rounds" ]; do
    for v in hier mcast flat; do
        case $v in
        flat) env="-x XB_COLL_BCAST=binomial" ;;
        mcast) env="-x XB_MCAST=1" ;;
        *) env="" ;;
        esac
        t=$(run "$env")
        [ -n "$t" ] || { echo "bench: $v run failed:" >&2; cat "$out/raw/err" >&2; exit 1; }
        echo "$t" >>"$out/raw/$v"
        echo "bench: round $r $v $t us" >&2
    done
    r=$((r + 1))
done
med() { sort -g "$1" | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }
h=$(med "$out/raw/hier")
f=$(med "$out/raw/flat")
m=$(med "$out/raw/mcast")
echo "Measured $(date -u '+%Y-%m-%d %H:%M') UTC; $(uname -sr); $(nproc) CPUs; load $(cut -d' ' -f1-3 /proc/loadavg); $rounds round(s)."
echo
echo "| $nh hosts x $ppn ranks, links ${link:-unshaped} | hier (us) | mcast (us) | flat binomial (us) | flat / hier | hier / mcast |"
echo "|---|---|---|---|---|---|"
awk -v h="$h" -v m="$m" -v f="$f" -v s="$size" 'BEGIN { printf "| broadcast round, %d B | %.0f | %.0f | %.0f | %.2f | %.2f |\n", s, h, m, f, f / h, h / m }'

# BENCH_SWEEP: the collective by size, the default selection against
# the other form (bcast: XB_MCAST=1; allreduce, reduce: the flat
# rabenseifner / binomial), interleaved.
sweep=${BENCH_SWEEP:-}
[ -n "$sweep" ] && [ "$sweep" != 0 ] || exit 0
[ "$sweep" = 1 ] && sweep=bcast
case $sweep in
bcast) other=mcast; oenv="-x XB_MCAST=1" ;;
allreduce) other=flat; oenv="-x XB_COLL_ALLREDUCE=rabenseifner" ;;
reduce) other=flat; oenv="-x XB_COLL_REDUCE=binomial" ;;
*) echo "bench: BENCH_SWEEP=$sweep: bcast, allreduce or reduce" >&2; exit 2 ;;
esac
r=1
while [ $r -le "$rounds" ]; do
    for v in hier $other; do
        [ $v = hier ] && env="" || env=$oenv
        # shellcheck disable=SC2086
        timeout -k 5 300 $xb $env "$out/crossbar/coll" -c "$sweep" -s 32768 $quick \
            2>"$out/raw/err" | awk '$1 ~ /^[0-9]+$/ { print $1, $2 }' >>"$out/raw/sweep-$v"
    done
    r=$((r + 1))
done
echo
echo "| MPI_$sweep, $nh hosts x $ppn ranks, links ${link:-unshaped} | hier (us) | $other (us) | $other / hier |"
echo "|---|---|---|---|"
for s in $(awk '{ print $1 }' "$out/raw/sweep-hier" | sort -gu); do
    h=$(awk -v s="$s" '$1 == s { print $2 }' "$out/raw/sweep-hier" | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}')
    m=$(awk -v s="$s" '$1 == s { print $2 }' "$out/raw/sweep-$other" | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}')
    awk -v s="$s" -v h="$h" -v m="$m" 'BEGIN { printf "| %d B | %.1f | %.1f | %.2f |\n", s, h, m, m / h }'
done
