/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * gather_linear.c - flat gather and gatherv: every rank sends its block to
 * the root, which posts all receives at once, straight into the user's
 * blocks (no packing, no temporary). In place: the root's block is there.
 */
#include "coll/coll_int.h"

static int gather(xb_coll_sched_t *s, const xb_coll_args_t *a, bool v)
{
    int p = a->comm->size, root = a->root, rc = XB_OK;
    MPI_Aint ext = a->rdt != NULL ? xb_dt_extent(a->rdt) : 0;
    if (a->comm->rank != root)
        return xb_coll_sched_send(s, a->sbuf, a->scount, a->sdt, root);
    for (int i = 0; i < p && rc == XB_OK; i++) {
        MPI_Count n = v ? a->rcounts[i] : a->rcount;
        char *blk = (char *)a->rbuf + (v ? a->rdispls[i] : i * a->rcount) * ext;
        if (i != root)
            rc = xb_coll_sched_recv(s, blk, n, a->rdt, i);
        else if (a->sbuf != MPI_IN_PLACE)
            rc = xb_coll_sched_copy(s, a->sbuf, a->scount, a->sdt, blk, n, a->rdt);
    }
    return rc;
}

int xb_coll_gather_linear(xb_coll_sched_t *s, const xb_coll_args_t *a)
{
    return gather(s, a, false);
}

int xb_coll_gatherv_linear(xb_coll_sched_t *s, const xb_coll_args_t *a)
{
    return gather(s, a, true);
}
