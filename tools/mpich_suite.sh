#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The Crossbar authors
#
# Run MPICH's own test suite (test/mpi of Debian's mpich source package)
# against this build: an outside check of the standard's behaviour. Not part
# of `make test` (it takes about an hour on 2 CPUs); docs/mpich-suite.md
# lists the failures we expect and why.
#
#   tools/mpich_suite.sh [DIR...]      default: the directories below
#
# Environment: XB_BUILD_DIR (default build), MPICH_SUITE_DIR (work folder,
# default /tmp/xb-mpich-suite), MPITEST_TIMEOUT (seconds per test, 60).
# The first run needs root: it adds the deb-src lines of the system's own
# Debian sources and fetches the source package with apt-get.
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
work=${MPICH_SUITE_DIR:-/tmp/xb-mpich-suite}
dirs=${*:-"attr coll comm datatype errhan group info init io mpi_t part pt2pt rma spawn threads topo"}
. "$here/tools/outside.sh"
outside_setup mpich "$work"
export PATH="$build/bin:$PATH" MPITEST_TIMEOUT="${MPITEST_TIMEOUT:-60}"

if [ ! -d mpi ]; then
    tar xf mpich_*.orig.tar.* --wildcards '*/test/mpi'
    mv mpich-*/test/mpi mpi
    # Test bugs, not ours: these store MPI_Datatype handles in ints (MPICH's
    # handles are ints), which truncates a pointer handle.
    sed -i 's/int \*sendtypes/MPI_Datatype *sendtypes/; s/int \*recvtypes/MPI_Datatype *recvtypes/' \
        mpi/coll/nonblocking2.c mpi/coll/nonblocking3.c
    (cd mpi && ./configure CC="$build/bin/mpicc" MPICC="$build/bin/mpicc" --disable-fortran --disable-cxx \
        --disable-romio > configure.log 2>&1)
    # dtpools calls MPI_Type_hvector/hindexed, removed in MPI 3.0: the
    # standard's names have the same arguments.
    make -C mpi/util > /dev/null 2>&1
    make -C mpi/dtpools CFLAGS="-O2 -DMPI_Type_hvector=MPI_Type_create_hvector \
        -DMPI_Type_hindexed=MPI_Type_create_hindexed" > /dev/null 2>&1
fi

for d in $dirs; do
    out="$work/$(echo "$d" | tr / _)"     # errors/coll -> errors_coll
    top=$(echo "$d" | sed 's|[^/]*|..|g')  # the runtests script is in mpi/
    (cd "mpi/$d" && "$top/runtests" -srcdir=. -tests=testlist -mpiexec="$build/bin/mpiexec" \
        -xmlfile="$out.xml" > "$out.run" 2>&1) || true
    python3 - "$out.xml" "$d" <<'PY'
import re, sys
s = open(sys.argv[1], errors="replace").read()
tests = re.findall(r"<MPITEST>(.*?)</MPITEST>", s, re.S)
bad = []
for t in tests:
    if "<STATUS>pass</STATUS>" not in t:
        name = re.search(r"<NAME>(.*?)</NAME>", t).group(1)
        np = re.search(r"<NP>(.*?)</NP>", t).group(1)
        bad.append(name + (":" + np if np else ""))
print("%s: %d of %d failed %s" % (sys.argv[2], len(bad), len(tests), " ".join(bad)))
PY
done
