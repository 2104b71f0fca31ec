# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The Crossbar authors
#
# tools/outside.sh - what the checks with other programs' own tests share
# (mpich_suite.sh, fftw_check.sh, hdf5_check.sh, hypre_check.sh; sourced,
# with $here set to the repository):
#
#   outside_setup PACKAGE WORKDIR   sets $build (XB_BUILD_DIR, default
#                                   build), unsets XB_BUILD_DIR (Crossbar
#                                   warns of XB_ variables it does not
#                                   know), makes WORKDIR the current folder
#                                   and fetches PACKAGE's Debian source
#                                   tarball there (tools/deb_orig.sh)
outside_setup() {
    build=$(cd "$here/${XB_BUILD_DIR:-build}" && pwd)
    unset XB_BUILD_DIR
    mkdir -p "$2"
    cd "$2"
    "$here/tools/deb_orig.sh" "$1"
}
