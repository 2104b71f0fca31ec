/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * comm_split_type.c - MPI_Comm_split_type.
 *
 * The node of a rank comes from the launcher (xb_rt()->node_of: the host
 * entry it started the rank on), never from gethostname(), so tests can
 * pretend to have several hosts on one machine. Finer hardware levels come
 * from Linux sysfs (runtime/hwtopo.h: Package, Die, NUMANode, L3Cache,
 * Cluster, L2Cache, L1Cache, Core, HWThread) and the CPUs the process may
 * run on when it calls (sched_getaffinity): a process belongs to an
 * instance of a level only when all its CPUs lie in that one instance
 * (the standard: it uses that instance and no other of the type).
 *
 *   MPI_COMM_TYPE_SHARED          one communicator per node
 *   MPI_COMM_TYPE_HW_GUIDED       info "mpi_hw_resource_type" names a level
 *                                 ("mpi_shared_memory" or "Machine": the
 *                                 node; names and synonyms in hwtopo.c):
 *                                 one communicator per instance of it on
 *                                 each node; MPI_COMM_NULL for a process
 *                                 not inside one instance, and for every
 *                                 process when the name is unknown, the
 *                                 key is missing or info is MPI_INFO_NULL
 *   MPI_COMM_TYPE_RESOURCE_GUIDED the same as HW_GUIDED (MPI 4.1: the
 *                                 info key names a resource type; ours
 *                                 are the hardware levels)
 *   MPI_COMM_TYPE_HW_UNGUIDED     the coarsest level, Machine to HWThread,
 *                                 that divides comm: some process lies in
 *                                 one instance of it and no instance holds
 *                                 all of comm; each process gets the
 *                                 communicator of its instance (with the
 *                                 info key "mpi_hw_resource_type" set to
 *                                 the level's name) or MPI_COMM_NULL; all
 *                                 get MPI_COMM_NULL when no level divides
 *   MPI_UNDEFINED                 MPI_COMM_NULL
 * Inside each new communicator ranks are ordered by (key, rank in comm).
 * On an intercommunicator the same colour drives the intercommunicator
 * split (intercomm_split.c): the result joins the local and remote
 * processes of the same type (the same node for SHARED), MPI_COMM_NULL
 * where the other side has none of that type. HW_UNGUIDED chooses its
 * level over the local group.
 *
 * MPI_Get_hw_resource_info (MPI 4.1) tells which of these resource types
 * the calling process is restricted to at the moment of the call: one key
 * per level this machine has, named as "mpi_hw_resource_type" accepts
 * (hwtopo.c's canonical names: "mpi_shared_memory", "Package", ...), with
 * the value "true" when all the CPUs the process may run on lie in one
 * instance of it (so that level gives it a communicator in a guided split)
 * and "false" when not.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include "comm/comm_int.h"
#include "coll/coll.h"
#include "core/info.h"
#include "runtime/hwtopo.h"
#include "runtime/runtime.h"
#include "xb_impl.h"

/* A colour names (node, instance): node * STRIDE + instance. Instances are
 * CPU numbers, so machines of more than STRIDE CPUs see no finer level
 * than the node for CPUs past it. */
enum { STRIDE = 4096 };

static int colour(int node, int inst)
{
    if (inst < 0 || inst >= STRIDE || node > (INT_MAX - inst) / STRIDE)
        return MPI_UNDEFINED;
    return node * STRIDE + inst;
}

/* My colour at every level (MPI_UNDEFINED where I am in no one instance). */
static int level_colours(int out[XB_HW_NLEVELS])
{
    int node = (int)xb_rt()->my_node, *cpus = NULL, n = 0;
    const xb_hwtopo_t *t = xb_hwtopo();
    int rc = t != NULL ? xb_hwtopo_my_cpus(&cpus, &n) : XB_OK;
    if (rc != XB_OK)
        return rc;
    out[XB_HW_MACHINE] = colour(node, 0);
    for (int l = XB_HW_MACHINE + 1; l < XB_HW_NLEVELS; l++)
        out[l] = colour(node, t != NULL ? xb_hwtopo_instance(t, l, cpus, n) : -1);
    free(cpus);
    return XB_OK;
}

static int guided_colour(const xb_info_t *info, int *color_p)
{
    const char *v = xb_info_lookup(info, "mpi_hw_resource_type");
    int level = xb_hwtopo_level_from_name(v);
    *color_p = MPI_UNDEFINED;
    if (level < 0)
        return XB_OK;               /* the standard: MPI_COMM_NULL, no error */
    int all[XB_HW_NLEVELS];
    int rc = level_colours(all);
    if (rc == XB_OK)
        *color_p = all[level];
    return rc;
}

/* The coarsest level that divides the p processes (all[r * NL + level]),
 * or -1. */
static int choose_level(const int *all, int p)
{
    for (int l = 0; l < XB_HW_NLEVELS; l++) {
        bool any = false, divides = true;
        for (int r = 0; r < p && divides; r++) {
            int c = all[r * XB_HW_NLEVELS + l], same = 0;
            if (c == MPI_UNDEFINED)
                continue;
            any = true;
            for (int o = 0; o < p; o++)
                same += all[o * XB_HW_NLEVELS + l] == c;
            divides = same < p;
        }
        if (any && divides)
            return l;
    }
    return -1;
}

/* HW_UNGUIDED: my colour at the level chosen over the local group. */
static int unguided_colour(xb_comm_t *comm, int *color_p, int *level_p)
{
    xb_comm_t *local = xb_comm_is_inter(comm) ? comm->local_comm : comm;
    int p = local->size, mine[XB_HW_NLEVELS];
    int *all = malloc((size_t)p * XB_HW_NLEVELS * sizeof(int));
    if (all == NULL)
        return xb_err_set(XB_ERR_NO_MEM, "out of memory splitting a communicator "
                          "of %d ranks", p);
    int rc = level_colours(mine);
    if (rc != XB_OK)                /* still take part: nobody hangs */
        for (int l = 0; l < XB_HW_NLEVELS; l++)
            mine[l] = MPI_UNDEFINED;
    xb_datatype_t *dint = xb_dt_from_handle(MPI_INT);
    int arc = xb_coll_allgather(mine, XB_HW_NLEVELS, dint, all, XB_HW_NLEVELS, dint,
                                local);
    int level = arc == XB_OK ? choose_level(all, p) : -1;
    free(all);
    *level_p = level;
    *color_p = level >= 0 ? mine[level] : MPI_UNDEFINED;
    return rc != XB_OK ? rc : arc;
}

static int color_of(xb_comm_t *comm, int split_type, const xb_info_t *info,
                    int *color_p, int *level_p)
{
    *level_p = -1;
    switch (split_type) {
    case MPI_UNDEFINED:
        *color_p = MPI_UNDEFINED;
        return XB_OK;
    case MPI_COMM_TYPE_SHARED:
        *color_p = (int)xb_rt()->my_node;
        return XB_OK;
    case MPI_COMM_TYPE_HW_GUIDED:
    case MPI_COMM_TYPE_RESOURCE_GUIDED:
        return guided_colour(info, color_p);
    case MPI_COMM_TYPE_HW_UNGUIDED:
        return unguided_colour(comm, color_p, level_p);
    default:
        *color_p = MPI_UNDEFINED;
        return xb_err_set(XB_ERR_ARG, "invalid argument split_type: %d (use "
                          "MPI_COMM_TYPE_SHARED, MPI_COMM_TYPE_HW_GUIDED, "
                          "MPI_COMM_TYPE_HW_UNGUIDED, MPI_COMM_TYPE_RESOURCE_GUIDED "
                          "or MPI_UNDEFINED)",
                          split_type);
    }
}

/* HW_UNGUIDED: the new communicator says which level made it, and so does
 * the caller's info object (the standard's INOUT use of info here; mpi4py's
 * test_comm reads it there), unless that is MPI_INFO_NULL or MPI_INFO_ENV. */
static int tag_level(MPI_Comm h, int level, xb_info_t *arg)
{
    xb_comm_t *c = xb_comm_from_handle(h);
    if (c == NULL || level < 0)
        return XB_OK;
    if (c->info == NULL && (c->info = xb_info_new()) == NULL)
        return xb_err_set(XB_ERR_NO_MEM, "out of memory for the hints of a new "
                          "communicator");
    const char *name = xb_hwtopo_level_name(level);
    int rc = xb_info_put(c->info, "mpi_hw_resource_type", name);
    if (rc == XB_OK && arg != NULL && xb_info_to_handle(arg) != MPI_INFO_ENV)
        rc = xb_info_put(arg, "mpi_hw_resource_type", name);
    return rc;
}

int xb_impl_comm_split_type(xb_comm_t *comm, int split_type, int key,
                            xb_info_t *info, MPI_Comm *newcomm)
{
    int color = MPI_UNDEFINED, level = -1;
    int rc = color_of(comm, split_type, info, &color, &level);
    /* an error still takes part (as MPI_UNDEFINED) so the other ranks do
     * not hang; it is returned afterwards */
    color = rc == XB_OK ? color : MPI_UNDEFINED;
    int src = xb_comm_is_inter(comm) ? xb_comm_split_inter(comm, color, key, newcomm)
                                     : xb_comm_split_impl(comm, color, key, newcomm);
    if (src == XB_OK && rc == XB_OK)
        src = tag_level(*newcomm, level, info);
    return rc != XB_OK ? rc : src;     /* on error *newcomm is MPI_COMM_NULL */
}

int xb_impl_get_hw_resource_info(MPI_Info *hw_info)
{
    int mine[XB_HW_NLEVELS];
    int rc = level_colours(mine);
    if (rc != XB_OK)
        return rc;
    const xb_hwtopo_t *t = xb_hwtopo();
    xb_info_t *info = xb_info_new();
    if (info == NULL)
        return xb_err_set(XB_ERR_NO_MEM, "out of memory for an info object");
    for (int l = 0; l < XB_HW_NLEVELS && rc == XB_OK; l++) {
        if (l != XB_HW_MACHINE && (t == NULL || !t->present[l]))
            continue;
        rc = xb_info_put(info, xb_hwtopo_level_name(l),
                         mine[l] != MPI_UNDEFINED ? "true" : "false");
    }
    if (rc != XB_OK) {
        xb_info_destroy(info);
        return rc;
    }
    *hw_info = xb_info_to_handle(info);
    return XB_OK;
}
