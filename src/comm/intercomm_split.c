/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * intercomm_split.c - MPI_Comm_split on an intercommunicator. Each side
 * splits its local group by (colour, key); the new intercommunicator of
 * colour c joins the local members of c with the remote members of c (both
 * ordered by key, then old rank). A process whose colour is MPI_UNDEFINED,
 * or whose colour has no member on the other side, gets MPI_COMM_NULL.
 *
 * Steps: allgather (colour, key) in the local communicator; the leaders
 * (local rank 0) swap their sides' arrays over the intercommunicator; each
 * leader broadcasts the remote array; the local split makes the new local
 * communicator (it becomes the new intercommunicator's local_comm); one
 * two-sided agreement gives the shared context (non-members contribute all
 * ones; the new intercommunicators are disjoint, so they share it).
 */
#include <stdlib.h>
#include "comm/comm_int.h"
#include "coll/coll.h"
#include "xb_impl.h"

enum { SPLIT_TAG = 0x5917 };

/* (colour, key) pairs of the remote side, everywhere in local. */
static int remote_pairs(xb_comm_t *ic, const int *mine, int **theirs_p)
{
    xb_comm_t *local = ic->local_comm;
    int rn = ic->remote->size, ln = ic->group->size, rc = XB_OK;
    int *theirs = malloc(((size_t)rn * 2 + 1) * sizeof(int));
    if (theirs == NULL)
        return xb_err_set(XB_ERR_NO_MEM, "out of memory splitting an "
                          "intercommunicator");
    if (local->rank == 0)
        rc = xb_comm_exchange(ic, 0, SPLIT_TAG, mine, (size_t)ln * 2 * sizeof(int),
                              theirs, (size_t)rn * 2 * sizeof(int));
    int brc = xb_coll_bcast(theirs, 2 * rn, xb_dt_from_handle(MPI_INT), 0, local);
    if (rc != XB_OK || brc != XB_OK) {
        free(theirs);
        return rc != XB_OK ? rc : brc;
    }
    *theirs_p = theirs;
    return XB_OK;
}

typedef struct { int key, rank; } member_t;

static int cmp_member(const void *a, const void *b)
{
    const member_t *x = a, *y = b;
    if (x->key != y->key)
        return x->key < y->key ? -1 : 1;
    return x->rank < y->rank ? -1 : x->rank > y->rank;
}

/* World ranks of the remote members of colour `color`, ordered; n may be 0. */
static int *remote_members(const xb_comm_t *ic, const int *theirs, int color, int *n_p)
{
    int rn = ic->remote->size, n = 0;
    member_t *m = malloc(((size_t)rn + 1) * sizeof(*m));
    int *w = malloc(((size_t)rn + 1) * sizeof(int));
    if (m == NULL || w == NULL) {
        free(m);
        free(w);
        xb_err_set(XB_ERR_NO_MEM, "out of memory splitting an intercommunicator");
        return NULL;
    }
    for (int r = 0; r < rn; r++)
        if (color != MPI_UNDEFINED && theirs[2 * r] == color)
            m[n++] = (member_t){ theirs[2 * r + 1], r };
    qsort(m, (size_t)n, sizeof(*m), cmp_member);
    for (int i = 0; i < n; i++)
        w[i] = (int)xb_group_gpid(ic->remote, m[i].rank);
    free(m);
    *n_p = n;
    return w;
}

int xb_comm_split_inter(xb_comm_t *ic, int color, int key, MPI_Comm *newcomm)
{
    xb_comm_t *local = ic->local_comm;
    int ln = ic->group->size, mine[2] = { color, key };
    int *all = malloc(((size_t)ln * 2 + 1) * sizeof(int)), *theirs = NULL;
    if (all == NULL)
        return xb_err_set(XB_ERR_NO_MEM, "out of memory splitting an "
                          "intercommunicator");
    xb_datatype_t *dint = xb_dt_from_handle(MPI_INT);
    int rc = xb_coll_allgather(mine, 2, dint, all, 2, dint, local), bad = XB_OK;
    for (int r = 0; r < ln && rc == XB_OK && bad == XB_OK; r++)
        if (all[2 * r] < 0 && all[2 * r] != MPI_UNDEFINED)
            bad = xb_err_set(XB_ERR_ARG, "invalid color %d on local rank %d (a "
                             "color is >= 0 or MPI_UNDEFINED)", all[2 * r], r);
    if (bad != XB_OK)
        color = MPI_UNDEFINED;     /* take part, so the other side finishes */
    if (rc == XB_OK)
        rc = remote_pairs(ic, all, &theirs);
    free(all);
    if (rc != XB_OK)
        return rc;
    int rn = 0;
    int *rw = remote_members(ic, theirs, color, &rn);
    free(theirs);
    if (rw == NULL)
        return XB_ERR_NO_MEM;
    /* local part: colours without a remote partner drop out here */
    MPI_Comm lh = MPI_COMM_NULL;
    rc = xb_comm_split_impl(local, rn > 0 ? color : MPI_UNDEFINED, key, &lh);
    bool member = rc == XB_OK && lh != MPI_COMM_NULL;
    uint32_t ctx = 0;
    int arc = xb_comm_ctx_agree_inter2(local, member, 0, ic, 0, SPLIT_TAG, &ctx);
    if (rc == XB_OK)
        rc = arc;
    if (rc == XB_OK)
        rc = bad;
    if (rc != XB_OK || !member) {
        if (lh != MPI_COMM_NULL)
            xb_impl_comm_free(&lh);
        free(rw);
        if (rc == XB_OK)
            *newcomm = MPI_COMM_NULL;
        return rc;
    }
    xb_comm_t *l = xb_comm_from_handle(lh);
    xb_group_t *remote = xb_group_new(rn, rw);
    free(rw);
    xb_comm_t *c = remote != NULL ? xb_comm_new(l->group, ctx, ic) : NULL;
    if (c == NULL) {
        if (remote != NULL)
            xb_group_release(remote);
        xb_impl_comm_free(&lh);
        return XB_ERR_NO_MEM;
    }
    c->remote = remote;
    c->local_comm = l;                 /* the user never sees lh */
    *newcomm = xb_comm_to_handle(c);
    return XB_OK;
}
