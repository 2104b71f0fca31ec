#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The Crossbar authors
#
# hypre's solver regression tests (Debian's hypre source package) built
# with this build's mpicc and run with our mpiexec: the IJ, Struct and
# SStruct drivers with many solvers at 1-8 ranks, their results compared
# with hypre's saved ones (relative tolerance 1e-6). An outside check of a
# sparse linear-algebra library: neighbour exchanges with derived
# datatypes, persistent and nonblocking point-to-point, reductions. Not
# part of `make test` (about a minute to build, seconds to run on 2 CPUs).
#
#   tools/hypre_check.sh
#
# Environment: XB_BUILD_DIR (default build), HYPRE_CHECK_DIR (work folder,
# default /tmp/xb-hypre). The first run needs root to fetch the source
# (tools/deb_orig.sh). hypre's scripts need bash. Exit status 1 when a
# test wrote an error file (hypre's checktest.sh lists them).
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
work=${HYPRE_CHECK_DIR:-/tmp/xb-hypre}
. "$here/tools/outside.sh"
outside_setup hypre "$work"
if [ ! -x src/src/test/ij ]; then
    rm -rf src && mkdir src
    tar xzf hypre_*.orig.tar.gz -C src --strip-components=1
    (cd src/src && ./configure CC="$build/bin/mpicc" --disable-fortran > configure.log 2>&1 &&
        make -j2 > make.log 2>&1 && make -C test all >> make.log 2>&1) ||
        { echo "hypre_check: the build failed (see $work/src/src)" >&2; exit 1; }
fi
cd src/src/test
bad=0
for t in ij struct sstruct; do
    bash ./runtest.sh -rtol 1.e-06 -mpi "$build/bin/mpiexec -n" "TEST_$t/solvers.sh"
    if [ -s "TEST_$t/solvers.err" ]; then
        echo "hypre_check: TEST_$t/solvers.err:" >&2
        head -20 "TEST_$t/solvers.err" >&2
        bad=1
    else
        echo "TEST_$t: $(ls TEST_$t/solvers.out.* | wc -l) runs, no errors"
    fi
done
exit "$bad"
