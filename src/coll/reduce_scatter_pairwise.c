/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * reduce_scatter_pairwise.c - reduce_scatter and reduce_scatter_block by
 * direct exchange: every rank sends segment i of its vector to rank i and
 * receives its own segment from every rank (all posted at once), then
 * combines the p contributions in rank order, x_0 op (x_1 op (... x_p-1)),
 * so non-commutative ops are served too (xb_coll_exchange_reduce,
 * coll_util.c). One round of p - 1 messages each way; memory: p copies of
 * the own segment, and a working copy of the vector in place or for a
 * working type other than the user's.
 */
#include "coll/coll_int.h"

static int build(xb_coll_sched_t *s, const xb_coll_args_t *a,
                 const MPI_Count *counts)
{
    int p = a->comm->size, r = a->comm->rank, rc;
    MPI_Count total = 0;
    /* Equal counts (reduce_scatter_block's always): every pair exchanges a
     * message, empty ones too, so a rank whose count differs (0 among them)
     * meets the others with a block of the wrong size instead of leaving
     * them waiting (xb_coll_exchange_reduce's every). Counts that differ
     * (every rank's array the same) skip the empty pieces. */
    bool every = true;
    for (int i = 0; i < p; i++) {
        total += counts[i];
        every &= counts[i] == counts[0];
    }
    rc = xb_coll_sched_red(s, total, a->rdt, a->op);
    if (rc == XB_OK)
        rc = xb_coll_reduce_scatter_agree(s, a);    /* beyond a slot: as shm signs */
    if (rc != XB_OK)
        return rc;
    MPI_Count per = total > 0 ? s->red.wcount / total : 1;
    MPI_Count *off = xb_coll_sched_tmp(s, 2 * (MPI_Count)p * (MPI_Count)sizeof(MPI_Count),
                                       xb_dt_from_handle(MPI_BYTE));
    if (off == NULL)
        return XB_ERR_NO_MEM;
    MPI_Count *len = off + p;
    for (int i = 0; i < p; i++) {
        off[i] = i == 0 ? 0 : off[i - 1] + len[i - 1];
        len[i] = counts[i] * per;
    }
    /* the user's buffers are working buffers: straight into rbuf */
    if (s->red.direct && a->sbuf != MPI_IN_PLACE)
        return xb_coll_exchange_reduce(s, a, a->sbuf, off, len, a->rbuf, false, every);
    char *w = xb_coll_red_load(s, a->sbuf == MPI_IN_PLACE ? a->rbuf : a->sbuf);
    if (w == NULL)
        return XB_ERR_NO_MEM;
    char *out = w + off[r] * xb_dt_extent(s->red.wdt);
    rc = xb_coll_exchange_reduce(s, a, w, off, len, out, true, every);
    if (rc == XB_OK)
        rc = xb_coll_sched_copy(s, out, len[r], s->red.wdt, a->rbuf, counts[r], a->rdt);
    return rc;
}

int xb_coll_reduce_scatter_pairwise(xb_coll_sched_t *s, const xb_coll_args_t *a)
{
    return build(s, a, a->rcounts);
}

int xb_coll_reduce_scatter_block_pairwise(xb_coll_sched_t *s,
                                          const xb_coll_args_t *a)
{
    MPI_Count *counts = xb_coll_equal_counts(s, a->comm->size, a->rcount);
    if (counts == NULL)
        return XB_ERR_NO_MEM;
    return build(s, a, counts);
}
