/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * comm_split_type.c - MPI_Comm_split_type.
 *
 * The node of a rank comes from the launcher (xb_rt()->node_of: the host
 * entry it started the rank on), never from gethostname(), so tests can
 * pretend to have several hosts on one machine. The levels we know:
 *   MPI_COMM_TYPE_SHARED          one communicator per node
 *   MPI_COMM_TYPE_HW_GUIDED       info "mpi_hw_resource_type" =
 *                                 "mpi_shared_memory" or "Machine": per node;
 *                                 any other value: MPI_COMM_NULL (a level we
 *                                 cannot see without a hardware library)
 *   MPI_COMM_TYPE_HW_UNGUIDED     the node, when it is a strict subset of
 *                                 comm; else MPI_COMM_NULL (no finer level
 *                                 is known)
 *   MPI_UNDEFINED                 MPI_COMM_NULL
 * Inside each new communicator ranks are ordered by (key, rank in comm).
 * On an intercommunicator the same colour drives the intercommunicator
 * split (intercomm_split.c): the result joins the local and remote
 * processes of the same type (the same node for SHARED), MPI_COMM_NULL
 * where the other side has none of that type. HW_UNGUIDED looks at the
 * local group.
 */
#include <string.h>
#include "comm/comm_int.h"
#include "coll/coll.h"
#include "core/info.h"
#include "runtime/runtime.h"
#include "xb_impl.h"

/* Number of members of comm on my node. */
static int node_members(const xb_comm_t *comm)
{
    const xb_rt_info_t *rt = xb_rt();
    int n = 0;
    for (int r = 0; r < comm->size; r++)
        if (rt->node_of[xb_group_gpid(comm->group, r)] == rt->my_node)
            n++;
    return n;
}

static int color_of(const xb_comm_t *comm, int split_type, const xb_info_t *info,
                    int *color_p)
{
    int node = (int)xb_rt()->my_node;
    switch (split_type) {
    case MPI_UNDEFINED:
        *color_p = MPI_UNDEFINED;
        return XB_OK;
    case MPI_COMM_TYPE_SHARED:
        *color_p = node;
        return XB_OK;
    case MPI_COMM_TYPE_HW_GUIDED: {
        const char *v = xb_info_lookup(info, "mpi_hw_resource_type");
        bool known = v != NULL && (strcmp(v, "mpi_shared_memory") == 0 ||
                                   strcmp(v, "Machine") == 0);
        *color_p = known ? node : MPI_UNDEFINED;
        return XB_OK;
    }
    case MPI_COMM_TYPE_HW_UNGUIDED:
        *color_p = node_members(comm) < comm->size ? node : MPI_UNDEFINED;
        return XB_OK;
    default:
        return xb_err_set(XB_ERR_ARG, "invalid argument split_type: %d (use "
                          "MPI_COMM_TYPE_SHARED, MPI_COMM_TYPE_HW_GUIDED, "
                          "MPI_COMM_TYPE_HW_UNGUIDED or MPI_UNDEFINED)",
                          split_type);
    }
}

int xb_impl_comm_split_type(xb_comm_t *comm, int split_type, int key,
                            xb_info_t *info, MPI_Comm *newcomm)
{
    int color = MPI_UNDEFINED;
    int rc = color_of(comm, split_type, info, &color);
    /* a bad split_type still takes part (as MPI_UNDEFINED) so the other
     * ranks do not hang; the error is returned afterwards */
    color = rc == XB_OK ? color : MPI_UNDEFINED;
    int src = xb_comm_is_inter(comm) ? xb_comm_split_inter(comm, color, key, newcomm)
                                     : xb_comm_split_impl(comm, color, key, newcomm);
    return rc != XB_OK ? rc : src;     /* on error *newcomm is MPI_COMM_NULL */
}
