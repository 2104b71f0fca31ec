/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * allreduce_recdbl.c - recursive doubling, order-preserving (so it serves
 * commutative and non-commutative ops alike).
 *
 * A size that is not a power of two first folds (xb_coll_fold, coll_int.h):
 * new ranks cover consecutive ranges of old ranks in order.
 * Then log2(pof2) exchange rounds with partner newrank ^ 2^k; the partner
 * with the lower new rank holds the lower ranks, so its data is the left
 * operand on both sides, and both sides compute bit-identical results.
 * Finally each odd rank below 2*rem hands the result to its even neighbour
 * (xb_coll_unfold).
 */
#include "coll/coll_int.h"

/* The exchange rounds; *acc_p ends as the buffer holding the result. */
static int exchange(xb_coll_sched_t *s, void **acc_p, void **tmp_p, int nr,
                    int pof2, int rem)
{
    MPI_Count n = s->red.wcount;
    int rc = XB_OK;
    for (int mask = 1; mask < pof2 && rc == XB_OK; mask <<= 1) {
        int peer = xb_coll_fold_real_rank(nr ^ mask, rem);
        rc = xb_coll_sched_recv(s, *tmp_p, n, s->red.wdt, peer);
        if (rc == XB_OK)
            rc = xb_coll_sched_send(s, *acc_p, n, s->red.wdt, peer);
        if (rc == XB_OK)
            rc = xb_coll_sched_fence(s);
        if (rc != XB_OK)
            break;
        if ((nr ^ mask) < nr) {
            rc = xb_coll_sched_reduce(s, *tmp_p, *acc_p, n);  /* acc = tmp op acc */
        } else {
            rc = xb_coll_sched_reduce(s, *acc_p, *tmp_p, n);  /* tmp = acc op tmp */
            void *t = *acc_p;
            *acc_p = *tmp_p;
            *tmp_p = t;
        }
    }
    return rc;
}

int xb_coll_allreduce_recdbl(xb_coll_sched_t *s, const xb_coll_args_t *a)
{
    int p = a->comm->size, rank = a->comm->rank;
    int rc = xb_coll_sched_red(s, a->rcount, a->rdt, a->op);
    if (rc != XB_OK)
        return rc;
    void *acc = xb_coll_red_acc(s, a);
    void *tmp = xb_coll_sched_wtmp(s, -1);
    if (acc == NULL || tmp == NULL)
        return XB_ERR_NO_MEM;
    xb_coll_fold_t f;
    rc = xb_coll_fold(s, acc, tmp, rank, p, &f);
    if (rc == XB_OK && f.nr >= 0)
        rc = exchange(s, &acc, &tmp, f.nr, f.pof2, f.rem);
    if (rc == XB_OK)
        rc = xb_coll_unfold(s, acc, rank, &f);
    if (rc == XB_OK)
        rc = xb_coll_red_store(s, acc, a->rbuf);
    return rc;
}
