#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The Crossbar authors
#
# cmake/deps.sh [--check] [--all]
#   --check  exit 0 when everything needed to build is present, 1 otherwise
#   (none)   install what is missing (Debian/Ubuntu: apt-get; sudo if not root)
#   --all    also the packages the whole test suite and the benchmarks use
#            (meson, MPICH and Open MPI as comparison and Hydra)
set -eu
build_pkgs="build-essential cmake ninja-build python3 python3-pip pkg-config"
test_pkgs="meson autoconf automake mpich libmpich-dev openmpi-bin libopenmpi-dev slurmctld slurmd slurm-client munge iproute2"

have_build() {
    command -v cc >/dev/null 2>&1 && command -v cmake >/dev/null 2>&1 &&
    command -v python3 >/dev/null 2>&1 &&
    python3 -c 'import pympistandard' >/dev/null 2>&1
}

case "${1:-}" in
    --check) have_build; exit $? ;;
esac

pkgs=$build_pkgs
[ "${1:-}" = "--all" ] && pkgs="$pkgs $test_pkgs"
if [ "$(id -u)" = 0 ]; then sudo=""; else sudo="sudo"; fi
if command -v apt-get >/dev/null 2>&1; then
    echo "crossbar: installing build dependencies: $pkgs"
    export DEBIAN_FRONTEND=noninteractive
    $sudo apt-get update
    # shellcheck disable=SC2086
    $sudo apt-get install -y --no-install-recommends $pkgs
else
    echo "crossbar: no apt-get here; install by hand: a C compiler, cmake, python3," \
         "python3-pip, then 'pip install pympistandard'" >&2
fi
if ! python3 -c 'import pympistandard' >/dev/null 2>&1; then
    echo "crossbar: installing pympistandard (the MPI Forum's API data) with pip"
    python3 -m pip install --user pympistandard 2>/dev/null ||
        python3 -m pip install --user --break-system-packages pympistandard ||
        python3 -m pip install --break-system-packages pympistandard
fi
have_build || { echo "crossbar: dependencies still missing" >&2; exit 1; }
