/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * bcast_binomial.c - binomial-tree broadcast. With ranks renumbered so the
 * root is 0 (v = rank - root mod p), rank v receives from v minus its lowest
 * set bit, then sends to v + 2^j for every 2^j below that bit (largest
 * subtree first). ceil(log2 p) rounds; the data travels in the user's type.
 */
#include "coll/coll_int.h"

int xb_coll_bcast_binomial(xb_coll_sched_t *s, const xb_coll_args_t *a)
{
    int p = a->comm->size, root = a->root;
    int v = (a->comm->rank - root + p) % p;
    int mask = 1, rc = XB_OK;
    while (mask < p) {
        if (v & mask) {
            rc = xb_coll_sched_recv(s, a->rbuf, a->rcount, a->rdt,
                                    (v - mask + root) % p);
            if (rc == XB_OK)
                rc = xb_coll_sched_fence(s);
            break;
        }
        mask <<= 1;
    }
    for (mask >>= 1; mask > 0 && rc == XB_OK; mask >>= 1)
        if (v + mask < p)
            rc = xb_coll_sched_send(s, a->rbuf, a->rcount, a->rdt,
                                    (v + mask + root) % p);
    return rc;
}
