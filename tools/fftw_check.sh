#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The Crossbar authors
#
# FFTW's MPI transforms (Debian's fftw3 source package) built with this
# build's mpicc and checked by FFTW's own test driver: random distributed
# transforms, each compared with FFTW's serial result, at 1, 2, 3 and 4
# ranks. An outside check of the calls a real library makes (its
# transposes: MPI_Alltoall(v), MPI_Sendrecv, derived datatypes). Not part of
# `make test` (the build takes a few minutes on 2 CPUs).
#
#   tools/fftw_check.sh [NUMCHECK [MAXSIZE]]   default: 60 transforms per
#                                               rank count, up to 60000 points
#
# Environment: XB_BUILD_DIR (default build), FFTW_CHECK_DIR (work folder,
# default /tmp/xb-fftw). The first run needs root to fetch the source
# (tools/deb_orig.sh). Exit status: that of FFTW's check.
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
work=${FFTW_CHECK_DIR:-/tmp/xb-fftw}
. "$here/tools/outside.sh"
outside_setup fftw3 "$work"
if [ ! -x src/mpi/mpi-bench ]; then
    rm -rf src && mkdir src
    tar xf fftw3_*.orig.tar.* -C src --strip-components=1
    (cd src && ./configure --enable-mpi MPICC="$build/bin/mpicc" --disable-fortran \
        --disable-doc > configure.log 2>&1 && make -j2 > make.log 2>&1) ||
        { echo "fftw_check: the build failed (see $work/src)" >&2; exit 1; }
fi
make -C src/mpi check-local MPIRUN="$build/bin/mpiexec" NUMCHECK="${1:-60}" \
    CHECKSIZE="${2:-60000}"
