/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * split_type_hw.c - MPI_COMM_TYPE_HW_GUIDED and MPI_COMM_TYPE_HW_UNGUIDED
 * against an expectation computed here, independently and plainly, from
 * Linux sysfs and sched_getaffinity, so the test holds whatever the
 * machine's topology and the ranks' binding are.
 *
 * For every level, each rank names the instance holding each of its CPUs
 * by a string read from sysfs (a cache by its shared_cpu_list text, a core
 * by "package/die/core_id", a NUMA node by the nodeM directory listing
 * it...); the rank lies in one instance when all its CPUs give the same
 * string. The node is the MPI_COMM_TYPE_SHARED communicator's first world
 * rank. Expected:
 *   HW_GUIDED, level L: the ranks with my (node, string) at L, in world
 *     order; MPI_COMM_NULL when I am in no single instance.
 *   HW_UNGUIDED: the first level, coarse to fine (Machine, Package, Die,
 *     NUMANode, L3Cache, Cluster, L2Cache, L1Cache, Core, HWThread), where
 *     some rank has a string and no string is shared by the whole
 *     communicator; my group at that level and the info key
 *     mpi_hw_resource_type = its name; applied again to the result until
 *     MPI_COMM_NULL.
 *   An unknown name, a missing key and MPI_INFO_NULL: MPI_COMM_NULL.
 * Bindings: as launched (mpiexec's default, or MPIEXEC_BIND from the
 * testlist), then set by the ranks themselves on the CPUs the job was
 * given (pairs of ranks per CPU; rank 0 on all of them), then restored.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <sched.h>
#include <dirent.h>
#include "ctest.h"
#include "ct_cpulist.h"

enum { NLEV = 10, KEYLEN = 200 };
static const char *const lev_name[NLEV] = {
    "mpi_shared_memory", "Package", "Die", "NUMANode", "L3Cache",
    "Cluster", "L2Cache", "L1Cache", "Core", "HWThread",
};

typedef char key_t_[NLEV][KEYLEN];

static int read_str(const char *path, char *buf, size_t n)
{
    FILE *f = fopen(path, "r");
    if (f == NULL)
        return 0;
    size_t k = fread(buf, 1, n - 1, f);
    fclose(f);
    buf[k] = '\0';
    while (k > 0 && (buf[k - 1] == '\n' || buf[k - 1] == ' '))
        buf[--k] = '\0';
    return k > 0;
}

static long read_num(int cpu, const char *file)
{
    char path[256], buf[64];
    snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/topology/%s", cpu, file);
    return read_str(path, buf, sizeof(buf)) ? strtol(buf, NULL, 10) : -1;
}

/* The instance string of one CPU at level l ("" when unknown). */
static void cpu_key(int cpu, int l, char *out)
{
    long pkg = read_num(cpu, "physical_package_id"), die = read_num(cpu, "die_id");
    long core = read_num(cpu, "core_id"), clu = read_num(cpu, "cluster_id");
    out[0] = '\0';
    if (l == 0) {
        strcpy(out, "machine");
    } else if (l == 1 && pkg >= 0) {
        snprintf(out, KEYLEN, "package %ld", pkg);
    } else if (l == 2 && pkg >= 0 && die >= 0) {
        snprintf(out, KEYLEN, "die %ld/%ld", pkg, die);
    } else if (l == 3) {
        DIR *d = opendir("/sys/devices/system/node");
        if (d == NULL) {
            strcpy(out, "numa (none)");
            return;
        }
        struct dirent *e;
        char path[512], list[4096];
        cpu_set_t in;
        while ((e = readdir(d)) != NULL) {
            if (strncmp(e->d_name, "node", 4) != 0 || e->d_name[4] < '0' || e->d_name[4] > '9')
                continue;
            snprintf(path, sizeof(path), "/sys/devices/system/node/%s/cpulist", e->d_name);
            if (read_str(path, list, sizeof(list)) && ct_cpulist(list, &in) && CPU_ISSET(cpu, &in))
                snprintf(out, KEYLEN, "numa %.60s", e->d_name);
        }
        closedir(d);
    } else if (l == 4 || l == 6 || l == 7) {
        int want = l == 4 ? 3 : l == 6 ? 2 : 1;
        for (int i = 0; i < 32; i++) {
            char path[256], buf[KEYLEN - 16], type[32];
            snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/cache/index%d/level",
                     cpu, i);
            if (!read_str(path, buf, sizeof(buf)))
                break;
            if (atoi(buf) != want)
                continue;
            snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/cache/index%d/type",
                     cpu, i);
            if (!read_str(path, type, sizeof(type)) || strcmp(type, "Instruction") == 0)
                continue;
            snprintf(path, sizeof(path),
                     "/sys/devices/system/cpu/cpu%d/cache/index%d/shared_cpu_list", cpu, i);
            if (read_str(path, buf, sizeof(buf)))
                snprintf(out, KEYLEN, "L%d cache of %s", want, buf);
        }
    } else if (l == 5 && pkg >= 0 && clu >= 0 && clu != 65535) {
        snprintf(out, KEYLEN, "cluster %ld/%ld", pkg, clu);
    } else if (l == 8 && pkg >= 0 && core >= 0) {
        snprintf(out, KEYLEN, "core %ld/%ld/%ld", pkg, die >= 0 ? die : 0, core);
    } else if (l == 9 && core >= 0) {
        snprintf(out, KEYLEN, "cpu %d", cpu);
    }
}

/* My instance strings: the node, then the level's string when all my CPUs
 * share it. */
static void my_keys(int node, key_t_ k)
{
    cpu_set_t set;
    CPU_ZERO(&set);
    sched_getaffinity(0, sizeof(set), &set);
    for (int l = 0; l < NLEV; l++) {
        char first[KEYLEN] = "", cur[KEYLEN];
        int ok = 1, any = 0;
        for (int c = 0; c < CPU_SETSIZE && ok; c++) {
            if (!CPU_ISSET(c, &set))
                continue;
            cpu_key(c, l, cur);
            if (cur[0] == '\0' || (any && strcmp(cur, first) != 0))
                ok = 0;
            if (!any)
                strcpy(first, cur);
            any = 1;
        }
        if (ok && any)
            snprintf(k[l], KEYLEN, "node %d: %.150s", node, first);
        else
            k[l][0] = '\0';
    }
}

/* Compare comm (my result) with the ranks r of parent whose all[r][l] is
 * mine, in parent order (key = parent rank). */
static void check_group(MPI_Comm parent, MPI_Comm got, key_t_ *all, int l, const char *what)
{
    int pr, p;
    MPI_Comm_rank(parent, &pr);
    MPI_Comm_size(parent, &p);
    if (all[pr][l][0] == '\0') {
        CHECK(got == MPI_COMM_NULL, "%s: expected MPI_COMM_NULL", what);
        return;
    }
    CHECK(got != MPI_COMM_NULL, "%s: got MPI_COMM_NULL, expected the ranks of '%s'", what,
          all[pr][l]);
    if (got == MPI_COMM_NULL)
        return;
    int n = 0, gs, *want = ct_malloc(sizeof(int) * (size_t)p);
    for (int r = 0; r < p; r++)
        if (strcmp(all[r][l], all[pr][l]) == 0)
            want[n++] = r;
    MPI_Comm_size(got, &gs);
    CHECK(gs == n, "%s: size %d, expected %d (%s)", what, gs, n, all[pr][l]);
    MPI_Group pg, gg;
    MPI_Comm_group(parent, &pg);
    MPI_Comm_group(got, &gg);
    for (int i = 0; i < n && i < gs; i++) {
        int tr = -1;
        MPI_Group_translate_ranks(gg, 1, &i, pg, &tr);
        CHECK(tr == want[i], "%s: rank %d is parent rank %d, expected %d", what, i, tr,
              want[i]);
    }
    MPI_Group_free(&pg);
    MPI_Group_free(&gg);
    free(want);
}

static void check_guided(MPI_Comm comm, key_t_ *all, const char *phase)
{
    int r;
    MPI_Comm_rank(comm, &r);
    for (int l = 0; l < NLEV; l++) {
        MPI_Info info;
        MPI_Info_create(&info);
        MPI_Info_set(info, "mpi_hw_resource_type", lev_name[l]);
        MPI_Comm c = MPI_COMM_NULL;
        CHECK_RC(MPI_Comm_split_type(comm, MPI_COMM_TYPE_HW_GUIDED, r, info, &c));
        char what[100];
        snprintf(what, sizeof(what), "%s: HW_GUIDED %s", phase, lev_name[l]);
        check_group(comm, c, all, l, what);
        if (c != MPI_COMM_NULL)
            MPI_Comm_free(&c);
        MPI_Info_free(&info);
    }
}

/* The level HW_UNGUIDED must take over the p ranks of all, or -1. */
static int expected_level(key_t_ *all, int p)
{
    for (int l = 0; l < NLEV; l++) {
        int any = 0, whole = 0;
        for (int r = 0; r < p; r++) {
            if (all[r][l][0] == '\0')
                continue;
            any = 1;
            int same = 0;
            for (int o = 0; o < p; o++)
                same += strcmp(all[o][l], all[r][l]) == 0;
            whole |= same == p;
        }
        if (any && !whole)
            return l;
    }
    return -1;
}

static void check_unguided(MPI_Comm comm, key_t_ mine, const char *phase, int depth)
{
    int r, p;
    MPI_Comm_rank(comm, &r);
    MPI_Comm_size(comm, &p);
    key_t_ *all = ct_malloc(sizeof(key_t_) * (size_t)p);
    MPI_Allgather(mine, sizeof(key_t_), MPI_CHAR, all, sizeof(key_t_), MPI_CHAR, comm);
    int l = expected_level(all, p);
    MPI_Comm c = MPI_COMM_NULL;
    /* even steps pass an info object: the key is set in it too (mpi4py's
     * test_comm reads it there) */
    MPI_Info arg = MPI_INFO_NULL;
    if (depth % 2 == 0)
        MPI_Info_create(&arg);
    CHECK_RC(MPI_Comm_split_type(comm, MPI_COMM_TYPE_HW_UNGUIDED, r, arg, &c));
    char what[100];
    snprintf(what, sizeof(what), "%s: HW_UNGUIDED step %d (expected level %s)", phase,
             depth, l >= 0 ? lev_name[l] : "none");
    if (l < 0)
        CHECK(c == MPI_COMM_NULL, "%s: expected MPI_COMM_NULL", what);
    else
        check_group(comm, c, all, l, what);
    free(all);
    if (c == MPI_COMM_NULL) {
        if (arg != MPI_INFO_NULL)
            MPI_Info_free(&arg);
        return;
    }
    MPI_Info info;
    char val[MPI_MAX_INFO_VAL + 1] = "";
    int flag = 0;
    MPI_Comm_get_info(c, &info);
    MPI_Info_get(info, "mpi_hw_resource_type", MPI_MAX_INFO_VAL, val, &flag);
    MPI_Info_free(&info);
    CHECK(flag && l >= 0 && strcmp(val, lev_name[l]) == 0,
          "%s: info mpi_hw_resource_type = '%s' (flag %d)", what, val, flag);
    if (arg != MPI_INFO_NULL) {
        flag = 0;
        MPI_Info_get(arg, "mpi_hw_resource_type", MPI_MAX_INFO_VAL, val, &flag);
        MPI_Info_free(&arg);
        CHECK(flag && l >= 0 && strcmp(val, lev_name[l]) == 0,
              "%s: the info argument's mpi_hw_resource_type = '%s' (flag %d)", what, val, flag);
    }
    int n;
    MPI_Comm_size(c, &n);
    CHECK(n < p, "%s: not smaller than its parent (%d of %d)", what, n, p);
    if (n < p && depth < NLEV)
        check_unguided(c, mine, phase, depth + 1);
    MPI_Comm_free(&c);
}

static void check_all(int node, const char *phase)
{
    key_t_ mine;
    my_keys(node, mine);
    key_t_ *all = ct_malloc(sizeof(key_t_) * (size_t)ct_size);
    MPI_Allgather(mine, sizeof(key_t_), MPI_CHAR, all, sizeof(key_t_), MPI_CHAR,
                  MPI_COMM_WORLD);
    check_guided(MPI_COMM_WORLD, all, phase);
    check_unguided(MPI_COMM_WORLD, mine, phase, 0);
    free(all);
}

/* An unknown name, no key, MPI_INFO_NULL: MPI_COMM_NULL without error. */
static void check_unknown(void)
{
    MPI_Info info;
    MPI_Comm c = MPI_COMM_WORLD;
    MPI_Info_create(&info);
    CHECK_RC(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_HW_GUIDED, 0, info, &c));
    CHECK(c == MPI_COMM_NULL, "HW_GUIDED without the key gave a communicator");
    MPI_Info_set(info, "mpi_hw_resource_type", "FluxCapacitor");
    c = MPI_COMM_WORLD;
    CHECK_RC(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_HW_GUIDED, 0, info, &c));
    CHECK(c == MPI_COMM_NULL, "HW_GUIDED with an unknown resource gave a communicator");
    c = MPI_COMM_WORLD;
    CHECK_RC(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_HW_GUIDED, 0,
                                 MPI_INFO_NULL, &c));
    CHECK(c == MPI_COMM_NULL, "HW_GUIDED with MPI_INFO_NULL gave a communicator");
    MPI_Info_free(&info);
}

int main(int argc, char **argv)
{
    ct_init(&argc, &argv);
    /* the node: the first world rank of my SHARED communicator */
    MPI_Comm nc;
    MPI_Group ng, wg;
    int zero = 0, node = -1;
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &nc);
    MPI_Comm_group(nc, &ng);
    MPI_Comm_group(MPI_COMM_WORLD, &wg);
    MPI_Group_translate_ranks(ng, 1, &zero, wg, &node);
    MPI_Group_free(&ng);
    MPI_Group_free(&wg);
    MPI_Comm_free(&nc);

    check_unknown();
    check_all(node, "as launched");

    /* the CPUs the job was given: the union of the ranks' masks */
    cpu_set_t orig, pool;
    sched_getaffinity(0, sizeof(orig), &orig);
    MPI_Allreduce(&orig, &pool, sizeof(cpu_set_t), MPI_BYTE, MPI_BOR, MPI_COMM_WORLD);
    int cpus[CPU_SETSIZE], n = 0;
    for (int c = 0; c < CPU_SETSIZE; c++)
        if (CPU_ISSET(c, &pool))
            cpus[n++] = c;
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(cpus[(ct_rank / 2) % n], &set);
    int ok = sched_setaffinity(0, sizeof(set), &set) == 0, all_ok = 0;
    MPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
    if (all_ok)
        check_all(node, "two ranks per CPU");
    if (ct_rank == 0)
        set = pool;
    else {
        CPU_ZERO(&set);
        CPU_SET(cpus[ct_rank % n], &set);
    }
    ok = sched_setaffinity(0, sizeof(set), &set) == 0;
    MPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
    if (all_ok)
        check_all(node, "rank 0 on every CPU, the others on one");
    sched_setaffinity(0, sizeof(orig), &orig);
    return ct_finish();
}
