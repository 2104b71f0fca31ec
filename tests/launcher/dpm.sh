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
child_crash)
    # a spawned child exits with status 3: reported, and the job ends with 3
    timeout -k 2 40 "$MPIEXEC" -n 2 "$DPM_JOBS" spawnwait "$T" crash >"$T/s.out" 2>"$T/s.err" </dev/null
    RC=$?
    [ "$RC" = 3 ] || fail "exit status $RC, expected 3"
    grep -Eq "^mpiexec: in a job spawned by MPI_Comm_spawn: rank 1 \(pid [0-9]+\) on .* exited with status 3" "$T/s.err" ||
        fail "no report of the child's death"
    grep -Eq "^mpiexec: the job rank 0 spawned .* ended with status 3; ending the job" "$T/s.err" ||
        fail "the parent mpiexec did not say it ends the job" ;;
sigint)
    # Ctrl-C to the first mpiexec ends the parents and the spawned children
    timeout -k 2 40 "$MPIEXEC" -n 2 "$DPM_JOBS" spawnwait "$T" hang >"$T/s.out" 2>"$T/s.err" </dev/null &
    MP=$!
    i=0; while [ ! -s "$T/child1.pid" ] && [ $i -lt 300 ]; do sleep 0.1; i=$((i+1)); done
    [ -s "$T/child1.pid" ] || fail "the children did not start"
    sleep 0.3
    kill -INT "$MP"; wait "$MP"; RC=$?
    [ "$RC" = 130 ] || fail "exit status $RC, expected 130"
    sleep 0.5
    for f in "$T"/child*.pid; do
        p=$(cat "$f")
        if [ -r "/proc/$p/stat" ] && ! grep -q '^[0-9]* ([^)]*) Z' "/proc/$p/stat"; then
            fail "child pid $p still runs"
        fi
    done ;;
singleton)
    # no launcher: spawn fails cleanly with MPI_ERR_SPAWN
    env -u PMI_FD -u PMI_RANK -u PMI_SIZE timeout -k 2 30 "$DPM_JOBS" singleton "$T" \
        >"$T/s.out" 2>"$T/s.err" </dev/null
    RC=$?
    [ "$RC" = 0 ] || fail "exit status $RC"
    grep -q '^No Errors$' "$T/s.out" || fail "no 'No Errors'" ;;
*)
    echo "usage: dpm.sh two_jobs|child_crash|sigint|singleton"; exit 1 ;;
esac
echo "PASS $1"
