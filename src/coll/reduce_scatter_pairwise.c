/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * reduce_scatter_pairwise.c - reduce_scatter and reduce_scatter_block by
 * direct exchange: every rank sends segment i of its vector to rank i and
 * receives its own segment from every rank (all posted at once), then
 * combines the p contributions in rank order, x_0 op (x_1 op (... x_p-1)),
 * so non-commutative ops are served too. One round of p - 1 messages each
 * way; memory: p copies of the own segment.
 */
#include "coll/coll_int.h"

static int build(xb_coll_sched_t *s, const xb_coll_args_t *a,
                 const MPI_Count *counts)
{
    int p = a->comm->size, r = a->comm->rank, rc;
    MPI_Count total = 0, mine = 0;
    for (int i = 0; i < p; i++)
        total += counts[i];
    rc = xb_coll_sched_red(s, total, a->rdt, a->op);
    if (rc != XB_OK)
        return rc;
    MPI_Count per = total > 0 ? s->red.wcount / total : 1;
    MPI_Aint wext = xb_dt_extent(s->red.wdt);
    char *w = xb_coll_red_load(s, a->sbuf == MPI_IN_PLACE ? a->rbuf : a->sbuf);
    for (int i = 0; i < r; i++)
        mine += counts[i];
    char *own = w + mine * per * wext;
    MPI_Count n = counts[r] * per;
    char *slots = xb_coll_sched_wtmp(s, n * p);
    if (w == NULL || slots == NULL)
        return XB_ERR_NO_MEM;
#define SLOT(i) ((i) == r ? own : slots + (MPI_Count)(i) * n * wext)
    MPI_Count off = 0;
    for (int i = 0; i < p && rc == XB_OK; off += counts[i] * per, i++) {
        if (i == r)
            continue;
        rc = xb_coll_sched_recv(s, SLOT(i), n, s->red.wdt, i);
        if (rc == XB_OK)
            rc = xb_coll_sched_send(s, w + off * wext, counts[i] * per,
                                    s->red.wdt, i);
    }
    if (rc == XB_OK)
        rc = xb_coll_sched_fence(s);
    for (int i = p - 2; i >= 0 && rc == XB_OK; i--)
        rc = xb_coll_sched_reduce(s, SLOT(i), SLOT(p - 1), n);
    if (rc == XB_OK)
        rc = xb_coll_sched_copy(s, SLOT(p - 1), n, s->red.wdt, a->rbuf,
                                counts[r], a->rdt);
#undef SLOT
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
