#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The Crossbar authors
#
# Dynamic processes across separate mpiexec jobs. Usage: dpm.sh CASE
# Environment: MPIEXEC (our mpiexec), DPM_JOBS (tests/mpi/dpm/jobs.c).
# Exit 0 pass, 1 fail (with the reason).
set -u
: "${MPIEXEC:?set MPIEXEC}" "${DPM_JOBS:?set DPM_JOBS}"
T=$(mktemp -d "${TMPDIR:-/tmp}/xb-dpm.XXXXXX")
trap 'rm -rf "$T"' EXIT

fail() { echo "FAIL: $*"; for f in "$T"/*.out "$T"/*.err; do [ -s "$f" ] && { echo "--- $f"; head -c 3000 "$f"; }; done; exit 1; }

case "${1:-}" in
two_jobs)
    # a server job of 2 ranks accepts, a client job of 3 ranks connects
    timeout -k 2 60 "$MPIEXEC" -n 2 "$DPM_JOBS" server "$T" >"$T/s.out" 2>"$T/s.err" </dev/null &
    S=$!
    timeout -k 2 60 "$MPIEXEC" -n 3 "$DPM_JOBS" client "$T" >"$T/c.out" 2>"$T/c.err" </dev/null
    C=$?
    wait "$S"; SR=$?
    [ "$SR" = 0 ] || fail "server job exit status $SR"
    [ "$C" = 0 ] || fail "client job exit status $C"
    grep -q '^No Errors$' "$T/s.out" || fail "server job: no 'No Errors'"
    grep -q '^No Errors$' "$T/c.out" || fail "client job: no 'No Errors'" ;;
*)
    echo "usage: dpm.sh two_jobs"; exit 1 ;;
esac
echo "PASS $1"
