#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The Crossbar authors
#
# mpi4py stage (issue 8; a CI stage of .ci/run): build mpi4py from its
# source distribution against an installation of the build tree (our
# mpicc), then run mpi4py's own test suite (test/main.py of the sdist) under
# our mpiexec with 1, 2, 3 and 5 ranks. Tests of features Crossbar does not
# implement yet are listed in tests/mpi4py/xfail.txt (pattern -> area) and
# excluded with the runner's --xfile option; any other failure, error, crash
# or timeout fails the stage.
#
# Everything lives in one work directory inside the build tree
# ($XB_BUILD_DIR/mpi4py: the installation, a venv, the sdist, the logs),
# made afresh each run; pip caches nothing (PIP_NO_CACHE_DIR).
# Needs python3 with venv and pip, and the package index (network).
# Environment: XB_BUILD_DIR (default build), XB_SOURCE_DIR (default: this
# repository), MPI4PY_VERSION (default 4.1.2), MPI4PY_TEST_NP (default
# "1 2 3 5"), MPI4PY_TEST_TIMEOUT (seconds per run, default 400),
# MPI4PY_TEST_LOCAL_ONLY (modules that test local operations only and are
# CPU-bound, default "test_datatype": run with fewer than
# MPI4PY_TEST_LOCAL_ONLY_NP ranks only, default 3),
# MPI4PY_WORKDIR (default $XB_BUILD_DIR/mpi4py).
set -u
here=$(cd "$(dirname "$0")" && pwd)
XB_SOURCE_DIR=${XB_SOURCE_DIR:-$(cd "$here/../.." && pwd)}
XB_BUILD_DIR=$(cd "${XB_BUILD_DIR:-$XB_SOURCE_DIR/build}" && pwd) || exit 1
MPI4PY_VERSION=${MPI4PY_VERSION:-4.1.2}
NPS=${MPI4PY_TEST_NP:-1 2 3 5}
TMO=${MPI4PY_TEST_TIMEOUT:-400}
LOCAL_ONLY=${MPI4PY_TEST_LOCAL_ONLY-test_datatype}
LOCAL_ONLY_NP=${MPI4PY_TEST_LOCAL_ONLY_NP:-3}
PY=${PYTHON:-python3}

W=${MPI4PY_WORKDIR:-$XB_BUILD_DIR/mpi4py}
# Clear only a directory this script made (or an empty one).
if [ -d "$W" ] && [ ! -f "$W/.xb-mpi4py" ] && [ -n "$(ls -A "$W")" ]; then
    echo "mpi4py: FAIL: $W exists and was not made by this script"; exit 1
fi
rm -rf "$W" && mkdir -p "$W" && : > "$W/.xb-mpi4py" || exit 1
W=$(cd "$W" && pwd)
export PIP_NO_CACHE_DIR=1 PIP_DISABLE_PIP_VERSION_CHECK=1
die() { echo "mpi4py: FAIL: $*"; exit 1; }
t0=$(date +%s)

# ---- an installation of the build tree ----------------------------------------
P=$W/prefix
"${CMAKE_COMMAND:-cmake}" --install "$XB_BUILD_DIR" --prefix "$P" >"$W/install.log" 2>&1 ||
    { cat "$W/install.log"; die "cmake --install $XB_BUILD_DIR failed"; }
PATH=$P/bin:$PATH
export PATH
unset MPI4PY_MPIABI MPI4PY_LIBMPI

# ---- mpi4py from source ---------------------------------------------------------
"$PY" -m venv "$W/venv" || die "python3 -m venv failed (install python3-venv)"
VPY=$W/venv/bin/python
timeout 300 "$VPY" -m pip install -q "cython>=3.0" setuptools wheel </dev/null >"$W/pip.log" 2>&1 ||
    { cat "$W/pip.log"; die "pip could not install the build requirements"; }
# The sdist only: --no-binary mpi4py (":all:" would build setuptools and
# Cython from source too, for the metadata step: minutes without a cache),
# and the venv's build requirements for that step.
timeout 300 "$VPY" -m pip download -q --no-deps --no-build-isolation --no-binary mpi4py \
    -d "$W/dl" "mpi4py==$MPI4PY_VERSION" \
    </dev/null >>"$W/pip.log" 2>&1 ||
    { cat "$W/pip.log"; die "pip could not download the mpi4py $MPI4PY_VERSION sdist"; }
tar -xzf "$W/dl/mpi4py-$MPI4PY_VERSION.tar.gz" -C "$W" || die "cannot unpack the sdist"
SRC=$W/mpi4py-$MPI4PY_VERSION
# Our mpi.h defines MPI_ABI_VERSION, which makes mpi4py assume the whole MPI
# 5.0 API exists; MPI4PY_BUILD_CONFIGURE=1 makes it probe every function and
# constant instead and provide fallbacks for the missing ones. -O0: the
# 300k-line MPI.c compiles several times faster (MPI4PY_TEST_CFLAGS overrides).
t1=$(date +%s)
CFLAGS=${MPI4PY_TEST_CFLAGS:--O0} MPI4PY_BUILD_CONFIGURE=1 MPICC=$P/bin/mpicc timeout 1200 "$VPY" -m pip install -v --no-deps \
    --no-build-isolation --no-binary mpi4py "$SRC" </dev/null >"$W/build.log" 2>&1 ||
    { grep -E 'error|Error' "$W/build.log" | head -30; tail -30 "$W/build.log"
      die "mpi4py did not build against Crossbar"; }
echo "mpi4py: built mpi4py $MPI4PY_VERSION against $P in $(( $(date +%s) - t1 )) s"
info=$(timeout 60 "$VPY" -c 'from mpi4py import MPI; print(MPI.Get_library_version().strip())' 2>&1)
timeout 60 "$PY" "$here/abi_probe.py" "$P/lib" || die "the standard-ABI checks mpi4py's wheel relies on failed"
case $info in
    *Crossbar*) echo "mpi4py: MPI.Get_library_version(): $info" ;;
    *) die "mpi4py is not running on Crossbar: $info" ;;
esac

# ---- the expected failures: pattern -> area ---------------------------------------
# xfail.txt: "PATTERN AREA [np=N,M]"; PATTERN is a shell pattern on
# module.Class.method, or module:NAME for a whole module. Lines with np=
# apply only to those rank counts.
xfile_for() {   # xfile_for NP > file
    sed -e 's/#.*//' "$here/xfail.txt" | awk -v np="$1" '
        NF >= 2 {
            if (NF >= 3 && $3 ~ /^np=/) {
                split(substr($3, 4), l, ","); ok = 0
                for (i in l) if (l[i] == np) ok = 1
                if (!ok) next
            }
            if ($1 !~ /^module:/) print $1
        }'
}
modules_for() {   # modules_for NP: the module names of every module: line
    sed -e 's/#.*//' "$here/xfail.txt" | awk '$1 ~ /^module:/ { print substr($1, 8) }'
    # Modules that test local operations only: every rank does the same
    # CPU-bound work (test_datatype: about 40 s of CPU per rank), so with
    # more ranks than the 2 cores of CI they cost minutes and test nothing
    # that 1 and 2 ranks did not (they run there).
    [ "$1" -lt "$LOCAL_ONLY_NP" ] || for m in $LOCAL_ONLY; do echo "$m"; done
}

# ---- the suite ------------------------------------------------------------------------
# Counts per run, from every rank's unittest summary (rank 0's is reported):
# run = tests unittest ran, skipped = skipped by mpi4py itself (features it
# finds missing at run time), passed = run - skipped - failed - errors,
# xfail = tests excluded by xfail.txt (expected failures; not run).
set -f   # no globbing: the -e patterns hold [.]
status=0
summary=""
for np in $NPS; do
    xfile_for "$np" > "$W/xfail-$np.txt"
    mods=$(modules_for "$np")
    eargs=""
    for m in $mods; do eargs="$eargs -e ^$m[.]py\$"; done
    xmods=$(sed -e 's/#.*//' "$here/xfail.txt" | awk '$1 ~ /^module:/ { print substr($1, 8) }')
    nx=$(cd "$SRC" && timeout 120 "$VPY" "$here/xcount.py" test "$W/xfail-$np.txt" $xmods 2>/dev/null)
    log=$W/np$np.log
    t1=$(date +%s)
    # shellcheck disable=SC2086
    (cd "$SRC" && timeout -k 10 $((TMO + 30)) mpiexec -n "$np" --timeout "$TMO" -l \
        "$VPY" test/main.py --no-numba --no-cupy --xfile "$W/xfail-$np.txt" $eargs ) \
        </dev/null >"$log" 2>&1
    rc=$?
    dt=$(( $(date +%s) - t1 ))
    ran=$(sed -n 's/^\[0\] Ran \([0-9]*\) tests\{0,1\} in .*/\1/p' "$log" | tail -1)
    res=$(grep -E '^\[0\] (OK|FAILED)' "$log" | tail -1 | sed 's/^\[0\] //')
    num() { printf '%s\n' "$res" | sed -n "s/.*$1=\([0-9]*\).*/\1/p"; }
    skipped=$(num skipped); failed=$(num failures); errors=$(num errors)
    passed=$(( ${ran:-0} - ${skipped:-0} - ${failed:-0} - ${errors:-0} ))
    nranks=$(grep -cE '^\[[0-9]+\] OK' "$log")
    notrun=""
    [ -z "$mods" ] || notrun=", modules not run: $(echo $mods)"
    line="np=$np: run ${ran:-?}, passed $passed, skipped ${skipped:-0}, failed ${failed:-0}, errors ${errors:-0}, xfail ${nx:-?}$notrun; $nranks of $np ranks OK, exit $rc, ${dt} s"
    echo "mpi4py: $line"
    summary="$summary$line
"
    if [ "$rc" != 0 ] || [ -z "$ran" ] || [ "$ran" -lt 100 ] || [ "$nranks" != "$np" ]; then
        status=1
        echo "mpi4py: FAIL on $np ranks: unexpected failures (not in tests/mpi4py/xfail.txt):"
        grep -E '^\[[0-9]+\] (FAIL|ERROR):' "$log" | sort -u | head -60
        grep -E 'Traceback|Error|timeout|waits in' "$log" | head -40
        echo "---- last lines"
        tail -40 "$log"
    fi
done
echo "mpi4py: summary (total $(( $(date +%s) - t0 )) s; logs in $W)"
printf '%s' "$summary"
[ "$status" = 0 ] && echo "mpi4py: all runs passed" || echo "mpi4py: FAILED"
exit $status
