#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The Crossbar authors
#
# build.probes: every probe that build tools send to mpicc/mpicxx answers with
# our paths; the compiler override works; a symlinked wrapper still finds its
# prefix; compile-only gets no link flags; programs linked with -lmpi and
# with the standard ABI name -lmpi_abi both run.
. "$XB_SOURCE_DIR/tests/build/lib.sh"

B=$XB_BUILD_DIR
cc=$B/bin/mpicc
inc="-I$B/include"
link="-L$B/lib -Wl,-rpath,$B/lib"

expect_eq "-showme:compile" "$inc" "$("$cc" -showme:compile)"
expect_eq "--showme:compile" "$inc" "$("$cc" --showme:compile)"
expect_match "-showme:link" "^$link( .*)? -lmpi\$" "$("$cc" -showme:link)"
expect_match "--showme:link" "^$link( .*)? -lmpi\$" "$("$cc" --showme:link)"
expect_eq "-showme:incdirs" "$B/include" "$("$cc" -showme:incdirs)"
expect_eq "-showme:libdirs" "$B/lib" "$("$cc" -showme:libdirs)"
expect_eq "-showme:libs" "mpi" "$("$cc" -showme:libs)"
expect_match "--showme:version" "^mpicc: Crossbar [0-9]+\.[0-9]+\.[0-9]+ \(Language: C\)\$" \
    "$("$cc" --showme:version)"
expect_match "-showme" "^gcc $inc $link( .*)? -lmpi\$" "$("$cc" -showme)"
expect_match "-show" "^gcc $inc $link( .*)? -lmpi\$" "$("$cc" -show)"
expect_match "-show with arguments" "^gcc $inc -O2 x\.c -o x $link( .*)? -lmpi\$" \
    "$("$cc" -show -O2 x.c -o x)"
expect_eq "-show -c (no link flags)" "gcc $inc -c x.c" "$("$cc" -show -c x.c)"
expect_eq "-compile-info" "gcc $inc" "$("$cc" -compile-info)"
expect_match "-link-info" "^gcc $inc $link( .*)? -lmpi\$" "$("$cc" -link-info)"
expect_match "-v" "^mpicc for Crossbar version [0-9.]+\$" "$("$cc" -v)"
expect_match "mpicxx -showme" "^g\+\+ $inc $link" "$("$B/bin/mpicxx" -showme)"
expect_match "mpicxx --showme:version" "\(Language: C\+\+\)" "$("$B/bin/mpicxx" --showme:version)"

# The underlying compiler: XB_CC first, then MPICH_CC, then OMPI_CC.
expect_match "XB_CC override" "^my-cc $inc" "$(XB_CC=my-cc "$cc" -show)"
expect_match "MPICH_CC override" "^mpich-cc $inc" "$(MPICH_CC=mpich-cc "$cc" -show)"
expect_match "OMPI_CC override" "^ompi-cc $inc" "$(OMPI_CC=ompi-cc "$cc" -show)"
expect_match "XB_CC beats OMPI_CC" "^my-cc " "$(XB_CC=my-cc OMPI_CC=ompi-cc "$cc" -show)"
expect_match "compiler with words" "^ccache gcc $inc" "$(XB_CC='ccache gcc' "$cc" -show)"
expect_match "XB_CXX override" "^my-cxx " "$(XB_CXX=my-cxx "$B/bin/mpicxx" -show)"
# A real compile through an override: the compiler really is the one named.
cat > "$XB_TMP/fakecc" <<'FAKE'
#!/bin/sh
echo "fakecc was called" >&2
exec gcc "$@"
FAKE
chmod +x "$XB_TMP/fakecc"
out=$(XB_CC="$XB_TMP/fakecc" "$cc" -c "$XB_SOURCE_DIR/tests/build/hello.c" \
      -o "$XB_TMP/h.o" 2>&1) || fail "compile with XB_CC=fakecc failed: $out"
expect_match "XB_CC is the compiler run" "fakecc was called" "$out"

# A symlink to the wrapper elsewhere still answers with the real prefix.
ln -s "$cc" "$XB_TMP/mpicc-link"
expect_eq "symlinked wrapper" "$inc" "$("$XB_TMP/mpicc-link" -showme:compile)"
expect_eq "wrapper found on PATH" "$inc" "$(PATH="$B/bin:$PATH" mpicc -showme:compile)"

# Build and run: -lmpi, and the standard ABI's library name.
"$cc" -O2 "$XB_SOURCE_DIR/tests/build/hello.c" -o "$XB_TMP/hello" ||
    die "mpicc could not build hello.c"
out=$(timeout 60 "$B/bin/mpiexec" -n 2 "$XB_TMP/hello" 2>&1)
expect_match "hello via mpicc runs on Crossbar" "library: Crossbar" "$out"
expect_match "hello via mpicc is right" "No Errors" "$out"
# (the link flags come from the wrapper: an ASan build adds the sanitizers)
abi_link=$("$cc" -showme:link | sed 's/-lmpi$/-lmpi_abi/')
# shellcheck disable=SC2086
gcc $inc "$XB_SOURCE_DIR/tests/build/hello.c" -o "$XB_TMP/hello_abi" $abi_link ||
    die "linking with -lmpi_abi failed"
expect_match "-lmpi_abi records the ABI name" "NEEDED.*libmpi(_abi)?\.so" \
    "$(readelf -d "$XB_TMP/hello_abi" 2>&1)"
out=$(timeout 60 "$B/bin/mpiexec" -n 2 "$XB_TMP/hello_abi" 2>&1)
expect_match "hello via -lmpi_abi runs" "No Errors" "$out"
# The library's SONAME.
expect_match "SONAME" "SONAME.*\[libmpi\.so\.[0-9]+\]" "$(readelf -d "$B/lib/libmpi.so" 2>&1)"
finish
