#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The Crossbar authors
#
# quota.sh - a job inside a cgroup whose CPU quota is one CPU, as a
# container's --cpus=1 makes it: the library must count one CPU
# (runtime/cpus.c), so its 2 ranks are oversubscribed and yield
# (tools/yield with arg "over" asserts progress_oversubscribed is 1).
# Needs a writable cgroup with a CPU controller (root; v1's cpu, or v2 with
# cpu in subtree_control); skips (77) elsewhere. The cgroup is removed
# after the job.
# Environment: MPIEXEC, YIELD (the tools/yield test program).
set -u
d=""
if [ -w /sys/fs/cgroup/cpu ] && [ -f /sys/fs/cgroup/cpu/cpu.cfs_quota_us ]; then
    d=/sys/fs/cgroup/cpu/xb_quota.$$
    mkdir "$d" 2>/dev/null || { echo "SKIP: cannot make a cgroup"; exit 77; }
    if ! { echo 100000 > "$d/cpu.cfs_period_us" && echo 100000 > "$d/cpu.cfs_quota_us"; }; then
        rmdir "$d"; echo "SKIP: cannot set a quota"; exit 77
    fi
elif [ -w /sys/fs/cgroup ] && grep -qw cpu /sys/fs/cgroup/cgroup.subtree_control 2>/dev/null; then
    d=/sys/fs/cgroup/xb_quota.$$
    mkdir "$d" 2>/dev/null || { echo "SKIP: cannot make a cgroup"; exit 77; }
    if ! echo "100000 100000" > "$d/cpu.max"; then
        rmdir "$d"; echo "SKIP: cannot set a quota"; exit 77
    fi
else
    echo "SKIP: no writable cgroup with a CPU controller"
    exit 77
fi
# the job's shell joins the cgroup (refused, as in some delegated trees: skip)
sh -c 'echo $$ 2>/dev/null > "$1/cgroup.procs" || exit 77; exec "$2" -n 2 "$3" over' \
    sh "$d" "$MPIEXEC" "$YIELD"
rc=$?
[ $rc = 77 ] && echo "SKIP: cannot join the cgroup"
rmdir "$d" 2>/dev/null || echo "note: $d not removed"
exit $rc
