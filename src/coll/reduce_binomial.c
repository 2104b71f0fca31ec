/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * reduce_binomial.c - binomial-tree reduction for COMMUTATIVE ops. Ranks are
 * renumbered so the root is 0 (v = rank - root mod p); in round k a rank
 * whose bit k is set sends its partial result to v - 2^k and stops, the
 * others receive from v + 2^k (when it exists) and combine. The combine
 * order follows the tree, not the rank order: reduce_ordered.c handles
 * non-commutative ops. A leaf sends the user's buffer as is.
 */
#include "coll/coll_int.h"

int xb_coll_reduce_binomial(const xb_coll_args_t *a)
{
    xb_comm_t *comm = a->comm;
    int p = comm->size, root = a->root, tag = XB_COLL_TAG(XB_COLL_REDUCE);
    int v = (comm->rank - root + p) % p;
    bool is_root = v == 0;
    const void *src = a->sbuf == MPI_IN_PLACE ? a->rbuf : a->sbuf;
    xb_coll_red_t r;
    int rc = xb_coll_red_init(&r, a->rcount, a->rdt, a->op);
    if (rc != XB_OK)
        return rc;

    bool leaf = (v & 1) || v + 1 >= p;       /* no child in any round */
    if (leaf && !is_root && r.direct)        /* nothing to combine: send as is */
        return xb_coll_send(src, r.wcount, r.wdt, (v - (v & -v) + root) % p,
                            tag, comm);

    void *acc = is_root && r.direct ? a->rbuf : xb_coll_red_alloc(&r);
    void *tmp = xb_coll_red_alloc(&r);
    if (acc == NULL || tmp == NULL) {
        rc = XB_ERR_NO_MEM;
        goto out_free;
    }
    rc = xb_coll_red_import(&r, src, acc);
    for (int mask = 1; mask < p && rc == XB_OK; mask <<= 1) {
        if (v & mask) {
            rc = xb_coll_send(acc, r.wcount, r.wdt, (v - mask + root) % p, tag, comm);
            break;
        }
        if (v + mask < p) {
            rc = xb_coll_recv(tmp, r.wcount, r.wdt, (v + mask + root) % p, tag, comm);
            if (rc == XB_OK)
                rc = xb_coll_red_combine(&r, tmp, acc);
        }
    }
    if (rc == XB_OK && is_root)
        rc = xb_coll_red_export(&r, acc, a->rbuf);
out_free:
    if (acc != a->rbuf)
        xb_coll_red_free(&r, acc);
    xb_coll_red_free(&r, tmp);
    return rc;
}
