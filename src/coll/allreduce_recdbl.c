/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * allreduce_recdbl.c - recursive doubling, order-preserving (so it serves
 * commutative and non-commutative ops alike).
 *
 * With pof2 the largest power of two <= p and rem = p - pof2: ranks below
 * 2*rem pair up first (even rank 2i sends to 2i+1, which keeps
 * x_2i op x_2i+1 and takes the new rank i); ranks from 2*rem on take the new
 * rank r - rem. New ranks cover consecutive ranges of old ranks in order.
 * Then log2(pof2) exchange rounds with partner newrank ^ 2^k; the partner
 * with the lower new rank holds the lower ranks, so its data is the left
 * operand on both sides, and both sides compute bit-identical results.
 * Finally each odd rank below 2*rem hands the result to its even neighbour.
 */
#include "coll/coll_int.h"

static int real_rank(int nr, int rem)
{
    return nr < rem ? nr * 2 + 1 : nr + rem;
}

/* The exchange rounds; *acc_p ends as the buffer holding the result. */
static int exchange(xb_coll_sched_t *s, void **acc_p, void **tmp_p, int nr,
                    int pof2, int rem)
{
    MPI_Count n = s->red.wcount;
    int rc = XB_OK;
    for (int mask = 1; mask < pof2 && rc == XB_OK; mask <<= 1) {
        int peer = real_rank(nr ^ mask, rem);
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
    MPI_Count n = s->red.wcount;
    void *acc = xb_coll_red_load(s, a->sbuf == MPI_IN_PLACE ? a->rbuf : a->sbuf);
    void *tmp = xb_coll_sched_wtmp(s, -1);
    if (acc == NULL || tmp == NULL)
        return XB_ERR_NO_MEM;
    int pof2 = 1;
    while (pof2 * 2 <= p)
        pof2 *= 2;
    int rem = p - pof2, nr = rank - rem;
    if (rank < 2 * rem) {
        if (rank % 2 == 0) {
            rc = xb_coll_sched_send(s, acc, n, s->red.wdt, rank + 1);
            nr = -1;
        } else {
            rc = xb_coll_sched_recv(s, tmp, n, s->red.wdt, rank - 1);
            if (rc == XB_OK)
                rc = xb_coll_sched_fence(s);
            if (rc == XB_OK)
                rc = xb_coll_sched_reduce(s, tmp, acc, n);
            nr = rank / 2;
        }
        if (rc == XB_OK)
            rc = xb_coll_sched_fence(s);
    }
    if (rc == XB_OK && nr >= 0)
        rc = exchange(s, &acc, &tmp, nr, pof2, rem);
    if (rc == XB_OK && rank < 2 * rem) {
        if (rank % 2 == 1)
            rc = xb_coll_sched_send(s, acc, n, s->red.wdt, rank - 1);
        else
            rc = xb_coll_sched_recv(s, acc, n, s->red.wdt, rank + 1);
        if (rc == XB_OK)
            rc = xb_coll_sched_fence(s);
    }
    if (rc == XB_OK)
        rc = xb_coll_red_store(s, acc, a->rbuf);
    return rc;
}
