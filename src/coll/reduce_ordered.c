/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * reduce_ordered.c - order-preserving binomial reduction, for ops that are
 * not commutative. The tree is rooted at rank 0 WITHOUT renumbering: after
 * round k, rank v (a multiple of 2^(k+1)) holds x_v op ... op x_(v+2^(k+1)-1),
 * the lower ranks' data always being the left operand; rank 0 ends with
 * x_0 op x_1 op ... op x_(p-1) and, if the root is another rank, sends it
 * there (one extra message).
 */
#include "coll/coll_int.h"

int xb_coll_reduce_ordered(xb_coll_sched_t *s, const xb_coll_args_t *a)
{
    int p = a->comm->size, v = a->comm->rank, root = a->root;
    const void *src = a->sbuf == MPI_IN_PLACE ? a->rbuf : a->sbuf;
    int rc = xb_coll_sched_red(s, a->rcount, a->rdt, a->op);
    if (rc != XB_OK)
        return rc;
    MPI_Count n = s->red.wcount;
    void *acc = xb_coll_red_load(s, src);
    void *tmp = xb_coll_sched_wtmp(s, -1);
    if (acc == NULL || tmp == NULL)
        return XB_ERR_NO_MEM;
    for (int mask = 1; mask < p && rc == XB_OK; mask <<= 1) {
        if (v & mask) {
            rc = xb_coll_sched_send(s, acc, n, s->red.wdt, v - mask);
            break;
        }
        if (v + mask < p) {
            rc = xb_coll_sched_recv(s, tmp, n, s->red.wdt, v + mask);
            if (rc == XB_OK)
                rc = xb_coll_sched_fence(s);
            if (rc == XB_OK)
                rc = xb_coll_sched_reduce(s, acc, tmp, n);   /* tmp = acc op tmp */
            void *t = acc;
            acc = tmp;
            tmp = t;
        }
    }
    if (rc == XB_OK && root != 0) {
        if (v == 0)
            rc = xb_coll_sched_send(s, acc, n, s->red.wdt, root);
        else if (v == root)
            rc = xb_coll_sched_recv(s, acc, n, s->red.wdt, 0);
        if (rc == XB_OK)
            rc = xb_coll_sched_fence(s);
    }
    if (rc == XB_OK && v == root)
        rc = xb_coll_red_store(s, acc, a->rbuf);
    return rc;
}
