/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * bcast_binomial.c - binomial-tree broadcast. With ranks renumbered so the
 * root is 0 (v = rank - root mod p), rank v receives from v minus its lowest
 * set bit, then sends to v + 2^j for every 2^j below that bit (largest
 * subtree first). ceil(log2 p) rounds; the data is sent in the user's type,
 * so no packing happens here.
 */
#include "coll/coll_int.h"
#include "pt2pt/pt2pt.h"

int xb_coll_bcast_binomial(const xb_coll_args_t *a)
{
    xb_comm_t *comm = a->comm;
    int p = comm->size, root = a->root;
    int v = (comm->rank - root + p) % p;
    int tag = XB_COLL_TAG(XB_COLL_BCAST);
    int mask = 1, rc;
    while (mask < p) {
        if (v & mask) {
            rc = xb_coll_recv(a->rbuf, a->rcount, a->rdt, (v - mask + root) % p,
                              tag, comm);
            if (rc != XB_OK)
                return rc;
            break;
        }
        mask <<= 1;
    }
    xb_request_t *reqs[32];
    int n = 0;
    rc = XB_OK;
    for (mask >>= 1; mask > 0; mask >>= 1) {
        if (v + mask < p) {
            rc = xb_pt2pt_isend(a->rbuf, a->rcount, a->rdt, (v + mask + root) % p,
                                tag, comm, 1, &reqs[n]);
            if (rc != XB_OK)
                break;
            n++;
        }
    }
    int rc2 = xb_coll_waitall(n, reqs);
    return rc != XB_OK ? rc : rc2;
}
