/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * scatter_linear.c - flat scatter and scatterv: the root sends every block
 * at once from the user's buffer; in place, the root's block stays.
 */
#include "coll/coll_int.h"

static int scatter(xb_coll_sched_t *s, const xb_coll_args_t *a, bool v)
{
    int p = a->comm->size, root = a->root, rc = XB_OK;
    if (a->comm->rank != root)
        return xb_coll_sched_recv(s, a->rbuf, a->rcount, a->rdt, root);
    MPI_Aint ext = xb_dt_extent(a->sdt);
    for (int i = 0; i < p && rc == XB_OK; i++) {
        MPI_Count n = v ? a->scounts[i] : a->scount;
        const char *blk = (const char *)a->sbuf +
                          (v ? a->sdispls[i] : i * a->scount) * ext;
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
