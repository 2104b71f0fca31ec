/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * alltoall_linear.c - alltoall with every receive and send posted at once
 * and one fence: rank r receives from r-1, r-2, ... and sends to r+1,
 * r+2, ... (the pairwise order, so no rank is every rank's first target),
 * copying its own block while the first transfers move. Pairwise waits at
 * the end of each of its p - 1 steps; with more ranks than cores each wait
 * is a trip through the scheduler, while here a rank moves whatever peer
 * is ready (single copies need no CPU time of the sender). Not in place
 * (pairwise serves that).
 */
#include "coll/coll_int.h"

int xb_coll_alltoall_linear(xb_coll_sched_t *s, const xb_coll_args_t *a)
{
    int p = a->comm->size, r = a->comm->rank, rc = XB_OK;
    if (a->sbuf == MPI_IN_PLACE)
        return xb_coll_alltoall_pairwise(s, a);
    for (int k = 1; k < p && rc == XB_OK; k++) {
        int src = (r - k + p) % p;
        rc = xb_coll_sched_recv(s, xb_coll_block(a->rbuf, src, a->rcount, a->rdt), a->rcount,
                                a->rdt, src);
    }
    for (int k = 1; k < p && rc == XB_OK; k++) {
        int dst = (r + k) % p;
        rc = xb_coll_sched_send(s, xb_coll_block(a->sbuf, dst, a->scount, a->sdt), a->scount,
                                a->sdt, dst);
    }
    if (rc == XB_OK)
        rc = xb_coll_sched_copy(s, xb_coll_block(a->sbuf, r, a->scount, a->sdt), a->scount,
                                a->sdt, xb_coll_block(a->rbuf, r, a->rcount, a->rdt),
                                a->rcount, a->rdt);
    return rc;
}
