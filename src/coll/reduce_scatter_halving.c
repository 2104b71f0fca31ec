/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * reduce_scatter_halving.c - recursive halving for reduce_scatter and
 * reduce_scatter_block, power-of-two sizes and commutative ops: the ranks
 * of the current range [lo, hi) pair up across its middle; each sends the
 * half of the vector it does not keep (the blocks of the other half's
 * ranks) to its partner and combines the half it keeps. log2(p) rounds
 * moving (p - 1) / p of the vector, then rank r holds its own block.
 */
#include "coll/coll_int.h"

static int build(xb_coll_sched_t *s, const xb_coll_args_t *a,
                 const MPI_Count *counts)
{
    int p = a->comm->size, r = a->comm->rank, rc;
    MPI_Count total = 0;
    for (int i = 0; i < p; i++)
        total += counts[i];
    rc = xb_coll_sched_red(s, total, a->rdt, a->op);
    if (rc == XB_OK)
        rc = xb_coll_reduce_scatter_agree(s, a);    /* beyond a slot: as shm signs */
    if (rc != XB_OK)
        return rc;
    MPI_Count per = total > 0 ? s->red.wcount / total : 1;
    MPI_Aint ext = xb_dt_extent(s->red.wdt);
    MPI_Count *start = xb_coll_sched_tmp(s, (p + 1) * (MPI_Count)sizeof(MPI_Count),
                                         xb_dt_from_handle(MPI_BYTE));
    char *acc = xb_coll_red_load(s, a->sbuf == MPI_IN_PLACE ? a->rbuf : a->sbuf);
    char *tmp = xb_coll_sched_wtmp(s, -1);
    if (start == NULL || acc == NULL || tmp == NULL)
        return XB_ERR_NO_MEM;
    start[0] = 0;                     /* start[i]: working offset of block i */
    for (int i = 0; i < p; i++)
        start[i + 1] = start[i] + counts[i] * per;
    int lo = 0, hi = p;
    for (int mask = p / 2; mask > 0 && rc == XB_OK; mask >>= 1) {
        int mid = lo + mask;
        int klo = r < mid ? lo : mid, khi = r < mid ? mid : hi;
        int slo = r < mid ? mid : lo, shi = r < mid ? hi : mid;
        MPI_Count kn = start[khi] - start[klo];
        rc = xb_coll_sched_recv(s, tmp, kn, s->red.wdt, r ^ mask);
        if (rc == XB_OK)
            rc = xb_coll_sched_send(s, acc + start[slo] * ext,
                                    start[shi] - start[slo], s->red.wdt, r ^ mask);
        if (rc == XB_OK)
            rc = xb_coll_sched_fence(s);
        if (rc == XB_OK)
            rc = xb_coll_sched_reduce(s, tmp, acc + start[klo] * ext, kn);
        lo = klo, hi = khi;
    }
    if (rc == XB_OK)
        rc = xb_coll_sched_copy(s, acc + start[r] * ext, counts[r] * per,
                                s->red.wdt, a->rbuf, counts[r], a->rdt);
    return rc;
}

int xb_coll_reduce_scatter_halving(xb_coll_sched_t *s, const xb_coll_args_t *a)
{
    return build(s, a, a->rcounts);
}

int xb_coll_reduce_scatter_block_halving(xb_coll_sched_t *s,
                                         const xb_coll_args_t *a)
{
    MPI_Count *counts = xb_coll_equal_counts(s, a->comm->size, a->rcount);
    if (counts == NULL)
        return XB_ERR_NO_MEM;
    return build(s, a, counts);
}
