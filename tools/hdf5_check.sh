#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The Crossbar authors
#
# Parallel HDF5's own tests (testpar of Debian's hdf5 source package) built
# with this build's mpicc and run with our mpiexec: an outside check of
# MPI-IO (independent and collective reads and writes through file views),
# derived datatypes and the collectives HDF5's metadata cache uses. Not
# part of `make test` (a few minutes to build, about ten to run on 2 CPUs).
#
#   tools/hdf5_check.sh [NP]        default: 4 ranks
#
# Environment: XB_BUILD_DIR (default build), HDF5_CHECK_DIR (work folder,
# default /tmp/xb-hdf5). The first run needs root to fetch the source
# (tools/deb_orig.sh). Prints each test program's verdict; exit status:
# that of HDF5's `make check` in testpar.
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
np=${1:-4}
work=${HDF5_CHECK_DIR:-/tmp/xb-hdf5}
. "$here/tools/outside.sh"
outside_setup hdf5 "$work"
# testpflush.sh runs `mpiexec` from PATH, whatever RUNPARALLEL says
export PATH="$build/bin:$PATH"
if [ ! -x src/testpar/testphdf5 ]; then
    rm -rf src && mkdir src
    tar xzf hdf5_*.orig.tar.gz -C src --strip-components=1
    (cd src && ./configure --enable-parallel CC="$build/bin/mpicc" --disable-fortran \
        --disable-cpp-lib --disable-hl --disable-tools > configure.log 2>&1 &&
        make -j2 -C src > make.log 2>&1 && make -j2 -C test libh5test.la >> make.log 2>&1 &&
        make -j2 -C testpar >> make.log 2>&1) ||
        { echo "hdf5_check: the build failed (see $work/src)" >&2; exit 1; }
fi
rc=0
rm -f src/testpar/*.chkexe src/testpar/*.chklog    # HDF5's stamps: else nothing reruns
HDF5_PARAPREFIX="$work" make -C src/testpar check \
    RUNPARALLEL="$build/bin/mpiexec -n $np" > check.log 2>&1 || rc=$?
for f in src/testpar/*.chklog; do     # some programs say only "finished with ..."
    said=$(grep -m1 -o 'tests finished with [a-z ]*' "$f" || true)
    echo "$(basename "$f" .chklog): $(grep -c 'PASSED' "$f") PASSED, $(grep -c 'FAILED' "$f")" \
         "FAILED${said:+; $said}"
done
[ "$rc" = 0 ] || echo "hdf5_check: make check failed (see $work/check.log)" >&2
exit "$rc"
