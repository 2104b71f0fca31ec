/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * cpus.h - how many CPUs the ranks of this node can use: the online CPUs,
 * this process's affinity, and the CPU time its cgroup may take (a
 * container's `--cpus`, a Kubernetes CPU limit, a systemd CPUQuota), which
 * neither sysconf nor sched_getaffinity shows. A job of 8 ranks in a
 * 4-CPU quota on a 64-CPU host is oversubscribed: its waiting ranks must
 * yield and sleep, and the collectives choose as on a crowded node.
 *
 * The quota is the smallest limit on the path from this process's cgroup
 * up to the root of the hierarchy: cgroup v2 `cpu.max` ("max PERIOD" or
 * "QUOTA PERIOD") and cgroup v1 `cpu.cfs_quota_us` / `cpu.cfs_period_us`
 * (quota -1: none), in whole CPUs rounded up. A level whose directory is
 * not there (a container that sees its own cgroup as the root) is
 * skipped; the root of the mount is read too.
 *
 * Threading: none needed (reads files; MPI_Init calls these).
 */
#ifndef XB_CPUS_H
#define XB_CPUS_H

/* The quota from the cgroup list `cgroup_file` (normally /proc/self/cgroup)
 * and the cgroup file systems under `fs` (normally /sys/fs/cgroup: v2
 * there or in unified/, v1's cpu controller in cpu/ or cpu,cpuacct/);
 * parameters, so tests can give fake trees. 0: no limit found. */
int xb_cpus_quota_at(const char *cgroup_file, const char *fs);

/* The node's CPUs: online CPUs, capped by this process's quota. The same
 * number for every process of a node in one cgroup, whatever its
 * binding, so processes that must choose alike (the collectives' table)
 * can use it. At least 1. */
int xb_cpus_node(void);

/* The CPUs this process may run on: its affinity (bound to a single CPU:
 * the node's, since binding says where a rank runs, not how many CPUs the
 * ranks share), capped by the quota. At least 1. */
int xb_cpus_usable(void);

#endif
