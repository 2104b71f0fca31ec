/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * test_cpus.c - the cgroup CPU quota reader of runtime/cpus.c against fake
 * trees made here (in a temporary directory), whatever machine runs it:
 * cgroup v2 with a limit deep in the path and a smaller one above it,
 * "max" (no limit), a quota that rounds up, v2 mounted in unified/ beside
 * v1 (a hybrid host), v1's cpu controller (cpu,cpuacct too), a container
 * whose cgroup path is not under its mount (only the root's limit counts),
 * the smaller of v1 and v2, and no cgroup file at all. Then this process's
 * numbers: at least 1, and the usable CPUs never above the node's.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "runtime/cpus.h"
#include "unit_check.h"
#include "unit_tree.h"

/* A fresh tree named `name`; the quota read from it. */
static int quota(const char *name)
{
    char cg[512], fs[512];
    snprintf(cg, sizeof cg, "%s/%s/cgroup", tree_base, name);
    snprintf(fs, sizeof fs, "%s/%s/fs", tree_base, name);
    return xb_cpus_quota_at(cg, fs);
}

int main(void)
{
    if (!tree_begin("cpus"))
        return 1;

    /* v2: 2.5 CPUs at the leaf, 2 CPUs two levels up, none at the root */
    put("0::/a/b/c\n", "v2/cgroup");
    put("cpu cpuset\n", "v2/fs/cgroup.controllers");
    put("max 100000\n", "v2/fs/cpu.max");
    put("250000 100000\n", "v2/fs/a/b/c/cpu.max");
    put("max 100000\n", "v2/fs/a/b/cpu.max");
    put("200000 100000\n", "v2/fs/a/cpu.max");
    CHECK(quota("v2") == 2, "v2 nested: %d, want 2", quota("v2"));

    put("0::/a/b/c\n", "v2leaf/cgroup");
    put("cpu\n", "v2leaf/fs/cgroup.controllers");
    put("250000 100000\n", "v2leaf/fs/a/b/c/cpu.max");
    CHECK(quota("v2leaf") == 3, "2.5 CPUs round up: %d, want 3", quota("v2leaf"));

    put("0::/\n", "v2max/cgroup");
    put("cpu\n", "v2max/fs/cgroup.controllers");
    put("max 100000\n", "v2max/fs/cpu.max");
    CHECK(quota("v2max") == 0, "max: %d, want 0", quota("v2max"));

    /* a container without a cgroup namespace: its path is the host's, the
     * mount shows its own cgroup at the root */
    put("0::/docker/0123abcd\n", "ctr/cgroup");
    put("cpu\n", "ctr/fs/cgroup.controllers");
    put("400000 100000\n", "ctr/fs/cpu.max");
    CHECK(quota("ctr") == 4, "container root: %d, want 4", quota("ctr"));

    /* hybrid: v2 in unified/ (no limit), v1's cpu,cpuacct with 1.5 CPUs */
    put("12:cpu,cpuacct:/job\n3:memory:/job\n0::/job\n", "v1/cgroup");
    put("\n", "v1/fs/unified/cgroup.controllers");
    put("-1\n", "v1/fs/cpu,cpuacct/cpu.cfs_quota_us");
    put("100000\n", "v1/fs/cpu,cpuacct/cpu.cfs_period_us");
    put("150000\n", "v1/fs/cpu,cpuacct/job/cpu.cfs_quota_us");
    put("100000\n", "v1/fs/cpu,cpuacct/job/cpu.cfs_period_us");
    CHECK(quota("v1") == 2, "v1: %d, want 2", quota("v1"));

    /* v1 "cpu" alone, and a v2 limit that is smaller: the smaller wins */
    put("4:cpuacct:/\n5:cpu:/\n0::/\n", "both/cgroup");
    put("-1\n", "both/fs/cpu/cpu.cfs_quota_us");
    put("100000\n", "both/fs/cpu/cpu.cfs_period_us");
    put("cpu\n", "both/fs/unified/cgroup.controllers");
    put("300000 100000\n", "both/fs/unified/cpu.max");
    CHECK(quota("both") == 3, "v2 beside an unlimited v1: %d, want 3", quota("both"));
    put("700000 100000\n", "both/fs/cpu/cpu.cfs_quota_us");
    CHECK(quota("both") == 3, "v1 7 and v2 3: %d, want 3", quota("both"));
    put("100000\n", "both/fs/cpu/cpu.cfs_quota_us");
    CHECK(quota("both") == 1, "v1 1 and v2 3: %d, want 1", quota("both"));

    /* "cpuacct" alone is not the cpu controller; a missing file: no limit */
    put("4:cpuacct:/\n", "acct/cgroup");
    put("100000\n", "acct/fs/cpu/cpu.cfs_quota_us");
    put("100000\n", "acct/fs/cpu/cpu.cfs_period_us");
    CHECK(quota("acct") == 0, "cpuacct only: %d, want 0", quota("acct"));
    CHECK(quota("none") == 0, "no cgroup file: %d, want 0", quota("none"));

    int node = xb_cpus_node(), usable = xb_cpus_usable();
    long online = sysconf(_SC_NPROCESSORS_ONLN);
    CHECK(node >= 1 && node <= online, "node CPUs %d (online %ld)", node, online);
    CHECK(usable >= 1 && usable <= node, "usable CPUs %d, node %d", usable, node);

    tree_end();
    if (failures == 0)
        printf("No Errors\n");
    return failures != 0;
}
