#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The Crossbar authors
#
# bench/run_hpcc.sh - the HPC Challenge suite (HPCC 1.5, Debian's hpcc
# source package) built with each implementation's mpicc and run side by
# side, interleaved: HPL, PTRANS, MPIRandomAccess, MPIFFT and b_eff's
# ping-pong and ring latency and bandwidth, as one table (the HPCC
# figures' medians over the rounds). A run whose HPCC checks fail (its
# "Success" is not 1: a residual of HPL or PTRANS, errors of
# MPIRandomAccess or MPIFFT) is said and left out. HPCC calls MPI_Address
# and MPI_Type_struct, which MPI-3.0 removed: Crossbar and MPICH keep them,
# Debian's Open MPI 4.1 does not, so its copy is built with the standard's
# names (MPI_Get_address, MPI_Type_create_struct).
#
# Needs a CBLAS (apt-get install libopenblas-dev) and, the first time, root
# to fetch the source (tools/deb_orig.sh). Environment, besides bench/lib.sh's:
# BENCH_NPS (default "2 4"), BENCH_HPCC_N (HPL's and the others' problem
# size, default 4000), BENCH_HPCC_SRC (where the source tarball is kept,
# default /tmp/xb-hpcc). About 2 minutes a round with the defaults.
set -eu
here=$(cd -P -- "$(dirname -- "$0")" && pwd -P)
. "$here/lib.sh"
bench_setup bench-hpcc 3
nps=${BENCH_NPS:-"2 4"}
n=${BENCH_HPCC_N:-4000}
srcdir=${BENCH_HPCC_SRC:-/tmp/xb-hpcc}

if ! printf '#include <cblas.h>\nint main(void){return 0;}\n' | cc -x c - -lopenblas -o /dev/null 2>/dev/null; then
    echo "bench: HPCC needs a CBLAS: apt-get install libopenblas-dev" >&2
    exit 77
fi
mkdir -p "$srcdir"
(cd "$srcdir" && "$root/tools/deb_orig.sh" hpcc)

have=""
for impl in $impls; do
    cc=$(cc_of "$impl")
    command -v "$cc" >/dev/null 2>&1 || { echo "bench: $impl skipped ($cc not found)" >&2; continue; }
    d="$out/$impl"
    rm -rf "$d" && mkdir -p "$d"
    tar xzf "$srcdir"/hpcc_*.orig.tar.gz -C "$d" --strip-components=1
    if [ "$impl" = openmpi ]; then
        grep -rl 'MPI_Address\|MPI_Type_struct' "$d" --include='*.c' |
            xargs sed -i 's/MPI_Address/MPI_Get_address/g; s/MPI_Type_struct/MPI_Type_create_struct/g'
    fi
    # HPL's make file for a CBLAS, with the MPI wrapper as compiler and linker
    sed -e "s|^ARCH .*|ARCH = xb|; s|^MPdir .*|MPdir =|; s|^MPinc .*|MPinc =|" \
        -e "s|^MPlib .*|MPlib =|; s|^LAdir .*|LAdir =|; s|^LAlib .*|LAlib = -lopenblas|" \
        -e "s|^CC .*|CC = $cc|; s|^LINKER .*|LINKER = $cc|" \
        -e "s|-fomit-frame-pointer -O3 -funroll-loops|-O2 -fcommon|" \
        "$d/hpl/setup/Make.Linux_PII_CBLAS" > "$d/hpl/Make.xb"
    if make -C "$d" arch=xb >"$d/build.log" 2>&1 && [ -x "$d/hpcc" ]; then
        have="$have $impl"
    else
        echo "bench: $impl does not build HPCC (see $d/build.log)" >&2
    fi
done
[ -n "$have" ] || { echo "bench: nothing to run" >&2; exit 1; }
echo "bench: implementations:$have; $rounds round(s); N = $n" >&2

# name of the HPCC figure, our name, unit, lower|higher
metrics="HPL_Tflops hpcc-HPL Tflop/s higher
PTRANS_GBs hpcc-PTRANS GB/s higher
MPIRandomAccess_GUPs hpcc-MPIRandomAccess GUP/s higher
MPIFFT_Gflops hpcc-MPIFFT Gflop/s higher
AvgPingPongLatency_usec hpcc-PingPong-latency us lower
AvgPingPongBandwidth_GBytes hpcc-PingPong-bandwidth GB/s higher
NaturallyOrderedRingLatency_usec hpcc-Ring-latency us lower
NaturallyOrderedRingBandwidth_GBytes hpcc-Ring-bandwidth GB/s higher
RandomlyOrderedRingBandwidth_GBytes hpcc-RandomRing-bandwidth GB/s higher"

one_round() {
    for np in $nps; do
        for impl in $order; do
            w="$out/run-$impl-$np-$round"
            rm -rf "$w" && mkdir -p "$w"
            if [ "$np" -ge 4 ]; then p=2; else p=1; fi
            q=$((np / p))
            sed -e "s/^1000 .*Ns/$n Ns/; s/^2  *Ps/$p Ps/; s/^2  *Qs/$q Qs/" \
                "$out/$impl/_hpccinf.txt" > "$w/hpccinf.txt"
            # shellcheck disable=SC2046
            (cd "$w" && OPENBLAS_NUM_THREADS=1 timeout -k 5 900 $(run_of "$impl") \
                -n "$np" "$out/$impl/hpcc" >run.log 2>&1) || true
            f="$w/hpccoutf.txt"
            if ! grep -q '^Success=1' "$f" 2>/dev/null; then
                echo "bench: $impl -n $np: HPCC failed or its checks did not pass (see $w)" >&2
                continue
            fi
            echo "$metrics" | while read -r key name unit dir; do
                v=$(sed -n "s/^$key=//p" "$f")
                [ -n "$v" ] || continue
                printf '# %s %s %s\n0 %s %s %s 1\n' "$name" "$unit" "$dir" "$v" "$v" "$v" \
                    > "$out/raw/${impl}__${name}__${np}__${round}.txt"
            done
        done
    done
}
bench_rounds one_round

bench_table
