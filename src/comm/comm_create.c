/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * comm_create.c - MPI_Comm_dup, _dup_with_info, _split, _free, and the
 * shared tail of every constructor (xb_comm_finish: attributes, topology,
 * hints).
 *
 * dup: a context-id agreement, then a new communicator sharing the parent's
 * group (one more reference: O(1) memory, so a dup of COMM_WORLD keeps the
 * identity member map). The errhandler is inherited; the name is not; the
 * attributes go through their copy callbacks; the topology is copied. An
 * intercommunicator's dup also shares the remote group and gets a local
 * intracommunicator of its own.
 * split: an allgather of (colour, key) over the parent, then every process
 * builds its colour's member list sorted by (key, old rank), then one
 * context-id agreement for all the new communicators (they are disjoint, so
 * they may share the id). MPI_UNDEFINED gives MPI_COMM_NULL.
 */
#include <stdlib.h>
#include "comm/comm_int.h"
#include "coll/coll.h"
#include "core/attr.h"
#include "core/info.h"
#include "core/topo.h"
#include "xb_impl.h"

int xb_comm_finish(xb_comm_t *c, xb_comm_t *parent, bool attrs, bool topo,
                   xb_info_t *info, bool inherit_info)
{
    int rc = XB_OK;
    if (parent != NULL && c->session_bbuf == NULL)   /* derived from a session's */
        c->session_bbuf = xb_bbuf_retain(parent->session_bbuf);
    if (attrs && parent != NULL)
        rc = xb_attr_copy_all(XB_ATTR_COMM, parent->attrs, parent->handle,
                              &c->attrs, c->handle);
    if (rc == XB_OK && topo && parent != NULL)
        rc = xb_topo_copy(parent->topo, &c->topo);
    const xb_info_t *src = info != NULL ? info
                         : inherit_info && parent != NULL ? parent->info : NULL;
    if (rc == XB_OK && src != NULL)
        rc = xb_info_copy(src, &c->info);
    if (rc == XB_OK)
        rc = xb_comm_pick_chan(c);
    if (rc == XB_OK)
        rc = xb_comm_apply_hints(c);
    if (rc != XB_OK)
        xb_comm_release(c);
    return rc;
}

/* The local intracommunicator of an intercommunicator (agreed over it). */
static int make_local(xb_comm_t *inter)
{
    uint32_t ctx;
    int rc = xb_comm_ctx_agree(inter->local_comm, true, &ctx);
    if (rc != XB_OK)
        return rc;
    xb_comm_t *l = xb_comm_new(inter->group, ctx, NULL);
    if (l == NULL)
        return XB_ERR_NO_MEM;
    inter->local_comm = l;
    return XB_OK;
}

static int dup_common(xb_comm_t *comm, xb_info_t *info, bool inherit, MPI_Comm *newcomm)
{
    uint32_t ctx;
    bool inter = xb_comm_is_inter(comm);
    int rc = inter ? xb_comm_ctx_agree_inter(comm->local_comm, 0, comm, 0,
                                             0x1d0b, &ctx)
                   : xb_comm_ctx_agree(comm, true, &ctx);
    if (rc != XB_OK)
        return rc;
    xb_comm_t *c = xb_comm_new(comm->group, ctx, comm);
    if (c == NULL)
        return XB_ERR_NO_MEM;
    if (inter) {
        xb_group_retain(comm->remote);
        c->remote = comm->remote;
        c->local_comm = comm->local_comm;     /* borrowed for the agreement */
        rc = make_local(c);
        if (rc != XB_OK) {
            c->local_comm = NULL;
            xb_comm_release(c);
            return rc;
        }
    }
    rc = xb_comm_finish(c, comm, true, true, info, inherit);
    if (rc != XB_OK)
        return rc;
    *newcomm = xb_comm_to_handle(c);
    return XB_OK;
}

/* A failed dup (an attribute copy callback that returned an error, most
 * often) leaves MPI_COMM_NULL in newcomm, as MPICH and Open MPI do: the
 * standard leaves newcomm undefined then, and programs test it. */
int xb_impl_comm_dup(xb_comm_t *comm, MPI_Comm *newcomm)
{
    int rc = dup_common(comm, NULL, true, newcomm);
    if (rc != XB_OK)
        *newcomm = MPI_COMM_NULL;
    return rc;
}

int xb_impl_comm_dup_with_info(xb_comm_t *comm, xb_info_t *info, MPI_Comm *newcomm)
{
    xb_info_t empty = { .magic = XB_MAGIC_INFO };
    int rc = dup_common(comm, info != NULL ? info : &empty, false, newcomm);
    if (rc != XB_OK)
        *newcomm = MPI_COMM_NULL;
    return rc;
}

typedef struct { int key, rank; } member_t;

static int cmp_member(const void *a, const void *b)
{
    const member_t *x = a, *y = b;
    if (x->key != y->key)
        return x->key < y->key ? -1 : 1;
    return x->rank < y->rank ? -1 : x->rank > y->rank;
}

/* World ranks of my colour's members, in new-rank order. */
static int build_members(xb_comm_t *comm, const int *ck, int color, int **world_p,
                         int *n_p)
{
    int p = comm->size, n = 0;
    member_t *m = malloc((size_t)p * sizeof(*m));
    int *world = malloc((size_t)p * sizeof(int));
    if (m == NULL || world == NULL) {
        free(m);
        free(world);
        return xb_err_set(XB_ERR_NO_MEM, "out of memory splitting a "
                          "communicator of %d ranks", p);
    }
    for (int r = 0; r < p; r++)
        if (ck[2 * r] == color)
            m[n++] = (member_t){ ck[2 * r + 1], r };
    qsort(m, (size_t)n, sizeof(*m), cmp_member);
    for (int i = 0; i < n; i++)
        world[i] = (int)xb_group_gpid(comm->group, m[i].rank);
    free(m);
    *world_p = world;
    *n_p = n;
    return XB_OK;
}

int xb_comm_from_world_list(int n, const int *world, uint32_t ctx,
                            xb_comm_t *parent, xb_comm_t **out_p)
{
    xb_group_t *g = xb_group_new(n, world);
    if (g == NULL)
        return XB_ERR_NO_MEM;
    xb_comm_t *c = xb_comm_new(g, ctx, parent);
    xb_group_release(g);              /* the communicator holds its own */
    if (c == NULL)
        return XB_ERR_NO_MEM;
    *out_p = c;
    return XB_OK;
}

int xb_comm_split_impl(xb_comm_t *comm, int color, int key, MPI_Comm *newcomm)
{
    int p = comm->size;
    int *ck = malloc((size_t)p * 2 * sizeof(int));
    if (ck == NULL)
        return xb_err_set(XB_ERR_NO_MEM, "out of memory splitting a "
                          "communicator of %d ranks", p);
    int mine[2] = { color, key };
    xb_datatype_t *dint = xb_dt_from_handle(MPI_INT);
    int rc = xb_coll_allgather(mine, 2, dint, ck, 2, dint, comm);
    for (int r = 0; r < p && rc == XB_OK; r++)
        if (ck[2 * r] < 0 && ck[2 * r] != MPI_UNDEFINED)
            rc = xb_err_set(XB_ERR_ARG, "invalid color %d on rank %d (a color "
                            "is >= 0 or MPI_UNDEFINED)", ck[2 * r], r);
    bool member = color != MPI_UNDEFINED;
    uint32_t ctx = 0;
    if (rc == XB_OK)
        rc = xb_comm_ctx_agree(comm, member, &ctx);
    int *world = NULL, n = 0;
    if (rc == XB_OK && member)
        rc = build_members(comm, ck, color, &world, &n);
    free(ck);
    if (rc != XB_OK)
        return rc;
    if (!member) {
        *newcomm = MPI_COMM_NULL;
        return XB_OK;
    }
    xb_comm_t *c;
    rc = xb_comm_from_world_list(n, world, ctx, comm, &c);
    free(world);
    if (rc == XB_OK)
        rc = xb_comm_finish(c, comm, false, false, NULL, false);
    if (rc == XB_OK)
        *newcomm = xb_comm_to_handle(c);
    return rc;
}

int xb_impl_comm_split(xb_comm_t *comm, int color, int key, MPI_Comm *newcomm)
{
    if (xb_comm_is_inter(comm))
        return xb_comm_split_inter(comm, color, key, newcomm);
    return xb_comm_split_impl(comm, color, key, newcomm);
}

int xb_impl_comm_free(MPI_Comm *comm)
{
    if (*comm == MPI_COMM_WORLD || *comm == MPI_COMM_SELF)
        return xb_err_set(XB_ERR_COMM, "%s cannot be freed: it is a predefined "
                          "communicator", *comm == MPI_COMM_WORLD ?
                          "MPI_COMM_WORLD" : "MPI_COMM_SELF");
    xb_comm_t *c = xb_comm_from_handle(*comm);
    if (c == NULL)
        return xb_err_set(XB_ERR_COMM, "invalid communicator %p (MPI_COMM_NULL "
                          "or already freed)", (void *)*comm);
    /* delete callbacks run first, on a still-valid handle */
    int rc = xb_attr_delete_all(XB_ATTR_COMM, &c->attrs, c->handle);
    c->user_freed = true;     /* the handle is dead; requests may hold c */
    xb_comm_release(c);
    *comm = MPI_COMM_NULL;
    return rc;
}
