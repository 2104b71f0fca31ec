/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * hwtopo.c - hardware levels from Linux sysfs (see hwtopo.h). The kernel's
 * documentation of these files: Documentation/ABI/stable/sysfs-devices-system-cpu
 * and Documentation/admin-guide/cputopology.rst (ids, *_cpus_list), and
 * sysfs-devices-system-cpu's cache/indexK entries.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "runtime/hwtopo.h"
#include "util/xb_common.h"

#define NL XB_HW_NLEVELS
#define MISSING LONG_MIN

static const struct { const char *name; int level; } names[] = {
    { "mpi_shared_memory", XB_HW_MACHINE }, { "Machine", XB_HW_MACHINE },
    { "Package", XB_HW_PACKAGE }, { "Socket", XB_HW_PACKAGE },
    { "Die", XB_HW_DIE }, { "NUMANode", XB_HW_NUMA },
    { "L3Cache", XB_HW_L3 }, { "Cluster", XB_HW_CLUSTER },
    { "L2Cache", XB_HW_L2 }, { "L1Cache", XB_HW_L1 }, { "L1dCache", XB_HW_L1 },
    { "Core", XB_HW_CORE }, { "HWThread", XB_HW_PU }, { "PU", XB_HW_PU },
};

static const char *const canonical[NL] = {
    [XB_HW_MACHINE] = "mpi_shared_memory", [XB_HW_PACKAGE] = "Package",
    [XB_HW_DIE] = "Die", [XB_HW_NUMA] = "NUMANode", [XB_HW_L3] = "L3Cache",
    [XB_HW_CLUSTER] = "Cluster", [XB_HW_L2] = "L2Cache", [XB_HW_L1] = "L1Cache",
    [XB_HW_CORE] = "Core", [XB_HW_PU] = "HWThread",
};

const char *xb_hwtopo_level_name(int level)
{
    return level >= 0 && level < NL ? canonical[level] : "unknown";
}

int xb_hwtopo_level_from_name(const char *name)
{
    if (name == NULL)
        return -1;
    if (strncasecmp(name, "hwloc://", 8) == 0)
        name += 8;
    for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
        if (strcasecmp(name, names[i].name) == 0)
            return names[i].level;
    return -1;
}

int xb_hwtopo_parse_list(const char *s, int *cpus, int max)
{
    int n = 0;
    while (*s != '\0' && *s != '\n') {
        char *end;
        long a = strtol(s, &end, 10), b = a;
        if (end == s || a < 0 || a > INT_MAX)
            return -1;
        s = end;
        if (*s == '-') {
            b = strtol(s + 1, &end, 10);
            if (end == s + 1 || b < a || b > INT_MAX)
                return -1;
            s = end;
        }
        for (long c = a; c <= b; c++) {
            if (n == max)
                return -1;
            cpus[n++] = (int)c;
        }
        if (*s == ',')
            s++;
        else if (*s != '\0' && *s != '\n')
            return -1;
    }
    return n;
}

/* ---- reading files ------------------------------------------------------- */
static bool read_text(const char *path, char *buf, size_t size)
{
    FILE *f = fopen(path, "r");
    if (f == NULL)
        return false;
    size_t n = fread(buf, 1, size - 1, f);
    fclose(f);
    buf[n] = '\0';
    return n > 0;
}

static long read_long(const char *path)
{
    char buf[64], *end;
    if (!read_text(path, buf, sizeof(buf)))
        return MISSING;
    long v = strtol(buf, &end, 10);
    return end == buf ? MISSING : v;
}

/* Numbers N of the entries "<prefix>N" of dir, ascending; -1 when dir
 * cannot be opened. *out is malloc'ed. */
static int list_numbered(const char *dir, const char *prefix, int **out)
{
    DIR *d = opendir(dir);
    if (d == NULL)
        return -1;
    size_t pl = strlen(prefix);
    int n = 0, cap = 0, *v = NULL;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        const char *p = e->d_name;
        if (strncmp(p, prefix, pl) != 0 || !isdigit((unsigned char)p[pl]))
            continue;
        char *end;
        long x = strtol(p + pl, &end, 10);
        if (*end != '\0' || x > INT_MAX / NL - 1)
            continue;
        if (n == cap) {
            cap = cap ? 2 * cap : 64;
            int *nv = realloc(v, (size_t)cap * sizeof(int));
            if (nv == NULL) {
                free(v);
                closedir(d);
                return -1;
            }
            v = nv;
        }
        v[n++] = (int)x;
    }
    closedir(d);
    for (int i = 1; i < n; i++)          /* insertion sort: small lists */
        for (int j = i; j > 0 && v[j - 1] > v[j]; j--) {
            int t = v[j];
            v[j] = v[j - 1];
            v[j - 1] = t;
        }
    *out = v;
    return n;
}

/* ---- building the table ----------------------------------------------------- */
typedef struct keys {
    long pkg, die, cluster, core, numa;
    long cache[4];                    /* [1..3]: lowest CPU sharing it */
    bool online;
} keys_t;

#define ID(t, c, l) ((t)->id[(size_t)(c) * NL + (l)])

/* Instances of `level` by equal keys (get() == MISSING on any online CPU:
 * the level is absent). The id is the lowest CPU with the same keys. */
static void group(xb_hwtopo_t *t, const keys_t *k, int level,
                  void (*get)(const keys_t *, long out[3]))
{
    for (int c = 0; c < t->ncpus; c++) {
        long kc[3];
        get(&k[c], kc);
        if (k[c].online && (kc[0] == MISSING || kc[1] == MISSING || kc[2] == MISSING))
            return;
    }
    t->present[level] = true;
    for (int c = 0; c < t->ncpus; c++) {
        if (!k[c].online)
            continue;
        long kc[3];
        get(&k[c], kc);
        for (int o = 0; o <= c; o++) {
            long ko[3];
            get(&k[o], ko);
            if (k[o].online && memcmp(kc, ko, sizeof(kc)) == 0) {
                ID(t, c, level) = o;
                break;
            }
        }
    }
}

static void k_machine(const keys_t *k, long o[3]) { (void)k; o[0] = o[1] = o[2] = 0; }
static void k_pkg(const keys_t *k, long o[3]) { o[0] = k->pkg; o[1] = o[2] = 0; }
static void k_die(const keys_t *k, long o[3]) { o[0] = k->pkg; o[1] = k->die; o[2] = 0; }
static void k_numa(const keys_t *k, long o[3]) { o[0] = k->numa; o[1] = o[2] = 0; }
static void k_l3(const keys_t *k, long o[3]) { o[0] = k->cache[3]; o[1] = o[2] = 0; }
static void k_l2(const keys_t *k, long o[3]) { o[0] = k->cache[2]; o[1] = o[2] = 0; }
static void k_l1(const keys_t *k, long o[3]) { o[0] = k->cache[1]; o[1] = o[2] = 0; }
static void k_cluster(const keys_t *k, long o[3])
{
    o[0] = k->pkg;
    o[1] = k->cluster;
    o[2] = 0;
}
static void k_core(const keys_t *k, long o[3])
{
    o[0] = k->pkg;
    o[1] = k->die == MISSING ? 0 : k->die;
    o[2] = k->core;
}

/* Caches of cpu c: the lowest CPU sharing its L1 (data or unified), L2, L3. */
static void read_caches(const char *root, int c, keys_t *k)
{
    char path[PATH_MAX], buf[4096];
    for (int i = 0; i < 32; i++) {
        snprintf(path, sizeof(path), "%s/cpu/cpu%d/cache/index%d/level", root, c, i);
        long level = read_long(path);
        if (level == MISSING)
            break;
        snprintf(path, sizeof(path), "%s/cpu/cpu%d/cache/index%d/type", root, c, i);
        if (level < 1 || level > 3 || !read_text(path, buf, sizeof(buf)) ||
            strncmp(buf, "Instruction", 11) == 0)
            continue;
        snprintf(path, sizeof(path), "%s/cpu/cpu%d/cache/index%d/shared_cpu_list",
                 root, c, i);
        /* the lists are ascending: the first number is the lowest CPU */
        if (read_text(path, buf, sizeof(buf)) && isdigit((unsigned char)buf[0]))
            k->cache[level] = strtol(buf, NULL, 10);
    }
}

static void read_cpu(const char *root, int c, keys_t *k)
{
    char path[PATH_MAX];
    snprintf(path, sizeof(path), "%s/cpu/cpu%d/topology/core_id", root, c);
    k->core = read_long(path);
    k->online = k->core != MISSING;
    if (!k->online)
        return;
    snprintf(path, sizeof(path), "%s/cpu/cpu%d/topology/physical_package_id", root, c);
    k->pkg = read_long(path);
    snprintf(path, sizeof(path), "%s/cpu/cpu%d/topology/die_id", root, c);
    k->die = read_long(path);
    snprintf(path, sizeof(path), "%s/cpu/cpu%d/topology/cluster_id", root, c);
    k->cluster = read_long(path);
    if (k->pkg < 0)
        k->pkg = MISSING;
    if (k->die < 0)
        k->die = MISSING;
    if (k->cluster < 0 || k->cluster == 65535)      /* "no cluster" on x86 */
        k->cluster = MISSING;
    read_caches(root, c, k);
}

/* NUMA node of each CPU; no node/ directory: one node (0) for all. */
static int read_numa(const char *root, keys_t *k, int ncpus)
{
    char path[PATH_MAX], buf[8192];
    snprintf(path, sizeof(path), "%s/node", root);
    int *nodes = NULL, nn = list_numbered(path, "node", &nodes);
    if (nn < 0) {
        for (int c = 0; c < ncpus; c++)
            k[c].numa = 0;
        return XB_OK;
    }
    int *cpus = malloc((size_t)ncpus * sizeof(int));
    if (cpus == NULL) {
        free(nodes);
        return XB_ERR_NO_MEM;
    }
    for (int i = 0; i < nn; i++) {
        snprintf(path, sizeof(path), "%s/node/node%d/cpulist", root, nodes[i]);
        int n = read_text(path, buf, sizeof(buf)) ?
                xb_hwtopo_parse_list(buf, cpus, ncpus) : 0;
        for (int j = 0; j < n; j++)
            if (cpus[j] < ncpus)
                k[cpus[j]].numa = nodes[i];
    }
    free(cpus);
    free(nodes);
    return XB_OK;
}

int xb_hwtopo_load(const char *root, xb_hwtopo_t *t)
{
    memset(t, 0, sizeof(*t));
    char path[PATH_MAX];
    snprintf(path, sizeof(path), "%s/cpu", root);
    int *nums = NULL, n = list_numbered(path, "cpu", &nums);
    if (n <= 0) {
        free(nums);
        return xb_err_set(XB_ERR_OTHER, "no CPU listed under %s", path);
    }
    int ncpus = nums[n - 1] + 1;
    keys_t *k = malloc((size_t)ncpus * sizeof(*k));
    t->id = malloc((size_t)ncpus * NL * sizeof(int32_t));
    int rc = k != NULL && t->id != NULL ? XB_OK : XB_ERR_NO_MEM;
    for (int c = 0; c < ncpus && rc == XB_OK; c++)
        k[c] = (keys_t){ MISSING, MISSING, MISSING, MISSING, MISSING,
                         { MISSING, MISSING, MISSING, MISSING }, false };
    for (int i = 0; i < n && rc == XB_OK; i++)
        read_cpu(root, nums[i], &k[nums[i]]);
    if (rc == XB_OK)
        rc = read_numa(root, k, ncpus);
    free(nums);
    bool any = false;
    for (int c = 0; c < ncpus && rc == XB_OK; c++)
        any |= k[c].online;
    if (rc == XB_OK && !any)
        rc = xb_err_set(XB_ERR_OTHER, "no CPU under %s has a topology directory", path);
    if (rc != XB_OK) {
        free(k);
        xb_hwtopo_free(t);
        return rc == XB_ERR_NO_MEM ? xb_err_set(rc, "out of memory reading %s", path) : rc;
    }
    t->ncpus = ncpus;
    for (size_t i = 0; i < (size_t)ncpus * NL; i++)
        t->id[i] = -1;
    group(t, k, XB_HW_MACHINE, k_machine);
    group(t, k, XB_HW_PACKAGE, k_pkg);
    group(t, k, XB_HW_DIE, k_die);
    group(t, k, XB_HW_NUMA, k_numa);
    group(t, k, XB_HW_L3, k_l3);
    group(t, k, XB_HW_CLUSTER, k_cluster);
    group(t, k, XB_HW_L2, k_l2);
    group(t, k, XB_HW_L1, k_l1);
    group(t, k, XB_HW_CORE, k_core);
    t->present[XB_HW_PU] = true;
    for (int c = 0; c < ncpus; c++)
        if (k[c].online)
            ID(t, c, XB_HW_PU) = c;
    free(k);
    return XB_OK;
}

void xb_hwtopo_free(xb_hwtopo_t *t)
{
    free(t->id);
    memset(t, 0, sizeof(*t));
}

int xb_hwtopo_instance(const xb_hwtopo_t *t, int level, const int *cpus, int n)
{
    if (t == NULL || level < 0 || level >= NL || !t->present[level] || n < 1)
        return -1;
    int id = -1;
    for (int i = 0; i < n; i++) {
        if (cpus[i] < 0 || cpus[i] >= t->ncpus)
            return -1;
        int x = ID(t, cpus[i], level);
        if (x < 0 || (i > 0 && x != id))
            return -1;
        id = x;
    }
    return id;
}

/* ---- this process ----------------------------------------------------------- */
static xb_hwtopo_t mine;
static int loaded;                /* 0 not tried, 1 loaded, -1 failed */

const xb_hwtopo_t *xb_hwtopo(void)
{
    if (loaded == 0) {
        loaded = xb_hwtopo_load("/sys/devices/system", &mine) == XB_OK ? 1 : -1;
        xb_err_clear();
    }
    return loaded == 1 ? &mine : NULL;
}

int xb_hwtopo_my_cpus(int **cpus_p, int *n_p)
{
    for (int size = 1024; size <= (1 << 20); size *= 2) {
        cpu_set_t *set = CPU_ALLOC((size_t)size);
        if (set == NULL)
            break;
        size_t bytes = CPU_ALLOC_SIZE((size_t)size);
        CPU_ZERO_S(bytes, set);
        if (sched_getaffinity(0, bytes, set) != 0) {
            int e = errno;
            CPU_FREE(set);
            if (e == EINVAL)
                continue;                 /* the kernel's mask is larger */
            return xb_err_sys(XB_ERR_OTHER, e, "sched_getaffinity");
        }
        int n = CPU_COUNT_S(bytes, set), k = 0;
        int *cpus = malloc((size_t)(n > 0 ? n : 1) * sizeof(int));
        if (cpus == NULL) {
            CPU_FREE(set);
            break;
        }
        for (int c = 0; c < size && k < n; c++)
            if (CPU_ISSET_S((size_t)c, bytes, set))
                cpus[k++] = c;
        CPU_FREE(set);
        *cpus_p = cpus;
        *n_p = k;
        return XB_OK;
    }
    return xb_err_set(XB_ERR_NO_MEM, "out of memory reading the CPU affinity");
}

void xb_hwtopo_fini(void)
{
    if (loaded == 1)
        xb_hwtopo_free(&mine);
    loaded = 0;
}
