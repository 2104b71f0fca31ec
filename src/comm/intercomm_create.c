/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * intercomm_create.c - MPI_Comm_create on an intercommunicator.
 *
 * The standard: each side passes a group of its own (local) side, the same
 * on every process of that side; the result is an intercommunicator
 * between the two subgroups. A process outside its side's group gets
 * MPI_COMM_NULL, and so does everyone when either group is empty.
 *
 * Steps: the leaders (local rank 0) swap the sizes and world-rank lists of
 * their groups over the intercommunicator (its collective context,
 * XB_COMM_TAG); each leader broadcasts the remote list in the local
 * communicator. With both groups non-empty: one two-sided agreement gives
 * the intercommunicator's context (non-members contribute all ones); its
 * local communicator takes the shadow context (XB_COMM_LOCAL_CTX). Both
 * sides know both sizes, so both skip the agreements together when a group
 * is empty. A group that is not a subset of the local group fails the call
 * (MPI_ERR_GROUP) on that side, which takes part as if its group were
 * empty, so the other side gets MPI_COMM_NULL instead of hanging.
 */
#include <stdlib.h>
#include "comm/comm_int.h"
#include "coll/coll.h"
#include "xb_impl.h"

enum { CREATE_TAG = 0x6c7e };

/* Every process of the local side: the remote side's group as world ranks
 * (*rn may be 0). mine/n: my side's group (n = 0 after a local error). */
static int swap_groups(xb_comm_t *ic, const int *mine, int n, int *rn_p,
                       int **rlist_p)
{
    xb_comm_t *local = ic->local_comm;
    xb_datatype_t *dint = xb_dt_from_handle(MPI_INT);
    int rn = 0, rc = XB_OK;
    if (local->rank == 0)
        rc = xb_comm_exchange(ic, 0, CREATE_TAG, &n, sizeof(int), &rn, sizeof(int));
    int brc = xb_coll_bcast(&rn, 1, dint, 0, local);
    if (rc != XB_OK || brc != XB_OK)
        return rc != XB_OK ? rc : brc;
    int *rlist = malloc(((size_t)rn + 1) * sizeof(int));
    if (rlist == NULL)       /* the leader needs the buffer to go on */
        return xb_err_set(XB_ERR_NO_MEM, "out of memory for a group of %d", rn);
    if (local->rank == 0)
        rc = xb_comm_exchange(ic, 0, CREATE_TAG, mine, (size_t)n * sizeof(int),
                              rlist, (size_t)rn * sizeof(int));
    brc = xb_coll_bcast(rlist, rn, dint, 0, local);
    if (rc != XB_OK || brc != XB_OK) {
        free(rlist);
        return rc != XB_OK ? rc : brc;
    }
    *rn_p = rn;
    *rlist_p = rlist;
    return XB_OK;
}

/* My side's group as world ranks; NULL (detail recorded) on no memory. */
static int *world_of(const xb_group_t *g)
{
    int *w = malloc(((size_t)g->size + 1) * sizeof(int));
    if (w == NULL) {
        xb_err_set(XB_ERR_NO_MEM, "out of memory for a group of %d", g->size);
        return NULL;
    }
    for (int r = 0; r < g->size; r++)
        w[r] = (int)xb_group_gpid(g, r);
    return w;
}

/* Members only, after both agreements: the intercommunicator itself. */
static int build(xb_comm_t *ic, xb_group_t *group, uint32_t ctx, int rn,
                 const int *rlist, MPI_Comm *newcomm)
{
    xb_group_t *remote = xb_group_new(rn, rlist);
    xb_comm_t *c = remote != NULL ? xb_comm_new(group, ctx, ic) : NULL;
    xb_comm_t *l = c != NULL ? xb_comm_new(group, XB_COMM_LOCAL_CTX(ctx), NULL) : NULL;
    if (l == NULL) {
        if (c != NULL)
            xb_comm_release(c);
        if (remote != NULL)
            xb_group_release(remote);
        return XB_ERR_NO_MEM;
    }
    c->remote = remote;
    c->local_comm = l;
    int rc = xb_comm_finish(c, ic, false, false, NULL, false);
    if (rc == XB_OK)
        *newcomm = xb_comm_to_handle(c);
    return rc;
}

int xb_comm_create_inter(xb_comm_t *ic, xb_group_t *group, int grc,
                         MPI_Comm *newcomm)
{
    xb_comm_t *local = ic->local_comm;
    int *mine = grc == XB_OK ? world_of(group) : NULL;
    if (grc == XB_OK && mine == NULL)
        grc = XB_ERR_NO_MEM;          /* take part as empty; fail afterwards */
    int n = grc == XB_OK ? group->size : 0, rn = 0, *rlist = NULL;
    int rc = swap_groups(ic, mine, n, &rn, &rlist);
    free(mine);
    if (rc == XB_OK && (grc != XB_OK || n == 0 || rn == 0)) {
        free(rlist);                  /* both sides skip the agreements */
        if (grc == XB_OK)
            *newcomm = MPI_COMM_NULL;
        return grc;
    }
    if (rc != XB_OK)
        return rc;
    /* one two-sided agreement; the local communicator takes the shadow
     * context of the result */
    bool member = group->rank != MPI_UNDEFINED;
    uint32_t ctx = 0;
    rc = xb_comm_ctx_agree_inter2(local, member, 0, ic, 0, CREATE_TAG, &ctx);
    if (rc == XB_OK && member)
        rc = build(ic, group, ctx, rn, rlist, newcomm);
    else if (rc == XB_OK)
        *newcomm = MPI_COMM_NULL;
    free(rlist);
    return rc;
}
