#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The Crossbar authors
#
# tools/deb_orig.sh PACKAGE: the upstream source tarball of a Debian source
# package (PACKAGE_*.orig.tar.*) in the current folder, fetched with
# apt-get unless one is there. Adds the deb-src lines of the system's own
# Debian sources first when there are none (needs root then). Used by
# bench/run_hpcc.sh (HPCC) and, through tools/outside.sh, by the checks
# with other programs' own tests (tools/*_check.sh, tools/mpich_suite.sh).
set -eu
pkg=$1
ls "${pkg}"_*.orig.tar.* >/dev/null 2>&1 && exit 0
src=/etc/apt/sources.list.d/xb-deb-src.sources
if [ ! -f "$src" ]; then
    sed -n 's/^Types: deb$/Types: deb-src/p; /^Types:/!p' \
        /etc/apt/sources.list.d/debian.sources > "$src"
    apt-get update -qq
fi
# The orig tarball is what we need; a missing Debian part is not an error.
apt-get source --download-only "$pkg" >/dev/null 2>&1 || true
ls "${pkg}"_*.orig.tar.* >/dev/null 2>&1 || { echo "deb_orig: no source of $pkg" >&2; exit 1; }
