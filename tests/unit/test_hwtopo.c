/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * test_hwtopo.c - the sysfs reader of runtime/hwtopo.c against fake trees
 * made here (in a temporary directory), so it is tested whatever machine
 * runs it:
 *   tree A: 2 packages x 2 cores x 2 hardware threads (CPUs 0-7), one L3
 *           per package, L2 and L1d per core (L1i per thread: ignored), 4
 *           NUMA nodes of 2 CPUs (finer than the L3), cluster_id 65535
 *           (absent), an offline CPU 8 (no topology directory);
 *   tree B: 2 CPUs, no node/ directory (one NUMA node), no die_id, no
 *           caches;
 *   a root without CPUs.
 * Also the CPU-list parser and the level names.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "runtime/hwtopo.h"
#include "util/xb_common.h"
#include "unit_check.h"
#include "unit_tree.h"

static void put_cache(int cpu, int idx, int level, const char *type, const char *shared)
{
    char l[8];
    snprintf(l, sizeof(l), "%d\n", level);
    put(l, "A/cpu/cpu%d/cache/index%d/level", cpu, idx);
    put(type, "A/cpu/cpu%d/cache/index%d/type", cpu, idx);
    put(shared, "A/cpu/cpu%d/cache/index%d/shared_cpu_list", cpu, idx);
}

static void make_tree_a(void)
{
    char v[64], core[16], pkg[16];
    for (int c = 0; c < 8; c++) {
        snprintf(pkg, sizeof(pkg), "%d\n", c / 4);
        snprintf(core, sizeof(core), "%d\n", (c / 2) % 2);
        put(pkg, "A/cpu/cpu%d/topology/physical_package_id", c);
        put("0\n", "A/cpu/cpu%d/topology/die_id", c);
        put("65535\n", "A/cpu/cpu%d/topology/cluster_id", c);
        put(core, "A/cpu/cpu%d/topology/core_id", c);
        snprintf(v, sizeof(v), "%d-%d\n", c / 2 * 2, c / 2 * 2 + 1);
        put_cache(c, 0, 1, "Data\n", v);
        snprintf(core, sizeof(core), "%d\n", c);
        put_cache(c, 1, 1, "Instruction\n", core);
        put_cache(c, 2, 2, "Unified\n", v);
        snprintf(v, sizeof(v), "%d-%d\n", c / 4 * 4, c / 4 * 4 + 3);
        put_cache(c, 3, 3, "Unified\n", v);
    }
    put("0\n", "A/cpu/cpu8/online");             /* offline: no topology */
    put("0-8\n", "A/cpu/possible");
    for (int n = 0; n < 4; n++) {
        snprintf(v, sizeof(v), "%d-%d\n", 2 * n, 2 * n + 1);
        put(v, "A/node/node%d/cpulist", n);
    }
    put("0-3\n", "A/node/online");
}

static void make_tree_b(void)
{
    for (int c = 0; c < 2; c++) {
        char s[16];
        snprintf(s, sizeof(s), "%d\n", c);
        put("0\n", "B/cpu/cpu%d/topology/physical_package_id", c);
        put(s, "B/cpu/cpu%d/topology/core_id", c);
    }
}

static int inst(const xb_hwtopo_t *t, int level, int n, ...)
{
    int cpus[16];
    va_list ap;
    va_start(ap, n);
    for (int i = 0; i < n; i++)
        cpus[i] = va_arg(ap, int);
    va_end(ap);
    return xb_hwtopo_instance(t, level, cpus, n);
}

static void check_tree_a(void)
{
    char root[300];
    snprintf(root, sizeof(root), "%s/A", tree_base);
    xb_hwtopo_t t;
    int rc = xb_hwtopo_load(root, &t);
    CHECK(rc == XB_OK, "load A: %d", rc);
    if (rc != XB_OK)
        return;
    CHECK(t.ncpus == 9, "ncpus %d", t.ncpus);
    for (int l = 0; l < XB_HW_NLEVELS; l++)
        CHECK(t.present[l] == (l != XB_HW_CLUSTER), "level %s present %d",
              xb_hwtopo_level_name(l), t.present[l]);
    CHECK(inst(&t, XB_HW_MACHINE, 2, 0, 7) == 0, "machine");
    CHECK(inst(&t, XB_HW_PACKAGE, 1, 5) == 4, "package of 5: %d", inst(&t, XB_HW_PACKAGE, 1, 5));
    CHECK(inst(&t, XB_HW_PACKAGE, 2, 0, 3) == 0, "package of 0,3");
    CHECK(inst(&t, XB_HW_PACKAGE, 2, 3, 4) == -1, "package of 3,4");
    CHECK(inst(&t, XB_HW_DIE, 1, 6) == 4, "die of 6: %d", inst(&t, XB_HW_DIE, 1, 6));
    CHECK(inst(&t, XB_HW_NUMA, 2, 2, 3) == 2, "numa of 2,3: %d", inst(&t, XB_HW_NUMA, 2, 2, 3));
    CHECK(inst(&t, XB_HW_NUMA, 2, 1, 2) == -1, "numa of 1,2");
    CHECK(inst(&t, XB_HW_L3, 4, 4, 5, 6, 7) == 4, "L3 of 4-7");
    CHECK(inst(&t, XB_HW_L2, 1, 7) == 6, "L2 of 7: %d", inst(&t, XB_HW_L2, 1, 7));
    CHECK(inst(&t, XB_HW_L1, 2, 0, 1) == 0, "L1 of 0,1 (L1i ignored): %d",
          inst(&t, XB_HW_L1, 2, 0, 1));
    CHECK(inst(&t, XB_HW_CORE, 1, 3) == 2, "core of 3: %d", inst(&t, XB_HW_CORE, 1, 3));
    CHECK(inst(&t, XB_HW_CORE, 1, 7) == 6, "core of 7 (core_id 1 in package 1): %d",
          inst(&t, XB_HW_CORE, 1, 7));
    CHECK(inst(&t, XB_HW_CORE, 2, 1, 2) == -1, "core of 1,2");
    CHECK(inst(&t, XB_HW_PU, 1, 5) == 5, "PU of 5");
    CHECK(inst(&t, XB_HW_PU, 2, 4, 5) == -1, "PU of 4,5");
    CHECK(inst(&t, XB_HW_CLUSTER, 1, 0) == -1, "cluster is absent");
    CHECK(inst(&t, XB_HW_CORE, 1, 8) == -1, "offline CPU 8");
    CHECK(inst(&t, XB_HW_CORE, 1, 9) == -1, "CPU 9 does not exist");
    xb_hwtopo_free(&t);
}

static void check_tree_b(void)
{
    char root[300];
    snprintf(root, sizeof(root), "%s/B", tree_base);
    xb_hwtopo_t t;
    int rc = xb_hwtopo_load(root, &t);
    CHECK(rc == XB_OK, "load B: %d", rc);
    if (rc != XB_OK)
        return;
    CHECK(t.present[XB_HW_NUMA] && inst(&t, XB_HW_NUMA, 2, 0, 1) == 0,
          "no node/: one NUMA node");
    CHECK(!t.present[XB_HW_DIE] && !t.present[XB_HW_L3] && !t.present[XB_HW_L1],
          "no die_id, no caches: absent levels");
    CHECK(inst(&t, XB_HW_CORE, 1, 1) == 1 && inst(&t, XB_HW_PACKAGE, 2, 0, 1) == 0,
          "core and package of tree B");
    xb_hwtopo_free(&t);
    snprintf(root, sizeof(root), "%s/nothing-here", tree_base);
    CHECK(xb_hwtopo_load(root, &t) != XB_OK, "a root without CPUs loads");
    xb_err_clear();
}

static void check_parse_and_names(void)
{
    int v[16];
    int n = xb_hwtopo_parse_list("0-3,8,10-11\n", v, 16);
    int want[] = { 0, 1, 2, 3, 8, 10, 11 };
    CHECK(n == 7 && memcmp(v, want, sizeof(want)) == 0, "list parsed to %d entries", n);
    CHECK(xb_hwtopo_parse_list("5", v, 16) == 1 && v[0] == 5, "single CPU");
    CHECK(xb_hwtopo_parse_list("", v, 16) == 0, "empty list");
    CHECK(xb_hwtopo_parse_list("3-1", v, 16) == -1, "reversed range");
    CHECK(xb_hwtopo_parse_list("a", v, 16) == -1, "not a number");
    CHECK(xb_hwtopo_parse_list("0-20", v, 16) == -1, "more than max");
    CHECK(xb_hwtopo_level_from_name("L3Cache") == XB_HW_L3, "L3Cache");
    CHECK(xb_hwtopo_level_from_name("hwloc://numanode") == XB_HW_NUMA, "hwloc://numanode");
    CHECK(xb_hwtopo_level_from_name("mpi_shared_memory") == XB_HW_MACHINE, "shared");
    CHECK(xb_hwtopo_level_from_name("HWThread") == XB_HW_PU, "HWThread");
    CHECK(xb_hwtopo_level_from_name("bogus") == -1, "bogus");
    CHECK(xb_hwtopo_level_from_name(NULL) == -1, "NULL");
    for (int l = 0; l < XB_HW_NLEVELS; l++)
        CHECK(xb_hwtopo_level_from_name(xb_hwtopo_level_name(l)) == l,
              "canonical name of level %d round trip", l);
}

int main(void)
{
    if (!tree_begin("hwtopo"))
        return 1;
    make_tree_a();
    make_tree_b();
    check_tree_a();
    check_tree_b();
    check_parse_and_names();
    tree_end();
    if (failures == 0)
        printf("unit.hwtopo: all checks passed\n");
    return failures != 0;
}
