/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * allreduce_rabenseifner.c - Rabenseifner's allreduce for large vectors and
 * commutative ops: a reduce-scatter by recursive halving (each round keeps
 * the half of the current range of chunks that holds the rank's own chunk)
 * followed by an allgather by recursive doubling; 2 log2(p') rounds moving
 * about twice the vector. A size that is not a power of two first folds
 * the first 2*rem ranks pairwise (xb_coll_fold, coll_int.h) and unfolds at
 * the end. The reduce-scatter (xb_coll_halving_reduce) also serves
 * reduce_rabenseifner.c.
 */
#include "coll/coll_int.h"

int xb_coll_halving_reduce(xb_coll_sched_t *s, char *acc, char *tmp, int nr, int pof2,
                           int rem)
{
    MPI_Count n = s->red.wcount;
    xb_datatype_t *wdt = s->red.wdt;
    MPI_Aint ext = xb_dt_extent(wdt);
    int lo = 0, hi = pof2, rc = XB_OK;
    for (int mask = pof2 / 2; mask > 0 && rc == XB_OK; mask >>= 1) {
        int mid = lo + mask, peer = xb_coll_fold_real_rank(nr ^ mask, rem);
        int klo = nr < mid ? lo : mid, khi = nr < mid ? mid : hi;
        int slo = nr < mid ? mid : lo, shi = nr < mid ? hi : mid;
        MPI_Count ko = xb_coll_chunk_off(n, pof2, klo), kn = xb_coll_chunk_off(n, pof2, khi) - ko;
        MPI_Count so = xb_coll_chunk_off(n, pof2, slo), sn = xb_coll_chunk_off(n, pof2, shi) - so;
        rc = xb_coll_sched_recv(s, tmp, kn, wdt, peer);
        if (rc == XB_OK)
            rc = xb_coll_sched_send(s, acc + so * ext, sn, wdt, peer);
        if (rc == XB_OK)
            rc = xb_coll_sched_fence(s);
        if (rc == XB_OK)
            rc = xb_coll_sched_reduce(s, tmp, acc + ko * ext, kn);
        lo = klo, hi = khi;
    }
    return rc;
}

/* The allgather by recursive doubling: chunk nr (reduced) -> every chunk. */
static int doubling(xb_coll_sched_t *s, char *acc, int nr, int pof2, int rem)
{
    MPI_Count n = s->red.wcount;
    xb_datatype_t *wdt = s->red.wdt;
    MPI_Aint ext = xb_dt_extent(wdt);
    int rc = XB_OK;
    for (int mask = 1; mask < pof2 && rc == XB_OK; mask <<= 1) {
        int mine = nr & ~(mask - 1), theirs = (nr ^ mask) & ~(mask - 1);
        int peer = xb_coll_fold_real_rank(nr ^ mask, rem);
        MPI_Count mo = xb_coll_chunk_off(n, pof2, mine), mn = xb_coll_chunk_off(n, pof2, mine + mask) - mo;
        MPI_Count to = xb_coll_chunk_off(n, pof2, theirs), tn = xb_coll_chunk_off(n, pof2, theirs + mask) - to;
        rc = xb_coll_sched_recv(s, acc + to * ext, tn, wdt, peer);
        if (rc == XB_OK)
            rc = xb_coll_sched_send(s, acc + mo * ext, mn, wdt, peer);
        if (rc == XB_OK)
            rc = xb_coll_sched_fence(s);
    }
    return rc;
}

int xb_coll_allreduce_rabenseifner(xb_coll_sched_t *s, const xb_coll_args_t *a)
{
    int p = a->comm->size, rank = a->comm->rank;
    int rc = xb_coll_sched_red(s, a->rcount, a->rdt, a->op);
    if (rc != XB_OK)
        return rc;
    char *acc = xb_coll_red_acc(s, a);
    char *tmp = xb_coll_sched_wtmp(s, -1);
    if (acc == NULL || tmp == NULL)
        return XB_ERR_NO_MEM;
    xb_coll_fold_t f;
    rc = xb_coll_fold(s, acc, tmp, rank, p, &f);
    if (rc == XB_OK && f.nr >= 0)
        rc = xb_coll_halving_reduce(s, acc, tmp, f.nr, f.pof2, f.rem);
    if (rc == XB_OK && f.nr >= 0)
        rc = doubling(s, acc, f.nr, f.pof2, f.rem);
    if (rc == XB_OK)
        rc = xb_coll_unfold(s, acc, rank, &f);
    if (rc == XB_OK)
        rc = xb_coll_red_store(s, acc, a->rbuf);
    return rc;
}
