#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The Crossbar authors
#
# Crossbar programs under a real one-node Slurm, started by this script:
# munged, slurmctld and slurmd with a private configuration (its own key,
# socket, ports, state and spool directories under a temporary directory),
# then `srun --mpi=pmi2` jobs over the PMI-2 wire (the default under Slurm)
# and over PMI-1 (XB_PMI_WIRE=1), and the daemons stopped again.
#
# Environment: MPITESTS (the build's tests/mpi). Exit 0 pass, 1 fail, 77
# skipped: no Slurm (Debian: slurmctld slurmd slurm-client munge), not root,
# or the daemons do not come up here (the reason is printed).
set -u
: "${MPITESTS:?set MPITESTS}"
for c in munged slurmctld slurmd srun sinfo; do
    command -v "$c" >/dev/null 2>&1 || { echo "SKIP: no $c (install slurmctld slurmd slurm-client munge)"; exit 77; }
done
[ "$(id -u)" = 0 ] || { echo "SKIP: the test's Slurm daemons run as root (uid $(id -u))"; exit 77; }
T=$(mktemp -d "${TMPDIR:-/tmp}/xb-slurm.XXXXXX")
chmod 700 "$T"
mkdir -p "$T/state" "$T/spool"
HOST=$(hostname -s)
PORT=$((20000 + ($$ % 10000) * 2))

PIDS=""
# remember a daemon's pid (its pid file goes away while it shuts down)
note_pid() { i=0; while [ ! -s "$T/$1.pid" ] && [ $i -lt 40 ]; do sleep 0.05; i=$((i + 1)); done
             [ -s "$T/$1.pid" ] && PIDS="$PIDS $(cat "$T/$1.pid")"; }
# slurmstepd of our jobs (found by our SLURM_CONF): they outlive a slurmd
# that is stopped while they clean up
our_stepds() {
    for e in /proc/[0-9]*/environ; do
        grep -qz "^SLURM_CONF=$T/slurm.conf\$" "$e" 2>/dev/null || continue
        p=${e#/proc/}; p=${p%/environ}
        grep -q slurmstepd "/proc/$p/cmdline" 2>/dev/null && echo "$p"
    done
}
stop() {
    i=0                                     # let the last steps finish first
    while [ -n "$(squeue -h 2>/dev/null)" ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
    PIDS="$PIDS $(our_stepds)"
    for p in $PIDS; do kill "$p" 2>/dev/null; done
    i=0
    for p in $PIDS; do
        while kill -0 "$p" 2>/dev/null && [ $i -lt 40 ]; do sleep 0.05; i=$((i + 1)); done
        kill -9 "$p" 2>/dev/null
    done
    for p in $(our_stepds); do kill -9 "$p" 2>/dev/null; done
    rm -rf "$T"
}
trap stop EXIT
trap 'exit 1' INT TERM HUP
skip() { echo "SKIP: $*"; for f in "$T"/*.log; do [ -s "$f" ] && { echo "--- $f"; tail -5 "$f"; }; done; exit 77; }
fail() { echo "FAIL: $*"; for f in "$T"/out "$T"/err; do [ -s "$f" ] && { echo "--- $f"; head -c 3000 "$f"; }; done; exit 1; }

head -c 1024 /dev/urandom >"$T/munge.key"; chmod 400 "$T/munge.key"
munged -f --socket="$T/munge.sock" --key-file="$T/munge.key" --pid-file="$T/munged.pid" \
    --log-file="$T/munged.log" --seed-file="$T/munged.seed" || skip "munged does not start"
note_pid munged
cat >"$T/slurm.conf" <<CONF
ClusterName=xbtest$$
SlurmctldHost=$HOST
SlurmctldPort=$PORT
SlurmdPort=$((PORT + 1))
AuthType=auth/munge
AuthInfo=socket=$T/munge.sock
CredType=cred/munge
SlurmUser=root
SlurmdUser=root
StateSaveLocation=$T/state
SlurmdSpoolDir=$T/spool
SlurmctldPidFile=$T/slurmctld.pid
SlurmdPidFile=$T/slurmd.pid
SlurmctldLogFile=$T/slurmctld.log
SlurmdLogFile=$T/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
MpiDefault=none
ReturnToService=2
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SlurmdParameters=config_overrides
NodeName=$HOST CPUs=8 State=UNKNOWN
PartitionName=xb Nodes=$HOST Default=YES MaxTime=10 State=UP OverSubscribe=YES
CONF
SLURM_CONF="$T/slurm.conf"; export SLURM_CONF
slurmctld -i >"$T/ctld.out" 2>&1 || skip "slurmctld does not start"
note_pid slurmctld
slurmd >"$T/d.out" 2>&1 || skip "slurmd does not start"
note_pid slurmd
i=0
until sinfo -h -o %t 2>/dev/null | grep -q idle; do
    i=$((i + 1)); [ $i -gt 60 ] && skip "the Slurm node did not become idle in 30 s"; sleep 0.5
done

# job NPROCS PROGRAM: srun it; $RC, $T/out, $T/err
job() {
    n=$1; shift
    timeout -k 3 120 srun -t 2 -n "$n" --mpi=pmi2 "$@" >"$T/out" 2>"$T/err" </dev/null
    RC=$?
}
for wire in auto 1; do
    for t in pt2pt/basic coll/barrier coll/bcast coll/reduce_ops; do
        XB_PMI_WIRE=$wire job 4 "$MPITESTS/$t"
        [ "$RC" = 0 ] || fail "$t (XB_PMI_WIRE=$wire): srun exit status $RC"
        grep -q "No Errors" "$T/out" || fail "$t (XB_PMI_WIRE=$wire): no 'No Errors'"
        echo "ok: srun -n 4 --mpi=pmi2 $t (XB_PMI_WIRE=$wire)"
    done
done
# which wire was spoken: PMI-2 commands by default, PMI-1 lines when asked
XB_LOG=pmi:debug job 2 "$MPITESTS/pt2pt/basic"
grep -q "pmi2 send: [0-9]* *cmd=fullinit;" "$T/err" || fail "the default under Slurm is not PMI-2"
grep -q "pmi2 recv: [0-9]* *cmd=kvs-fence-response;rc=0;" "$T/err" || fail "no PMI-2 fence"
XB_PMI_WIRE=1 XB_LOG=pmi:debug job 2 "$MPITESTS/pt2pt/basic"
grep -q "pmi send: cmd=init pmi_version=1" "$T/err" || fail "XB_PMI_WIRE=1 did not speak PMI-1"
echo "PASS: slurm"
