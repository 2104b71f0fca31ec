# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The Crossbar authors
#
# bench/lib.sh - what the side-by-side scripts share (sourced by run.sh and
# run_coll.sh, after they set $build, $out and $impls):
#   cc_of IMPL / run_of IMPL   the compiler wrapper / launcher of each MPI
#   build_all PROG...          builds bench/PROG.c with every implementation
#                              into $out/IMPL/PROG; sets $have to the ones
#                              that built (exits when none did)

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
