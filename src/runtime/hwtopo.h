/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * hwtopo.h - the hardware levels of this machine, read from Linux sysfs
 * without a hardware library, for MPI_Comm_split_type's
 * MPI_COMM_TYPE_HW_GUIDED and MPI_COMM_TYPE_HW_UNGUIDED.
 *
 * What is read, under a root directory (normally /sys/devices/system; a
 * parameter, so tests can give a fake tree):
 *   cpu/cpuN/topology/{physical_package_id,die_id,cluster_id,core_id}
 *   cpu/cpuN/cache/indexK/{level,type,shared_cpu_list}   (not Instruction)
 *   node/nodeM/cpulist                                      (NUMA nodes)
 * CPUs without a topology directory (offline) are left out.
 *
 * Every level partitions the CPUs into instances; an instance is named by
 * its lowest CPU number (so ids are small and the same on every process of
 * a machine). A level is absent when some CPU lacks its files (no die_id,
 * a cluster_id of -1 or 65535, no L3 cache...): then it has no instances.
 * Without node/ at all, the machine is one NUMA node. The Machine level is
 * one instance (id 0); the comm layer combines it with the launcher's node.
 *
 * Lifecycle: xb_hwtopo_load() fills a table (malloc'ed), xb_hwtopo_free()
 * empties it. xb_hwtopo() is this process's table of /sys/devices/system,
 * loaded at the first call and kept until xb_hwtopo_fini() (MPI_Finalize).
 * Threading: one thread at a time (callers hold the progress lock).
 */
#ifndef XB_HWTOPO_H
#define XB_HWTOPO_H

#include <stdbool.h>
#include <stdint.h>

/* Coarse to fine; MPI_COMM_TYPE_HW_UNGUIDED walks them in this order. */
typedef enum xb_hw_level {
    XB_HW_MACHINE, XB_HW_PACKAGE, XB_HW_DIE, XB_HW_NUMA, XB_HW_L3,
    XB_HW_CLUSTER, XB_HW_L2, XB_HW_L1, XB_HW_CORE, XB_HW_PU,
    XB_HW_NLEVELS
} xb_hw_level_t;

typedef struct xb_hwtopo {
    int      ncpus;                  /* 1 + the highest CPU number seen     */
    int32_t *id;                     /* id[cpu * XB_HW_NLEVELS + level]: the
                                        instance (its lowest CPU), -1 = none */
    bool     present[XB_HW_NLEVELS]; /* the level is known on this machine  */
} xb_hwtopo_t;

/* Read the tree under root. XB_OK, or an error (detail recorded) when the
 * root has no CPU with a topology directory, or on no memory. */
int  xb_hwtopo_load(const char *root, xb_hwtopo_t *t);
void xb_hwtopo_free(xb_hwtopo_t *t);

/* The instance of `level` that holds every one of the n CPUs (n >= 1), or
 * -1 when they lie in several instances, or a CPU or the level is unknown. */
int  xb_hwtopo_instance(const xb_hwtopo_t *t, int level, const int *cpus, int n);

/* Names: the canonical one of a level (what HW_UNGUIDED reports), and the
 * level of a name given in "mpi_hw_resource_type" (case-insensitive, an
 * optional "hwloc://" prefix; -1 for a name we do not know). */
const char *xb_hwtopo_level_name(int level);
int         xb_hwtopo_level_from_name(const char *name);

/* Parse a sysfs CPU list ("0-3,8,10-11") into cpus (at most max, sorted as
 * written); returns how many, or -1 on a malformed list. */
int  xb_hwtopo_parse_list(const char *s, int *cpus, int max);

/* This process: the table of /sys/devices/system (NULL when it cannot be
 * read), and the CPUs it may run on now (sched_getaffinity; malloc'ed). */
const xb_hwtopo_t *xb_hwtopo(void);
int  xb_hwtopo_my_cpus(int **cpus_p, int *n_p);
void xb_hwtopo_fini(void);

#endif
