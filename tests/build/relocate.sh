#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The Crossbar authors
#
# build.relocate: `cmake --install` gives the documented layout; the tree
# still works after it is moved (wrappers, pkg-config, programs, mpiexec);
# nothing in it records the build directory or the first prefix.
. "$XB_SOURCE_DIR/tests/build/lib.sh"

P=$XB_TMP/first
"${CMAKE_COMMAND:-cmake}" --install "$XB_BUILD_DIR" --prefix "$P" >"$XB_TMP/install.log" 2>&1 ||
    { cat "$XB_TMP/install.log"; die "cmake --install failed"; }

for f in bin/mpicc bin/mpicxx bin/mpiexec bin/mpirun bin/crossbar-info include/mpi.h \
         lib/libmpi.so lib/libmpi_abi.so lib/pkgconfig/mpi.pc lib/pkgconfig/mpi-c.pc; do
    if [ -e "$P/$f" ]; then echo "ok: installed $f"; else fail "missing $f"; fi
done
expect_match "libmpi.so has a SONAME" "SONAME.*\[libmpi\.so\.[0-9]+\]" \
    "$(readelf -d "$P/lib/libmpi.so" 2>&1)"
expect_eq "libmpi_abi.so is the same library" "$(readlink -f "$P/lib/libmpi.so")" \
    "$(readlink -f "$P/lib/libmpi_abi.so")"
expect_eq "mpirun is mpiexec" "$(readlink -f "$P/bin/mpiexec")" "$(readlink -f "$P/bin/mpirun")"

# Nothing installed names the build tree or this prefix.
if grep -rlF -e "$XB_BUILD_DIR/" -e "$P" "$P/bin/mpicc" "$P/bin/mpicxx" "$P/lib/pkgconfig" \
       >"$XB_TMP/hits" 2>/dev/null; then
    fail "these files record an absolute path: $(cat "$XB_TMP/hits")"
else
    echo "ok: no absolute path recorded in the wrappers and .pc files"
fi

# Move it, then use only the moved tree.
M=$XB_TMP/moved/elsewhere
mkdir -p "$XB_TMP/moved"
mv "$P" "$M" || die "could not move the installation"
expect_eq "moved mpicc: compile flags" "-I$M/include" "$("$M/bin/mpicc" -showme:compile)"
"$M/bin/mpicc" -O2 "$XB_SOURCE_DIR/tests/build/hello.c" -o "$XB_TMP/hello" ||
    die "the moved mpicc could not build hello.c"
expect_match "the program runs on the moved library" "=> $M/lib/libmpi\.so" \
    "$(ldd "$XB_TMP/hello" | grep libmpi)"
out=$(timeout 60 "$M/bin/mpiexec" -n 3 "$XB_TMP/hello" 2>&1)
expect_match "moved mpiexec runs 3 ranks" "No Errors" "$out"
out=$(timeout 60 "$M/bin/mpirun" -n 2 "$XB_TMP/hello" 2>&1)
expect_match "moved mpirun runs 2 ranks" "No Errors" "$out"
out=$("$M/bin/crossbar-info" 2>&1)
expect_match "moved crossbar-info prints the version" "[Cc]rossbar.*[0-9]+\.[0-9]+\.[0-9]+" "$out"

# pkg-config from the moved tree.
if command -v pkg-config >/dev/null 2>&1; then
    for pc in mpi mpi-c crossbar; do
        expect_match "pkg-config $pc --cflags" "^-I$M/lib/pkgconfig/\.\./\.\./include|^-I$M/include" \
            "$(PKG_CONFIG_LIBDIR="$M/lib/pkgconfig" pkg-config --cflags "$pc")"
    done
    flags="$(PKG_CONFIG_LIBDIR="$M/lib/pkgconfig" pkg-config --cflags --libs mpi)"
    # shellcheck disable=SC2086
    gcc "$XB_SOURCE_DIR/tests/build/hello.c" -o "$XB_TMP/hello_pc" $flags \
        $("$M/bin/mpicc" -showme:link | sed 's/ *-lmpi$//') ||
        die "building with pkg-config's flags failed"
    out=$(timeout 60 "$M/bin/mpiexec" -n 2 "$XB_TMP/hello_pc" 2>&1)
    expect_match "program built with pkg-config runs" "No Errors" "$out"
else
    fail "pkg-config is not installed (cmake/deps.sh installs it)"
fi
finish
