/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * comm_group.c - communicators from groups: MPI_Comm_create (collective
 * over the parent), MPI_Comm_create_group (collective over the group only,
 * separated by the user's tag) and the group shared by
 * MPI_Comm_create_from_group (sessions, comm_session.c).
 *
 * The new communicator shares the group object (one more reference). The
 * group must be a subset of the parent's group (MPI_ERR_GROUP otherwise);
 * a process outside the group gets MPI_COMM_NULL. MPI_Comm_create on an
 * intercommunicator: intercomm_create.c; MPI_Comm_create_group requires an
 * intracommunicator (the standard), so an intercommunicator is MPI_ERR_COMM.
 */
#include <stdlib.h>
#include "comm/comm_int.h"
#include "xb_impl.h"

/* XB_OK when every member of g is a member of comm's group. */
static int check_subset(const xb_comm_t *comm, const xb_group_t *g)
{
    int maxw = 0;
    for (int r = 0; r < comm->group->size; r++) {
        int w = (int)xb_group_gpid(comm->group, r);
        maxw = w > maxw ? w : maxw;
    }
    char *in = calloc((size_t)maxw + 1, 1);
    if (in == NULL)
        return xb_err_set(XB_ERR_NO_MEM, "out of memory checking a group");
    for (int r = 0; r < comm->group->size; r++)
        in[xb_group_gpid(comm->group, r)] = 1;
    int rc = XB_OK;
    for (int r = 0; r < g->size && rc == XB_OK; r++) {
        int w = (int)xb_group_gpid(g, r);
        if (w > maxw || !in[w])
            rc = xb_err_set(XB_ERR_GROUP, "invalid argument group: its member "
                            "%d (world rank %d) is not in the communicator's "
                            "group", r, w);
    }
    free(in);
    return rc;
}

static int make(xb_group_t *group, uint32_t ctx, xb_comm_t *parent, MPI_Comm *newcomm)
{
    xb_comm_t *c = xb_comm_new(group, ctx, parent);
    if (c == NULL)
        return XB_ERR_NO_MEM;
    int rc = xb_comm_finish(c, parent, false, false, NULL, false);
    if (rc == XB_OK)
        *newcomm = xb_comm_to_handle(c);
    return rc;
}

int xb_impl_comm_create(xb_comm_t *comm, xb_group_t *group, MPI_Comm *newcomm)
{
    int rc = check_subset(comm, group);     /* inter: the local group */
    if (xb_comm_is_inter(comm))
        return xb_comm_create_inter(comm, group, rc, newcomm);
    bool member = group->rank != MPI_UNDEFINED;
    uint32_t ctx = 0;
    /* every process takes part in the agreement, even after a local error,
     * so the others do not hang; the error is then returned */
    int arc = xb_comm_ctx_agree(comm, member && rc == XB_OK, &ctx);
    if (rc != XB_OK)
        return rc;
    if (arc != XB_OK)
        return arc;
    if (!member) {
        *newcomm = MPI_COMM_NULL;
        return XB_OK;
    }
    return make(group, ctx, comm, newcomm);
}

int xb_impl_comm_create_group(xb_comm_t *comm, xb_group_t *group, int tag,
                              MPI_Comm *newcomm)
{
    if (xb_comm_is_inter(comm))      /* the standard allows only these */
        return xb_err_set(XB_ERR_COMM, "invalid argument comm: an "
                          "intercommunicator (MPI_Comm_create_group requires "
                          "an intracommunicator)");
    int rc = check_subset(comm, group);
    if (rc != XB_OK)
        return rc;
    if (group->rank == MPI_UNDEFINED) {
        *newcomm = MPI_COMM_NULL;    /* not a member: nothing to agree on */
        return XB_OK;
    }
    uint32_t ctx;
    rc = xb_comm_ctx_agree_group(group, tag, &ctx);
    if (rc != XB_OK)
        return rc;
    return make(group, ctx, comm, newcomm);
}
