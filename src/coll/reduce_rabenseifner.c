/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * reduce_rabenseifner.c - Rabenseifner's reduce for large vectors and
 * commutative ops: the reduce-scatter by recursive halving of
 * allreduce_rabenseifner.c (each rank ends with one reduced chunk), then a
 * binomial gather of the chunks to the root: log2(p') rounds each, and
 * about twice the vector moved per rank instead of log2(p) times the
 * vector of the binomial tree; the reduction work is spread over every
 * rank instead of falling on the tree's inner ranks.
 *
 * A size that is not a power of two folds the first 2*rem ranks pairwise
 * (xb_coll_fold). The gather goes to the root's new rank; a root that was
 * folded out (an even rank below 2*rem) gets the result from its partner,
 * which holds the root's new rank.
 */
#include "coll/coll_int.h"

/* Doubling gather towards new rank top: in round `mask` a rank whose
 * distance to top (nr ^ top) has bit mask set sends the mask chunks it
 * holds to nr ^ mask and leaves; a rank still in receives them. Every
 * receive lands in a chunk range of its own, so a rank posts them all
 * before one fence, then sends on. */
static int gather_chunks(xb_coll_sched_t *s, char *acc, int nr, int top, int pof2, int rem)
{
    MPI_Count n = s->red.wcount;
    xb_datatype_t *wdt = s->red.wdt;
    MPI_Aint ext = xb_dt_extent(wdt);
    int rel = nr ^ top, mask = 1, rc = XB_OK;
    for (; mask < pof2 && !(rel & mask) && rc == XB_OK; mask <<= 1) {
        int theirs = (nr ^ mask) & ~(mask - 1);
        MPI_Count to = xb_coll_chunk_off(n, pof2, theirs);
        MPI_Count tn = xb_coll_chunk_off(n, pof2, theirs + mask) - to;
        rc = xb_coll_sched_recv(s, acc + to * ext, tn, wdt,
                                xb_coll_fold_real_rank(nr ^ mask, rem));
    }
    if (rc == XB_OK)
        rc = xb_coll_sched_fence(s);
    if (rc != XB_OK || mask >= pof2)
        return rc;                                   /* top: all chunks here */
    int mine = nr & ~(mask - 1);
    MPI_Count mo = xb_coll_chunk_off(n, pof2, mine);
    MPI_Count mn = xb_coll_chunk_off(n, pof2, mine + mask) - mo;
    rc = xb_coll_sched_send(s, acc + mo * ext, mn, wdt, xb_coll_fold_real_rank(nr ^ mask, rem));
    return rc == XB_OK ? xb_coll_sched_fence(s) : rc;
}

int xb_coll_reduce_rabenseifner(xb_coll_sched_t *s, const xb_coll_args_t *a)
{
    int p = a->comm->size, rank = a->comm->rank, root = a->root;
    int rc = xb_coll_sched_red(s, a->rcount, a->rdt, a->op);
    if (rc != XB_OK)
        return rc;
    bool at_root = rank == root;
    char *acc = at_root ? xb_coll_red_acc(s, a) : xb_coll_red_load(s, a->sbuf);
    char *tmp = xb_coll_sched_wtmp(s, -1);
    if (acc == NULL || tmp == NULL)
        return XB_ERR_NO_MEM;
    xb_coll_fold_t f;
    rc = xb_coll_fold(s, acc, tmp, rank, p, &f);
    /* the root's new rank; a folded-out root's partner (root + 1) holds it */
    bool root_out = root < 2 * f.rem && root % 2 == 0;
    int top = root < 2 * f.rem ? root / 2 : root - f.rem;
    if (rc == XB_OK && f.nr >= 0)
        rc = xb_coll_halving_reduce(s, acc, tmp, f.nr, f.pof2, f.rem);
    if (rc == XB_OK && f.nr >= 0)
        rc = gather_chunks(s, acc, f.nr, top, f.pof2, f.rem);
    if (rc == XB_OK && root_out && (at_root || rank == root + 1)) {
        MPI_Count n = s->red.wcount;
        rc = at_root ? xb_coll_sched_recv(s, acc, n, s->red.wdt, root + 1)
                     : xb_coll_sched_send(s, acc, n, s->red.wdt, root);
        if (rc == XB_OK)
            rc = xb_coll_sched_fence(s);
    }
    if (rc == XB_OK && at_root)
        rc = xb_coll_red_store(s, acc, a->rbuf);
    return rc;
}
