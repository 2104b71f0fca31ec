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

int xb_coll_reduce_ordered(const xb_coll_args_t *a)
{
    xb_comm_t *comm = a->comm;
    int p = comm->size, v = comm->rank, root = a->root;
    int tag = XB_COLL_TAG(XB_COLL_REDUCE);
    const void *src = a->sbuf == MPI_IN_PLACE ? a->rbuf : a->sbuf;
    xb_coll_red_t r;
    int rc = xb_coll_red_init(&r, a->rcount, a->rdt, a->op);
    if (rc != XB_OK)
        return rc;
    void *acc = xb_coll_red_alloc(&r);
    void *tmp = xb_coll_red_alloc(&r);
    if (acc == NULL || tmp == NULL) {
        rc = XB_ERR_NO_MEM;
        goto out_free;
    }
    rc = xb_coll_red_import(&r, src, acc);
    for (int mask = 1; mask < p && rc == XB_OK; mask <<= 1) {
        if (v & mask) {
            rc = xb_coll_send(acc, r.wcount, r.wdt, v - mask, tag, comm);
            break;
        }
        if (v + mask < p) {
            rc = xb_coll_recv(tmp, r.wcount, r.wdt, v + mask, tag, comm);
            if (rc == XB_OK)
                rc = xb_coll_red_combine(&r, acc, tmp);   /* tmp = acc op tmp */
            void *t = acc;
            acc = tmp;
            tmp = t;
        }
    }
    if (rc == XB_OK && root != 0) {
        if (v == 0)
            rc = xb_coll_send(acc, r.wcount, r.wdt, root, tag, comm);
        else if (v == root)
            rc = xb_coll_recv(acc, r.wcount, r.wdt, 0, tag, comm);
    }
    if (rc == XB_OK && v == root)
        rc = xb_coll_red_export(&r, acc, a->rbuf);
out_free:
    xb_coll_red_free(&r, acc);
    xb_coll_red_free(&r, tmp);
    return rc;
}
