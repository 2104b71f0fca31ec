#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The Crossbar authors
#
# build.autotools: with an installation's bin/ first on PATH, the probes an
# autoconf project usually makes for MPI (look for mpicc on PATH and use it
# as CC, check mpi.h, check that MPI_Init links with no extra library or
# with -lmpi, read MPI_VERSION with a compile test) find Crossbar, and the
# automake-built program runs under our mpiexec on our library.
. "$XB_SOURCE_DIR/tests/build/lib.sh"

command -v autoreconf >/dev/null 2>&1 || die "autoreconf not found (Debian: autoconf automake)"
P=$XB_TMP/prefix
"${CMAKE_COMMAND:-cmake}" --install "$XB_BUILD_DIR" --prefix "$P" >"$XB_TMP/install.log" 2>&1 ||
    { cat "$XB_TMP/install.log"; die "cmake --install failed"; }
PATH=$P/bin:$PATH
export PATH
unset CC MPICC MPI_HOME MPICH_CC OMPI_CC

A=$XB_TMP/at-proj
mkdir -p "$A"
cp "$XB_SOURCE_DIR/tests/build/hello.c" "$A/"
cat > "$A/configure.ac" <<'AC'
AC_INIT([hello], [1.0])
AM_INIT_AUTOMAKE([foreign])
dnl The usual MPI probe: an MPI compiler wrapper from PATH becomes CC.
AC_ARG_VAR([MPICC], [MPI C compiler wrapper])
AC_CHECK_PROGS([MPICC], [mpicc mpiicc mpcc hcc], [none])
AS_IF([test "x$MPICC" = xnone], [AC_MSG_ERROR([no MPI C compiler on PATH])])
CC=$MPICC
AC_PROG_CC
AC_CHECK_HEADER([mpi.h], [], [AC_MSG_ERROR([mpi.h not usable])])
AC_SEARCH_LIBS([MPI_Init], [mpi mpich], [], [AC_MSG_ERROR([MPI_Init does not link])])
AC_CHECK_FUNCS([MPI_Init_thread MPI_Comm_split_type])
AC_MSG_CHECKING([for the MPI version])
AC_COMPUTE_INT([xb_mpi_version], [MPI_VERSION], [#include <mpi.h>], [xb_mpi_version=none])
AC_MSG_RESULT([$xb_mpi_version])
AC_MSG_NOTICE([XB: MPICC=$MPICC MPI_VERSION=$xb_mpi_version])
AC_CONFIG_FILES([Makefile])
AC_OUTPUT
AC
cat > "$A/Makefile.am" <<'AM'
bin_PROGRAMS = hello
hello_SOURCES = hello.c
AM

if (cd "$A" && autoreconf -i) >"$XB_TMP/at.log" 2>&1 &&
   (cd "$A" && ./configure) >>"$XB_TMP/at.log" 2>&1 &&
   (cd "$A" && make) >>"$XB_TMP/at.log" 2>&1; then
    log=$(cat "$XB_TMP/at.log")
    expect_match "configure found our mpicc" "XB: MPICC=mpicc " "$log"
    expect_match "configure read MPI_VERSION 5" "MPI_VERSION=5\$" "$log"
    expect_match "MPI_Init links" "checking for library containing MPI_Init\.\.\. none required" "$log"
    expect_match "MPI_Init_thread found" "checking for MPI_Init_thread\.\.\. yes" "$log"
    expect_match "mpi.h found" "checking for mpi\.h\.\.\. yes" "$log"
    expect_match "the compiler is our wrapper" "^CC = mpicc\$" "$(grep '^CC = ' "$A/Makefile")"
    out=$(timeout 60 mpiexec -n 2 "$A/hello" 2>&1)
    expect_match "autotools program runs on Crossbar" "library: Crossbar" "$out"
    expect_match "autotools program: right result" "No Errors" "$out"
    expect_match "autotools program linked with our library" "=> $P/lib/libmpi\.so" \
        "$(ldd "$A/hello" | grep libmpi)"
else
    tail -40 "$XB_TMP/at.log"; fail "autoreconf/configure/make failed"
fi
finish
