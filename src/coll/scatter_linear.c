/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * scatter_linear.c - flat scatter and scatterv: the root sends every block
 * at once from the user's buffer; in place, the root's block stays.
 *
 * The blocking form runs directly, without a schedule, where the blocks
 * are small (at most XB_COLL_DIRECT_MAX bytes: each goes eagerly at once):
 * the root's sends, then its own block; a leaf's one receive. Each rank
 * decides by its own counts, and either way the root sends one message
 * per leaf and a leaf receives one on the call's tag, so counts that
 * differ still meet (and fail on the leaf). On a part of a node (the 4
 * ranks of an 8-rank job that the Intel MPI Benchmarks time) the schedule
 * was most of an 8-byte scatter.
 */
#include "coll/alltoall_blocks.h"

/* Block i of the root's send buffer; *n gets its count. */
static const char *block_of(const xb_coll_args_t *a, bool v, int i, MPI_Count *n)
{
    *n = v ? a->scounts[i] : a->scount;
    return (const char *)a->sbuf + (v ? a->sdispls[i] : i * a->scount) * xb_dt_extent(a->sdt);
}

static int scatter(xb_coll_sched_t *s, const xb_coll_args_t *a, bool v)
{
    int p = a->comm->size, root = a->root, rc = XB_OK;
    if (a->comm->rank != root)
        return xb_coll_sched_recv(s, a->rbuf, a->rcount, a->rdt, root);
    for (int i = 0; i < p && rc == XB_OK; i++) {
        MPI_Count n;
        const char *blk = block_of(a, v, i, &n);
        if (i != root)
            rc = xb_coll_sched_send(s, blk, n, a->sdt, i);
        else if (a->rbuf != MPI_IN_PLACE)
            rc = xb_coll_sched_copy(s, blk, n, a->sdt, a->rbuf, a->rcount, a->rdt);
    }
    return rc;
}

int xb_coll_scatter_linear(xb_coll_sched_t *s, const xb_coll_args_t *a)
{
    return scatter(s, a, false);
}

int xb_coll_scatterv_linear(xb_coll_sched_t *s, const xb_coll_args_t *a)
{
    return scatter(s, a, true);
}

/* Every block the root sends is small (its own counts). */
static bool small_blocks(const xb_coll_args_t *a, bool v)
{
    MPI_Count size = xb_dt_size(a->sdt);
    for (int i = 0; i < (v ? a->comm->size : 1); i++)
        if ((v ? a->scounts[i] : a->scount) * size > XB_COLL_DIRECT_MAX)
            return false;
    return true;
}

static int direct(const xb_coll_args_t *a, int tag, bool v)
{
    xb_coll_kind_t kind = v ? XB_COLL_SCATTERV : XB_COLL_SCATTER;
    int p = a->comm->size, root = a->root, rc = XB_OK;
    if (a->comm->rank != root) {
        if (a->rcount * xb_dt_size(a->rdt) > XB_COLL_DIRECT_MAX)
            return xb_coll_run_sched(kind, v ? xb_coll_scatterv_linear : xb_coll_scatter_linear,
                                     a, tag);
        return xb_coll_recv_exact(a->rbuf, a->rcount, a->rdt, root, tag, a->comm, -1, (int)kind,
                                  NULL);
    }
    if (!small_blocks(a, v))
        return xb_coll_run_sched(kind, v ? xb_coll_scatterv_linear : xb_coll_scatter_linear, a,
                                 tag);
    MPI_Count n;
    for (int i = 0; i < p; i++) {             /* after an error the others still go */
        const char *blk = block_of(a, v, i, &n);
        int r = i == root ? XB_OK : xb_coll_send_blocking(blk, n, a->sdt, i, tag, a->comm);
        rc = rc == XB_OK ? r : rc;
    }
    if (rc == XB_OK && a->rbuf != MPI_IN_PLACE) {
        const char *blk = block_of(a, v, root, &n);
        rc = xb_a2a_own_copy(blk, n, a->sdt, a->rbuf, a->rcount, a->rdt);
    }
    return rc;
}

int xb_coll_scatter_linear_direct(const xb_coll_args_t *a, int tag)
{
    return direct(a, tag, false);
}

int xb_coll_scatterv_linear_direct(const xb_coll_args_t *a, int tag)
{
    return direct(a, tag, true);
}
