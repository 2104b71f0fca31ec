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

static int exchange(const xb_coll_red_t *r, void **acc_p, void **tmp_p, int nr,
                    int pof2, int rem, xb_comm_t *comm)
{
    int tag = XB_COLL_TAG(XB_COLL_ALLREDUCE);
    for (int mask = 1; mask < pof2; mask <<= 1) {
        int np = nr ^ mask;
        int rc = xb_coll_sendrecv(*acc_p, r->wcount, r->wdt, real_rank(np, rem),
                                  *tmp_p, r->wcount, r->wdt, real_rank(np, rem),
                                  tag, comm);
        if (rc != XB_OK)
            return rc;
        if (np < nr) {
            rc = xb_coll_red_combine(r, *tmp_p, *acc_p);   /* acc = tmp op acc */
        } else {
            rc = xb_coll_red_combine(r, *acc_p, *tmp_p);   /* tmp = acc op tmp */
            void *t = *acc_p;
            *acc_p = *tmp_p;
            *tmp_p = t;
        }
        if (rc != XB_OK)
            return rc;
    }
    return XB_OK;
}

int xb_coll_allreduce_recdbl(const xb_coll_args_t *a)
{
    xb_comm_t *comm = a->comm;
    int p = comm->size, rank = comm->rank;
    int tag = XB_COLL_TAG(XB_COLL_ALLREDUCE);
    xb_coll_red_t r;
    int rc = xb_coll_red_init(&r, a->rcount, a->rdt, a->op);
    if (rc != XB_OK)
        return rc;
    void *own_mine = r.direct ? NULL : xb_coll_red_alloc(&r);
    void *own_tmp = xb_coll_red_alloc(&r);
    void *mine = r.direct ? a->rbuf : own_mine;
    void *acc = mine, *tmp = own_tmp;
    if (mine == NULL || tmp == NULL) {
        rc = XB_ERR_NO_MEM;
        goto out_free;
    }
    rc = xb_coll_red_import(&r, a->sbuf == MPI_IN_PLACE ? a->rbuf : a->sbuf, acc);
    int pof2 = 1;
    while (pof2 * 2 <= p)
        pof2 *= 2;
    int rem = p - pof2, nr;
    if (rc == XB_OK && rank < 2 * rem) {
        if (rank % 2 == 0) {
            rc = xb_coll_send(acc, r.wcount, r.wdt, rank + 1, tag, comm);
            nr = -1;
        } else {
            rc = xb_coll_recv(tmp, r.wcount, r.wdt, rank - 1, tag, comm);
            if (rc == XB_OK)
                rc = xb_coll_red_combine(&r, tmp, acc);
            nr = rank / 2;
        }
    } else {
        nr = rank - rem;
    }
    if (rc == XB_OK && nr >= 0)
        rc = exchange(&r, &acc, &tmp, nr, pof2, rem, comm);
    if (rc == XB_OK && rank < 2 * rem) {
        if (rank % 2 == 1)
            rc = xb_coll_send(acc, r.wcount, r.wdt, rank - 1, tag, comm);
        else
            rc = xb_coll_recv(acc, r.wcount, r.wdt, rank + 1, tag, comm);
    }
    if (rc == XB_OK && acc != mine)
        rc = xb_coll_red_copy(&r, acc, mine);
    if (rc == XB_OK)
        rc = xb_coll_red_export(&r, mine, a->rbuf);
out_free:
    xb_coll_red_free(&r, own_mine);
    xb_coll_red_free(&r, own_tmp);
    return rc;
}
