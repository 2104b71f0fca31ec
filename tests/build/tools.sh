#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The Crossbar authors
#
# build.cmake_meson: with an installation's bin/ first on PATH, CMake's
# find_package(MPI) and meson's dependency('mpi') find Crossbar (not another
# MPI on the machine), and the programs they build run under our mpiexec on
# our library.
. "$XB_SOURCE_DIR/tests/build/lib.sh"

P=$XB_TMP/prefix
"${CMAKE_COMMAND:-cmake}" --install "$XB_BUILD_DIR" --prefix "$P" >"$XB_TMP/install.log" 2>&1 ||
    { cat "$XB_TMP/install.log"; die "cmake --install failed"; }
PATH=$P/bin:$PATH
export PATH
# meson asks pkg-config for Open MPI's ompi-c before the wrapper: only ours.
PKG_CONFIG_LIBDIR=$P/lib/pkgconfig
export PKG_CONFIG_LIBDIR
unset MPI_HOME MPICC MPICH_CC OMPI_CC

# An ASan build of the library needs the sanitizer runtime loaded first; the
# wrappers add -fsanitize at link time, but CMake and meson keep only the
# -L/-l/-Wl words of the wrapper's answer: preload the runtime for them.
preload=""
if "$P/bin/mpicc" -showme:link | grep -q 'fsanitize=address'; then
    preload=$(gcc -print-file-name=libasan.so)
fi

run_hello() {   # run_hello WHAT PROGRAM
    out=$(LD_PRELOAD=$preload timeout 60 mpiexec -n 2 "$2" 2>&1)
    expect_match "$1: runs on Crossbar" "library: Crossbar" "$out"
    expect_match "$1: right result" "No Errors" "$out"
    expect_match "$1: linked with our library" "=> $P/lib/libmpi\.so" "$(ldd "$2" | grep libmpi)"
}

# ---- CMake -------------------------------------------------------------------
C=$XB_TMP/cmake-proj
mkdir -p "$C"
cp "$XB_SOURCE_DIR/tests/build/hello.c" "$C/"
cat > "$C/CMakeLists.txt" <<'CM'
cmake_minimum_required(VERSION 3.16)
project(hello C CXX)
find_package(MPI REQUIRED COMPONENTS C CXX)
message(STATUS "XB: MPI_C_COMPILER=${MPI_C_COMPILER}")
message(STATUS "XB: MPI_C_VERSION=${MPI_C_VERSION}")
add_executable(hello hello.c)
target_link_libraries(hello PRIVATE MPI::MPI_C)
add_executable(hellocxx hello.cpp)
target_link_libraries(hellocxx PRIVATE MPI::MPI_CXX)
CM
cp "$C/hello.c" "$C/hello.cpp"
if "${CMAKE_COMMAND:-cmake}" -S "$C" -B "$C/b" >"$XB_TMP/cmake.log" 2>&1 &&
   "${CMAKE_COMMAND:-cmake}" --build "$C/b" >>"$XB_TMP/cmake.log" 2>&1; then
    log=$(cat "$XB_TMP/cmake.log")
    expect_match "find_package(MPI) found our mpicc" "XB: MPI_C_COMPILER=$P/bin/mpicc" "$log"
    expect_match "find_package(MPI) read MPI version 5.0" "XB: MPI_C_VERSION=5\.0" "$log"
    run_hello "CMake C program" "$C/b/hello"
    run_hello "CMake C++ program" "$C/b/hellocxx"
else
    tail -40 "$XB_TMP/cmake.log"; fail "CMake could not configure or build with find_package(MPI)"
fi

# ---- meson -------------------------------------------------------------------
if command -v meson >/dev/null 2>&1; then
    M=$XB_TMP/meson-proj
    mkdir -p "$M"
    cp "$XB_SOURCE_DIR/tests/build/hello.c" "$M/"
    cat > "$M/meson.build" <<'MB'
project('hello', 'c')
mpi = dependency('mpi', language: 'c')
message('XB: mpi found=' + mpi.found().to_string() + ' type=' + mpi.type_name())
executable('hello', 'hello.c', dependencies: mpi)
MB
    if (cd "$M" && meson setup b) >"$XB_TMP/meson.log" 2>&1 &&
       (cd "$M" && meson compile -C b) >>"$XB_TMP/meson.log" 2>&1; then
        expect_match "dependency('mpi') found" "XB: mpi found=true" "$(cat "$XB_TMP/meson.log")"
        run_hello "meson program" "$M/b/hello"
    else
        tail -40 "$XB_TMP/meson.log"; fail "meson could not set up or build with dependency('mpi')"
    fi
else
    fail "meson is not installed (cmake/deps.sh --all installs it)"
fi
finish
