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
