#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The Crossbar authors
#
# hydra.basic: a program built with our mpicc runs unchanged under MPICH's
# Hydra (mpiexec.mpich, Debian package "mpich"), which speaks PMI-1.
. "$XB_SOURCE_DIR/tests/build/lib.sh"

hydra=${XB_HYDRA:-mpiexec.mpich}
command -v "$hydra" >/dev/null 2>&1 ||
    die "$hydra not found: install Debian's 'mpich' package (cmake/deps.sh --all)"
cd "$XB_TMP"
"$XB_BUILD_DIR/bin/mpicc" "$XB_SOURCE_DIR/tests/hydra/hydra.c" -o hydra ||
    die "mpicc could not build tests/hydra/hydra.c"
# Our library must be what runs (not MPICH's): check the resolved library.
expect_match "links our libmpi" "$XB_BUILD_DIR/lib/libmpi\.so" "$(ldd ./hydra | grep libmpi)"
out=$(timeout 60 "$hydra" -n 3 ./hydra 2>&1) || fail "$hydra -n 3: exit $?"
echo "$out"
expect_match "3 ranks under Hydra" "No Errors" "$out"
finish
